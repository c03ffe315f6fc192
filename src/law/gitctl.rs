//! Git control, whole: every place through which git finds code to run or
//! a config to read. One table, `rules/law.json`'s `cage.git_control`:
//! its root-relative paths (`.git/config`, `.git/hooks`, `.git/info`,
//! `.git/worktrees`, `.git/modules` …) are judged like every
//! built-in rule; this module applies the same table to a git folder that
//! lies outside the work tree (a linked work tree's common folder, a
//! submodule's folder under the superproject's `.git/modules`), adds the
//! repository's `core.hooksPath` folder, and the `.git` name itself (the
//! `gitdir: …` file of a linked work tree or submodule, or one planted
//! where there was none).
//!
//! Takes a repository and write-target patterns; returns patterns, rows
//! and [`Hit`]s. Reads the `.git` file of a work tree (a small file).

use super::glob::Pattern;
use super::judge::{add, covers};
use super::resolve::{Repository, pointed_git_dir};
use super::spot::Spot;
use super::{Hit, Law};
use crate::rule_id::Rule;
use crate::rules::{PROTECTED_RULES, ProtectedRule};
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};

/// The rule id of git control.
pub const RULE: Rule = Rule::CageGitControl;

/// The name git looks for in every folder: a folder, or a `gitdir:` file.
const DOT_GIT: &str = ".git";

/// The built-in git-control rule of `rules/law.json`.
pub fn rule() -> Option<&'static ProtectedRule> {
    PROTECTED_RULES.iter().find(|r| r.rule == RULE)
}

/// The table's paths inside a git folder (`config`, `hooks`,
/// `modules` …): its `.git/…` paths with `.git/` taken off.
pub fn git_dir_entries() -> impl Iterator<Item = &'static str> {
    rule()
        .into_iter()
        .flat_map(|r| r.paths.iter())
        .filter_map(|p| p.strip_prefix(".git/"))
}

/// The git folders of a work tree that lie outside it: the folder its
/// `.git` file points at (`…/.git/worktrees/NAME`, `…/.git/modules/NAME`)
/// and the common folder it shares (`repo.git_dir`).
pub fn outside_git_dirs(repo: &Repository) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(dir) = &repo.git_dir
        && !dir.starts_with(&repo.root)
    {
        dirs.push(dir.clone());
    }
    if let Some(pointed) = pointed_git_dir(&repo.root)
        && !pointed.starts_with(&repo.root)
        && !dirs.iter().any(|d| pointed.starts_with(d))
    {
        dirs.push(pointed);
    }
    dirs
}

/// Every absolute control pattern of one repository beyond the root-relative
/// table: the table applied to its git folders outside the work tree, and
/// the active `core.hooksPath`.
pub fn controls(repo: &Repository) -> Vec<Pattern> {
    let mut patterns = Vec::new();
    for dir in outside_git_dirs(repo) {
        for entry in git_dir_entries() {
            let mut pattern = Pattern::literal(&format!("{}/", dir.to_string_lossy()));
            pattern.append(&Pattern::glob(entry));
            patterns.push(pattern);
        }
    }
    for hooks in &repo.hooks_paths {
        patterns.push(Pattern::literal(&hooks.to_string_lossy()));
    }
    for config in &repo.included_configs {
        patterns.push(Pattern::literal(&config.to_string_lossy()));
    }
    patterns
}

/// Whether a literal absolute path names a `.git` that is not a folder on
/// disk: the `gitdir: …` file of a linked work tree or submodule, or a new
/// one (`echo 'gitdir: /tmp/x' > sub/.git` makes `sub` a repository whose
/// config and hooks lie elsewhere).
fn names_git_file(form: &Pattern) -> bool {
    if !form.is_literal() {
        return false;
    }
    let path = form.literal_prefix();
    let named = Path::new(&path)
        .file_name()
        .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case(DOT_GIT));
    // A link named `.git` is a pointer too, whatever it points at.
    named && !std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_dir())
}

/// Adds the git-control finding to `hits` when one of the spot's `forms`
/// reaches a control of a loaded repository outside the root-relative
/// table, or names a `.git` file.
pub fn judge(laws: &[Law], forms: &[Pattern], spot: &Spot, hits: &mut Vec<Hit>) {
    let reached = forms.iter().any(names_git_file)
        || laws.iter().any(|law| {
            law.git_controls
                .iter()
                .any(|control| forms.iter().any(|f| covers(control, f, spot.reach, false)))
        });
    if !reached {
        return;
    }
    let Some(rule) = rule() else { return };
    add(
        hits,
        spot,
        Verdict::Blocked,
        RULE,
        "git control (a core.hooksPath or included config file git reads, a git folder outside the work tree, or a `.git` file that points at one)",
        rule.source,
        rule.remediation,
    );
}

/// The rows `portcullis policy` shows for one repository beyond the
/// table: each control with where it comes from.
pub fn rows(repo: &Repository) -> Vec<(String, String)> {
    let mut rows = Vec::new();
    for dir in outside_git_dirs(repo) {
        for entry in git_dir_entries() {
            rows.push((
                dir.join(entry).display().to_string(),
                "cage built-in rule git_control (the work tree's git folder)".to_string(),
            ));
        }
    }
    if pointed_git_dir(&repo.root).is_some() {
        rows.push((
            DOT_GIT.to_string(),
            "cage built-in rule git_control (the work tree's gitdir file)".to_string(),
        ));
    }
    for hooks in &repo.hooks_paths {
        rows.push((
            repo.relative(hooks)
                .unwrap_or_else(|| hooks.display().to_string()),
            "cage built-in rule git_control (a core.hooksPath git reads)".to_string(),
        ));
    }
    for config in &repo.included_configs {
        rows.push((
            repo.relative(config)
                .unwrap_or_else(|| config.display().to_string()),
            "cage built-in rule git_control (a config file git includes)".to_string(),
        ));
    }
    rows
}
