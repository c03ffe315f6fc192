//! Redirections in the walk: output targets, what feeds stdin (files,
//! heredocs, here-strings), and words tree-sitter hung on a redirection
//! that bash gives the command. Methods of [`Walker`]; touch only its
//! state.

use super::Walker;
use super::commands::is_glued_descriptor;
use super::nodes::{
    bash_heredoc, first_anonymous, heredoc_start, heredoc_text, is_fd_duplication,
    is_write_operator, last_named, line_start, text_end,
};
use crate::limits;
use crate::shell::guard::{dash_dropped_before, is_read_write_gap};
use crate::shell::parse::kind;
use crate::shell::sinks::blank_substitutions;
use crate::shell::types::{Callee, Problem, Redirect, SimpleCommand, Stdin};
use crate::shell::word;
use crate::shell::word::{Word, text};
use tree_sitter::Node;

/// How many of the commands walked last are searched for a group's last
/// command (see `give_to_last_command`).
const LAST_COMMAND_LOOKBACK: usize = 64;

impl Walker<'_> {
    pub(super) fn walk_redirected(&mut self, node: Node, depth: usize, stdin: &Stdin) {
        let mut redirects = Vec::new();
        let mut own_stdin = stdin.clone();
        let mut trailing: Vec<Node> = Vec::new();
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        let body = node.child_by_field_name("body");
        // The `-` tree-sitter dropped before a heredoc or a numbered
        // redirection: bash gives it to the body's last command.
        let dropped_dash = body.and_then(|b| {
            children
                .iter()
                .find(|c| c.start_byte() >= b.end_byte() && **c != b)
                .filter(|r| dash_dropped_before(b, **r, self.src))
                .map(|r| (b, r.start_byte()))
        });
        let cat_dash_heredoc = body.filter(|b| kind(b) == "command").is_some()
            && children
                .iter()
                .find(|c| kind(**c) == "heredoc_redirect")
                .and_then(|h| h.child(0))
                .filter(|o| kind(o) == "<<")
                // `cat -<<X`: the operator token took the dash.
                .is_some_and(|o| text(o, self.src).starts_with('-'));
        if cat_dash_heredoc || dropped_dash.is_some_and(|(b, _)| kind(b) == "command") {
            self.stray_words.push(Word::literal("-"));
        }
        for child in &children {
            if Some(*child) == body {
                continue;
            }
            self.collect_redirect(*child, depth, &mut redirects, &mut own_stdin, &mut trailing);
        }
        let start = self.script.commands.len();
        match body {
            Some(body) if kind(body) == "command" => {
                self.walk_command(body, depth + 1, &own_stdin, redirects);
            }
            Some(body)
                if !self.stray_words.is_empty() && !matches!(kind(body), "pipeline" | "list") =>
            {
                // Words after a compound command's redirection: bash rejects it.
                self.stray_words.clear();
                self.script
                    .problems
                    .push(Problem::Syntax("words after a compound command".into()));
                self.walk(body, depth + 1, &own_stdin);
            }
            Some(body) => {
                // A compound body (`{ …; } > out`, `while …; done < file`):
                // its commands share the stdin; the write targets belong to
                // the group, recorded on a synthetic entry so they are judged.
                // Words a closing redirection gave back (`a | nice <&- reboot`)
                // are the last command's; taken now, so no command inside the
                // body takes them first.
                let words = std::mem::take(&mut self.stray_words);
                let of_last_command =
                    matches!(kind(body), "pipeline" | "list") && own_stdin != *stdin;
                if of_last_command {
                    // `a | b <<EOF`, `a && b < file`: bash feeds the last
                    // command, tree-sitter hangs it on the whole body.
                    self.walk(body, depth + 1, stdin);
                } else {
                    self.walk(body, depth + 1, &own_stdin);
                }
                if dropped_dash.is_some() || of_last_command || !words.is_empty() {
                    let dash = dropped_dash.map(|(_, redirect_start)| redirect_start);
                    let fed = of_last_command.then(|| own_stdin.clone());
                    self.give_to_last_command(start, body, dash, fed, words);
                }
                if !redirects.is_empty() {
                    self.push(SimpleCommand {
                        assignments: Vec::new(),
                        words: Vec::new(),
                        redirects,
                        stdin: Stdin::Inherited,
                        text: text(node, self.src).to_string(),
                        span: node.byte_range(),
                        scopes: Vec::new(),
                        callee: Callee::Program,
                    });
                }
            }
            None => {
                // A bare redirection (`> file`, `: > file`) truncates its target.
                self.push(SimpleCommand {
                    assignments: Vec::new(),
                    words: Vec::new(),
                    redirects,
                    stdin: own_stdin,
                    text: text(node, self.src).to_string(),
                    span: node.byte_range(),
                    scopes: Vec::new(),
                    callee: Callee::Program,
                });
            }
        }
        // `cmd <<EOF | next` : tree-sitter puts the rest of the pipeline
        // inside the heredoc redirect; it is fed by the command above.
        let fed = start..self.script.commands.len();
        for rest in trailing {
            self.walk(rest, depth + 1, &Stdin::Pipe(fed.clone()));
        }
    }

    /// Gives the last command of a pipeline or list body (the one walked
    /// since `from` that ends where the body ends) what tree-sitter hung on
    /// the whole body: the `-` it dropped before the redirection at
    /// `dash_before` (`cat x | grep y - 2>/dev/null`), and the stdin of the
    /// body's redirections, and the words a closing redirection gave back
    /// (`a | nice <&- reboot`). Without such a command, the line is not
    /// vouched for.
    fn give_to_last_command(
        &mut self,
        from: usize,
        body: Node,
        dash_before: Option<usize>,
        stdin: Option<Stdin>,
        mut words: Vec<Word>,
    ) {
        let body_end = body.end_byte();
        let dash_end = dash_before.and_then(|redirect_start| {
            self.src
                .get(body_end..redirect_start)
                .and_then(|gap| gap.iter().position(|b| *b == b'-'))
                .map(|at| body_end + at + 1)
        });
        let last = self.script.commands.get_mut(from..).and_then(|walked| {
            walked
                .iter_mut()
                .rev()
                // Near the end: only a substitution in its words is walked
                // after it. A bound, so nested groups cost no more.
                .take(LAST_COMMAND_LOOKBACK)
                .find(|c| c.span.end == body_end && !c.words.is_empty())
        });
        let Some(command) = last else {
            self.script.problems.push(Problem::MergedLine(
                limits::clip(text(body, self.src), 60).to_string(),
            ));
            return;
        };
        if let Some(end) = dash_end {
            command.words.push(Word::literal("-"));
            command.span.end = end;
            command.text =
                String::from_utf8_lossy(self.src.get(command.span.clone()).unwrap_or_default())
                    .into_owned();
        } else if dash_before.is_some() {
            self.script.problems.push(Problem::DroppedText("-".into()));
        }
        if let Some(stdin) = stdin {
            command.stdin = stdin;
        }
        command.words.append(&mut words);
    }

    pub(super) fn collect_redirect<'t>(
        &mut self,
        child: Node<'t>,
        depth: usize,
        redirects: &mut Vec<Redirect>,
        stdin: &mut Stdin,
        trailing: &mut Vec<Node<'t>>,
    ) {
        if self.in_bash_body(child) {
            return;
        }
        match kind(child) {
            "file_redirect" => {
                let mut op = child
                    .child_by_field_name("operator")
                    .or_else(|| first_anonymous(child))
                    .map(|o| text(o, self.src).to_string())
                    .unwrap_or_default();
                let mut cursor = child.walk();
                if op == "<"
                    && child
                        .children(&mut cursor)
                        .any(|c| is_read_write_gap(c, self.src))
                {
                    op = "<>".to_string();
                }
                // `<&-`, `2>&-` close a descriptor and take no target:
                // tree-sitter reads the `-` into the operator and the next
                // word as the target (`cat 2>&- ~/.ssh/id_rsa`); to bash it
                // is the command's argument.
                if op.ends_with("&-") {
                    let mut cursor = child.walk();
                    let words: Vec<Node> = child
                        .children_by_field_name("destination", &mut cursor)
                        .filter(|d| !is_glued_descriptor(*d, self.src))
                        .collect();
                    for word_node in words {
                        self.walk_words_for_substitutions(word_node, depth + 1);
                        let word = word::decode(word_node, self.src, &self.vars);
                        self.stray_words.push(word);
                    }
                    return;
                }
                let Some(dest) = child
                    .child_by_field_name("destination")
                    .or_else(|| last_named(child))
                else {
                    return;
                };
                // `ls < 2>&1`: the target tree-sitter found is the descriptor
                // of the next redirection, and bash finds no target at all.
                if kind(dest) == "number"
                    && self
                        .src
                        .get(dest.end_byte())
                        .is_some_and(|b| *b == b'>' || *b == b'<')
                {
                    self.script
                        .problems
                        .push(Problem::Syntax("a redirection without a target".into()));
                }
                // `cmd <` then a newline: bash wants the target on the line.
                let gap = self
                    .src
                    .get(child.start_byte()..dest.start_byte())
                    .unwrap_or(&[]);
                if gap.contains(&b'\n') {
                    self.script.problems.push(Problem::Syntax(
                        "a redirection with its target on the next line".into(),
                    ));
                }
                self.walk_words_for_substitutions(dest, depth + 1);
                let target = word::decode(dest, self.src, &self.vars);
                let mut cursor = child.walk();
                let extra: Vec<Node> = child
                    .children_by_field_name("destination", &mut cursor)
                    .filter(|d| *d != dest && !is_glued_descriptor(*d, self.src))
                    .collect();
                for word_node in extra {
                    self.walk_words_for_substitutions(word_node, depth + 1);
                    let word = word::decode(word_node, self.src, &self.vars);
                    self.stray_words.push(word);
                }
                if op == "<" {
                    // `< /dev/stdin` reads the stdin the command has.
                    if !crate::feeds::is_stdin_word(&target) {
                        *stdin = Stdin::File(target);
                    }
                } else if is_write_operator(&op) && !is_fd_duplication(&op, &target) {
                    redirects.push(Redirect { op, target });
                }
            }
            "herestring_redirect" => {
                if let Some(value) = last_named(child) {
                    let gap = self
                        .src
                        .get(child.start_byte()..value.start_byte())
                        .unwrap_or(&[]);
                    let descriptor = kind(value) == "number"
                        && self
                            .src
                            .get(value.end_byte())
                            .is_some_and(|b| *b == b'>' || *b == b'<');
                    if descriptor || gap.contains(&b'\n') {
                        self.script
                            .problems
                            .push(Problem::Syntax("a here-string without a word".into()));
                    }
                    self.walk_words_for_substitutions(value, depth + 1);
                    *stdin = Stdin::HereString(word::decode(value, self.src, &self.vars));
                }
            }
            "heredoc_redirect" => {
                let mut delimiter = String::new();
                let mut quoted = false;
                let mut body_text = String::new();
                let mut literal_body = true;
                let mut cursor = child.walk();
                let parts: Vec<Node> = child.children(&mut cursor).collect();
                // `<<-` strips leading tabs from the body and the end line.
                let strip_tabs = parts.iter().any(|p| kind(*p) == "<<-");
                let mut body_from = None;
                // A third silent misparse of tree-sitter-bash: a body whose
                // first line starts with `\` is read as a line continuation,
                // and that line becomes an argument of the redirection, out
                // of the body (`bash <<'EOF'\n\\rm -rf /\nEOF` had an
                // empty body). Any part that spans a newline before the body
                // is one.
                let body_start = parts
                    .iter()
                    .find(|p| kind(**p) == "heredoc_body")
                    .map_or(usize::MAX, |b| b.start_byte());
                // The line may also end between the operator and such an
                // argument (`<<'EOF'`, newline, `\`, newline, `rm -rf ~`:
                // the words of the body's second line became arguments, each
                // without a newline of its own): a newline there that no
                // backslash escapes ends the operator's line for bash.
                let start_end = parts
                    .iter()
                    .find(|p| kind(**p) == "heredoc_start")
                    .map_or(child.start_byte(), |s| s.end_byte());
                let ends_line_before = |p: &Node| {
                    self.src
                        .get(start_end..p.start_byte())
                        .is_some_and(has_unescaped_newline)
                };
                if parts.iter().any(|p| {
                    p.is_named()
                        && !matches!(kind(p), "heredoc_start" | "heredoc_body" | "heredoc_end")
                        && p.start_byte() < body_start
                        && (text(*p, self.src).contains('\n') || ends_line_before(p))
                }) {
                    self.script.problems.push(Problem::MergedLine(
                        "the heredoc's first line, read as an argument".into(),
                    ));
                }
                for part in parts {
                    match kind(part) {
                        "heredoc_start" => {
                            let delim = text(part, self.src);
                            quoted = delim.contains(['\'', '"', '\\']);
                            delimiter = delim.replace(['\'', '"', '\\'], "");
                            // `<< &`: bash wants a word, not an operator.
                            if delim.is_empty()
                                || delim.starts_with(['&', '|', ';', '(', ')', '<', '>'])
                                || delim.starts_with("$(")
                            {
                                self.script.problems.push(Problem::Syntax(format!(
                                    "`<< {delim}` has no delimiter word"
                                )));
                            }
                        }
                        "heredoc_body" => {
                            body_from = Some(heredoc_start(part, self.src));
                            body_text = heredoc_text(part, self.src);
                            if !quoted {
                                let mut c = part.walk();
                                let kids: Vec<Node> = part.named_children(&mut c).collect();
                                for k in kids {
                                    if kind(k) != "heredoc_content" {
                                        literal_body = false;
                                        self.walk_words_for_substitutions(k, depth + 1);
                                    }
                                }
                            }
                        }
                        "file_redirect" | "herestring_redirect" => {
                            let mut ignored = Stdin::Inherited;
                            self.collect_redirect(part, depth, redirects, &mut ignored, trailing);
                        }
                        "heredoc_end" => {
                            let end = text(part, self.src).trim();
                            if !delimiter.is_empty() && end != delimiter {
                                self.script.problems.push(Problem::Syntax(format!(
                                    "a heredoc opened with `{delimiter}` ends with `{}`",
                                    limits::clip(end, 30)
                                )));
                            } else if !delimiter.is_empty() {
                                // A sixth silent misparse of tree-sitter-bash:
                                // its scanner ends a heredoc at a body line
                                // that only starts like the delimiter
                                // (`    EOF = 1`), and reads the lines after
                                // it as commands. Bash reads on to the line
                                // that is the delimiter alone, so commands
                                // after that line were hidden, as body of a
                                // later heredoc tree-sitter opened in between.
                                // The end must be on the line where bash ends
                                // the body (that line is the delimiter alone).
                                let end_line = line_start(self.src, part.start_byte());
                                let from = body_from.unwrap_or(end_line);
                                let limit = text_end(child, self.src.len());
                                let bash =
                                    bash_heredoc(self.src, from, limit, &delimiter, strip_tabs);
                                if bash.end_line != Some(end_line) {
                                    let line = self
                                        .src
                                        .get(end_line..)
                                        .unwrap_or_default()
                                        .split(|b| *b == b'\n')
                                        .next()
                                        .unwrap_or(&[]);
                                    self.script.problems.push(Problem::HeredocEnd(
                                        limits::clip(&String::from_utf8_lossy(line), 60)
                                            .to_string(),
                                    ));
                                    self.bash_bodies.push(from..bash.past_end);
                                    body_text = bash.body;
                                    // A heredoc tree-sitter opened in the lines
                                    // it misread can end at the same line.
                                    if let Some(after) = bash.after.filter(|a| {
                                        !a.trim().is_empty()
                                            && !self.script.after_heredoc.contains(a)
                                    }) {
                                        self.script.after_heredoc.push(after);
                                    }
                                }
                            }
                        }
                        _ if part.is_named() => trailing.push(part),
                        _ => {}
                    }
                }
                // Substitutions in an unquoted body run (tree-sitter reads
                // no backquote there): each is parsed again on its own.
                if !quoted {
                    let (_, substitutions) = blank_substitutions(&body_text);
                    if !substitutions.is_empty() {
                        literal_body = false;
                    }
                    self.script.nested.extend(substitutions);
                }
                *stdin = Stdin::Heredoc {
                    body: body_text,
                    literal: quoted || literal_body,
                };
            }
            _ if child.is_named() => {
                // Not a redirect: walk it like any other node.
                let keep = stdin.clone();
                self.walk(child, depth + 1, &keep);
            }
            _ => {}
        }
    }
}

/// Whether `bytes` hold a newline not escaped by a backslash (an even run
/// of backslashes before it escapes none): where bash ends a line.
fn has_unescaped_newline(bytes: &[u8]) -> bool {
    bytes.iter().enumerate().any(|(at, b)| {
        *b == b'\n'
            && bytes
                .get(..at)
                .unwrap_or_default()
                .iter()
                .rev()
                .take_while(|c| **c == b'\\')
                .count()
                % 2
                == 0
    })
}
