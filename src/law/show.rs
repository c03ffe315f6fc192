//! Seeing the law: the effective protected paths, zones and roots of one
//! repository, where each came from, and the verdict a write there gets,
//! for `portcullis policy` (text or JSON).
//!
//! Takes a loaded [`Law`]; returns rows and their rendering. Reads nothing.

use super::Law;
use super::policy::{
    ACTIVE_MISSION, CAGE_FILE, MANIFEST_JSON, MANIFEST_YAML, POLICY_POINTER, TRUST_FILE, Trust,
};
use crate::rule_id::{Family, Rule};
use crate::rules::PROTECTED_RULES;
use crate::verdict::Verdict;
use serde_json::{Value, json};

/// One row of the effective law.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Built in (always on), not from the repository's policy files.
    pub builtin: bool,
    /// The verdict of a write there (or of a request, for trust).
    pub verdict: Verdict,
    /// The rule.
    pub rule: Rule,
    /// The path, glob, zone or root (root-relative), or what it covers.
    pub path: String,
    /// Where it comes from.
    pub source: String,
}

impl Law {
    /// Every row of the effective law, built-ins first.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = Vec::new();
        let frozen = self.frozen();
        let mut push = |verdict, rule: Rule, path: String, source: String| {
            let builtin = rule.family() == Family::Trust
                && !matches!(rule, Rule::TrustRestricted | Rule::TrustDenied)
                || source.contains("built-in rule");
            rows.push(Row {
                builtin,
                verdict,
                rule,
                path,
                source,
            });
        };
        for rule in &PROTECTED_RULES {
            let verdict = if frozen {
                rule.frozen.or(rule.verdict)
            } else {
                rule.verdict
            };
            let Some(verdict) = verdict else { continue };
            let except = if rule.except.is_empty() {
                String::new()
            } else {
                format!(" (except {})", rule.except.join(", "))
            };
            let source = if frozen && rule.frozen.is_some() {
                format!("{}; dependencies frozen by {CAGE_FILE}", rule.source)
            } else {
                rule.source.to_string()
            };
            for path in rule.paths {
                push(
                    verdict,
                    rule.rule,
                    format!("{path}{except}"),
                    source.clone(),
                );
            }
        }
        for (path, source) in super::gitctl::rows(&self.repo) {
            push(Verdict::Blocked, super::gitctl::RULE, path, source);
        }
        let policy = &self.policy;
        for protect in &policy.cage.protect {
            push(
                protect.verdict,
                Rule::CageCageProtect,
                protect.glob.clone(),
                format!("{CAGE_FILE} protect: {}", protect.written),
            );
        }
        if !policy.cage.allow_only.is_empty() {
            push(
                Verdict::Blocked,
                Rule::CageOutOfScope,
                format!(
                    "everything git would track outside {}",
                    policy.cage.allow_only.join(", ")
                ),
                format!("{CAGE_FILE} allow_only (gitignored paths stay allowed)"),
            );
        }
        if let Some(gantry) = &policy.gantry {
            if let Some(m) = &gantry.mission {
                for (zone, from) in &m.zones {
                    push(
                        Verdict::Blocked,
                        Rule::GantryForbiddenZone,
                        zone.clone(),
                        format!("mission {}, from the {from} (skill {})", m.file, m.skill),
                    );
                }
                if !m.roots.is_empty() {
                    let roots: Vec<&str> = m.roots.iter().map(|(r, _)| r.as_str()).collect();
                    push(
                        Verdict::Signed,
                        Rule::GantryOutsideRoots,
                        format!("everything outside {} (and .gitagent/)", roots.join(", ")),
                        format!(
                            "mission {} (edit roots from the {})",
                            m.file,
                            m.roots.first().map_or("skill", |(_, from)| from)
                        ),
                    );
                }
            }
            for zone in &gantry.org_zones {
                push(
                    Verdict::Blocked,
                    Rule::GantryForbiddenZone,
                    zone.clone(),
                    format!("organisation policy ({POLICY_POINTER})"),
                );
            }
            for (zone, skill) in &gantry.all_zones {
                push(
                    Verdict::Blocked,
                    Rule::CageManifestForbiddenZone,
                    zone.clone(),
                    format!("{} skill {skill}", gantry.manifest),
                );
            }
            for glob in &gantry.perimeter {
                push(
                    Verdict::Signed,
                    Rule::GantryPerimeterProtected,
                    glob.clone(),
                    format!("{} perimeter_protected", gantry.manifest),
                );
            }
        }
        for problem in &policy.problems {
            if let Some(rule) = super::rule_of_problem(problem) {
                push(
                    Verdict::Blocked,
                    rule,
                    "every write in the repository".into(),
                    format!(
                        "{} {} (the strictest reading)",
                        problem.file, problem.message
                    ),
                );
            }
        }
        match policy.trust {
            Trust::Trusted => {}
            Trust::Restricted => push(
                Verdict::Blocked,
                Rule::TrustRestricted,
                "every request that is not FREE".into(),
                TRUST_FILE.into(),
            ),
            Trust::Denied => push(
                Verdict::Blocked,
                Rule::TrustDenied,
                "every request".into(),
                TRUST_FILE.into(),
            ),
        }
        rows
    }

    /// Each policy file: present and read, absent, or its problem.
    pub fn files(&self) -> Vec<(&'static str, String)> {
        [
            CAGE_FILE,
            MANIFEST_YAML,
            MANIFEST_JSON,
            ACTIVE_MISSION,
            POLICY_POINTER,
            TRUST_FILE,
        ]
        .into_iter()
        .map(|file| {
            let status = match self.policy.problem(file) {
                Some(problem) => format!("INVALID: {}", problem.message),
                None if self.repo.root.join(file).exists() => "read".to_string(),
                None => "absent".to_string(),
            };
            (file, status)
        })
        .collect()
    }

    /// `portcullis policy` as text.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let repo = &self.repo;
        out.push_str(&format!("repository: {}", repo.root.display()));
        match &repo.git_dir {
            Some(dir) => out.push_str(&format!(" (git folder {})\n", dir.display())),
            None => out.push_str(" (not a git repository: rules are anchored here)\n"),
        }
        out.push_str("policy files:\n");
        for (file, status) in self.files() {
            out.push_str(&format!("  {file:<40} {status}\n"));
        }
        out.push_str(&format!(
            "dependencies: {}\ntrust: {}\n",
            if self.frozen() {
                "frozen"
            } else {
                "not frozen"
            },
            self.policy.trust.as_str()
        ));
        if let Some(m) = self.policy.gantry.as_ref().and_then(|g| g.mission.as_ref()) {
            out.push_str(&format!(
                "mission: {} (skill {})\n",
                m.id.as_deref().unwrap_or(&m.file),
                m.skill
            ));
        }
        let rows = self.rows();
        let rule_width = rows.iter().map(|r| r.rule.id().len()).max().unwrap_or(0);
        let path_width = rows
            .iter()
            .map(|r| r.path.chars().count())
            .max()
            .unwrap_or(0)
            .min(48);
        for (builtin, title) in [
            (false, "\nadded by this repository (a write there gets):\n"),
            (true, "\nbuilt in, always on (a write there gets):\n"),
        ] {
            out.push_str(title);
            let mut any = false;
            for row in rows.iter().filter(|r| r.builtin == builtin) {
                any = true;
                out.push_str(&format!(
                    "  {:<7} {:<rule_width$}  {:<path_width$}  {}\n",
                    row.verdict.as_str(),
                    row.rule,
                    row.path,
                    row.source
                ));
            }
            if !any {
                out.push_str("  (nothing)\n");
            }
        }
        out
    }

    /// `portcullis policy --json`.
    pub fn json(&self) -> Value {
        json!({
            "root": self.repo.root,
            "git_dir": self.repo.git_dir,
            "hooks_path": self.repo.hooks_paths.last(),
            "hooks_paths": self.repo.hooks_paths,
            "included_configs": self.repo.included_configs,
            "files": self.files().into_iter().map(|(file, status)| json!({"file": file, "status": status})).collect::<Vec<_>>(),
            "frozen": self.frozen(),
            "trust": self.policy.trust.as_str(),
            "mission": self.policy.gantry.as_ref().and_then(|g| g.mission.as_ref()).map(|m| json!({
                "file": m.file, "id": m.id, "skill": m.skill,
                "roots": m.roots.iter().map(|(r, from)| json!({"path": r, "from": from})).collect::<Vec<_>>(),
                "zones": m.zones.iter().map(|(z, from)| json!({"path": z, "from": from})).collect::<Vec<_>>(),
            })),
            "rows": self.rows().into_iter().map(|r| json!({
                "verdict": r.verdict.as_str(), "rule": r.rule.id(), "path": r.path, "source": r.source, "builtin": r.builtin,
            })).collect::<Vec<_>>(),
        })
    }
}
