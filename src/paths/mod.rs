//! Paths named by a command: resolved against the working folder and the
//! home folder, normalised, and placed (root, home, system folder, device…).
//!
//! Takes a decoded [`Word`] and a [`Place`]-free context (cwd, home) and
//! returns a [`Target`]. Nothing here touches the filesystem; the path law
//! (a later stage) resolves symbolic links.
//!
//! This file holds [`Location`], [`Target`] and [`Place`] and how a word is
//! resolved and placed; `patterns` reads globs and run-time expansions,
//! `links` follows the links a command line makes.
#![deny(clippy::indexing_slicing)]

mod links;
mod patterns;
#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests;

use crate::shell::Word;
pub use links::Links;
pub use patterns::{
    UNKNOWN, UNKNOWN_SET, components, name_matches, pattern_matches, pattern_of, pattern_place,
};
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
    /// The absolute path with its `..` kept, when it has one: the kernel
    /// applies `..` after the links before it (`hooklink/../config` is
    /// `.git/config` when `hooklink` leads to `.git/hooks`), so the law
    /// resolves this form component by component.
    pub physical: Option<PathBuf>,
    /// Passes through a folder only the running process knows (`/dev/fd/3/x`,
    /// `/proc/1234/cwd/x`): `path` is `None` and the law reads it as any path.
    pub opaque: bool,
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

/// Names directly under `/dev` that are not disks, memory or anything
/// whose writing harms the machine (terminals, streams, shared memory).
/// Every other name there is a device for the floor: disks are named many
/// ways (`/dev/block/8:0`, `/dev/mapper/x`, `/dev/dm-0`, LVM's `/dev/VG/LV`,
/// `/dev/disk/by-id/…`, `/dev/nvme0n1`, `/dev/mmcblk0`, `/dev/watchdog`).
/// Sorted; checked by a test. An entry ending in `*` is a prefix.
#[rustfmt::skip]
const HARMLESS_DEVICES: &[&str] = &[
    "audio*", "console", "cu.*", "dsp*", "fd", "full", "fuse", "hugepages", "kmsg", "log",
    "lp*", "midi*", "mixer*", "mqueue", "net", "null", "ptmx", "pts", "random", "rfcomm*",
    "serial", "shm", "snd", "stderr", "stdin", "stdout", "tcp", "tty*", "udp", "urandom",
    "vcs*", "zero",
];

/// Paths that are writable but write no file: an open descriptor itself
/// (`/dev/fd/2`, `/proc/self/fd/1`), never a path through one
/// (`/dev/fd/3/config` is a file in the folder descriptor 3 holds).
pub fn is_sink(path: &str) -> bool {
    let descriptor = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    matches!(
        path,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty" | "-"
    ) || path.strip_prefix("/dev/fd/").is_some_and(descriptor)
        || path.strip_prefix("/proc/self/fd/").is_some_and(descriptor)
        || path.strip_prefix("/dev/pts/").is_some_and(descriptor)
}

/// How a word names the shell's own process folder (`/proc/$$/cwd`):
/// read as `/proc/self/`.
pub const OWN_PROCESS: [&str; 4] = [
    "/proc/$$/",
    "/proc/${$}/",
    "/proc/$BASHPID/",
    "/proc/${BASHPID}/",
];

impl Location {
    /// Resolves a word naming a path.
    pub fn resolve(&self, word: &Word) -> Target {
        self.resolve_in(word, self.cwd.as_deref())
    }

