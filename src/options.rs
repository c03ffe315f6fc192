//! Options read against a verb's closed option set.
//!
//! Takes one lexicon spec and an argv (from the index where that spec's
//! words start) and returns what each word is: an option the spec knows
//! (with where its value is), an operand, or a word that looks like an
//! option the spec does not know. It reads as getopt_long does: short
//! options cluster (`-xzf FILE`), a value may be attached (`-oFILE`,
//! `--output=FILE`) or be the next word, and a long option may be
//! abbreviated to a prefix naming one option (`--extrac`). It decides no
//! class: the lexicon stage does that with what this returns.
#![deny(clippy::indexing_slicing)]

use crate::rules::{KnownOption, Spec};
use crate::shell::Word;

/// Where an option's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// In the same word, from this byte offset (`-oFILE`, `--output=FILE`).
    Attached(usize),
    /// The next word, at this index.
    Next(usize),
}

/// One known option found in the argv.
#[derive(Clone, Copy, Debug)]
pub struct OptionUse {
    /// Index of the word it is in.
    pub index: usize,
    /// The option, or `None` when it is known by a prefix family (`-Wall`).
    pub known: Option<&'static KnownOption>,
    /// Its value, when it takes one.
    pub value: Option<Value>,
}

/// What the words of one spec are.
#[derive(Debug, Default)]
pub struct Reading {
    /// Known options, in order.
    pub uses: Vec<OptionUse>,
    /// Indices of the operands.
    pub operands: Vec<usize>,
    /// Indices of words that look like options the spec does not know, or
    /// that name none of them unambiguously.
    pub unknown: Vec<usize>,
    /// Indices of words in option position whose value is only known at
    /// run time and may start with `-` (`$FLAGS`, a glob such as `*`).
    pub maybe_options: Vec<usize>,
}

/// What one word turned out to be.
enum Read {
    /// Known options; the index of the next word to read.
    Options(Vec<OptionUse>, usize),
    /// An option the spec does not know, with the known options it may
    /// still be (the other letters of a cluster, every option an
    /// ambiguous prefix could name), so their flags still count.
    Unknown(Vec<OptionUse>),
}

/// Reads every word of `argv` from `start` against `spec`.
pub fn read(spec: &'static Spec, argv: &[Word], start: usize) -> Reading {
    let mut reading = Reading::default();
    let mut options_done = false;
    let mut i = start;
    while let Some(word) = argv.get(i) {
        let text = word.value.as_str();
        if options_done || !is_option(text) {
            if !options_done && may_be_option(word) {
                reading.maybe_options.push(i);
            }
            reading.operands.push(i);
            i += 1;
            continue;
        }
        if text == "--" {
            options_done = !spec.reads_past_dashdash;
            i += 1;
            continue;
        }
        match read_word(spec, argv, i) {
            Read::Options(uses, next) => {
                reading.uses.extend(uses);
                i = next;
            }
            Read::Unknown(_) if spec.unknown_is_operand => {
                options_done = true;
            }
            Read::Unknown(uses) => {
                reading.uses.extend(uses);
                reading.unknown.push(i);
                i += 1;
            }
        }
    }
    reading
}

/// Where a subcommand's name is: the word's index, the byte offset of the
/// name in it (non-zero for `-mpytest`), and the index after it.
pub type NamePlace = (usize, usize, usize);

/// The word from `start` that may name a subcommand (the first operand, or
/// the value of a `sub_opts` option such as `python -m pytest`), with the
/// options read before it. `None` at `--` or the end of the words.
pub fn first_operand(
    spec: &'static Spec,
    argv: &[Word],
    start: usize,
) -> (Option<NamePlace>, Reading) {
    let (place, reading) = subcommand_name(spec, argv, start);
    (place.map(|(place, _)| place), reading)
}

/// As [`first_operand`], and whether the name is a `sub_opts` option's
/// value (`git checkout -b NAME`) rather than an operand.
pub fn subcommand_name(
    spec: &'static Spec,
    argv: &[Word],
    start: usize,
) -> (Option<(NamePlace, bool)>, Reading) {
    let mut reading = Reading::default();
    let mut i = start;
    while let Some(word) = argv.get(i) {
        let text = word.value.as_str();
        if text == "--" {
            return (None, reading);
        }
        // `+toolchain` (cargo) and `NAME=value` (make) come before the
        // subcommand; neither is an option.
        if !is_option(text) && !text.starts_with('+') && !crate::peel::is_assignment(text) {
            return (Some(((i, 0, i + 1), false)), reading);
        }
        if !is_option(text) {
            i += 1;
            continue;
        }
        match read_word(spec, argv, i) {
            Read::Options(uses, next) => {
                for used in &uses {
                    let names_sub = used
                        .known
                        .is_some_and(|k| spec.sub_opts.contains(k.spelling.get()));
                    match used.value {
                        Some(Value::Next(at)) if names_sub => {
                            return (Some(((at, 0, at + 1), true)), reading);
                        }
                        Some(Value::Attached(at)) if names_sub => {
                            return (Some(((used.index, at, used.index + 1), true)), reading);
                        }
                        _ => {}
                    }
                }
                reading.uses.extend(uses);
                i = next;
            }
            Read::Unknown(uses) => {
                reading.uses.extend(uses);
                reading.unknown.push(i);
                i += 1;
            }
        }
    }
    (None, reading)
}

