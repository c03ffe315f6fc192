//! The edit lane: Claude Code's `Write`, `Edit`, `MultiEdit` and
//! `NotebookEdit` (and `Read`, for secrets), and the search tools
//! (`Grep`), judged by the same law as a shell command's write targets.
//!
//! Takes the tool's kind, path and content (when known) and the location;
//! returns a [`Decision`]; reads the file on disk to know what an `Edit`
//! would leave in it.

use super::trust::{trust_finding, trusted};
use crate::floor;
use crate::law::{self, Laws, Reach, Spot};
use crate::paths::{Location, Target};
use crate::rule_id::{Rule, RuleId};
use crate::verdict::{Decision, Finding, Verdict};
use std::path::{Path, PathBuf};

/// Which edit tool a request uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditKind {
    /// `Write`, `Edit`, `MultiEdit`, `NotebookEdit` (and OpenCode's
    /// write, edit and patch): the file is written.
    Write,
    /// `Read`: the file's content enters the model's context.
    Read,
}

/// What an edit tool's request says it leaves in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditContent {
    /// The whole new text (`Write`'s `content`).
    Whole(String),
    /// Replacements applied in order to the text on disk (`Edit`,
    /// `MultiEdit`).
    Replace(Vec<Replacement>),
}

/// One `old_string` → `new_string` of an `Edit`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replacement {
    /// The text replaced.
    pub old: String,
    /// What replaces it.
    pub new: String,
    /// Every occurrence (`replace_all`), else the first.
    pub all: bool,
}

impl EditContent {
    /// The text the edit would leave in `path`: `None` when it cannot be
    /// known (the file on disk unreadable, a text to replace not found, an
    /// empty one) or would be past the policy size limit (never built:
    /// the cost stays bounded by the request and the limit).
    fn result(&self, path: &Path) -> Option<Result<String, ()>> {
        let limit = crate::law::policy::MAX_POLICY_BYTES as usize;
        let edits = match self {
            EditContent::Whole(text) => return Some(Ok(text.clone())),
            EditContent::Replace(edits) => edits,
        };
        let mut text = crate::law::resolve::read_limited(path, limit as u64)
            .ok()
            .flatten()?;
        for edit in edits {
            if edit.old.is_empty() {
                return None;
            }
            let count = if edit.all {
                text.matches(edit.old.as_str()).count()
            } else {
                usize::from(text.contains(edit.old.as_str()))
            };
            if count == 0 {
                return None;
            }
            let grown = text.len() - count * edit.old.len() + count * edit.new.len();
            if grown > limit {
                return Some(Err(()));
            }
            text = if edit.all {
                text.replace(edit.old.as_str(), &edit.new)
            } else {
                text.replacen(edit.old.as_str(), &edit.new, 1)
            };
        }
        Some(Ok(text))
    }
}

/// Judges an edit tool's request on one file, its new content unknown
/// (see [`evaluate_edit_with`]).
pub fn evaluate_edit(kind: EditKind, path: &str, location: &Location, laws: &mut Laws) -> Decision {
    evaluate_edit_with(kind, path, None, location, laws)
}

/// A mission file's finding with the edit's content known: none when the
/// mission's law (contract, skill, id) is left as it is, BLOCKED when it
/// changes or could not be read afterwards; unchanged (SIGNED) when the
/// new content cannot be known.
fn mission_hit(
    mut hit: law::Hit,
    absolute: &Path,
    content: Option<&EditContent>,
) -> Option<law::Hit> {
    use crate::law::policy::mission_law;
    let Some(after) = content.and_then(|c| c.result(absolute)) else {
        return Some(hit);
    };
    let before =
        match crate::law::resolve::read_limited(absolute, crate::law::policy::MAX_POLICY_BYTES) {
            Ok(text) => mission_law(text.as_deref()),
            Err(e) => Err(e),
        };
    let after = match after {
        Ok(text) => mission_law(Some(&text)),
        Err(()) => Err("would be over the size limit for a policy file".to_string()),
    };
    let why = match (&before, &after) {
        (_, Err(e)) => format!("would leave a mission file the law cannot read (it {e})"),
        (Ok(b), Ok(a)) if a == b => return None,
        _ => "changes the mission's contract, skill_key or msn_id".to_string(),
    };
    hit.verdict = Verdict::Blocked;
    hit.reason = format!(
        "{}: {why}; the contract (edit roots and forbidden zones) is the person's law",
        absolute.display()
    );
    hit.remediation = "Leave the mission's contract, skill_key and msn_id as they are; to work outside them, record a context request (gantry context-request --path P --reason \"…\") and escalate to the Planner.".to_string();
    Some(hit)
}

