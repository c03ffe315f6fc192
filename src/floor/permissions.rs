//! Permission floors: `chmod`/`chown`/`chgrp -R` on system folders, on
//! key system files, and recursive world-writable modes.

use super::Invocation;
use super::places::{Follow, places_of};
use super::words::{has_long, has_short};
use crate::paths::Place;
use crate::rules::FloorRule;
use crate::shell::Word;
use std::path::Path;

pub(super) fn check_permissions(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let recursive = has_short(inv.args, 'R') || has_long(inv.args, "--recursive", false);
    let (reference, ops) = permission_operands(inv.args);
    let (mode, paths) = match ops.split_first() {
        Some((first, rest)) if !(reference || inv.verb != "chmod" && ops.len() < 2) => {
            (Some(*first), rest)
        }
        _ => (None, ops.as_slice()),
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
    while let Some(w) = args.get(i) {
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
pub(super) fn is_world_writable(mode: &str) -> bool {
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
