//! The shell lane's fast path: plain command lines read by hand.
//!
//! Most lines agents run are plain: words, quotes without expansions,
//! `|`, `&&`, `||`, `;` and simple redirections (`grep -n 'def f' a.py |
//! head -5`, `python x.py 2>&1`), or a file written by a quoted heredoc and
//! then run. For those, tree-sitter-bash and the walk of its tree cost
//! about 20 times what it takes to read the line by hand.
//!
//! Takes a line; returns the [`Script`] the tree-sitter walk
//! ([`super::parse::parse_with_tree_sitter`]) returns for it, or `None`
//! when the line is not plain. One difference is on purpose: where
//! tree-sitter ends a heredoc at a body line that only starts like the
//! delimiter ([`Problem::HeredocEnd`]), this reads the body as bash does
//! (see [`same_reading`]). Anything outside the narrow grammar below is
//! `None`, and the line goes to tree-sitter:
//!
//! - words of `A-Za-z0-9 _ . / : , @ + % = - * ?`, `'…'` and `"…"` with
//!   printable ASCII, tabs and newlines inside (no `$`, `` ` ``, `\` or `!`
//!   in double quotes); the first word of a command is letters, digits,
//!   `_ . / -`, and not a reserved or declaration word, even as a prefix;
//!   no word starts with `==` or `=~` (tree-sitter's test operators);
//! - `|`, `&&`, `||`, `;` and newlines between commands (no newline after a
//!   pipeline of three or more stages);
//! - after a command's words only: `>`, `>>`, `&>`, `<` with a word, and
//!   `>&` with a descriptor number, each optionally after one digit 1-9;
//!   none on a middle stage of a pipeline, and past an and-or list's first
//!   pipeline only where tree-sitter's nesting is modelled
//!   (`shape_is_modelled`);
//! - a first line `WORDS [> FILE] <<'END' [> FILE]`, its literal body and
//!   end line, then plain lines.
//!
//! No `$`, backquote, backslash, `#`, `&` alone, brackets, braces,
//! parentheses or non-ASCII byte outside quotes, and `~` only as a word's
//! first character before `/` or the word's end (`~`, `~/x`), and not in
//! a command's first word. The equality with
//! tree-sitter's reading ([`same_reading`]) is checked over every corpus
//! line, over generated lines and heredocs (tests/suite/plain_parse.rs), and by
//! the `shell` fuzz target on every input.

use super::types::{Callee, Problem, Redirect, Script, SimpleCommand, Stdin};
use super::word::Word;
use std::ops::Range;

/// Longer lines go to tree-sitter: the limits stay tree-sitter's to count.
const MAX_PLAIN_BYTES: usize = 4096;

/// Longer heredoc bodies go to tree-sitter.
const MAX_HEREDOC_BYTES: usize = 64 << 10;

/// First words that make tree-sitter build something other than a plain
/// command, or that the walk treats apart (reserved words, `time`, `let`,
/// declarations, `[[`).
const NOT_PLAIN_FIRST: &[&str] = &[
    "case",
    "coproc",
    "declare",
    "do",
    "done",
    "elif",
    "else",
    "esac",
    "export",
    "fi",
    "for",
    "function",
    "if",
    "in",
    "let",
    "local",
    "mapfile",
    "read",
    "readarray",
    "readonly",
    "select",
    "then",
    "time",
    "typeset",
    "unset",
    "until",
    "while",
];

/// Whether a command sets a variable to what the walk records as held
/// (`printf -v NAME …`, `set -- …`; `read` and `mapfile` are in
/// [`NOT_PLAIN_FIRST`]): such a line goes to tree-sitter.
fn sets_variable(words: &[Word]) -> bool {
    match words.first().map(|w| w.value.as_str()) {
        Some("printf") => words.iter().any(|w| w.value.starts_with("-v")),
        Some("set") => words.iter().any(|w| w.value == "--"),
        _ => false,
    }
}

/// One redirection as written after a command's words.
struct RedirectToken {
    op: &'static str,
    target: Word,
    end: usize,
}

/// One command: its words and the redirections after them.
struct CommandToken {
    words: Vec<Word>,
    redirects: Vec<RedirectToken>,
    /// Where the first word starts and the last word ends.
    words_span: Range<usize>,
}

