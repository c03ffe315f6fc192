//! `git`: what the verb stage reads of git beyond its lexicon entry.
//!
//! Takes git's arguments and the command's [`Ctx`]. Returns the folder git
//! runs in, and whether a write operand was judged here rather than as a
//! plain path.
//!
//! Evaluation order (git's other routes, `-c` keys and git control are
//! judged by the generic steps: `definitions`, `git_control_routes`):
//! 1. the folder (after the definitions, before the lanes): every `-C dir`,
//!    in turn, from the command's folder;
//! 2. each write operand (with the write targets): a magic pathspec
//!    (`:(top)x`, `:/x`) is judged by what it names, and nothing more; a
//!    glob pathspec git expands itself (`'*.rs'`) is judged as a pattern,
//!    and then as a path.

use super::Handler;
use crate::engine::Run;
use crate::engine::ctx::Ctx;
use crate::peel;
use crate::shell::Word;
use std::path::PathBuf;

/// `git`: its folder, and its pathspecs among the write operands.
pub(super) const HANDLER: Handler = Handler {
    folder: Some(folder),
    write_operand: Some(write_operand),
    ..Handler::NONE
};

fn folder(run: &Run, ctx: &Ctx, words: &[Word]) -> Option<PathBuf> {
    run.git_folder(words.get(1..).unwrap_or(&[]), ctx)
}

fn write_operand(run: &mut Run, ctx: &Ctx, word: &Word, args: &[Word]) -> bool {
    run.git_write_operand(word, args, ctx)
}

impl Run<'_> {
    /// The folder git runs in: `-C dir`, each from the last.
    pub(in crate::engine) fn git_folder(&self, args: &[Word], ctx: &Ctx) -> Option<PathBuf> {
        peel::git_cwd(args, self.location, ctx.cwd.clone())
    }

    /// A write operand of git: true when judged here as a magic pathspec
    /// (the path law is not to judge it as a path); a glob pathspec is
    /// judged as a pattern and false returned.
    pub(in crate::engine) fn git_write_operand(
        &mut self,
        word: &Word,
        args: &[Word],
        ctx: &Ctx,
    ) -> bool {
        let (part, depth) = (ctx.part(), ctx.depth);
        if self.git_magic_pathspec(word, args, ctx.cwd(), part, depth) {
            return true;
        }
        if !word.glob && word.value.contains(['*', '?', '[']) {
            self.git_pathspec(word, ctx.cwd(), part, depth);
        }
        false
    }
}
