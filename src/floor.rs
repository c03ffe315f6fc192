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

use crate::feeds::{self, Producer};
use crate::paths::{self, Links, Location, Place, Target};
use crate::rules::FloorRule;
use crate::shell::{Script, SimpleCommand, Stdin, Word};
use std::path::{Path, PathBuf};

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
        _ => check_disk_tools(inv, &mut hits),
    }
    check_program_from_stdin(inv, &mut hits);
    if uninstalls_the_guard(inv) && !hits.contains(&FloorRule::GuardBinary) {
        hits.push(FloorRule::GuardBinary);
    }
    hits
}

/// `cargo uninstall portcullis`, `claude plugin disable portcullis` and the like.
fn uninstalls_the_guard(inv: &Invocation) -> bool {
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

fn is_claude_settings(path: &str) -> bool {
    path.ends_with(".claude/settings.json")
        || path.ends_with(".claude/settings.local.json")
        || path.ends_with("claude-code/managed-settings.json")
}

fn is_own_binary(path: Option<&Path>) -> bool {
    static OWN: std::sync::OnceLock<Vec<std::path::PathBuf>> = std::sync::OnceLock::new();
    let Some(path) = path else { return false };
    // Looked up once per process: replay judges many writes.
    let own = OWN.get_or_init(|| {
        let exe = std::env::current_exe().ok();
        let canonical = exe.as_ref().and_then(|e| e.canonicalize().ok());
        exe.into_iter().chain(canonical).collect()
    });
    own.iter().any(|exe| exe == path)
}

/// `-x` present, alone or in a cluster, before `--`.
fn has_short(args: &[Word], letter: char) -> bool {
    short_letters(args, "").contains(&letter)
}

/// The one-letter options set in `args` (before `--`). A letter in `values`
/// takes a value: the rest of its cluster, or the next word (`-m msg`), is
/// not read as options (`git commit -mn` is a message "n", not `-n`).
fn short_letters(args: &[Word], values: &str) -> Vec<char> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let w = args[i].value.as_str();
        if w == "--" {
            break;
        }
        let mut skip_next = false;
        if w.len() > 1 && w.starts_with('-') && !w.starts_with("--") {
            for (pos, c) in w[1..].char_indices() {
                if !c.is_ascii_alphabetic() {
                    break;
                }
                out.push(c);
                if values.contains(c) {
                    skip_next = 1 + pos + c.len_utf8() == w.len();
                    break;
                }
            }
        }
        i += if skip_next { 2 } else { 1 };
    }
    out
}

/// One-letter git options that take a value, per subcommand.
fn git_value_letters(sub: &str) -> &'static str {
    match sub {
        "commit" => "mFcCt",
        "checkout" => "bB",
        "switch" => "cC",
        "restore" => "s",
        "clean" => "e",
        "push" => "o",
        "branch" => "u",
        "merge" => "mFsX",
        "rebase" => "sXx",
        _ => "",
    }
}

/// `--name`, `--name=…`, or (with `abbrev`) an unambiguous-looking prefix of
/// it of at least two letters, as git accepts.
fn has_long(args: &[Word], long: &str, abbrev: bool) -> bool {
    let want = long.trim_start_matches('-');
    options(args).any(|o| {
        o.strip_prefix("--").is_some_and(|rest| {
            let name = rest.split('=').next().unwrap_or(rest);
            name == want
                || abbrev
                    && !name.is_empty()
                    && want.starts_with(name)
                    && name.starts_with("no-") == want.starts_with("no-")
        })
    })
}

/// Option words before `--`.
fn options(args: &[Word]) -> impl Iterator<Item = &str> {
    args.iter()
        .map(|w| w.value.as_str())
        .take_while(|w| *w != "--")
        .filter(|w| w.len() > 1 && w.starts_with('-'))
}

/// Operands: non-option words, and everything after `--`.
fn operands(args: &[Word]) -> Vec<&Word> {
    let mut out = Vec::new();
    let mut done = false;
    for w in args {
        if !done && w.value == "--" {
            done = true;
        } else if done || !(w.value.len() > 1 && w.value.starts_with('-')) {
            out.push(w);
        }
    }
    out
}

fn only_help(args: &[Word]) -> bool {
    !args.is_empty()
        && args
            .iter()
            .all(|a| matches!(a.value.as_str(), "--help" | "-h" | "--version"))
}

/// Every target a word may name: braces expanded (`/{etc,usr}`), then resolved.
pub fn targets_of(word: &Word, location: &Location, cwd: Option<&Path>) -> Vec<Target> {
    let expanded = expand_braces(&word.value);
    expanded
        .into_iter()
        .map(|value| {
            let mut w = word.clone();
            w.value = value;
            location.resolve_in(&w, cwd)
        })
        .collect()
}

/// Bash brace expansion of comma lists (`a{b,c}d` → `abd acd`), bounded to
/// 64 results; ranges and anything odd are left as written.
fn expand_braces(value: &str) -> Vec<String> {
    let mut out = vec![value.to_string()];
    for _ in 0..4 {
        let mut next = Vec::new();
        let mut changed = false;
        for item in &out {
            match split_first_brace(item) {
                Some((pre, alts, post)) => {
                    changed = true;
                    for alt in alts {
                        next.push(format!("{pre}{alt}{post}"));
                    }
                }
                None => next.push(item.clone()),
            }
            if next.len() > 64 {
                return out;
            }
        }
        out = next;
        if !changed {
            break;
        }
    }
    out
}

fn split_first_brace(s: &str) -> Option<(&str, Vec<&str>, &str)> {
    let open = s.find('{')?;
    let mut depth = 0;
    let mut close = None;
    for (i, c) in s[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            _ => {}
        }
    }
    let close = close?;
    let inner = &s[open + 1..close];
    if !inner.contains(',') || inner.contains('{') {
        return None;
    }
    Some((&s[..open], inner.split(',').collect(), &s[close + 1..]))
}

fn place_rule(place: Place) -> Option<FloorRule> {
    match place {
        Place::Root | Place::RootContents => Some(FloorRule::RmRoot),
        Place::Home | Place::HomeContents => Some(FloorRule::RmHome),
        Place::System | Place::Device => Some(FloorRule::RmSystem),
        Place::Ordinary => None,
    }
}

/// How a path operand is read through links made earlier in the line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Follow {
    /// Through a link only with something after it (`h/`, `h/x`): `rm`, `find`.
    Inside,
    /// Through the link itself too (`chmod` follows links).
    Always,
}

/// Every place a word may name for the floor: its targets (braces
/// expanded, links made earlier followed) and what a glob or an unknown
/// variable in it could match. `contents`: direct contents of a system
/// folder count (deletion), or only the folders themselves (a move).
fn places_of(inv: &Invocation, word: &Word, follow: Follow, contents: bool) -> Vec<Place> {
    let home = inv.location.home.as_deref();
    let cwd = inv.location.cwd.as_deref();
    let mut out = Vec::new();
    for value in expand_braces(&word.value) {
        let mut w = word.clone();
        w.value = value;
        let bare = follow == Follow::Always || w.value.ends_with('/') || w.value.ends_with("/.");
        let mut target = inv.location.resolve_in(&w, cwd);
        if let Some(path) = &target.path
            && let Some(through) = inv.links.follow(path, bare)
        {
            target.path = Some(through);
        }
        let place = target.place(home);
        let place = if contents || is_folder_itself(place, target.path.as_deref()) {
            place
        } else {
            Place::Ordinary
        };
        out.push(place);
        if let Some(pattern) = paths::pattern_of(&w, inv.location, cwd) {
            let pattern = inv
                .links
                .follow(Path::new(&pattern), bare)
                .map_or(pattern, |p| p.to_string_lossy().into_owned());
            out.push(paths::pattern_place(&pattern, home, contents));
        }
    }
    out
}