/// A pipeline: its stages in order.
type Pipeline = Vec<CommandToken>;

/// An and-or list: pipelines joined by `&&` and `||`, up to a `;` or the end.
type AndOr = Vec<Pipeline>;

/// Reads `source` if it is plain (see the module doc); `None` otherwise.
pub fn parse(source: &str) -> Option<Script> {
    if source.len() > MAX_PLAIN_BYTES + MAX_HEREDOC_BYTES {
        return None;
    }
    let mut reader = Reader {
        src: source.as_bytes(),
        at: 0,
    };
    let mut builder = Builder {
        source,
        script: Script::default(),
        next_scope: 1,
    };
    let first_line = source.split('\n').next().unwrap_or("");
    if first_line.len() < source.len() && first_line.contains("<<") {
        // A heredoc command alone on the first line, its body, then plain
        // lines.
        let (command, body) = reader.heredoc_command()?;
        builder.heredoc(command, body);
        reader.skip_blank_lines();
        if reader.at == reader.src.len() {
            return Some(builder.script);
        }
    }
    if reader.src.len() - reader.at > MAX_PLAIN_BYTES {
        return None;
    }
    let mut lists: Vec<AndOr> = Vec::new();
    let mut list: AndOr = Vec::new();
    let mut stages: Pipeline = Vec::new();
    loop {
        reader.skip_blanks();
        stages.push(reader.command()?);
        reader.skip_blanks();
        match reader.operator()? {
            Some(Operator::Pipe) => {}
            Some(Operator::AndOr) => list.push(std::mem::take(&mut stages)),
            Some(Operator::End) => {
                // tree-sitter-bash#347: after a pipeline of three or more
                // stages, a newline can merge the next line into it.
                if stages.len() >= 3 && reader.src.get(reader.at - 1) == Some(&b'\n') {
                    return None;
                }
                list.push(std::mem::take(&mut stages));
                lists.push(std::mem::take(&mut list));
                reader.skip_blank_lines();
                if reader.at == reader.src.len() {
                    break;
                }
            }
            None => {
                list.push(std::mem::take(&mut stages));
                lists.push(std::mem::take(&mut list));
                break;
            }
        }
    }
    if !lists.iter().all(shape_is_modelled) {
        return None;
    }
    for list in lists {
        builder.and_or(list);
    }
    Some(builder.script)
}

/// Whether `fast`, this path's reading of a line, is `walked`, the
/// tree-sitter walk's reading of the same line: equal, except where
/// tree-sitter ended a heredoc at a body line that only starts like its
/// delimiter ([`Problem::HeredocEnd`]). There the walk puts bash's body
/// back and hands the lines after bash's end line back to be parsed again
/// (`after_heredoc`); this path reads both as bash does. So the heredoc command
/// must read alike (words, redirections, body), the commands after it
/// must be those tree-sitter finds in the text after bash's end line, and
/// this path must find nothing wrong.
pub fn same_reading(fast: &Script, walked: &Script) -> bool {
    if !walked
        .problems
        .iter()
        .any(|p| matches!(p, Problem::HeredocEnd(_)))
    {
        return fast == walked;
    }
    let (Some(heredoc), Some(walked_heredoc)) = (fast.commands.first(), walked.commands.first())
    else {
        return false;
    };
    // The first is the first command's: later ones come from heredocs
    // tree-sitter opened in the lines it misread.
    let after: Vec<Script> = walked
        .after_heredoc
        .first()
        .map(|text| super::parse::parse_with_tree_sitter(text))
        .into_iter()
        .collect();
    let words_after: Vec<&Vec<super::Word>> = after
        .iter()
        .flat_map(|script| script.commands.iter().map(|c| &c.words))
        .collect();
    fast.problems.is_empty()
        && after.iter().all(|script| script.problems.is_empty())
        && heredoc.words == walked_heredoc.words
        && heredoc.redirects == walked_heredoc.redirects
        && heredoc.stdin == walked_heredoc.stdin
        && fast.commands.get(1..).is_some_and(|rest| {
            rest.iter()
                .map(|c| &c.words)
                .eq(words_after.iter().copied())
        })
}

