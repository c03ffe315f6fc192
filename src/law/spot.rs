//! Write targets made ready for the law: a [`Spot`] is an absolute path
//! pattern (as named, and with symbolic links resolved), how far the write
//! reaches, and whether run time decides part of it.
//!
//! Takes a resolved shell [`Target`] or an edit tool's path; returns a
//! `Spot`. Reads the filesystem only through the request's [`FsCache`].

use super::glob::Pattern;
use super::resolve::{self, FsCache};
use crate::paths::{Target, normalise};
use std::path::{Path, PathBuf};

/// How far a write reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reach {
    /// The named path only (a redirection, `touch`, `cp … dest`).
    Path,
    /// The path and everything beneath it (`rm -r`, `mv`, `chmod -R`).
    Tree,
    /// Files a pattern names across folders (a git pathspec): a rule must
    /// name such a file itself; a protected folder is not reached merely
    /// because the pattern could match something inside it.
    Files,
}

/// A write target ready for the law: absolute patterns, lexical and with
/// links resolved.
#[derive(Clone, Debug)]
pub struct Spot {
    /// As written, for reasons.
    pub shown: String,
    /// The absolute path pattern, as named.
    pub named: Pattern,
    /// The same with symbolic links resolved, when that differs.
    pub real: Option<Pattern>,
    /// How far the write reaches.
    pub reach: Reach,
    /// Part of the path is only known when the command runs.
    pub unresolved: bool,
    /// For a glob: the literal folder every match lies in (`.git/hooks`
    /// for `.git/hooks/*`; a rule covering it covers every match), and the
    /// glob's last part when only that part has wildcards (then the folder
    /// on disk says what it matches, as bash will).
    pub folder: Option<(PathBuf, Option<String>)>,
}

impl Spot {
    /// A literal absolute path (an edit tool's `file_path`, a resolved
    /// shell target).
    /// A `..` in `path` is applied after the links before it, as the
    /// kernel does; the lexical form is judged too.
    pub fn path(path: &Path, shown: &str, reach: Reach, fs: &mut FsCache) -> Spot {
        let lexical = normalise(path);
        let physical = path
            .components()
            .any(|c| matches!(c, std::path::Component::ParentDir));
        let real = if physical {
            resolve::resolve_links(path)
        } else {
            fs.resolve(&lexical)
        };
        Spot {
            shown: shown.to_string(),
            named: Pattern::literal(&lexical.to_string_lossy()),
            real: (real != lexical).then(|| Pattern::literal(&real.to_string_lossy())),
            reach,
            unresolved: false,
            folder: None,
        }
    }

    /// A shell write target: known, a glob, or partly unknown.
    pub fn of_target(
        target: &Target,
        cwd: Option<&Path>,
        home: Option<&Path>,
        reach: Reach,
        fs: &mut FsCache,
    ) -> Option<Spot> {
        if target.opaque {
            // Through another process's folder or an open descriptor: any
            // path at all.
            let mut named = Pattern::literal("");
            named.push_unknown();
            return Some(Spot {
                shown: target.raw.clone(),
                named,
                real: None,
                reach,
                unresolved: true,
                folder: None,
            });
        }
        match &target.path {
            Some(path) if !target.glob => {
                let path = target.physical.as_deref().unwrap_or(path);
                Some(Spot::path(path, &target.raw, reach, fs))
            }
            Some(path) => {
                let text = path.to_string_lossy();
                // Resolve links in the folder before the first wildcard.
                let wild = text.find(['*', '?', '[']).unwrap_or(text.len());
                let folder_end = text[..wild].rfind('/').unwrap_or(0);
                let folder = Path::new(if folder_end == 0 {
                    "/"
                } else {
                    &text[..folder_end]
                });
                let real = resolve::resolve_links(folder);
                let named = Pattern::shell_glob(&text);
                // A glob whose last part is only wildcards (`*`, `*/*`)
                // names nothing in particular: what it could be is reported,
                // signed, not blocked.
                let last = target.raw.rsplit('/').next().unwrap_or(&target.raw);
                let pinned = last.chars().any(|c| {
                    !matches!(c, '*' | '?' | '[' | ']' | '!' | '^' | '.' | '{' | '}' | ',')
                });
                let real = (real != folder).then(|| {
                    let mut p = Pattern::literal(&real.to_string_lossy());
                    p.append(&Pattern::shell_glob(&text[folder_end..]));
                    p
                });
                Some(Spot {
                    shown: target.raw.clone(),
                    named,
                    real,
                    reach,
                    unresolved: !pinned,
                    folder: (folder_end > 0).then(|| {
                        let last = text[folder_end + 1..].to_string();
                        (folder.to_path_buf(), (!last.contains('/')).then_some(last))
                    }),
                })
            }
            None if !target.dynamic && target.raw.len() > crate::paths::MAX_PATH_BYTES => {
                // Past PATH_MAX: the kernel refuses the path as written, and
                // a pattern of it would cost memory with its length (a
                // 1 MiB target took 120 MiB). Only the folder before its
                // first wildcard is read: a rule covering that folder
                // covers every match; anything else could be any path.
                let cwd = cwd?;
                let head = target.raw.find(['*', '?', '[']).unwrap_or(target.raw.len());
                let folder = target
                    .raw
                    .get(..head)
                    .and_then(|h| h.rfind('/').and_then(|at| h.get(..at.max(1))));
                let folder = folder
                    .filter(|f| !f.is_empty() && f.len() <= crate::paths::MAX_PATH_BYTES)
                    .map(|f| normalise(&cwd.join(f)));
                let mut named =
                    Pattern::literal(&folder.as_deref().unwrap_or(cwd).to_string_lossy());
                named.push_literal("/");
                named.push_unknown();
                Some(Spot {
                    shown: crate::limits::clip(&target.raw, 200).to_string(),
                    named,
                    real: None,
                    reach,
                    unresolved: true,
                    folder: folder.map(|f| (f, None)),
                })
            }
            None if !target.dynamic => {
                // A literal the resolver left as written (`~a:b/x`, which
                // bash keeps as it is): named in the working folder, its
                // `.` and `..` read as for any path.
                let cwd = cwd?;
                let joined = normalise(&cwd.join(&target.raw));
                let named = match joined.strip_prefix(cwd) {
                    Ok(rest) if target.glob && !rest.as_os_str().is_empty() => {
                        let mut named = Pattern::literal(&cwd.to_string_lossy());
                        named.push_literal("/");
                        named.append(&Pattern::shell_glob(&rest.to_string_lossy()));
                        named
                    }
                    _ if target.glob => Pattern::shell_glob(&joined.to_string_lossy()),
                    _ => Pattern::literal(&joined.to_string_lossy()),
                };
                Some(Spot {
                    shown: target.raw.clone(),
                    named,
                    real: None,
                    reach,
                    unresolved: false,
                    folder: None,
                })
            }
            None => {
                let named = pattern_of_unknown(&target.raw, target.glob, cwd, home)?;
                Some(Spot {
                    shown: target.raw.clone(),
                    unresolved: named.has_unknown(),
                    named,
                    real: None,
                    reach,
                    folder: None,
                })
            }
        }
    }