/// A place that is a folder itself (the root, the home folder, a system
/// folder), not something inside one.
fn is_folder_itself(place: Place, path: Option<&Path>) -> bool {
    matches!(place, Place::Root | Place::Home)
        || place == Place::System && path.is_some_and(is_system_folder_itself)
}

/// The floor rules of `places`, each once, added to `hits`: the root
/// first, then the home folder, then system folders (`/home/*` is the
/// home folder's deletion before it is a system folder's).
fn add_place_rules(places: &[Place], hits: &mut Vec<FloorRule>) {
    let rank = |p: &Place| match p {
        Place::Root | Place::RootContents => 0,
        Place::Home | Place::HomeContents => 1,
        _ => 2,
    };
    let mut places = places.to_vec();
    places.sort_by_key(rank);
    for place in &places {
        if let Some(rule) = place_rule(*place)
            && !hits.contains(&rule)
        {
            hits.push(rule);
        }
    }
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
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        out.push((dir, FloorRule::GuardBinary));
    }
    out
}

/// The guard rule a removal of `word` breaks: a guard folder itself, all
/// of its contents (`~/.claude/*`), or a glob that can match one of them
/// or the binary (`~/.c*`, `~/.cargo/bin/port*`).
fn guard_removal(inv: &Invocation, word: &Word) -> Option<FloorRule> {
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

fn check_rm(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    // `gio trash`/`gio remove` only.
    if inv.verb == "gio"
        && !inv
            .args
            .first()
            .is_some_and(|a| matches!(a.value.as_str(), "trash" | "remove" | "rm"))
    {
        return;
    }
    check_rm_places(inv, hits);
    for word in operands(inv.args) {
        if let Some(rule) = guard_removal(inv, word)
            && !hits.contains(&rule)
        {
            hits.push(rule);
        }
    }
}

/// `rm -r`/`-f` (and their kin) of the root, the home folder or a system folder.
fn check_rm_places(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    if inv.verb == "shred" {
        return;
    }
    // rimraf (node's `rm -rf`) is always recursive and forced.
    let always = inv.verb == "rimraf";
    let recursive = always
        || has_short(inv.args, 'r')
        || has_short(inv.args, 'R')
        || has_long(inv.args, "--recursive", true);
    // GNU rm takes any unambiguous prefix: `--rec`, `--r`, `--for`, `--f`.
    let force = has_short(inv.args, 'f') || has_long(inv.args, "--force", true);
    if has_long(inv.args, "--no-preserve-root", false) {
        hits.push(FloorRule::RmRoot);
    }
    // Moving to the trash takes folders whole.
    let trash = matches!(inv.verb, "trash" | "trash-put" | "gio");
    if !(recursive || force || trash) {
        return;
    }
    for word in operands(inv.args) {
        add_place_rules(&places_of(inv, word, Follow::Inside, true), hits);
    }
}

/// `mv / x`, `mv ~ /tmp/x`, `mv -t /tmp ~`: moving the root, the home
/// folder or a system folder away breaks the system as surely as deleting
/// it; so does moving the guard's folders away.
fn check_move_away(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    for word in move_sources(inv.args) {
        // Files directly in a system folder (`mv /etc/hosts /etc/hosts.bak`)
        // are admin work; the folders themselves are not.
        add_place_rules(&places_of(inv, word, Follow::Inside, false), hits);
        if let Some(rule) = guard_removal(inv, word)
            && !hits.contains(&rule)
        {
            hits.push(rule);
        }
    }
}

/// The words `mv` moves away: every operand but the destination, which is
/// the last operand, or the value of `-t`/`--target-directory`.
fn move_sources(args: &[Word]) -> Vec<&Word> {
    let mut ops = Vec::new();
    let mut target_given = false;
    let mut done = false;
    let mut i = 0;
    while i < args.len() {
        let w = &args[i];
        let v = w.value.as_str();
        if done || !v.starts_with('-') || v == "-" {
            ops.push(w);
        } else if v == "--" {
            done = true;
        } else if let Some(long) = v.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            let takes = |full: &str| name.len() >= 2 && full.starts_with(name);
            if takes("target-directory") {
                target_given = true;
                if !long.contains('=') {
                    i += 1;
                }
            } else if takes("suffix") && !long.contains('=') {
                i += 1;
            }
        } else {
            for (pos, c) in v[1..].char_indices() {
                if c == 't' || c == 'S' {
                    target_given |= c == 't';
                    if pos + 2 == v.len() {
                        i += 1;
                    }
                    break;
                }
            }
        }
        i += 1;
    }
    if !target_given {
        ops.pop();
    }
    ops
}

fn is_system_folder_itself(path: &Path) -> bool {
    crate::paths::is_system_folder(&path.to_string_lossy())
}

/// `find START… -delete` (or `-exec rm`) where a start folder is the root,
/// home or a system folder. Start folders follow the options `-H`, `-L`,
/// `-P`, `-D LIST`, `-O LEVEL` and `--`; the expression after them counts
/// wherever it is.
fn check_find(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let args = inv.args;
    let mut i = 0;
    let mut follows = false;
    while let Some(w) = args.get(i).map(|w| w.value.as_str()) {
        match w {
            "--" => {
                i += 1;
                break;
            }
            "-H" | "-L" => follows = true,
            "-P" => {}
            "-D" => i += 1,
            _ if w.starts_with("-O") || w.starts_with("-D") && w.len() > 2 => {}
            _ if w.len() > 1
                && w.starts_with('-')
                && w[1..].chars().all(|c| matches!(c, 'H' | 'L' | 'P')) =>
            {
                follows |= w.contains(['H', 'L']);
            }
            _ => break,
        }
        i += 1;
    }
    let rest = args.get(i..).unwrap_or(&[]);
    let words: Vec<&str> = rest.iter().map(|w| w.value.as_str()).collect();
    let deletes = words.iter().enumerate().any(|(j, w)| {
        *w == "-delete"
            || matches!(*w, "-exec" | "-execdir" | "-ok" | "-okdir")
                && words[j + 1..]
                    .iter()
                    .take_while(|v| !matches!(**v, ";" | "+"))
                    .any(|v| runs_removal(v))
    });
    if !deletes {
        return;
    }
    let starts = rest
        .iter()
        .take_while(|w| !(w.value.starts_with('-') || w.value == "(" || w.value == "!"));
    let follow = if follows {
        Follow::Always
    } else {
        Follow::Inside
    };
    for word in starts {
        let places = places_of(inv, word, follow, true);
        if places.iter().any(|p| *p != Place::Ordinary) || guard_removal(inv, word).is_some() {
            hits.push(FloorRule::FindDelete);
            return;
        }
    }
}