/// Builds the script the walk builds from the same commands.
///
/// tree-sitter hangs the redirections written after the last command of a
/// pipeline of several stages on the whole pipeline, and those after the
/// last command of an and-or list of several pipelines on the whole list
/// (`a && b > f` is read as `{ a && b; } > f`). The walk records such
/// writes on an entry of their own after the commands, and gives a `<`
/// there to the group's last command, as bash does. The same is done here.
struct Builder<'s> {
    source: &'s str,
    script: Script,
    /// The next subshell id: each pipeline stage runs in one of its own.
    next_scope: u32,
}

impl Builder<'_> {
    fn and_or(&mut self, mut list: AndOr) {
        if list.len() == 1 {
            for pipeline in list {
                self.pipeline(pipeline, &Stdin::Inherited);
            }
            return;
        }
        let start = first_start(&list);
        let (hoisted, end) = hoist_writes(list.last_mut().and_then(|p| p.last_mut()));
        for pipeline in list {
            self.pipeline(pipeline, &Stdin::Inherited);
        }
        self.group(hoisted, start, end);
    }

    fn pipeline(&mut self, mut stages: Pipeline, stdin: &Stdin) {
        if stages.len() == 1 {
            for command in stages {
                self.command(command, stdin.clone(), Vec::new());
            }
            return;
        }
        let start = stages.first().map_or(0, |c| c.words_span.start);
        let (hoisted, end) = hoist_writes(stages.last_mut());
        let mut previous: Option<Range<usize>> = None;
        for command in stages {
            let first = self.script.commands.len();
            let stage_stdin = match &previous {
                Some(range) => Stdin::Pipe(range.clone()),
                None => stdin.clone(),
            };
            let scope = self.next_scope;
            self.next_scope += 1;
            self.command(command, stage_stdin, vec![scope]);
            previous = Some(first..self.script.commands.len());
        }
        self.group(hoisted, start, end);
    }

    fn command(&mut self, command: CommandToken, stdin: Stdin, scopes: Vec<u32>) {
        let span = command.words_span;
        let stdin = stdin_after(&command.redirects, &stdin);
        self.script.commands.push(SimpleCommand {
            assignments: Vec::new(),
            words: command.words,
            redirects: writes(command.redirects),
            stdin,
            text: self.source.get(span.clone()).unwrap_or("").to_string(),
            span,
            scopes,
            callee: Callee::Program,
        });
    }

    /// A command fed by a quoted heredoc: the walk's entry for it.
    fn heredoc(&mut self, command: CommandToken, body: String) {
        let span = command.words_span;
        self.script.commands.push(SimpleCommand {
            assignments: Vec::new(),
            words: command.words,
            redirects: writes(command.redirects),
            stdin: Stdin::Heredoc {
                body,
                literal: true,
            },
            text: self.source.get(span.clone()).unwrap_or("").to_string(),
            span,
            scopes: Vec::new(),
            callee: Callee::Program,
        });
    }

    /// The entry for a group's writes, when it has any.
    fn group(&mut self, hoisted: Vec<RedirectToken>, start: usize, end: Option<usize>) {
        let redirects = writes(hoisted);
        if let (false, Some(end)) = (redirects.is_empty(), end) {
            self.script.commands.push(SimpleCommand {
                assignments: Vec::new(),
                words: Vec::new(),
                redirects,
                stdin: Stdin::Inherited,
                text: self.source.get(start..end).unwrap_or("").to_string(),
                span: start..end,
                scopes: Vec::new(),
                callee: Callee::Program,
            });
        }
    }
}

