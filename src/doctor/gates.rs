//! The doctor's checks of whether a host runs the hook it has: its trust
//! gates (Gemini CLI's trusted folders, Codex's hook review and project
//! trust, Copilot CLI's trusted folders) and the settings that turn hooks
//! off or put others beside ours.
//!
//! Takes the environment and the entries found; adds checks, each problem
//! with its fix. Reads only.

use super::Check;
use super::checks::Found;
use crate::hook::Host;
use crate::install::hosts::{Env, Shape};
use crate::install::json::{self, Json};
use crate::install::{codex_toml, files, merge};
use std::path::{Path, PathBuf};

/// A JSON file's tree, or `None` when missing or unreadable.
pub(super) fn read_json(path: &Path) -> Option<Json> {
    files::read(path)
        .ok()
        .flatten()
        .and_then(|t| json::parse(&t).ok())
}

/// The trust gates of `host` for the entries found.
pub(super) fn trust(env: &Env, host: Host, found: &[Found], cwd: &Path, checks: &mut Vec<Check>) {
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
    if let Some(i) = inline.as_ref().filter(|i| !i.ours && !i.events.is_empty()) {
        checks.push(Check::note(
            "config",
            format!(
                "{} also keeps hooks inline ([hooks] {}); whether Codex then still reads hooks.json is not known here: run one `codex exec` with a shell command and look for `hook: PreToolUse` in its output",
                config.display(),
                i.events.join(", ")
            ),
        ));
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
pub(super) fn disabled(
    env: &Env,
    bin: &Path,
    host: Host,
    found: &[Found],
    checks: &mut Vec<Check>,
) {
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
