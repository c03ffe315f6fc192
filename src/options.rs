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
    /// An option the spec does not know.
    Unknown,
}

/// Reads every word of `argv` from `start` against `spec`.
pub fn read(spec: &'static Spec, argv: &[Word], start: usize) -> Reading {
    let mut reading = Reading::default();
    let mut options_done = false;
    let mut i = start;
    while i < argv.len() {
        let word = &argv[i];
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
            Read::Unknown if spec.unknown_is_operand => {
                options_done = true;
            }
            Read::Unknown => {
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
    let mut reading = Reading::default();
    let mut i = start;
    while i < argv.len() {
        let text = argv[i].value.as_str();
        if text == "--" {
            return (None, reading);
        }
        // `+toolchain` (cargo) and `NAME=value` (make) come before the
        // subcommand; neither is an option.
        if !is_option(text) && !text.starts_with('+') && !crate::peel::is_assignment(text) {
            return (Some((i, 0, i + 1)), reading);
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
                        Some(Value::Next(at)) if names_sub => return (Some((at, 0, at + 1)), reading),
                        Some(Value::Attached(at)) if names_sub => {
                            return (Some((used.index, at, used.index + 1)), reading);
                        }
                        _ => {}
                    }
                }
                reading.uses.extend(uses);
                i = next;
            }
            Read::Unknown => {
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
    (word.dynamic && matches!(first, Some(b'$' | b'`')))
        || (word.glob && matches!(first, Some(b'*' | b'?' | b'[' | b'{')))
}

/// Reads the option word at `argv[i]`.
fn read_word(spec: &'static Spec, argv: &[Word], i: usize) -> Read {
    let text = argv[i].value.as_str();
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
        return Read::Unknown;
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
        return Read::Unknown;
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
/// the word, or the next word.
fn read_cluster(spec: &'static Spec, argv: &[Word], i: usize) -> Read {
    let text = argv[i].value.as_str();
    let mut uses = Vec::new();
    let mut buffer = [0u8; 5];
    for (pos, c) in text[1..].char_indices() {
        buffer[0] = b'-';
        let letter = c.encode_utf8(&mut buffer[1..]).len();
        let spelling = std::str::from_utf8(&buffer[..1 + letter]).unwrap_or("");
        let Some(known) = spec.option(spelling) else {
            return Read::Unknown;
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
            return Read::Options(uses, next);
        }
        uses.push(OptionUse {
            index: i,
            known: Some(known),
            value: None,
        });
    }
    Read::Options(uses, i + 1)
}
