//! The blocked floor: commands that never run, whatever any policy says.
//!
//! Takes one peeled command (its verb, arguments and location) or one write
//! target and returns the floor rules it breaks. Rule ids, reasons and
//! remediations are data in `rules/floor.json`; this module holds only the
//! matching, one small function per family, in this order:
//!
//! 1. deletion (`rm`, `find -delete`) of the root, the home folder, system folders;
//! 2. disks (`mkfs`, `wipefs`) and, for every write target, block devices;
//! 3. permissions (`chmod`/`chown -R` on system folders, recursive 777);
//! 4. git history and work-tree destruction;
//! 5. `crontab -r`, power, `kill -1`, history wiping;
//! 6. the guard's own defences (Claude Code settings, the portcullis binary).
//!
//! Piping the network into a shell and fork bombs are found by the engine,
//! which sees pipelines and function definitions.
//!
//! This file holds the two entry points ([`check_command`], which hands a
//! verb to its family, and [`check_write_target`]) and [`check_setting`];
//! each family has its file (`removal`, `permissions`, `git`, `kill`,
//! `power`, `network`, `disks`, `crontab`, `stdin`, `guard`), `places` says
//! what a word may name and `words` reads options and operands.
#![deny(clippy::indexing_slicing)]

mod crontab;
mod disks;
mod git;
mod guard;
mod kill;
mod network;
mod permissions;
mod places;
mod power;
mod removal;
mod stdin;
#[cfg(test)]
mod tests;
mod words;

use self::crontab::check_crontab;
use self::disks::check_disk_tools;
use self::git::check_git;
use self::guard::{
    check_cargo, is_claude_settings, is_own_binary, is_portcullis, rewrites_the_guards_hooks,
    uninstalls_the_guard,
};
use self::kill::{check_kill, check_kill_by_name};
use self::network::{check_netcat, check_socat};
use self::permissions::check_permissions;
use self::power::{calls_power_method, check_loginctl, check_systemctl};
use self::removal::{check_find, check_move_away, check_rm};
use self::stdin::check_program_from_stdin;
use self::words::{has_long, has_short, only_help};
use crate::paths::{self, Links, Location, Place, Target};
use crate::rules::FloorRule;
use crate::shell::{Script, SimpleCommand, Word};
pub use network::ssh_local_commands;
pub use places::targets_of;
use std::path::Path;

/// One peeled command as the floor sees it.
pub struct Invocation<'a> {
    /// The verb as the lexicon knows it (`rm`, not `/bin/rm`).
    pub verb: &'a str,
    /// The arguments after the verb.
    pub args: &'a [Word],
    /// Where it runs.
    pub location: &'a Location,
    /// Links made earlier in the same command line.
    pub links: &'a Links,
    /// The command line and the simple command it is part of, when known
    /// (for what feeds its stdin).
    pub site: Option<(&'a Script, &'a SimpleCommand)>,
}

