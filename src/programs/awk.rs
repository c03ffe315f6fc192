//! awk programs: what `awk ARGS` does beyond reading (`system()`,
//! `print > "f"`, `cmd | getline`), and the shell lines, written files and
//! program files its text names ([`Parts`]). A scan, not a parser.

use super::{PROGRAM_FILE, Parts, ProgramEffect, RUNS_COMMANDS, UNKNOWN_PROGRAM, WRITES_FILES};
use crate::shell::Word;

/// Options of awk that take a value.
const AWK_VALUE_OPTS: &[&str] = &["-F", "-v", "-i", "-l", "-o", "-p", "-E"];

/// What the program of `awk ARGS` does.
pub fn awk(args: &[Word]) -> Option<ProgramEffect> {
    let i = crate::peel::first_operand(args, AWK_VALUE_OPTS);
    let program_file = args.iter().take(i).any(|w| {
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
    let before = bytes
        .iter()
        .take(i)
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
    while let Some(&b) = bytes.get(j) {
        match b {
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
    while let Some(&c) = bytes.get(i) {
        match c {
            b'"' => {
                // Skip a string literal.
                i += 1;
                while let Some(&b) = bytes.get(i)
                    && b != b'"'
                {
                    i += if b == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if awk_regex_at(bytes, i) => {
                i = awk_regex_end(bytes, i);
                continue;
            }
            b'#' => {
                while bytes.get(i).is_some_and(|&b| b != b'\n') {
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
                while bytes
                    .get(i)
                    .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
                {
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

/// Options of awk that name a program file.
const AWK_FILE_OPTS: &[&str] = &["-f", "--file", "-E", "--exec", "-i", "--include"];

/// Options of gawk whose value is program text.
const AWK_SOURCE_OPTS: &[&str] = &["-e", "--source"];

pub(super) fn awk_parts(args: &[Word]) -> Parts {
    let mut parts = Parts::default();
    let mut has_program_option = false;
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let v = word.value.as_str();
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
        while bytes.get(i).is_some_and(|&b| b == b' ' || b == b'\t') {
            i += 1;
        }
        if bytes.get(i) != Some(&b'"') {
            break;
        }
        i += 1;
        let start = i;
        while let Some(&b) = bytes.get(i)
            && b != b'"'
        {
            i += if b == b'\\' { 2 } else { 1 };
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
pub(super) fn awk_text(program: &str) -> Parts {
    let bytes = program.as_bytes();
    let mut parts = Parts::default();
    let mut in_print = false;
    // The string literal that ended just before, if the last token was one.
    let mut last_string: Option<String> = None;
    let mut i = 0;
    while let Some(&c) = bytes.get(i) {
        match c {
            b'"' => {
                if let Some((value, end)) = awk_string(program, i) {
                    last_string = Some(value);
                    i = end;
                    continue;
                }
                // Skip a string with unknown escapes.
                i += 1;
                while let Some(&b) = bytes.get(i)
                    && b != b'"'
                {
                    i += if b == b'\\' { 2 } else { 1 };
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
                while bytes.get(i).is_some_and(|&b| b != b'\n') {
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
                while bytes
                    .get(i)
                    .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
                {
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
