//! Paths named by a command: resolved against the working folder and the
//! home folder, normalised, and placed (root, home, system folder, device…).
//!
//! Takes a decoded [`Word`] and a [`Place`]-free context (cwd, home) and
//! returns a [`Target`]. Nothing here touches the filesystem; the path law
//! (a later stage) resolves symbolic links.

use crate::shell::Word;
use std::path::{Component, Path, PathBuf};

/// Where a request runs: its working folder and the user's home folder.
#[derive(Clone, Debug, Default)]
pub struct Location {
    /// The working folder, when known.
    pub cwd: Option<PathBuf>,
    /// The home folder, when known.
    pub home: Option<PathBuf>,
}

/// A path a command names, as far as it can be known.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// The absolute, normalised path; `None` when it depends on run time.
    pub path: Option<PathBuf>,
    /// As written.
    pub raw: String,
    /// Contains a glob or brace expansion.
    pub glob: bool,
    /// Contains an expansion whose value is only known at run time.
    pub dynamic: bool,
    /// Starts with an unknown variable directly followed by `/`, so an empty
    /// value would make it an absolute path (`"$DIR/"*` → `/*`).
    pub empty_var_hazard: Option<PathBuf>,
}

/// What kind of place a target is, for the floor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// `/` itself.
    Root,
    /// Everything directly in `/` (`/*`).
    RootContents,
    /// The home folder itself.
    Home,
    /// Everything directly in the home folder (`~/*`).
    HomeContents,
    /// A system folder or something directly inside one.
    System,
    /// A block device or kernel memory.
    Device,
    /// Anything else, including paths that cannot be known.
    Ordinary,
}

/// Folders whose deletion or recursive permission change breaks the system.
/// The floor covers each one and its direct contents (`/usr/lib`,
/// `/usr/bin/python3`); deeper paths (`/var/lib/docker`,
/// `/usr/local/bin/tool`) are admin work, SIGNED. Sorted; checked by a test.
#[rustfmt::skip]
const SYSTEM_FOLDERS: &[&str] = &[
    "/Applications", "/Library", "/System", "/System/Library", "/Users", "/Volumes",
    "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32",
    "/media", "/mnt", "/nix", "/opt", "/private", "/private/etc", "/private/var",
    "/proc", "/root", "/run", "/sbin", "/snap", "/srv", "/sys", "/usr", "/usr/bin",
    "/usr/lib", "/usr/local", "/usr/sbin", "/var",
];

/// Temporary folders: ordinary write targets, never system folders.
#[rustfmt::skip]
const TEMP_FOLDERS: &[&str] = &["/private/tmp", "/tmp", "/var/tmp"];

/// Device name prefixes under `/dev` that are disks or memory.
#[rustfmt::skip]
const DEVICE_PREFIXES: &[&str] = &[
    "disk", "dm-", "hd", "kmem", "loop", "mapper/", "md", "mem", "mmcblk", "nbd", "nvme",
    "port", "rdisk", "sd", "sr", "vd", "xvd", "zram",
];

/// Paths that are writable but write no file.
pub fn is_sink(path: &str) -> bool {
    matches!(
        path,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty" | "-"
    ) || path.starts_with("/dev/fd/")
        || path.starts_with("/dev/pts/")
}

impl Location {
    /// Resolves a word naming a path.
    pub fn resolve(&self, word: &Word) -> Target {
        self.resolve_in(word, self.cwd.as_deref())
    }

    /// Resolves a word against an explicit working folder (`git -C dir`).
    pub fn resolve_in(&self, word: &Word, cwd: Option<&Path>) -> Target {
        let raw = word.value.clone();
        let mut target = Target {
            path: None,
            raw: raw.clone(),
            glob: word.glob,
            dynamic: word.dynamic,
            empty_var_hazard: None,
        };
        let home = self.home.as_deref();
        let (base, rest): (Option<PathBuf>, &str) = if word.tilde {
            let after = raw.get(1..).unwrap_or("");
            let (user, rest) = after.split_once('/').map_or((after, ""), |(u, r)| (u, r));
            match user {
                "" => (home.map(Path::to_path_buf), rest),
                "root" => (Some(PathBuf::from("/root")), rest),
                u if u
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.') =>
                {
                    (Some(PathBuf::from("/home").join(u)), rest)
                }
                _ => (None, ""),
            }
        } else if let Some((var, rest)) = leading_variable(&raw).filter(|_| word.dynamic) {
            // `${NAME:?}`, `${NAME:-x}`: the name, and whether an empty
            // value stops the shell.
            let name_end = var
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(var.len());
            let (name, modifier) = var.split_at(name_end);
            match name {
                "HOME" => (home.map(Path::to_path_buf), rest),
                "PWD" => (cwd.map(Path::to_path_buf), rest),
                "TMPDIR" | "TMP" | "TEMP" => (Some(PathBuf::from("/tmp")), rest),
                _ if modifier.contains('?') => return target,
                _ => {
                    if raw.len() > var_len(&raw) && raw[var_len(&raw)..].starts_with('/') {
                        target.empty_var_hazard = Some(normalise(Path::new(&raw[var_len(&raw)..])));
                    }
                    return target;
                }
            }
        } else if word.dynamic {
            return target;
        } else if let Some(absolute) = raw.strip_prefix('/') {
            (Some(PathBuf::from("/")), absolute)
        } else {
            (cwd.map(Path::to_path_buf), raw.as_str())
        };
        if rest.contains('$') || rest.contains('`') {
            return target;
        }
        target.path = base
            .map(|b| normalise(&b.join(rest)))
            // Past PATH_MAX the kernel refuses the path, so it names
            // nothing portcullis can look at (and a `cd a` repeated
            // thousands of times would cost a lookup of every length).
            .filter(|p| p.as_os_str().len() <= MAX_PATH_BYTES);
        target
    }
}

