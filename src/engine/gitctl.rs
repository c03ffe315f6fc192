//! Git's own routes into git control, and git's pathspecs read with their
//! magic.
//!
//! - `git init --template=DIR`, `git clone --template=DIR` copy hooks
//!   (and more) from DIR into the new repository's git folder;
//!   `git clone -c core.hooksPath=…` / `include.path=…` write its config;
//!   `git config include.path …` makes git read another config file:
//!   BLOCKED `cage.git_control` outright.
//! - `git checkout-index --prefix=P`, `git read-tree --prefix=P`: files
//!   land under P (`.git/hooks/`, the `core.hooksPath` folder); `git config
//!   -f F` (setting) writes F: each judged by the path law.
//! - pathspecs (`git checkout evil -- ':(icase).GITHUB/WORKFLOWS/ci.yml'`):
//!   `:/` and `:(top)` from the repository's root, `:(literal)` without
//!   wildcards, `:(exclude)`/`:!`/`:^` alone meaning the whole tree, and
//!   `--pathspec-from-file=F` read from F (unknown content is SIGNED).
//!
//! Takes the peeled `git` arguments; adds findings and write targets.

use super::Run;
use super::ctx::Ctx;
use crate::law::Reach;
use crate::rule_id::Rule;
use crate::shell::Word;
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};

/// Pathspecs read from one `--pathspec-from-file`, at most.
const MAX_PATHSPECS: usize = 1000;

/// Config keys whose value is another config file git reads
/// (`include.path`, `includeIf.<cond>.path`) or the hooks folder.
fn is_control_key(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    key == "core.hookspath"
        || key == "include.path"
        || (key.starts_with("includeif.") && key.ends_with(".path"))
}

/// An option's value in `args` (`--opt=V`, `--opt V`, or `-xV` for a
/// one-letter `short`), for every time it is given.
fn option_values(args: &[Word], long: &str, short: Option<&str>) -> Vec<Word> {
    let mut values = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let value = arg.value.as_str();
        if value == "--" {
            break;
        }
        let attached = value
            .strip_prefix(long)
            .and_then(|rest| rest.strip_prefix('='))
            .or_else(|| short.and_then(|s| value.strip_prefix(s).filter(|rest| !rest.is_empty())));
        if let Some(rest) = attached {
            let mut word = arg.clone();
            word.value = rest.to_string();
            values.push(word);
        } else if (value == long || short == Some(value))
            && let Some(next) = iter.next()
        {
            values.push(next.clone());
        }
    }
    values
}

/// The folder part of a `--prefix` (`.git/hooks/` → `.git/hooks`; `.git/ho`
/// → `.git`, since files land at `PREFIX` + their name), as a word.
pub(super) fn prefix_folder(prefix: &Word) -> Word {
    let mut word = prefix.clone();
    word.value = match prefix.value.rfind('/') {
        Some(0) => "/".to_string(),
        Some(at) => prefix.value[..at].to_string(),
        None => ".".to_string(),
    };
    word
}

/// Whether `args` hold a pathspec that names files (not an exclusion):
/// a word after `--`, or, without `--`, a word with magic.
fn has_positive_pathspec(args: &[Word]) -> bool {
    let after = args.iter().position(|a| a.value == "--");
    let candidates: Vec<&Word> = match after {
        Some(at) => args[at + 1..].iter().collect(),
        None => args.iter().filter(|a| a.value.starts_with(':')).collect(),
    };
    candidates.iter().any(|a| !read_pathspec(&a.value).exclude)
}

/// What a pathspec's magic says (`:(top,icase)x`, `:/x`, `:!x`).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pathspec {
    /// The path or pattern after the magic.
    pub path: String,
    /// From the repository's root (`:/`, `top`).
    pub top: bool,
    /// Excludes rather than names (`:!`, `:^`, `exclude`).
    pub exclude: bool,
    /// No wildcards (`literal`).
    pub literal: bool,
    /// Magic git does not know (git stops with an error; read as unknown).
    pub unknown: bool,
}

