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

impl Location {
    /// Resolves a word naming a path.
    pub fn resolve(&self, word: &Word) -> Target {
        self.resolve_in(word, self.cwd.as_deref())
    }

    /// Resolves a word against an explicit working folder (`git -C dir`).
    pub fn resolve_in(&self, word: &Word, cwd: Option<&Path>) -> Target {
        // `/proc/$$/cwd`: the shell's own process.
        if word.dynamic
            && let Some(rest) = [
                "/proc/$$/",
                "/proc/${$}/",
                "/proc/$BASHPID/",
                "/proc/${BASHPID}/",
            ]
            .iter()
            .find_map(|p| word.value.strip_prefix(p))
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
        let raw = word.value.clone();
        let mut target = Target {
            path: None,
            raw: raw.clone(),
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

/// Stands for an expansion only known at run time inside a path pattern
/// (`/home/$X`): like `*` within one name, and possibly empty.
pub const UNKNOWN: char = '\u{1}';

/// Stands for an expansion that cannot be empty (`${X:?}`): like `*`
/// within one name.
pub const UNKNOWN_SET: char = '\u{2}';

/// The absolute pattern a word may name, for the floor: globs kept, known
/// variables read by value, every other expansion an [`UNKNOWN`]. `None`
/// when the word is plain (its [`Target`] says all) or starts with an
/// unknown expansion (then [`Target::empty_var_hazard`] speaks for it).
pub fn pattern_of(word: &Word, location: &Location, cwd: Option<&Path>) -> Option<String> {
    if !(word.glob || word.dynamic) {
        return None;
    }
    let home = location.home.as_deref();
    let user = home
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned());
    let value = &word.value;
    let mut text = String::with_capacity(value.len());
    let mut rest = value.as_str();
    while let Some(at) = rest.find(['$', '`']) {
        text.push_str(&rest[..at]);
        let tail = &rest[at..];
        match known_expansion(tail, home, cwd, user.as_deref()) {
            Some((len, known)) => {
                text.push_str(&known);
                rest = &tail[len..];
            }
            None => {
                let mut len = expansion_len(tail).min(tail.len());
                while !tail.is_char_boundary(len) {
                    len += 1;
                }
                // `${X:?}`, `${X?msg}`: the shell stops when X is empty.
                let spelled = tail.get(..len).unwrap_or(tail);
                let guarded =
                    tail.starts_with("${") && spelled.contains('?') && !spelled.contains("##");
                text.push(if guarded { UNKNOWN_SET } else { UNKNOWN });
                rest = &tail[len..];
            }
        }
    }
    text.push_str(rest);
    if text.starts_with([UNKNOWN, UNKNOWN_SET]) {
        return None;
    }
    let mut plain = word.clone();
    plain.value = text;
    plain.dynamic = false;
    plain.glob = false;
    let path = location.resolve_in(&plain, cwd).path?;
    Some(path.to_string_lossy().into_owned())
}

/// The length of the expansion (`$x`, `${…}`, `$(…)`, `` `…` ``, `$'…'`
/// is not one) at the start of `tail`; at least 1.
fn expansion_len(tail: &str) -> usize {
    let bytes = tail.as_bytes();
    let close = |open: u8, close: u8, from: usize| {
        let mut depth = 0usize;
        for (i, b) in bytes.iter().enumerate().skip(from) {
            if *b == open {
                depth += 1;
            } else if *b == close {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
        }
        bytes.len()
    };
    match bytes {
        [b'`', ..] => tail[1..].find('`').map_or(tail.len(), |e| e + 2),
        [b'$', b'{', ..] => close(b'{', b'}', 1),
        [b'$', b'(', ..] => close(b'(', b')', 1),
        [b'$', rest @ ..] => {
            let name = rest
                .iter()
                .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
                .unwrap_or(rest.len());
            // `$?`, `$$`, `$1`: one ASCII character; a lone `$` otherwise.
            let special =
                usize::from(name == 0 && rest.first().is_some_and(u8::is_ascii_punctuation));
            1 + name.max(special)
        }
        _ => 1,
    }
}

/// What an absolute path pattern (globs, [`UNKNOWN`]s) could name, the
/// strictest place first: the root, the home folder (or everything in
/// it, for a last `*`), a system folder or, when `contents`, something
/// directly inside one. `Ordinary` when it can match none of them.
pub fn pattern_place(pattern: &str, home: Option<&Path>, contents: bool) -> Place {
    let parts = components(pattern);
    if pattern_matches(&parts, &[]) {
        return Place::Root;
    }
    if let Some(home) = home {
        let home_text = home.to_string_lossy();
        let home_parts = components(&home_text);
        if pattern_matches(&parts, &home_parts) {
            return Place::Home;
        }
        if contents
            && let Some((last, parent)) = parts.split_last()
            && matches!(*last, "*" | ".*" | "?*")
            && pattern_matches(parent, &home_parts)
        {
            return Place::HomeContents;
        }
    }
    for folder in SYSTEM_FOLDERS {
        let folder_parts = components(folder);
        if pattern_matches(&parts, &folder_parts) {
            return Place::System;
        }
        if contents
            && let Some((_, parent)) = parts.split_last()
            && pattern_matches(parent, &folder_parts)
            && !in_temp_folder(parent)
        {
            return Place::System;
        }
    }
    Place::Ordinary
}

/// The pattern's folder is a temporary folder, literally (`/tmp/*`).
fn in_temp_folder(parent: &[&str]) -> bool {
    let text = format!("/{}", parent.join("/"));
    TEMP_FOLDERS.iter().any(|t| Path::new(&text).starts_with(t))
}

/// The names of an absolute path, without empty ones.
pub fn components(path: &str) -> Vec<&str> {
    path.split('/').filter(|p| !p.is_empty()).collect()
}

/// Whether the pattern's names can match `path`'s names: one name each,
/// except `**` (any number, under globstar) and a name that is only
/// unknown expansions (none or one).
pub fn pattern_matches(pattern: &[&str], path: &[&str]) -> bool {
    pattern_matches_bounded(pattern, path, 0)
}

fn pattern_matches_bounded(pattern: &[&str], path: &[&str], depth: usize) -> bool {
    if depth > 64 {
        return true;
    }
    let Some((first, rest)) = pattern.split_first() else {
        return path.is_empty();
    };
    let may_vanish = *first == "**" || first.chars().all(|c| c == UNKNOWN);
    if may_vanish && pattern_matches_bounded(rest, path, depth + 1) {
        return true;
    }
    let Some((name, path_rest)) = path.split_first() else {
        return false;
    };
    if *first == "**" {
        return pattern_matches_bounded(pattern, path_rest, depth + 1);
    }
    name_matches(first, name) && pattern_matches_bounded(rest, path_rest, depth + 1)
}

/// One token of a name pattern.
enum Token {
    Star,
    One,
    Class(Vec<(char, char)>, bool),
    Char(char),
}

/// Whether a name pattern (`*`, `?`, `[…]`, [`UNKNOWN`]) can match `name`.
/// Extended globs (`@(…)`, `!(…)`) match anything. Wildcards match a
/// leading dot too (dotglob may be on).
pub fn name_matches(pattern: &str, name: &str) -> bool {
    if pattern
        .as_bytes()
        .windows(2)
        .any(|w| w[1] == b'(' && matches!(w[0], b'@' | b'!' | b'+' | b'*' | b'?'))
    {
        return true;
    }
    let tokens = name_tokens(pattern);
    let name: Vec<char> = name.chars().collect();
    let (mut t, mut n) = (0, 0);
    let mut resume: Option<(usize, usize)> = None;
    while n < name.len() {
        let step = match tokens.get(t) {
            Some(Token::Star) => {
                resume = Some((t, n));
                t += 1;
                continue;
            }
            Some(Token::One) => true,
            Some(Token::Char(c)) => *c == name[n],
            Some(Token::Class(ranges, negated)) => {
                ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&name[n])) != *negated
            }
            None => false,
        };
        if step {
            t += 1;
            n += 1;
        } else if let Some((star, at)) = resume {
            t = star + 1;
            n = at + 1;
            resume = Some((star, at + 1));
        } else {
            return false;
        }
    }
    tokens[t.min(tokens.len())..]
        .iter()
        .all(|tok| matches!(tok, Token::Star))
}

fn name_tokens(pattern: &str) -> Vec<Token> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '*' | UNKNOWN | UNKNOWN_SET => out.push(Token::Star),
            '?' => out.push(Token::One),
            '[' => {
                if let Some((token, next)) = class_token(&chars, i) {
                    out.push(token);
                    i = next;
                    continue;
                }
                out.push(Token::Char('['));
            }
            c => out.push(Token::Char(c)),
        }
        i += 1;
    }
    out
}