/// A word of a `-exec` command that removes files: `rm`, `shred`,
/// `unlink`, `rmdir`, or a script that calls one (`sh -c 'rm -rf "$1"'`).
fn runs_removal(word: &str) -> bool {
    const REMOVERS: &[&str] = &["rm", "rmdir", "shred", "unlink"];
    REMOVERS.contains(&word.rsplit('/').next().unwrap_or(word))
        || word.contains(' ')
            && word
                .split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | '('))
                .any(|t| REMOVERS.contains(&t.rsplit('/').next().unwrap_or(t)))
}

fn check_permissions(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let recursive = has_short(inv.args, 'R') || has_long(inv.args, "--recursive", false);
    let (reference, ops) = permission_operands(inv.args);
    let (mode, paths) = if reference || ops.is_empty() || inv.verb != "chmod" && ops.len() < 2 {
        (None, &ops[..])
    } else {
        (Some(ops[0]), &ops[1..])
    };
    // A mode copied from another file (`--reference`) or from the owner's
    // bits (`o=u`) can give everyone write access.
    let world = reference || mode.is_some_and(|m| is_world_writable(&m.value));
    for word in paths {
        // Without -R, everyone's write access matters on the folders
        // themselves and the files of a few (`/etc/shadow`), not on a
        // device or an app under /opt (`chmod 666 /dev/ttyUSB0`).
        let key_file = inv
            .location
            .resolve(word)
            .path
            .is_some_and(|p| p.parent().is_some_and(is_key_folder));
        let folder_itself = places_of(inv, word, Follow::Always, false)
            .iter()
            .any(|p| *p != Place::Ordinary);
        for place in places_of(inv, word, Follow::Always, true) {
            let world_here = world && (place != Place::System || key_file || folder_itself);
            let severe = match place {
                Place::Root | Place::RootContents => true,
                Place::Home | Place::HomeContents | Place::System => recursive || world_here,
                _ => false,
            };
            if severe && !hits.contains(&FloorRule::PermSystem) {
                hits.push(FloorRule::PermSystem);
            }
        }
    }
    if inv.verb == "chmod"
        && recursive
        && let Some(mode) = mode
        && is_world_writable(&mode.value)
    {
        hits.push(FloorRule::PermWorldWritable);
    }
}

/// System folders whose files are each critical (`/etc/shadow`, `/bin/sh`).
fn is_key_folder(path: &Path) -> bool {
    [
        "/etc",
        "/bin",
        "/sbin",
        "/usr/bin",
        "/usr/sbin",
        "/lib",
        "/lib64",
        "/usr/lib",
        "/boot",
    ]
    .iter()
    .any(|f| path == Path::new(f))
}

/// Whether `--reference` is given, and the operands (its value left out).
fn permission_operands(args: &[Word]) -> (bool, Vec<&Word>) {
    let mut reference = false;
    let mut out = Vec::new();
    let mut done = false;
    let mut i = 0;
    while i < args.len() {
        let w = &args[i];
        let v = w.value.as_str();
        if done {
            out.push(w);
        } else if v == "--" {
            done = true;
        } else if let Some(long) = v.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            if name.len() >= 3 && "reference".starts_with(name) {
                reference = true;
                if !long.contains('=') {
                    i += 1;
                }
            } else if name.len() >= 3 && "from".starts_with(name) && !long.contains('=') {
                i += 1;
            }
        } else if v.len() > 1 && v.starts_with('-') && v[1..].chars().all(|c| "RcfvHLP".contains(c))
        {
            // Options; a mode such as `-w` or `-x` is an operand.
        } else {
            out.push(w);
        }
        i += 1;
    }
    (reference, out)
}

/// A chmod mode that lets everyone write: octal with the other-write bit,
/// or symbolic `o+w`, `a+w`, `+w`, `a=rwx`, `ugo+rwx`.
fn is_world_writable(mode: &str) -> bool {
    if !mode.is_empty() && mode.chars().all(|c| c.is_digit(8)) {
        return mode
            .chars()
            .last()
            .and_then(|c| c.to_digit(8))
            .is_some_and(|d| d & 2 != 0);
    }
    mode.split(',').any(|clause| {
        let op = clause.find(['+', '=']);
        match op {
            Some(at) => {
                let who = &clause[..at];
                let perms = &clause[at + 1..];
                // `o=u`, `a+g`: the bits are copied from the owner or group,
                // who usually may write.
                (who.is_empty() || who.contains('a') || who.contains('o'))
                    && perms.contains(['w', 'u', 'g'])
            }
            None => false,
        }
    })
}

fn check_git(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let args = inv.args;
    let globals = crate::git::read(args);
    if globals
        .settings
        .iter()
        .any(|s| s.key.eq_ignore_ascii_case("core.hookspath"))
    {
        hits.push(FloorRule::GitHooksPath);
    }
    // `--config-env=KEY=ENVVAR`: the value is only known at run time, so
    // it may be a `+` refspec.
    let forced_by_config = globals
        .settings
        .iter()
        .any(|s| forces_push(&s.key, s.value.as_deref().unwrap_or("+")));
    let Some(i) = globals.sub else { return };
    let Some(sub) = args.get(i) else { return };
    let rest = &args[i + 1..];
    let long = |name: &str| has_long(rest, name, true);
    let letters = short_letters(rest, git_value_letters(&sub.value));
    let short = |c: char| letters.contains(&c);
    match sub.value.as_str() {
        "reset" if long("--hard") => {
            hits.push(FloorRule::GitResetHard);
        }
        "clean" => {
            let force = short('f') || long("--force");
            let dry = short('n') || long("--dry-run");
            if force && !dry {
                hits.push(FloorRule::GitCleanForce);
            }
        }
        "checkout" => {
            let creates = short('b') || short('B') || long("--orphan");
            if !creates && (short('f') || long("--force") || pathspec_is_whole_tree(rest)) {
                hits.push(FloorRule::GitDiscard);
            }
        }
        "restore" => {
            let staged = short('S') || long("--staged");
            let worktree = short('W') || long("--worktree");
            if (!staged || worktree) && pathspec_is_whole_tree(rest) {
                hits.push(FloorRule::GitDiscard);
            }
        }
        "switch" if (long("--discard-changes") || short('f') || long("--force")) => {
            hits.push(FloorRule::GitDiscard);
        }
        "push" => {
            check_git_push(rest, hits);
            if forced_by_config && !hits.contains(&FloorRule::GitForcePush) {
                hits.push(FloorRule::GitForcePush);
            }
        }
        "branch" => {
            let force_delete = rest.iter().any(|w| w.value == "-D")
                || (short('D'))
                || ((short('d') || long("--delete")) && (short('f') || long("--force")));
            if force_delete {
                hits.push(FloorRule::GitBranchForceDelete);
            }
        }
        "stash"
            if rest
                .iter()
                .find(|w| !w.value.starts_with('-'))
                .is_some_and(|w| matches!(w.value.as_str(), "drop" | "clear")) =>
        {
            hits.push(FloorRule::GitStashDestroy);
        }
        "commit" if (long("--no-verify") || short('n')) => {
            hits.push(FloorRule::GitNoVerify);
        }
        "merge" | "rebase" | "am" | "cherry-pick" | "revert" | "pull" if long("--no-verify") => {
            hits.push(FloorRule::GitNoVerify);
        }
        "config" => {
            let reads = long("--get")
                || long("--get-all")
                || long("--get-regexp")
                || long("--list")
                || short('l');
            let names_hooks = rest
                .iter()
                .any(|w| w.value.eq_ignore_ascii_case("core.hookspath"));
            let sets_via_sub = rest
                .first()
                .is_some_and(|w| matches!(w.value.as_str(), "set" | "unset"));
            // `git config remote.origin.mirror true`: every later push
            // forces; so does a `+` refspec in remote.*.push.
            let values: Vec<&str> = operands(rest)
                .iter()
                .map(|w| w.value.as_str())
                .filter(|v| !matches!(*v, "set" | "--add"))
                .collect();
            if !reads
                && let [key, value, ..] = values.as_slice()
                && forces_push(key, value)
            {
                hits.push(FloorRule::GitForcePush);
            }
            if names_hooks && (!reads || sets_via_sub) {
                let only_key = operands(rest).len() == 1
                    && !long("--unset")
                    && !long("--unset-all")
                    && !sets_via_sub;
                if !only_key {
                    hits.push(FloorRule::GitHooksPath);
                }
            }
        }
        "filter-branch" | "filter-repo" => hits.push(FloorRule::GitHistoryRewrite),
        _ => {}
    }
}

