//! Where a path really is: symbolic links resolved for the parts that
//! exist, the repository that holds it, and that repository's git folders.
//!
//! Takes absolute, lexically normalised paths; returns paths. Reads the
//! filesystem (`lstat`, `readlink`, a `.git` file, `.git/config`) and
//! never walks a directory's contents.

use crate::paths::normalise;
use std::path::{Component, Path, PathBuf};

/// Links followed for one path before giving up (as the kernel's 40).
const MAX_LINKS: usize = 40;

/// The path with every symbolic link among its existing parts resolved;
/// the parts that do not exist yet are kept as written. A link in the
/// project that points into `.git/hooks` comes back as `.git/hooks/…`. A
/// loop or a dangling link stops the resolution where it is.
pub fn resolve_links(path: &Path) -> PathBuf {
    let mut done = PathBuf::from("/");
    let mut pending: Vec<std::ffi::OsString> = parts(path);
    pending.reverse();
    let mut links = 0;
    while let Some(part) = pending.pop() {
        if part == ".." {
            done.pop();
            continue;
        }
        let next = done.join(&part);
        // `/proc/self`, `/proc/PID/cwd`, `/proc/PID/fd/N`: links only the
        // process that opens them can read; read here they would name the
        // guard's own folder and descriptors. Kept as written.
        let magic = done.starts_with("/proc");
        match std::fs::symlink_metadata(&next) {
            Ok(meta) if meta.file_type().is_symlink() && links < MAX_LINKS && !magic => {
                links += 1;
                let Ok(target) = std::fs::read_link(&next) else {
                    done = next;
                    continue;
                };
                if target.is_absolute() {
                    done = PathBuf::from("/");
                }
                let mut more = parts(&target);
                more.reverse();
                pending.extend(more);
            }
            Ok(_) => done = next,
            Err(_) => {
                // Nothing more exists below: keep the rest as written.
                done = next;
                while let Some(rest) = pending.pop() {
                    if rest == ".." {
                        done.pop();
                    } else {
                        done.push(rest);
                    }
                }
            }
        }
    }
    done
}

fn parts(path: &Path) -> Vec<std::ffi::OsString> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(p) => Some(p.to_os_string()),
            Component::ParentDir => Some("..".into()),
            _ => None,
        })
        .collect()
}

/// What one request (or one replay run) has learnt of the filesystem:
/// folders with their links resolved, and folders known to hold no `.git`.
/// Filled as targets are judged; a hook call is one process, so nothing
/// outlives the request it was read for.
#[derive(Debug, Default)]
pub struct FsCache {
    resolved: std::collections::HashMap<PathBuf, PathBuf>,
    no_git: std::collections::HashSet<PathBuf>,
    canonical: std::collections::HashMap<PathBuf, Result<PathBuf, std::io::ErrorKind>>,
    anchors: std::collections::HashMap<PathBuf, bool>,
}

/// How many paths each of [`FsCache`]'s maps keeps before it starts over.
const MAX_CANONICAL: usize = 4096;

impl FsCache {
    /// `path.canonicalize()`, remembered (with the kind of error when it
    /// fails: a missing file or folder). Replay asks for the working folder
    /// and the same script paths command after command.
    pub fn canonical(&mut self, path: &Path) -> Result<PathBuf, std::io::ErrorKind> {
        if let Some(known) = self.canonical.get(path) {
            return known.clone();
        }
        let real = path.canonicalize().map_err(|e| e.kind());
        if self.canonical.len() >= MAX_CANONICAL {
            self.canonical.clear();
        }
        self.canonical.insert(path.to_path_buf(), real.clone());
        real
    }

    /// [`resolve_links`], with the folder part remembered: one `lstat` for
    /// a target in a folder seen before.
    pub fn resolve(&mut self, path: &Path) -> PathBuf {
        let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else {
            return resolve_links(path);
        };
        let folder = match self.resolved.get(folder) {
            Some(real) => real.clone(),
            None => {
                let real = resolve_links(folder);
                if self.resolved.len() >= MAX_CANONICAL {
                    self.resolved.clear();
                }
                self.resolved.insert(folder.to_path_buf(), real.clone());
                real
            }
        };
        let candidate = folder.join(name);
        match std::fs::symlink_metadata(&candidate) {
            Ok(meta) if meta.file_type().is_symlink() => resolve_links(&candidate),
            _ => candidate,
        }
    }

