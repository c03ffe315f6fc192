//! The doctor's checks of one host: is our hook in its config, does it
//! point at an existing portcullis of this version, is the entry the one
//! install writes, does a live self-test answer as the host honours, do
//! the host's trust gates let it run, and does anything disable it.
//!
//! Takes the environment and the running binary; returns the checks, each
//! with its fix. Reads files and runs the configured hook; writes nothing.

use super::selftest::{self, Invocation, Reading};
use super::{Check, Status};
use crate::hook::Host;
use crate::install::hosts::{Env, OPENCODE_PLUGIN, Shape, Spec, spec};
use crate::install::json::{self, Json};
use crate::install::{codex_toml, files, merge};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One portcullis entry found in a config file.
struct Found {
    /// The file.
    file: PathBuf,
    /// True for the project's file.
    project: bool,
    /// The event it is under (empty for the OpenCode plugin).
    event: &'static str,
    /// Its index in that event's array.
    index: usize,
    /// The entry (group or handler) as written.
    item: Json,
    /// How the host runs it.
    how: Invocation,
    /// Whose entry it is.
    host: Host,
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
    trust(env, host, &found, &cwd, &mut checks);
    disabled(env, bin, host, &found, &mut checks);
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

/// A JSON file's tree, or `None` when missing or unreadable.
fn read_json(path: &Path) -> Option<Json> {
    files::read(path)
        .ok()
        .flatten()
        .and_then(|t| json::parse(&t).ok())
}

/// The trust gates of `host` for the entries found.
fn trust(env: &Env, host: Host, found: &[Found], cwd: &Path, checks: &mut Vec<Check>) {
    if found.is_empty() {
        return;
    }
    match host {
        Host::Gemini => gemini_trust(env, cwd, checks),
        Host::Codex => codex_trust(env, found, cwd, checks),
        Host::Copilot if found.iter().any(|f| f.project) => copilot_trust(env, cwd, checks),
        Host::Cursor if found.iter().any(|f| f.project) => checks.push(Check::note(
            "trust",
            "Cursor runs project hooks only in a trusted workspace, which cannot be read from here: open the folder in Cursor and trust it".into(),
        )),
        _ => {}
    }
}

/// Gemini CLI skips every settings hook, the user's too, in a folder it
/// does not trust (`security.folderTrust.enabled`, default true;
/// `trustedFolders.json`: path → TRUST_FOLDER | TRUST_PARENT | DO_NOT_TRUST,
/// the longest matching path wins).
fn gemini_trust(env: &Env, cwd: &Path, checks: &mut Vec<Check>) {
    if env.gemini_trust_workspace.as_deref() == Some("true") {
        checks.push(Check::ok(
            "trust",
            "GEMINI_CLI_TRUST_WORKSPACE=true trusts every folder".into(),
        ));
        return;
    }
    let Some(dir) = env.user_dir(Host::Gemini) else {
        return;
    };
    let settings = read_json(&dir.join("settings.json"));
    let enabled = settings
        .as_ref()
        .and_then(|s| {
            s.get("security")?
                .get("folderTrust")?
                .get("enabled")?
                .as_bool()
        })
        .unwrap_or(true);
    if !enabled {
        checks.push(Check::ok(
            "trust",
            "folder trust is off (security.folderTrust.enabled: false)".into(),
        ));
        return;
    }
    let file = dir.join("trustedFolders.json");
    let rules = read_json(&file);
    let mut best: Option<(usize, &str)> = None;
    if let Some(Json::Object(pairs)) = &rules {
        for (rule, level) in pairs {
            let Some(level) = level.as_str() else {
                continue;
            };
            let base = if level == "TRUST_PARENT" {
                Path::new(rule).parent().unwrap_or(Path::new(rule))
            } else {
                Path::new(rule)
            };
            if cwd.starts_with(base) && best.is_none_or(|(len, _)| rule.len() > len) {
                best = Some((rule.len(), level));
            }
        }
    }
    match best {
        Some((_, "TRUST_FOLDER" | "TRUST_PARENT")) => {
            checks.push(Check::ok("trust", format!("{} is trusted in {}", cwd.display(), file.display())));
        }
        other => checks.push(Check::problem(
            "trust",
            format!(
                "{} is {} for Gemini CLI, which then skips every settings hook, portcullis's too",
                cwd.display(),
                if other.is_some() { "marked DO_NOT_TRUST" } else { "not a trusted folder" }
            ),
            format!(
                "run `gemini` in {} and trust the folder, or add \"{}\": \"TRUST_FOLDER\" to {} (headless: GEMINI_CLI_TRUST_WORKSPACE=true)",
                cwd.display(),
                cwd.display(),
                file.display()
            ),
        )),
    }
}

/// Codex runs a non-managed hook only once it is reviewed: its hash under
/// `[hooks.state."<file>:pre_tool_use:<group>:<handler>"]` in config.toml.
fn codex_trust(env: &Env, found: &[Found], cwd: &Path, checks: &mut Vec<Check>) {
    let Some(dir) = env.user_dir(Host::Codex) else {
        return;
    };
    let config = dir.join("config.toml");
    let inline = match codex_toml::inline_hooks(&config) {
        Ok(inline) => inline,
        Err(reason) => {
            checks.push(Check::problem(
                "trust",
                reason,
                format!("repair {} by hand", config.display()),
            ));
            None
        }
    };
    let trusted = inline
        .as_ref()
        .map(|i| i.trusted.clone())
        .unwrap_or_default();
    for f in found.iter().filter(|f| f.event == "PreToolUse") {
        let key = format!("{}:pre_tool_use:{}:0", f.file.display(), f.index);
        let prefix = format!("{}:pre_tool_use:", f.file.display());
        let exact = trusted.contains(&key);
        if exact || trusted.iter().any(|k| k.starts_with(&prefix)) {
            checks.push(Check::ok(
                "trust",
                format!(
                    "reviewed: {} has a trusted_hash for {} (a change since the review needs a new one)",
                    config.display(),
                    if exact { key.as_str() } else { "a hook of this file" }
                ),
            ));
            if !exact {
                checks.push(Check::note(
                    "trust",
                    format!("no trusted_hash for {key} itself; if `codex exec` skips the hook, review it again in `codex` (/hooks)"),
                ));
            }
        } else {
            checks.push(Check::problem(
                "trust",
                format!("Codex has not reviewed the hook in {}: `codex exec` silently skips it", f.file.display()),
                "run `codex` in a terminal, open the hook review (/hooks) and trust the portcullis hook; in CI, run `codex exec --dangerously-bypass-hook-trust`".into(),
            ));
        }
        if f.project && !codex_toml::project_trusted(&config, cwd) {
            checks.push(Check::problem(
                "trust",
                format!("Codex loads {} only in a trusted project", f.file.display()),
                format!(
                    "add to {}:\n[projects.\"{}\"]\ntrust_level = \"trusted\"",
                    config.display(),
                    cwd.display()
                ),
            ));
        }
    }
    if inline.as_ref().is_some_and(|i| i.ours) {
        checks.push(Check::note(
            "config",
            format!(
                "{} runs portcullis from its [hooks] table too; Codex runs both",
                config.display()
            ),
        ));
    }
}

/// Copilot CLI loads repository hooks only in a trusted folder.
fn copilot_trust(env: &Env, cwd: &Path, checks: &mut Vec<Check>) {
    let Some(dir) = env.user_dir(Host::Copilot) else {
        return;
    };
    let mut folders = Vec::new();
    for (name, key) in [
        ("settings.json", "trustedFolders"),
        ("config.json", "trustedFolders"),
        ("config.json", "trusted_folders"),
    ] {
        if let Some(list) = read_json(&dir.join(name)).and_then(|v| v.get(key).cloned()) {
            folders.extend(
                list.as_array()
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|v| v.as_str().map(PathBuf::from)),
            );
        }
    }
    if folders.iter().any(|f| cwd.starts_with(f)) {
        checks.push(Check::ok(
            "trust",
            format!("{} is a trusted folder for Copilot CLI", cwd.display()),
        ));
    } else {
        checks.push(Check::problem(
            "trust",
            format!("{} is not a trusted folder: Copilot CLI skips its .github/hooks", cwd.display()),
            format!(
                "start `copilot` in {} and trust the folder (in -p: --trust-folder), or install the hook for the user: portcullis install --host copilot",
                cwd.display()
            ),
        ));
    }
}

