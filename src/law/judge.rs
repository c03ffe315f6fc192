//! One write target judged against one repository's law: the built-in
//! rules (compiled once per process into quick shapes), `.cage.yaml`'s
//! `protect:` and `allow_only:`, gantry's zones, roots and perimeter, the
//! workspace's trust, and the strictest reading of invalid policy files.
//!
//! Takes a root-relative pattern and its [`Spot`]; adds [`Hit`]s.

use super::glob::{Pattern, Quick, Tok, intersects};
use super::spot::{Reach, Spot};
use super::{Hit, Law, gitignore, policy, trust_hit};
use crate::rule_id::Rule;
use crate::rules::PROTECTED_RULES;
use crate::verdict::Verdict;
use std::path::Path;

const TRUST_NOTE: &str = ".veritas-kanban/workspace-trust.json";

/// The one finding for a write target only run time knows.
pub(super) fn unresolved_hit(spot: &Spot, could_be: &str) -> Hit {
    Hit {
        verdict: Verdict::Signed,
        rule: Rule::WriteUnresolved,
        reason: format!(
            "the write target `{}` is only known when the command runs, and could be {could_be}",
            crate::limits::clip(&spot.shown, 80)
        ),
        remediation:
            "Name the file literally (no variables or globs) so the path law can check it."
                .to_string(),
    }
}

/// One built-in rule's patterns, compiled by build.rs.
#[derive(Debug, PartialEq)]
struct Compiled {
    /// Each path pattern, whether it names a file at any depth, and its
    /// quick form when it has one.
    paths: &'static [(Pattern, bool, Option<Quick>)],
    except: &'static [Pattern],
}

// BUILTIN_RELATIVE, BUILTIN_ANYWHERE and BUILTIN_HOME: `PROTECTED_RULES`
// compiled ahead of time (see `builtin_patterns` in build.rs; the test
// `compiled_ahead_as_at_run_time` below holds them equal to run-time
// compiling).
include!(concat!(env!("OUT_DIR"), "/builtin_patterns.rs"));

/// The built-in rules' patterns, in `PROTECTED_RULES` order: root-relative
/// (inside a repository) or anchored at any depth (outside every one).
fn builtin_patterns(in_repository: bool) -> &'static [Compiled] {
    if in_repository {
        &BUILTIN_RELATIVE
    } else {
        &BUILTIN_ANYWHERE
    }
}

/// How a built-in rule's path names a place in the home folder
/// (`~/.bashrc`): it is anchored there, never at a repository's root.
pub const HOME_PREFIX: &str = "~/";

/// Folders that hold a home folder besides the request's own (another
/// user's home is written by the same commands).
const OTHER_HOMES: &[&str] = &["/root", "/home/*", "/Users/*"];

/// A glob longer than this is not matched against every home folder (the
/// write is judged by its verb; its home-relative part still is).
const MAX_ANCHORED_GLOB: usize = 256;

/// The built-in rules' home-relative paths (`~/.bashrc` → `.bashrc`): the
/// rule's index in `PROTECTED_RULES` and its pattern (compiled by build.rs).
fn home_patterns() -> &'static [(usize, Pattern, Option<Quick>)] {
    &BUILTIN_HOME
}

/// The home folders a literal path may lie in: the request's own and
/// another user's (`/root`, `/home/NAME`, `/Users/NAME`).
fn home_roots(path: &str, home: Option<&str>) -> Vec<String> {
    let mut roots: Vec<String> = home
        .map(|h| h.trim_end_matches('/').to_string())
        .into_iter()
        .collect();
    roots.push("/root".to_string());
    for base in ["/home/", "/Users/"] {
        if let Some(rest) = path.strip_prefix(base) {
            let name = rest.split('/').next().unwrap_or(rest);
            if !name.is_empty() {
                roots.push(format!("{base}{name}"));
            }
        }
    }
    roots
}