/// A git setting that makes `git push` force: `remote.NAME.mirror` on,
/// or a `+` refspec in `remote.NAME.push`.
fn forces_push(key: &str, value: &str) -> bool {
    let key = key.to_ascii_lowercase();
    let Some(rest) = key.strip_prefix("remote.") else {
        return false;
    };
    let truthy = matches!(
        value.to_ascii_lowercase().as_str(),
        "true" | "yes" | "on" | "1" | "" | "+"
    );
    rest.ends_with(".mirror") && truthy || rest.ends_with(".push") && value.starts_with('+')
}

/// Branch names treated as the shared default branch.
const DEFAULT_BRANCHES: &[&str] = &["main", "master", "trunk", "develop", "HEAD"];

fn check_git_push(rest: &[Word], hits: &mut Vec<FloorRule>) {
    let long = |name: &str| has_long(rest, name, true);
    if long("--no-verify") {
        hits.push(FloorRule::GitNoVerify);
    }
    let refspecs: Vec<&str> = operands(rest)
        .iter()
        .skip(1)
        .map(|w| w.value.as_str())
        .collect();
    let exact_force = rest.iter().any(|w| {
        let v = w.value.as_str();
        v == "--force"
            || v.starts_with("--force=")
            || (!v.starts_with("--") && v.starts_with('-') && v[1..].contains('f'))
    });
    let plus_refspec = refspecs.iter().any(|r| r.starts_with('+'));
    // `--force-w` is git's abbreviation of `--force-with-lease`.
    let lease = options(rest).any(|o| {
        let name = o.split('=').next().unwrap_or(o);
        (name.len() > "--force-".len()
            && ("--force-with-lease".starts_with(name) || "--force-if-includes".starts_with(name)))
            || o.starts_with("--force-with-lease")
            || o.starts_with("--force-if-includes")
    });
    let abbreviated_force = !lease && long("--force");
    if exact_force || plus_refspec || abbreviated_force || long("--mirror") {
        hits.push(FloorRule::GitForcePush);
    } else if lease {
        // Documented choice: --force-with-lease refuses to overwrite work it
        // has not seen, so it is SIGNED (a publish), unless a refspec names
        // a default branch, which is shared by everyone: then BLOCKED.
        let to_default = refspecs.iter().any(|r| {
            let dst = r
                .rsplit(':')
                .next()
                .unwrap_or(r)
                .trim_start_matches("refs/heads/");
            DEFAULT_BRANCHES.contains(&dst)
        });
        if to_default {
            hits.push(FloorRule::GitForcePush);
        }
    }
    if long("--delete")
        || has_short(rest, 'd')
        || long("--prune")
        || refspecs.iter().any(|r| r.starts_with(':') && r.len() > 1)
    {
        hits.push(FloorRule::GitPushDelete);
    }
}

/// A pathspec that covers the whole work tree (or the current folder).
fn pathspec_is_whole_tree(rest: &[Word]) -> bool {
    operands(rest).iter().any(|w| {
        w.glob && w.value == "*"
            || matches!(
                w.value.as_str(),
                "." | "./" | ":/" | ":/." | ":/*" | ":(top)" | ".." | "../" | "*" | ":"
            )
    })
}

/// A process id as `kill` reads it: blanks around it, an optional sign,
/// decimal digits (`-01` is -1, `+1` is 1).
fn pid_value(word: &str) -> Option<i64> {
    let trimmed = word.trim();
    let (negative, digits) = match trimmed.as_bytes().first() {
        Some(b'-') => (true, &trimmed[1..]),
        Some(b'+') => (false, &trimmed[1..]),
        _ => (false, trimmed),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = digits.trim_start_matches('0');
    let value: i64 = if digits.is_empty() {
        0
    } else if digits.len() > 12 {
        i64::MAX
    } else {
        digits.parse().ok()?
    };
    Some(if negative { -value } else { value })
}

/// A signal that does something (`0` only checks that the process exists).
fn is_real_signal(signal: &str) -> bool {
    let s = signal.trim().trim_start_matches('-').to_ascii_uppercase();
    !(s == "0" || s.trim_start_matches('0').is_empty() && !s.is_empty())
}

/// `kill -1` in every spelling (`-- -1`, `-01`, `-s KILL -1`): every
/// process the user may signal; and any real signal to process 1.
fn check_kill(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let args = inv.args;
    let mut signal = "TERM".to_string();
    let mut i = 0;
    let mut options = true;
    let mut pids = Vec::new();
    while i < args.len() {
        let v = args[i].value.as_str();
        if options && v == "--" {
            options = false;
        } else if options && matches!(v, "-s" | "-n" | "--signal") {
            signal = args.get(i + 1).map(|w| w.value.clone()).unwrap_or_default();
            i += 1;
        } else if options && (v.starts_with("--signal=")) {
            signal = v["--signal=".len()..].to_string();
        } else if options && matches!(v, "-l" | "-L" | "--list" | "--table") {
            return;
        } else if options && pids.is_empty() && v.len() > 1 && v.starts_with('-') && i == 0 {
            // The first word is the signal (`-9`, `-KILL`, `-1` = SIGHUP).
            signal = v[1..].to_string();
        } else if options && (v.starts_with("-q") || v == "--queue") {
            i += 1;
        } else {
            pids.push(v);
        }
        i += 1;
    }
    for pid in pids {
        match pid_value(pid) {
            Some(-1) => push_once(hits, FloorRule::KillAll),
            Some(1) if is_real_signal(&signal) => push_once(hits, FloorRule::KillInit),
            _ => {}
        }
    }
}

/// `pkill`/`killall` whose selection is every process of a user (`-u`
/// with no pattern), a pattern that matches every name (`.`, `.*`), or
/// everything but a pattern (`pkill -v`).
fn check_kill_by_name(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let values = if inv.verb == "pkill" {
        "gGOPstuUFrq"
    } else {
        "suoyZn"
    };
    let letters = short_letters(inv.args, values);
    let mut patterns = Vec::new();
    let mut i = 0;
    let mut done = false;
    let mut by_user = false;
    while i < inv.args.len() {
        let v = inv.args[i].value.as_str();
        if done || !v.starts_with('-') || v == "-" {
            patterns.push(v);
        } else if v == "--" {
            done = true;
        } else if let Some(long) = v.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            by_user |= matches!(name, "user" | "euid" | "uid");
            if !long.contains('=')
                && matches!(
                    name,
                    "signal"
                        | "user"
                        | "euid"
                        | "uid"
                        | "group"
                        | "pgroup"
                        | "parent"
                        | "session"
                        | "terminal"
                        | "pidfile"
                        | "older-than"
                        | "younger-than"
                        | "context"
                        | "ns"
                        | "nslist"
                        | "older"
                        | "runstates"
                        | "cgroup"
                        | "env"
                )
            {
                i += 1;
            }
        } else if i == 0
            && v[1..]
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        {
            // The signal (`-9`, `-HUP`), first.
        } else if let Some(at) = v[1..].find(|c| values.contains(c)) {
            let c = v[1 + at..].chars().next().unwrap_or(' ');
            by_user |= matches!(c, 'u' | 'U');
            if at + 2 == v.len() {
                i += 1;
            }
        }
        i += 1;
    }
    let inverted =
        inv.verb == "pkill" && (letters.contains(&'v') || has_long(inv.args, "--inverse", false));
    let everything = patterns.iter().any(|p| matches_every_name(p))
        || by_user && patterns.is_empty()
        || inverted;
    if everything && !only_help(inv.args) {
        push_once(hits, FloorRule::KillAll);
    }
}

