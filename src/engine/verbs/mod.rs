//! The per-verb handler table: what a few verbs need beyond their lexicon
//! entry, in the manner of cc-toolgate's `CommandSpec`. One file a handler
//! (`cd.rs`, `source.rs`, `elsewhere.rs`, `find.rs`, `git.rs`, `awk.rs`,
//! `sed.rs`, `sql.rs`), each saying what it takes, what it returns and its
//! evaluation order.
//!
//! A [`Handler`] is data: one optional function for each step of
//! [`Run::verb`](super::Run) it takes part in; a verb with no entry (most
//! of them) has [`Handler::NONE`]. [`Run::verb`](super::Run) looks the
//! table up by the name as written (for `builtin`: `cd` is a builtin,
//! never run by path), then by the verb as resolved (`/usr/bin/ssh` is
//! `ssh`), and by the lexicon's name for it (for `program` and
//! `script_operand`: `gawk` is read as `awk` is).
//!
//! To add a verb's handler: a file here with a `pub(super) const
//! HANDLER: Handler`, its names in [`HANDLERS`] (kept sorted), and its
//! cases in `corpus/`.
//!
//! Not in the table yet: generic steps of the path law that still test
//! the verb's name inside them (`copies_into_folder`: `cp`, `mv`,
//! `install`, `ln`, `rsync`, `scp`; `key_file`: `ssh-keygen`;
//! `extraction_folder`: `tar`, `unzip`, …; `patched_files`: `patch`,
//! `git apply`, `git am`; `git_control_routes`: `git`;
//! `in_place_edits`: `perl`, `ruby`; `mv`'s last operand in the write
//! targets).

use super::Run;
use super::ctx::Ctx;
use crate::lexicon::Classified;
use crate::programs::ProgramEffect;
use crate::shell::Word;
use std::path::PathBuf;

mod awk;
mod cd;
mod elsewhere;
mod find;
mod git;
mod sed;
mod source;
mod sql;

/// What a handler did with the command.
pub(super) enum Handled {
    /// Nothing: the next steps judge the command.
    No,
    /// Judged whole: no later step applies.
    Judged,
    /// Judged whole, and the shell's folder is now this one (`cd`; `None`
    /// when it is not known).
    Moved(Option<PathBuf>),
}

/// A step that may judge the command whole: the run, the command's
/// context, the verb (as the table was looked up) and the words, the verb
/// first.
pub(super) type Judge = fn(&mut Run, &Ctx, &str, &[Word]) -> Handled;

/// A step that adds findings; the same arguments as [`Judge`].
pub(super) type Step = fn(&mut Run, &Ctx, &str, &[Word]);

/// The command's own folder, from the run, the context and the words.
pub(super) type Folder = fn(&Run, &Ctx, &[Word]) -> Option<PathBuf>;

/// The words the lexicon classifies, from all the words.
pub(super) type LexiconWords = fn(&[Word]) -> Vec<Word>;

/// The effect of the program among the arguments after the verb.
pub(super) type Program = fn(&[Word]) -> Option<ProgramEffect>;

/// The index of the operand that is a script, from the classification
/// and the words the lexicon read.
pub(super) type ScriptOperand = fn(&Classified, &[Word]) -> Option<usize>;

/// A write operand judged by the verb: the run, the context, the operand
/// and the arguments after the verb; true when judged whole.
pub(super) type WriteOperand = fn(&mut Run, &Ctx, &Word, &[Word]) -> bool;

/// What one verb needs beyond the lexicon: one function for each step of
/// `Run::verb` it takes part in, in the order the steps run; `None` where
/// it has nothing to add.
pub(super) struct Handler {
    /// Before the program is resolved, by the name as written: judges the
    /// command whole (`cd`, `pushd`, `popd`).
    pub builtin: Option<Judge>,
    /// After the definitions: the command's own folder, from the one it
    /// was given (`git -C dir`).
    pub folder: Option<Folder>,
    /// After the inline-code lanes: a file the verb runs in this shell,
    /// judged whole when there is one (`source`, `.`).
    pub runs: Option<Judge>,
    /// Before the floor: commands the verb runs somewhere else (`ssh`,
    /// `scp -S`, `find -exec`).
    pub elsewhere: Option<Step>,
    /// Before the lexicon: the words it classifies, when not all of them
    /// (`find` without its `-exec` commands).
    pub lexicon_words: Option<LexiconWords>,
    /// After the lexicon, by its name for the verb: the effect the verb's
    /// program has, taken where stricter (`awk`, `sed`).
    pub program: Option<Program>,
    /// With the write targets, by the lexicon's name: the operand that is
    /// the verb's script, not a file it writes (`sed -i SCRIPT FILE`).
    pub script_operand: Option<ScriptOperand>,
    /// With the write targets: a write operand the verb judges itself;
    /// true when the path law is not to judge it as a path (git's magic
    /// pathspecs).
    pub write_operand: Option<WriteOperand>,
}

impl Handler {
    /// Nothing beyond the lexicon.
    pub const NONE: Handler = Handler {
        builtin: None,
        folder: None,
        runs: None,
        elsewhere: None,
        lexicon_words: None,
        program: None,
        script_operand: None,
        write_operand: None,
    };
}

static NONE: Handler = Handler::NONE;

/// Every verb with a handler, sorted by name.
#[rustfmt::skip]
static HANDLERS: &[(&str, &Handler)] = &[
    (".",       &source::HANDLER),
    ("autossh", &elsewhere::LOCAL),
    ("awk",     &awk::HANDLER),
    ("cd",      &cd::HANDLER),
    ("clickhouse-client", &sql::HANDLER),
    ("duckdb",  &sql::HANDLER),
    ("find",    &find::HANDLER),
    ("gawk",    &awk::HANDLER),
    ("git",     &git::HANDLER),
    ("gsed",    &sed::GSED),
    ("litecli", &sql::HANDLER),
    ("mariadb", &sql::HANDLER),
    ("mawk",    &awk::HANDLER),
    ("mongosh", &sql::HANDLER),
    ("mycli",   &sql::HANDLER),
    ("mysql",   &sql::HANDLER),
    ("nawk",    &awk::HANDLER),
    ("pgcli",   &sql::HANDLER),
    ("popd",    &cd::HANDLER),
    ("psql",    &sql::HANDLER),
    ("pushd",   &cd::HANDLER),
    ("rsync",   &elsewhere::LOCAL),
    ("scp",     &elsewhere::LOCAL),
    ("sed",     &sed::HANDLER),
    ("sftp",    &elsewhere::LOCAL),
    ("source",  &source::HANDLER),
    ("sqlite3", &sql::HANDLER),
    ("ssh",     &elsewhere::SSH),
];

/// The handler of the verb `name`: [`Handler::NONE`] when it has none.
pub(super) fn handler(name: &str) -> &'static Handler {
    HANDLERS
        .binary_search_by(|(n, _)| n.cmp(&name))
        .ok()
        .and_then(|i| HANDLERS.get(i))
        .map_or(&NONE, |(_, h)| *h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_without_duplicates() {
        for pair in HANDLERS.windows(2) {
            if let [(a, _), (b, _)] = pair {
                assert!(a < b, "{a} before {b}");
            }
        }
    }

    #[test]
    fn every_name_finds_its_handler() {
        for (name, h) in HANDLERS {
            assert!(std::ptr::eq(handler(name), *h), "{name}");
        }
        assert!(std::ptr::eq(handler("ls"), &NONE));
    }
}