/// Judges an edit tool's request on one file, with what the request says
/// it leaves there (`content`; `None`: unknown). A path the law allows is
/// FREE with rule `edit.allowed` (the hook prints nothing for it: the host
/// decides as usual). A mission file is judged by the contract the edit
/// would leave behind, compared with the one on disk.
pub fn evaluate_edit_with(
    kind: EditKind,
    path: &str,
    content: Option<&EditContent>,
    location: &Location,
    laws: &mut Laws,
) -> Decision {
    let shown = path.to_string();
    let absolute = match (Path::new(path).is_absolute(), &location.cwd) {
        (true, _) => Some(PathBuf::from(path)),
        (false, Some(cwd)) => Some(cwd.join(path)),
        (false, None) => None,
    };
    let mut findings = Vec::new();
    let push =
        |findings: &mut Vec<Finding>, verdict, rule: RuleId, reason: String, remediation: &str| {
            findings.push(Finding {
                verdict,
                rule,
                reason,
                remediation: remediation.to_string(),
                part: shown.clone(),
            });
        };
    match kind {
        EditKind::Read => {
            let name = absolute
                .as_deref()
                .map(|p| crate::paths::normalise(p).to_string_lossy().into_owned())
                .unwrap_or_else(|| shown.clone());
            if crate::secrets::file_read(&name).is_some() || crate::secrets::is_secret(&shown) {
                push(
                    &mut findings,
                    Verdict::Signed,
                    Rule::CageSecretsRead.into(),
                    format!(
                        "reads {shown}, which holds secrets; they would enter the model's context"
                    ),
                    SECRETS_REMEDIATION,
                );
            }
        }
        EditKind::Write => {
            let Some(absolute) = absolute else {
                push(
                    &mut findings,
                    Verdict::Signed,
                    Rule::EditUnresolved.into(),
                    format!("writes {shown}, a relative path with no working folder to resolve it"),
                    "Give the edit tool an absolute path.",
                );
                return Decision::from_findings(findings, path);
            };
            let spot = Spot::path(&absolute, &shown, Reach::Path, &mut laws.fs);
            let mut hits = laws.judge(&spot);
            // A `..` is read both ways: after the links before it (as the
            // kernel opens it) and by name (as a tool that cleans paths
            // first writes it); a file hard-linked to a protected one is
            // that file.
            let lexical = crate::paths::normalise(&absolute);
            let mut others = laws.hard_link_twins(
                &crate::law::resolve::resolve_links(&absolute),
                location.home.as_deref(),
            );
            if lexical != absolute {
                others.push(lexical);
            }
            for other in others {
                let also = Spot::path(&other, &shown, Reach::Path, &mut laws.fs);
                for hit in laws
                    .judge(&also)
                    .into_iter()
                    .chain(law::home_hits(&also, location.home.as_deref()))
                {
                    if !hits.iter().any(|h| h.rule == hit.rule) {
                        hits.push(hit);
                    }
                }
            }
            for hit in law::home_hits(&spot, location.home.as_deref()) {
                if !hits.iter().any(|h| h.rule == hit.rule) {
                    hits.push(hit);
                }
            }
            hits = hits
                .into_iter()
                .filter_map(|hit| {
                    if hit.rule == law::MISSION_CONTRACT_RULE {
                        mission_hit(hit, &absolute, content)
                    } else {
                        Some(hit)
                    }
                })
                .collect();
            for hit in hits {
                push(
                    &mut findings,
                    hit.verdict,
                    hit.rule.into(),
                    hit.reason,
                    &hit.remediation,
                );
            }
            let target = Target {
                path: Some(crate::paths::normalise(&absolute)),
                raw: shown.clone(),
                glob: false,
                dynamic: false,
                empty_var_hazard: None,
                physical: None,
                opaque: false,
            };
            for rule in floor::check_write_target(&target, location) {
                let info = rule.info();
                push(
                    &mut findings,
                    Verdict::Blocked,
                    rule.into(),
                    info.reason.to_string(),
                    info.remediation,
                );
            }
        }
    }
    if findings.is_empty() {
        push(
            &mut findings,
            Verdict::Free,
            Rule::EditAllowed.into(),
            format!("the path law has no rule against {shown}"),
            "",
        );
    }
    // Under restricted trust nothing may be written, whatever the law says.
    let verdict = Decision::from_findings(findings.clone(), path).verdict();
    let as_trust = if kind == EditKind::Write {
        verdict.max(Verdict::Signed)
    } else {
        verdict
    };
    if let Some(finding) = trust_finding(laws, as_trust, path) {
        findings.insert(0, finding);
    }
    Decision::from_findings(findings, path)
}

