//! Reading a command's words for the floor checks: one-letter options in
//! clusters (values of options that take one skipped), long options and
//! their prefixes, option words and operands (everything after `--`).

use crate::shell::Word;

/// `-x` present, alone or in a cluster, before `--`.
pub(super) fn has_short(args: &[Word], letter: char) -> bool {
    short_letters(args, "").contains(&letter)
}

/// The one-letter options set in `args` (before `--`). A letter in `values`
/// takes a value: the rest of its cluster, or the next word (`-m msg`), is
/// not read as options (`git commit -mn` is a message "n", not `-n`).
pub(super) fn short_letters(args: &[Word], values: &str) -> Vec<char> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let w = word.value.as_str();
        if w == "--" {
            break;
        }
        let mut skip_next = false;
        if w.len() > 1 && w.starts_with('-') && !w.starts_with("--") {
            for (pos, c) in w[1..].char_indices() {
                if !c.is_ascii_alphabetic() {
                    break;
                }
                out.push(c);
                if values.contains(c) {
                    skip_next = 1 + pos + c.len_utf8() == w.len();
                    break;
                }
            }
        }
        i += if skip_next { 2 } else { 1 };
    }
    out
}

/// One-letter git options that take a value, per subcommand.
pub(super) fn git_value_letters(sub: &str) -> &'static str {
    match sub {
        "commit" => "mFcCt",
        "checkout" => "bB",
        "switch" => "cC",
        "restore" => "s",
        "clean" => "e",
        "push" => "o",
        "branch" => "u",
        "merge" => "mFsX",
        "rebase" => "sXx",
        _ => "",
    }
}

/// `--name`, `--name=…`, or (with `abbrev`) an unambiguous-looking prefix of
/// it of at least two letters, as git accepts.
pub(super) fn has_long(args: &[Word], long: &str, abbrev: bool) -> bool {
    let want = long.trim_start_matches('-');
    options(args).any(|o| {
        o.strip_prefix("--").is_some_and(|rest| {
            let name = rest.split('=').next().unwrap_or(rest);
            name == want
                || abbrev
                    && !name.is_empty()
                    && want.starts_with(name)
                    && name.starts_with("no-") == want.starts_with("no-")
        })
    })
}

/// Option words before `--`.
pub(super) fn options(args: &[Word]) -> impl Iterator<Item = &str> {
    args.iter()
        .map(|w| w.value.as_str())
        .take_while(|w| *w != "--")
        .filter(|w| w.len() > 1 && w.starts_with('-'))
}

/// Operands: non-option words, and everything after `--`.
pub(super) fn operands(args: &[Word]) -> Vec<&Word> {
    let mut out = Vec::new();
    let mut done = false;
    for w in args {
        if !done && w.value == "--" {
            done = true;
        } else if done || !(w.value.len() > 1 && w.value.starts_with('-')) {
            out.push(w);
        }
    }
    out
}

pub(super) fn only_help(args: &[Word]) -> bool {
    !args.is_empty()
        && args
            .iter()
            .all(|a| matches!(a.value.as_str(), "--help" | "-h" | "--version"))
}

/// The first operand is one of `subs`.
pub(super) fn first_operand_in(args: &[Word], subs: &[&str]) -> bool {
    operands(args)
        .first()
        .is_some_and(|w| subs.contains(&w.value.as_str()))
}
