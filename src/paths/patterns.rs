//! Path patterns for the floor: a word with globs or expansions only known
//! at run time made an absolute pattern ([`pattern_of`], an unknown
//! expansion as [`UNKNOWN`] or [`UNKNOWN_SET`]), the place such a pattern
//! may reach ([`pattern_place`]), and glob matching of names and of
//! component lists ([`name_matches`], [`pattern_matches`]). Pure text: nothing
//! here touches the filesystem.

use super::{Location, Place, SYSTEM_FOLDERS, TEMP_FOLDERS, known_expansion};
use crate::shell::Word;
use std::path::Path;

/// Stands for an expansion only known at run time inside a path pattern
/// (`/home/$X`): like `*` within one name, and possibly empty.
pub const UNKNOWN: char = '\u{1}';

/// Stands for an expansion that cannot be empty (`${X:?}`): like `*`
/// within one name.
pub const UNKNOWN_SET: char = '\u{2}';

/// The absolute pattern a word may name, for the floor: globs kept, known
/// variables read by value, every other expansion an [`UNKNOWN`]. `None`
/// when the word is plain (its [`Target`] says all) or starts with an
/// unknown expansion (then [`Target::empty_var_hazard`] speaks for it).
pub fn pattern_of(word: &Word, location: &Location, cwd: Option<&Path>) -> Option<String> {
    if !(word.glob || word.dynamic) {
        return None;
    }
    let home = location.home.as_deref();
    let user = home
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned());
    let value = &word.value;
    let mut text = String::with_capacity(value.len());
    let mut rest = value.as_str();
    while let Some(at) = rest.find(['$', '`']) {
        text.push_str(&rest[..at]);
        let tail = &rest[at..];
        match known_expansion(tail, home, cwd, user.as_deref()) {
            Some((len, known)) => {
                text.push_str(&known);
                rest = &tail[len..];
            }
            None => {
                let mut len = expansion_len(tail).min(tail.len());
                while !tail.is_char_boundary(len) {
                    len += 1;
                }
                // `${X:?}`, `${X?msg}`: the shell stops when X is empty.
                let spelled = tail.get(..len).unwrap_or(tail);
                let guarded =
                    tail.starts_with("${") && spelled.contains('?') && !spelled.contains("##");
                text.push(if guarded { UNKNOWN_SET } else { UNKNOWN });
                rest = &tail[len..];
            }
        }
    }
    text.push_str(rest);
    if text.starts_with([UNKNOWN, UNKNOWN_SET]) {
        return None;
    }
    let mut plain = word.clone();
    plain.value = text;
    plain.dynamic = false;
    plain.glob = false;
    let path = location.resolve_in(&plain, cwd).path?;
    Some(path.to_string_lossy().into_owned())
}