/// The rules (indexes) a literal absolute path written with `reach`
/// reaches in a home folder.
fn home_rules_of_path(path: &str, reach: Reach, home: Option<&str>) -> Vec<usize> {
    let mut found = Vec::new();
    for root in home_roots(path, home) {
        // A tree above a home folder reaches all of it.
        let folder = path.trim_end_matches('/');
        let above =
            reach == Reach::Tree && (root == folder || root.starts_with(&format!("{folder}/")));
        if above {
            found.extend(home_patterns().iter().map(|(i, _, _)| *i));
            continue;
        }
        let Some(rel) = path.strip_prefix(&format!("{root}/")) else {
            continue;
        };
        for (i, pattern, quick) in home_patterns() {
            let hit = match quick {
                Some(quick) => quick.covers(rel) || reach == Reach::Tree && quick.lies_beneath(rel),
                None => covers(pattern, &Pattern::literal(rel), reach, false),
            };
            if hit {
                found.push(*i);
            }
        }
    }
    found
}

/// The rules (indexes) a glob written with `reach` may reach in a home
/// folder: judged from the home folder when its fixed part lies in one,
/// else against every home folder (short globs only).
fn home_rules_of_glob(form: &Pattern, reach: Reach, home: Option<&str>, shown: &str) -> Vec<usize> {
    let prefix = form.literal_prefix();
    let mut found = Vec::new();
    let mut inside = false;
    for root in home_roots(&prefix, home) {
        let Some(rel) = form.strip_literal_prefix(&format!("{root}/")) else {
            continue;
        };
        inside = true;
        if shown.len() > MAX_ANCHORED_GLOB {
            continue;
        }
        for (i, pattern, _) in home_patterns() {
            if covers(pattern, &rel, reach, false) {
                found.push(*i);
            }
        }
    }
    if inside || shown.len() > MAX_ANCHORED_GLOB {
        return found;
    }
    let mut anchors: Vec<&str> = OTHER_HOMES.to_vec();
    anchors.extend(home);
    for anchor in anchors {
        for (i, pattern, _) in home_patterns() {
            let mut anchored = Pattern::glob(anchor);
            anchored.push_literal("/");
            anchored.append(pattern);
            if covers(&anchored, form, reach, false) {
                found.push(*i);
            }
        }
    }
    found
}

/// The built-in rules' findings for a write target in a home folder
/// (`~/.bashrc`, `~/.config/systemd/user/x.service`): rule paths written
/// `~/…` in `rules/law.json`, matched against the spot's absolute forms.
/// A glob, or a target only run time knows, gets one signed finding
/// instead.
pub fn home_hits(spot: &Spot, home: Option<&Path>) -> Vec<Hit> {
    let home_text = home.map(|h| h.to_string_lossy().into_owned());
    let home = home_text.as_deref();
    let mut rules: Vec<usize> = Vec::new();
    let mut unresolved = spot.unresolved;
    for form in spot.forms() {
        if form.is_literal() {
            rules.extend(home_rules_of_path(&form.literal_prefix(), spot.reach, home));
        } else {
            unresolved = true;
            rules.extend(home_rules_of_glob(form, spot.reach, home, &spot.shown));
        }
    }
    rules.sort_unstable();
    rules.dedup();
    let mut hits = Vec::new();
    for i in rules {
        let Some((rule, verdict)) = PROTECTED_RULES
            .get(i)
            .and_then(|rule| Some((rule, rule.verdict?)))
        else {
            continue;
        };
        add(
            &mut hits,
            spot,
            verdict,
            rule.rule,
            rule.what,
            rule.source,
            rule.remediation,
        );
    }
    if unresolved && !hits.is_empty() {
        let could_be: Vec<&str> = hits.iter().map(|h| h.rule.id()).collect();
        return vec![unresolved_hit(
            spot,
            &format!("a protected path ({})", could_be.join(", ")),
        )];
    }
    hits
}