    pub(super) fn forms(&self) -> impl Iterator<Item = &Pattern> {
        std::iter::once(&self.named).chain(self.real.as_ref())
    }
}

/// An absolute pattern for a word whose value is partly unknown: each
/// `$NAME`, `${…}`, `$(…)` and backtick part may be any text, `/` included.
pub(super) fn pattern_of_unknown(
    raw: &str,
    glob: bool,
    cwd: Option<&Path>,
    home: Option<&Path>,
) -> Option<Pattern> {
    let mut rest = raw;
    let mut pattern = Pattern::literal("");
    let at_home = ["$HOME", "${HOME}", "~"].iter().find_map(|var| {
        rest.strip_prefix(var)
            .filter(|after| after.is_empty() || after.starts_with('/'))
    });
    if let Some(after) = at_home {
        pattern.push_literal(&home?.to_string_lossy());
        rest = after;
    } else if !rest.starts_with(['/', '$', '`']) {
        pattern.push_literal(&cwd?.to_string_lossy());
        pattern.push_literal("/");
    }
    let chars: Vec<char> = rest.chars().collect();
    let mut i = 0;
    let mut text = String::new();
    let flush = |text: &mut String, pattern: &mut Pattern| {
        if glob {
            pattern.push_glob(text);
        } else {
            pattern.push_literal(text);
        }
        text.clear();
    };
    while let Some(&c) = chars.get(i) {
        let here = chars.get(i..).unwrap_or_default();
        let unknown_len = match c {
            '$' => unknown_length(here),
            '`' => here
                .iter()
                .skip(1)
                .position(|&c| c == '`')
                .map_or(here.len(), |p| p + 2),
            _ => 0,
        };
        if unknown_len > 0 {
            flush(&mut text, &mut pattern);
            pattern.push_unknown();
            i += unknown_len;
        } else {
            text.push(c);
            i += 1;
        }
    }
    flush(&mut text, &mut pattern);
    Some(pattern)
}

/// The length of a `$…` expansion at the start of `chars` (0 when the `$`
/// is literal).
fn unknown_length(chars: &[char]) -> usize {
    match chars.get(1) {
        Some(&open @ ('{' | '(')) => {
            let close = if open == '{' { '}' } else { ')' };
            let mut depth = 0;
            for (i, &c) in chars.iter().enumerate().skip(1) {
                if c == open {
                    depth += 1;
                } else if c == close {
                    depth -= 1;
                    if depth == 0 {
                        return i + 1;
                    }
                }
            }
            chars.len()
        }
        Some(c) if c.is_ascii_alphabetic() || *c == '_' => {
            1 + chars
                .iter()
                .skip(1)
                .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                .count()
        }
        Some(c) if c.is_ascii_digit() || "@*#?$!-".contains(*c) => 2,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::law::glob::intersects;

    #[test]
    fn unknown_parts_make_patterns() {
        let p = pattern_of_unknown("$F", false, Some(Path::new("/p")), None).unwrap();
        assert!(p.has_unknown());
        let p = pattern_of_unknown("$DIR/.env", false, Some(Path::new("/p")), None).unwrap();
        assert!(intersects(&p, &Pattern::glob("/p/.env")));
        let p = pattern_of_unknown("out/${NAME}.txt", false, Some(Path::new("/p")), None).unwrap();
        assert!(!intersects(&p, &Pattern::glob("**/.env")));
        assert!(intersects(&p, &Pattern::literal("/p/out/a.txt")));
    }
}
