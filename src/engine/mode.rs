//! The host's permission mode (`permission_mode` in Claude Code's and
//! Codex's requests) and what it changes in a shell command's decision.
//!
//! Under `acceptEdits` the host's own edit tools write files inside the
//! project unasked, so a shell command that does no more (a redirection
//! into a file, `tee`, `touch`, `mkdir`, `cp`, `sed -i`: the ids of
//! `rules/modes.json`) is FREE `mode.accept-edits` too, when every file it
//! writes is an ordinary file or a new path inside the project and nothing
//! else (the path law, the floor, a secret read, an unknown program)
//! objects. Under `plan` (read-only) a FREE command that does more than
//! look (a build, a test, a formatter) is UNKNOWN `mode.plan`: left to the
//! host, which refuses it there. Every other mode changes nothing.
//!
//! Takes the findings and the write targets the run collected; returns
//! the findings to decide on.

use super::Run;
use crate::rule_id::{Rule, RuleId};
use crate::rules::MODE_ACCEPT_EDITS;
use crate::verdict::{Finding, Verdict};
use std::path::{Component, Path, PathBuf};

/// The permission mode a request names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PermissionMode {
    /// `default`, no mode, or one portcullis does not act on.
    #[default]
    Default,
    /// `plan`: read-only planning.
    Plan,
    /// `acceptEdits`: the host's edit tools write without asking.
    AcceptEdits,
}

impl PermissionMode {
    /// The mode a request's `permission_mode` names (`None`: none).
    pub fn named(name: Option<&str>) -> PermissionMode {
        match name {
            Some("plan") => PermissionMode::Plan,
            Some("acceptEdits") => PermissionMode::AcceptEdits,
            _ => PermissionMode::Default,
        }
    }

    /// The name as hosts spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            PermissionMode::Default => "default",
            PermissionMode::Plan => "plan",
            PermissionMode::AcceptEdits => "acceptEdits",
        }
    }
}

/// How many write targets are looked at on disk, at most; a command that
/// writes more is left as it is.
pub(super) const MAX_EDITS: usize = 64;

impl Run<'_> {
    /// `findings` under `acceptEdits` (see the module doc): unchanged
    /// unless every objection is a write `rules/modes.json` lists and every
    /// write target lies inside the project.
    pub(super) fn accept_edits(&mut self, findings: Vec<Finding>, command: &str) -> Vec<Finding> {
        let objections = || findings.iter().filter(|f| f.verdict > Verdict::Free);
        let lifted = objections().count() > 0
            && objections().all(|f| f.verdict == Verdict::Signed && is_edit_rule(&f.rule))
            && !self.edits.is_empty()
            && self.edits.len() <= MAX_EDITS
            && project_root(self.location.cwd.as_deref()).is_some_and(|root| {
                self.edits
                    .iter()
                    .all(|edit| edit.as_deref().is_some_and(|p| ordinary_inside(p, &root)))
            });
        self.note(0, || {
            format!(
                "permission mode acceptEdits: {}",
                if lifted {
                    "every objection is a write of ordinary files inside the project: FREE"
                } else {
                    "not every objection is a write of ordinary files inside the project: unchanged"
                }
            )
        });
        if !lifted {
            return findings;
        }
        let mut kept: Vec<Finding> = findings
            .into_iter()
            .filter(|f| f.verdict == Verdict::Free)
            .collect();
        // First: among FREE findings the first decides, and this one says
        // why the writes run.
        kept.insert(0, super::finding(
            Verdict::Free,
            Rule::ModeAcceptEdits,
            "the host is in acceptEdits mode, and the command only writes ordinary files inside the project, as the host's own edit tools may there".to_string(),
            "",
            command,
        ));
        kept
    }
}

/// `findings` under `plan`: a FREE decision whose FREE findings do more
/// than look gets UNKNOWN `mode.plan` first, so the host's plan mode
/// decides (it refuses what is not read-only); anything else is unchanged.
pub(super) fn under_plan(mut findings: Vec<Finding>, command: &str) -> Vec<Finding> {
    let free = findings.iter().all(|f| f.verdict == Verdict::Free);
    if free && !only_looks(&findings) {
        findings.insert(0, super::finding(
            Verdict::Unknown,
            Rule::ModePlan,
            "the host is in plan mode, which only looks, and this command does more (it builds, tests, formats or runs code): the host's plan mode decides".to_string(),
            "Plan without running it, or leave plan mode to run it.",
            command,
        ));
    }
    findings
}

/// Whether every FREE finding only looks: the lexicon's `inspect` class,
/// inline code that only computes, an empty command, a function, a
/// recipe read, a venv's activation.
fn only_looks(findings: &[Finding]) -> bool {
    use crate::rule_id::InlineRule;
    findings
        .iter()
        .filter(|f| f.verdict == Verdict::Free)
        .all(|f| match &f.rule {
            RuleId::Lexicon(rule) => {
                crate::lexicon::class_of(rule) == Some(crate::verdict::Effect::Inspect)
            }
            RuleId::Inline(_, InlineRule::Pure) => true,
            RuleId::Fixed(rule) => matches!(
                rule,
                Rule::VerbEmpty | Rule::VerbFunction | Rule::RecipeRead | Rule::ScriptVenvActivate
            ),
            _ => false,
        })
}

