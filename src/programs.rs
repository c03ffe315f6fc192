//! Programs hidden in an inspect verb's arguments: an `awk` or `sed` script
//! can write files (`print > "f"`, `w f`) and run commands (`system()`,
//! `cmd | getline`, `s///e`). Takes the verb's arguments and returns what
//! the program does beyond reading, if anything. A scan, not a parser: it
//! can only raise a verdict, never lower one.

use crate::shell::Word;
use crate::verdict::Effect;

/// What a program argument does beyond reading and printing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgramEffect {
    /// The class it raises the command to.
    pub effect: Effect,
    /// Its name in the rule id (`lexicon.awk.system`).
    pub id: &'static str,
    /// One line for the reason.
    pub note: &'static str,
}

const RUNS_COMMANDS: ProgramEffect = ProgramEffect {
    effect: Effect::Exec,
    id: "system",
    note: "the program runs shell commands",
};
const WRITES_FILES: ProgramEffect = ProgramEffect {
    effect: Effect::Mutate,
    id: "writes",
    note: "the program writes files",
};
const PROGRAM_FILE: ProgramEffect = ProgramEffect {
    effect: Effect::Exec,
    id: "program-file",
    note: "the program comes from a file that is not checked",
};
const UNKNOWN_PROGRAM: ProgramEffect = ProgramEffect {
    effect: Effect::Exec,
    id: "dynamic-program",
    note: "the program is only known at run time",
};

/// Options of awk that take a value.
const AWK_VALUE_OPTS: &[&str] = &["-F", "-v", "-i", "-l", "-o", "-p", "-E"];

/// What the program of `awk ARGS` does.
pub fn awk(args: &[Word]) -> Option<ProgramEffect> {
    let i = crate::peel::first_operand(args, AWK_VALUE_OPTS);
    let program_file = args[..i.min(args.len())].iter().any(|w| {
        let v = w.value.as_str();
        v == "-f" || v.starts_with("--file") || (v.starts_with("-f") && v.len() > 2)
    });
    if program_file {
        return Some(PROGRAM_FILE);
    }
    let program = args.get(i)?;
    if program.dynamic {
        return Some(UNKNOWN_PROGRAM);
    }
    scan_awk(&program.value)
}

/// Whether a `/` at byte `i` of awk text starts a regular expression
/// (where an operand is expected: at the start, after `(`, `,`, `{`, `;`,
/// `~`, `!`, `&&`, `||`, a newline) rather than dividing.
fn awk_regex_at(bytes: &[u8], i: usize) -> bool {
    let before = bytes[..i]
        .iter()
        .rev()
        .find(|b| **b != b' ' && **b != b'\t');
    match before {
        None => true,
        Some(b) => matches!(
            b,
            b'(' | b',' | b'{' | b'}' | b';' | b'~' | b'!' | b'&' | b'|' | b'\n'
        ),
    }
}

/// The byte after the regular expression that starts at `i` (`/…/`,
/// escapes and bracket expressions honoured).
fn awk_regex_end(bytes: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    let mut in_bracket = false;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 1,
            b'[' => in_bracket = true,
            b']' => in_bracket = false,
            b'/' if !in_bracket => return j + 1,
            b'\n' => return j,
            _ => {}
        }
        j += 1;
    }
    bytes.len()
}