/// What to do instead of reading secrets.
const SECRETS_REMEDIATION: &str =
    "Ask the person for the one value you need, or read a template such as .env.example.";

/// Judges a search tool's request (Claude Code's `Grep`, OpenCode's
/// `grep`): a search over `path` (a file or a folder; the working folder
/// when absent), limited to files named by `glob`. A search over files of
/// credentials, or a folder that holds them (the home folder, `~/.ssh`,
/// `/etc`), is SIGNED `cage.secrets.read`; anything else is FREE
/// `search.allowed` (the hook prints nothing: the host decides as usual).
pub fn evaluate_search(
    path: Option<&str>,
    glob: Option<&str>,
    location: &Location,
    laws: &mut Laws,
) -> Decision {
    let shown = path.unwrap_or(".").to_string();
    let home = location.home.as_deref();
    let absolute = match path {
        Some(p) if p == "~" || p.starts_with("~/") => {
            home.map(|h| h.join(p.trim_start_matches('~').trim_start_matches('/')))
        }
        Some(p) if Path::new(p).is_absolute() => Some(PathBuf::from(p)),
        Some(p) => location.cwd.as_ref().map(|cwd| cwd.join(p)),
        None => location.cwd.clone(),
    };
    let finding = |verdict, rule: RuleId, reason: String, remediation: &str| Finding {
        verdict,
        rule,
        reason,
        remediation: remediation.to_string(),
        part: shown.clone(),
    };
    let mut findings = Vec::new();
    match absolute.map(|p| crate::paths::normalise(&p)) {
        None => findings.push(finding(
            Verdict::Signed,
            Rule::SearchUnresolved.into(),
            format!("searches {shown}, a relative path with no working folder to resolve it"),
            "Give the search tool an absolute path.",
        )),
        Some(root) => {
            let real = crate::law::resolve::resolve_links(&root);
            let found = [&root, &real]
                .iter()
                .find_map(|p| crate::secrets::search_read(&p.to_string_lossy(), glob, home));
            if let Some(why) = found {
                findings.push(finding(
                    Verdict::Signed,
                    Rule::CageSecretsRead.into(),
                    format!("{why}; they would enter the model's context"),
                    "Search the project's own folders, or ask the person for the one value you need.",
                ));
            }
        }
    }
    if findings.is_empty() {
        findings.push(finding(
            Verdict::Free,
            Rule::SearchAllowed.into(),
            format!("a search of {shown} reads no credentials"),
            "",
        ));
    }
    let label = shown.clone();
    let decision = Decision::from_findings(findings, &label);
    trusted(decision, laws, &label)
}
