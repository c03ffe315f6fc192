//! `source FILE` and `. FILE`: the shell runs a file in itself.
//!
//! Takes the arguments after the verb and the command's [`Ctx`]; returns
//! true when a file is named (the command is then judged whole), false
//! for a bare `source`, which the lexicon judges.
//!
//! Evaluation order (after the inline-code lanes, before commands run
//! elsewhere):
//! 1. no operand: not handled;
//! 2. the file is judged as a shell runs a script file by path
//!    ([`Run::program_file`]): a network redirect or stdin, a file printed
//!    by a substitution, a venv's activate script (FREE), a file written
//!    earlier in the line, else the file on disk.

use super::{Handled, Handler};
use crate::engine::Run;
use crate::engine::ctx::Ctx;
use crate::shell::Word;

/// `source` and `.`: a file run in this shell, after the lanes.
pub(super) const HANDLER: Handler = Handler {
    runs: Some(runs),
    ..Handler::NONE
};

fn runs(run: &mut Run, ctx: &Ctx, verb: &str, words: &[Word]) -> Handled {
    let args = words.get(1..).unwrap_or(&[]);
    if run.source_file(verb, args, ctx) {
        Handled::Judged
    } else {
        Handled::No
    }
}

impl Run<'_> {
    /// `source FILE`, `. FILE`: the file judged as the script it is.
    pub(in crate::engine) fn source_file(&mut self, verb: &str, args: &[Word], ctx: &Ctx) -> bool {
        let Some(file) = args.first() else {
            return false;
        };
        let how = if verb == "." { "." } else { "source" };
        self.program_file(how, file, ctx);
        true
    }
}