fn scan_awk(program: &str) -> Option<ProgramEffect> {
    let bytes = program.as_bytes();
    let mut found: Option<ProgramEffect> = None;
    let mut in_print = false;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'"' => {
                // Skip a string literal.
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if awk_regex_at(bytes, i) => {
                i = awk_regex_end(bytes, i);
                continue;
            }
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b';' | b'{' | b'}' | b'\n' => in_print = false,
            b'|' => {
                if bytes.get(i + 1) == Some(&b'|') {
                    i += 1;
                } else {
                    return Some(RUNS_COMMANDS);
                }
            }
            b'>' if in_print => found = Some(WRITES_FILES),
            _ if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let word = &program[start..i];
                match word {
                    "print" | "printf" => in_print = true,
                    "system" => {
                        let rest = program[i..].trim_start();
                        if rest.starts_with('(') {
                            return Some(RUNS_COMMANDS);
                        }
                    }
                    _ => {}
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// Options of sed that take a value (besides the script options).
const SED_VALUE_OPTS: &[&str] = &["-l", "--line-length"];

/// What the script of `sed ARGS` does.
pub fn sed(args: &[Word]) -> Option<ProgramEffect> {
    let mut scripts: Vec<&Word> = Vec::new();
    let mut from_option = false;
    let mut i = 0;
    let mut first_operand = None;
    while i < args.len() {
        let w = &args[i];
        let v = w.value.as_str();
        if v == "-e" || v == "--expression" {
            if let Some(s) = args.get(i + 1) {
                scripts.push(s);
            }
            from_option = true;
            i += 2;
            continue;
        }
        if v == "-f"
            || v == "--file"
            || v.starts_with("--file=")
            || (v.starts_with("-f") && v.len() > 2)
        {
            return Some(PROGRAM_FILE);
        }
        if v.starts_with("--expression=") || (v.starts_with("-e") && v.len() > 2) {
            from_option = true;
            i += 1;
            // The attached script is judged from its text below.
            if let Some(effect) = scan_sed(
                v.trim_start_matches("--expression=")
                    .trim_start_matches("-e"),
            ) {
                return Some(effect);
            }
            continue;
        }
        if SED_VALUE_OPTS.contains(&v) {
            i += 2;
            continue;
        }
        if v.len() > 1 && v.starts_with('-') {
            i += 1;
            continue;
        }
        if first_operand.is_none() {
            first_operand = Some(w);
        }
        i += 1;
    }
    if !from_option {
        scripts.extend(first_operand);
    }
    let mut found = None;
    for script in scripts {
        if script.dynamic {
            return Some(UNKNOWN_PROGRAM);
        }
        match scan_sed(&script.value) {
            Some(effect) if effect.effect == Effect::Exec => return Some(effect),
            Some(effect) => found = Some(effect),
            None => {}
        }
    }
    found
}

fn scan_sed(script: &str) -> Option<ProgramEffect> {
    let mut found = None;
    let mut rest = script;
    while !rest.is_empty() {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ';' || c == '}');
        let body = strip_sed_address(rest);
        let mut chars = body.chars();
        let Some(command) = chars.next() else { break };
        let after = chars.as_str();
        rest = match command {
            // Text commands: the text runs to the end of the line, and on
            // while lines end in a backslash.
            'a' | 'i' | 'c' => skip_text_lines(after),
            'w' | 'W' => {
                found = Some(WRITES_FILES);
                skip_line(after)
            }
            'e' => return Some(RUNS_COMMANDS),
            'r' | 'R' | '#' | ':' => skip_line(after),
            's' | 'y' => {
                let mut parts = after.chars();
                let Some(delim) = parts.next() else { break };
                let tail = skip_delimited(skip_delimited(parts.as_str(), delim), delim);
                if command == 's' {
                    let flags_end = tail.find([';', '\n', '}']).unwrap_or(tail.len());
                    let flags = &tail[..flags_end];
                    if flags.contains('e') && !flags.contains('w') {
                        return Some(RUNS_COMMANDS);
                    }
                    if let Some(w) = flags.find('w') {
                        if flags[..w].contains('e') {
                            return Some(RUNS_COMMANDS);
                        }
                        found = Some(WRITES_FILES);
                        skip_line(tail)
                    } else {
                        &tail[flags_end..]
                    }
                } else {
                    tail
                }
            }
            '{' => after,
            _ => {
                let end = after.find([';', '\n', '}']).unwrap_or(after.len());
                &after[end..]
            }
        };
    }
    found
}

/// What follows the end of the current line.
fn skip_line(s: &str) -> &str {
    s.find('\n').map_or("", |i| &s[i + 1..])
}

/// Skips the text of `a`, `i`, `c`: lines ending in a backslash continue it.
fn skip_text_lines(mut s: &str) -> &str {
    loop {
        let line_end = s.find('\n').unwrap_or(s.len());
        let line = &s[..line_end];
        let trailing = line.len() - line.trim_end_matches('\\').len();
        if line_end == s.len() {
            return "";
        }
        s = &s[line_end + 1..];
        if trailing.is_multiple_of(2) {
            return s;
        }
    }
}

/// A sed command without its address (`1,5`, `$`, `/re/`, `\%re%`, `!`, `{`).
fn strip_sed_address(command: &str) -> &str {
    let mut rest = command;
    loop {
        let trimmed = rest.trim_start_matches(|c: char| {
            c.is_ascii_digit() || matches!(c, '$' | ',' | '!' | '{' | ' ' | '~' | '+')
        });
        if let Some(after) = trimmed.strip_prefix('/') {
            rest = skip_delimited(after, '/');
            continue;
        }
        if let Some(after) = trimmed.strip_prefix('\\') {
            let mut chars = after.chars();
            if let Some(delim) = chars.next() {
                rest = skip_delimited(chars.as_str(), delim);
                continue;
            }
        }
        return trimmed;
    }
}

/// The rest of `s` after a delimited part ending in `delim` (escapes honoured).
fn skip_delimited(s: &str, delim: char) -> &str {
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == delim {
            return &s[i + c.len_utf8()..];
        }
    }
    ""
}

/// What an awk, sed or vi program hands on beyond its class: the literal
/// shell lines it runs (`system("…")`, `print | "…"`, `"…" | getline`,
/// sed's `e …`, vi's `:!…`), the literal files it writes (`print > "f"`,
/// sed's `w f`), and the program files it reads (`-f prog.awk`, `vim -S
/// x.vim`), each to be judged in turn.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Parts {
    /// Shell lines run.
    pub lines: Vec<String>,
    /// Files written.
    pub writes: Vec<String>,
    /// Program files read: the index of the word in the arguments and the
    /// byte where the file's name starts in it (`-fprog.awk`: 2).
    pub files: Vec<(usize, usize)>,
}