    /// Resolves a word against an explicit working folder (`git -C dir`).
    pub fn resolve_in(&self, word: &Word, cwd: Option<&Path>) -> Target {
        // `/***…*` matches what `/**` does (everything there; deeper with
        // globstar): read as `/**`, so that a run of thousands of stars is
        // neither past PATH_MAX nor missed by the floor. `**` itself is
        // kept: it is globstar's any-depth.
        if word.glob && word.value.contains("***") {
            let mut collapsed = word.clone();
            collapsed.value = collapse_stars(&word.value);
            return self.resolve_in(&collapsed, cwd);
        }
        // `/proc/$$/cwd`: the shell's own process.
        if word.dynamic
            && let Some(rest) = OWN_PROCESS.iter().find_map(|p| word.value.strip_prefix(p))
        {
            let mut own = word.clone();
            own.value = format!("/proc/self/{rest}");
            own.dynamic = own.value.contains(['$', '`']);
            let mut target = self.resolve_in(&own, cwd);
            target.raw = word.value.clone();
            target.dynamic = true;
            return target;
        }
        // `/home/$USER`, `"$HOME"/x`: variables whose value is known are
        // read by value (`${HOME:-…}` and the like are left to the code below).
        if word.dynamic
            && let Some(known) = substitute_known(&word.value, self.home.as_deref(), cwd)
        {
            let mut plain = word.clone();
            plain.value = known;
            plain.dynamic = false;
            plain.tilde = false;
            let mut target = self.resolve_in(&plain, cwd);
            target.raw = word.value.clone();
            target.dynamic = true;
            return target;
        }
        let raw = word.value.as_str();
        let mut target = Target {
            path: None,
            raw: raw.to_string(),
            glob: word.glob,
            dynamic: word.dynamic,
            empty_var_hazard: None,
            physical: None,
            opaque: false,
        };
        let home = self.home.as_deref();
        let (base, rest): (Option<PathBuf>, &str) = if word.tilde {
            let after = raw.get(1..).unwrap_or("");
            let (user, rest) = after.split_once('/').map_or((after, ""), |(u, r)| (u, r));
            match user {
                "" => (home.map(Path::to_path_buf), rest),
                // `~+` is the working folder (bash's $PWD).
                "+" => (cwd.map(Path::to_path_buf), rest),
                "root" => (Some(PathBuf::from("/root")), rest),
                u if u
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.') =>
                {
                    (Some(PathBuf::from("/home").join(u)), rest)
                }
                _ => (None, ""),
            }
        } else if let Some((var, rest)) = leading_variable(raw).filter(|_| word.dynamic) {
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
                    if raw.len() > var_len(raw) && raw[var_len(raw)..].starts_with('/') {
                        target.empty_var_hazard = Some(normalise(Path::new(&raw[var_len(raw)..])));
                    }
                    return target;
                }
            }
        } else if word.dynamic {
            return target;
        } else if let Some(absolute) = raw.strip_prefix('/') {
            (Some(PathBuf::from("/")), absolute)
        } else {
            (cwd.map(Path::to_path_buf), raw)
        };
        // What is left of an expansion (`~/$x`) is known only at run time;
        // in a literal word (`'a$b'/../x`) a `$` is only a character.
        if word.dynamic && (rest.contains('$') || rest.contains('`')) {
            return target;
        }
        let Some(joined) = base.map(|b| b.join(rest)) else {
            return target;
        };
        // Past PATH_MAX the kernel refuses the path, so it names nothing
        // portcullis can look at (and a `cd a` repeated thousands of times
        // would cost a lookup of every length).
        if joined.as_os_str().len() > MAX_PATH_BYTES {
            return target;
        }
        match through_process(&joined, cwd) {
            Through::Opaque => {
                target.opaque = true;
                target.dynamic = true;
            }
            Through::Plain => {
                target.path = Some(normalise(&joined));
                target.physical = keeps_parent(&joined);
            }
            Through::Cwd(inside) => {
                target.path = Some(normalise(&inside));
                target.physical = keeps_parent(&inside);
            }
        }
        // `/proc/self/cwd/../proc/self/cwd`: what the first reading left.
        if let Some(path) = &target.path
            && let Through::Cwd(inside) = through_process(path, cwd)
        {
            target.path = Some(normalise(&inside));
        }
        target
    }
}

/// What a path through `/proc` or `/dev/fd` leads to, for the shell that
/// runs the command (never the guard's own process).
#[derive(Debug, PartialEq, Eq)]
enum Through {
    /// No such folder on the way.
    Plain,
    /// `/proc/self/cwd/REST` (`thread-self`, `$$`): REST in the shell's
    /// working folder, `..` kept.
    Cwd(PathBuf),
    /// Another process's folder, or an open descriptor's (`/dev/fd/3/x`):
    /// only run time knows.
    Opaque,
}

/// Reads `path` (absolute, `..` kept) for `/proc/PID/cwd`, `/proc/PID/fd/N/…`
/// and `/dev/fd/N/…`; `cwd` is the shell's tracked folder.
fn through_process(path: &Path, cwd: Option<&Path>) -> Through {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    if !(bytes.starts_with(b"/proc/") || bytes.starts_with(b"/dev/fd/")) {
        return Through::Plain;
    }
    let parts: Vec<&std::ffi::OsStr> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(p) => Some(p),
            Component::ParentDir => Some(std::ffi::OsStr::new("..")),
            _ => None,
        })
        .collect();
    let text = |i: usize| parts.get(i).and_then(|p| p.to_str()).unwrap_or("");
    let rest_from = |i: usize| -> PathBuf { parts.iter().skip(i).collect() };
    match (text(0), text(1), text(2)) {
        ("dev", "fd", n) if !n.is_empty() && parts.len() > 3 => Through::Opaque,
        ("proc", pid, what) if is_process(pid) => {
            // `/proc/PID/task/TID/cwd` is the same folder as `/proc/PID/cwd`.
            let (what, at) = if what == "task" && is_process(text(3)) {
                (text(4), 5)
            } else {
                (what, 3)
            };
            let own = matches!(pid, "self" | "thread-self");
            match what {
                "cwd" => match cwd {
                    Some(cwd) if own => Through::Cwd(cwd.join(rest_from(at))),
                    _ => Through::Opaque,
                },
                "fd" if parts.len() > at + 1 => Through::Opaque,
                _ => Through::Plain,
            }
        }
        _ => Through::Plain,
    }
}

