//! Commands in the walk: simple commands and their words, builtins that
//! tree-sitter names apart (declarations, `unset`, `test`), pipelines and
//! the and-or lists inside them, and substitutions inside words. Methods
//! of [`Walker`]; touch only its state.

use super::Walker;
use super::nodes::{RESERVED_WORDS, has_bare_newline, list_in_stage, split_backquoted};
use crate::limits;
use crate::shell::guard::dash_dropped_before;
use crate::shell::parse::kind;
use crate::shell::types::{Callee, Problem, Redirect, SimpleCommand, Stdin};
use crate::shell::word;
use crate::shell::word::{Word, text};
use std::ops::Range;
use tree_sitter::Node;

impl Walker<'_> {
    pub(super) fn walk_pipeline(&mut self, node: Node, depth: usize, stdin: &Stdin) {
        let mut cursor = node.walk();
        let mut stages: Vec<Node> = node
            .named_children(&mut cursor)
            .filter(|c| kind(c) != "comment")
            .collect();
        // A fifth silent misparse: a pipeline of three or more stages
        // followed by `&&` or `||` (`a | b | c || cd x; tee f`) is read as
        // `a | { b | c || cd x; }`, a `cd` in a pipeline stage. bash runs
        // `{ a | b | c; } || cd x`: the list's first element continues the
        // pipeline, and the rest runs after it, in this shell.
        // The pipeline's continuation can itself end in such a list
        // (`a | b | c | d || e | f || g`): unfolded until it does not.
        let mut rest_of_lists: Vec<Node> = Vec::new();
        while stages.len() > 1
            && let Some(&last) = stages.last()
            && kind(last) == "list"
            && rest_of_lists.len() < limits::MAX_TREE_DEPTH
        {
            let mut first = last;
            while kind(first) == "list" {
                match first.named_child(0) {
                    Some(child) => first = child,
                    None => break,
                }
            }
            stages.pop();
            if kind(first) == "pipeline" {
                let mut c = first.walk();
                stages.extend(
                    first
                        .named_children(&mut c)
                        .filter(|n| kind(n) != "comment"),
                );
            } else {
                stages.push(first);
            }
            rest_of_lists.push(last);
        }
        if stages.iter().skip(1).any(|s| list_in_stage(*s).is_some()) {
            self.script.problems.push(Problem::MergedLine(
                limits::clip(text(node, self.src), 60).to_string(),
            ));
        }
        let mut previous: Option<Range<usize>> = None;
        let mut after_list = false;
        for (i, stage) in stages.into_iter().enumerate() {
            let stage_stdin = match &previous {
                Some(range) if i > 0 => Stdin::Pipe(range.clone()),
                _ => stdin.clone(),
            };
            if i == 0
                && let Some(list) = list_in_stage(stage)
            {
                // A fourth silent misparse of tree-sitter-bash: a
                // redirection on the last command of an and-or list before
                // a `|` (`cd .git/hooks && echo x 2>&1 | tee pre-commit`)
                // makes it read `{ cd … && echo x 2>&1; } | tee …`, a `cd`
                // in a pipeline stage that does not outlive it. bash runs
                // `cd … && { echo x 2>&1 | tee …; }`: the list's commands
                // but the last run here, the last one starts the pipeline.
                let last = self.walk_list_but_last(list, depth, &stage_stdin);
                self.conditional += 1;
                after_list = true;
                let start = self.script.commands.len();
                self.in_subshell(|w| w.walk_list_stage(stage, last, depth, &stage_stdin));
                previous = Some(start..self.script.commands.len());
                continue;
            }
            let start = self.script.commands.len();
            // Every stage of a pipeline runs in a subshell of its own.
            self.in_subshell(|w| w.walk(stage, depth + 1, &stage_stdin));
            previous = Some(start..self.script.commands.len());
        }
        if after_list {
            self.conditional -= 1;
        }
        // Inner lists come first in the text.
        for list in rest_of_lists.into_iter().rev() {
            self.walk_list_but_first(list, depth, stdin);
        }
    }

    /// Walks an and-or list's elements but its first (the leftmost, inside
    /// nested lists): all come after an operator, so may not run.
    pub(super) fn walk_list_but_first(&mut self, list: Node, depth: usize, stdin: &Stdin) {
        let mut cursor = list.walk();
        let children: Vec<Node> = list.children(&mut cursor).collect();
        for (i, child) in children.into_iter().enumerate() {
            if i == 0 {
                if kind(child) == "list" {
                    self.walk_list_but_first(child, depth + 1, stdin);
                }
                continue;
            }
            self.conditionally(|w| w.walk(child, depth + 1, stdin));
        }
    }

    /// Walks an and-or list's elements but the last, as `walk_list`
    /// does; returns the last.
    pub(super) fn walk_list_but_last<'t>(
        &mut self,
        list: Node<'t>,
        depth: usize,
        stdin: &Stdin,
    ) -> Option<Node<'t>> {
        let mut cursor = list.walk();
        let children: Vec<Node> = list.children(&mut cursor).collect();
        let (last, before) = children.split_last()?;
        let mut after_operator = false;
        for child in before {
            if matches!(kind(child), "&&" | "||") {
                after_operator = true;
            }
            if after_operator {
                self.conditionally(|w| w.walk(*child, depth + 1, stdin));
            } else {
                self.walk(*child, depth + 1, stdin);
            }
        }
        Some(*last)
    }

    /// The first stage of a pipeline tree-sitter read as a list: its last
    /// element, with the redirections written after it.
    pub(super) fn walk_list_stage(
        &mut self,
        stage: Node,
        last: Option<Node>,
        depth: usize,
        stdin: &Stdin,
    ) {
        let Some(last) = last.filter(|l| l.is_named()) else {
            self.script.problems.push(Problem::MergedLine(
                limits::clip(text(stage, self.src), 60).to_string(),
            ));
            return;
        };
        if kind(stage) != "redirected_statement" {
            self.walk(last, depth + 1, stdin);
            return;
        }
        let mut redirects = Vec::new();
        let mut own_stdin = stdin.clone();
        let mut trailing: Vec<Node> = Vec::new();
        let body = stage.child_by_field_name("body");
        let mut cursor = stage.walk();
        let children: Vec<Node> = stage.children(&mut cursor).collect();
        let first_redirect = body.and_then(|b| {
            children
                .iter()
                .copied()
                .find(|c| c.start_byte() >= b.end_byte() && *c != b)
        });
        for child in children {
            if Some(child) != body {
                // A `-` dropped before it (`a && b - 2>y | c`): not put
                // back here, so the line is not vouched for.
                if let Some(b) = body
                    && Some(child) == first_redirect
                    && dash_dropped_before(b, child, self.src)
                {
                    self.script.problems.push(Problem::DroppedText("-".into()));
                }
                self.collect_redirect(child, depth, &mut redirects, &mut own_stdin, &mut trailing);
            }
        }
        if kind(last) == "command" && trailing.is_empty() && self.stray_words.is_empty() {
            self.walk_command(last, depth + 1, &own_stdin, redirects);
        } else {
            // Another shape around it: walked, and not vouched for.
            self.stray_words.clear();
            self.walk(last, depth + 1, &own_stdin);
            for rest in trailing {
                self.walk(rest, depth + 1, &own_stdin);
            }
            self.script.problems.push(Problem::MergedLine(
                limits::clip(text(stage, self.src), 60).to_string(),
            ));
        }
    }

    /// Declarations (`export`, `local`, `declare`), `unset` and `[[ … ]]` are
    /// simple commands whose words may hold substitutions.
    pub(super) fn walk_builtin_like(&mut self, node: Node, depth: usize, stdin: &Stdin) {
        let mut words = Vec::new();
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        let verb = match kind(node) {
            // `[ … ]` and `[[ … ]]` both: a test, closed (see engine's `[[` check).
            "test_command" => "[[".to_string(),
            _ => children
                .first()
                .map(|c| text(*c, self.src).to_string())
                .unwrap_or_default(),
        };
        words.push(Word::literal(&verb));
        if kind(node) == "declaration_command" {
            self.attributes(&verb, &children);
        }
        if kind(node) == "test_command" {
            let double = text(node, self.src).starts_with("[[");
            self.test_arithmetic(node, double);
        }
        for child in children
            .iter()
            .skip(if kind(node) == "test_command" { 0 } else { 1 })
        {
            self.walk_words_for_substitutions(*child, depth + 1);
            if kind(child) == "variable_assignment" {
                self.walk_assignment(*child, depth + 1);
            }
            if kind(child) == "variable_assignment" {
                // `export NAME=value`: the word bash sees, value unquoted.
                let name = child
                    .child_by_field_name("name")
                    .map(|n| text(n, self.src))
                    .unwrap_or("");
                let mut value = child
                    .child_by_field_name("value")
                    .map(|v| word::decode(v, self.src, &self.vars))
                    .unwrap_or_default();
                value.value = format!("{name}={}", value.value);
                value.source = text(*child, self.src).to_string();
                words.push(value);
            } else if child.is_named() && kind(node) != "test_command" {
                words.push(word::decode(*child, self.src, &self.vars));
            }
        }
        if kind(node) == "test_command" {
            words.push(Word::literal("]]"));
        }
        if kind(node) == "unset_command" {
            self.unset(words.get(1..).unwrap_or(&[]));
        }
        self.push(SimpleCommand {
            assignments: Vec::new(),
            words,
            redirects: Vec::new(),
            stdin: stdin.clone(),
            text: text(node, self.src).to_string(),
            span: node.byte_range(),
            scopes: Vec::new(),
            callee: Callee::Program,
        });
    }

    /// Walks a word-like node only for the commands inside its substitutions.
    pub(super) fn walk_words_for_substitutions(&mut self, node: Node, depth: usize) {
        if self.full {
            return;
        }
        if depth > limits::MAX_TREE_DEPTH {
            if !self.script.problems.contains(&Problem::TooDeep) {
                self.script.problems.push(Problem::TooDeep);
            }
            return;
        }
        match kind(node) {
            "arithmetic_expansion" => {
                let raw = text(node, self.src);
                let inner = raw
                    .strip_prefix("$((")
                    .and_then(|r| r.strip_suffix("))"))
                    .or_else(|| raw.strip_prefix("$[").and_then(|r| r.strip_suffix(']')))
                    .unwrap_or(raw);
                self.arithmetic(inner, false, 0);
                let mut cursor = node.walk();
                let children: Vec<Node> = node.children(&mut cursor).collect();
                for child in children {
                    self.walk_words_for_substitutions(child, depth + 1);
                }
            }
            "command_substitution" | "process_substitution" => {
                self.backquoted_bodies(node);
                self.in_subshell(|w| w.walk_children(node, depth, &Stdin::Inherited))
            }
            // A statement where bash expects a word (`ls ( rm x )`): bash
            // rejects the line; its commands are judged all the same.
            "subshell"
            | "compound_statement"
            | "command"
            | "pipeline"
            | "list"
            | "redirected_statement" => {
                self.script.problems.push(Problem::Syntax(format!(
                    "`{}` where bash expects a word",
                    limits::clip(text(node, self.src), 40)
                )));
                self.walk(node, depth, &Stdin::Inherited);
            }
            _ => {
                let expansion = kind(node) == "expansion";
                if expansion {
                    self.expansion_code(node);
                }
                let mut cursor = node.walk();
                let children: Vec<Node> = node.children(&mut cursor).collect();
                for child in children {
                    if expansion && kind(child) == "word" {
                        self.substitution_in_expansion_word(child);
                    } else {
                        self.walk_words_for_substitutions(child, depth + 1);
                    }
                }
            }
        }
    }

    /// tree-sitter-bash does not read a backquoted substitution as bash
    /// does. Bash ends it at the first unescaped backquote (`` `a``b` `` is
    /// two substitutions, which tree-sitter reads as one), and removes the
    /// backslash from `` \` ``, `\$` and `\\` before running the body
    /// (`` `echo \`rm x\`` `` runs `rm x`, which tree-sitter leaves as
    /// text). Each body, read bash's way, is parsed again on its own.
    pub(super) fn backquoted_bodies(&mut self, node: Node) {
        let raw = text(node, self.src);
        if !raw.starts_with('`') || !(raw.contains('\\') || raw.matches('`').count() > 2) {
            return;
        }
        for body in split_backquoted(raw) {
            self.script.nested.push(body);
        }
    }

    /// tree-sitter-bash reads `${x:-`cmd`}` as a plain word: the
    /// substitution inside is parsed again on its own. (Found from the
    /// expansion down: `Node::parent` costs a walk from the root.)
    pub(super) fn substitution_in_expansion_word(&mut self, node: Node) {
        let raw = text(node, self.src);
        if let Some(start) = raw.find(['`', '$']) {
            let inner = raw[start..].trim_matches('`');
            let inner = inner
                .strip_prefix("$(")
                .and_then(|i| i.strip_suffix(')'))
                .unwrap_or(inner);
            if raw.contains('`') || raw.contains("$(") {
                self.script.nested.push(inner.to_string());
            }
        }
    }

    pub(super) fn walk_command(
        &mut self,
        node: Node,
        depth: usize,
        stdin: &Stdin,
        mut redirects: Vec<Redirect>,
    ) {
        let mut assignments = Vec::new();
        // Which assignments append (`x+=y`).
        let mut appending: Vec<usize> = Vec::new();
        let mut words = Vec::new();
        let mut own_stdin = stdin.clone();
        let mut trailing = Vec::new();
        // Arguments a redirection after this command took (see `stray_words`).
        let after_redirects = std::mem::take(&mut self.stray_words);
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        let mut merged_line = false;
        let mut previous_end: Option<usize> = None;
        // A `==` or `=~` token glued to the word after it (`=='x'`): the
        // start of that word.
        let mut glued: Option<Node> = None;
        for child in children {
            if self.in_bash_body(child) {
                continue;
            }
            if let Some(operator) = glued
                && !(child.is_named() && child.start_byte() == operator.end_byte())
            {
                // Nothing follows it after all: a word of its own.
                words.push(Word::literal(text(operator, self.src)));
                glued = None;
            }
            if let Some(end) = previous_end {
                // Guard for tree-sitter-bash#347: an unescaped newline
                // between two words of one command.
                let gap = self.src.get(end..child.start_byte()).unwrap_or(&[]);
                if has_bare_newline(gap) {
                    merged_line = true;
                }
            }
            previous_end = Some(child.end_byte());
            match kind(child) {
                "variable_assignment" => {
                    let name = child
                        .child_by_field_name("name")
                        .map(|n| text(n, self.src).to_string());
                    let value = child.child_by_field_name("value");
                    if let Some(v) = value {
                        self.walk_words_for_substitutions(v, depth + 1);
                    }
                    let decoded = value
                        .map(|v| word::decode(v, self.src, &self.vars))
                        .unwrap_or_default();
                    if child
                        .child_by_field_name("name")
                        .and_then(|n| self.src.get(n.end_byte()..))
                        .is_some_and(|rest| rest.starts_with(b"+="))
                    {
                        appending.push(assignments.len());
                    }
                    if let Some(name) = name {
                        assignments.push((name, decoded));
                    }
                }
                "file_redirect" | "heredoc_redirect" | "herestring_redirect" => {
                    self.collect_redirect(
                        child,
                        depth,
                        &mut redirects,
                        &mut own_stdin,
                        &mut trailing,
                    );
                    words.append(&mut self.stray_words);
                }
                "comment" => {}
                // `time (…)`: bash times a compound command; what it runs
                // is judged as commands, not as a word.
                "subshell" | "compound_statement"
                    if !words.is_empty()
                        && words
                            .iter()
                            .all(|w| matches!(w.source.as_str(), "time" | "-p")) =>
                {
                    self.walk(child, depth + 1, &own_stdin);
                }
                _ if is_glued_descriptor(child, self.src) => {}
                _ if child.is_named() => {
                    self.words_seen += 1;
                    if self.words_seen > limits::MAX_WORDS {
                        if !self.full {
                            self.script.problems.push(Problem::TooMany);
                            self.full = true;
                        }
                        return;
                    }
                    self.walk_words_for_substitutions(child, depth + 1);
                    let mut decoded = word::decode(child, self.src, &self.vars);
                    if let Some(operator) = glued.take() {
                        let prefix = text(operator, self.src);
                        decoded.value.insert_str(0, prefix);
                        decoded.source.insert_str(0, prefix);
                    }
                    // An unquoted `$x` whose value is known is split into
                    // words as bash does (`x="rm -rf"; $x /`).
                    let unquoted_expansion =
                        matches!(kind(child), "simple_expansion" | "expansion")
                            || (kind(child) == "command_name"
                                && child.named_child(0).is_some_and(|c| {
                                    matches!(kind(c), "simple_expansion" | "expansion")
                                }));
                    // With `IFS` set, bash splits on other characters.
                    if unquoted_expansion && self.ifs_changed {
                        decoded.dynamic = true;
                    }
                    // An unquoted expansion of an empty or blank value is
                    // no word at all (`x=; $x rm -rf ~` runs `rm`).
                    let vanishes = unquoted_expansion
                        && decoded.is_static()
                        && decoded.value.trim_matches([' ', '\t', '\n']).is_empty();
                    if vanishes {
                        continue;
                    }
                    if unquoted_expansion
                        && decoded.is_static()
                        && decoded.value.contains([' ', '\t', '\n'])
                    {
                        for part in decoded
                            .value
                            .split([' ', '\t', '\n'])
                            .filter(|p| !p.is_empty())
                        {
                            let mut piece = decoded.clone();
                            piece.value = part.to_string();
                            words.push(piece);
                        }
                    } else {
                        words.push(decoded);
                    }
                }
                // tree-sitter reads a `==` or `=~` argument as the test
                // operator token (`echo a == b`, and `=='x'` as two
                // pieces); to bash it is a word, or the start of one.
                "==" | "=~" => glued = Some(child),
                _ => {}
            }
        }
        if let Some(operator) = glued {
            words.push(Word::literal(text(operator, self.src)));
        }
        words.extend(after_redirects);
        if words.first().is_some_and(|w| w.value == "let") {
            for word in words.iter().skip(1) {
                self.arithmetic_word(word, 0);
            }
        }
        let callee = self.callee_of(words.first());
        // A function of the line called with words: its `$1`, `$@` may be
        // any of them.
        if callee != Callee::Program {
            self.hold_positional(words.get(1..).unwrap_or(&[]));
        }
        if words
            .first()
            .is_some_and(|w| matches!(w.value.as_str(), "eval" | "trap"))
            && !self.functions.is_empty()
        {
            let mut in_scope: Vec<(String, Callee)> = self
                .functions
                .iter()
                .map(|(name, callee)| {
                    // Inside a function body, which functions exist when it
                    // runs is not known.
                    let callee = if self.function_body > 0 {
                        Callee::Either
                    } else {
                        *callee
                    };
                    (name.clone(), callee)
                })
                .collect();
            in_scope.sort();
            self.script
                .functions_at
                .push((self.script.commands.len(), in_scope));
        }
        self.forget_set_by(&words);
        let text_of = text(node, self.src);
        // A reserved word where a command name belongs (`then ls`, a stray
        // `fi`): bash rejects the line, tree-sitter reads a command.
        if let Some(first) = words.first()
            && RESERVED_WORDS.contains(&first.source.as_str())
        {
            self.script
                .problems
                .push(Problem::Syntax(format!("unexpected `{}`", first.source)));
        }
        // tree-sitter-bash has no `coproc`: it reads a command named so.
        // `coproc cmd args` parses fine; `coproc` alone, or followed by a
        // name and a compound command (`coproc NAME { …; }`), does not.
        let after_prefixes = words
            .iter()
            .skip_while(|w| matches!(w.source.as_str(), "time" | "-p" | "!"))
            .collect::<Vec<_>>();
        let coproc_misread = after_prefixes.first().is_some_and(|w| w.source == "coproc")
            && (after_prefixes.len() == 1
                || after_prefixes.iter().skip(1).any(|w| {
                    RESERVED_WORDS.contains(&w.source.as_str())
                        || matches!(
                            w.source.as_str(),
                            "{" | "if"
                                | "for"
                                | "while"
                                | "until"
                                | "case"
                                | "select"
                                | "[["
                                | "(("
                                | "coproc"
                                | "function"
                                | "time"
                                | "!"
                        )
                }));
        if coproc_misread {
            self.script
                .problems
                .push(Problem::Unsupported("`coproc` is not parsed".into()));
        }
        // `time` with nothing to time before an operator (`time &`,
        // `time | x`): bash rejects it.
        let only_time = !words.is_empty()
            && words
                .iter()
                .all(|w| matches!(w.source.as_str(), "time" | "-p"));
        // Looked at only for a lone `time`: tree-sitter finds a node's
        // parent and siblings from the root down, a cost that grows with
        // its depth (every command of `$(echo $(echo …))` paid it).
        let operator_follows = || {
            [
                node.next_sibling(),
                node.parent().and_then(|p| p.next_sibling()),
            ]
            .into_iter()
            .flatten()
            .any(|n| matches!(kind(n), "&" | "|" | "|&" | "&&" | "||"))
        };
        if only_time && operator_follows() {
            self.script
                .problems
                .push(Problem::Syntax("`time` with nothing to time".into()));
        }
        if merged_line {
            self.script
                .problems
                .push(Problem::MergedLine(limits::clip(text_of, 60).to_string()));
        }
        for (name, value) in &assignments {
            self.prompt(name, value);
        }
        if words.is_empty() {
            // Assignments alone (`A=1 B=2`) behave like `x=…` statements.
            for (i, (name, value)) in assignments.iter().enumerate() {
                if appending.contains(&i) {
                    self.forget(name);
                } else {
                    self.assign(name.clone(), value.clone());
                }
            }
        }
        let start = self.script.commands.len();
        self.push(SimpleCommand {
            assignments,
            words,
            redirects,
            stdin: own_stdin,
            text: text_of.to_string(),
            span: node.byte_range(),
            scopes: Vec::new(),
            callee,
        });
        let fed = start..self.script.commands.len();
        for rest in trailing {
            self.walk(rest, depth + 1, &Stdin::Pipe(fed.clone()));
        }
    }
}

/// tree-sitter-bash reads the descriptor of `cmd 0<file`, `0<&-`, `0>x` as
/// an argument `0` (or, after another redirection, as one more target of
/// it) and the rest as a redirection; bash reads one redirection of fd 0
/// (`nice 0<&0 rm -rf ~` runs `rm`, not a program `0`). Whether `node` is
/// such a number: digits with a `<` or `>` right after them, which to bash
/// are always a descriptor.
pub(super) fn is_glued_descriptor(node: Node, src: &[u8]) -> bool {
    kind(node) == "number"
        && src
            .get(node.end_byte())
            .is_some_and(|b| matches!(b, b'<' | b'>'))
        && src
            .get(node.byte_range())
            .is_some_and(|digits| digits.iter().all(u8::is_ascii_digit))
}
