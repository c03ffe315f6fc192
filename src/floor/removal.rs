//! Deletion floors: `rm` (and its kin: `unlink`, `shred`, `trash`, …) of
//! the root, the home folder or a system folder, `mv` of them away, and
//! `find START… -delete` or `-exec rm` from one of them.

use super::Invocation;
use super::guard::guard_removal;
use super::places::{Follow, add_place_rules, places_of};
use super::words::{has_long, has_short, operands};
use crate::paths::Place;
use crate::rules::FloorRule;
use crate::shell::Word;
use std::path::Path;

pub(super) fn check_rm(inv: &Invocation, hits: &mut Vec<FloorRule>) {
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
pub(super) fn check_move_away(inv: &Invocation, hits: &mut Vec<FloorRule>) {
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
    while let Some(w) = args.get(i) {
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

pub(super) fn is_system_folder_itself(path: &Path) -> bool {
    crate::paths::is_system_folder(&path.to_string_lossy())
}

/// `find START… -delete` (or `-exec rm`) where a start folder is the root,
/// home or a system folder. Start folders follow the options `-H`, `-L`,
/// `-P`, `-D LIST`, `-O LEVEL` and `--`; the expression after them counts
/// wherever it is.
pub(super) fn check_find(inv: &Invocation, hits: &mut Vec<FloorRule>) {
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
                && words
                    .iter()
                    .skip(j + 1)
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