/// Settings that turn hooks off, and other hooks beside ours.
fn disabled(env: &Env, bin: &Path, host: Host, found: &[Found], checks: &mut Vec<Check>) {
    let mut settings: Vec<PathBuf> = Vec::new();
    let user = env.user_dir(host);
    let project = env.project_dir(host);
    match host {
        Host::Claude | Host::Gemini | Host::Qwen => {
            for dir in user.iter().chain(project.iter()) {
                settings.push(dir.join("settings.json"));
            }
            if let (Host::Claude, Some(p)) = (host, &project) {
                settings.push(p.join("settings.local.json"));
            }
        }
        Host::Copilot => {
            if let Some(u) = &user {
                settings.push(u.join("settings.json"));
                settings.extend(json_files(&u.join("hooks")));
            }
            if let Some(p) = &project {
                settings.extend(json_files(p));
            }
        }
        Host::Codex => {
            for f in found.iter().filter(|f| f.event == "PreToolUse") {
                if let Some(Json::Object(pairs)) = read_json(&f.file) {
                    for (key, _) in pairs
                        .iter()
                        .filter(|(k, _)| k != "hooks" && k != "description")
                    {
                        checks.push(Check::problem(
                            "disabled",
                            format!(
                                "{} has the top-level key `{key}`: Codex ignores the whole file",
                                f.file.display()
                            ),
                            format!("remove `{key}` from {}", f.file.display()),
                        ));
                    }
                }
            }
        }
        _ => {}
    }
    for file in settings {
        let Some(value) = read_json(&file) else {
            continue;
        };
        if value.get("disableAllHooks").and_then(Json::as_bool) == Some(true) {
            checks.push(Check::problem(
                "disabled",
                format!(
                    "{} sets \"disableAllHooks\": true: no hook runs",
                    file.display()
                ),
                format!("remove \"disableAllHooks\" from {}", file.display()),
            ));
        }
        if host == Host::Gemini {
            let config = value.get("hooksConfig");
            if config
                .and_then(|c| c.get("enabled"))
                .and_then(Json::as_bool)
                == Some(false)
            {
                checks.push(Check::problem(
                    "disabled",
                    format!("{} sets hooksConfig.enabled: false", file.display()),
                    format!("remove hooksConfig.enabled from {}", file.display()),
                ));
            }
            let off = config
                .and_then(|c| c.get("disabled"))
                .and_then(Json::as_array)
                .unwrap_or_default()
                .iter()
                .any(|n| n.as_str() == Some("portcullis"));
            if off {
                checks.push(Check::problem(
                    "disabled",
                    format!(
                        "{} lists portcullis in hooksConfig.disabled",
                        file.display()
                    ),
                    format!(
                        "take \"portcullis\" out of hooksConfig.disabled in {}",
                        file.display()
                    ),
                ));
            }
        }
        if host == Host::Claude {
            claude_notes(&file, &value, bin, checks);
        }
    }
}