impl Parts {
    fn add(&mut self, other: Parts) {
        self.lines.extend(other.lines);
        self.writes.extend(other.writes);
        self.files.extend(other.files);
    }
}

/// Which program text a verb runs, by its lexicon name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// awk, gawk, mawk, nawk.
    Awk,
    /// sed, gsed.
    Sed,
    /// vi, vim, nvim, ex, view: ex commands.
    Ex,
}

/// The dialect of `verb`, if it runs program text this module reads.
pub fn dialect(verb: &str) -> Option<Dialect> {
    match verb {
        "awk" | "gawk" | "mawk" | "nawk" => Some(Dialect::Awk),
        "sed" | "gsed" => Some(Dialect::Sed),
        "vi" | "vim" | "nvim" | "ex" | "view" | "vimdiff" | "gvim" => Some(Dialect::Ex),
        _ => None,
    }
}

/// The parts of the program text of `dialect` given in `args`.
pub fn parts(dialect: Dialect, args: &[Word]) -> Parts {
    match dialect {
        Dialect::Awk => awk_parts(args),
        Dialect::Sed => sed_parts(args),
        Dialect::Ex => ex_parts(args),
    }
}

/// The parts of a program file's text.
pub fn text_parts(dialect: Dialect, text: &str) -> Parts {
    match dialect {
        Dialect::Awk => awk_text(text),
        Dialect::Sed => sed_text(text),
        Dialect::Ex => {
            let mut parts = Parts::default();
            for line in text.lines() {
                parts.add(ex_command(line));
            }
            parts
        }
    }
}

/// Options of awk that name a program file.
const AWK_FILE_OPTS: &[&str] = &["-f", "--file", "-E", "--exec", "-i", "--include"];

/// Options of gawk whose value is program text.
const AWK_SOURCE_OPTS: &[&str] = &["-e", "--source"];

fn awk_parts(args: &[Word]) -> Parts {
    let mut parts = Parts::default();
    let mut has_program_option = false;
    let mut i = 0;
    while i < args.len() {
        let v = args[i].value.as_str();
        if v == "--" {
            i += 1;
            break;
        }
        if !(v.len() > 1 && v.starts_with('-')) {
            break;
        }
        let (name, glued) = match v.split_once('=') {
            Some((n, g)) if v.starts_with("--") => (n, Some(g)),
            _ if !v.starts_with("--") && v.len() > 2 && v.is_char_boundary(2) => {
                (&v[..2], Some(&v[2..]))
            }
            _ => (v, None),
        };
        let value_at = if glued.is_some() { i } else { i + 1 };
        let value_start = glued.map_or(0, |g| v.len() - g.len());
        if AWK_FILE_OPTS.contains(&name) {
            // `-i inplace` is gawk's in-place extension, not a file here.
            if !(name == "-i" || name == "--include")
                || args
                    .get(value_at)
                    .is_some_and(|w| !w.value.ends_with("inplace"))
            {
                parts.files.push((value_at, value_start));
            }
            has_program_option |= matches!(name, "-f" | "--file" | "-E" | "--exec");
        } else if AWK_SOURCE_OPTS.contains(&name) {
            if let Some(text) = glued.or_else(|| args.get(value_at).map(|w| w.value.as_str())) {
                parts.add(awk_text(text));
            }
            has_program_option = true;
        }
        i += if glued.is_none()
            && AWK_VALUE_OPTS
                .iter()
                .chain(AWK_FILE_OPTS)
                .chain(AWK_SOURCE_OPTS)
                .any(|o| *o == name)
        {
            2
        } else {
            1
        };
    }
    if !has_program_option && let Some(program) = args.get(i) {
        parts.add(awk_text(&program.value));
    }
    parts.files.retain(|&(at, _)| at < args.len());
    parts
}

