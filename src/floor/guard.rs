//! The floor of the guard's own defences: uninstalling portcullis
//! (`cargo uninstall`, `claude plugin disable`, …), `cargo install` over
//! its binary, removing the folders it lives in (Claude Code's settings and
//! plugins, cargo's binaries, the folder of this binary), and writing its
//! settings or its binary.

use super::places::expand_braces;
use super::{Invocation, push_once};
use crate::paths;
use crate::rules::FloorRule;
use crate::shell::Word;
use std::path::{Path, PathBuf};

/// `cargo uninstall portcullis`, `claude plugin disable portcullis` and the like.
pub(super) fn uninstalls_the_guard(inv: &Invocation) -> bool {
    const TOOLS: &[&str] = &[
        "apt", "apt-get", "brew", "cargo", "claude", "dnf", "nix-env", "npm", "pacman", "pip",
        "pip3", "pipx", "pnpm", "snap", "yarn", "yum",
    ];
    const REMOVALS: &[&str] = &[
        "disable",
        "erase",
        "purge",
        "r",
        "remove",
        "rm",
        "un",
        "uninstall",
    ];
    TOOLS.contains(&inv.verb)
        && inv
            .args
            .iter()
            .any(|a| a.value == "portcullis" || a.value.starts_with("portcullis@"))
        && inv.args.iter().any(|a| {
            REMOVALS.contains(&a.value.as_str()) || a.value == "-R" || a.value == "--uninstall"
        })
}

/// `portcullis install …` and `portcullis uninstall …`: they rewrite the
/// hosts' hook entries that run this guard, so a person runs them (`--help`
/// alone, and `doctor`, which only reads, stay with the lexicon).
pub(super) fn rewrites_the_guards_hooks(inv: &Invocation) -> bool {
    let Some((sub, rest)) = inv.args.split_first() else {
        return false;
    };
    let only_help = !rest.is_empty()
        && rest
            .iter()
            .all(|a| matches!(a.value.as_str(), "--help" | "-h"));
    matches!(sub.value.as_str(), "install" | "uninstall") && !only_help
}

/// True when `verb` names the portcullis program, by name or by any path
/// (`~/.cargo/bin/portcullis`, `./target/release/portcullis`), or by the
/// name this binary runs under when it was renamed.
pub(super) fn is_portcullis(verb: &str) -> bool {
    let name = verb.rsplit('/').next().unwrap_or(verb);
    name == "portcullis"
        || own_exe()
            .and_then(Path::file_name)
            .is_some_and(|own| own.to_string_lossy() == name)
}

pub(super) fn is_claude_settings(path: &str) -> bool {
    path.ends_with(".claude/settings.json")
        || path.ends_with(".claude/settings.local.json")
        || path.ends_with("claude-code/managed-settings.json")
}

/// This binary's path as the kernel gives it, looked up once per process
/// (a replay judges many commands).
fn own_exe() -> Option<&'static Path> {
    static OWN: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    OWN.get_or_init(|| std::env::current_exe().ok()).as_deref()
}

/// True when `path` is this binary, as the kernel names it or canonical.
pub(super) fn is_own_binary(path: Option<&Path>) -> bool {
    static CANONICAL: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    let Some(path) = path else { return false };
    own_exe() == Some(path)
        || CANONICAL
            .get_or_init(|| own_exe().and_then(|e| e.canonicalize().ok()))
            .as_deref()
            == Some(path)
}

/// Folders the guard lives in: removing one removes it (Claude Code's
/// settings and plugins, cargo's binaries, the folder of this binary).
fn guard_folders(home: Option<&Path>) -> Vec<(PathBuf, FloorRule)> {
    let mut out = Vec::new();
    if let Some(home) = home {
        out.push((home.join(".claude"), FloorRule::GuardSettings));
        out.push((home.join(".claude/plugins"), FloorRule::GuardBinary));
        out.push((home.join(".cargo"), FloorRule::GuardBinary));
        out.push((home.join(".cargo/bin"), FloorRule::GuardBinary));
    }
    out.push((PathBuf::from("/etc/claude-code"), FloorRule::GuardSettings));
    if let Some(dir) = own_exe().and_then(Path::parent) {
        out.push((dir.to_path_buf(), FloorRule::GuardBinary));
    }
    out
}

/// The guard rule a removal of `word` breaks: a guard folder itself, all
/// of its contents (`~/.claude/*`), or a glob that can match one of them
/// or the binary (`~/.c*`, `~/.cargo/bin/port*`).
pub(super) fn guard_removal(inv: &Invocation, word: &Word) -> Option<FloorRule> {
    let home = inv.location.home.as_deref();
    let cwd = inv.location.cwd.as_deref();
    let folders = guard_folders(home);
    for value in expand_braces(&word.value) {
        let mut w = word.clone();
        w.value = value;
        let bare = w.value.ends_with('/');
        let target = inv.location.resolve_in(&w, cwd);
        // A glob written to match counts; an unknown variable (`~/$X`) could
        // name anything, and is left to the other rules.
        let pattern = paths::pattern_of(&w, inv.location, cwd)
            .filter(|p| !p.contains([paths::UNKNOWN, paths::UNKNOWN_SET]))
            .or_else(|| {
                target
                    .path
                    .as_ref()
                    .map(|p| p.to_string_lossy().into_owned())
            });
        let Some(pattern) = pattern else { continue };
        let pattern = inv
            .links
            .follow(Path::new(&pattern), bare)
            .map_or(pattern, |p| p.to_string_lossy().into_owned());
        let parts = paths::components(&pattern);
        let all_contents = w.glob && matches!(parts.last(), Some(&"*" | &".*"));
        for (folder, rule) in &folders {
            let text = folder.to_string_lossy();
            let folder_parts = paths::components(&text);
            let parent = parts.split_last().map_or(&[][..], |(_, p)| p);
            if paths::pattern_matches(&parts, &folder_parts)
                || all_contents && paths::pattern_matches(parent, &folder_parts)
            {
                return Some(*rule);
            }
        }
        if let Some((last, parent)) = parts.split_last()
            && parent.last() == Some(&"bin")
            && paths::name_matches(last, "portcullis")
        {
            return Some(FloorRule::GuardBinary);
        }
    }
    None
}

/// `cargo install … portcullis` replaces the guard's binary (`--force`,
/// another version, another source).
pub(super) fn check_cargo(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let Some(sub) = inv
        .args
        .iter()
        .position(|a| !a.value.starts_with('-') && !a.value.starts_with('+'))
    else {
        return;
    };
    if let Some((name, rest)) = inv.args.get(sub..).and_then(<[_]>::split_first)
        && name.value == "install"
        && rest
            .iter()
            .any(|a| a.value == "portcullis" || a.value.starts_with("portcullis@"))
    {
        push_once(hits, FloorRule::GuardBinary);
    }
}