    /// [`is_anchor`], remembered.
    pub fn is_anchor(&mut self, dir: &Path) -> bool {
        if let Some(&known) = self.anchors.get(dir) {
            return known;
        }
        let found = is_anchor(dir);
        if self.anchors.len() >= MAX_CANONICAL {
            self.anchors.clear();
        }
        self.anchors.insert(dir.to_path_buf(), found);
        found
    }

    /// How many folders [`FsCache::is_anchor`] has looked in.
    #[cfg(test)]
    pub fn anchors_looked_at(&self) -> usize {
        self.anchors.len()
    }

    /// Whether `dir` holds a `.git` (remembered when it does not).
    pub fn has_git(&mut self, dir: &Path) -> bool {
        if self.no_git.contains(dir) {
            return false;
        }
        let found = has_entry(dir, ".git");
        if !found {
            if self.no_git.len() >= MAX_CANONICAL {
                self.no_git.clear();
            }
            self.no_git.insert(dir.to_path_buf());
        }
        found
    }
}

/// A repository (or, outside any, the folder the law is anchored at).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repository {
    /// The work tree's root, as found (not link-resolved).
    pub root: PathBuf,
    /// The root with links resolved, when it differs.
    pub real_root: Option<PathBuf>,
    /// The git folder holding `config` and `hooks` (the common folder of a
    /// linked work tree), when there is one.
    pub git_dir: Option<PathBuf>,
    /// Every `core.hooksPath` a config file git reads names, absolute
    /// (any of them may be the active one).
    pub hooks_paths: Vec<PathBuf>,
    /// Config files included by the ones git reads (git control too).
    pub included_configs: Vec<PathBuf>,
}

/// The nearest folder at or above `start` that holds `.git` (a folder, or
/// a file of a linked work tree or submodule).
pub fn find_root(start: &Path) -> Option<PathBuf> {
    let exists = existing_len(start);
    start
        .ancestors()
        .skip_while(|dir| len_of(dir) > exists)
        .find(|dir| has_entry(dir, ".git"))
        .map(Path::to_path_buf)
}

/// Paths of fewer names than this are climbed folder by folder; longer
/// ones skip the folders that do not exist, found by [`existing_len`].
const BISECT_FROM: usize = 16;

/// An upper bound on the byte length of the folders above an absolute
/// `path` that exist (`lstat` asked): the path's own length when it has
/// fewer than [`BISECT_FROM`] names or is relative, else the length of its
/// longest leading part that exists (1 when only `/` does).
///
/// The kernel reads a path name by name and fails at the first that does
/// not resolve, so along the path existence changes once: it is found by
/// bisection, about log2(N) looks for N names. Without it, a write to
/// `~/.ssh/a/a/a/…/x` of thousands of made-up names would look for four
/// anchors in each of their folders, each look as long as its folder: a
/// cost that grows with the square of the command's length.
pub fn existing_len(path: &Path) -> usize {
    let bytes = as_bytes(path);
    if !bytes.starts_with(b"/") {
        return bytes.len();
    }
    // The ends of the leading parts, shortest first: each `/` after the
    // first byte, then the whole path.
    let ends: Vec<usize> = bytes
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, b)| **b == b'/')
        .map(|(at, _)| at)
        .chain(std::iter::once(bytes.len()))
        .collect();
    if ends.len() < BISECT_FROM {
        return bytes.len();
    }
    let exists = |end: usize| {
        bytes
            .get(..end)
            .is_some_and(|part| std::fs::symlink_metadata(path_of(part)).is_ok())
    };
    // ends[..found] exist, ends[missing..] do not; between them, unknown.
    let (mut found, mut missing) = (0, ends.len());
    while found < missing {
        let mid = found + (missing - found) / 2;
        match ends.get(mid) {
            Some(&end) if exists(end) => found = mid + 1,
            _ => missing = mid,
        }
    }
    found
        .checked_sub(1)
        .and_then(|last| ends.get(last).copied())
        .unwrap_or(1)
}

fn len_of(path: &Path) -> usize {
    path.as_os_str().len()
}