/// A regular expression that matches every process name (`.`, `.*`, `^`).
fn matches_every_name(pattern: &str) -> bool {
    let core: String = pattern
        .chars()
        .filter(|c| !matches!(c, '^' | '$' | '(' | ')'))
        .collect();
    core.chars().all(|c| matches!(c, '.' | '*' | '+' | '?'))
}

fn push_once(hits: &mut Vec<FloorRule>, rule: FloorRule) {
    if !hits.contains(&rule) {
        hits.push(rule);
    }
}

/// systemd units that stop or restart the machine, or every process.
#[rustfmt::skip]
const POWER_UNITS: &[&str] = &[
    "-.slice", "ctrl-alt-del.target", "emergency.target", "halt.target", "init.scope",
    "kexec.target", "poweroff.target", "reboot.target", "rescue.target", "soft-reboot.target",
    "systemd-halt.service", "systemd-kexec.service", "systemd-poweroff.service",
    "systemd-reboot.service", "systemd-soft-reboot.service",
];

/// `systemctl poweroff`, `systemctl isolate reboot.target`, `systemctl
/// start poweroff.target`, `systemctl -i halt`.
fn check_systemctl(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    const VALUES: &[&str] = &[
        "-H",
        "-M",
        "-n",
        "-o",
        "-p",
        "-s",
        "-t",
        "--boot-loader-entry",
        "--boot-loader-menu",
        "--host",
        "--job-mode",
        "--kill-whom",
        "--kill-value",
        "--lines",
        "--machine",
        "--message",
        "--output",
        "--preset-mode",
        "--property",
        "--reboot-argument",
        "--root",
        "--signal",
        "--state",
        "--timestamp",
        "--type",
        "--what",
        "--when",
        "--image",
        "--drop-in",
        "--kill-who",
    ];
    let mut words = Vec::new();
    let mut i = 0;
    while i < inv.args.len() {
        let v = inv.args[i].value.as_str();
        if VALUES.contains(&v) {
            i += 2;
            continue;
        }
        if !v.starts_with('-') || v == "-.slice" {
            words.push(v);
        }
        i += 1;
    }
    let Some((sub, units)) = words.split_first() else {
        return;
    };
    let power_now = matches!(
        *sub,
        "poweroff" | "reboot" | "halt" | "kexec" | "soft-reboot" | "rescue" | "emergency"
    );
    let starts = matches!(
        *sub,
        "start"
            | "isolate"
            | "restart"
            | "try-restart"
            | "reload-or-restart"
            | "try-reload-or-restart"
            | "stop"
            | "kill"
            | "reenable"
            | "enable"
            | "condrestart"
            | "force-reload"
    );
    let power_unit = units.iter().any(|u| {
        let unit = u.to_ascii_lowercase();
        POWER_UNITS.contains(&unit.as_str())
            // `isolate reboot` means reboot.target.
            || *sub == "isolate"
                && POWER_UNITS.contains(&format!("{unit}.target").as_str())
    });
    let enable_only = matches!(*sub, "enable" | "reenable") && !has_long(inv.args, "--now", false);
    if power_now || starts && power_unit && !enable_only {
        push_once(hits, FloorRule::SystemPower);
    }
}

/// `loginctl poweroff` and the like, and ending every session of a user.
fn check_loginctl(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let sub = inv.args.iter().find(|a| !a.value.starts_with('-'));
    match sub.map(|w| w.value.as_str()) {
        Some("poweroff" | "reboot" | "halt" | "kexec" | "soft-reboot") => {
            push_once(hits, FloorRule::SystemPower)
        }
        Some("terminate-user" | "kill-user" | "terminate-seat") => {
            push_once(hits, FloorRule::KillAll)
        }
        _ => {}
    }
}

/// A D-Bus call of logind's or systemd's power methods (`PowerOff`,
/// `Reboot`, …) or of `StartUnit` on a power target.
fn calls_power_method(args: &[Word]) -> bool {
    const METHODS: &[&str] = &[
        "halt",
        "haltwithflags",
        "kexec",
        "kexecwithflags",
        "poweroff",
        "poweroffwithflags",
        "reboot",
        "rebootwithflags",
        "schedulesshutdown",
        "scheduleshutdown",
        "softreboot",
        "softrebootwithflags",
    ];
    const STARTERS: &[&str] = &[
        "startunit",
        "startunitreplace",
        "restartunit",
        "startunitwithflags",
    ];
    let last = |w: &Word| {
        w.value
            .rsplit(['.', ' ', '='])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase()
    };
    let method = args.iter().any(|w| METHODS.contains(&last(w).as_str()));
    let start = args.iter().any(|w| STARTERS.contains(&last(w).as_str()));
    let unit = args.iter().any(|w| {
        let v = w.value.to_ascii_lowercase();
        let v = v.strip_prefix("string:").unwrap_or(&v);
        POWER_UNITS.contains(&v.trim_matches(['\'', '"']))
    });
    method || start && unit
}