/// A bracket expression starting at `chars[open]`, and the index after it.
fn class_token(chars: &[char], open: usize) -> Option<(Token, usize)> {
    let mut i = open + 1;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let mut first = true;
    while let Some(&c) = chars.get(i) {
        if c == ']' && !first {
            return Some((Token::Class(ranges, negated), i + 1));
        }
        // `[[:alpha:]]` and the like: any character, to be safe.
        if c == '[' && chars.get(i + 1) == Some(&':') {
            ranges.push(('\0', char::MAX));
            let end = (i + 2..chars.len().saturating_sub(1))
                .find(|&j| chars[j] == ':' && chars[j + 1] == ']')?;
            i = end + 2;
            first = false;
            continue;
        }
        if chars.get(i + 1) == Some(&'-') && chars.get(i + 2).is_some_and(|e| *e != ']') {
            ranges.push((c, chars[i + 2]));
            i += 3;
        } else {
            ranges.push((c, c));
            i += 1;
        }
        first = false;
    }
    None
}

/// `word` with another value (an option's attached value).
fn with_value(word: &Word, value: &str) -> Word {
    let mut out = word.clone();
    out.value = value.to_string();
    out
}

/// Symbolic links and bind mounts made earlier in one command line
/// (`ln -s ~ h && rm -rf h/`): later paths through them are read as the
/// paths they lead to.
#[derive(Clone, Debug, Default)]
pub struct Links {
    made: Vec<Link>,
}

