//! Symbolic links and bind mounts made earlier in one command line
//! ([`Links`]: `ln -s`, `mount --bind`, …): recorded from each command, and
//! later paths read through them as the paths they lead to. Bounded (at most
//! 64 links); nothing here touches the filesystem.

use super::{Location, Target, normalise};
use crate::shell::Word;
use std::path::{Component, Path, PathBuf};

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
        while let Some(w) = args.get(i) {
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
        while let Some(word) = args.get(i) {
            let v = word.value.as_str();
            if matches!(
                v,
                "-o" | "-t" | "--options" | "--types" | "-L" | "-U" | "-N" | "--namespace"
            ) {
                i += 2;
                continue;
            }
            if !v.starts_with('-') {
                operands.push(word);
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