/// An option word: starts with `-` and is more than `-` alone.
pub fn is_option(word: &str) -> bool {
    word.len() > 1 && word.starts_with('-')
}

/// A word whose value is only known at run time and may start with `-`:
/// it starts with an expansion, or with a glob that can match a file
/// called `--something`.
fn may_be_option(word: &Word) -> bool {
    let first = word.value.as_bytes().first().copied();
    (word.dynamic && matches!(first, Some(b'$' | b'`')) && !starts_with_a_path(&word.value))
        || (word.glob && matches!(first, Some(b'*' | b'?' | b'[' | b'{')))
}

/// Variables the shell keeps as absolute paths (`$HOME`, `$PWD`), and the
/// working folder's substitution: a word starting with one never starts
/// with `-` (setting HOME is a setting of its own, judged as one).
fn starts_with_a_path(value: &str) -> bool {
    [
        "$HOME",
        "${HOME}",
        "$PWD",
        "${PWD}",
        "$OLDPWD",
        "${OLDPWD}",
        "$(pwd)",
        "`pwd`",
    ]
    .iter()
    .any(|v| {
        value
            .strip_prefix(v)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
    })
}

/// Reads the option word at `argv[i]`.
fn read_word(spec: &'static Spec, argv: &[Word], i: usize) -> Read {
    let Some(word) = argv.get(i) else {
        return Read::Unknown(Vec::new());
    };
    let text = word.value.as_str();
    // A family known by prefix (`-Wall`) has its value attached; an
    // option that takes none ignores `=x` (the program rejects it).
    let one = |known: Option<&'static KnownOption>, attached: Option<usize>| {
        let takes_value = known.map_or(attached.is_some(), |k| k.takes_value);
        let value = match (takes_value, attached) {
            (true, Some(at)) => Some(Value::Attached(at)),
            (true, None) if i + 1 < argv.len() => Some(Value::Next(i + 1)),
            _ => None,
        };
        let next = if matches!(value, Some(Value::Next(_))) {
            i + 2
        } else {
            i + 1
        };
        Read::Options(
            vec![OptionUse {
                index: i,
                known,
                value,
            }],
            next,
        )
    };
    // The whole word, then `name=value`.
    if let Some(known) = spec.option(text) {
        return one(Some(known), None);
    }
    let eq = text.find('=');
    if let Some(at) = eq
        && let Some(known) = spec.option(&text[..at])
    {
        return one(Some(known), Some(at + 1));
    }
    if text.starts_with("--") {
        let name = eq.map_or(text, |at| &text[..at]);
        let candidates = spec.options_starting(name);
        if let [known] = candidates {
            return one(Some(known), eq.map(|at| at + 1));
        }
        if let Some(prefix) = prefix_family(spec, text) {
            return one(None, Some(prefix));
        }
        // Ambiguous: it is one of them or an error, so each one's flag
        // counts (a value attached with `=` is that value).
        let maybe = candidates
            .iter()
            .map(|known| OptionUse {
                index: i,
                known: Some(known),
                value: eq
                    .filter(|_| known.takes_value)
                    .map(|at| Value::Attached(at + 1)),
            })
            .collect();
        return Read::Unknown(maybe);
    }
    if let Some(prefix) = prefix_family(spec, text) {
        return one(None, Some(prefix));
    }
    if text[1..].bytes().all(|b| b.is_ascii_digit())
        && let Some(known) = spec.option("-NUM")
    {
        return one(Some(known), None);
    }
    if spec.no_clusters {
        // `-ofile`, `-Ipath`: a one-letter option with its value attached,
        // as gcc and its kind read it.
        if let Some(letter) = text.get(..2)
            && let Some(known) = spec.option(letter).filter(|k| k.takes_value)
        {
            return one(Some(known), Some(2));
        }
        return Read::Unknown(Vec::new());
    }
    read_cluster(spec, argv, i)
}

/// The offset where the value starts when `text` belongs to one of the
/// spec's option families (`-Wall` with `-W`).
fn prefix_family(spec: &Spec, text: &str) -> Option<usize> {
    spec.option_prefixes
        .iter()
        .find(|p| text.starts_with(p) && text.len() > p.len())
        .map(str::len)
}