/// The next string literal of awk text from `at` (spaces skipped), its
/// value when every piece is literal (`"a" "b"` concatenates), and the
/// byte after it.
fn awk_string(program: &str, at: usize) -> Option<(String, usize)> {
    let bytes = program.as_bytes();
    let mut i = at;
    let mut value = String::new();
    let mut any = false;
    loop {
        while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
            i += 1;
        }
        if bytes.get(i) != Some(&b'"') {
            break;
        }
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i] != b'"' {
            i += if bytes[i] == b'\\' { 2 } else { 1 };
        }
        let body = program.get(start..i.min(program.len()))?;
        value.push_str(&awk_unescape(body)?);
        i += 1;
        any = true;
    }
    any.then_some((value, i.min(program.len())))
}

/// An awk string body with its escapes decoded; `None` for escapes not
/// known here.
fn awk_unescape(body: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next()? {
            'n' => '\n',
            't' => '\t',
            d @ ('\\' | '"' | '/') => d,
            _ => return None,
        });
    }
    Some(out)
}

/// Whether awk text at `at` (spaces skipped) ends an expression: `;`, `}`,
/// `)`, a newline or the end.
fn awk_ends(program: &str, at: usize) -> bool {
    let rest = program
        .get(at..)
        .unwrap_or("")
        .trim_start_matches([' ', '\t']);
    rest.is_empty() || rest.starts_with([';', '}', ')', '\n'])
}

/// The parts of awk program text.
fn awk_text(program: &str) -> Parts {
    let bytes = program.as_bytes();
    let mut parts = Parts::default();
    let mut in_print = false;
    // The string literal that ended just before, if the last token was one.
    let mut last_string: Option<String> = None;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'"' => {
                if let Some((value, end)) = awk_string(program, i) {
                    last_string = Some(value);
                    i = end;
                    continue;
                }
                // Skip a string with unknown escapes.
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                last_string = None;
                i += 1;
                continue;
            }
            b' ' | b'\t' => {
                i += 1;
                continue;
            }
            b'/' if awk_regex_at(bytes, i) => {
                i = awk_regex_end(bytes, i);
                last_string = None;
                continue;
            }
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b';' | b'{' | b'}' | b'\n' => in_print = false,
            b'|' if bytes.get(i + 1) == Some(&b'|') => i += 1,
            b'|' => {
                // `"cmd" | getline`, `print | "cmd"`, gawk's `|&`.
                let before = last_string.take();
                if let Some(line) = &before
                    && !in_print
                {
                    parts.lines.push(line.clone());
                }
                let after = if bytes.get(i + 1) == Some(&b'&') {
                    i + 2
                } else {
                    i + 1
                };
                if let Some((line, end)) = awk_string(program, after)
                    && awk_ends(program, end)
                {
                    // `print "rm -rf /" | "sh"`: the printed text is the
                    // shell's script.
                    if in_print
                        && crate::rules::is_shell(line.trim().rsplit('/').next().unwrap_or(""))
                        && let Some(script) = before
                    {
                        parts.lines.push(script);
                    }
                    parts.lines.push(line);
                    i = end;
                    continue;
                }
            }
            b'>' if in_print => {
                let after = if bytes.get(i + 1) == Some(&b'>') {
                    i + 2
                } else {
                    i + 1
                };
                if let Some((file, end)) = awk_string(program, after)
                    && awk_ends(program, end)
                {
                    parts.writes.push(file);
                    i = end;
                    last_string = None;
                    continue;
                }
            }
            _ if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                match &program[start..i] {
                    "print" | "printf" => in_print = true,
                    "system" => {
                        let rest = &program[i..];
                        let open = rest.len() - rest.trim_start().len();
                        if rest.trim_start().starts_with('(')
                            && let Some((line, end)) = awk_string(program, i + open + 1)
                            && program[end..].trim_start().starts_with(')')
                        {
                            parts.lines.push(line);
                            i = end;
                        }
                    }
                    _ => {}
                }
                last_string = None;
                continue;
            }
            _ => {}
        }
        last_string = None;
        i += 1;
    }
    parts
}

