//! Whether git would ignore a path: the `.gitignore` files on the way from
//! the repository root down to the path, and `info/exclude`.
//!
//! Takes a repository and a root-relative path; returns true when the last
//! matching pattern ignores it (or an ignored folder holds it). Reads only
//! the `.gitignore` of each folder on the path (no directory walk).
//! `core.excludesFile` and the global ignore file are not read: a path they
//! alone ignore counts as tracked, the stricter reading. Patterns are read
//! by the `ignore` crate's gitignore matcher, letters in their own case
//! as git reads them on Linux (`build/` does not ignore `BUILD/`).

use super::resolve::{Repository, read_small};
use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use std::path::Path;

/// The rules of one ignore file (its text), for paths below `base` (the
/// folder holding it, absolute), read as git reads them on Linux: letters
/// match in their own case. Lines the matcher refuses are skipped, as git
/// skips them.
fn rules_of(text: &str, base: &Path) -> Gitignore {
    let mut builder = GitignoreBuilder::new(base);
    builder.case_insensitive(false).ok();
    for line in text.lines() {
        let _ = builder.add_line(None, line);
    }
    builder.build().unwrap_or_else(|_| Gitignore::empty())
}

/// Whether git would ignore `rel` (root-relative) in `repo`; `is_folder`
/// when `rel` names a folder (rules ending in `/` match only folders).
pub fn is_ignored(repo: &Repository, rel: &str, is_folder: bool) -> bool {
    // Lowest precedence first: `info/exclude`, then each folder's
    // `.gitignore` from the root down.
    let mut rules = Vec::new();
    if let Some(git_dir) = &repo.git_dir
        && let Some(text) = read_small(&git_dir.join("info/exclude"))
    {
        rules.push(rules_of(&text, &repo.root));
    }
    let segments: Vec<&str> = rel.split('/').filter(|s| !s.is_empty()).collect();
    let mut here = repo.root.clone();
    for (depth, segment) in segments.iter().enumerate() {
        if let Some(text) = read_small(&here.join(".gitignore")) {
            rules.push(rules_of(&text, &here));
        }
        // Each folder on the way: once ignored, nothing below comes back.
        here.push(segment);
        let here_is_folder = depth + 1 < segments.len() || is_folder;
        if verdict(&rules, &here, here_is_folder) {
            return true;
        }
    }
    false
}

/// The most specific file with a matching rule decides, and in it the
/// last matching rule.
fn verdict(rules: &[Gitignore], path: &Path, is_folder: bool) -> bool {
    for file in rules.iter().rev() {
        // A file's rules only speak for paths below its folder.
        if !path.starts_with(file.path()) {
            continue;
        }
        match file.matched(path, is_folder) {
            Match::Ignore(_) => return true,
            Match::Whitelist(_) => return false,
            Match::None => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gitignore_semantics() {
        let root = Path::new("/r");
        let rules = [rules_of(
            "target/\n*.log\n/build\n!keep.log\ndocs/*.html\n",
            root,
        )];
        let at = |p: &str| root.join(p);
        assert!(verdict(&rules, &at("target"), true));
        assert!(!verdict(&rules, &at("target"), false));
        assert!(verdict(&rules, &at("a/b.log"), false));
        assert!(!verdict(&rules, &at("keep.log"), false));
        assert!(verdict(&rules, &at("build"), false));
        assert!(!verdict(&rules, &at("src/build"), false));
        assert!(verdict(&rules, &at("docs/x.html"), false));
        let nested = [rules_of("*.tmp\n", &root.join("src"))];
        assert!(verdict(&nested, &at("src/a/b.tmp"), false));
        assert!(!verdict(&nested, &at("b.tmp"), false));
    }

    #[test]
    fn letters_match_in_their_own_case_as_git_on_linux() {
        let root = Path::new("/r");
        let rules = [rules_of("build/\n", root)];
        assert!(verdict(&rules, &root.join("build"), true));
        assert!(!verdict(&rules, &root.join("BUILD"), true));
    }

    #[test]
    fn a_deeper_file_overrides_a_higher_one() {
        let root = Path::new("/r");
        let rules = [
            rules_of("*.log\n", root),
            rules_of("!keep.log\n", &root.join("src")),
        ];
        assert!(verdict(&rules, &root.join("a.log"), false));
        assert!(!verdict(&rules, &root.join("src/keep.log"), false));
    }
}
