//! Process floors: `kill -1` in every spelling, any real signal to
//! process 1, and `pkill`/`killall` whose selection is every process.

use super::words::{has_long, only_help, short_letters};
use super::{Invocation, push_once};
use crate::rules::FloorRule;

/// A process id as `kill` reads it: blanks around it, an optional sign,
/// decimal digits (`-01` is -1, `+1` is 1).
pub(super) fn pid_value(word: &str) -> Option<i64> {
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
pub(super) fn is_real_signal(signal: &str) -> bool {
    let s = signal.trim().trim_start_matches('-').to_ascii_uppercase();
    !(s == "0" || s.trim_start_matches('0').is_empty() && !s.is_empty())
}

/// `kill -1` in every spelling (`-- -1`, `-01`, `-s KILL -1`): every
/// process the user may signal; and any real signal to process 1.
pub(super) fn check_kill(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let args = inv.args;
    let mut signal = "TERM".to_string();
    let mut i = 0;
    let mut options = true;
    let mut pids = Vec::new();
    while let Some(word) = args.get(i) {
        let v = word.value.as_str();
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
pub(super) fn check_kill_by_name(inv: &Invocation, hits: &mut Vec<FloorRule>) {
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
    while let Some(word) = inv.args.get(i) {
        let v = word.value.as_str();
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