/// The built-in BLOCKED rule that already covers a root-relative literal
/// path, if any (a `.cage.yaml` `report` entry there would weaken it).
pub fn builtin_revert_rule(path: &str) -> Option<Rule> {
    let spot = Pattern::literal(path);
    PROTECTED_RULES
        .iter()
        .zip(builtin_patterns(true))
        .filter(|(rule, _)| rule.verdict == Some(Verdict::Blocked))
        .find(|(_, compiled)| {
            compiled
                .paths
                .iter()
                .any(|(pattern, _, quick)| match quick {
                    Some(quick) => quick.covers(path),
                    None => covers(pattern, &spot, Reach::Path, false),
                })
        })
        .map(|(rule, _)| rule.rule)
}

/// A built-in rule's pattern: root-relative in a repository; outside every
/// repository (no law, the path absolute) matched at any depth, so
/// `.github/workflows/x` is caught in whatever folder it is. build.rs
/// compiles them so; this copy is what the test checks its work against.
#[cfg(test)]
fn rule_pattern(glob: &str, in_repository: bool) -> Pattern {
    if in_repository || glob.starts_with("**/") {
        Pattern::glob(glob)
    } else {
        Pattern::glob(&format!("**/{glob}"))
    }
}

/// Whether a rule's pattern covers (a path of) the spot: the rule names the
/// path or a folder above it, or, for a write that reaches a whole tree,
/// something inside it. Rules that match a name at any depth (`**/.env`)
/// do not reach into a tree: that would need the folder's listing.
pub(super) fn covers(rule: &Pattern, spot: &Pattern, reach: Reach, anywhere_rule: bool) -> bool {
    if spot.is_literal() {
        // The common case, a known path: the rule names it or a folder
        // above it.
        let named = rule.covers_path(&spot.literal_prefix());
        return named
            || reach == Reach::Tree && !anywhere_rule && intersects(rule, &spot.beneath());
    }
    // A pattern reaches beneath a rule only when the rule names a folder
    // (`.github/workflows`), not a file (`azure-pipelines.yml/x.txt`).
    intersects(rule, spot)
        || reach != Reach::Files && rule.names_folder() && intersects(&rule.beneath(), spot)
        || reach == Reach::Tree && !anywhere_rule && intersects(rule, &spot.beneath())
}

pub(super) fn add(
    hits: &mut Vec<Hit>,
    spot: &Spot,
    verdict: Verdict,
    rule: Rule,
    what: &str,
    source: &str,
    remediation: &str,
) {
    if hits.iter().any(|h| h.rule == rule && h.verdict >= verdict) {
        return;
    }
    hits.retain(|h| h.rule != rule);
    let reason = if spot.reach == Reach::Tree {
        format!(
            "writes `{}` and everything beneath it, which reaches {what} ({source})",
            crate::limits::clip(&spot.shown, 120)
        )
    } else {
        format!(
            "writes `{}`, {what} ({source})",
            crate::limits::clip(&spot.shown, 120)
        )
    };
    hits.push(Hit {
        verdict,
        rule,
        reason,
        remediation: remediation.to_string(),
    });
}