/// The length of the expansion (`$x`, `${…}`, `$(…)`, `` `…` ``, `$'…'`
/// is not one) at the start of `tail`; at least 1.
fn expansion_len(tail: &str) -> usize {
    let bytes = tail.as_bytes();
    let close = |open: u8, close: u8, from: usize| {
        let mut depth = 0usize;
        for (i, b) in bytes.iter().enumerate().skip(from) {
            if *b == open {
                depth += 1;
            } else if *b == close {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
        }
        bytes.len()
    };
    match bytes {
        [b'`', ..] => tail[1..].find('`').map_or(tail.len(), |e| e + 2),
        [b'$', b'{', ..] => close(b'{', b'}', 1),
        [b'$', b'(', ..] => close(b'(', b')', 1),
        [b'$', rest @ ..] => {
            let name = rest
                .iter()
                .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
                .unwrap_or(rest.len());
            // `$?`, `$$`, `$1`: one ASCII character; a lone `$` otherwise.
            let special =
                usize::from(name == 0 && rest.first().is_some_and(u8::is_ascii_punctuation));
            1 + name.max(special)
        }
        _ => 1,
    }
}

/// What an absolute path pattern (globs, [`UNKNOWN`]s) could name, the
/// strictest place first: the root, the home folder (or everything in
/// it, for a last `*`), a system folder or, when `contents`, something
/// directly inside one. `Ordinary` when it can match none of them.
pub fn pattern_place(pattern: &str, home: Option<&Path>, contents: bool) -> Place {
    let parts = components(pattern);
    if pattern_matches(&parts, &[]) {
        return Place::Root;
    }
    if let Some(home) = home {
        let home_text = home.to_string_lossy();
        let home_parts = components(&home_text);
        if pattern_matches(&parts, &home_parts) {
            return Place::Home;
        }
        if contents
            && let Some((last, parent)) = parts.split_last()
            && matches!(*last, "*" | ".*" | "?*")
            && pattern_matches(parent, &home_parts)
        {
            return Place::HomeContents;
        }
    }
    for folder in SYSTEM_FOLDERS {
        let folder_parts = components(folder);
        if pattern_matches(&parts, &folder_parts) {
            return Place::System;
        }
        if contents
            && let Some((_, parent)) = parts.split_last()
            && pattern_matches(parent, &folder_parts)
            && !in_temp_folder(parent)
        {
            return Place::System;
        }
    }
    Place::Ordinary
}

/// The pattern's folder is a temporary folder, literally (`/tmp/*`).
fn in_temp_folder(parent: &[&str]) -> bool {
    let text = format!("/{}", parent.join("/"));
    TEMP_FOLDERS.iter().any(|t| Path::new(&text).starts_with(t))
}

/// The names of an absolute path, without empty ones.
pub fn components(path: &str) -> Vec<&str> {
    path.split('/').filter(|p| !p.is_empty()).collect()
}

/// Whether the pattern's names can match `path`'s names: one name each,
/// except `**` (any number, under globstar) and a name that is only
/// unknown expansions (none or one).
pub fn pattern_matches(pattern: &[&str], path: &[&str]) -> bool {
    pattern_matches_bounded(pattern, path, 0)
}

fn pattern_matches_bounded(pattern: &[&str], path: &[&str], depth: usize) -> bool {
    if depth > 64 {
        return true;
    }
    let Some((first, rest)) = pattern.split_first() else {
        return path.is_empty();
    };
    let may_vanish = *first == "**" || first.chars().all(|c| c == UNKNOWN);
    if may_vanish && pattern_matches_bounded(rest, path, depth + 1) {
        return true;
    }
    let Some((name, path_rest)) = path.split_first() else {
        return false;
    };
    if *first == "**" {
        return pattern_matches_bounded(pattern, path_rest, depth + 1);
    }
    name_matches(first, name) && pattern_matches_bounded(rest, path_rest, depth + 1)
}

/// One token of a name pattern.
enum Token {
    Star,
    One,
    Class(Vec<(char, char)>, bool),
    Char(char),
}

/// Whether a name pattern (`*`, `?`, `[…]`, [`UNKNOWN`]) can match `name`.
/// Extended globs (`@(…)`, `!(…)`) match anything. Wildcards match a
/// leading dot too (dotglob may be on).
pub fn name_matches(pattern: &str, name: &str) -> bool {
    if pattern
        .as_bytes()
        .windows(2)
        .any(|w| matches!(w, [b'@' | b'!' | b'+' | b'*' | b'?', b'(']))
    {
        return true;
    }
    let tokens = name_tokens(pattern);
    let name: Vec<char> = name.chars().collect();
    let (mut t, mut n) = (0, 0);
    let mut resume: Option<(usize, usize)> = None;
    while let Some(here) = name.get(n) {
        let step = match tokens.get(t) {
            Some(Token::Star) => {
                resume = Some((t, n));
                t += 1;
                continue;
            }
            Some(Token::One) => true,
            Some(Token::Char(c)) => c == here,
            Some(Token::Class(ranges, negated)) => {
                ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(here)) != *negated
            }
            None => false,
        };
        if step {
            t += 1;
            n += 1;
        } else if let Some((star, at)) = resume {
            t = star + 1;
            n = at + 1;
            resume = Some((star, at + 1));
        } else {
            return false;
        }
    }
    tokens.iter().skip(t).all(|tok| matches!(tok, Token::Star))
}

fn name_tokens(pattern: &str) -> Vec<Token> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        match c {
            '*' | UNKNOWN | UNKNOWN_SET => out.push(Token::Star),
            '?' => out.push(Token::One),
            '[' => {
                if let Some((token, next)) = class_token(&chars, i) {
                    out.push(token);
                    i = next;
                    continue;
                }
                out.push(Token::Char('['));
            }
            c => out.push(Token::Char(c)),
        }
        i += 1;
    }
    out
}

/// A bracket expression starting at `chars[open]`, and the index after it.
fn class_token(chars: &[char], open: usize) -> Option<(Token, usize)> {
    let mut i = open + 1;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let mut first = true;
    while let Some(&c) = chars.get(i) {
        if c == ']' && !first {
            return Some((Token::Class(ranges, negated), i + 1));
        }
        // `[[:alpha:]]` and the like: any character, to be safe.
        if c == '[' && chars.get(i + 1) == Some(&':') {
            ranges.push(('\0', char::MAX));
            let end = (i + 2..chars.len().saturating_sub(1))
                .find(|&j| chars.get(j) == Some(&':') && chars.get(j + 1) == Some(&']'))?;
            i = end + 2;
            first = false;
            continue;
        }
        if chars.get(i + 1) == Some(&'-')
            && let Some(&end) = chars.get(i + 2).filter(|e| **e != ']')
        {
            ranges.push((c, end));
            i += 3;
        } else {
            ranges.push((c, c));
            i += 1;
        }
        first = false;
    }
    None
}