/// Whether `rule` is one `acceptEdits` lifts.
fn is_edit_rule(rule: &RuleId) -> bool {
    let id = rule.to_string();
    MODE_ACCEPT_EDITS.contains(&id.as_str())
}

/// The project a request runs in: the repository holding its working
/// folder, else the working folder; canonical.
pub(super) fn project_root(cwd: Option<&Path>) -> Option<PathBuf> {
    let cwd = std::fs::canonicalize(cwd?).ok()?;
    Some(crate::law::resolve::find_root(&cwd).unwrap_or(cwd))
}

/// Whether `path` (absolute) is inside `root` (canonical) as the kernel
/// resolves it, and is an ordinary file, a folder, or not there yet; never
/// a link, a device or a fifo. The nearest folder that exists is resolved
/// on disk; the names below it must be plain (no `..`).
pub(super) fn ordinary_inside(path: &Path, root: &Path) -> bool {
    if !path.is_absolute() {
        return false;
    }
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !(meta.file_type().is_file() || meta.file_type().is_dir()) => return false,
        // A file with a second name may be one outside the project.
        Ok(meta)
            if meta.file_type().is_file() && std::os::unix::fs::MetadataExt::nlink(&meta) > 1 =>
        {
            return false;
        }
        Ok(_) => {
            return std::fs::canonicalize(path)
                .is_ok_and(|real| real.starts_with(root) && real != root);
        }
        Err(_) => {}
    }
    let mut missing = Vec::new();
    let mut existing = path;
    loop {
        match existing.parent() {
            Some(parent) => {
                missing.push(existing.file_name());
                existing = parent;
                if std::fs::symlink_metadata(existing).is_ok() {
                    break;
                }
            }
            None => return false,
        }
    }
    let plain = missing.iter().all(|name| {
        name.is_some_and(|n| matches!(Path::new(n).components().next(), Some(Component::Normal(_))))
    });
    plain
        && std::fs::canonicalize(existing).is_ok_and(|real| {
            real.starts_with(root) && std::fs::metadata(&real).is_ok_and(|m| m.is_dir())
        })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_id_names_a_rule_of_the_engine_or_the_lexicon() {
        for id in MODE_ACCEPT_EDITS {
            let known = Rule::from_id(id).is_some()
                || id.strip_prefix("lexicon.").is_some_and(|path| {
                    let mut parts = path.split('.');
                    let verb = parts.next().and_then(crate::rules::lexicon_entry);
                    verb.is_some_and(|mut spec| {
                        parts.all(|part| match spec.sub(part) {
                            Some(sub) => {
                                spec = sub;
                                true
                            }
                            None => spec.flags().iter().any(|f| f.id.get() == part),
                        })
                    })
                });
            assert!(known, "rules/modes.json: `{id}` names no rule");
        }
    }

    #[test]
    fn modes_by_name() {
        assert_eq!(
            PermissionMode::named(Some("acceptEdits")),
            PermissionMode::AcceptEdits
        );
        assert_eq!(PermissionMode::named(Some("plan")), PermissionMode::Plan);
        for other in [
            None,
            Some("default"),
            Some("bypassPermissions"),
            Some("acceptedits"),
        ] {
            assert_eq!(PermissionMode::named(other), PermissionMode::Default);
        }
    }

    #[test]
    fn inside_means_inside_as_resolved() {
        let dir = std::env::temp_dir().join(format!("portcullis-mode-{}", std::process::id()));
        let root = dir.join("proj");
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("src/a.txt"), "a").unwrap();
        std::os::unix::fs::symlink("/etc", root.join("out")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", root.join("pw")).unwrap();
        std::fs::write(dir.join("outside.txt"), "x").unwrap();
        std::fs::hard_link(dir.join("outside.txt"), root.join("twin.txt")).unwrap();
        let root = std::fs::canonicalize(&root).unwrap();
        assert!(ordinary_inside(&root.join("src/a.txt"), &root));
        assert!(ordinary_inside(&root.join("src/new.txt"), &root));
        assert!(ordinary_inside(&root.join("new/dir/x.txt"), &root));
        assert!(!ordinary_inside(&root.join("out/x.txt"), &root));
        assert!(!ordinary_inside(&root.join("pw"), &root));
        assert!(!ordinary_inside(&root.join("twin.txt"), &root));
        assert!(!ordinary_inside(&root.join("../x.txt"), &root));
        assert!(!ordinary_inside(&root.join("new/../../x.txt"), &root));
        assert!(!ordinary_inside(&root, &root));
        assert!(!ordinary_inside(Path::new("/dev/null"), &root));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