/// One link: where it is, and what it leads to.
#[derive(Clone, Debug)]
struct Link {
    name: PathBuf,
    target: PathBuf,
    /// A bind mount: the folder itself is the target, even without `/`.
    mount: bool,
    /// The command that made it (see [`Links::made_by`]): its own
    /// operands are not read through it.
    by: Option<String>,
}

/// At most this many links are remembered for one command line.
const MAX_LINKS: usize = 64;

impl Links {
    /// Records the links `verb ARGS` makes (`ln`, `mount --bind`); other
    /// commands are ignored.
    pub fn record(&mut self, verb: &str, args: &[Word], location: &Location) {
        match verb {
            "ln" => self.record_ln(args, location),
            "mount" => self.record_bind(args, location),
            _ => {}
        }
    }

    fn add(&mut self, name: PathBuf, target: PathBuf, mount: bool) {
        if self.made.len() < MAX_LINKS && name != target {
            self.made.push(Link {
                name,
                target,
                mount,
                by: None,
            });
        }
    }

    /// `ln [-s] [-f] [-r] [-t DIR] TARGET… [NAME]`: hard links too (a
    /// write through one reaches the file).
    fn record_ln(&mut self, args: &[Word], location: &Location) {
        let cwd = location.cwd.as_deref();
        let mut relative = false;
        let mut into: Option<Word> = None;
        let mut operands: Vec<&Word> = Vec::new();
        let mut i = 0;
        let mut done = false;
        while i < args.len() {
            let w = &args[i];
            let v = w.value.as_str();
            if done || !v.starts_with('-') || v == "-" {
                operands.push(w);
            } else if v == "--" {
                done = true;
            } else if let Some(long) = v.strip_prefix("--") {
                let (name, value) = match long.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (long, None),
                };
                if name.len() >= 3 && "relative".starts_with(name) {
                    relative = true;
                } else if name.len() >= 3 && "target-directory".starts_with(name) {
                    into = match value {
                        Some(dir) => Some(with_value(w, dir)),
                        None => {
                            i += 1;
                            args.get(i).cloned()
                        }
                    };
                } else if name.len() >= 3 && "suffix".starts_with(name) && value.is_none() {
                    i += 1;
                }
            } else {
                for (pos, c) in v[1..].char_indices() {
                    if c == 'r' {
                        relative = true;
                    }
                    if c == 't' || c == 'S' {
                        let attached = &v[1 + pos + 1..];
                        let value = if attached.is_empty() {
                            i += 1;
                            args.get(i).cloned()
                        } else {
                            Some(with_value(w, attached))
                        };
                        if c == 't' {
                            into = value;
                        }
                        break;
                    }
                }
            }
            i += 1;
        }
        if let Some(dir) = into {
            let dir = location.resolve_in(&dir, cwd);
            self.record_into(&dir, &operands, relative, location);
            return;
        }
        match operands.as_slice() {
            [] => {}
            [target] => {
                let here = location.resolve_in(&Word::literal("."), cwd);
                self.record_into(&here, &[*target], relative, location);
            }
            [targets @ .., last] => {
                let name = location.resolve_in(last, cwd);
                // NAME may be an existing folder: the link is made inside it.
                self.record_into(&name, targets, relative, location);
                if let ([target], Some(name)) = (targets, name.path) {
                    self.record_one(name, target, relative, location);
                }
            }
        }
    }

    /// Links named after each target's last name, inside `dir`.
    fn record_into(
        &mut self,
        dir: &Target,
        targets: &[&Word],
        relative: bool,
        location: &Location,
    ) {
        let Some(dir) = &dir.path else { return };
        for target in targets {
            let Some(resolved) = location.resolve_in(target, location.cwd.as_deref()).path else {
                continue;
            };
            let name = match resolved.file_name() {
                Some(n) => dir.join(n),
                None => dir.join("root"),
            };
            self.record_one(name, target, relative, location);
        }
    }

    /// One link at `name` to `target` (read against the link's own folder,
    /// as the system does, unless `ln -r` wrote it relative to cwd).
    fn record_one(&mut self, name: PathBuf, target: &Word, relative: bool, location: &Location) {
        let base = if relative || target.tilde || target.value.starts_with('/') {
            location.cwd.clone()
        } else {
            name.parent().map(Path::to_path_buf)
        };
        if let Some(to) = location.resolve_in(target, base.as_deref()).path {
            self.add(name, to, false);
        }
    }

    /// `mount --bind SRC DST`, `mount -B`, `--rbind`, `-R`, `-o bind`.
    fn record_bind(&mut self, args: &[Word], location: &Location) {
        let bind = args.iter().enumerate().any(|(i, w)| {
            let v = w.value.as_str();
            matches!(v, "--bind" | "--rbind" | "-B" | "-R")
                || v.starts_with("-o") && {
                    let opts = if v == "-o" {
                        args.get(i + 1).map_or("", |n| n.value.as_str())
                    } else {
                        v.trim_start_matches("-o")
                    };
                    opts.split(',').any(|o| o == "bind" || o == "rbind")
                }
                || v.starts_with("--options=")
                    && v[10..].split(',').any(|o| o == "bind" || o == "rbind")
        });
        if !bind {
            return;
        }
        let mut operands = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let v = args[i].value.as_str();
            if matches!(
                v,
                "-o" | "-t" | "--options" | "--types" | "-L" | "-U" | "-N" | "--namespace"
            ) {
                i += 2;
                continue;
            }
            if !v.starts_with('-') {
                operands.push(&args[i]);
            }
            i += 1;
        }
        if let [source, dest] = operands.as_slice() {
            let cwd = location.cwd.as_deref();
            if let (Some(from), Some(to)) = (
                location.resolve_in(dest, cwd).path,
                location.resolve_in(source, cwd).path,
            ) {
                self.add(from, to, true);
            }
        }
    }

    /// `path` (absolute, `..` kept) read through the links made so far, one
    /// component at a time as the kernel does (a `..` after a link leaves
    /// the link's target, not its folder). The last component is followed
    /// only when `last` (a write opens through a link; `rm` removes the
    /// link itself) or it is a bind mount; links `command` made are not
    /// read (its own operands name them). `None` when no link is passed.
    pub fn through(&self, path: &Path, last: bool, command: &str) -> Option<PathBuf> {
        if self.made.is_empty() {
            return None;
        }
        let mut done = PathBuf::from("/");
        let mut pending = link_parts(path);
        pending.reverse();
        let mut hops = 0;
        while let Some(part) = pending.pop() {
            if part == ".." {
                done.pop();
                continue;
            }
            let next = done.join(&part);
            let at_end = pending.is_empty();
            let found = self
                .made
                .iter()
                .rev()
                .find(|l| l.name == next && l.by.as_deref() != Some(command));
            match found {
                Some(link) if hops < 40 && (!at_end || last || link.mount) => {
                    hops += 1;
                    done = PathBuf::from("/");
                    let mut more = link_parts(&link.target);
                    more.reverse();
                    pending.extend(more);
                }
                _ => done = next,
            }
        }
        (hops > 0).then_some(done)
    }

    /// Tags the links just recorded with the command that made them
    /// (`ln -s .git/hooks h` writes `h`, not the hooks folder).
    pub fn made_by(&mut self, part: &str) {
        for link in self.made.iter_mut().filter(|l| l.by.is_none()) {
            link.by = Some(part.to_string());
        }
    }

    /// Whether no link has been recorded.
    pub fn is_empty(&self) -> bool {
        self.made.is_empty()
    }

    /// `path` read through the links made so far, when it passes through one.
    /// The link itself is followed only when `bare` (a trailing `/`, or a
    /// command that follows links) or it is a bind mount.
    pub fn follow(&self, path: &Path, bare: bool) -> Option<PathBuf> {
        let mut current = path.to_path_buf();
        let mut moved = false;
        // Links to links: a bounded number of hops.
        for _ in 0..8 {
            let hop = self.made.iter().rev().find_map(|link| {
                let rest = current.strip_prefix(&link.name).ok()?;
                let itself = rest.as_os_str().is_empty();
                (!itself || bare || link.mount).then(|| normalise(&link.target.join(rest)))
            });
            match hop {
                Some(next) if next != current => {
                    current = next;
                    moved = true;
                }
                _ => break,
            }
        }
        moved.then_some(current)
    }
}