fn sed_parts(args: &[Word]) -> Parts {
    let mut parts = Parts::default();
    let mut from_option = false;
    let mut first_operand = None;
    let mut i = 0;
    while i < args.len() {
        let v = args[i].value.as_str();
        if v == "-e" || v == "--expression" {
            if let Some(s) = args.get(i + 1) {
                parts.add(sed_text(&s.value));
            }
            from_option = true;
            i += 2;
            continue;
        }
        if v == "-f" || v == "--file" {
            if i + 1 < args.len() {
                parts.files.push((i + 1, 0));
            }
            from_option = true;
            i += 2;
            continue;
        }
        if v.starts_with("--file=") || (v.starts_with("-f") && v.len() > 2 && !v.starts_with("--"))
        {
            parts.files.push((
                i,
                if v.starts_with("--") {
                    "--file=".len()
                } else {
                    2
                },
            ));
            from_option = true;
            i += 1;
            continue;
        }
        if let Some(script) = v
            .strip_prefix("--expression=")
            .or_else(|| v.strip_prefix("-e").filter(|s| !s.is_empty()))
        {
            parts.add(sed_text(script));
            from_option = true;
            i += 1;
            continue;
        }
        if SED_VALUE_OPTS.contains(&v) {
            i += 2;
            continue;
        }
        if v.len() > 1 && v.starts_with('-') {
            i += 1;
            continue;
        }
        if first_operand.is_none() {
            first_operand = Some(&args[i]);
        }
        i += 1;
    }
    if !from_option && let Some(script) = first_operand {
        parts.add(sed_text(&script.value));
    }
    parts
}

/// The rest of a sed line: a file name or command.
fn sed_rest(after: &str) -> String {
    after.split('\n').next().unwrap_or("").trim().to_string()
}

/// The parts of a sed script.
fn sed_text(script: &str) -> Parts {
    let mut parts = Parts::default();
    let mut rest = script;
    let mut guard = 0;
    while !rest.is_empty() && guard < 100_000 {
        guard += 1;
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ';' || c == '}');
        let body = strip_sed_address(rest);
        let mut chars = body.chars();
        let Some(command) = chars.next() else { break };
        let after = chars.as_str();
        rest = match command {
            'a' | 'i' | 'c' => skip_text_lines(after),
            'w' | 'W' => {
                let file = sed_rest(after);
                if !file.is_empty() {
                    parts.writes.push(file);
                }
                skip_line(after)
            }
            'e' => {
                let line = sed_rest(after);
                if !line.is_empty() {
                    parts.lines.push(line);
                }
                skip_line(after)
            }
            'r' | 'R' | '#' | ':' => skip_line(after),
            's' | 'y' => {
                let mut pieces = after.chars();
                let Some(delim) = pieces.next() else { break };
                let pattern_and_rest = pieces.as_str();
                let replacement_and_rest = skip_delimited(pattern_and_rest, delim);
                let tail = skip_delimited(replacement_and_rest, delim);
                if command == 'y' {
                    tail
                } else {
                    let replacement = &replacement_and_rest
                        [..replacement_and_rest.len() - tail.len()]
                        .strip_suffix(delim)
                        .unwrap_or("");
                    let flags_end = tail.find([';', '\n', '}']).unwrap_or(tail.len());
                    let flags = &tail[..flags_end];
                    let w = flags.find('w');
                    let e_flag = flags[..w.unwrap_or(flags.len())].contains('e');
                    if e_flag && !replacement.contains(['&', '\\']) && !replacement.is_empty() {
                        // The pattern space, rewritten, runs as a command.
                        parts.lines.push(replacement.to_string());
                    }
                    match w {
                        Some(at) => {
                            let file = sed_rest(&tail[at + 1..]);
                            if !file.is_empty() {
                                parts.writes.push(file);
                            }
                            skip_line(&tail[at + 1..])
                        }
                        None => &tail[flags_end..],
                    }
                }
            }
            '{' => after,
            _ => {
                let end = after.find([';', '\n', '}']).unwrap_or(after.len());
                &after[end..]
            }
        };
    }
    parts
}

