//! `portcullis install` and `portcullis uninstall`: put the hook entries
//! of [`hosts::SPECS`] into each host's config file, or take exactly them
//! out again.
//!
//! Takes the hosts (named, or else every host whose config folder or
//! program is found), the environment that says where their files are, and
//! the binary to point at; prints a unified diff of each change and one
//! status line per host; returns the exit code: 0 when every host went
//! well, 1 when any host's file was refused (that host's file is left as
//! it was; the others proceed).

pub mod codex_toml;
pub mod diff;
pub mod files;
pub mod hosts;
pub mod json;
pub mod merge;

use crate::hook::Host;
use hosts::{Env, Shape, Spec, spec};
use json::Json;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Which way a run goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Add our entries.
    Install,
    /// Take them out.
    Uninstall,
}

/// What the command line asked `install`/`uninstall` for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Install or uninstall.
    pub action: Action,
    /// The hosts named with `--host` (empty: every host found).
    pub hosts: Vec<Host>,
    /// The project's files instead of the user's.
    pub project: bool,
    /// Print the diffs, write nothing.
    pub dry_run: bool,
}

/// The file contents a host's change goes from and to (`None`: no file),
/// and notes to print with it.
struct Change {
    path: PathBuf,
    before: Option<String>,
    after: Option<String>,
    notes: Vec<String>,
}

/// Runs `request` for the binary `bin`, printing diffs and status lines on
/// `out` and refusals on `err`. Returns the exit code (0 or 1).
pub fn run(
    request: &Request,
    env: &Env,
    bin: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let hosts: Vec<Host> = if request.hosts.is_empty() {
        Host::ALL
            .into_iter()
            .filter(|&h| match request.action {
                Action::Install => env.finds(h, request.project),
                Action::Uninstall => env
                    .config_file(h, request.project)
                    .is_some_and(|p| std::fs::symlink_metadata(p).is_ok()),
            })
            .collect()
    } else {
        request.hosts.clone()
    };
    if hosts.is_empty() {
        let _ = writeln!(
            err,
            "portcullis: no host found; name one with --host (claude, opencode, codex, gemini, copilot, cursor, qwen)"
        );
        return 1;
    }
    let mut failed = false;
    for host in hosts {
        let name = host.name();
        match plan(request, env, spec(host), bin) {
            Err((path, reason)) => {
                failed = true;
                let _ = writeln!(
                    err,
                    "portcullis: {name}: {}: refused: {reason}",
                    path.display()
                );
            }
            Ok(change) => {
                for note in &change.notes {
                    let _ = writeln!(out, "{name}: note: {note}");
                }
                if let Err(reason) = apply(&change, request.dry_run, out) {
                    failed = true;
                    let _ = writeln!(
                        err,
                        "portcullis: {name}: {}: refused: {reason}",
                        change.path.display()
                    );
                    continue;
                }
                let status = match (change.before == change.after, request.dry_run) {
                    (true, _) => "nothing to change".to_string(),
                    (false, true) => "would change (dry run: nothing written)".to_string(),
                    (false, false) if change.after.is_none() => "removed".to_string(),
                    (false, false) if change.before.is_some() => format!(
                        "written (the original is kept in {})",
                        files::backup_path(&change.path).display()
                    ),
                    (false, false) => "written".to_string(),
                };
                let _ = writeln!(out, "{name}: {}: {status}", change.path.display());
            }
        }
    }
    u8::from(failed)
}

/// Prints `change`'s diff and, unless `dry_run`, makes it.
fn apply(change: &Change, dry_run: bool, out: &mut dyn Write) -> Result<(), String> {
    if change.before == change.after {
        return Ok(());
    }
    let _ = write!(
        out,
        "{}",
        diff::unified(
            &change.path,
            change.before.as_deref(),
            change.after.as_deref()
        )
    );
    if dry_run {
        return Ok(());
    }
    match &change.after {
        Some(text) => files::write(&change.path, text),
        None => files::remove(&change.path),
    }
}

