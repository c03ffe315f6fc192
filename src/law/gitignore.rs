//! Whether git would ignore a path: the `.gitignore` files on the way from
//! the repository root down to the path, and `info/exclude`.
//!
//! Takes a repository and a root-relative path; returns true when the last
//! matching pattern ignores it (or an ignored folder holds it). Reads only
//! the `.gitignore` of each folder on the path (no directory walk).
//! `core.excludesFile` and the global ignore file are not read: a path they
//! alone ignore counts as tracked, the stricter reading.

use super::glob::Pattern;
use super::resolve::{Repository, read_small};
use std::path::Path;

/// One pattern of a `.gitignore`.
struct Rule {
    pattern: Pattern,
    negated: bool,
    /// A trailing `/`: matches folders only.
    folder_only: bool,
}

/// The rules of one ignore file, for paths relative to `base` (the
/// folder holding it, root-relative, "" for the root).
fn rules_of(text: &str, base: &str) -> Vec<Rule> {
    let mut rules = Vec::new();
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (negated, line) = match line.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, line.strip_prefix('\\').unwrap_or(line)),
        };
        let folder_only = line.ends_with('/');
        let body = line.trim_end_matches('/');
        if body.is_empty() {
            continue;
        }
        // A slash at the start or in the middle anchors the pattern to the
        // file's folder; otherwise it matches a name at any depth below.
        let anchored = body.contains('/');
        let body = body.trim_start_matches('/');
        let prefix = if base.is_empty() {
            String::new()
        } else {
            format!("{}/", super::policy::escape_glob(base))
        };
        let glob = if anchored {
            format!("{prefix}{body}")
        } else {
            format!("{prefix}**/{body}")
        };
        rules.push(Rule {
            pattern: Pattern::glob(&glob),
            negated,
            folder_only,
        });
    }
    rules
}

/// Whether git would ignore `rel` (root-relative) in `repo`; `is_folder`
/// when `rel` names a folder (rules ending in `/` match only folders).
pub fn is_ignored(repo: &Repository, rel: &str, is_folder: bool) -> bool {
    let mut rules = Vec::new();
    if let Some(git_dir) = &repo.git_dir
        && let Some(text) = read_small(&git_dir.join("info/exclude"))
    {
        rules.extend(rules_of(&text, ""));
    }
    let segments: Vec<&str> = rel.split('/').filter(|s| !s.is_empty()).collect();
    let mut base = String::new();
    for (depth, segment) in segments.iter().enumerate() {
        if let Some(text) = read_small(&repo.root.join(Path::new(&base)).join(".gitignore")) {
            rules.extend(rules_of(&text, &base));
        }
        // Each folder on the way: once ignored, nothing below comes back.
        let here = if base.is_empty() {
            segment.to_string()
        } else {
            format!("{base}/{segment}")
        };
        let here_is_folder = depth + 1 < segments.len() || is_folder;
        if verdict(&rules, &here, here_is_folder) {
            return true;
        }
        base = here;
    }
    false
}

/// The last matching rule decides.
fn verdict(rules: &[Rule], path: &str, is_folder: bool) -> bool {
    let mut ignored = false;
    for rule in rules {
        if rule.folder_only && !is_folder {
            continue;
        }
        if rule.pattern.matches(path) {
            ignored = !rule.negated;
        }
    }
    ignored
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gitignore_semantics() {
        let rules = rules_of("target/\n*.log\n/build\n!keep.log\ndocs/*.html\n", "");
        assert!(verdict(&rules, "target", true));
        assert!(!verdict(&rules, "target", false));
        assert!(verdict(&rules, "a/b.log", false));
        assert!(!verdict(&rules, "keep.log", false));
        assert!(verdict(&rules, "build", false));
        assert!(!verdict(&rules, "src/build", false));
        assert!(verdict(&rules, "docs/x.html", false));
        let nested = rules_of("*.tmp\n", "src");
        assert!(verdict(&nested, "src/a/b.tmp", false));
        assert!(!verdict(&nested, "b.tmp", false));
    }
}