/// Whether tree-sitter's tree for the list has a shape [`Builder`]
/// reproduces. No redirection on a middle stage of a pipeline (tree-sitter
/// hangs it on the stages before). Past the first pipeline, a redirection
/// may only sit on the
/// last command (hoisted over the list), or on the first stage of the last
/// pipeline when its last stage has none (the misparse the walk undoes:
/// `a && b 2>&1 | c`). The first pipeline, of four stages or more, may not
/// end in one before `&&` or `||` (`a | b | c | d > o || e` is read with
/// `{ b | c | d > o }` nested). tree-sitter nests anything else in other
/// ways.
fn shape_is_modelled(list: &AndOr) -> bool {
    let redirected = |c: &CommandToken| !c.redirects.is_empty();
    // `a | b 2>/dev/null | c` is read `{ a | b; } 2>/dev/null | c`.
    let middle_redirected =
        |p: &Pipeline| matches!(p.as_slice(), [_, middle @ .., _] if middle.iter().any(redirected));
    if list.iter().any(middle_redirected) {
        return false;
    }
    let Some((last, before)) = list.split_last() else {
        return true;
    };
    if before
        .first()
        .is_some_and(|first| first.len() >= 4 && first.last().is_some_and(redirected))
    {
        return false;
    }
    if before
        .iter()
        .skip(1)
        .any(|pipeline| pipeline.iter().any(redirected))
    {
        return false;
    }
    if before.is_empty() || last.len() == 1 {
        return true;
    }
    let [first, middle @ .., tail] = last.as_slice() else {
        return true;
    };
    let misparse_with_tail = redirected(first) && redirected(tail);
    !(middle.iter().any(redirected) || misparse_with_tail)
}

/// Where an and-or list's first command starts.
fn first_start(list: &AndOr) -> usize {
    list.first()
        .and_then(|p| p.first())
        .map_or(0, |c| c.words_span.start)
}

/// The writes among `redirects` (descriptor duplications write nothing).
fn writes(redirects: Vec<RedirectToken>) -> Vec<Redirect> {
    redirects
        .into_iter()
        .filter(|r| !matches!(r.op, "<" | ">&"))
        .map(|r| Redirect {
            op: r.op.to_string(),
            target: r.target,
        })
        .collect()
}

/// Takes the redirections of a group's last command, as the walk finds
/// them on the group: the writes (for the group's own entry) and where
/// they end. A `<` stays with the command; bash feeds it alone.
fn hoist_writes(last: Option<&mut CommandToken>) -> (Vec<RedirectToken>, Option<usize>) {
    let Some(last) = last else {
        return (Vec::new(), None);
    };
    let end = last.redirects.last().map(|r| r.end);
    let (feeds, hoisted) = std::mem::take(&mut last.redirects)
        .into_iter()
        .partition(|r| r.op == "<");
    last.redirects = feeds;
    (hoisted, end)
}

/// The stdin after `redirects`: the last `<`, or `stdin` without one.
fn stdin_after(redirects: &[RedirectToken], stdin: &Stdin) -> Stdin {
    redirects
        .iter()
        .rev()
        .find(|r| r.op == "<" && !crate::feeds::is_stdin_word(&r.target))
        .map_or_else(|| stdin.clone(), |r| Stdin::File(r.target.clone()))
}

enum Operator {
    /// `|`
    Pipe,
    /// `&&` or `||`.
    AndOr,
    /// `;` or a newline.
    End,
}