/// Options of vi-like editors whose value is an ex command.
const EX_COMMAND_OPTS: &[&str] = &["-c", "--cmd"];

/// Options of vi-like editors whose value is a file of ex commands.
const EX_FILE_OPTS: &[&str] = &["-S", "-u"];

fn ex_parts(args: &[Word]) -> Parts {
    let mut parts = Parts::default();
    let mut i = 0;
    while i < args.len() {
        let v = args[i].value.as_str();
        if EX_COMMAND_OPTS.contains(&v) {
            if let Some(command) = args.get(i + 1) {
                parts.add(ex_command(&command.value));
            }
            i += 2;
            continue;
        }
        if EX_FILE_OPTS.contains(&v) {
            if i + 1 < args.len() {
                parts.files.push((i + 1, 0));
            }
            i += 2;
            continue;
        }
        if let Some(command) = v.strip_prefix('+').filter(|c| {
            !c.is_empty() && !c.starts_with('/') && !c.chars().all(|d| d.is_ascii_digit())
        }) {
            parts.add(ex_command(command));
        }
        i += 1;
    }
    parts
}

/// The shell lines of one ex command line (`:!cmd`, `%!cmd`, `r !cmd`,
/// `w !cmd`, `call system("cmd")`, `silent !cmd`), commands joined by
/// `|` (after `!`, `|` belongs to the shell line).
fn ex_command(line: &str) -> Parts {
    let mut parts = Parts::default();
    let mut rest = line.trim_start_matches([' ', '\t', ':']);
    for _ in 0..64 {
        rest = rest.trim_start_matches([' ', '\t', ':']);
        for prefix in ["silent!", "silent", "sil!", "sil", "exe ", "execute "] {
            if let Some(r) = rest.strip_prefix(prefix) {
                rest = r.trim_start();
            }
        }
        // A range: `%`, `1,$`, `.`, `'<,'>`.
        rest = rest.trim_start_matches(|c: char| {
            c.is_ascii_digit() || matches!(c, '%' | ',' | '$' | '.' | '\'' | '<' | '>' | ' ')
        });
        let after_bang = rest.strip_prefix('!').or_else(|| {
            ["r", "read", "w", "write"].iter().find_map(|c| {
                rest.strip_prefix(c)
                    .map(str::trim_start)
                    .and_then(|r| r.strip_prefix('!'))
            })
        });
        if let Some(command) = after_bang {
            let command = command.trim();
            if !command.is_empty() {
                parts.lines.push(command.to_string());
            }
            return parts;
        }
        if let Some(at) = rest.find("system(") {
            let inner = &rest[at + "system(".len()..];
            let quote = inner.chars().next();
            if let Some(q @ ('"' | '\'')) = quote
                && let Some(end) = inner[1..].find(q)
            {
                parts.lines.push(inner[1..1 + end].to_string());
            }
        }
        match rest.find('|') {
            Some(at) => rest = &rest[at + 1..],
            None => break,
        }
    }
    parts
}

/// Whether a jq or yq program reads the environment (`env`, `$ENV`,
/// yq's `env(NAME)`, `strenv`, `envsubst`): its value may hold secrets.
pub fn query_reads_environment(verb: &str, args: &[Word]) -> bool {
    if !matches!(verb, "jq" | "gojq" | "jaq" | "yq" | "xq" | "tomlq") {
        return false;
    }
    // The values of `--arg NAME VALUE` and the like are data, not program.
    let mut skip = 0;
    for word in args {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        skip = match word.value.as_str() {
            "--arg" | "--argjson" | "--slurpfile" | "--rawfile" => 2,
            "-L" | "--library-path" | "--indent" => 1,
            _ => 0,
        };
        if skip == 0 && names_environment(&word.value) {
            return true;
        }
    }
    false
}

