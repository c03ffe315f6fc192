//! `cd`, `pushd`, `popd`: the builtins that change the shell's folder.
//!
//! Takes the command's words as written (the builtin first) and its
//! [`Ctx`] (the shell's folder in `shell_cwd`); returns the shell's new
//! folder, unknown (`None`) for `popd`, `cd -` and a folder that cannot be
//! resolved.
//!
//! Evaluation order:
//! 1. the options, read against the builtin's closed option set in the
//!    lexicon: one it does not have is SIGNED (`….unknown-option`);
//! 2. the folder: none for `popd` and `cd -`, the home folder with no
//!    operand, else the first operand resolved against the shell's folder;
//! 3. FREE `lexicon.cd`.

use super::{Handled, Handler};
use crate::engine::Run;
use crate::engine::ctx::Ctx;
use crate::lexicon;
use crate::rule_id::RuleId;
use crate::shell::Word;
use crate::verdict::Verdict;
use std::path::PathBuf;

/// `cd` judged whole before its program is resolved.
pub(super) const HANDLER: Handler = Handler {
    builtin: Some(builtin),
    ..Handler::NONE
};

fn builtin(run: &mut Run, ctx: &Ctx, written: &str, words: &[Word]) -> Handled {
    Handled::Moved(run.change_folder(written, words, ctx))
}

impl Run<'_> {
    /// `cd`, `pushd`, `popd`: the shell's folder changes. Their options
    /// (`cd -P dir`) are read as any verb's: one they do not have is not
    /// free, and the folder is the first operand.
    pub(in crate::engine) fn change_folder(
        &mut self,
        written: &str,
        words: &[Word],
        ctx: &Ctx,
    ) -> Option<PathBuf> {
        let (part, depth) = (ctx.part(), ctx.depth);
        let classified = lexicon::classify(written, words);
        if let Some(classified) = &classified {
            self.unknown_options(classified, words, part, depth);
        }
        let operand = classified
            .as_ref()
            .and_then(|c| c.operands.first())
            .and_then(|&i| words.get(i));
        let location = self.location;
        let cwd = match (written, operand) {
            ("popd", _) => None,
            (_, None) => location.home.clone(),
            (_, Some(dir)) if dir.value == "-" => None,
            (_, Some(dir)) => self.cd_folder(words, dir, ctx.shell_cwd),
        };
        self.note(depth, || match cwd.as_deref() {
            Some(dir) => format!("cd: now in {}", dir.display()),
            None => "cd: the folder is now unknown".to_string(),
        });
        self.find(
            Verdict::Free,
            RuleId::lexicon(&["cd"], None),
            "cd changes folder".into(),
            "",
            part,
        );
        cwd
    }
}