/// Reads one pathspec's magic, as git's `parse_pathspec` does.
pub fn read_pathspec(text: &str) -> Pathspec {
    let mut spec = Pathspec::default();
    let Some(rest) = text.strip_prefix(':') else {
        spec.path = text.to_string();
        return spec;
    };
    if let Some(long) = rest.strip_prefix('(') {
        let Some((magic, path)) = long.split_once(')') else {
            spec.unknown = true;
            spec.path = rest.to_string();
            return spec;
        };
        for word in magic.split(',').map(str::trim) {
            match word.to_ascii_lowercase().as_str() {
                "top" => spec.top = true,
                "exclude" => spec.exclude = true,
                "literal" => spec.literal = true,
                // Matches fewer (glob) or the same names in other cases
                // (icase: the law compares ASCII case-insensitively).
                "icase" | "glob" | "" => {}
                other if other.starts_with("attr:") || other.starts_with("prefix:") => {}
                _ => spec.unknown = true,
            }
        }
        spec.path = path.to_string();
        return spec;
    }
    // Short magic: `/`, `!`, `^` up to a `:` or the first other character.
    let mut chars = rest.char_indices();
    let mut end = rest.len();
    for (at, c) in chars.by_ref() {
        match c {
            '/' => spec.top = true,
            '!' | '^' => spec.exclude = true,
            ':' => {
                end = at + 1;
                break;
            }
            _ => {
                end = at;
                break;
            }
        }
    }
    spec.path = rest[end..].to_string();
    spec
}

