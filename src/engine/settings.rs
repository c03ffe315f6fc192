//! Settings that change what runs: environment variables set or exported
//! for a command (`PAGER=…`, `GIT_SSH_COMMAND=…`), `git -c` settings and
//! the scripts they name, cargo's `--config`, and secrets read into the
//! model's context.
//!
//! Takes the setting's name, value and scope; adds findings and
//! re-enters the shell lane with the commands a setting runs.

use super::Run;
use crate::floor;
use crate::rule_id::Rule;
use crate::settings::Scope;
use crate::shell::{Script, Word};
use crate::verdict::Verdict;
use std::path::PathBuf;

impl Run<'_> {
    /// Secrets read into the model's context: files of credentials named as
    /// operands, `kubectl get secrets`, and dumps of the whole environment.
    pub(super) fn secret_reads(
        &mut self,
        verb: &str,
        args: &[Word],
        script: &Script,
        part: &str,
        depth: usize,
        cwd: Option<&std::path::Path>,
    ) {
        let listed = self.listed.as_deref();
        let found =
            crate::secrets::secret_read(verb, args, listed, self.location, cwd).or_else(|| {
                let place = (self.location, cwd);
                let budget = &mut self.held_tries_left;
                crate::secrets::through_variables(verb, args, listed, script, place, budget)
            });
        if let Some(why) = found {
            self.note(depth, || format!("secrets: {why}"));
            self.find(
                Verdict::Signed,
                Rule::CageSecretsRead,
                format!("{why}; they would enter the model's context"),
                "Ask the person for the one value you need, or read a template such as .env.example.",
                part,
            );
        }
    }

    /// An interpreter whose code opens the files its stdin names, fed
    /// names of secrets (see [`crate::secrets::stdin_names_opened`]).
    pub(super) fn stdin_secret_reads(&mut self, verb: &str, args: &[Word], ctx: &super::ctx::Ctx) {
        if !crate::secrets::opens_computed_names(verb, args) {
            return;
        }
        let Some(fed) = crate::feeds::stdin_operands(ctx.site.script, ctx.site.command) else {
            return;
        };
        let found = crate::secrets::stdin_names_opened(verb, &fed, self.location, ctx.cwd());
        if let Some(why) = found {
            self.note(ctx.depth, || format!("secrets: {why}"));
            self.find(
                Verdict::Signed,
                Rule::CageSecretsRead,
                format!("{why}; they would enter the model's context"),
                "Ask the person for the one value you need, or read a template such as .env.example.",
                &ctx.site.command.text,
            );
        }
    }

    /// An environment variable set for a command (or exported): some make
    /// programs run other code.
    pub(super) fn setting(
        &mut self,
        name: &str,
        value: &Word,
        scope: Scope,
        part: &str,
        depth: usize,
    ) {
        if let Some(rule) = floor::check_setting(name, &value.value) {
            self.floor(rule, part, depth);
        }
        if let Some((rule, why)) = crate::settings::environment(name, &value.value, scope) {
            self.note(depth, || format!("setting: {why}"));
            self.find(Verdict::Signed, rule, why, SETTING_REMEDIATION, part);
            // The command it holds runs: judged as a script of its own
            // (`GIT_PAGER='rm -rf ~' git log`).
            if crate::settings::holds_command(name) && value.is_static() {
                let cwd = self.location.cwd.clone();
                self.script(&value.value, depth + 1, cwd);
            }
        }
    }

    /// `git -c key=value` and `--config-env key=VAR`: keys whose value is a
    /// command; an alias starting with `!` is a shell script, judged as one.
    pub(super) fn git_settings(
        &mut self,
        globals: &crate::git::Globals,
        part: &str,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        for setting in &globals.settings {
            let key = setting.key.as_str();
            let alias = key.to_ascii_lowercase().starts_with("alias.");
            let Some(value) = setting.value.as_deref() else {
                // The value is only known when git runs: any key that can
                // name a command is a command of unknown text.
                if crate::settings::git_config(key, "!").is_some() || alias {
                    self.find(
                        Verdict::Signed,
                        Rule::SettingExec,
                        format!("git --config-env sets {key} from the environment, so the command it names is only known when git runs"),
                        SETTING_REMEDIATION,
                        part,
                    );
                }
                continue;
            };
            if let Some((rule, why)) = crate::settings::git_config(key, value) {
                self.note(depth, || format!("setting: {why}"));
                self.find(Verdict::Signed, rule, why, SETTING_REMEDIATION, part);
                // A key whose value is a command (`core.pager`,
                // `core.sshCommand`): that command is judged too.
                if !alias {
                    self.script(value, depth + 1, cwd.clone());
                }
            }
            if alias {
                match value.strip_prefix('!') {
                    // `!cmd`: a shell script.
                    Some(script) => self.script(script, depth + 1, cwd.clone()),
                    // Otherwise a git command line (`alias.x='stash clear'`).
                    None => self.script(&format!("git {value}"), depth + 1, cwd.clone()),
                }
            }
        }
    }

    /// Commands git runs for a subcommand: `rebase --exec CMD` / `-x CMD`,
    /// `bisect run CMD ARGS…`, `submodule foreach CMD`. Each is judged as a
    /// script of its own (the lexicon already makes the call SIGNED).
    pub(super) fn git_scripts(
        &mut self,
        args: &[Word],
        globals: &crate::git::Globals,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        let Some(i) = globals.sub else {
            return;
        };
        let sub = args[i].value.as_str();
        let rest = args.get(i + 1..).unwrap_or(&[]);
        let mut scripts: Vec<String> = Vec::new();
        match sub {
            "rebase" => {
                let mut j = 0;
                while j < rest.len() {
                    let v = rest[j].value.as_str();
                    if v == "--exec" || v == "-x" {
                        if let Some(cmd) = rest.get(j + 1) {
                            scripts.push(cmd.value.clone());
                        }
                        j += 2;
                        continue;
                    }
                    if let Some(cmd) = v.strip_prefix("--exec=") {
                        scripts.push(cmd.to_string());
                    } else if let Some(cmd) = v.strip_prefix("-x").filter(|c| !c.is_empty()) {
                        scripts.push(cmd.to_string());
                    }
                    j += 1;
                }
            }
            "bisect" if rest.first().is_some_and(|w| w.value == "run") => {
                let words: Vec<String> = rest[1..].iter().map(|w| w.value.clone()).collect();
                if let Ok(line) = shlex::try_join(words.iter().map(String::as_str)) {
                    scripts.push(line);
                }
            }
            "submodule" => {
                let mut words = rest.iter().filter(|w| !w.value.starts_with('-'));
                if words.next().is_some_and(|w| w.value == "foreach")
                    && let Some(cmd) = words.next()
                {
                    scripts.push(cmd.value.clone());
                }
            }
            _ => {}
        }
        for script in scripts {
            self.note(depth, || format!("git {sub} runs: {script}"));
            self.script(&script, depth + 1, cwd.clone());
        }
    }
}

