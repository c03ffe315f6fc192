//! `find`: the commands its `-exec`, `-execdir`, `-ok` and `-okdir` run.
//!
//! Takes find's words and the command's [`Ctx`]. Returns nothing from the
//! first step (each command is judged, one level deeper) and, for the
//! lexicon, find's words without those commands.
//!
//! Evaluation order:
//! 1. before the floor: each command is judged as an argv of its own (its
//!    wrappers peeled, the floor and the lexicon applied), in the
//!    command's folder;
//! 2. before the lexicon: find is classified without them, so the lexicon
//!    reads find's own words only (the floor saw them all).

use super::Handler;
use crate::engine::Run;
use crate::engine::ctx::Ctx;
use crate::peel;
use crate::shell::Word;
use std::borrow::Cow;

/// `find`: commands it runs, and the words the lexicon reads.
pub(super) const HANDLER: Handler = Handler {
    elsewhere: Some(exec_commands),
    lexicon_words: Some(peel::strip_find_exec),
    ..Handler::NONE
};

/// Each command of `-exec …`, judged as an argv.
fn exec_commands(run: &mut Run, ctx: &Ctx, _verb: &str, words: &[Word]) {
    let args = words.get(1..).unwrap_or(&[]);
    let (site, depth, local_cwd) = (ctx.site, ctx.depth, &ctx.cwd);
    for inner in peel::find_exec_commands(args) {
        run.note(depth, || "find -exec runs:".to_string());
        let mut inner_cwd = local_cwd.clone();
        run.words(Cow::Owned(inner), site, depth + 1, &mut inner_cwd);
    }
}
