//! Which `core.hooksPath` folders and config files git reads for one
//! repository: the system config, the user's (`~/.gitconfig`,
//! `$XDG_CONFIG_HOME/git/config`), the repository's `config` and the work
//! tree's `config.worktree`, and every file they `[include]` or
//! `[includeIf]`, followed whatever the condition (a condition such as
//! `gitdir:` or `onbranch:` can change under the agent's hands).
//!
//! Takes the repository's git folders, root and home; returns every
//! hooksPath named anywhere (each may be the active one) and the included
//! files (writing one changes git's config). Bounded: at most
//! [`MAX_FILES`] files of 64 KiB each, includes at most [`MAX_DEPTH`]
//! deep, as git itself stops at 10.

use super::resolve::read_small;
use std::path::{Path, PathBuf};

/// Config files read for one repository, at most.
const MAX_FILES: usize = 32;
/// Includes followed inside includes, at most (git's own limit is 10).
const MAX_DEPTH: usize = 10;

/// What git's config files say about running code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GitConfig {
    /// Every `core.hooksPath` value, absolute, in the order git reads them
    /// (the last one is active when no condition intervenes).
    pub hooks_paths: Vec<PathBuf>,
    /// Files included by a config file (`[include] path = …`).
    pub included: Vec<PathBuf>,
}

/// Reads the config files of a repository whose common git folder is
/// `git_dir` and whose work tree's own git folder is `worktree_dir` (the
/// same for the main work tree), rooted at `root`, for a user whose home
/// is `home`.
pub fn read(git_dir: &Path, worktree_dir: &Path, root: &Path, home: Option<&Path>) -> GitConfig {
    let mut files: Vec<PathBuf> = vec![PathBuf::from("/etc/gitconfig")];
    if let Some(home) = home {
        let xdg = std::env::var_os("XDG_CONFIG_HOME")
            .filter(|x| !x.is_empty())
            .map_or_else(|| home.join(".config"), PathBuf::from);
        files.push(xdg.join("git/config"));
        files.push(home.join(".gitconfig"));
    }
    files.push(git_dir.join("config"));
    files.push(worktree_dir.join("config.worktree"));
    read_files(&files, root, home)
}

/// Reads `files` in order, with their includes.
fn read_files(files: &[PathBuf], root: &Path, home: Option<&Path>) -> GitConfig {
    let mut reader = Reader {
        config: GitConfig::default(),
        read: 0,
        root,
        home,
    };
    for file in files {
        reader.file(file, 0, false);
    }
    reader.config
}

struct Reader<'a> {
    config: GitConfig,
    read: usize,
    root: &'a Path,
    home: Option<&'a Path>,
}

impl Reader<'_> {
    fn file(&mut self, path: &Path, depth: usize, included: bool) {
        if depth > MAX_DEPTH || self.read >= MAX_FILES {
            return;
        }
        if included && !self.config.included.iter().any(|p| p == path) {
            self.config.included.push(path.to_path_buf());
        }
        self.read += 1;
        let Some(text) = read_small(path) else {
            return;
        };
        let dir = path.parent().unwrap_or(Path::new("/"));
        let mut section = String::new();
        for line in text.lines() {
            let mut line = line.trim();
            if let Some(rest) = line.strip_prefix('[') {
                let Some((header, after)) = rest.split_once(']') else {
                    continue;
                };
                section = header
                    .split(['"', ' ', '\t'])
                    .next()
                    .unwrap_or("")
                    .to_ascii_lowercase();
                // `[core] hooksPath = x` on one line.
                line = after.trim();
            }
            let Some((key, value)) = entry(line) else {
                continue;
            };
            match (section.as_str(), key.as_str()) {
                ("core", "hookspath") if !value.is_empty() => {
                    if let Some(path) = self.absolute(&value, self.root) {
                        self.config.hooks_paths.push(path);
                    }
                }
                ("include" | "includeif", "path") if !value.is_empty() => {
                    if let Some(path) = self.absolute(&value, dir) {
                        self.file(&path, depth + 1, true);
                    }
                }
                _ => {}
            }
        }
    }

    /// A config path made absolute: `~/` is the home folder, a relative
    /// path is relative to `base`.
    fn absolute(&self, value: &str, base: &Path) -> Option<PathBuf> {
        let path = match value.strip_prefix("~/") {
            Some(rest) => self.home?.join(rest),
            None => base.join(value),
        };
        Some(crate::paths::normalise(&path))
    }
}

/// One `key = value` line: the key lower-cased, the value unquoted, a
/// comment after it dropped.
fn entry(line: &str) -> Option<(String, String)> {
    if line.starts_with(['#', ';']) {
        return None;
    }
    let (key, value) = line.split_once('=')?;
    let key = key.trim().to_ascii_lowercase();
    let mut value = value.trim();
    if let Some(quoted) = value.strip_prefix('"') {
        value = quoted.split('"').next().unwrap_or("");
    } else {
        value = value.split([';', '#']).next().unwrap_or("").trim();
    }
    Some((key, value.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "portcullis-gitconfig-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("repo/.git")).unwrap();
        std::fs::create_dir_all(dir.join("home")).unwrap();
        dir
    }

    #[test]
    fn every_file_git_reads_and_every_include() {
        let dir = scratch("all");
        let repo = dir.join("repo");
        let git = repo.join(".git");
        let home = dir.join("home");
        std::fs::write(git.join("config"), "[core]\n\trepositoryformatversion = 0\n[include]\n\tpath = ../extra.cfg\n[includeIf \"gitdir:/nowhere/\"]\n\tpath = cond.cfg\n").unwrap();
        std::fs::write(repo.join("extra.cfg"), "[core]\n\thooksPath = inc-hooks\n").unwrap();
        std::fs::write(
            git.join("cond.cfg"),
            "[CORE] HooksPath = \"cond hooks\" ; why\n",
        )
        .unwrap();
        std::fs::write(git.join("config.worktree"), "[core] hooksPath = wt-hooks\n").unwrap();
        std::fs::write(
            home.join(".gitconfig"),
            "[core]\n\thooksPath = ~/global-hooks\n[include]\n\tpath = ~/more.cfg\n",
        )
        .unwrap();
        std::fs::write(
            home.join("more.cfg"),
            "[core]\n\thooksPath = /abs/hooks # x\n",
        )
        .unwrap();
        let files = [
            home.join(".gitconfig"),
            git.join("config"),
            git.join("config.worktree"),
        ];
        let config = read_files(&files, &repo, Some(&home));
        assert_eq!(
            config.hooks_paths,
            vec![
                home.join("global-hooks"),
                PathBuf::from("/abs/hooks"),
                repo.join("inc-hooks"),
                repo.join("cond hooks"),
                repo.join("wt-hooks"),
            ]
        );
        assert_eq!(
            config.included,
            vec![
                home.join("more.cfg"),
                repo.join("extra.cfg"),
                git.join("cond.cfg")
            ]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_include_loop_ends() {
        let dir = scratch("loop");
        let git = dir.join("repo/.git");
        std::fs::write(
            git.join("config"),
            "[include]\npath = config\n[core]\nhooksPath = h\n",
        )
        .unwrap();
        let config = read_files(&[git.join("config")], &dir.join("repo"), None);
        assert!(config.hooks_paths.len() <= MAX_FILES);
        assert!(!config.hooks_paths.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
