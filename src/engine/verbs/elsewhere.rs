//! Commands the ssh family runs somewhere else: `ssh host CMD…` on the
//! other machine, and on this one the commands of `ssh -o
//! ProxyCommand=…`, `scp -S prog`, `sftp -S prog`, `autossh` and `rsync
//! -e` (found by [`floor::ssh_local_commands`]).
//!
//! Takes the verb, its words and the command's [`Ctx`]; adds findings and
//! judges each command found, one level deeper; returns nothing (the verb
//! itself is still judged by the floor and the lexicon).
//!
//! Evaluation order (before the floor):
//! 1. `ssh`'s remote command: SIGNED `parse.dynamic-script` when only known
//!    at run time, else judged as a script (the floor holds there as
//!    here), with no folder known;
//! 2. the commands the verb runs on this machine: each SIGNED `verb.exec`
//!    and judged as a script in the command's folder.

use super::Handler;
use crate::engine::Run;
use crate::engine::ctx::Ctx;
use crate::floor;
use crate::limits;
use crate::peel;
use crate::rule_id::Rule;
use crate::shell::Word;
use crate::verdict::{Effect, Verdict};

/// `ssh`: a remote command, then local ones.
pub(super) const SSH: Handler = Handler {
    elsewhere: Some(ssh),
    ..Handler::NONE
};

/// `autossh`, `scp`, `sftp`, `rsync`: local commands only.
pub(super) const LOCAL: Handler = Handler {
    elsewhere: Some(local),
    ..Handler::NONE
};

fn ssh(run: &mut Run, ctx: &Ctx, verb: &str, words: &[Word]) {
    let args = words.get(1..).unwrap_or(&[]);
    run.remote_command(args, ctx);
    run.local_commands(verb, args, ctx);
}

fn local(run: &mut Run, ctx: &Ctx, verb: &str, words: &[Word]) {
    let args = words.get(1..).unwrap_or(&[]);
    run.local_commands(verb, args, ctx);
}

impl Run<'_> {
    /// `ssh host CMD…`: the command run on the other machine, where the
    /// floor holds as here.
    fn remote_command(&mut self, args: &[Word], ctx: &Ctx) {
        let (part, depth) = (ctx.part(), ctx.depth);
        if let Some(remote) = peel::ssh_remote_command(args) {
            self.note(depth, || format!("ssh runs remotely: {}", remote.value));
            if remote.dynamic {
                self.find(
                    Verdict::Signed,
                    Rule::ParseDynamicScript,
                    "ssh runs a remote command only known when the command runs".into(),
                    "Write the remote command out literally so it can be checked.",
                    part,
                );
            } else {
                self.script(&remote.value, depth + 1, None);
            }
        }
    }

    /// The commands `verb` runs on this machine (`ssh -o ProxyCommand=…`,
    /// `scp -S prog`, `rsync -e`).
    fn local_commands(&mut self, verb: &str, args: &[Word], ctx: &Ctx) {
        let (part, depth, local_cwd) = (ctx.part(), ctx.depth, &ctx.cwd);
        for local in floor::ssh_local_commands(verb, args) {
            self.note(depth, || format!("{verb} runs locally: {local}"));
            self.find(
                Effect::Exec.verdict(),
                Rule::VerbExec,
                format!("{verb} runs `{}` on this machine", limits::clip(&local, 80)),
                Effect::Exec.remediation(),
                part,
            );
            self.script(&local, depth + 1, local_cwd.clone());
        }
    }
}