/// Reads a cluster of one-letter options (`-xzvf FILE`, `-n5`): each
/// letter must be known; the first that takes a value takes the rest of
/// the word, or the next word. With a letter it does not know, the word is
/// unknown, but the known letters' flags still count (`sed -Xi`).
fn read_cluster(spec: &'static Spec, argv: &[Word], i: usize) -> Read {
    let Some(word) = argv.get(i) else {
        return Read::Unknown(Vec::new());
    };
    let text = word.value.as_str();
    let mut uses = Vec::new();
    let mut unknown = false;
    let mut buffer = [0u8; 5];
    for (pos, c) in text[1..].char_indices() {
        buffer[0] = b'-';
        let letter = c.encode_utf8(&mut buffer[1..]).len();
        let spelling = buffer
            .get(..1 + letter)
            .and_then(|b| std::str::from_utf8(b).ok())
            .unwrap_or("");
        let Some(known) = spec.option(spelling) else {
            unknown = true;
            continue;
        };
        if known.takes_value {
            let rest = 1 + pos + c.len_utf8();
            let (value, next) = if rest < text.len() {
                (Some(Value::Attached(rest)), i + 1)
            } else if i + 1 < argv.len() {
                (Some(Value::Next(i + 1)), i + 2)
            } else {
                (None, i + 1)
            };
            uses.push(OptionUse {
                index: i,
                known: Some(known),
                value,
            });
            return if unknown {
                Read::Unknown(uses)
            } else {
                Read::Options(uses, next)
            };
        }
        uses.push(OptionUse {
            index: i,
            known: Some(known),
            value: None,
        });
    }
    if unknown {
        Read::Unknown(uses)
    } else {
        Read::Options(uses, i + 1)
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Word> {
        line.split_whitespace().map(Word::literal).collect()
    }

    /// The spec at `git SUB`.
    fn git(sub: &str) -> &'static Spec {
        crate::rules::lexicon_entry("git")
            .and_then(|git| git.sub(sub))
            .expect("git sub in the lexicon")
    }

    fn spellings(reading: &Reading) -> Vec<&'static str> {
        reading
            .uses
            .iter()
            .map(|u| u.known.map_or("(family)", |k| k.spelling.get()))
            .collect()
    }

    #[test]
    fn clusters_attached_values_and_next_word_values() {
        let argv = words("git log -pn5 --author me -U3 --grep=x HEAD");
        let reading = read(git("log"), &argv, 2);
        assert_eq!(
            spellings(&reading),
            ["-p", "-n", "--author", "(family)", "--grep"]
        );
        assert_eq!(reading.uses[1].value, Some(Value::Attached(3)));
        assert_eq!(reading.uses[2].value, Some(Value::Next(4)));
        assert_eq!(reading.uses[3].value, Some(Value::Attached(2)));
        assert_eq!(reading.uses[4].value, Some(Value::Attached(7)));
        assert_eq!(reading.operands, [7]);
        assert!(reading.unknown.is_empty());
    }

    #[test]
    fn long_options_resolve_by_unique_prefix_only() {
        let argv = words("git log --onel --first-p HEAD");
        let reading = read(git("log"), &argv, 2);
        assert_eq!(spellings(&reading), ["--oneline", "--first-parent"]);
        // `--no-m` could be --no-merges or --no-mailmap: not one option.
        let argv = words("git log --no-m");
        let reading = read(git("log"), &argv, 2);
        assert_eq!(reading.unknown, [2]);
        assert!(reading.uses.len() > 1, "each candidate is kept");
    }

    #[test]
    fn numbers_unknown_letters_and_the_end_of_options() {
        let argv = words("git log -5 -%p -- -p");
        let reading = read(git("log"), &argv, 2);
        assert_eq!(spellings(&reading), ["-NUM", "-p"]);
        assert_eq!(reading.unknown, [3]);
        assert_eq!(reading.operands, [5]);
    }

    #[test]
    fn run_time_words_in_option_position() {
        let mut dynamic = Word::literal("$FLAGS");
        dynamic.dynamic = true;
        let mut glob = Word::literal("*");
        glob.glob = true;
        let argv = vec![Word::literal("git"), Word::literal("log"), dynamic, glob];
        let reading = read(git("log"), &argv, 2);
        assert_eq!(reading.maybe_options, [2, 3]);
        let argv = vec![
            Word::literal("git"),
            Word::literal("log"),
            Word::literal("--"),
            argv[2].clone(),
        ];
        assert!(read(git("log"), &argv, 2).maybe_options.is_empty());
    }

    #[test]
    fn the_subcommand_is_found_after_global_options() {
        let spec = crate::rules::lexicon_entry("git").expect("git");
        let argv = words("git -C sub --no-pager -c a.b=c log -1");
        let (place, before) = first_operand(spec, &argv, 1);
        assert_eq!(place, Some((6, 0, 7)));
        assert_eq!(spellings(&before), ["-C", "--no-pager", "-c"]);
        let argv = words("git -- log");
        assert_eq!(first_operand(spec, &argv, 1).0, None);
    }
}