/// The names and `..` of an absolute path, in order.
fn link_parts(path: &Path) -> Vec<std::ffi::OsString> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(p) => Some(p.to_os_string()),
            Component::ParentDir => Some("..".into()),
            _ => None,
        })
        .collect()
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
        assert!(HARMLESS_DEVICES.windows(2).all(|w| w[0] < w[1]));
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

    #[test]
    fn patterns_read_by_value() {
        let l = loc();
        let pat = |raw: &str| {
            let mut w = Word::literal(raw);
            w.glob = raw.contains(['*', '?', '[']);
            w.dynamic = raw.contains('$');
            w.tilde = raw.starts_with('~');
            pattern_of(&w, &l, l.cwd.as_deref())
        };
        let place_of_pattern = |raw: &str| {
            pat(raw).map_or(Place::Ordinary, |p| {
                pattern_place(&p, l.home.as_deref(), true)
            })
        };
        assert_eq!(place_of_pattern("/???"), Place::System);
        assert_eq!(place_of_pattern("/h*"), Place::System);
        assert_eq!(place_of_pattern("/ho?e/*"), Place::Home);
        assert_eq!(place_of_pattern("/home/$X"), Place::Home);
        assert_eq!(place_of_pattern("/[!a]tc"), Place::System);
        assert_eq!(place_of_pattern("/tmp/*"), Place::Ordinary);
        assert_eq!(place_of_pattern("./build/*"), Place::Ordinary);
        assert_eq!(place_of_pattern("~/${X:?}"), Place::Ordinary);
        assert_eq!(pat("$X/y"), None);
        assert_eq!(place("/home/$USER", false), Place::Home);
        assert_eq!(place("~+/..", false), Place::Home);
    }

    #[test]
    fn names_match_as_bash_globs_do() {
        assert!(name_matches("p?rt*", "portcullis"));
        assert!(name_matches("[a-p]ort*", "portcullis"));
        assert!(!name_matches("[!p]ort*", "portcullis"));
        assert!(name_matches("*", ".claude"));
        assert!(!name_matches("x*", "home"));
        assert!(name_matches("[[:alpha:]]", "u"));
        assert!(pattern_matches(&["**"], &["home", "u"]));
        assert!(!pattern_matches(&["home"], &["home", "u"]));
    }

    #[test]
    fn devices_by_every_name() {
        for dev in [
            "/dev/block/8:0",
            "/dev/mapper/root",
            "/dev/vg0/lv",
            "/dev/watchdog",
            "/proc/self/root/dev/sda",
            "/dev/disk/by-id/x",
        ] {
            assert_eq!(place(dev, false), Place::Device, "{dev}");
        }
        for dev in [
            "/dev/null",
            "/dev/ttyUSB0",
            "/dev/shm/x",
            "/dev/tcp/h/1",
            "/dev/pts/0",
        ] {
            assert_ne!(place(dev, false), Place::Device, "{dev}");
        }
    }

    #[test]
    fn parents_are_kept_for_the_kernel() {
        let l = loc();
        let t = l.resolve(&Word::literal("hooklink/../config"));
        assert_eq!(t.path, Some(PathBuf::from("/home/u/proj/config")));
        assert_eq!(
            t.physical,
            Some(PathBuf::from("/home/u/proj/hooklink/../config"))
        );
        assert_eq!(l.resolve(&Word::literal("a/./b")).physical, None);
        assert_eq!(l.resolve(&Word::literal("/../etc")).physical, None);
    }

    #[test]
    fn process_folders_are_the_shell_s() {
        let l = loc();
        let at = |raw: &str| {
            let mut w = Word::literal(raw);
            w.dynamic = raw.contains('$');
            l.resolve_in(&w, Some(Path::new("/home/u/proj/sub")))
        };
        for own in [
            "/proc/self/cwd/x",
            "/proc/thread-self/cwd/x",
            "/proc/$$/cwd/x",
            "/proc/self/task/7/cwd/x",
        ] {
            assert_eq!(
                at(own).path,
                Some(PathBuf::from("/home/u/proj/sub/x")),
                "{own}"
            );
        }
        let up = at("/proc/self/cwd/../.git/config");
        assert_eq!(up.path, Some(PathBuf::from("/home/u/proj/.git/config")));
        for other in ["/proc/1/cwd/x", "/dev/fd/3/x", "/proc/self/fd/3/x"] {
            let t = at(other);
            assert!(t.opaque && t.path.is_none(), "{other}");
        }
        assert!(!at("/dev/fd/3").opaque);
        assert!(is_sink("/dev/fd/2") && is_sink("/proc/self/fd/1"));
        assert!(!is_sink("/dev/fd/3/config") && !is_sink("/dev/fd/"));
    }

    #[test]
    fn links_are_read_before_parents() {
        let l = loc();
        let mut links = Links::default();
        let args: Vec<Word> = ["-s", ".git/hooks", "h"]
            .iter()
            .map(|a| Word::literal(a))
            .collect();
        links.record("ln", &args, &l);
        let through = |p: &str, last| links.through(Path::new(p), last, "later");
        assert_eq!(
            through("/home/u/proj/h/../config", true),
            Some(PathBuf::from("/home/u/proj/.git/config"))
        );
        assert_eq!(
            through("/home/u/proj/h", true),
            Some(PathBuf::from("/home/u/proj/.git/hooks"))
        );
        assert_eq!(through("/home/u/proj/h", false), None);
        assert_eq!(through("/home/u/proj/x/../config", true), None);
        links.made_by("ln -s .git/hooks h");
        assert_eq!(
            links.through(Path::new("/home/u/proj/h"), true, "ln -s .git/hooks h"),
            None
        );
    }

    #[test]
    fn links_lead_where_they_point() {
        let l = loc();
        let mut links = Links::default();
        let args: Vec<Word> = ["-s", "~", "h"]
            .iter()
            .map(|a| {
                let mut w = Word::literal(a);
                w.tilde = a.starts_with('~');
                w
            })
            .collect();
        links.record("ln", &args, &l);
        let h = Path::new("/home/u/proj/h");
        assert_eq!(links.follow(h, false), None);
        assert_eq!(links.follow(h, true), Some(PathBuf::from("/home/u")));
        assert_eq!(
            links.follow(&h.join("x"), false),
            Some(PathBuf::from("/home/u/x"))
        );
        let mut relative = Links::default();
        let up: Vec<Word> = ["-s", "../..", "up"]
            .iter()
            .map(|a| Word::literal(a))
            .collect();
        relative.record("ln", &up, &l);
        assert_eq!(
            relative.follow(Path::new("/home/u/proj/up/x"), false),
            Some(PathBuf::from("/home/x"))
        );
    }
}