/// Whether jq text names the environment as a word of its own (not `.env`,
/// a field, nor `$ENVIRONMENT`, another variable).
fn names_environment(text: &str) -> bool {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    for word in ["env", "$ENV", "strenv", "envsubst", "$__prog_env"] {
        for (at, _) in text.match_indices(word) {
            let before = text[..at].chars().next_back();
            let after = text[at + word.len()..].chars().next();
            if before.is_some_and(|c| is_name(c) || c == '.' || c == '$' || c == '"')
                || after.is_some_and(|c| is_name(c) || c == '"' || c == ':')
            {
                continue;
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(args: &[&str]) -> Vec<Word> {
        args.iter().map(|a| Word::literal(a)).collect()
    }

    #[test]
    fn awk_programs() {
        assert_eq!(awk(&words(&["{print $1}", "f"])), None);
        assert_eq!(
            awk(&words(&["-F:", "$3 > 1000 {print $1}", "/etc/passwd"])),
            None
        );
        assert_eq!(
            awk(&words(&["{print > \"out.txt\"}", "f"])),
            Some(WRITES_FILES)
        );
        assert_eq!(
            awk(&words(&["{system(\"rm \" $1)}", "f"])),
            Some(RUNS_COMMANDS)
        );
        assert_eq!(awk(&words(&["{print | \"sh\"}"])), Some(RUNS_COMMANDS));
        assert_eq!(
            awk(&words(&["BEGIN { \"date\" | getline d }"])),
            Some(RUNS_COMMANDS)
        );
        assert_eq!(awk(&words(&["$1 == \"a|b\" || $2 {print}"])), None);
        assert_eq!(awk(&words(&["NR==1 || /a|b/ {print}", "f"])), None);
        assert_eq!(awk(&words(&["$1 ~ /x|y/ {print $2 / 2}", "f"])), None);
        assert_eq!(
            awk(&words(&["{print $1 / 2 | \"sh\"}"])),
            Some(RUNS_COMMANDS)
        );
        assert_eq!(awk(&words(&["-f", "prog.awk"])), Some(PROGRAM_FILE));
    }

    #[test]
    fn sed_scripts() {
        assert_eq!(sed(&words(&["-n", "1,5p", "f"])), None);
        assert_eq!(sed(&words(&["s/a/b/g", "f"])), None);
        assert_eq!(sed(&words(&["-n", "w copy.txt", "f"])), Some(WRITES_FILES));
        assert_eq!(sed(&words(&["s/a/b/w out", "f"])), Some(WRITES_FILES));
        assert_eq!(sed(&words(&["s/.*/date/e", "f"])), Some(RUNS_COMMANDS));
        assert_eq!(
            sed(&words(&["-e", "1e rm -rf x", "f"])),
            Some(RUNS_COMMANDS)
        );
        assert_eq!(sed(&words(&["/foo/w found.txt", "f"])), Some(WRITES_FILES));
        assert_eq!(sed(&words(&["s/w/x/", "f"])), None);
        assert_eq!(sed(&words(&["-n", "/^def /p", "f"])), None);
        assert_eq!(
            sed(&words(&["-i", "86,89c\\\n    else:\\\n        e = 1", "f"])),
            None
        );
        assert_eq!(sed(&words(&["-i", "/x/a \\\n    w = 2; e()", "f"])), None);
        assert_eq!(
            sed(&words(&["-i", "/x/a text\n/y/w out", "f"])),
            Some(WRITES_FILES)
        );
        assert_eq!(
            sed(&words(&["/x/e cat other.py", "f"])),
            Some(RUNS_COMMANDS)
        );
        assert_eq!(sed(&words(&["s/a;w x/b/", "f"])), None);
    }

    fn lines(dialect: Dialect, args: &[&str]) -> Parts {
        parts(dialect, &words(args))
    }

    #[test]
    fn awk_hands_on_lines_and_files() {
        let p = lines(Dialect::Awk, &["BEGIN{system(\"rm -rf ~\")}"]);
        assert_eq!(p.lines, ["rm -rf ~"]);
        let p = lines(Dialect::Awk, &["BEGIN{print | \"sh\"}"]);
        assert_eq!(p.lines, ["sh"]);
        let p = lines(Dialect::Awk, &["BEGIN{\"rm -rf ~\" | getline}"]);
        assert_eq!(p.lines, ["rm -rf ~"]);
        let p = lines(Dialect::Awk, &["{print > \".git/hooks/pre-commit\"}", "x"]);
        assert_eq!(p.writes, [".git/hooks/pre-commit"]);
        let p = lines(Dialect::Awk, &["{print $1 >> \"out\" }"]);
        assert_eq!(p.writes, ["out"]);
        let p = lines(Dialect::Awk, &["--source=BEGIN{system(\"id\")}"]);
        assert_eq!(p.lines, ["id"]);
        let p = lines(Dialect::Awk, &["-e", "BEGIN{system(\"id\")}", "f"]);
        assert_eq!(p.lines, ["id"]);
        let p = lines(Dialect::Awk, &["-v", "x=1", "-f", "p.awk", "f"]);
        assert_eq!(p.files, [(3, 0)]);
        let p = lines(Dialect::Awk, &["-é", "{print}", "f"]);
        assert!(p.files.is_empty());
        let p = lines(Dialect::Awk, &["-fp.awk", "f"]);
        assert_eq!(p.files, [(0, 2)]);
        let p = lines(Dialect::Awk, &["BEGIN{print \"a\" | \"cat 1>&2\"}"]);
        assert_eq!(p.lines, ["cat 1>&2"]);
        let p = lines(Dialect::Awk, &["BEGIN{print \"rm -rf /\" | \"sh\"}"]);
        assert_eq!(p.lines, ["rm -rf /", "sh"]);
        let p = lines(Dialect::Awk, &["{print $1}", "f"]);
        assert_eq!(p, Parts::default());
        let p = lines(Dialect::Awk, &["$1 > 5 {print \"big\"}", "f"]);
        assert_eq!(p, Parts::default());
        let p = lines(Dialect::Awk, &["{system(\"rm \" $1)}"]);
        assert!(p.lines.is_empty());
        let p = lines(Dialect::Awk, &["BEGIN{system(\"r\" \"m -rf ~\")}"]);
        assert_eq!(p.lines, ["rm -rf ~"]);
    }

    #[test]
    fn sed_hands_on_lines_and_files() {
        assert_eq!(
            lines(Dialect::Sed, &["1e rm -rf ~", "f"]).lines,
            ["rm -rf ~"]
        );
        assert_eq!(
            lines(Dialect::Sed, &["s/.*/rm -rf ~/e", "f"]).lines,
            ["rm -rf ~"]
        );
        assert_eq!(
            lines(Dialect::Sed, &["w .git/hooks/pre-commit", "x"]).writes,
            [".git/hooks/pre-commit"]
        );
        assert_eq!(
            lines(Dialect::Sed, &["s/a/b/w .git/config", "x"]).writes,
            [".git/config"]
        );
        assert_eq!(
            lines(Dialect::Sed, &["-n", "-e", "p", "-f", "x.sed", "f"]).files,
            [(4, 0)]
        );
        assert_eq!(lines(Dialect::Sed, &["s/a/b/g", "f"]), Parts::default());
        assert_eq!(
            lines(Dialect::Sed, &["-i", "s/e/w/", "f"]),
            Parts::default()
        );
    }

    #[test]
    fn ex_commands_hand_on_lines() {
        assert_eq!(
            lines(Dialect::Ex, &["-c", "!rm -rf ~", "-c", "q"]).lines,
            ["rm -rf ~"]
        );
        assert_eq!(lines(Dialect::Ex, &["+%!sh", "f"]).lines, ["sh"]);
        assert_eq!(
            lines(Dialect::Ex, &["-c", "silent !id | q"]).lines,
            ["id | q"]
        );
        assert_eq!(
            lines(Dialect::Ex, &["-c", "call system('id')"]).lines,
            ["id"]
        );
        assert_eq!(lines(Dialect::Ex, &["-S", "x.vim"]).files, [(1, 0)]);
        assert_eq!(lines(Dialect::Ex, &["+10", "f"]), Parts::default());
        assert_eq!(lines(Dialect::Ex, &["-c", "wq", "f"]), Parts::default());
    }

    #[test]
    fn queries_that_read_the_environment() {
        let q = |args: &[&str]| query_reads_environment("jq", &words(args));
        assert!(q(&["-n", "env"]));
        assert!(q(&["-n", "$ENV"]));
        assert!(q(&["-n", "$ENV.AWS_SECRET"]));
        assert!(q(&["env.HOME"]));
        assert!(!q(&[".env", "f.json"]));
        assert!(!q(&[".x", "f.json"]));
        assert!(!q(&["$ENVIRONMENT"]));
        assert!(!q(&["{\"env\": 1}"]));
        assert!(!q(&["--arg", "env", "prod", ".x", "f.json"]));
        assert!(q(&["--arg", "x", "1", "-n", "env"]));
        assert!(query_reads_environment(
            "yq",
            &words(&["-n", "strenv(TOKEN)"])
        ));
    }
}