/// Linux's PATH_MAX: the longest path a system call accepts.
const MAX_PATH_BYTES: usize = 4096;

/// `$NAME` or `${NAME}` (or `${NAME:-default}`) at the start of a word, with
/// what follows it.
fn leading_variable(raw: &str) -> Option<(&str, &str)> {
    if let Some(body) = raw.strip_prefix("${") {
        let end = body.find('}')?;
        let name = &body[..end];
        return Some((name, body[end + 1..].trim_start_matches('/')));
    }
    let body = raw.strip_prefix('$')?;
    let end = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(body.len());
    if end == 0 {
        return None;
    }
    Some((&body[..end], body[end..].trim_start_matches('/')))
}

fn var_len(raw: &str) -> usize {
    if let Some(body) = raw.strip_prefix("${") {
        return body.find('}').map_or(raw.len(), |e| e + 3);
    }
    1 + raw[1..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(raw.len() - 1)
}

/// Removes `.` and resolves `..` lexically; `/..` stays `/`.
pub fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(part) => out.push(part),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}

impl Target {
    /// Places the target for the floor. A glob matching everything directly
    /// inside a folder (`/*`, `~/*`, `~/.*`) counts as that folder's contents.
    pub fn place(&self, home: Option<&Path>) -> Place {
        let Some(path) = &self.path else {
            return match &self.empty_var_hazard {
                Some(p) => place_of(p, self.glob_all_in_folder(), home),
                None => Place::Ordinary,
            };
        };
        place_of(path, self.glob_all_in_folder(), home)
    }

    /// The raw text ends in a glob that matches every entry of its folder.
    fn glob_all_in_folder(&self) -> bool {
        self.glob
            && (self.raw.ends_with("/*")
                || self.raw.ends_with("/.*")
                || self.raw == "*"
                || self.raw.ends_with("/{*,.*}"))
    }
}

fn place_of(path: &Path, all_contents: bool, home: Option<&Path>) -> Place {
    // For `/*` the resolved path is `/*` as text; look at the folder.
    let (folder, contents) = if all_contents {
        (path.parent().unwrap_or(path), true)
    } else {
        (path, false)
    };
    let text = folder.to_string_lossy();
    if folder == Path::new("/") {
        return if contents {
            Place::RootContents
        } else {
            Place::Root
        };
    }
    if let Some(home) = home {
        if folder == home {
            return if contents {
                Place::HomeContents
            } else {
                Place::Home
            };
        }
        if folder.starts_with(home) {
            return Place::Ordinary;
        }
    }
    if let Some(device) = text.strip_prefix("/dev/")
        && DEVICE_PREFIXES.iter().any(|p| device.starts_with(p))
    {
        return Place::Device;
    }
    if TEMP_FOLDERS.iter().any(|t| folder.starts_with(t)) {
        return Place::Ordinary;
    }
    if is_system_folder(&text) {
        return Place::System;
    }
    // Direct contents of a system folder (`/etc/passwd`, `/usr/lib`).
    if folder
        .parent()
        .is_some_and(|p| is_system_folder(&p.to_string_lossy()))
    {
        return Place::System;
    }
    Place::Ordinary
}

/// Whether `path` is one of the system folders themselves.
pub fn is_system_folder(path: &str) -> bool {
    SYSTEM_FOLDERS.binary_search(&path).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc() -> Location {
        Location {
            cwd: Some("/home/u/proj".into()),
            home: Some("/home/u".into()),
        }
    }

    fn place(raw: &str, glob: bool) -> Place {
        let mut w = Word::literal(raw);
        w.glob = glob;
        w.tilde = raw.starts_with('~');
        w.dynamic = raw.contains('$');
        let l = loc();
        l.resolve(&w).place(l.home.as_deref())
    }

    #[test]
    fn tables_are_sorted() {
        assert!(SYSTEM_FOLDERS.windows(2).all(|w| w[0] < w[1]));
        assert!(DEVICE_PREFIXES.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn places() {
        assert_eq!(place("/", false), Place::Root);
        assert_eq!(place("/*", true), Place::RootContents);
        assert_eq!(place("~", false), Place::Home);
        assert_eq!(place("~/", false), Place::Home);
        assert_eq!(place("$HOME", false), Place::Home);
        assert_eq!(place("${HOME}/*", true), Place::HomeContents);
        assert_eq!(place("../..", false), Place::System);
        assert_eq!(place("../../..", false), Place::Root);
        assert_eq!(place("..", false), Place::Home);
        assert_eq!(place("/usr", false), Place::System);
        assert_eq!(place("/etc/passwd", false), Place::System);
        assert_eq!(place("/etc/nginx/conf.d/old", false), Place::Ordinary);
        assert_eq!(place("/tmp/build", false), Place::Ordinary);
        assert_eq!(place("build", false), Place::Ordinary);
        assert_eq!(place("/dev/sda1", false), Place::Device);
        assert_eq!(place("$DIR/", false), Place::Root);
        assert_eq!(place("$DIR/*", true), Place::RootContents);
        assert_eq!(place("~root", false), Place::System);
        assert_eq!(place("/./bin/../bin", false), Place::System);
    }
}