/// Judges one root-relative form against the built-ins and `law`'s policy.
pub(super) fn judge_form(law: Option<&Law>, rel: &Pattern, spot: &Spot, hits: &mut Vec<Hit>) {
    let frozen = law.is_some_and(Law::frozen);
    let compiled = builtin_patterns(law.is_some());
    let literal = rel.is_literal().then(|| rel.literal_prefix());
    for (rule, compiled) in PROTECTED_RULES.iter().zip(compiled) {
        let Some(verdict) = (if frozen {
            rule.frozen.or(rule.verdict)
        } else {
            rule.verdict
        }) else {
            continue;
        };
        let hit = compiled
            .paths
            .iter()
            .any(|(pattern, anywhere, quick)| match (quick, &literal) {
                // A known path in the common shapes: no simulation.
                (Some(quick), Some(path)) if spot.reach != Reach::Files => {
                    quick.covers(path) || spot.reach == Reach::Tree && quick.lies_beneath(path)
                }
                _ => covers(pattern, rel, spot.reach, *anywhere),
            });
        let excepted = hit
            && rel.is_literal()
            && compiled
                .except
                .iter()
                .any(|p| covers(p, rel, Reach::Path, true));
        if hit && !excepted {
            add(
                hits,
                spot,
                verdict,
                rule.rule,
                rule.what,
                rule.source,
                rule.remediation,
            );
        }
    }
    let Some(law) = law else {
        judge_law_files(None, rel, spot, hits);
        return;
    };
    let policy = &law.policy;
    // A write into a workspace whose trust is narrowed, from wherever the
    // request runs.
    if let Some(hit) = trust_hit(law, Verdict::Signed) {
        add(
            hits,
            spot,
            hit.verdict,
            hit.rule,
            "inside a workspace whose trust is narrowed",
            TRUST_NOTE,
            &hit.remediation,
        );
    }
    for protect in &policy.cage.protect {
        if covers(
            &Pattern::glob(&protect.glob),
            rel,
            spot.reach,
            protect.glob.starts_with("**/"),
        ) {
            let mode = if protect.verdict == Verdict::Blocked {
                "revert"
            } else {
                "report"
            };
            add(
                hits,
                spot,
                protect.verdict,
                Rule::CageCageProtect,
                &format!("protected by the project ({mode})"),
                &format!(".cage.yaml protect: {}", protect.written),
                "The project protects this path (.cage.yaml); leave it unchanged, or ask the person.",
            );
        }
    }
    if let Some(gantry) = &policy.gantry {
        judge_gantry(gantry, rel, spot, hits);
    }
    judge_scope(law, rel, spot, hits);
    for problem in &policy.problems {
        let Some(rule) = rule_of_problem(problem) else {
            continue;
        };
        if !hits.iter().any(|h| h.rule == rule) {
            hits.push(Hit {
                verdict: Verdict::Blocked,
                rule,
                reason: format!(
                    "{} {}; until it is fixed, every write in the repository is blocked (the strictest reading)",
                    problem.file, problem.message
                ),
                remediation: format!(
                    "Ask the person to fix {} ({}); do not edit it yourself.",
                    problem.file, problem.message
                ),
            });
        }
    }
    judge_law_files(Some(law), rel, spot, hits);
}

/// The rule id of a write to a mission file: SIGNED when its new content
/// is unknown, BLOCKED when it changes the mission's law (see
/// `engine::law::evaluate_edit_with`).
pub const MISSION_CONTRACT_RULE: Rule = Rule::GantryMissionContract;

