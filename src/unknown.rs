//! What the words of a program the lexicon does not know say about it:
//! whether one of them names a destructive act (`delete-topic`,
//! `--purge`, `db:drop`, `--force`). The words are data in
//! `rules/unknown.json`; this reads a command's arguments and returns the
//! first word that says so. It judges nothing else: such a program is
//! still one portcullis cannot vouch for, only no longer one to leave to
//! the host unasked.

use crate::rules::{UNKNOWN_DESTRUCTIVE_OPTION_WORDS, UNKNOWN_DESTRUCTIVE_WORDS};
use crate::shell::Word;

/// How many argument words are read: subcommands and their options come
/// first, and a long operand list is data.
const READ_WORDS: usize = 32;

/// A word longer than this is data, not a subcommand or an option name.
const MAX_WORD: usize = 64;

/// The first of `args` that names a destructive act (see the module doc).
pub fn destructive_word(args: &[Word]) -> Option<&Word> {
    args.iter().take(READ_WORDS).find(|word| says_destroy(word))
}

fn says_destroy(word: &Word) -> bool {
    if word.dynamic || word.value.len() > MAX_WORD || word.value.contains('/') {
        return false;
    }
    let lower = word.value.to_ascii_lowercase();
    match lower.strip_prefix('-') {
        Some(option) => {
            // `--delete-all` is read by its parts; a one-dash word only
            // whole (`-rf` is a cluster of letters, `-delete` a name).
            let long = option.starts_with('-');
            let name = option.trim_start_matches('-');
            let name = name.split_once('=').map_or(name, |(name, _)| name);
            let names = |part: &str| is_word(part) || is_in(UNKNOWN_DESTRUCTIVE_OPTION_WORDS, part);
            names(name) || (long && parts(name).any(names))
        }
        None => !lower.contains('=') && parts(&lower).any(is_word),
    }
}

/// A word's parts, split at `-`, `_`, `:` and `.`.
fn parts(word: &str) -> impl Iterator<Item = &str> {
    word.split(['-', '_', ':', '.']).filter(|p| !p.is_empty())
}

fn is_word(part: &str) -> bool {
    is_in(UNKNOWN_DESTRUCTIVE_WORDS, part)
}

fn is_in(list: &[&str], word: &str) -> bool {
    list.binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn says(word: &str) -> bool {
        says_destroy(&Word::literal(word))
    }

    #[test]
    fn subcommand_words_and_their_parts() {
        for word in [
            "delete",
            "DELETE",
            "delete-topic",
            "db:drop",
            "cache.purge",
            "hard_reset",
        ] {
            assert!(says(word), "{word}");
        }
        for word in [
            "list",
            "deleted",
            "dropbox",
            "reset=1",
            "src/delete.rs",
            "removal",
        ] {
            assert!(!says(word), "{word}");
        }
    }

    #[test]
    fn options_by_name_and_parts() {
        for word in [
            "--force",
            "--delete",
            "--delete-all=yes",
            "-rm",
            "--Purge",
            "--yes",
        ] {
            assert!(says(word), "{word}");
        }
        // A one-dash cluster is read whole: `-rf` is not `rm`'s flags here.
        for word in ["--list", "-f", "--format=json", "-rf", "--dry-run"] {
            assert!(!says(word), "{word}");
        }
    }

    #[test]
    fn the_lists_are_sorted_for_binary_search() {
        assert!(UNKNOWN_DESTRUCTIVE_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(
            UNKNOWN_DESTRUCTIVE_OPTION_WORDS
                .windows(2)
                .all(|w| w[0] < w[1])
        );
    }
}