/// The folders above `start` (as [`folders_above`]) that can hold an
/// entry: those that do not exist are skipped unlooked at (see
/// [`existing_len`]).
pub fn existing_folders_above(start: &Path) -> impl Iterator<Item = &Path> {
    let exists = existing_len(start);
    folders_above(start).skip_while(move |dir| len_of(dir) > exists)
}

/// Files whose presence makes a folder hold a law of its own outside git
/// (a project that is not a repository keeps its policy at its top).
/// Folders count (`.gitagent`, `.veritas-kanban`): one look each.
const POLICY_ANCHORS: &[&str] = &[".cage.yaml", ".gitagent", ".veritas-kanban"];

/// Whether `dir` holds a `.git` or a policy file: a law is anchored there.
pub fn is_anchor(dir: &Path) -> bool {
    std::iter::once(".git")
        .chain(POLICY_ANCHORS.iter().copied())
        .any(|name| has_entry(dir, name))
}

/// Whether `dir` holds a policy file (not only a `.git`).
pub fn holds_policy(dir: &Path) -> bool {
    POLICY_ANCHORS.iter().any(|name| has_entry(dir, name))
}

/// Whether `dir` holds an entry `name` (a plain name: no `/`), a link
/// counted as itself: `symlink_metadata(dir.join(name))`, with the path
/// built on the stack. Every hook call asks this of each folder above its
/// working folder, for four names; a `join` costs two allocations.
pub fn has_entry(dir: &Path, name: &str) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let dir = dir.as_os_str().as_bytes();
    let mut buffer = [0u8; 256];
    let slash = usize::from(!dir.is_empty() && !dir.ends_with(b"/"));
    let len = dir.len() + slash + name.len();
    let built = buffer.get_mut(..len).map(|out| {
        let (head, tail) = out.split_at_mut(dir.len());
        head.copy_from_slice(dir);
        let (sep, rest) = tail.split_at_mut(slash);
        sep.fill(b'/');
        rest.copy_from_slice(name.as_bytes());
        &*out
    });
    match built {
        Some(path) => {
            std::fs::symlink_metadata(Path::new(std::ffi::OsStr::from_bytes(path))).is_ok()
        }
        None => std::fs::symlink_metadata(Path::new(std::ffi::OsStr::from_bytes(dir)).join(name))
            .is_ok(),
    }
}

/// The folders above `start` a law may be anchored in, nearest first: up
/// to the home folder that holds `start` (`/home/NAME`, `/Users/NAME`,
/// `/root`, or `$HOME`), else up to (not including) `/`. When `start` is
/// itself such a home folder, up to `/`.
///
/// The path law asks this for every path a command names: a plain path
/// (absolute, no empty, `.` or `..` parts, no trailing `/`) is climbed by
/// its bytes; any other by `Path::ancestors`, with the same answers.
pub fn folders_above(start: &Path) -> FoldersAbove<'_> {
    let bytes = start.as_os_str().as_encoded_bytes();
    if !is_plain(bytes) || crate::home::home_folder().is_some_and(|h| !is_plain(as_bytes(h))) {
        return FoldersAbove::General(Box::new(general_folders_above(start)));
    }
    // The nearest home folder at or above `start`; at `start` itself, none
    // is met on the way up.
    let stop = std::iter::once(bytes.len())
        .chain(slash_positions(bytes))
        .find(|&end| bytes.get(..end).is_some_and(is_home_folder));
    FoldersAbove::Plain {
        bytes,
        end: bytes.len(),
        stop: stop.filter(|&end| end < bytes.len()),
    }
}

/// The folders above a path, nearest first (see [`folders_above`]).
pub enum FoldersAbove<'a> {
    /// A plain path, climbed by its bytes.
    Plain {
        /// The start's bytes.
        bytes: &'a [u8],
        /// The length of the folder yielded last (at first, the start's).
        end: usize,
        /// The length of the home folder the climb ends at.
        stop: Option<usize>,
    },
    /// Any other path, climbed by `Path::ancestors`.
    General(Box<dyn Iterator<Item = &'a Path> + 'a>),
}

impl<'a> Iterator for FoldersAbove<'a> {
    type Item = &'a Path;

