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

use crate::paths::{Location, Place, Target};
use crate::rules::FloorRule;
use crate::shell::Word;
use std::path::Path;

/// One peeled command as the floor sees it.
pub struct Invocation<'a> {
    /// The verb as the lexicon knows it (`rm`, not `/bin/rm`).
    pub verb: &'a str,
    /// The arguments after the verb.
    pub args: &'a [Word],
    /// Where it runs.
    pub location: &'a Location,
}

/// The floor rules one command breaks (empty for almost every command).
pub fn check_command(inv: &Invocation) -> Vec<FloorRule> {
    let mut hits = Vec::new();
    match inv.verb {
        "rm" | "unlink" | "srm" | "rimraf" => check_rm(inv, &mut hits),
        "mv" => check_move_away(inv, &mut hits),
        "find" => check_find(inv, &mut hits),
        "chmod" | "chown" | "chgrp" => check_permissions(inv, &mut hits),
        "git" => check_git(inv, &mut hits),
        "crontab" if has_short(inv.args, 'r') => {
            hits.push(FloorRule::CronRemove);
        }
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
        "systemctl" | "loginctl"
            if inv.args.iter().any(|a| {
                matches!(
                    a.value.as_str(),
                    "poweroff" | "reboot" | "halt" | "kexec" | "soft-reboot"
                )
            }) =>
        {
            hits.push(FloorRule::SystemPower);
        }
        "kill" => check_kill(inv, &mut hits),
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
        // `wipefs DEV` only lists the signatures; `-a`, `-o` or `--all`
        // erase them.
        "wipefs"
            if !(has_short(inv.args, 'a')
                || has_short(inv.args, 'o')
                || has_long(inv.args, "--all", true)
                || has_long(inv.args, "--offset", true)) => {}
        verb if is_disk_formatter(verb) && !only_help(inv.args) => {
            hits.push(FloorRule::DiskFormat);
        }
        _ => {}
    }
    if uninstalls_the_guard(inv) {
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

fn is_disk_formatter(verb: &str) -> bool {
    verb.starts_with("mkfs")
        || matches!(
            verb,
            "mke2fs" | "mkdosfs" | "mkntfs" | "mkexfatfs" | "wipefs" | "mkswap" | "blkdiscard"
        )
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

fn check_rm(inv: &Invocation, hits: &mut Vec<FloorRule>) {
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
    if !(recursive || force) {
        return;
    }
    for word in operands(inv.args) {
        for target in targets_of(word, inv.location, inv.location.cwd.as_deref()) {
            if let Some(rule) = place_rule(target.place(inv.location.home.as_deref()))
                && !hits.contains(&rule)
            {
                hits.push(rule);
            }
        }
    }
}

/// `mv / x`, `mv ~ /tmp/x`: moving the root, the home folder or a system
/// folder away breaks the system as surely as deleting it.
fn check_move_away(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let ops = operands(inv.args);
    let Some((_, sources)) = ops.split_last() else {
        return;
    };
    for word in sources {
        for target in targets_of(word, inv.location, inv.location.cwd.as_deref()) {
            let place = target.place(inv.location.home.as_deref());
            // Files directly in a system folder (`mv /etc/hosts /etc/hosts.bak`)
            // are admin work; the folders themselves are not.
            let folder_itself = matches!(place, Place::Root | Place::Home)
                || place == Place::System
                    && target.path.as_deref().is_some_and(is_system_folder_itself);
            if let Some(rule) = place_rule(place).filter(|_| folder_itself)
                && !hits.contains(&rule)
            {
                hits.push(rule);
            }
        }
    }
}

fn is_system_folder_itself(path: &Path) -> bool {
    crate::paths::is_system_folder(&path.to_string_lossy())
}

/// `find START… -delete` (or `-exec rm`) where a start folder is the root,
/// home or a system folder.
fn check_find(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let words: Vec<&str> = inv.args.iter().map(|w| w.value.as_str()).collect();
    let deletes = words.iter().enumerate().any(|(i, w)| {
        *w == "-delete"
            || matches!(*w, "-exec" | "-execdir" | "-ok" | "-okdir")
                && words.get(i + 1).is_some_and(|v| {
                    matches!(v.rsplit('/').next(), Some("rm" | "shred" | "unlink"))
                })
    });
    if !deletes {
        return;
    }
    let starts: Vec<&Word> = inv
        .args
        .iter()
        .take_while(|w| !(w.value.starts_with('-') || w.value == "(" || w.value == "!"))
        .collect();
    for word in starts {
        for target in targets_of(word, inv.location, inv.location.cwd.as_deref()) {
            if !matches!(target.place(inv.location.home.as_deref()), Place::Ordinary) {
                hits.push(FloorRule::FindDelete);
                return;
            }
        }
    }
}

fn check_permissions(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let recursive = has_short(inv.args, 'R') || has_long(inv.args, "--recursive", false);
    let ops = operands(inv.args);
    let reference = has_long(inv.args, "--reference", false);
    let (mode, paths) = if reference || ops.is_empty() {
        (None, &ops[..])
    } else {
        (Some(ops[0]), &ops[1..])
    };
    for word in paths {
        for target in targets_of(word, inv.location, inv.location.cwd.as_deref()) {
            let place = target.place(inv.location.home.as_deref());
            let severe = match place {
                Place::Root | Place::RootContents => true,
                Place::Home | Place::HomeContents | Place::System => recursive,
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
                (who.is_empty() || who.contains('a') || who.contains('o')) && perms.contains('w')
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
        "push" => check_git_push(rest, hits),
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

fn check_kill(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let args = inv.args;
    let mut i = 0;
    // A signal spec first: -9, -KILL, -SIGKILL, -s KILL, -n 9, --signal KILL.
    if let Some(first) = args.first().map(|w| w.value.as_str()) {
        if matches!(first, "-s" | "-n" | "--signal") {
            i = 2;
        } else if first.starts_with('-') && first != "--" && first.len() > 1 && first != "-1" {
            i = 1;
        } else if first == "-1" && args.len() > 1 {
            // `kill -1 PID` is SIGHUP to PID; `kill -1 -1` hangs up everything.
            i = 1;
        }
    }
    let targets = args
        .iter()
        .skip(i)
        .map(|w| w.value.as_str())
        .filter(|w| *w != "--");
    for t in targets {
        if t == "-1" {
            hits.push(FloorRule::KillAll);
            return;
        }
    }
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
}