/// `self`, `thread-self` or a process id.
fn is_process(name: &str) -> bool {
    matches!(name, "self" | "thread-self")
        || !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

/// `path` with `.` removed when it holds a `..` after a name (the form the
/// kernel reads); `None` when lexical normalisation loses nothing.
fn keeps_parent(path: &Path) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    if !path.as_os_str().as_bytes().windows(3).any(|w| w == b"/..") {
        return None;
    }
    let mut seen_name = false;
    let mut parent_after_name = false;
    for component in path.components() {
        match component {
            Component::Normal(_) => seen_name = true,
            Component::ParentDir if seen_name => parent_after_name = true,
            _ => {}
        }
    }
    parent_after_name.then(|| {
        path.components()
            .filter(|c| !matches!(c, Component::CurDir))
            .collect()
    })
}

/// `text` with every `$HOME`, `$USER`, `$LOGNAME`, `$PWD` (or `${…}` of
/// them) and `$(whoami)`/`$(id -un)` replaced by its value; `None` when
/// none is there, a value is not known, or any other expansion remains.
pub fn substitute_known(text: &str, home: Option<&Path>, cwd: Option<&Path>) -> Option<String> {
    let user = home
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned());
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut replaced = false;
    while let Some(at) = rest.find(['$', '`']) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let (len, value) = known_expansion(tail, home, cwd, user.as_deref())?;
        out.push_str(&value);
        replaced = true;
        rest = &tail[len..];
    }
    out.push_str(rest);
    replaced.then_some(out)
}

/// The length and value of the known expansion at the start of `tail`.
fn known_expansion(
    tail: &str,
    home: Option<&Path>,
    cwd: Option<&Path>,
    user: Option<&str>,
) -> Option<(usize, String)> {
    const USER_COMMANDS: &[&str] = &[
        "$(whoami)",
        "`whoami`",
        "$(id -un)",
        "$(id -nu)",
        "`id -un`",
        "$(logname)",
        "`logname`",
    ];
    if let Some(spelled) = USER_COMMANDS.iter().find(|c| tail.starts_with(**c)) {
        return Some((spelled.len(), user?.to_string()));
    }
    let (name, len) = if let Some(body) = tail.strip_prefix("${") {
        let end = body.find('}')?;
        (&body[..end], end + 3)
    } else {
        let body = tail.strip_prefix('$')?;
        let end = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(body.len());
        (&body[..end], end + 1)
    };
    let value = match name {
        "HOME" => home?.to_string_lossy().into_owned(),
        "USER" | "LOGNAME" => user?.to_string(),
        "PWD" => cwd?.to_string_lossy().into_owned(),
        _ => return None,
    };
    Some((len, value))
}

/// Linux's PATH_MAX: the longest path a system call accepts.
pub const MAX_PATH_BYTES: usize = 4096;

/// `text` with every run of more than two `*` written as `**`.
fn collapse_stars(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c != '*' || !out.ends_with("**") {
            out.push(c);
        }
    }
    out
}

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
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    // The names between slashes, as `Path::components` gives them on Unix
    // (empty names and `.` dropped), built into one buffer: pushing each
    // name onto a `PathBuf` cost a replay 2 % of its time.
    let bytes = path.as_os_str().as_bytes();
    let mut names: Vec<&[u8]> = Vec::with_capacity(16);
    for name in bytes.split(|&b| b == b'/') {
        match name {
            b"" | b"." => {}
            b".." => {
                names.pop();
            }
            name => names.push(name),
        }
    }
    let mut out = Vec::with_capacity(bytes.len() + 1);
    for name in &names {
        out.push(b'/');
        out.extend_from_slice(name);
    }
    if out.is_empty() {
        out.push(b'/');
    }
    PathBuf::from(std::ffi::OsString::from_vec(out))
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
    // `/proc/self/root/dev/sda` is `/dev/sda`: each process's `root` is `/`.
    if let Some(inside) = through_proc_root(path) {
        return place_of(&inside, all_contents, home);
    }
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
        && is_device(device)
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

/// Whether `name` (a path under `/dev/`) is a device the floor guards.
fn is_device(name: &str) -> bool {
    let first = name.split('/').next().unwrap_or(name);
    !first.is_empty()
        && !HARMLESS_DEVICES.iter().any(|h| match h.strip_suffix('*') {
            Some(prefix) => first.starts_with(prefix),
            None => first == *h,
        })
}

/// `/proc/PID/root/REST` (or `self`, `thread-self`) as `/REST`.
fn through_proc_root(path: &Path) -> Option<PathBuf> {
    let mut parts = path.strip_prefix("/proc").ok()?.components();
    let _pid = parts.next()?;
    let root = parts.next()?;
    (root.as_os_str() == "root").then(|| normalise(&Path::new("/").join(parts.as_path())))
}

/// Whether `path` is one of the system folders themselves.
pub fn is_system_folder(path: &str) -> bool {
    SYSTEM_FOLDERS.binary_search(&path).is_ok()
}
