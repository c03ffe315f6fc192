//! The doctor's checks of one host: is our hook in its config, does it
//! point at an existing portcullis of this version, is the entry the one
//! install writes, does a live self-test answer as the host honours, do
//! the host's trust gates let it run, and does anything disable it.
//!
//! Takes the environment and the running binary; returns the checks, each
//! with its fix. Reads files and runs the configured hook; writes nothing.
//! The trust gates and the settings that turn hooks off are in `gates`.

use super::Check;
use super::gates::{self, read_json};
use super::selftest::{self, Invocation, Reading};
use crate::hook::Host;
use crate::install::hosts::{Env, OPENCODE_PLUGIN, Shape, Spec, spec};
use crate::install::json::{self, Json};
use crate::install::{files, merge};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One portcullis entry found in a config file.
pub(super) struct Found {
    /// The file.
    pub(super) file: PathBuf,
    /// True for the project's file.
    pub(super) project: bool,
    /// The event it is under (empty for the OpenCode plugin).
    pub(super) event: &'static str,
    /// Its index in that event's array.
    pub(super) index: usize,
    /// The entry (group or handler) as written.
    pub(super) item: Json,
    /// How the host runs it.
    pub(super) how: Invocation,
    /// Whose entry it is.
    pub(super) host: Host,
}

/// Every check of `host`.
pub fn host(env: &Env, bin: &Path, host: Host) -> Vec<Check> {
    let spec = spec(host);
    let mut checks = Vec::new();
    let found = find(env, spec, bin, &mut checks);
    let fix_install = |project: bool| {
        let flag = if project { " --project" } else { "" };
        format!("portcullis install --host {}{flag}", host.name())
    };
    let plugin = (host == Host::Claude).then(|| claude_plugin(env)).flatten();
    if let Some(file) = &plugin {
        checks.push(Check::note(
            "configured",
            format!(
                "{} enables the portcullis Claude Code plugin; its hook (bin/portcullis-hook) is not checked here",
                file.display()
            ),
        ));
    }
    if found.is_empty() && plugin.is_none() {
        let files: Vec<String> = [false, true]
            .into_iter()
            .filter_map(|p| env.config_file(host, p))
            .map(|p| p.display().to_string())
            .collect();
        checks.push(Check::problem(
            "configured",
            format!("no portcullis hook in {}", files.join(" or ")),
            fix_install(false),
        ));
    }
    let cwd = env.cwd.clone().unwrap_or_else(|| PathBuf::from("/"));
    for f in &found {
        let event = if f.event.is_empty() {
            String::new()
        } else {
            format!(" hooks.{}", f.event)
        };
        let scope = if f.project { "project" } else { "user" };
        checks.push(Check::ok(
            "configured",
            format!("{}{event} ({scope})", f.file.display()),
        ));
        entry_shape(spec, f, &mut checks, &fix_install(f.project));
        // The binary and the live answers once per file, through the
        // host's main event (the first of its entries).
        let main_event = spec.entries.first().map_or("", |(e, _)| *e);
        if f.event == main_event && binary(env, bin, f, &mut checks, &fix_install(f.project)) {
            self_test(host, f, &cwd, &mut checks);
        }
    }
    gates::trust(env, host, &found, &cwd, &mut checks);
    gates::disabled(env, bin, host, &found, &mut checks);
    checks
}

/// The Claude Code settings file that enables the portcullis plugin
/// (`"enabledPlugins": {"portcullis@…": true}`), if one does.
fn claude_plugin(env: &Env) -> Option<PathBuf> {
    [env.user_dir(Host::Claude), env.project_dir(Host::Claude)]
        .into_iter()
        .flatten()
        .map(|dir| dir.join("settings.json"))
        .find(|file| {
            let Some(Json::Object(plugins)) =
                read_json(file).and_then(|v| v.get("enabledPlugins").cloned())
            else {
                return false;
            };
            plugins
                .iter()
                .any(|(name, on)| name.starts_with("portcullis@") && on.as_bool() == Some(true))
        })
}