/// `nc -e /bin/sh`, `ncat --exec`, `nc -c CMD`: the connection runs a
/// program, a shell for whoever is at the other end.
fn check_netcat(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let letters = short_letters(inv.args, "ecpswqiIOTxXb");
    let long_exec = options(inv.args).any(|o| {
        let name = o.split('=').next().unwrap_or(o);
        ["--exec", "--sh-exec", "--lua-exec"]
            .iter()
            .any(|full| name.len() > 4 && full.starts_with(name))
    });
    // `-c` is `--sh-exec` in ncat and traditional nc, but "send CRLF" in
    // some others: a command follows it only in the first.
    let c_runs = inv.args.iter().enumerate().any(|(i, w)| {
        w.value == "-c"
            && (inv.verb == "ncat"
                || inv
                    .args
                    .get(i + 1)
                    .is_some_and(|n| n.value.contains(['/', ' '])))
    });
    if letters.contains(&'e') || long_exec || c_runs {
        push_once(hits, FloorRule::NetRemoteShell);
    }
}

/// `socat TCP:h:p EXEC:/bin/sh`: one address runs a program, the other is
/// the network.
fn check_socat(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    const RUNS: &[&str] = &["exec", "system", "shell"];
    const NETWORK: &[&str] = &[
        "tcp",
        "tcp4",
        "tcp6",
        "tcp-connect",
        "tcp4-connect",
        "tcp6-connect",
        "udp-connect",
        "openssl-connect",
        "tcp-l",
        "tcp-listen",
        "tcp4-listen",
        "tcp6-listen",
        "udp",
        "udp4",
        "udp6",
        "udp-l",
        "udp-listen",
        "udp4-listen",
        "udp6-listen",
        "openssl",
        "openssl-listen",
        "ssl",
        "ssl-l",
        "sctp",
        "sctp-listen",
        "sctp-connect",
        "socks",
        "socks4",
        "socks4a",
        "socks5",
        "socks5-connect",
        "socks5-listen",
        "proxy",
        "proxy-connect",
        "vsock",
        "vsock-connect",
        "vsock-listen",
        "dccp",
        "dccp-connect",
        "dccp-listen",
        "udp-sendto",
        "udp-recvfrom",
        "udp-recv",
        "udp-datagram",
    ];
    let kind = |w: &Word| {
        w.value
            .split([':', ','])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase()
    };
    let addresses: Vec<&Word> = inv
        .args
        .iter()
        .filter(|w| !w.value.starts_with('-') || w.value.len() == 1)
        .collect();
    let runs = addresses.iter().any(|w| RUNS.contains(&kind(w).as_str()));
    let network = addresses
        .iter()
        .any(|w| NETWORK.contains(&kind(w).as_str()));
    if runs && network {
        push_once(hits, FloorRule::NetRemoteShell);
    }
}

/// `cargo install … portcullis` replaces the guard's binary (`--force`,
/// another version, another source).
fn check_cargo(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let Some(sub) = inv
        .args
        .iter()
        .position(|a| !a.value.starts_with('-') && !a.value.starts_with('+'))
    else {
        return;
    };
    if inv.args[sub].value == "install"
        && inv.args[sub + 1..]
            .iter()
            .any(|a| a.value == "portcullis" || a.value.starts_with("portcullis@"))
    {
        push_once(hits, FloorRule::GuardBinary);
    }
}

/// Disk tools: formatting, erasing and partitioning. Formatting or
/// partitioning a regular file (`mkfs.ext4 ./disk.img`) is not the floor's.
fn check_disk_tools(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let verb = inv.verb;
    let args = inv.args;
    if only_help(args) {
        return;
    }
    let format = match verb {
        v if v.starts_with("mkfs") => names_device(inv),
        "mke2fs" | "mkdosfs" | "mkntfs" | "mkexfatfs" | "mkswap" | "mkudffs" | "mkreiserfs"
        | "mkexfat" | "newfs" | "newfs_msdos" => names_device(inv),
        // `wipefs DEV` only lists the signatures; `-a`, `-o` or `--all`
        // erase them.
        "wipefs" => {
            (has_short(args, 'a')
                || has_short(args, 'o')
                || has_long(args, "--all", true)
                || has_long(args, "--offset", true))
                && names_device(inv)
        }
        "blkdiscard" | "sg_format" | "sg_sanitize" | "sg_unmap" => true,
        "nvme" => first_operand_in(
            args,
            &[
                "format",
                "sanitize",
                "write-zeroes",
                "write-uncor",
                "dsm",
                "write",
                "fw-commit",
            ],
        ),
        "hdparm" => options(args).any(|o| {
            [
                "--security-erase",
                "--security-erase-enhanced",
                "--trim-sector-ranges",
                "--trim-sector-ranges-stdin",
                "--write-sector",
                "--make-bad-sector",
                "--dco-restore",
                "--fwdownload",
            ]
            .iter()
            .any(|f| o.starts_with(f))
        }),
        "badblocks" => has_short(args, 'w'),
        "cryptsetup" => {
            args.iter().any(|a| {
                matches!(
                    a.value.to_ascii_lowercase().as_str(),
                    "luksformat" | "erase" | "lukserase" | "reencrypt"
                )
            }) && names_device(inv)
        }
        "flashrom" => {
            has_short(args, 'w')
                || has_short(args, 'E')
                || has_long(args, "--write", false)
                || has_long(args, "--erase", false)
        }
        _ => false,
    };
    if format {
        push_once(hits, FloorRule::DiskFormat);
        return;
    }
    let partition = match verb {
        "sfdisk" => sfdisk_writes(args) && names_device(inv),
        "sgdisk" => sgdisk_writes(args) && names_device(inv),
        "fdisk" | "gdisk" | "cfdisk" | "cgdisk" => {
            !(has_short(args, 'l')
                || has_short(args, 'x')
                || has_short(args, 's')
                || has_long(args, "--list", false)
                || has_long(args, "--list-details", false))
                && names_device(inv)
        }
        "parted" => parted_writes(args) && names_device(inv),
        "pvremove" | "vgremove" | "lvremove" => true,
        "zpool" => first_operand_in(args, &["destroy", "labelclear"]),
        "dmsetup" => first_operand_in(args, &["remove", "remove_all", "wipe_table", "clear"]),
        "mdadm" => has_long(args, "--zero-superblock", false),
        "nvme" => first_operand_in(args, &["delete-ns"]),
        _ => false,
    };
    if partition {
        push_once(hits, FloorRule::DiskPartition);
    }
}

/// The first operand is one of `subs`.
fn first_operand_in(args: &[Word], subs: &[&str]) -> bool {
    operands(args)
        .first()
        .is_some_and(|w| subs.contains(&w.value.as_str()))
}

/// An operand names a device (through links made earlier too), or a path
/// only known at run time that could be one.
fn names_device(inv: &Invocation) -> bool {
    let home = inv.location.home.as_deref();
    operands(inv.args).iter().any(|word| {
        let mut target = inv.location.resolve(word);
        if let Some(path) = &target.path
            && let Some(through) = inv.links.follow(path, true)
        {
            target.path = Some(through);
        }
        target.place(home) == Place::Device || target.path.is_none()
    })
}