/// Writes that would change gantry's law, with or without gantry in the
/// repository (outside every repository, `law` is `None` and the paths are
/// matched at any depth): the files of [`policy::LAW_PATHS`] are BLOCKED
/// `gantry.policy_file`; a mission file (any file directly in
/// `.gitagent/missions/`, and the active mission wherever it is) is SIGNED
/// `gantry.mission_contract`, since its contract can only be compared
/// when the new content is known. Added last, so a zone that already
/// names the path keeps its own rule id.
fn judge_law_files(law: Option<&Law>, rel: &Pattern, spot: &Spot, hits: &mut Vec<Hit>) {
    // A known path far from `.gitagent` (the common case) is decided by a
    // look at its text, not by matching patterns: a deep path judged
    // many times in one request stays cheap.
    let active = law
        .and_then(|l| l.policy.gantry.as_ref())
        .and_then(|g| g.mission.as_ref());
    if rel.is_literal() {
        let text = rel.literal_prefix().to_ascii_lowercase();
        let near = match law {
            Some(_) => text.is_empty() || text.starts_with(".gitagent"),
            None => text.contains("/.gitagent"),
        };
        if !near {
            if let Some(m) = active {
                let file = m.file.to_ascii_lowercase();
                let reaches = text == file
                    || spot.reach == Reach::Tree && file.starts_with(&format!("{text}/"));
                if reaches {
                    mission_file_hit(spot, hits);
                }
            }
            return;
        }
    }
    let anchored = |path: &str| match law {
        Some(_) => Pattern::glob(&policy::escape_glob(path)),
        None => Pattern::glob(&format!("**/{}", policy::escape_glob(path))),
    };
    let anywhere = law.is_none();
    for (path, what) in policy::LAW_PATHS {
        if covers(&anchored(path), rel, spot.reach, anywhere) {
            add(
                hits,
                spot,
                Verdict::Blocked,
                Rule::GantryPolicyFile,
                what,
                "gantry: only the person changes the law",
                "gantry's manifest, its policy bundle and the mission pin are the person's law: do not change them by any route. Say what should change and why, and let the person do it.",
            );
        }
    }
    // A folder that would hold the law, not there yet (`mv evil .gitagent`,
    // `ln -s /tmp/x .gitagent`, `tar -x -C .gitagent/history`): what lands
    // beneath it is unknown, and could be the law.
    if let Some(law) = law
        && rel.is_literal()
    {
        let text = rel.literal_prefix().to_ascii_lowercase();
        let holds = !text.is_empty()
            && policy::LAW_PATHS
                .iter()
                .any(|(path, _)| path.starts_with(&format!("{text}/")));
        if holds && !law.repo.root.join(rel.literal_prefix()).is_dir() {
            add(
                hits,
                spot,
                Verdict::Blocked,
                Rule::GantryPolicyFile,
                "a folder that would hold gantry's law, made here with content the law cannot see",
                "gantry: only the person changes the law",
                "gantry's folders are the person's to create (gantry init); write inside them only where the law allows.",
            );
        }
    }
    let pin = rel.is_literal() && {
        let text = rel.literal_prefix();
        text == policy::ACTIVE_MISSION || text.ends_with(&format!("/{}", policy::ACTIVE_MISSION))
    };
    let missions = match law {
        Some(_) => Pattern::glob(&format!("{}/*", policy::MISSIONS_DIR)),
        None => Pattern::glob(&format!("**/{}/*", policy::MISSIONS_DIR)),
    };
    let mut mission = !pin && covers(&missions, rel, spot.reach, anywhere);
    if let Some(m) = active {
        mission |= covers(&Pattern::literal(&m.file), rel, spot.reach, false);
    }
    if mission {
        mission_file_hit(spot, hits);
    }
}

/// The SIGNED finding of a write to a mission file.
fn mission_file_hit(spot: &Spot, hits: &mut Vec<Hit>) {
    {
        add(
            hits,
            spot,
            Verdict::Signed,
            MISSION_CONTRACT_RULE,
            "a mission file, whose `contract` (edit roots and forbidden zones), `skill_key` and `msn_id` are the person's law; what the write leaves there is unknown",
            "gantry mission",
            "Use the edit tool on the mission file and leave its contract, skill_key and msn_id as they are (the rest stays yours to write), or record notes in EXECUTOR_LOG.md.",
        );
    }
}

/// The rule that blocks every write when a policy file is invalid (the
/// trust file instead denies every request).
pub fn problem_rule(file: &str) -> Option<Rule> {
    match file {
        policy::CAGE_FILE => Some(Rule::CageCageConfig),
        policy::MANIFEST_YAML | policy::MANIFEST_JSON => Some(Rule::CageManifestForbiddenZone),
        policy::ACTIVE_MISSION | policy::POLICY_POINTER => Some(Rule::GantryForbiddenZone),
        _ => None,
    }
}

/// The rule that blocks every write for `problem`: a file past a limit
/// has a rule of its own in its file's family (`cage.policy_too_large`,
/// `gantry.policy_too_large`; the trust file's is `trust.policy_too_large`,
/// which denies every request, see `law::trust_hit`), any other problem
/// the rule of [`problem_rule`].
pub fn rule_of_problem(problem: &policy::Problem) -> Option<Rule> {
    if problem.kind != policy::ProblemKind::TooLarge {
        return problem_rule(problem.file);
    }
    match problem.file {
        policy::CAGE_FILE => Some(Rule::CagePolicyTooLarge),
        policy::TRUST_FILE => None,
        _ => Some(Rule::GantryPolicyTooLarge),
    }
}

