//! sed scripts: what `sed ARGS` does beyond reading (`w f`, `s///e`,
//! `e cmd`), and the shell lines, written files and script files its text
//! names ([`Parts`]). A scan, not a parser.

use super::{PROGRAM_FILE, Parts, ProgramEffect, RUNS_COMMANDS, UNKNOWN_PROGRAM, WRITES_FILES};
use crate::shell::Word;
use crate::verdict::Effect;

/// Options of sed that take a value (besides the script options).
const SED_VALUE_OPTS: &[&str] = &["-l", "--line-length"];

/// What the script of `sed ARGS` does.
pub fn sed(args: &[Word]) -> Option<ProgramEffect> {
    let mut scripts: Vec<&Word> = Vec::new();
    let mut from_option = false;
    let mut i = 0;
    let mut first_operand = None;
    while let Some(w) = args.get(i) {
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

pub(super) fn sed_parts(args: &[Word]) -> Parts {
    let mut parts = Parts::default();
    let mut from_option = false;
    let mut first_operand = None;
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let v = word.value.as_str();
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
            first_operand = Some(word);
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
pub(super) fn sed_text(script: &str) -> Parts {
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