/// What to do instead of a setting that runs code.
const SETTING_REMEDIATION: &str = "Run the command without that setting (or with a plain value such as PAGER=cat), so what runs can be checked.";

/// The command a cargo `--config KEY=VALUE` setting makes cargo run, when
/// the key names one (`target.<triple>.runner`, `.linker`,
/// `build.rustc-wrapper`, `build.rustc`, …): the TOML string, or the words
/// of a TOML array of strings, as a shell line.
pub(super) fn cargo_config_command(setting: &str) -> Option<String> {
    let (key, value) = setting.split_once('=')?;
    let key = key.trim().to_ascii_lowercase();
    let names_a_command = [
        "runner",
        "linker",
        "rustc-wrapper",
        "rustc-workspace-wrapper",
        "rustc",
        "rustdoc",
    ]
    .iter()
    .any(|k| key == *k || key.strip_suffix(k).is_some_and(|head| head.ends_with('.')));
    if !names_a_command {
        return None;
    }
    let unquote = |s: &str| {
        let s = s.trim();
        s.strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .or_else(|| s.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')))
            .unwrap_or(s)
            .to_string()
    };
    let value = value.trim();
    match value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        // An array is the program and its arguments, each one word.
        Some(items) => {
            let words: Vec<String> = items.split(',').map(unquote).collect();
            shlex::try_join(words.iter().map(String::as_str)).ok()
        }
        None => Some(unquote(value)),
    }
}
