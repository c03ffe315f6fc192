//! Git's global options (`git [OPTIONS] SUBCOMMAND …`), read in one place.
//!
//! Takes git's arguments (the words after `git`) and returns what its
//! global options do: the configuration they set (`-c key=value`,
//! `--config-env key=VAR`), the folders git moves to (`-C`), the options
//! it does not know, and where the subcommand is. The options themselves
//! are the `git` entry of `rules/lexicon/git.json`, read by the same
//! option reader as every verb, so the lexicon, the floor, the path law and
//! the engine's settings checks cannot disagree about where the
//! subcommand starts.
#![deny(clippy::indexing_slicing)]

use crate::options::{self, Value};
use crate::shell::Word;

/// One configuration setting given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The key as written (`core.pager`).
    pub key: String,
    /// Its value; `None` when it comes from an environment variable
    /// (`--config-env core.pager=VAR`) and is only known when git runs.
    pub value: Option<String>,
}

/// What git's global options say.
#[derive(Debug, Default)]
pub struct Globals<'w> {
    /// `-c` and `--config-env` settings, in order.
    pub settings: Vec<Setting>,
    /// `-C` folders, in order (each relative to the one before).
    pub dirs: Vec<&'w Word>,
    /// Index in the arguments of the subcommand's name.
    pub sub: Option<usize>,
    /// Indices of option words git's entry does not know.
    pub unknown: Vec<usize>,
}

/// Reads git's global options from `args` (the words after `git`).
pub fn read(args: &[Word]) -> Globals<'_> {
    let mut globals = Globals::default();
    let Some(spec) = crate::rules::lexicon_entry("git") else {
        return globals;
    };
    let (place, reading) = options::first_operand(spec, args, 0);
    globals.sub = place.map(|(index, _, _)| index);
    globals.unknown = reading.unknown;
    for used in &reading.uses {
        let Some(known) = used.known else { continue };
        let value = match used.value {
            Some(Value::Next(at)) => args.get(at).map(|w| (w, 0)),
            Some(Value::Attached(at)) => args.get(used.index).map(|w| (w, at)),
            None => None,
        };
        let Some((word, at)) = value else { continue };
        let text = word.value.get(at..).unwrap_or("");
        match known.spelling.get() {
            "-c" => globals.settings.push(match text.split_once('=') {
                Some((key, value)) => Setting {
                    key: key.to_string(),
                    value: Some(value.to_string()),
                },
                // `-c key` alone sets the key to true.
                None => Setting {
                    key: text.to_string(),
                    value: Some("true".to_string()),
                },
            }),
            "--config-env" => {
                let key = text.split_once('=').map_or(text, |(key, _)| key);
                globals.settings.push(Setting {
                    key: key.to_string(),
                    value: None,
                });
            }
            "-C" if at == 0 => globals.dirs.push(word),
            _ => {}
        }
    }
    globals
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Word> {
        line.split_whitespace().map(Word::literal).collect()
    }

    #[test]
    fn finds_the_subcommand_after_every_global_option() {
        for (line, sub) in [
            ("status", 0),
            ("-C sub status", 2),
            ("-c core.pager=cat log", 2),
            ("--attr-source HEAD -c core.pager=x log", 4),
            ("--config-env core.pager=P log", 2),
            ("--config-env=core.pager=P log", 1),
            ("--no-pager -P --literal-pathspecs diff", 3),
            ("--git-dir x status", 2),
            ("--work-tree=w status", 1),
        ] {
            let args = words(line);
            assert_eq!(read(&args).sub, Some(sub), "{line}");
        }
    }

    #[test]
    fn reads_settings_in_every_spelling() {
        let args =
            words("--attr-source HEAD -c core.pager=a --config-env=core.editor=E -c x.y log");
        let globals = read(&args);
        assert_eq!(
            globals.settings,
            vec![
                Setting {
                    key: "core.pager".into(),
                    value: Some("a".into())
                },
                Setting {
                    key: "core.editor".into(),
                    value: None
                },
                Setting {
                    key: "x.y".into(),
                    value: Some("true".into())
                },
            ]
        );
    }

    #[test]
    fn an_unknown_global_option_is_reported() {
        let args = words("--frobnicate status");
        let globals = read(&args);
        assert_eq!(globals.unknown, vec![0]);
        // git itself rejects a glued `-ckey=value`; read as a setting, it
        // is judged as one (the stricter reading).
        let args = words("-ccore.pager=x log");
        assert_eq!(read(&args).settings[0].key, "core.pager");
    }
}
