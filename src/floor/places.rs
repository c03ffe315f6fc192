//! The places a word may name for the floor: its targets (braces
//! expanded, links made earlier in the line followed), what a glob or an
//! unknown variable in it could match, and the floor rule of each place
//! (the root, the home folder, a system folder).

use super::Invocation;
use super::removal::is_system_folder_itself;
use crate::paths::{self, Location, Place, Target};
use crate::rules::FloorRule;
use crate::shell::Word;
use std::path::Path;

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
pub(super) fn expand_braces(value: &str) -> Vec<String> {
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
pub(super) enum Follow {
    /// Through a link only with something after it (`h/`, `h/x`): `rm`, `find`.
    Inside,
    /// Through the link itself too (`chmod` follows links).
    Always,
}

/// Every place a word may name for the floor: its targets (braces
/// expanded, links made earlier followed) and what a glob or an unknown
/// variable in it could match. `contents`: direct contents of a system
/// folder count (deletion), or only the folders themselves (a move).
pub(super) fn places_of(
    inv: &Invocation,
    word: &Word,
    follow: Follow,
    contents: bool,
) -> Vec<Place> {
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
pub(super) fn add_place_rules(places: &[Place], hits: &mut Vec<FloorRule>) {
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
