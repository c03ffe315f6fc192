//! Variables in the walk: assignments, what is known of each value,
//! declarations and `unset`, and the arithmetic bash evaluates (whose
//! unknown names make a [`Problem::Dynamic`]). Methods of [`Walker`];
//! touch only its state.

use super::Walker;
use super::nodes::last_named;
use crate::limits;
use crate::shell::parse::kind;
use crate::shell::sinks::{
    arithmetic_names, blank_substitutions, identifiers, is_name, is_number, name_sink,
};
use crate::shell::types::{Callee, Held, Problem, SimpleCommand, Stdin};
use crate::shell::word;
use crate::shell::word::{Word, text};
use std::collections::HashSet;
use tree_sitter::Node;

impl Walker<'_> {
    /// Walks `f` inside a new subshell scope.
    /// Records `name=value`. A value only known at run time, or one set
    /// where it may not run (a branch, a loop, the right of `&&`/`||`),
    /// leaves the variable unknown: `x=/; if false; then x=b; fi; rm -rf $x`
    /// must not be read as `rm -rf b`.
    /// When the variable had no known value, the assigned one is kept even
    /// there (`cd x && p=/; rm -rf $p`): the other case leaves it empty.
    pub(super) fn assign(&mut self, name: String, value: Word) {
        if self.integers.contains(&name) {
            // `declare -i n; n=$x`: bash evaluates the value as arithmetic.
            self.arithmetic_word(&value, 0);
        }
        let mut value = value;
        match self.cased.get(&name) {
            Some(false) => value.value = value.value.to_lowercase(),
            Some(true) => value.value = value.value.to_uppercase(),
            None => {}
        }
        let conflicting = self.conditional > 0
            && self
                .vars
                .get(&name)
                .is_some_and(|old| old.value != value.value);
        let tracked = !self.untracked && !self.volatile.contains(&name);
        self.note_touched(&name);
        if value.is_static() && !conflicting && tracked {
            self.vars.insert(name, value);
        } else {
            // The value it had may still be the one it has (`x=/; if …;
            // then x=build; fi`).
            if let Some(old) = self.vars.remove(&name) {
                self.hold(&name, Held::Word(old));
            }
            self.hold(&name, Held::Word(value));
        }
    }

    /// Records a value `name` may take at run time (see [`Script::held`]).
    ///
    /// [`Script::held`]: crate::shell::Script::held
    pub(super) fn hold(&mut self, name: &str, value: Held) {
        self.script.hold(name, value);
    }

    /// The words a function of the line is called with, as the values its
    /// positional parameters may take.
    pub(super) fn hold_positional(&mut self, arguments: &[Word]) {
        self.script.hold_positional(arguments);
    }

    /// Records that `name` changed here (see `touched`).
    pub(super) fn note_touched(&mut self, name: &str) {
        self.numeric.remove(name);
        if name == "IFS" {
            self.ifs_changed = true;
        }
        self.touched.push(name.to_string());
    }

    /// Forgets the value of `name`: from here on it is only known at run
    /// time.
    pub(super) fn forget(&mut self, name: &str) {
        self.note_touched(name);
        // The value it had may still be the one it has.
        if let Some(old) = self.vars.remove(name) {
            self.hold(name, Held::Word(old));
        }
    }

    /// Forgets every variable (`eval`, `source`: anything may be set).
    pub(super) fn forget_all(&mut self) {
        self.touched_all += 1;
        if self.function_body > 0 {
            self.untracked = true;
        }
        self.ifs_changed = true;
        // The values they had may still be the ones they have.
        let mut old: Vec<(String, Word)> = std::mem::take(&mut self.vars).into_iter().collect();
        // In a fixed order, so the same line gets the same reason.
        old.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, value) in old {
            self.hold(&name, Held::Word(value));
        }
        self.numeric.clear();
    }

    pub(super) fn walk_assignment(&mut self, node: Node, depth: usize) {
        let name = node
            .child_by_field_name("name")
            .map(|n| text(n, self.src).to_string());
        let value = node.child_by_field_name("value");
        // `arr=( a [[ b )`: bash rejects `[[` inside an array.
        if let Some(array) = value.filter(|v| kind(v) == "array") {
            let mut cursor = array.walk();
            if array
                .children(&mut cursor)
                .any(|c| text(c, self.src) == "[[")
            {
                self.script
                    .problems
                    .push(Problem::Syntax("`[[` inside an array".into()));
            }
        }
        if let Some(value) = value {
            // Commands inside the value (`x=$(rm -rf /)`) still run.
            self.walk_words_for_substitutions(value, depth + 1);
        }
        // `a=(~/.ssh/id_rsa x)`: `${a[0]}`, `${a[@]}` may be any element.
        if let (Some(array), Some(name)) = (value.filter(|v| kind(v) == "array"), &name) {
            let base = name.split('[').next().unwrap_or(name).to_string();
            let mut cursor = array.walk();
            let elements: Vec<Word> = array
                .named_children(&mut cursor)
                .map(|element| word::decode(element, self.src, &self.vars))
                .collect();
            for element in &elements {
                self.hold(&base, Held::Word(element.clone()));
            }
            if !elements.is_empty() {
                self.hold(&base, Held::Words(elements));
            }
        }
        // And inside an array subscript (`a[$(rm -rf /)]=1`), which bash
        // also evaluates as arithmetic.
        let mut element = false;
        if let Some(target) = node
            .child_by_field_name("name")
            .filter(|n| kind(n) == "subscript")
        {
            self.walk_words_for_substitutions(target, depth + 1);
            self.subscript(target);
            element = true;
        }
        // `x+=y` appends; `a[i]=y` sets one element: the value is not `y`.
        let appending = node
            .child_by_field_name("name")
            .and_then(|n| self.src.get(n.end_byte()..))
            .is_some_and(|rest| rest.starts_with(b"+="));
        if let Some(name) = name {
            // Recorded as a command of its own, so that the settings stage
            // sees it (`PAGER='sh -c …'` affects what runs later).
            let decoded = value
                .map(|v| word::decode(v, self.src, &self.vars))
                .unwrap_or_default();
            self.push(SimpleCommand {
                assignments: vec![(name.clone(), decoded)],
                words: Vec::new(),
                redirects: Vec::new(),
                stdin: Stdin::Inherited,
                text: text(node, self.src).to_string(),
                span: node.byte_range(),
                scopes: Vec::new(),
                callee: Callee::Program,
            });
            let known = value
                .map(|v| word::decode(v, self.src, &self.vars))
                .unwrap_or_default();
            self.prompt(&name, &known);
            if element || appending {
                let base = name.split('[').next().unwrap_or(&name).to_string();
                if self.integers.contains(&base) {
                    self.arithmetic_word(&known, 0);
                }
                self.forget(&base);
            } else {
                self.assign(name, known);
            }
        }
    }

    /// A subscript (`a[i]`) bash evaluates as arithmetic, unless `a` is an
    /// associative array or the subscript is `@` or `*`.
    pub(super) fn subscript(&mut self, node: Node) {
        let array = node
            .child_by_field_name("name")
            .map(|n| text(n, self.src))
            .unwrap_or("");
        if self.associative.contains(array) {
            return;
        }
        if let Some(index) = node.child_by_field_name("index") {
            let raw = text(index, self.src);
            if raw == "@" || raw == "*" {
                return;
            }
            let decoded = word::decode(index, self.src, &self.vars);
            self.arithmetic_word(&decoded, 0);
        }
    }

    /// Prompt strings bash expands as code: `PS4` under `set -x`, `PS0`,
    /// `PS1` and `PS2` in an interactive shell, and `PROMPT_COMMAND`, a
    /// script of its own. A known value is judged (a prompt as the words
    /// of `:`); one only known at run time is a [`Problem::Dynamic`].
    pub(super) fn prompt(&mut self, name: &str, value: &Word) {
        let command = name == "PROMPT_COMMAND";
        if !command && !matches!(name, "PS0" | "PS1" | "PS2" | "PS4") {
            return;
        }
        if value.dynamic {
            self.dynamic(format!(
                "`{name}` is run as code and is only known at run time"
            ));
        } else if command {
            self.script.nested.push(value.value.clone());
        } else if value.value.contains(['$', '`']) {
            self.script.nested.push(format!(": {}", value.value));
        }
    }

    /// Records a [`Problem::Dynamic`] once.
    pub(super) fn dynamic(&mut self, what: String) {
        let problem = Problem::Dynamic(what);
        if !self.script.problems.contains(&problem) {
            self.script.problems.push(problem);
        }
    }

    /// Checks a word bash evaluates as arithmetic (see [`Self::arithmetic`]):
    /// a known value is text never parsed as shell; an unknown one is
    /// checked as written.
    pub(super) fn arithmetic_word(&mut self, word: &Word, depth: u8) {
        if word.is_static() {
            self.arithmetic(&word.value, true, depth);
        } else {
            self.arithmetic(&word.source, false, depth);
        }
    }

    /// Checks `expression`, text bash evaluates as arithmetic. A name in it
    /// stands for its value, which bash evaluates again, and an array
    /// subscript in that value runs its command substitutions:
    /// `x='a[$(rm -rf ~)]'; [[ $x -eq 1 ]]` runs `rm`. A value only known
    /// at run time, an array element, or a substitution (whose output bash
    /// evaluates again) is a [`Problem::Dynamic`]; a substitution in text
    /// that was never parsed as shell (`code`: a variable's value, a quoted
    /// operand) is parsed again as a script of its own. Names the
    /// expression assigns are forgotten.
    pub(super) fn arithmetic(&mut self, expression: &str, code: bool, depth: u8) {
        if depth > 8 {
            self.dynamic("arithmetic nested more than 8 variables deep".into());
            return;
        }
        let (cleaned, substitutions) = blank_substitutions(expression);
        if !substitutions.is_empty() {
            if code {
                for inner in &substitutions {
                    self.script.nested.push(inner.clone());
                }
            }
            self.dynamic(format!(
                "`{}` is arithmetic over a command's output, which bash evaluates again",
                limits::clip(expression, 60)
            ));
        }
        let names = arithmetic_names(&cleaned);
        let assigned: HashSet<&str> = names
            .iter()
            .filter(|n| n.assigned)
            .map(|n| n.name.as_str())
            .collect();
        for name in &assigned {
            self.forget(name);
            if !self.unsure.contains(*name) && !self.untracked {
                self.numeric.insert(name.to_string());
            }
        }
        for name in names.iter().filter(|n| !assigned.contains(n.name.as_str())) {
            if name.element {
                self.dynamic(format!(
                    "the array element `{}[…]` is evaluated as arithmetic, and its value is only known at run time",
                    name.name
                ));
                continue;
            }
            match self.vars.get(&name.name).map(|w| w.value.clone()) {
                None if self.numeric.contains(&name.name) => {}
                Some(value) if is_number(&value) => {}
                Some(value) => self.arithmetic(&value, true, depth + 1),
                None => self.dynamic(format!(
                    "`{}` is evaluated as arithmetic, and its value is only known at run time",
                    name.name
                )),
            }
        }
    }

    /// `declare`, `typeset`, `local`, `export`, `readonly` with options: a
    /// nameref (`-n`) makes every name an alias of another, so no variable
    /// is tracked after it; `-i` makes assignments arithmetic; `-l` and
    /// `-u` change what is stored; `-A` makes subscripts strings.
    pub(super) fn attributes(&mut self, verb: &str, children: &[Node]) {
        let mut flags = String::new();
        let mut names = Vec::new();
        for child in children.iter().skip(1) {
            let raw = text(*child, self.src);
            if kind(*child) == "variable_assignment" {
                if let Some(name) = child.child_by_field_name("name") {
                    let name = text(name, self.src);
                    names.push(name.split('[').next().unwrap_or(name).to_string());
                }
            } else if raw.starts_with(['-', '+']) {
                flags.push_str(raw);
            } else if child.is_named() {
                names.push(raw.to_string());
            }
        }
        if flags.contains('n') && matches!(verb, "declare" | "typeset" | "local") {
            self.untracked = true;
            self.script.any_variable = true;
            self.forget_all();
        }
        for name in names {
            if flags.contains('i') {
                self.integers.insert(name.clone());
            }
            if flags.contains('A') {
                self.associative.insert(name.clone());
            }
            // The last of `-l` and `-u` counts, as in bash.
            match flags.rfind(['l', 'u']).map(|i| &flags[i..=i]) {
                Some("l") => {
                    self.cased.insert(name.clone(), false);
                }
                Some("u") => {
                    self.cased.insert(name.clone(), true);
                }
                _ => {}
            }
        }
    }

    /// `unset`: a variable named is forgotten; a function named is gone
    /// for certain after `unset -f NAME` where it surely runs, and may be
    /// gone otherwise (plain `unset NAME` removes a function when no
    /// variable has the name).
    pub(super) fn unset(&mut self, args: &[Word]) {
        let functions_only = args.iter().any(|w| w.value == "-f");
        let variables_only = args.iter().any(|w| w.value == "-v");
        let certain = self.conditional == 0 && self.function_body == 0;
        for arg in args.iter().filter(|w| !w.value.starts_with('-')) {
            // The walk marks a bare name node dynamic; only an expansion or
            // a substitution makes the name unknown.
            if arg.dynamic && arg.source.contains(['$', '`']) {
                self.forget_all();
                for callee in self.functions.values_mut() {
                    *callee = Callee::Either;
                }
                continue;
            }
            let name = arg
                .value
                .split('[')
                .next()
                .unwrap_or(&arg.value)
                .to_string();
            self.unset_names.insert(name.clone());
            if !functions_only {
                self.forget(&name);
            }
            if variables_only {
                continue;
            }
            if functions_only && certain {
                self.functions.remove(&name);
            } else if let Some(callee) = self.functions.get_mut(&name) {
                *callee = Callee::Either;
            }
        }
    }

    /// `[[ … ]]` (`double`): the operands of `-eq`, `-ne`, `-lt`, `-le`,
    /// `-gt`, `-ge` are arithmetic (`[ … ]` compares integers only). In
    /// both, the name after `-v` may hold a subscript, which bash
    /// evaluates.
    pub(super) fn test_arithmetic(&mut self, node: Node, double: bool) {
        let mut stack = vec![node];
        let mut seen = 0usize;
        while let Some(n) = stack.pop() {
            seen += 1;
            if seen > 10_000 {
                self.dynamic("a test too large to read".into());
                return;
            }
            match kind(n) {
                "command_substitution" | "process_substitution" => continue,
                "binary_expression" => {
                    let operator = n
                        .child_by_field_name("operator")
                        .map(|o| text(o, self.src))
                        .unwrap_or("");
                    if double && matches!(operator, "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge") {
                        for side in ["left", "right"] {
                            if let Some(operand) = n.child_by_field_name(side) {
                                let word = word::decode(operand, self.src, &self.vars);
                                self.arithmetic_word(&word, 0);
                            }
                        }
                        continue;
                    }
                }
                "unary_expression" => {
                    let operator = n
                        .child_by_field_name("operator")
                        .map(|o| text(o, self.src))
                        .unwrap_or("");
                    if operator == "-v"
                        && let Some(operand) = last_named(n)
                    {
                        let word = word::decode(operand, self.src, &self.vars);
                        name_sink(&word, &mut self.script);
                        continue;
                    }
                }
                _ => {}
            }
            let mut cursor = n.walk();
            stack.extend(n.named_children(&mut cursor));
        }
    }

    /// Code inside a `${…}` expansion: an array subscript is arithmetic,
    /// `${!x}` reads the variable that `x` names (a subscript in that name
    /// is evaluated), and `${x@P}` expands `x` as a prompt.
    pub(super) fn expansion_code(&mut self, node: Node) {
        let raw = text(node, self.src);
        let mut cursor = node.walk();
        let subscripts: Vec<Node> = node
            .named_children(&mut cursor)
            .filter(|c| kind(*c) == "subscript")
            .collect();
        for subscript in subscripts {
            self.subscript(subscript);
        }
        let inner = raw
            .strip_prefix("${")
            .and_then(|r| r.strip_suffix('}'))
            .unwrap_or("");
        // `${x:=y}` and `${x=y}` assign `x`.
        let name_end = inner
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(inner.len());
        let (name, operation) = inner.split_at(name_end);
        if is_name(name) && (operation.starts_with(":=") || operation.starts_with('=')) {
            // Forgotten once the command's words are read (in `push`): the
            // word itself still has the value worked out.
            self.assigned_in_words.push(name.to_string());
        }
        if let Some(name) = inner.strip_prefix('!')
            && is_name(name)
        {
            match self.vars.get(name).map(|w| w.value.clone()) {
                Some(value) => name_sink(&Word::literal(&value), &mut self.script),
                None => self.dynamic(format!(
                    "`${{!{name}}}` reads a variable named by a value only known at run time"
                )),
            }
        }
        if let Some(name) = inner.strip_suffix("@P")
            && is_name(name)
        {
            let value = self.vars.get(name).cloned().unwrap_or_else(|| Word {
                dynamic: true,
                source: raw.to_string(),
                ..Word::default()
            });
            self.prompt("PS1", &value);
        }
    }

    /// Forgets the variables a command sets from what only run time knows:
    /// `read`, `mapfile`, `printf -v`, `getopts`, `let`, `wait -p`, `cd`
    /// (`PWD`); `eval`, `source` and `.` may set any (and define or unset
    /// functions); after `trap` (a `DEBUG` trap runs before every command)
    /// none is tracked.
    pub(super) fn forget_set_by(&mut self, words: &[Word]) {
        let mut head = 0;
        while words
            .get(head)
            .is_some_and(|w| matches!(w.value.as_str(), "command" | "builtin"))
        {
            head += 1;
        }
        let Some(verb) = words.get(head) else { return };
        if matches!(verb.value.as_str(), "eval" | "source" | "." | "trap") {
            // Their scripts may define or unset functions too.
            for callee in self.functions.values_mut() {
                *callee = Callee::Either;
            }
        }
        // `set -- a b`: the positional parameters are the words after `--`.
        if verb.value == "set"
            && let Some(dashes) = words.iter().position(|w| w.value == "--")
        {
            let arguments = words.get(dashes + 1..).unwrap_or(&[]).to_vec();
            self.hold_positional(&arguments);
        }
        match verb.value.as_str() {
            "eval" | "source" | "." => self.forget_all(),
            "trap" => {
                self.untracked = true;
                self.forget_all();
            }
            "read" | "mapfile" | "readarray" | "printf" | "getopts" | "let" | "wait" | "cd"
            | "pushd" | "popd" => {
                for name in ["REPLY", "MAPFILE", "OPTARG", "OPTIND", "PWD", "OLDPWD"] {
                    self.forget(name);
                }
                // What `read` sets comes from its stdin (this command's,
                // pushed next): any word that is not an option may be a
                // name it sets, and REPLY or MAPFILE when none is.
                // `printf -v NAME FORMAT ARGS`: the value is made of the words.
                if verb.value == "printf"
                    && let Some(at) = words.iter().position(|w| w.value.starts_with("-v"))
                {
                    // `-v NAME` or `-vNAME`.
                    let glued = words.get(at).and_then(|w| w.value.get(2..)).unwrap_or("");
                    let (name, first) = if glued.is_empty() {
                        (words.get(at + 1).map(|w| w.value.clone()), at + 2)
                    } else {
                        (Some(glued.to_string()), at + 1)
                    };
                    for word in words.iter().skip(first) {
                        if let Some(name) = &name {
                            self.hold(name, Held::Word(word.clone()));
                        }
                    }
                }
                if matches!(verb.value.as_str(), "read" | "mapfile" | "readarray") {
                    let at = self.script.commands.len();
                    let names = words
                        .iter()
                        .skip(head + 1)
                        .filter(|w| !w.value.starts_with('-'))
                        .map(|w| w.value.clone())
                        .chain(["REPLY".to_string(), "MAPFILE".to_string()]);
                    for name in names.collect::<Vec<_>>() {
                        self.hold(&name, Held::Read(at));
                    }
                }
                for word in words.iter().skip(head + 1) {
                    if word.dynamic {
                        self.forget_all();
                        return;
                    }
                    for name in identifiers(&word.value) {
                        self.forget(&name);
                    }
                    // `printf -vNAME`, `read -aNAME`: a name glued to its option.
                    if let Some(glued) = word.value.strip_prefix('-').and_then(|w| w.get(1..)) {
                        for name in identifiers(glued) {
                            self.forget(&name);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}