/// Claude Code: other PreToolUse hooks and `--free defer` change what a
/// FREE answer means; allow rules never override portcullis's deny.
fn claude_notes(file: &Path, value: &Json, bin: &Path, checks: &mut Vec<Check>) {
    let groups = value
        .get("hooks")
        .and_then(|h| h.get("PreToolUse"))
        .and_then(Json::as_array)
        .unwrap_or_default();
    for group in groups {
        let ours = merge::is_ours(group, Shape::Grouped, bin);
        let commands: Vec<&str> = group
            .get("hooks")
            .and_then(Json::as_array)
            .unwrap_or_default()
            .iter()
            .filter_map(|h| h.get("command").and_then(Json::as_str))
            .collect();
        if ours {
            if commands
                .iter()
                .any(|c| c.contains("--free defer") || c.contains("--free=defer"))
            {
                checks.push(Check::note(
                    "shadow",
                    format!("{}: --free defer: FREE prints nothing, so Claude Code's own permission rules decide FREE calls", file.display()),
                ));
            }
        } else {
            let matcher = group.get("matcher").and_then(Json::as_str).unwrap_or("*");
            checks.push(Check::note(
                "shadow",
                format!(
                    "{}: another PreToolUse hook runs beside portcullis (matcher `{matcher}`: {}); its allow cannot undo portcullis's deny",
                    file.display(),
                    commands.join("; ")
                ),
            ));
        }
    }
}

/// The `*.json` files of a folder.
fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

impl Check {
    /// A check that holds.
    pub fn ok(name: &'static str, detail: String) -> Check {
        Check {
            name,
            status: Status::Ok,
            detail,
            fix: None,
        }
    }
    /// Something worth knowing that does not stop the hook.
    pub fn note(name: &'static str, detail: String) -> Check {
        Check {
            name,
            status: Status::Note,
            detail,
            fix: None,
        }
    }
    /// A problem, with its fix.
    pub fn problem(name: &'static str, detail: String, fix: String) -> Check {
        Check {
            name,
            status: Status::Problem,
            detail,
            fix: Some(fix),
        }
    }
}