/// gantry's path law: forbidden zones beat roots; governance files are not
/// judged; nothing under `.gitagent/` is outside the roots.
fn judge_gantry(gantry: &policy::Gantry, rel: &Pattern, spot: &Spot, hits: &mut Vec<Hit>) {
    let literal = rel.is_literal().then(|| rel.literal_prefix());
    let mission = gantry.mission.as_ref();
    let transport = literal.as_deref().is_some_and(|p| {
        p == "EXECUTOR_LOG.md"
            || p == policy::ACTIVE_MISSION
            || mission.is_some_and(|m| {
                p == m.file
                    || m.id
                        .as_ref()
                        .is_some_and(|id| p == format!(".gitagent/runs/{id}.json"))
            })
    });
    if transport {
        return;
    }
    let zone_covers = |zone: &str| covers(&Pattern::literal(zone), rel, spot.reach, false);
    if let Some(m) = mission
        && let Some((zone, from)) = m.zones.iter().find(|(z, _)| zone_covers(z))
    {
        add(
            hits,
            spot,
            Verdict::Blocked,
            Rule::GantryForbiddenZone,
            &format!("inside the forbidden zone `{zone}` (GXT_FORBIDDEN_ZONE)"),
            &format!("{from} of mission {} for skill {}", m.file, m.skill),
            "Forbidden zones must not be touched: stop and escalate to the Planner, or fail the task. Do not write there by another route.",
        );
    }
    if let Some(zone) = gantry.org_zones.iter().find(|z| zone_covers(z)) {
        add(
            hits,
            spot,
            Verdict::Blocked,
            Rule::GantryForbiddenZone,
            &format!("inside the forbidden zone `{zone}` (GXT_FORBIDDEN_ZONE)"),
            "the organisation policy's forbidden_zones_add",
            "Forbidden zones must not be touched: stop and escalate to the Planner, or fail the task.",
        );
    }
    if let Some((zone, skill)) = gantry.all_zones.iter().find(|(z, _)| zone_covers(z)) {
        add(
            hits,
            spot,
            Verdict::Blocked,
            Rule::CageManifestForbiddenZone,
            &format!("inside the forbidden zone `{zone}` of skill {skill} (GXT_FORBIDDEN_ZONE)"),
            &format!(
                "{}, cage built-in rule manifest_forbidden_zone",
                gantry.manifest
            ),
            "Forbidden zones must not be touched: stop and escalate to the Planner, or fail the task.",
        );
    }
    if let Some(glob) = gantry
        .perimeter
        .iter()
        .find(|g| covers(&perimeter_pattern(g), rel, spot.reach, g.starts_with("**/")))
    {
        add(
            hits,
            spot,
            Verdict::Signed,
            Rule::GantryPerimeterProtected,
            &format!("perimeter-protected (`{glob}`): changes need a Planner-stamped commit"),
            &gantry.manifest,
            "Perimeter files change through the Planner; propose the change instead of making it.",
        );
    }
    let Some(m) = mission else { return };
    if m.roots.is_empty() {
        return;
    }
    let in_governance = covers(&Pattern::literal(".gitagent"), rel, Reach::Path, false)
        && rel.literal_prefix().starts_with(".gitagent/");
    let inside = m.roots.iter().any(|(root, _)| {
        let root = Pattern::literal(root);
        if rel.is_literal() {
            intersects(&root, rel) || intersects(&root.beneath(), rel)
        } else {
            // A pattern is inside only when all it can match is.
            rel.literal_prefix()
                .starts_with(&format!("{}/", root.literal_prefix()))
        }
    });
    if !inside && !in_governance {
        let path = crate::limits::clip(&rel.literal_prefix(), 120).to_string();
        let path = if path.is_empty() {
            spot.shown.clone()
        } else {
            path
        };
        let roots: Vec<&str> = m.roots.iter().map(|(r, _)| r.as_str()).collect();
        hits.push(Hit {
            verdict: Verdict::Signed,
            rule: Rule::GantryOutsideRoots,
            reason: format!(
                "writes `{}`, outside mission {}'s edit roots ({}; from the {})",
                crate::limits::clip(&spot.shown, 120),
                m.file,
                roots.join(", "),
                m.roots.first().map_or("skill", |(_, from)| from)
            ),
            remediation: format!(
                "Record a context request first: gantry context-request --path {path} --reason \"<why this path is needed>\", and wait for the verifier."
            ),
        });
    }
}