/// The entries of ours in the user's and the project's file; unreadable
/// files are reported in `checks`.
fn find(env: &Env, spec: &Spec, bin: &Path, checks: &mut Vec<Check>) -> Vec<Found> {
    let mut found = Vec::new();
    for project in [false, true] {
        let Some(file) = env.config_file(spec.host, project) else {
            continue;
        };
        if project && Some(&file) == env.config_file(spec.host, false).as_ref() {
            continue;
        }
        let text = match files::read(&file) {
            Ok(Some(text)) => text,
            Ok(None) => continue,
            Err(reason) => {
                checks.push(Check::problem(
                    "config",
                    format!("{}: {reason}", file.display()),
                    "make it a plain file portcullis can read, then run portcullis install".into(),
                ));
                continue;
            }
        };
        if spec.shape == Shape::Plugin {
            if text.contains(r#"["hook", "--host", "opencode"]"#) {
                let program = env
                    .portcullis_bin
                    .clone()
                    .or_else(|| env.which("portcullis"))
                    .map(|p| p.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if text != OPENCODE_PLUGIN {
                    checks.push(Check::problem(
                        "entry",
                        format!("{} is not the plugin this portcullis ships", file.display()),
                        format!(
                            "portcullis install --host opencode{}",
                            if project { " --project" } else { "" }
                        ),
                    ));
                }
                found.push(Found {
                    file,
                    project,
                    event: "",
                    index: 0,
                    item: Json::Null,
                    how: Invocation::Exec(
                        program,
                        vec!["hook".into(), "--host".into(), "opencode".into()],
                    ),
                    host: spec.host,
                });
            }
            continue;
        }
        let root = match json::parse(&text) {
            Ok(root) => root,
            Err(e) => {
                checks.push(Check::problem(
                    "config",
                    format!(
                        "{}: not valid JSON ({e}); the host may ignore the whole file",
                        file.display()
                    ),
                    format!(
                        "repair {} by hand (a backup may be beside it)",
                        file.display()
                    ),
                ));
                continue;
            }
        };
        for (event, _) in spec.entries {
            let items = root
                .get("hooks")
                .and_then(|h| h.get(event))
                .and_then(Json::as_array)
                .unwrap_or_default();
            if let Some(index) = items
                .iter()
                .position(|i| merge::is_ours(i, spec.shape, bin))
            {
                let item = items[index].clone();
                let handler = match spec.shape {
                    Shape::Grouped => item
                        .get("hooks")
                        .and_then(Json::as_array)
                        .and_then(<[Json]>::first)
                        .cloned()
                        .unwrap_or(Json::Null),
                    _ => item.clone(),
                };
                let how = match handler.get("exec").and_then(Json::as_str) {
                    Some(_) => {
                        let (program, args) = merge::handler_program(&handler).unwrap_or_default();
                        Invocation::Exec(program, args)
                    }
                    None => Invocation::Shell(
                        handler
                            .get("command")
                            .and_then(Json::as_str)
                            .unwrap_or_default()
                            .to_string(),
                    ),
                };
                found.push(Found {
                    file: file.clone(),
                    project,
                    event,
                    index,
                    item,
                    how,
                    host: spec.host,
                });
            }
        }
    }
    found
}

/// The program an entry runs, resolved on PATH when it is a bare name.
fn program_of(env: &Env, how: &Invocation) -> Option<PathBuf> {
    let program = match how {
        Invocation::Exec(program, _) => program.clone(),
        Invocation::Shell(line) => shlex::split(line)?.into_iter().next()?,
    };
    if program.is_empty() {
        return None;
    }
    if program.contains('/') {
        Some(PathBuf::from(program))
    } else {
        env.which(&program).or(Some(PathBuf::from(program)))
    }
}

/// Checks that the entry is the one install writes for its binary.
fn entry_shape(spec: &Spec, f: &Found, checks: &mut Vec<Check>, fix: &str) {
    let Some((_, template)) = spec.entries.iter().find(|(e, _)| *e == f.event) else {
        return;
    };
    let program = match &f.how {
        Invocation::Exec(p, _) => p.clone(),
        Invocation::Shell(line) => shlex::split(line)
            .and_then(|w| w.into_iter().next())
            .unwrap_or_default(),
    };
    let want = merge::instantiate(template, Path::new(&program));
    if f.item == want {
        return;
    }
    let why = match spec.host {
        Host::Cursor => {
            "Cursor lets a call through when a hook fails unless the entry says \"failClosed\": true"
        }
        Host::Copilot => "the matcher, arguments or timeout differ from what portcullis needs",
        _ => {
            "without `|| exit 2` a missing or crashing binary lets every call through; the matcher and timeout must cover the shell and edit tools"
        }
    };
    checks.push(Check::problem(
        "entry",
        format!(
            "{} hooks.{}: {} differs from the entry install writes ({why})",
            f.file.display(),
            f.event,
            json::compact(&f.item)
        ),
        fix.to_string(),
    ));
}

/// Checks the entry's binary exists, runs, and is this version. True when
/// it can be self-tested.
fn binary(env: &Env, bin: &Path, f: &Found, checks: &mut Vec<Check>, fix: &str) -> bool {
    let host = f.host;
    let Some(program) = program_of(env, &f.how) else {
        let detail = if f.event.is_empty() {
            "the OpenCode plugin runs $PORTCULLIS_BIN or `portcullis` on PATH, and neither resolves here: every call is blocked".to_string()
        } else {
            format!("{}: the entry names no program", f.file.display())
        };
        let fix = if f.event.is_empty() {
            format!(
                "export PORTCULLIS_BIN={} in the environment OpenCode starts from, or put portcullis on PATH: ln -s {} ~/.local/bin/portcullis",
                quote(bin),
                quote(bin)
            )
        } else {
            fix.to_string()
        };
        checks.push(Check::problem("binary", detail, fix));
        return false;
    };
    if !crate::install::hosts::is_executable(&program) {
        let consequence = match host {
            Host::Copilot => "Copilot CLI denies every call (a hook error)",
            Host::Cursor => "Cursor blocks every call (failClosed)",
            Host::OpenCode => "the plugin blocks every call",
            _ => {
                "the host blocks every call through `|| exit 2`, or, without it, lets every call through"
            }
        };
        let state = if program.exists() {
            "is not executable"
        } else {
            "does not exist"
        };
        checks.push(Check::problem(
            "binary",
            format!("{} {state}: {consequence}", program.display()),
            format!("{fix}   (points the hook at {})", bin.display()),
        ));
        return false;
    }
    let how = Invocation::Exec(
        program.to_string_lossy().into_owned(),
        vec!["--version".into()],
    );
    let cwd = env.cwd.clone().unwrap_or_else(|| PathBuf::from("/"));
    let want = format!("portcullis {}", env!("CARGO_PKG_VERSION"));
    match selftest::run(&how, b"", &cwd, Duration::from_secs(5)) {
        Ok(answer) if answer.stdout.trim() == want => {
            let same = program.canonicalize().ok() == bin.canonicalize().ok();
            checks.push(Check::ok(
                "binary",
                format!(
                    "{} ({want}{})",
                    program.display(),
                    if same { ", this binary" } else { "" }
                ),
            ));
            if !same {
                checks.push(Check::note(
                    "binary",
                    format!(
                        "the hook runs {}, not this binary {}",
                        program.display(),
                        bin.display()
                    ),
                ));
            }
            true
        }
        Ok(answer) => {
            let got = answer
                .stdout
                .lines()
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
            checks.push(Check::problem(
                "version",
                format!("{} says `{got}`, this is {want}", program.display()),
                format!("{fix}   (points the hook at {})", bin.display()),
            ));
            // Another portcullis still answers: test it as it is.
            got.starts_with("portcullis ")
        }
        Err(reason) => {
            checks.push(Check::problem(
                "binary",
                format!("{}: {reason}", program.display()),
                fix.to_string(),
            ));
            false
        }
    }
}

/// Feeds one BLOCKED and one FREE request to the entry as the host would.
fn self_test(host: Host, f: &Found, cwd: &Path, checks: &mut Vec<Check>) {
    for (probe, want) in [
        (selftest::BLOCKED_PROBE, Reading::Deny),
        (selftest::FREE_PROBE, Reading::Pass),
    ] {
        let input = selftest::request(host, probe, cwd).to_string();
        let label = if want == Reading::Deny {
            "BLOCKED"
        } else {
            "FREE"
        };
        match selftest::run(&f.how, input.as_bytes(), cwd, selftest::TIMEOUT) {
            Ok(answer) => {
                let got = selftest::read(host, &answer);
                if got == want {
                    checks.push(Check::ok(
                        "self-test",
                        format!("`{probe}` is {label}: {}", describe(got)),
                    ));
                } else {
                    let shown = if answer.timed_out {
                        "no answer in time".to_string()
                    } else {
                        format!(
                            "exit {}, stdout `{}`, stderr `{}`",
                            answer
                                .code
                                .map_or_else(|| "by signal".into(), |c| c.to_string()),
                            crate::limits::clip(answer.stdout.trim(), 160),
                            crate::limits::clip(answer.stderr.trim(), 160)
                        )
                    };
                    checks.push(Check::problem(
                        "self-test",
                        format!(
                            "`{probe}` should be {label} but {} reads the answer as {} ({shown})",
                            spec(host).title,
                            describe(got)
                        ),
                        format!(
                            "portcullis install --host {}{}",
                            host.name(),
                            if f.project { " --project" } else { "" }
                        ),
                    ));
                }
            }
            Err(reason) => checks.push(Check::problem(
                "self-test",
                format!("the hook could not be run: {reason}"),
                format!("portcullis install --host {}", host.name()),
            )),
        }
    }
}

fn describe(reading: Reading) -> &'static str {
    match reading {
        Reading::Deny => "the host blocks it",
        Reading::Pass => "the host lets it run",
        Reading::Ask => "the host asks",
        Reading::Failed => "a failed hook (most hosts then run the call)",
    }
}

/// The shell-quoted path.
fn quote(path: &Path) -> String {
    let text = path.to_string_lossy();
    shlex::try_quote(&text).map_or_else(|_| text.to_string(), |q| q.into_owned())
}