/// `sfdisk DEV` writes the table read from stdin; `--delete` deletes;
/// listing and dry-run options do not write.
fn sfdisk_writes(args: &[Word]) -> bool {
    let lists = has_short(args, 'l')
        || has_short(args, 'd')
        || has_short(args, 'J')
        || has_short(args, 's')
        || has_short(args, 'V')
        || has_short(args, 'g')
        || has_short(args, 'F')
        || has_short(args, 'n')
        || [
            "--list",
            "--dump",
            "--json",
            "--show-size",
            "--verify",
            "--show-geometry",
            "--list-free",
            "--no-act",
            "--backup-pt-sectors",
            "--list-types",
        ]
        .iter()
        .any(|o| has_long(args, o, false));
    let part_query = options(args).any(|o| o.starts_with("--part-")) && operands(args).len() <= 2;
    has_long(args, "--delete", false) || !(lists || part_query)
}

/// sgdisk with any option besides its listing ones writes the table.
fn sgdisk_writes(args: &[Word]) -> bool {
    const READS: &str = "piLPbOVvh?";
    const READS_LONG: &[&str] = &[
        "--print",
        "--info",
        "--verify",
        "--list-types",
        "--pretend",
        "--backup",
        "--print-mbr",
        "--version",
        "--help",
    ];
    if has_short(args, 'P') || has_long(args, "--pretend", false) {
        return false;
    }
    options(args).any(|o| match o.strip_prefix("--") {
        Some(long) => {
            !READS_LONG.contains(&format!("--{}", long.split('=').next().unwrap_or(long)).as_str())
        }
        None => o[1..].chars().next().is_some_and(|c| !READS.contains(c)),
    })
}

/// parted run on a device: writes unless it only lists (`-l`, `print`).
fn parted_writes(args: &[Word]) -> bool {
    const READS: &[&str] = &[
        "print",
        "p",
        "unit",
        "help",
        "version",
        "align-check",
        "quit",
        "s",
        "b",
        "kb",
        "mb",
        "gb",
        "kib",
        "mib",
        "gib",
        "%",
        "free",
        "all",
        "min",
        "opt",
        "chs",
        "cyl",
        "compact",
    ];
    if has_short(args, 'l') || has_long(args, "--list", false) {
        return false;
    }
    let words: Vec<&Word> = operands(args)
        .into_iter()
        .filter(|w| !w.value.starts_with('/'))
        .collect();
    // No command: parted reads its commands from stdin.
    words.is_empty()
        || words.iter().any(|w| {
            let v = w.value.to_ascii_lowercase();
            !READS.contains(&v.as_str()) && !v.chars().all(|c| c.is_ascii_digit())
        })
}

/// `crontab -r`, and a crontab replaced by an empty file, which deletes
/// every job as surely (`crontab /dev/null`, `echo | crontab -`).
fn check_crontab(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    if has_short(inv.args, 'r') {
        push_once(hits, FloorRule::CronRemove);
        return;
    }
    let ops: Vec<&Word> = operands(inv.args);
    let lists = has_short(inv.args, 'l') || has_short(inv.args, 'e') || has_short(inv.args, 'T');
    if lists {
        return;
    }
    let from_stdin = match ops.last() {
        None => true,
        Some(w) if w.value == "-" || w.value == "/dev/stdin" => true,
        Some(w) => {
            if is_empty_file(&w.value) {
                push_once(hits, FloorRule::CronRemove);
            }
            false
        }
    };
    if from_stdin && let Some((script, command)) = inv.site {
        let empty = match &command.stdin {
            Stdin::File(f) => is_empty_file(&f.value),
            Stdin::Pipe(range) => {
                script
                    .commands
                    .get(range.clone())
                    .unwrap_or(&[])
                    .iter()
                    .all(prints_nothing)
                    || matches!(feeds::stdin_producer(script, command), Producer::Literal(t) if is_blank_crontab(&t))
            }
            _ => {
                matches!(feeds::stdin_producer(script, command), Producer::Literal(t) if is_blank_crontab(&t))
            }
        };
        if empty {
            push_once(hits, FloorRule::CronRemove);
        }
    }
}

/// Files that are always empty when read.
fn is_empty_file(path: &str) -> bool {
    matches!(path, "/dev/null" | "/dev/zero" | "/dev/full")
}

/// Crontab text with no job: blank lines and comments only.
fn is_blank_crontab(text: &str) -> bool {
    text.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || l.starts_with('#')
    })
}

/// A pipeline stage that prints nothing: `:`, `true`, `false`, `echo -n`,
/// `printf ''`, `cat /dev/null`.
fn prints_nothing(command: &SimpleCommand) -> bool {
    let (verb, words) = feeds::producer_verb(&command.words);
    let args: Vec<&str> = words.iter().skip(1).map(|w| w.value.as_str()).collect();
    match verb.as_str() {
        ":" | "true" | "false" => true,
        "cat" => !args.is_empty() && args.iter().all(|a| is_empty_file(a)),
        "echo" | "printf" if words.iter().all(|w| !w.dynamic) => {
            let out = if verb == "echo" {
                feeds::echo_output(&args)
            } else {
                feeds::printf_output(&args)
            };
            out.is_some_and(|t| is_blank_crontab(&t))
        }
        _ => false,
    }
}

/// Programs that read a program (a makefile, an awk or sed script, jobs
/// to run) from stdin: fed by the network or a decoder, it is code nobody
/// has read. Shells and the interpreters of [`feeds::INTERPRETERS`] are
/// judged by the engine.
fn check_program_from_stdin(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let Some((script, command)) = inv.site else {
        return;
    };
    if matches!(command.stdin, Stdin::Inherited) && !matches!(inv.verb, "at" | "batch") {
        return;
    }
    if !reads_program_from_stdin(inv.verb, inv.args) {
        return;
    }
    match feeds::stdin_producer(script, command) {
        Producer::Network(_) => push_once(hits, FloorRule::PipeNetworkShell),
        // A crontab edited through a filter (`crontab -l | grep -v x |
        // crontab -`) is an edit, not hidden code.
        Producer::Opaque(_) if inv.verb != "crontab" => push_once(hits, FloorRule::PipeOpaqueShell),
        _ => {}
    }
}

/// Whether `verb ARGS` takes its program from stdin.
fn reads_program_from_stdin(verb: &str, args: &[Word]) -> bool {
    let stdin = |v: &str| matches!(v, "-" | "/dev/stdin" | "/proc/self/fd/0" | "/dev/fd/0");
    let file_option = |shorts: &[&str], longs: &[&str]| {
        args.iter().enumerate().any(|(i, w)| {
            let v = w.value.as_str();
            let next = args.get(i + 1).map(|n| n.value.as_str());
            shorts.iter().any(|s| {
                v == *s && next.is_some_and(stdin)
                    || v.strip_prefix(s).is_some_and(|r| !r.is_empty() && stdin(r))
            }) || longs.iter().any(|l| {
                v == *l && next.is_some_and(stdin)
                    || v.strip_prefix(l)
                        .and_then(|r| r.strip_prefix('='))
                        .is_some_and(stdin)
            })
        })
    };
    match verb {
        "make" | "gmake" | "bmake" | "remake" => file_option(&["-f"], &["--file", "--makefile"]),
        "awk" | "gawk" | "mawk" | "nawk" | "busybox" => {
            file_option(&["-f"], &["--file", "--exec", "--include"])
                || file_option(&["-E", "-i"], &[])
        }
        "sed" | "gsed" => file_option(&["-f"], &["--file"]),
        "at" | "batch" => {
            !(has_short(args, 'f')
                || has_short(args, 'l')
                || has_short(args, 'r')
                || has_short(args, 'd')
                || has_short(args, 'c')
                || has_short(args, 'V'))
        }
        "crontab" => operands(args).last().is_none_or(|w| stdin(&w.value)),
        "gdb" => file_option(&["-x"], &["--command", "-command"]),
        "m4" | "tclsh" | "wish" | "expect" | "guile" | "jshell" | "irb" | "julia" | "gnuplot"
        | "osascript" | "pwsh" | "powershell" | "sqlite3" | "psql" | "mysql" | "mariadb" | "R"
        | "Rscript" | "ed" | "ex" | "dc" => {
            operands(args).len()
                <= usize::from(matches!(
                    verb,
                    "sqlite3" | "psql" | "mysql" | "mariadb" | "ed" | "ex"
                ))
                || operands(args).iter().any(|w| stdin(&w.value))
        }
        _ => false,
    }
}