struct Reader<'s> {
    src: &'s [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.src.get(self.at).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.src.get(self.at + ahead).copied()
    }

    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.at += 1;
        }
    }

    /// Blanks and newlines, after the end of a command list.
    fn skip_blank_lines(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n')) {
            self.at += 1;
        }
    }

    /// The operator after a command; `Ok(None)` at the end of the line,
    /// `None` (not plain) on anything else.
    fn operator(&mut self) -> Option<Option<Operator>> {
        let op = match (self.peek(), self.peek_at(1)) {
            (None, _) => return Some(None),
            (Some(b'|'), Some(b'|')) | (Some(b'&'), Some(b'&')) => {
                self.at += 2;
                Operator::AndOr
            }
            (Some(b'|'), Some(b'&')) => return None,
            (Some(b'|'), _) => {
                self.at += 1;
                Operator::Pipe
            }
            (Some(b';'), Some(b';' | b'&')) => return None,
            (Some(b';'), _) | (Some(b'\n'), _) => {
                self.at += 1;
                Operator::End
            }
            _ => return None,
        };
        Some(Some(op))
    }

    /// One command: words, then redirections.
    fn command(&mut self) -> Option<CommandToken> {
        let mut words: Vec<Word> = Vec::new();
        let mut redirects: Vec<RedirectToken> = Vec::new();
        let mut words_span = self.at..self.at;
        loop {
            self.skip_blanks();
            match self.peek() {
                None | Some(b'|' | b';' | b'\n') => break,
                Some(b'&') if self.peek_at(1) == Some(b'&') => break,
                _ => {}
            }
            if let Some(redirect) = self.redirect(words.is_empty())? {
                // `cat - 2>x`: tree-sitter drops the `-` and the walk puts
                // it back as a word of its own; not plain.
                if words.last().is_some_and(|w| w.source == "-") {
                    return None;
                }
                redirects.push(redirect);
                continue;
            }
            if !redirects.is_empty() {
                // A word after a redirection: tree-sitter hangs it on the
                // redirection; the walk puts it back. Not plain.
                return None;
            }
            self.command_word(&mut words, &mut words_span)?;
        }
        if words.is_empty() || sets_variable(&words) {
            return None;
        }
        Some(CommandToken {
            words,
            redirects,
            words_span,
        })
    }

    /// A first line `WORDS [> FILE] <<'END' [> FILE]`, its body up to the
    /// line `END`, and that line: the command and the body. The reader
    /// ends past the end line and its newline. Only a quoted delimiter
    /// (the body is literal), one write redirection at most, nothing else
    /// on the first line, and a body tree-sitter reads as bash does (see
    /// [`plain_body`]).
    fn heredoc_command(&mut self) -> Option<(CommandToken, String)> {
        let mut words: Vec<Word> = Vec::new();
        let mut redirects: Vec<RedirectToken> = Vec::new();
        let mut words_span = 0..0;
        // Where the words ended before the last one was read.
        let mut end_before_last = 0;
        let mut dash_before_heredoc = false;
        let mut delimiter: Option<String> = None;
        loop {
            self.skip_blanks();
            match (self.peek(), self.peek_at(1)) {
                (Some(b'\n'), _) => break,
                (Some(b'<'), Some(b'<')) if delimiter.is_none() && !words.is_empty() => {
                    if !self.after_blank() {
                        return None;
                    }
                    dash_before_heredoc = redirects.is_empty()
                        && words.len() > 1
                        && words.last().is_some_and(|w| w.source == "-");
                    self.at += 2;
                    self.skip_blanks();
                    delimiter = Some(self.delimiter()?);
                }
                _ => {
                    if let Some(redirect) = self.redirect(words.is_empty())? {
                        if !matches!(redirect.op, ">" | ">>") || !redirects.is_empty() {
                            return None;
                        }
                        redirects.push(redirect);
                        continue;
                    }
                    if !redirects.is_empty() || delimiter.is_some() {
                        return None;
                    }
                    end_before_last = words_span.end;
                    self.command_word(&mut words, &mut words_span)?;
                }
            }
        }
        let delimiter = delimiter?;
        // `python3 - <<'X'`: tree-sitter drops the `-` just before `<<`,
        // and the walk puts it back as the command's last word, the
        // command's text ending before it. A `-` anywhere else before the
        // heredoc is left to the walk.
        if words.last().is_some_and(|w| w.source == "-") {
            if !dash_before_heredoc {
                return None;
            }
            words_span.end = end_before_last;
        }
        if sets_variable(&words) {
            return None;
        }
        let body_start = self.at + 1;
        let text = std::str::from_utf8(self.src.get(body_start..)?).ok()?;
        let (body_len, after) = super::walk::heredoc_end_line(text, &delimiter, false)?;
        let body = &text[..body_len];
        if body.len() > MAX_HEREDOC_BYTES || !plain_body(body) {
            return None;
        }
        self.at = body_start + after;
        Some((
            CommandToken {
                words,
                redirects,
                words_span,
            },
            body.to_string(),
        ))
    }

    /// A heredoc delimiter: `'WORD'` or `"WORD"` of letters, digits and `_`.
    fn delimiter(&mut self) -> Option<String> {
        let quote = self.peek().filter(|q| matches!(q, b'\'' | b'"'))?;
        let start = self.at + 1;
        let mut end = start;
        while self
            .src
            .get(end)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            end += 1;
        }
        if end == start || self.src.get(end) != Some(&quote) {
            return None;
        }
        self.at = end + 1;
        std::str::from_utf8(self.src.get(start..end)?)
            .ok()
            .map(str::to_string)
    }

    /// Reads one word of a command into `words`, widening `words_span`;
    /// `None` when it is not plain (a first word must be a plain command
    /// name).
    fn command_word(&mut self, words: &mut Vec<Word>, words_span: &mut Range<usize>) -> Option<()> {
        let start = self.at;
        let word = self.word()?;
        if words.is_empty() {
            words_span.start = start;
            if !is_plain_first_word(&word) {
                return None;
            }
        }
        words_span.end = self.at;
        words.push(word);
        Some(())
    }

    /// Whether a blank stands just before the reader (an operator glued to
    /// the word before it is read apart by tree-sitter).
    fn after_blank(&self) -> bool {
        matches!(
            self.at.checked_sub(1).and_then(|i| self.src.get(i)),
            Some(b' ' | b'\t')
        )
    }

    /// A redirection at the reader, if one starts here.
    fn redirect(&mut self, no_words_yet: bool) -> Option<Option<RedirectToken>> {
        let (digit, rest) = match (self.peek(), self.peek_at(1)) {
            // tree-sitter takes 1-9 as a descriptor; a `0` glued to `<` or
            // `>` is a word to it (an argument), a descriptor to bash.
            (Some(b'0'), Some(b'>' | b'<')) => return None,
            (Some(d), Some(b'>' | b'<')) if d.is_ascii_digit() => (1, self.at + 1),
            (Some(b'>' | b'<'), _) => (0, self.at),
            (Some(b'&'), Some(b'>')) => (0, self.at),
            _ => return Some(None),
        };
        // A redirection before the command's words is tree-sitter's other
        // shape. One glued to the word before it is read apart: `-200>f`
        // makes `-200` a descriptor for tree-sitter, a word for bash.
        if no_words_yet || !self.after_blank() {
            return None;
        }
        if digit == 1 && self.peek_at(2).is_some_and(|b| b.is_ascii_digit()) {
            return None;
        }
        let after = |n: usize| self.src.get(rest + n).copied();
        let (op, len): (&'static str, usize) = match (after(0), after(1), after(2)) {
            (Some(b'>'), Some(b'>'), _) => (">>", 2),
            (Some(b'>'), Some(b'&'), _) => (">&", 2),
            (Some(b'>'), Some(b'|' | b'('), _) => return None,
            (Some(b'>'), _, _) => (">", 1),
            (Some(b'<'), Some(b'<' | b'&' | b'>' | b'('), _) => return None,
            (Some(b'<'), _, _) => ("<", 1),
            (Some(b'&'), Some(b'>'), Some(b'>')) => return None,
            (Some(b'&'), Some(b'>'), _) if digit == 0 => ("&>", 2),
            _ => return None,
        };
        self.at = rest + len;
        if op == ">&" {
            // Only a descriptor number, glued on: `2>&1`, `>&2`.
            let start = self.at;
            while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                self.at += 1;
            }
            if self.at == start || !self.at_word_end() {
                return None;
            }
            let number = std::str::from_utf8(self.src.get(start..self.at)?).ok()?;
            return Some(Some(RedirectToken {
                op,
                target: Word::literal(number),
                end: self.at,
            }));
        }
        self.skip_blanks();
        let target = self.word()?;
        Some(Some(RedirectToken {
            op,
            target,
            end: self.at,
        }))
    }

    /// Whether the reader stands where a word ends.
    fn at_word_end(&self) -> bool {
        matches!(
            self.peek(),
            None | Some(b' ' | b'\t' | b'\n' | b'|' | b'&' | b';' | b'<' | b'>')
        )
    }

    /// One word: unquoted runs and quoted parts, decoded as the walk
    /// decodes them.
    fn word(&mut self) -> Option<Word> {
        let start = self.at;
        let mut word = Word::default();
        // A tilde-prefix of the home folder alone: `~` or `~/…` (not
        // `~user`, nor a `~` elsewhere in the word). The walk marks the
        // word home-relative and keeps the `~` in its value.
        if self.peek() == Some(b'~') {
            self.at += 1;
            if !(self.at_word_end() || self.peek() == Some(b'/')) {
                return None;
            }
            word.tilde = true;
            word.value.push('~');
        }
        loop {
            match self.peek() {
                Some(b'\'') => {
                    let inner = self.quoted(b'\'', is_single_quoted_byte)?;
                    word.value.push_str(inner);
                }
                Some(b'"') => {
                    let inner = self.quoted(b'"', is_double_quoted_byte)?;
                    word.value.push_str(inner);
                }
                Some(b) if is_unquoted_byte(b) => {
                    let run = self.at;
                    while self.peek().is_some_and(is_unquoted_byte) {
                        self.at += 1;
                    }
                    // No backslash here: the run is its value; `*` and `?`
                    // make it a glob (as `word::unescape_unquoted` finds).
                    let text = std::str::from_utf8(self.src.get(run..self.at)?).ok()?;
                    word.glob |= text.contains(['*', '?']);
                    word.value.push_str(text);
                }
                _ if self.at_word_end() => break,
                _ => return None,
            }
        }
        if self.at == start {
            return None;
        }
        word.source = std::str::from_utf8(self.src.get(start..self.at)?)
            .ok()?
            .to_string();
        // tree-sitter reads a word starting `==` or `=~` as the test
        // operator and what follows (`echo a ==` is an error to it).
        if word.source.starts_with("==") || word.source.starts_with("=~") {
            return None;
        }
        Some(word)
    }

    /// The inside of a quoted part opened at the reader by `quote`.
    fn quoted(&mut self, quote: u8, allowed: fn(u8) -> bool) -> Option<&str> {
        let start = self.at + 1;
        let mut end = start;
        loop {
            match self.src.get(end) {
                Some(&b) if b == quote => break,
                Some(&b) if allowed(b) => end += 1,
                _ => return None,
            }
        }
        self.at = end + 1;
        std::str::from_utf8(self.src.get(start..end)?).ok()
    }
}