/// What `request` would change in `spec`'s file. `Err`: the file and why
/// it is refused.
fn plan(
    request: &Request,
    env: &Env,
    spec: &Spec,
    bin: &Path,
) -> Result<Change, (PathBuf, String)> {
    let path = env
        .config_file(spec.host, request.project)
        .ok_or_else(|| (PathBuf::from("~"), "HOME is not set".to_string()))?;
    let refuse = |reason: String| (path.clone(), reason);
    files::check_parents(&path).map_err(refuse)?;
    let before = files::read(&path).map_err(refuse)?;
    let mut notes = Vec::new();
    let after = match (spec.shape, request.action) {
        (Shape::Plugin, Action::Install) => Some(hosts::OPENCODE_PLUGIN.to_string()),
        (Shape::Plugin, Action::Uninstall) => match &before {
            Some(text) if is_our_plugin(text) => None,
            Some(_) => {
                return Err(refuse(
                    "it is not the portcullis plugin (or was changed by hand); remove it yourself if you mean to".into(),
                ));
            }
            None => None,
        },
        (_, action) => {
            if spec.host == Host::Codex && !request.project {
                codex_notes(env, action, &mut notes);
            }
            json_after(spec, action, &path, before.as_deref(), bin).map_err(refuse)?
        }
    };
    Ok(Change {
        path,
        before,
        after,
        notes,
    })
}

/// True when `text` is a version of the OpenCode plugin portcullis writes.
fn is_our_plugin(text: &str) -> bool {
    text == hosts::OPENCODE_PLUGIN || text.contains(r#"["hook", "--host", "opencode"]"#)
}

/// Notes about Codex's `config.toml`: hooks kept inline there.
fn codex_notes(env: &Env, action: Action, notes: &mut Vec<String>) {
    let Some(dir) = env.user_dir(Host::Codex) else {
        return;
    };
    match codex_toml::inline_hooks(&dir.join("config.toml")) {
        Ok(Some(inline)) if inline.ours && action == Action::Install => notes.push(format!(
            "{} also runs portcullis from its [hooks] table; Codex runs both (remove one by hand)",
            inline.path.display()
        )),
        Ok(Some(inline)) if inline.ours => notes.push(format!(
            "{} still runs portcullis from its [hooks] table: take those [[hooks.…]] entries out by hand",
            inline.path.display()
        )),
        Ok(_) => {}
        Err(reason) => notes.push(reason),
    }
}

/// The new text of a JSON config file (`None`: remove the file).
fn json_after(
    spec: &Spec,
    action: Action,
    path: &Path,
    before: Option<&str>,
    bin: &Path,
) -> Result<Option<String>, String> {
    let parsed = match before {
        Some(text) => Some(json::parse(text).map_err(|e| format!("it is not valid JSON ({e})"))?),
        None => None,
    };
    let indent = before.map_or_else(|| "  ".to_string(), json::indent_of);
    if let (Some(allowed), Some(Json::Object(pairs))) = (spec.top_level, &parsed)
        && let Some((key, _)) = pairs.iter().find(|(k, _)| !allowed.contains(&k.as_str()))
    {
        return Err(format!(
            "its top-level key `{key}` makes {} ignore the whole file (only {} are allowed); remove it first",
            spec.title,
            allowed.join(" and ")
        ));
    }
    let unchanged = |root: &Json| parsed.as_ref() == Some(root);
    match action {
        Action::Install => {
            let mut root = parsed
                .clone()
                .unwrap_or_else(|| merge::empty_root(spec.shape));
            merge::add(&mut root, spec, bin)?;
            Ok(Some(if unchanged(&root) {
                before.unwrap_or_default().to_string()
            } else {
                json::render(&root, &indent)
            }))
        }
        Action::Uninstall => {
            let Some(mut root) = parsed.clone() else {
                return Ok(None);
            };
            let backup = files::read(&files::backup_path(path)).ok().flatten();
            let original = backup.as_deref().and_then(|t| json::parse(t).ok());
            let delete = merge::remove(&mut root, spec, original.as_ref(), bin)?;
            Ok(if delete {
                None
            } else if unchanged(&root) {
                before.map(str::to_string)
            } else if original.as_ref() == Some(&root) {
                // Back to what it was before install: its very bytes.
                backup
            } else {
                Some(json::render(&root, &indent))
            })
        }
    }
}