/// The floor rules one command breaks (empty for almost every command).
pub fn check_command(inv: &Invocation) -> Vec<FloorRule> {
    let mut hits = Vec::new();
    match inv.verb {
        "rm" | "unlink" | "srm" | "rimraf" | "shred" | "trash" | "trash-put" | "gio" => {
            check_rm(inv, &mut hits)
        }
        "mv" => check_move_away(inv, &mut hits),
        "find" => check_find(inv, &mut hits),
        "chmod" | "chown" | "chgrp" => check_permissions(inv, &mut hits),
        "git" => check_git(inv, &mut hits),
        "crontab" => check_crontab(inv, &mut hits),
        "shutdown" | "reboot" | "halt" | "poweroff" if !only_help(inv.args) => {
            hits.push(FloorRule::SystemPower);
        }
        "init" | "telinit"
            if inv
                .args
                .iter()
                .any(|a| matches!(a.value.as_str(), "0" | "6")) =>
        {
            hits.push(FloorRule::SystemPower);
        }
        "systemctl" => check_systemctl(inv, &mut hits),
        "loginctl" => check_loginctl(inv, &mut hits),
        "dbus-send" | "busctl" | "gdbus" | "qdbus" | "dbus" if calls_power_method(inv.args) => {
            hits.push(FloorRule::SystemPower);
        }
        "gnome-session-quit"
            if has_long(inv.args, "--power-off", false)
                || has_long(inv.args, "--reboot", false) =>
        {
            hits.push(FloorRule::SystemPower);
        }
        "kill" => check_kill(inv, &mut hits),
        "pkill" | "killall" => check_kill_by_name(inv, &mut hits),
        "killall5" if !only_help(inv.args) => hits.push(FloorRule::KillAll),
        "history" if has_short(inv.args, 'c') => {
            hits.push(FloorRule::HistoryWipe);
        }
        "diskutil"
            if inv.args.iter().any(|a| {
                let sub = a.value.to_ascii_lowercase();
                [
                    "erase",
                    "zerodisk",
                    "randomdisk",
                    "secureerase",
                    "partitiondisk",
                    "reformat",
                ]
                .iter()
                .any(|s| sub.starts_with(s))
            }) =>
        {
            hits.push(FloorRule::DiskFormat);
        }
        "nc" | "netcat" | "ncat" | "nc.traditional" | "nc.openbsd" => check_netcat(inv, &mut hits),
        "socat" => check_socat(inv, &mut hits),
        "cargo" => check_cargo(inv, &mut hits),
        verb if is_portcullis(verb) && rewrites_the_guards_hooks(inv) => {
            hits.push(FloorRule::GuardSettings);
        }
        _ => check_disk_tools(inv, &mut hits),
    }
    check_program_from_stdin(inv, &mut hits);
    if uninstalls_the_guard(inv) && !hits.contains(&FloorRule::GuardBinary) {
        hits.push(FloorRule::GuardBinary);
    }
    hits
}

/// The floor rules a write to `target` breaks, whatever wrote it
/// (redirection, `tee`, `cp`, `dd of=`, `rm`, inline code …).
pub fn check_write_target(target: &Target, location: &Location) -> Vec<FloorRule> {
    let mut hits = Vec::new();
    if target.place(location.home.as_deref()) == Place::Device {
        hits.push(FloorRule::DiskWrite);
    }
    let raw = target.raw.as_str();
    // `echo b > /proc/sysrq-trigger` reboots at once; `o` powers off.
    if target.path.as_deref() == Some(Path::new("/proc/sysrq-trigger")) {
        hits.push(FloorRule::SystemPower);
    }
    // `> $HISTFILE`, `truncate -s0 "${HISTFILE}"`.
    if raw.starts_with("$HISTFILE") || raw.starts_with("${HISTFILE") {
        hits.push(FloorRule::HistoryWipe);
    }
    // `rm ~/.cargo/bin/port*`: a glob in a bin folder that matches the guard.
    if target.glob
        && let Some(path) = &target.path
        && path.parent().and_then(Path::file_name) == Some(std::ffi::OsStr::new("bin"))
        && path
            .file_name()
            .is_some_and(|n| paths::name_matches(&n.to_string_lossy(), "portcullis"))
        && !hits.contains(&FloorRule::GuardBinary)
    {
        hits.push(FloorRule::GuardBinary);
    }
    let path = target.path.as_deref();
    let name = path
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| raw.rsplit('/').next().unwrap_or(raw).to_string());
    if HISTORY_FILES.contains(&name.as_str()) || raw.ends_with("fish/fish_history") {
        hits.push(FloorRule::HistoryWipe);
    }
    let text = path
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|| raw.to_string());
    if is_claude_settings(&text) {
        hits.push(FloorRule::GuardSettings);
    }
    if name == "portcullis"
        || text.contains("/.claude/plugins/") && text.contains("portcullis")
        || is_own_binary(path)
    {
        hits.push(FloorRule::GuardBinary);
    }
    hits
}

/// Shell history files, by name.
#[rustfmt::skip]
const HISTORY_FILES: &[&str] = &[
    ".bash_history", ".histfile", ".history", ".sh_history", ".zhistory", ".zsh_history",
];

fn push_once(hits: &mut Vec<FloorRule>, rule: FloorRule) {
    if !hits.contains(&rule) {
        hits.push(rule);
    }
}

/// The floor rule an environment setting breaks: a history size of 0
/// makes the shell truncate its history file (`HISTFILESIZE=0`).
pub fn check_setting(name: &str, value: &str) -> Option<FloorRule> {
    let zero = !value.is_empty() && value.trim().chars().all(|c| c == '0');
    (matches!(name, "HISTFILESIZE" | "HISTSIZE" | "SAVEHIST") && zero)
        .then_some(FloorRule::HistoryWipe)
}
