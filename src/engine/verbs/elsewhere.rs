//! Commands a command runs somewhere else: `ssh host CMD…` on the other
//! machine, the local commands of `ssh -o ProxyCommand=…`, `scp -S prog`,
//! `sftp`, `autossh` and `rsync -e`, and the commands of `find -exec`.
//!
//! Takes the verb, its arguments and the command's [`Ctx`]; adds findings
//! and judges each command found, one level deeper; returns nothing (the
//! verb itself is still judged by the floor and the lexicon).
//!
//! Evaluation order:
//! 1. `ssh`'s remote command: SIGNED `parse.dynamic-script` when only known
//!    at run time, else judged as a script (the floor holds there as
//!    here), with no folder known;
//! 2. the commands the ssh family runs on this machine: each SIGNED
//!    `verb.exec` and judged as a script in the command's folder;
//! 3. `find -exec`'s (`-execdir`, `-ok`, `-okdir`) commands: each judged
//!    as an argv of its own, in the command's folder.

use crate::engine::Run;
use crate::engine::ctx::Ctx;
use crate::floor;
use crate::limits;
use crate::peel;
use crate::shell::Word;
use crate::verdict::{Effect, Verdict};
use std::borrow::Cow;

impl Run<'_> {
    /// Commands this one runs somewhere else: `ssh host CMD…` on the other
    /// machine (the floor holds there as here), `ssh -o ProxyCommand=…` and
    /// `scp -S prog` on this one, and `find -exec`'s commands.
    pub(in crate::engine) fn runs_elsewhere(&mut self, verb: &str, args: &[Word], ctx: &Ctx) {
        let (site, depth, local_cwd) = (ctx.site, ctx.depth, &ctx.cwd);
        let part = site.command.text.as_str();
        if verb == "ssh"
            && let Some(remote) = peel::ssh_remote_command(args)
        {
            self.note(depth, || format!("ssh runs remotely: {}", remote.value));
            if remote.dynamic {
                self.find(
                    Verdict::Signed,
                    "parse.dynamic-script",
                    "ssh runs a remote command only known when the command runs".into(),
                    "Write the remote command out literally so it can be checked.",
                    part,
                );
            } else {
                self.script(&remote.value, depth + 1, None);
            }
        }
        for local in floor::ssh_local_commands(verb, args) {
            self.note(depth, || format!("{verb} runs locally: {local}"));
            self.find(
                Effect::Exec.verdict(),
                "verb.exec",
                format!("{verb} runs `{}` on this machine", limits::clip(&local, 80)),
                Effect::Exec.remediation(),
                part,
            );
            self.script(&local, depth + 1, local_cwd.clone());
        }
        if verb == "find" {
            for inner in peel::find_exec_commands(args) {
                self.note(depth, || "find -exec runs:".to_string());
                let mut inner_cwd = local_cwd.clone();
                self.words(Cow::Owned(inner), site, depth + 1, &mut inner_cwd);
            }
        }
    }
}