    fn next(&mut self) -> Option<&'a Path> {
        match self {
            FoldersAbove::General(iter) => iter.next(),
            FoldersAbove::Plain { bytes, end, stop } => {
                if *stop == Some(*end) {
                    return None;
                }
                // The parent ends at the last `/`; `/` itself is not yielded.
                let parent = bytes.get(..*end)?.iter().rposition(|b| *b == b'/')?;
                *end = parent;
                bytes.get(..parent).filter(|p| !p.is_empty()).map(path_of)
            }
        }
    }
}

fn as_bytes(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

fn path_of(bytes: &[u8]) -> &Path {
    // SAFETY: `bytes` is a prefix of a path's encoded bytes ending just
    // before an ASCII `/`, which is a valid split point of that encoding.
    Path::new(unsafe { std::ffi::OsStr::from_encoded_bytes_unchecked(bytes) })
}

/// Absolute, with no empty, `.` or `..` part and no trailing `/`.
pub fn is_plain(bytes: &[u8]) -> bool {
    bytes.len() > 1
        && bytes.strip_prefix(b"/").is_some_and(|rest| {
            rest.split(|b| *b == b'/')
                .all(|part| !part.is_empty() && part != b"." && part != b"..")
        })
}

/// The ends of `bytes`' folders above it, nearest first (`/` excluded).
fn slash_positions(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    bytes
        .iter()
        .enumerate()
        .rev()
        .filter(|(at, b)| **b == b'/' && *at > 0)
        .map(|(at, _)| at)
}

/// `$HOME`, `/root`, or a folder right inside `/home` or `/Users`; of a
/// plain path.
fn is_home_folder(dir: &[u8]) -> bool {
    let env_home = crate::home::home_folder().map(as_bytes);
    env_home == Some(dir)
        || dir == b"/root"
        || [&b"/home/"[..], b"/Users/"].iter().any(|top| {
            dir.strip_prefix(*top)
                .is_some_and(|name| !name.is_empty() && !name.contains(&b'/'))
        })
}

/// [`folders_above`] by `Path::ancestors`, for any path.
fn general_folders_above(start: &Path) -> impl Iterator<Item = &Path> {
    let env_home = crate::home::home_folder();
    let stop = start.ancestors().find(|dir| {
        env_home == Some(*dir)
            || dir
                .parent()
                .is_some_and(|p| p == Path::new("/home") || p == Path::new("/Users"))
            || *dir == Path::new("/root")
    });
    let stop = stop.map(Path::to_path_buf);
    let mut done = false;
    start.ancestors().skip(1).take_while(move |dir| {
        if done || dir.parent().is_none() {
            return false;
        }
        if stop.as_deref() == Some(*dir) {
            done = true;
        }
        true
    })
}

impl Repository {
    /// The repository holding `cwd`; outside any, the nearest folder at or
    /// above it holding a policy file (up to the home folder), or `cwd`
    /// itself (as the cage anchors itself).
    pub fn at(cwd: &Path) -> Repository {
        let root = find_root(cwd)
            .or_else(|| {
                std::iter::once(cwd)
                    .chain(existing_folders_above(cwd))
                    .find(|dir| holds_policy(dir))
                    .map(Path::to_path_buf)
            })
            .unwrap_or_else(|| cwd.to_path_buf());
        Repository::with_root(root)
    }

    /// A repository whose root is known.
    pub fn with_root(root: PathBuf) -> Repository {
        let real = resolve_links(&root);
        let git_dir = git_dir_of(&root);
        let home = crate::home::home_folder();
        let config = git_dir.as_deref().map(|common| {
            let own = pointed_git_dir(&root).unwrap_or_else(|| common.to_path_buf());
            super::gitconfig::read(common, &own, &root, home)
        });
        let config = config.unwrap_or_default();
        Repository {
            real_root: (real != root).then_some(real),
            root,
            git_dir,
            hooks_paths: config.hooks_paths,
            included_configs: config.included,
        }
    }

    /// `path` relative to the root (`src/a.rs`), trying the root as found
    /// and as resolved; `None` when it is outside. The root itself is "".
    pub fn relative(&self, path: &Path) -> Option<String> {
        std::iter::once(&self.root)
            .chain(self.real_root.as_ref())
            .find_map(|root| path.strip_prefix(root).ok())
            .map(|rel| rel.to_string_lossy().into_owned())
    }
}

/// The folder git keeps `config` and `hooks` in for the work tree at
/// `root`: `root/.git`, or where a `.git` file points (its `commondir` for
/// a linked work tree).
fn git_dir_of(root: &Path) -> Option<PathBuf> {
    let dot_git = root.join(".git");
    let meta = std::fs::symlink_metadata(&dot_git).ok()?;
    if meta.is_dir() {
        return Some(dot_git);
    }
    let text = read_small(&dot_git)?;
    let pointed = text.trim().strip_prefix("gitdir:")?.trim();
    let dir = normalise(&root.join(pointed));
    match read_small(&dir.join("commondir")) {
        Some(common) => Some(normalise(&dir.join(common.trim()))),
        None => Some(dir),
    }
}

/// Where the `.git` file of the work tree at `root` points, when it is a
/// file (`gitdir: PATH`, relative to `root`): the work tree's own git
/// folder (under `.git/worktrees/` for a linked work tree), where its
/// `config.worktree` is read.
pub fn pointed_git_dir(root: &Path) -> Option<PathBuf> {
    let dot_git = root.join(".git");
    if std::fs::symlink_metadata(&dot_git).ok()?.is_dir() {
        return None;
    }
    let text = read_small(&dot_git)?;
    let pointed = text.trim().strip_prefix("gitdir:")?.trim();
    Some(normalise(&root.join(pointed)))
}

/// A small text file (policy files, `.git` pointers): `None` when missing,
/// unreadable, not UTF-8 or over `limit`.
pub fn read_small(path: &Path) -> Option<String> {
    read_limited(path, 64 * 1024).ok().flatten()
}

/// Reads a file of at most `limit` bytes: `Ok(None)` when it does not
/// exist, an error when it cannot be read, is larger, or is not UTF-8.
pub fn read_limited(path: &Path, limit: u64) -> Result<Option<String>, String> {
    use std::io::Read;
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot be read: {e}")),
    };
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot be read: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!("is larger than {limit} bytes"));
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| "is not UTF-8".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `has_entry` answers as `symlink_metadata(dir.join(name))` does: for
    /// a folder with and without a trailing `/`, `/`, the empty (relative)
    /// folder, a dangling link, and a path too long for its stack buffer.
    #[test]
    fn has_entry_agrees_with_join() {
        let dir = std::env::temp_dir().join(format!("portcullis-entry-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let deep = dir.join("d".repeat(120)).join("e".repeat(120));
        std::fs::create_dir_all(deep.join(".git")).unwrap();
        std::fs::write(dir.join(".cage.yaml"), "").unwrap();
        std::os::unix::fs::symlink("nowhere", dir.join(".gitagent")).unwrap();
        let with_slash = format!("{}/", dir.display());
        for folder in [
            dir.as_path(),
            Path::new(&with_slash),
            Path::new("/"),
            Path::new(""),
            &deep,
        ] {
            for name in [
                ".git",
                ".cage.yaml",
                ".gitagent",
                ".veritas-kanban",
                "tmp",
                "etc",
            ] {
                assert_eq!(
                    has_entry(folder, name),
                    std::fs::symlink_metadata(folder.join(name)).is_ok(),
                    "{folder:?} {name}"
                );
            }
        }
        assert!(deep.as_os_str().len() > 256 && has_entry(&deep, ".git"));
        assert!(has_entry(&dir, ".gitagent"), "a dangling link is an entry");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `existing_len` finds what a walk from `/` down to the first name
    /// that does not exist finds: for short and long paths, names that
    /// exist at every depth, a file with names below it, a dangling link,
    /// `..` after a missing name, and a path past PATH_MAX.
    #[test]
    fn existing_len_agrees_with_a_walk_down() {
        let dir = std::env::temp_dir().join(format!("portcullis-exists-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let deep = (0..40).fold(dir.clone(), |p, i| p.join(format!("d{i}")));
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("file"), "").unwrap();
        std::os::unix::fs::symlink("nowhere", deep.join("dangling")).unwrap();
        let walk = |path: &Path| {
            let bytes = as_bytes(path);
            let ends = (1..bytes.len())
                .filter(|&i| bytes.get(i) == Some(&b'/'))
                .chain([bytes.len()]);
            let mut longest = 1;
            for end in ends {
                let part = bytes.get(..end).map(path_of);
                if part.is_none_or(|p| std::fs::symlink_metadata(p).is_err()) {
                    break;
                }
                longest = end;
            }
            longest
        };
        let text = deep.to_string_lossy().into_owned();
        let mut paths: Vec<String> = vec![
            text.clone(),
            format!("{text}/file"),
            format!("{text}/file/below/and/more"),
            format!("{text}/dangling/x"),
            format!("{text}/missing/../d40"),
            format!("{text}/{}", "m/".repeat(30)),
            format!("{text}/{}", "long-name/".repeat(600)),
            format!("/{}", "nowhere/".repeat(20)),
        ];
        for depth in [3, 10, 17, 25, 39] {
            let cut: String = text.split("/d").take(depth).collect::<Vec<_>>().join("/d");
            paths.push(format!("{cut}/missing/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q"));
        }
        for path in &paths {
            let path = Path::new(path);
            let names = as_bytes(path).iter().filter(|b| **b == b'/').count();
            let expected = if names < BISECT_FROM {
                as_bytes(path).len()
            } else {
                walk(path)
            };
            assert_eq!(existing_len(path), expected, "{}", path.display());
        }
        assert_eq!(existing_len(Path::new("relative/a")), "relative/a".len());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn folders_above_climbs_plain_paths_as_ancestors_do() {
        let home = crate::home::home_folder()
            .map(|h| h.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut paths: Vec<String> = [
            "/",
            "/a",
            "/a/b",
            "/home",
            "/home/u",
            "/home/u/a/b",
            "/homes/u/a",
            "/home/u/",
            "/Users/me/p/q",
            "/root",
            "/root/x",
            "/rootx/y",
            "/srv//x/y",
            "/srv/./x",
            "/a/../b",
            "a/b",
            "",
            "/home/u/.",
            "/x/home/u/y",
            "/Users",
            "/Users/a/b/c/d/e/f",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        paths.push(home.clone());
        paths.push(format!("{home}/project/src"));
        paths.push(format!("{home}/a/{home}/b"));
        for path in &paths {
            let path = Path::new(path);
            let fast: Vec<&Path> = folders_above(path).collect();
            let general: Vec<&Path> = general_folders_above(path).collect();
            assert_eq!(fast, general, "{}", path.display());
        }
        assert!(matches!(
            folders_above(Path::new("/home/u/a")),
            FoldersAbove::Plain { .. }
        ));
    }

    #[test]
    fn folders_above_stop_at_the_home_folder() {
        let above: Vec<&Path> = folders_above(Path::new("/home/u/a/b/c")).collect();
        assert_eq!(
            above,
            [
                Path::new("/home/u/a/b"),
                Path::new("/home/u/a"),
                Path::new("/home/u")
            ]
        );
        let above: Vec<&Path> = folders_above(Path::new("/srv/x/y")).collect();
        assert_eq!(above, [Path::new("/srv/x"), Path::new("/srv")]);
        assert_eq!(folders_above(Path::new("/")).count(), 0);
        let proc_path = resolve_links(Path::new("/proc/self/cwd/x"));
        assert_eq!(proc_path, PathBuf::from("/proc/self/cwd/x"));
    }

    #[test]
    fn links_of_existing_parts_are_resolved() {
        let dir = std::env::temp_dir().join(format!("portcullis-resolve-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(".git/hooks")).unwrap();
        std::os::unix::fs::symlink(dir.join(".git/hooks"), dir.join("tools")).unwrap();
        std::os::unix::fs::symlink("loop", dir.join("loop")).unwrap();
        let real = resolve_links(&dir);
        assert_eq!(
            resolve_links(&dir.join("tools/pre-commit")),
            real.join(".git/hooks/pre-commit")
        );
        assert_eq!(resolve_links(&dir.join("new/x")), real.join("new/x"));
        assert_eq!(resolve_links(&dir.join("loop/x")), real.join("loop/x"));
        std::fs::write(dir.join(".git/config"), "[core]\n\thooksPath = .githooks\n").unwrap();
        let repo = Repository::at(&dir.join("src"));
        assert_eq!(repo.root, dir);
        assert_eq!(repo.hooks_paths, vec![dir.join(".githooks")]);
        assert_eq!(
            repo.relative(&dir.join("src/a.rs")).as_deref(),
            Some("src/a.rs")
        );
        assert_eq!(repo.relative(Path::new("/elsewhere")), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