/// gantry's perimeter glob dialect: `**/x` is a suffix match, anything
/// else is the path itself.
fn perimeter_pattern(glob: &str) -> Pattern {
    if glob.starts_with("**/") {
        Pattern::glob(glob)
    } else {
        Pattern::literal(glob)
    }
}

/// The cage's `allow_only:`: a write git would track, outside the area,
/// is out of scope. Gitignored paths (build output, caches) stay allowed.
fn judge_scope(law: &Law, rel: &Pattern, spot: &Spot, hits: &mut Vec<Hit>) {
    let area = &law.policy.cage.allow_only;
    if area.is_empty() {
        return;
    }
    let globs: Vec<Pattern> = area.iter().map(|g| Pattern::glob_exact_case(g)).collect();
    let inside = if rel.is_literal() {
        globs.iter().any(|g| g.covers_path(&rel.literal_prefix()))
    } else {
        // A pattern is in scope only when its fixed folder is.
        let fixed = rel.literal_prefix();
        let folder = fixed.rsplit_once('/').map_or("", |(f, _)| f);
        !folder.is_empty() && globs.iter().any(|g| g.covers_path(&format!("{folder}/x")))
    };
    if inside {
        return;
    }
    let text = rel.literal_prefix();
    if text.is_empty() && rel.is_literal() {
        return;
    }
    let git_internal = text == ".git" || text.starts_with(".git/");
    let is_folder = spot.reach == Reach::Tree || law.repo.root.join(&text).is_dir();
    if git_internal || rel.is_literal() && gitignore::is_ignored(&law.repo, &text, is_folder) {
        return;
    }
    add(
        hits,
        spot,
        Verdict::Blocked,
        Rule::CageOutOfScope,
        &format!("outside the task's area ({})", area.join(", ")),
        ".cage.yaml allow_only",
        "Stay inside the task's area (.cage.yaml allow_only); if the work needs this file, ask the person to widen the area.",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The patterns build.rs compiled are the ones compiling the rules at
    /// run time gives, reading for reading and rule for rule.
    #[test]
    fn compiled_ahead_as_at_run_time() {
        for in_repository in [true, false] {
            type RulePatterns = (Vec<(Pattern, bool, Option<Quick>)>, Vec<Pattern>);
            let at_run_time: Vec<RulePatterns> = PROTECTED_RULES
                .iter()
                .map(|rule| {
                    let paths = rule
                        .paths
                        .iter()
                        .filter(|p| !p.starts_with(HOME_PREFIX))
                        .map(|p| {
                            let pattern = rule_pattern(p, in_repository);
                            let quick = pattern.quick();
                            (pattern, p.starts_with("**/"), quick)
                        })
                        .collect();
                    (
                        paths,
                        rule.except.iter().map(|p| Pattern::glob(p)).collect(),
                    )
                })
                .collect();
            let ahead = builtin_patterns(in_repository);
            assert_eq!(ahead.len(), at_run_time.len());
            for (compiled, (paths, except)) in ahead.iter().zip(&at_run_time) {
                assert_eq!(
                    compiled.paths,
                    paths.as_slice(),
                    "in a repository: {in_repository}"
                );
                assert_eq!(compiled.except, except.as_slice());
            }
        }
        let home: Vec<(usize, Pattern, Option<Quick>)> = PROTECTED_RULES
            .iter()
            .enumerate()
            .flat_map(|(i, rule)| {
                rule.paths
                    .iter()
                    .filter_map(|p| p.strip_prefix(HOME_PREFIX))
                    .map(move |rest| {
                        let pattern = Pattern::glob(rest);
                        let quick = pattern.quick();
                        (i, pattern, quick)
                    })
            })
            .collect();
        assert_eq!(home_patterns(), home.as_slice());
        assert!(home.len() > 10 && BUILTIN_RELATIVE.iter().any(|c| !c.paths.is_empty()));
    }
}
