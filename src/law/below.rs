//! How far a formatter run on a folder reaches (`ruff format`, `prettier
//! --write .`): the law's own rules beneath the folder (gantry's forbidden
//! zones, `.cage.yaml`'s protected paths and `allow_only` area) that hold
//! files it rewrites. Found by pattern: only the inside of a rule's own
//! folder is listed (bounded), never the whole tree.
//!
//! Takes the folder and the formatter's file patterns; returns [`Hit`]s.

use super::glob::{Pattern, intersects};
use super::{Hit, Law, Laws, SKIPPED_FOLDERS};
use crate::rule_id::Rule;
use crate::verdict::Verdict;
use std::path::Path;

/// Entries listed under one rule's folder, at most: past them the rule
/// counts as reached.
const MAX_LISTED: usize = 2000;
/// Folders deep, at most (deeper counts as reached).
const MAX_DEPTH: usize = 16;

/// One rule of a repository's law a formatter may reach.
struct Zone {
    /// Root-relative pattern of what it covers.
    pattern: Pattern,
    verdict: Verdict,
    rule: Rule,
    /// What it is, for reasons.
    what: String,
}

const ZONE_REMEDIATION: &str = "Run the formatter on the files you changed, by name, so it stays out of the protected paths beneath the folder.";

impl Laws {
    /// The findings for a formatter (`tool`) that rewrites the files named
    /// by `files` (`*.py`) in `folder` and everything beneath it (`shown`
    /// as written): the rules beneath it that hold such files, and the
    /// `allow_only` area when the folder is not inside it. The folder
    /// itself is judged as any write target, by the caller.
    pub fn rewrites_below(
        &mut self,
        folder: &Path,
        files: &[&str],
        tool: &str,
        shown: &str,
    ) -> Vec<Hit> {
        let folder = crate::paths::normalise(folder);
        let real = self.fs.resolve(&folder);
        let Some(index) = self.for_path(&real.join("_")) else {
            return Vec::new();
        };
        let law = self.law(index);
        let Some(rel) = law.repo.relative(&real) else {
            return Vec::new();
        };
        let kinds: Vec<Pattern> = files.iter().map(|f| Pattern::glob(f)).collect();
        let reach: Vec<Pattern> = files
            .iter()
            .map(|f| {
                Pattern::glob(&if rel.is_empty() {
                    format!("**/{f}")
                } else {
                    format!("{rel}/**/{f}")
                })
            })
            .collect();
        let kinds_shown = files.join(" ");
        let mut hits: Vec<Hit> = Vec::new();
        for zone in zones_of(law) {
            if hits.iter().any(|h| h.rule == zone.rule) {
                continue;
            }
            let may = reach.iter().any(|r| {
                intersects(&zone.pattern, r)
                    || zone.pattern.names_folder() && intersects(&zone.pattern.beneath(), r)
            });
            if !may || !holds(law, &rel, &zone.pattern, &kinds) {
                continue;
            }
            hits.push(Hit {
                verdict: zone.verdict,
                rule: zone.rule,
                reason: format!(
                    "`{tool}` rewrites the files ({kinds_shown}) beneath `{}`, and {} holds some",
                    crate::limits::clip(shown, 120),
                    zone.what
                ),
                remediation: ZONE_REMEDIATION.to_string(),
            });
        }
        hits.extend(out_of_area(law, &rel, &kinds, tool, shown));
        hits.extend(out_of_roots(law, &rel, &kinds, tool, shown));
        hits
    }
}

/// The rules of `law` a formatter may reach: forbidden zones and
/// `.cage.yaml` protected paths.
fn zones_of(law: &Law) -> Vec<Zone> {
    let policy = &law.policy;
    let mut zones = Vec::new();
    if let Some(gantry) = &policy.gantry {
        if let Some(mission) = &gantry.mission {
            for (zone, from) in &mission.zones {
                zones.push(Zone {
                    pattern: Pattern::literal(zone),
                    verdict: Verdict::Blocked,
                    rule: Rule::GantryForbiddenZone,
                    what: format!(
                        "the forbidden zone `{zone}` (GXT_FORBIDDEN_ZONE; {from} of mission {})",
                        mission.file
                    ),
                });
            }
        }
        for zone in &gantry.org_zones {
            zones.push(Zone {
                pattern: Pattern::literal(zone),
                verdict: Verdict::Blocked,
                rule: Rule::GantryForbiddenZone,
                what: format!(
                    "the forbidden zone `{zone}` (GXT_FORBIDDEN_ZONE; the organisation policy)"
                ),
            });
        }
        for (zone, skill) in &gantry.all_zones {
            zones.push(Zone {
                pattern: Pattern::literal(zone),
                verdict: Verdict::Blocked,
                rule: Rule::CageManifestForbiddenZone,
                what: format!(
                    "the forbidden zone `{zone}` of skill {skill} ({}, cage built-in rule manifest_forbidden_zone)",
                    gantry.manifest
                ),
            });
        }
    }
    for protect in &policy.cage.protect {
        zones.push(Zone {
            pattern: Pattern::glob(&protect.glob),
            verdict: protect.verdict,
            rule: Rule::CageCageProtect,
            what: format!(
                "the path the project protects (.cage.yaml protect: {})",
                protect.written
            ),
        });
    }
    zones
}