/// SSH options whose value is a command run on this machine
/// (`ProxyCommand`, `LocalCommand`, `KnownHostsCommand`), and `scp -S`/
/// `sftp -S PROGRAM`. Returns each command as shell text to judge.
pub fn ssh_local_commands(verb: &str, args: &[Word]) -> Vec<String> {
    const RUN_LOCALLY: &[&str] = &["proxycommand", "localcommand", "knownhostscommand"];
    if verb == "rsync" {
        return rsync_remote_shell(args).into_iter().collect();
    }
    let values = match verb {
        "ssh" | "autossh" => "BbcDEeFIiJLlmOoPpQRSWw",
        "scp" => "cDFiJloPSX",
        "sftp" => "BbcDFiJloPRSsX",
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    let mut i = 0;
    let mut operands_seen = 0;
    while i < args.len() {
        let v = args[i].value.as_str();
        if v == "--" {
            break;
        }
        if !v.starts_with('-') || v.len() < 2 {
            // ssh reads options after the host too, up to the command.
            operands_seen += 1;
            if verb == "ssh" && operands_seen > 1 {
                break;
            }
            i += 1;
            continue;
        }
        let mut taken = false;
        for (pos, c) in v[1..].char_indices() {
            if !values.contains(c) {
                continue;
            }
            let attached = &v[1 + pos + 1..];
            let value = if attached.is_empty() {
                taken = true;
                args.get(i + 1).map(|w| w.value.as_str())
            } else {
                Some(attached)
            };
            if let Some(value) = value {
                if c == 'o' {
                    let (key, rest) = value
                        .split_once(|ch: char| ch == '=' || ch.is_whitespace())
                        .unwrap_or((value, ""));
                    let command =
                        rest.trim_start_matches(|ch: char| ch == '=' || ch.is_whitespace());
                    if RUN_LOCALLY.contains(&key.to_ascii_lowercase().as_str())
                        && !command.eq_ignore_ascii_case("none")
                        && !command.is_empty()
                    {
                        out.push(command.to_string());
                    }
                } else if c == 'S' && verb != "ssh" {
                    out.push(value.to_string());
                }
            }
            break;
        }
        i += if taken { 2 } else { 1 };
    }
    out
}

/// `rsync -e CMD` / `--rsh=CMD`: the remote shell rsync runs here.
fn rsync_remote_shell(args: &[Word]) -> Option<String> {
    args.iter().enumerate().find_map(|(i, w)| {
        let v = w.value.as_str();
        if v == "-e" || v == "--rsh" {
            return args.get(i + 1).map(|n| n.value.clone());
        }
        v.strip_prefix("--rsh=")
            .or_else(|| {
                v.strip_prefix("-e")
                    .filter(|r| !r.is_empty() && !v.starts_with("--"))
            })
            .map(str::to_string)
    })
}

/// The floor rule an environment setting breaks: a history size of 0
/// makes the shell truncate its history file (`HISTFILESIZE=0`).
pub fn check_setting(name: &str, value: &str) -> Option<FloorRule> {
    let zero = !value.is_empty() && value.trim().chars().all(|c| c == '0');
    (matches!(name, "HISTFILESIZE" | "HISTSIZE" | "SAVEHIST") && zero)
        .then_some(FloorRule::HistoryWipe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces_expand() {
        assert_eq!(expand_braces("/{etc,usr}"), vec!["/etc", "/usr"]);
        assert_eq!(expand_braces("a{1..3}"), vec!["a{1..3}"]);
    }

    #[test]
    fn world_writable_modes() {
        for m in [
            "777", "0777", "o+w", "a+rwx", "+w", "ugo+rwx", "a=rwx", "666",
        ] {
            assert!(is_world_writable(m), "{m}");
        }
        for m in ["755", "644", "u+x", "g+w", "go-w"] {
            assert!(!is_world_writable(m), "{m}");
        }
    }

    #[test]
    fn kill_pids_as_kill_reads_them() {
        assert_eq!(pid_value("-01"), Some(-1));
        assert_eq!(pid_value(" -1"), Some(-1));
        assert_eq!(pid_value("+1"), Some(1));
        assert_eq!(pid_value("-0x1"), None);
        assert_eq!(pid_value("%1"), None);
        assert!(!is_real_signal("0"));
        assert!(is_real_signal("TERM"));
    }

    #[test]
    fn ssh_options_that_run_here() {
        let words = |list: &[&str]| list.iter().map(|a| Word::literal(a)).collect::<Vec<_>>();
        assert_eq!(
            ssh_local_commands("ssh", &words(&["-o", "ProxyCommand=nc %h %p", "host"])),
            vec!["nc %h %p"]
        );
        assert_eq!(
            ssh_local_commands("ssh", &words(&["host", "-oLocalCommand ls"])),
            vec!["ls"]
        );
        assert!(
            ssh_local_commands("ssh", &words(&["host", "echo", "-o", "ProxyCommand=x"])).is_empty()
        );
        assert_eq!(
            ssh_local_commands("scp", &words(&["-S", "./p", "a", "h:b"])),
            vec!["./p"]
        );
        assert!(ssh_local_commands("ssh", &words(&["-o", "ProxyCommand=none", "h"])).is_empty());
    }

    #[test]
    fn settings_that_truncate_history() {
        assert_eq!(
            check_setting("HISTFILESIZE", "0"),
            Some(FloorRule::HistoryWipe)
        );
        assert_eq!(
            check_setting("HISTSIZE", "00"),
            Some(FloorRule::HistoryWipe)
        );
        assert_eq!(check_setting("HISTSIZE", "1000"), None);
        assert_eq!(check_setting("HISTFILESIZE", ""), None);
    }

    #[test]
    fn force_push_settings() {
        assert!(forces_push("remote.origin.mirror", "true"));
        assert!(forces_push("Remote.X.Mirror", "YES"));
        assert!(forces_push(
            "remote.origin.push",
            "+refs/heads/*:refs/heads/*"
        ));
        assert!(!forces_push("remote.origin.mirror", "false"));
        assert!(!forces_push("remote.origin.url", "+x"));
    }
}