/// A heredoc body this path reads: not empty, ending with a newline, no
/// carriage return or other control character but tab, and a first
/// non-blank character that is not `\` (tree-sitter reads that line as a
/// continuation of the redirection: the third misparse the walk guards).
/// Lines that only start like the end line are body, as bash reads them
/// (tree-sitter's scanner ends the body there; see [`same_reading`]).
fn plain_body(body: &str) -> bool {
    // Counted over every byte, without stopping early, so the loop runs
    // wide: bodies are most of the bytes this path reads.
    let controls = body
        .bytes()
        .map(|b| usize::from(b.is_ascii_control() && b != b'\t' && b != b'\n'))
        .sum::<usize>();
    !body.is_empty()
        && body.ends_with('\n')
        && !body.trim_start().starts_with('\\')
        && controls == 0
}

/// Bytes of an unquoted word part.
fn is_unquoted_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'_' | b'.' | b'/' | b':' | b',' | b'@' | b'+' | b'%' | b'=' | b'-' | b'*' | b'?'
        )
}

/// Bytes inside `'…'`: printable ASCII, tab and newline, but the quote.
fn is_single_quoted_byte(b: u8) -> bool {
    (b == b'\t' || b == b'\n' || (b' '..=b'~').contains(&b)) && b != b'\''
}

/// Bytes inside `"…"`: printable ASCII, tab and newline, without anything
/// bash expands or escapes there.
fn is_double_quoted_byte(b: u8) -> bool {
    (b == b'\t' || b == b'\n' || (b' '..=b'~').contains(&b))
        && !matches!(b, b'"' | b'$' | b'`' | b'\\' | b'!')
}

/// A first word tree-sitter reads as a plain command name: only letters,
/// digits, `_`, `.`, `/` and `-` (not first), since tree-sitter reads
/// others there its own ways (`a?x` starts an assignment, `@a@a` an
/// error), and not a reserved or declaration word, even as a prefix
/// (`then@a` is `then` and `@a` to tree-sitter, one word to bash).
fn is_plain_first_word(word: &Word) -> bool {
    let source = word.source.as_str();
    source
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'/' | b'-'))
        && !source.starts_with('-')
        && !NOT_PLAIN_FIRST.iter().any(|reserved| {
            source.strip_prefix(reserved).is_some_and(|rest| {
                !rest
                    .bytes()
                    .next()
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
            })
        })
}
