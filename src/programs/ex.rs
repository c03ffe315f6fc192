//! vi-like editors (vi, vim, nvim, ex, view): the ex commands of `-c`,
//! `--cmd` and `+…`, and the command files of `-S`/`-u`, read for the shell
//! lines (`:!…`) and files (`:w f`) they name ([`Parts`]).

use super::Parts;
use crate::shell::Word;

/// Options of vi-like editors whose value is an ex command.
const EX_COMMAND_OPTS: &[&str] = &["-c", "--cmd"];

/// Options of vi-like editors whose value is a file of ex commands.
const EX_FILE_OPTS: &[&str] = &["-S", "-u"];

pub(super) fn ex_parts(args: &[Word]) -> Parts {
    let mut parts = Parts::default();
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let v = word.value.as_str();
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
pub(super) fn ex_command(line: &str) -> Parts {
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
