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
}