/// Whether a file of one of `kinds` lies beneath folder `rel` and inside
/// `zone` (or the listing ran past its bounds).
fn holds(law: &Law, rel: &str, zone: &Pattern, kinds: &[Pattern]) -> bool {
    let prefix = zone.literal_prefix();
    let zone_folder = if zone.is_literal() {
        prefix.as_str()
    } else {
        prefix.rfind('/').map_or("", |i| &prefix[..i])
    };
    // Start where both the folder and the zone are: the deeper of the two.
    let start = if zone_folder.starts_with(rel) {
        zone_folder
    } else {
        rel
    };
    let root = &law.repo.root;
    any_file(root, start, &|path, name| {
        kinds.iter().any(|k| k.matches(name)) && zone.covers_path(path)
    })
}

/// The `allow_only` finding when the folder is not inside the task's
/// area and files the formatter rewrites lie outside it.
fn out_of_area(law: &Law, rel: &str, kinds: &[Pattern], tool: &str, shown: &str) -> Option<Hit> {
    let area = &law.policy.cage.allow_only;
    if area.is_empty() {
        return None;
    }
    let globs: Vec<Pattern> = area.iter().map(|g| Pattern::glob_exact_case(g)).collect();
    let inside = |path: &str| globs.iter().any(|g| g.covers_path(path));
    let probe = if rel.is_empty() {
        "_".to_string()
    } else {
        format!("{rel}/_")
    };
    if inside(&probe) {
        return None;
    }
    let outside = any_file(&law.repo.root, rel, &|path, name| {
        kinds.iter().any(|k| k.matches(name)) && !inside(path)
    });
    outside.then(|| Hit {
        verdict: Verdict::Blocked,
        rule: Rule::CageOutOfScope,
        reason: format!(
            "`{tool}` rewrites files beneath `{}`, outside the task's area ({}) (.cage.yaml allow_only)",
            crate::limits::clip(shown, 120),
            area.join(", ")
        ),
        remediation: format!(
            "Run the formatter on the task's area only ({}), or on the files you changed.",
            area.join(", ")
        ),
    })
}

/// gantry's edit roots: the finding when files the formatter rewrites
/// lie beneath the folder outside the active mission's roots (and
/// outside `.gitagent/`, which is not judged by roots).
fn out_of_roots(law: &Law, rel: &str, kinds: &[Pattern], tool: &str, shown: &str) -> Option<Hit> {
    let mission = law.policy.gantry.as_ref()?.mission.as_ref()?;
    if mission.roots.is_empty() {
        return None;
    }
    let roots: Vec<Pattern> = mission
        .roots
        .iter()
        .map(|(root, _)| Pattern::literal(root))
        .collect();
    let inside = |path: &str| {
        path == ".gitagent"
            || path.starts_with(".gitagent/")
            || roots.iter().any(|r| r.covers_path(path))
    };
    let outside = any_file(&law.repo.root, rel, &|path, name| {
        kinds.iter().any(|k| k.matches(name)) && !inside(path)
    });
    let names: Vec<&str> = mission.roots.iter().map(|(r, _)| r.as_str()).collect();
    outside.then(|| Hit {
        verdict: Verdict::Signed,
        rule: Rule::GantryOutsideRoots,
        reason: format!(
            "`{tool}` rewrites files beneath `{}`, outside mission {}'s edit roots ({})",
            crate::limits::clip(shown, 120),
            mission.file,
            names.join(", ")
        ),
        remediation: format!(
            "Run the formatter on the mission's edit roots only ({}), or on the files you changed.",
            names.join(", ")
        ),
    })
}

/// Whether a file beneath `root/start` (links not followed, the folders
/// every formatter skips left out) meets `wanted` (its root-relative path
/// and its name); also true when the listing runs past its bounds.
fn any_file(root: &Path, start: &str, wanted: &dyn Fn(&str, &str) -> bool) -> bool {
    let first = if start.is_empty() {
        root.to_path_buf()
    } else {
        root.join(start)
    };
    let Ok(meta) = std::fs::symlink_metadata(&first) else {
        return false;
    };
    let relative = |path: &Path| {
        path.strip_prefix(root)
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    if !meta.is_dir() {
        let name = first
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        return wanted(&relative(&first), &name);
    }
    let mut stack = vec![(first, 0usize)];
    let mut listed = 0usize;
    while let Some((folder, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            listed += 1;
            if listed > MAX_LISTED {
                return true;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if kind.is_dir() {
                if SKIPPED_FOLDERS.iter().any(|s| name == *s) {
                    continue;
                }
                if depth >= MAX_DEPTH {
                    return true;
                }
                stack.push((entry.path(), depth + 1));
            } else if wanted(&relative(&entry.path()), &name) {
                return true;
            }
        }
    }
    false
}
