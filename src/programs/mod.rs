//! Programs hidden in an inspect verb's arguments: an `awk` or `sed` script
//! can write files (`print > "f"`, `w f`) and run commands (`system()`,
//! `cmd | getline`, `s///e`). Takes the verb's arguments and returns what
//! the program does beyond reading, if anything. A scan, not a parser: it
//! can only raise a verdict, never lower one.
//!
//! This file holds what the dialects share ([`ProgramEffect`], [`Parts`],
//! [`Dialect`]) and jq's environment check; `awk`, `sed` and `ex` (vi) read
//! one dialect each.
#![deny(clippy::indexing_slicing)]

mod awk;
mod ex;
mod sed;
#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests;

use self::awk::{awk_parts, awk_text};
use self::ex::{ex_command, ex_parts};
use self::sed::{sed_parts, sed_text};
use crate::shell::Word;
use crate::verdict::Effect;
pub use awk::awk;
pub use sed::sed;

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

/// What an awk, sed or vi program hands on beyond its class: the literal
/// shell lines it runs (`system("…")`, `print | "…"`, `"…" | getline`,
/// sed's `e …`, vi's `:!…`), the literal files it writes (`print > "f"`,
/// sed's `w f`), and the program files it reads (`-f prog.awk`, `vim -S
/// x.vim`), each to be judged in turn.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Parts {
    /// Shell lines run.
    pub lines: Vec<String>,
    /// Files written.
    pub writes: Vec<String>,
    /// Program files read: the index of the word in the arguments and the
    /// byte where the file's name starts in it (`-fprog.awk`: 2).
    pub files: Vec<(usize, usize)>,
}

impl Parts {
    pub(super) fn add(&mut self, other: Parts) {
        self.lines.extend(other.lines);
        self.writes.extend(other.writes);
        self.files.extend(other.files);
    }
}

/// Which program text a verb runs, by its lexicon name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// awk, gawk, mawk, nawk.
    Awk,
    /// sed, gsed.
    Sed,
    /// vi, vim, nvim, ex, view: ex commands.
    Ex,
}

/// The dialect of `verb`, if it runs program text this module reads.
pub fn dialect(verb: &str) -> Option<Dialect> {
    match verb {
        "awk" | "gawk" | "mawk" | "nawk" => Some(Dialect::Awk),
        "sed" | "gsed" => Some(Dialect::Sed),
        "vi" | "vim" | "nvim" | "ex" | "view" | "vimdiff" | "gvim" => Some(Dialect::Ex),
        _ => None,
    }
}

/// The parts of the program text of `dialect` given in `args`.
pub fn parts(dialect: Dialect, args: &[Word]) -> Parts {
    match dialect {
        Dialect::Awk => awk_parts(args),
        Dialect::Sed => sed_parts(args),
        Dialect::Ex => ex_parts(args),
    }
}

/// The parts of a program file's text.
pub fn text_parts(dialect: Dialect, text: &str) -> Parts {
    match dialect {
        Dialect::Awk => awk_text(text),
        Dialect::Sed => sed_text(text),
        Dialect::Ex => {
            let mut parts = Parts::default();
            for line in text.lines() {
                parts.add(ex_command(line));
            }
            parts
        }
    }
}

/// Whether a jq or yq program reads the environment (`env`, `$ENV`,
/// yq's `env(NAME)`, `strenv`, `envsubst`): its value may hold secrets.
pub fn query_reads_environment(verb: &str, args: &[Word]) -> bool {
    if !matches!(verb, "jq" | "gojq" | "jaq" | "yq" | "xq" | "tomlq") {
        return false;
    }
    // The values of `--arg NAME VALUE` and the like are data, not program.
    let mut skip = 0;
    for word in args {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        skip = match word.value.as_str() {
            "--arg" | "--argjson" | "--slurpfile" | "--rawfile" => 2,
            "-L" | "--library-path" | "--indent" => 1,
            _ => 0,
        };
        if skip == 0 && names_environment(&word.value) {
            return true;
        }
    }
    false
}

/// Whether jq text names the environment as a word of its own (not `.env`,
/// a field, nor `$ENVIRONMENT`, another variable).
fn names_environment(text: &str) -> bool {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    for word in ["env", "$ENV", "strenv", "envsubst", "$__prog_env"] {
        for (at, _) in text.match_indices(word) {
            let before = text[..at].chars().next_back();
            let after = text[at + word.len()..].chars().next();
            if before.is_some_and(|c| is_name(c) || c == '.' || c == '$' || c == '"')
                || after.is_some_and(|c| is_name(c) || c == '"' || c == ':')
            {
                continue;
            }
            return true;
        }
    }
    false
}