impl Run<'_> {
    /// Git's routes into git control (see the module): outright findings
    /// and write targets for the path law.
    pub(super) fn git_control_routes(&mut self, verb: &str, args: &[Word], ctx: &Ctx) {
        let (part, depth, cwd) = (ctx.part(), ctx.depth, ctx.cwd.clone());
        if verb != "git" {
            return;
        }
        let globals = crate::git::read(args);
        let Some(sub_at) = globals.sub else { return };
        let Some(sub) = args.get(sub_at) else { return };
        let rest = &args[sub_at + 1..];
        match sub.value.as_str() {
            "init" | "clone" => {
                let template = option_values(rest, "--template", None);
                if template.iter().any(|t| !t.value.is_empty()) {
                    self.git_control_finding(
                        "copies hooks and configuration from a template folder into the new repository's git folder",
                        part,
                        depth,
                    );
                }
                if !option_values(rest, "--separate-git-dir", None).is_empty() {
                    self.git_control_finding(
                        "writes a `.git` file that points at a git folder elsewhere (--separate-git-dir)",
                        part,
                        depth,
                    );
                }
                if sub.value == "clone" {
                    let configs: Vec<Word> = option_values(rest, "--config", Some("-c"));
                    if configs
                        .iter()
                        .any(|c| is_control_key(c.value.split('=').next().unwrap_or("")))
                    {
                        self.git_control_finding(
                            "writes the hooks folder or a config include into the new repository's config",
                            part,
                            depth,
                        );
                    }
                }
            }
            "checkout-index" | "read-tree" => {
                let prefixes = option_values(rest, "--prefix", None);
                for prefix in &prefixes {
                    self.note(depth, || format!("git: files land under {}", prefix.value));
                    let folder = prefix_folder(prefix);
                    self.write_target(&folder, cwd.clone(), Reach::Tree, part, depth);
                }
                if sub.value == "checkout-index" && prefixes.is_empty() {
                    self.checked_out_paths(rest, part, depth, cwd.clone());
                }
            }
            "config" => self.git_config_routes(rest, part, depth, cwd.clone()),
            _ => {}
        }
        self.pathspecs_from_file(&sub.value, rest, part, depth, cwd.as_deref());
    }

    /// `git checkout-index PATH…` writes each PATH from the index; `-a`
    /// writes every tracked file (the whole tree, from the root).
    fn checked_out_paths(&mut self, rest: &[Word], part: &str, depth: usize, cwd: Option<PathBuf>) {
        let all = rest.iter().take_while(|a| a.value != "--").any(|a| {
            a.value == "--all"
                || a.value.starts_with('-') && !a.value.starts_with("--") && a.value.contains('a')
        });
        if all && let Some(dir) = cwd.as_deref() {
            let root = crate::law::resolve::find_root(dir).unwrap_or_else(|| dir.to_path_buf());
            let tree = Word::literal(&root.to_string_lossy());
            self.write_target(&tree, cwd.clone(), Reach::Tree, part, depth);
        }
        let mut after_dashes = false;
        for arg in rest {
            if arg.value == "--" && !after_dashes {
                after_dashes = true;
            } else if after_dashes || !arg.value.starts_with('-') {
                self.write_target(arg, cwd.clone(), Reach::Path, part, depth);
            }
        }
    }

    /// `git config -f F KEY VALUE` writes F; `git config include.path F`
    /// makes git read F.
    fn git_config_routes(&mut self, rest: &[Word], part: &str, depth: usize, cwd: Option<PathBuf>) {
        const SETS: &[&str] = &[
            "--unset",
            "--unset-all",
            "--add",
            "--replace-all",
            "--rename-section",
            "--remove-section",
            "-e",
            "--edit",
        ];
        const READS: &[&str] = &[
            "get",
            "list",
            "-l",
            "--list",
            "--get",
            "--get-all",
            "--get-regexp",
            "--get-urlmatch",
            "--get-color",
            "--get-colorbool",
        ];
        let mut operands: Vec<&Word> = Vec::new();
        let mut sets = false;
        let mut reads = false;
        let mut iter = rest.iter();
        while let Some(arg) = iter.next() {
            let value = arg.value.as_str();
            if matches!(
                value,
                "-f" | "--file"
                    | "--blob"
                    | "--type"
                    | "--default"
                    | "--comment"
                    | "--value"
                    | "--url"
            ) {
                iter.next();
            } else if SETS.contains(&value)
                || matches!(
                    value,
                    "set" | "unset" | "edit" | "rename-section" | "remove-section"
                ) && operands.is_empty()
            {
                sets = true;
            } else if READS.contains(&value) {
                reads = true;
            } else if !value.starts_with('-') {
                operands.push(arg);
            }
        }
        let sets = sets || !reads && operands.len() >= 2;
        if !sets {
            return;
        }
        for file in option_values(rest, "--file", Some("-f")) {
            if file.value != "-" {
                self.write_target(&file, cwd.clone(), Reach::Path, part, depth);
            }
        }
        let key = operands
            .iter()
            .map(|w| w.value.as_str())
            .find(|v| !matches!(*v, "set" | "unset"));
        if key.is_some_and(|k| is_control_key(k) && !k.eq_ignore_ascii_case("core.hookspath")) {
            self.git_control_finding(
                "makes git read another configuration file (include.path)",
                part,
                depth,
            );
        }
    }

    /// One `cage.git_control` finding that names what the command does.
    fn git_control_finding(&mut self, what: &str, part: &str, depth: usize) {
        let Some(rule) = crate::law::gitctl::rule() else {
            return;
        };
        self.note(depth, || format!("path law: git control: {what}"));
        self.find(
            Verdict::Blocked,
            crate::law::gitctl::RULE,
            format!("{what} ({})", rule.source),
            rule.remediation,
            part,
        );
    }

    /// A pathspec with magic (`:(icase)…`, `:/…`, `:!…`) written by git:
    /// judged as the path it names, from the root for `top`; an exclusion
    /// alone stands for the whole tree. Returns whether the word was one.
    pub(super) fn git_magic_pathspec(
        &mut self,
        word: &Word,
        args: &[Word],
        cwd: Option<&Path>,
        part: &str,
        depth: usize,
    ) -> bool {
        if !word.value.starts_with(':') {
            return false;
        }
        let spec = read_pathspec(&word.value);
        self.judge_pathspec(&spec, word, args, cwd, part, depth);
        true
    }

    /// Judges one read pathspec (see [`Run::git_magic_pathspec`]).
    fn judge_pathspec(
        &mut self,
        spec: &Pathspec,
        word: &Word,
        args: &[Word],
        cwd: Option<&Path>,
        part: &str,
        depth: usize,
    ) {
        let Some(cwd) = cwd else { return };
        let root = crate::law::resolve::find_root(cwd).unwrap_or_else(|| cwd.to_path_buf());
        if spec.unknown {
            self.find(
                Verdict::Signed,
                Rule::WriteUnresolved,
                format!(
                    "the pathspec `{}` has magic portcullis does not read; it could name any file",
                    crate::limits::clip(&word.value, 80)
                ),
                "Name the files plainly (no pathspec magic) so the path law can check them.",
                part,
            );
            return;
        }
        if spec.exclude {
            // Alone, an exclusion restores everything else in the tree.
            if !has_positive_pathspec(args) {
                let mut tree = word.clone();
                tree.value = root.to_string_lossy().into_owned();
                self.write_target(&tree, Some(cwd.to_path_buf()), Reach::Tree, part, depth);
            }
            return;
        }
        let base = if spec.top { root } else { cwd.to_path_buf() };
        let path = if spec.path.is_empty() {
            "."
        } else {
            spec.path.as_str()
        };
        let mut named = word.clone();
        named.value = path.to_string();
        named.glob = false;
        self.note(depth, || {
            format!(
                "git pathspec {} names {path} in {}",
                word.value,
                base.display()
            )
        });
        if !spec.literal && path.contains(['*', '?', '[']) {
            self.git_pathspec(&named, Some(&base), part, depth);
        }
        self.write_target(&named, Some(base), Reach::Tree, part, depth);
    }

    /// `--pathspec-from-file=F`: each pathspec in F judged as an operand of
    /// a command that restores files (`checkout`, `restore`); F only known
    /// when git runs (`-`, unreadable) is SIGNED.
    fn pathspecs_from_file(
        &mut self,
        sub: &str,
        rest: &[Word],
        part: &str,
        depth: usize,
        cwd: Option<&Path>,
    ) {
        if !matches!(sub, "checkout" | "restore") {
            return;
        }
        if rest.iter().any(|a| {
            a.value == "--staged"
                && !rest
                    .iter()
                    .any(|b| b.value == "--worktree" || b.value == "-W")
        }) {
            return;
        }
        let nul = rest.iter().any(|a| a.value == "--pathspec-file-nul");
        for file in option_values(rest, "--pathspec-from-file", None) {
            let text = if file.value == "-" {
                None
            } else {
                self.read_script(&file, cwd).ok()
            };
            let Some(text) = text else {
                self.find(
                    Verdict::Signed,
                    Rule::WriteUnresolved,
                    format!(
                        "restores the paths listed in `{}`, which portcullis cannot read before git does",
                        crate::limits::clip(&file.value, 80)
                    ),
                    "Name the paths on the command line so the path law can check them.",
                    part,
                );
                continue;
            };
            let separator = if nul { '\0' } else { '\n' };
            let specs: Vec<String> = text
                .split(separator)
                .map(|l| l.trim_end_matches('\r'))
                .filter(|l| !l.is_empty())
                .take(MAX_PATHSPECS)
                .map(|l| {
                    if !nul && l.starts_with('"') {
                        super::patch::unquote_c(l).0
                    } else {
                        l.to_string()
                    }
                })
                .collect();
            let mut words: Vec<Word> = vec![Word::literal("--")];
            words.extend(specs.iter().map(|s| Word::literal(s)));
            for word in &words[1..] {
                let spec = read_pathspec(&word.value);
                if !word.value.starts_with(':') && word.value.contains(['*', '?', '[']) {
                    self.git_pathspec(word, cwd, part, depth);
                }
                self.judge_pathspec(&spec, word, &words, cwd, part, depth);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pathspec_magic_is_read_as_git_reads_it() {
        let spec = read_pathspec(":(icase).GITHUB/WORKFLOWS/ci.yml");
        assert_eq!(spec.path, ".GITHUB/WORKFLOWS/ci.yml");
        assert!(!spec.top && !spec.exclude && !spec.unknown);
        let spec = read_pathspec(":/.github");
        assert!(spec.top);
        assert_eq!(spec.path, ".github");
        let spec = read_pathspec(":/!:README");
        assert!(spec.top && spec.exclude);
        assert_eq!(spec.path, "README");
        assert!(read_pathspec(":^x").exclude);
        assert!(read_pathspec(":(top,exclude)x").exclude);
        assert!(read_pathspec(":(literal)*.yml").literal);
        assert!(read_pathspec(":(bogus)x").unknown);
        assert!(read_pathspec(":(unclosed").unknown);
        assert_eq!(read_pathspec("plain").path, "plain");
    }

    #[test]
    fn prefixes_name_their_folder() {
        assert_eq!(
            prefix_folder(&Word::literal(".git/hooks/")).value,
            ".git/hooks"
        );
        assert_eq!(prefix_folder(&Word::literal(".git/ho")).value, ".git");
        assert_eq!(prefix_folder(&Word::literal("out-")).value, ".");
    }
}
