//! The path law: every path a command or an edit tool writes, judged
//! against the protected paths of the ecosystem before the write happens.
//!
//! - built-in rules, always on (`rules/law.json`): the cage's `ci_config`,
//!   `secrets`, `git_control`, `cage_config`, `lockfile` and
//!   `dependency_manifest`, and the workspace-trust inventory
//!   (`trust.executable`, `trust.model_influencing`);
//! - project policy, read from the repository that holds the path
//!   ([`policy`]): `.cage.yaml` (`protect:`, `allow_only:`,
//!   `dependencies:`), gantry's manifest and active mission (forbidden
//!   zones, edit roots), and the workspace-trust project maximum.
//!
//! Takes a [`Spot`] (a write target, resolved and made a pattern); returns
//! [`Hit`]s. A policy file can only add: an invalid one is read in the
//! strictest way (every write in its repository BLOCKED, named in the
//! reason), and the built-ins always apply.

pub mod document;
pub mod gitignore;
pub mod glob;
pub mod policy;
pub mod resolve;
pub mod show;

use crate::paths::{Target, normalise};
use crate::rules::{FROZEN_COMMANDS, FrozenCommand, FrozenRest, LOCK_SAFE_FLAGS, PROTECTED_RULES};
use crate::shell::Word;
use crate::verdict::Verdict;
use glob::{Pattern, Quick, intersects};
use policy::{Policy, Trust};
use resolve::{FsCache, Repository};
use std::path::{Path, PathBuf};

/// One repository's law: where it is, and what its policy files add.
#[derive(Debug)]
pub struct Law {
    /// The repository (or the folder the law is anchored at).
    pub repo: Repository,
    /// Its project policy.
    pub policy: Policy,
}

impl Law {
    /// Reads the law of the repository holding `dir`.
    pub fn at(dir: &Path) -> Law {
        Law::of(Repository::at(dir))
    }

    fn of(repo: Repository) -> Law {
        let policy = Policy::load(&repo.root);
        Law { repo, policy }
    }

    /// Whether dependencies are frozen here.
    pub fn frozen(&self) -> bool {
        self.policy.cage.frozen
    }
}

/// The laws one request may need: the repository of its working folder,
/// loaded on first use, and any other repository a target lands in.
#[derive(Debug, Default)]
pub struct Laws {
    cwd: Option<PathBuf>,
    loaded: bool,
    laws: Vec<Law>,
    /// Links resolved and `.git` looked for so far.
    pub fs: FsCache,
}

impl Laws {
    /// Laws for requests run in `cwd` (nothing is read yet).
    pub fn new(cwd: Option<&Path>) -> Laws {
        Laws {
            cwd: cwd.map(Path::to_path_buf),
            loaded: false,
            laws: Vec::new(),
            fs: FsCache::default(),
        }
    }

    /// The law of the working folder's repository.
    pub fn home(&mut self) -> Option<&Law> {
        self.load_home();
        self.home_index().map(|i| &self.laws[i])
    }

    fn load_home(&mut self) {
        if !self.loaded {
            self.loaded = true;
            if let Some(cwd) = &self.cwd {
                let law = Law::at(cwd);
                self.laws.insert(0, law);
            }
        }
    }

    fn home_index(&self) -> Option<usize> {
        self.cwd
            .as_ref()
            .map(|_| 0)
            .filter(|_| !self.laws.is_empty())
    }

    /// The law of the repository holding `path`, loading it if needed.
    fn for_path(&mut self, path: &Path) -> Option<usize> {
        self.load_home();
        let best = self
            .laws
            .iter()
            .enumerate()
            .filter(|(_, law)| law.repo.relative(path).is_some())
            .max_by_key(|(_, law)| law.repo.root.as_os_str().len())
            .map(|(i, _)| i);
        // A nested repository (a submodule, a clone inside the project)
        // has a law of its own: look for `.git` between the path and the
        // root of the law that holds it (or up to `/` when none does).
        let start = path.parent().unwrap_or(path);
        let stop = best.map(|i| self.laws[i].repo.root.clone());
        let nested = start
            .ancestors()
            .take_while(|dir| {
                stop.as_deref()
                    .is_none_or(|s| *dir != s && dir.starts_with(s))
            })
            .find(|dir| std::fs::symlink_metadata(dir.join(".git")).is_ok())
            .map(Path::to_path_buf);
        match (best, nested) {
            (_, Some(root)) => Some(self.push(root)),
            (Some(i), None) => Some(i),
            (None, None) => None,
        }
    }

    fn push(&mut self, root: PathBuf) -> usize {
        if let Some(i) = self.laws.iter().position(|l| l.repo.root == root) {
            return i;
        }
        self.laws.push(Law::of(Repository::with_root(root)));
        self.laws.len() - 1
    }

    /// Every law loaded so far.
    pub fn loaded(&self) -> &[Law] {
        &self.laws
    }
}

/// What a finding of the law says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The verdict.
    pub verdict: Verdict,
    /// The rule id (`cage.secrets`, `gantry.forbidden_zone` …).
    pub rule: String,
    /// Why, naming the path and where the rule comes from.
    pub reason: String,
    /// What to do instead.
    pub remediation: String,
}

/// How far a write reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    pub fn path(path: &Path, shown: &str, reach: Reach, fs: &mut FsCache) -> Spot {
        let lexical = normalise(path);
        let real = fs.resolve(&lexical);
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
        match &target.path {
            Some(path) if !target.glob => Some(Spot::path(path, &target.raw, reach, fs)),
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
            None if !target.dynamic => {
                // A literal that merely looks like an expansion (`'$HOME'`).
                let mut named = Pattern::literal(&cwd?.to_string_lossy());
                named.push_literal("/");
                if target.glob {
                    named.append(&Pattern::shell_glob(&target.raw));
                } else {
                    named.push_literal(&target.raw);
                }
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

    fn forms(&self) -> impl Iterator<Item = &Pattern> {
        std::iter::once(&self.named).chain(self.real.as_ref())
    }
}

/// An absolute pattern for a word whose value is partly unknown: each
/// `$NAME`, `${…}`, `$(…)` and backtick part may be any text, `/` included.
fn pattern_of_unknown(
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
    while i < chars.len() {
        let c = chars[i];
        let unknown_len = match c {
            '$' => unknown_length(&chars[i..]),
            '`' => chars[i + 1..]
                .iter()
                .position(|&c| c == '`')
                .map_or(chars.len() - i, |p| p + 2),
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
        Some('{') | Some('(') => {
            let (open, close) = if chars[1] == '{' {
                ('{', '}')
            } else {
                ('(', ')')
            };
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
            1 + chars[1..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                .count()
        }
        Some(c) if c.is_ascii_digit() || "@*#?$!-".contains(*c) => 2,
        _ => 0,
    }
}

impl Laws {
    /// The law's findings for one write target.
    pub fn judge(&mut self, spot: &Spot) -> Vec<Hit> {
        let mut hits: Vec<Hit> = Vec::new();
        if spot.unresolved && spot.named.literal_prefix().is_empty() {
            // Nothing of the path is known (`> "$F"`, `"$DIR/x"`): it could
            // be any protected path.
            return vec![unresolved_hit(spot, "any path, protected ones included")];
        }
        if spot.unresolved
            && let Some((folder, last)) = &spot.folder
        {
            // Every match lies in this folder: a rule covering it is certain.
            let inside = Spot {
                folder: None,
                ..Spot::path(folder, &spot.shown, Reach::Path, &mut self.fs)
            };
            let certain = self.judge(&inside);
            if !certain.is_empty() {
                return certain;
            }
            // The folder exists: judge what the glob matches there now.
            if let (Some(last), Ok(entries)) = (last, std::fs::read_dir(folder)) {
                let name = Pattern::shell_glob(last);
                let mut hits = Vec::new();
                for entry in entries.flatten().take(MAX_TREE_ENTRIES) {
                    let entry_name = entry.file_name();
                    let Some(entry_name) = entry_name.to_str() else {
                        continue;
                    };
                    if !name.matches(entry_name) {
                        continue;
                    }
                    let matched = Spot {
                        folder: None,
                        ..Spot::path(&entry.path(), &spot.shown, spot.reach, &mut self.fs)
                    };
                    for hit in self.judge(&matched) {
                        if !hits.iter().any(|h: &Hit| h.rule == hit.rule) {
                            hits.push(hit);
                        }
                    }
                }
                return hits;
            }
        }
        let forms: Vec<Pattern> = spot.forms().cloned().collect();
        // A glob outside every repository could match anything there; it is
        // judged like a path only run time knows.
        let mut unresolved = spot.unresolved;
        for form in &forms {
            let (index, rel) = self.relative_form(form);
            match index {
                Some(i) => judge_form(Some(&self.laws[i]), &rel, spot, &mut hits),
                None => {
                    unresolved |= !form.is_literal();
                    // Outside every repository only the named path is
                    // judged: what lies beneath it is unknown.
                    let named_only = Spot {
                        reach: Reach::Path,
                        ..spot.clone()
                    };
                    judge_form(None, &rel, &named_only, &mut hits);
                }
            }
            // What a tree on disk holds: files that rules match at any
            // depth (`infra/main.tf`, `docs/x/.env`) and repositories of
            // their own (`vendor/lib`).
            // Only inside the request's own repository: a tree elsewhere is
            // judged by its name.
            if spot.reach == Reach::Tree && form.is_literal() {
                let dir = PathBuf::from(form.literal_prefix());
                let home_root = self.home_index().map(|i| self.laws[i].repo.root.clone());
                let in_home = home_root
                    .is_some_and(|r| dir.starts_with(&r) && self.laws[0].repo.git_dir.is_some());
                if in_home && dir.is_dir() {
                    let (files, repositories) = tree_listing(&dir);
                    for root in repositories {
                        self.push(root);
                    }
                    let file_spot = Spot {
                        reach: Reach::Path,
                        ..spot.clone()
                    };
                    for file in files {
                        let (index, rel) =
                            self.relative_form(&Pattern::literal(&file.to_string_lossy()));
                        judge_form(index.map(|i| &self.laws[i]), &rel, &file_spot, &mut hits);
                    }
                }
            }
            // A tree that holds a whole repository (`rm -rf ..`) reaches
            // all of that repository's protected paths.
            if spot.reach == Reach::Tree && form.is_literal() {
                let path = PathBuf::from(form.literal_prefix());
                for law in &self.laws {
                    let is_repository = law.repo.git_dir.is_some();
                    if is_repository && law.repo.root != path && law.repo.root.starts_with(&path) {
                        judge_form(Some(law), &Pattern::literal(""), spot, &mut hits);
                    }
                }
            }
        }
        // Git folders outside the work tree (linked work trees) and a
        // `core.hooksPath` anywhere.
        for law in &self.laws {
            let mut controls: Vec<PathBuf> = Vec::new();
            if let Some(dir) = &law.repo.git_dir
                && !dir.starts_with(&law.repo.root)
            {
                controls.push(dir.join("config"));
                controls.push(dir.join("hooks"));
            }
            controls.extend(law.repo.hooks_path.clone());
            for control in controls {
                let control = Pattern::literal(&control.to_string_lossy());
                if forms.iter().any(|f| covers(&control, f, spot.reach, false)) {
                    add(
                        &mut hits,
                        spot,
                        Verdict::Blocked,
                        "cage.git_control",
                        "git control (config or hooks; the active core.hooksPath)",
                        "cage built-in rule git_control",
                        "Git configuration and hooks are for the person to change; say what you need and why.",
                    );
                }
            }
        }
        if unresolved && !hits.is_empty() {
            // What only run time knows cannot be pinned on one rule: one
            // signed finding says what the target could be.
            hits.sort_by_key(|h| std::cmp::Reverse(h.verdict));
            let mut could_be = hits
                .iter()
                .take(3)
                .map(|h| h.rule.as_str())
                .collect::<Vec<_>>()
                .join(", ");
            if hits.len() > 3 {
                could_be.push_str(", …");
            }
            hits = vec![unresolved_hit(
                spot,
                &format!("a protected path ({could_be})"),
            )];
        }
        hits
    }

    /// The root-relative pattern of one form of a spot, and its law; outside
    /// every repository, no law and the absolute pattern.
    fn relative_form(&mut self, form: &Pattern) -> (Option<usize>, Pattern) {
        let prefix = form.literal_prefix();
        if prefix.is_empty() || !prefix.starts_with('/') {
            // Starts with an unknown part: judged by the working folder's law.
            self.load_home();
            return (self.home_index(), form.clone());
        }
        let folder = if form.is_literal() {
            PathBuf::from(&prefix)
        } else {
            PathBuf::from(&prefix[..prefix.rfind('/').unwrap_or(0).max(1)])
        };
        match self.for_path(&folder) {
            Some(i) => {
                let law = &self.laws[i];
                let roots = std::iter::once(&law.repo.root).chain(law.repo.real_root.as_ref());
                for root in roots {
                    let root_text = root.to_string_lossy();
                    if let Some(rel) = form.strip_literal_prefix(&format!("{root_text}/")) {
                        return (Some(i), rel);
                    }
                    if form.is_literal() && prefix == root_text {
                        return (Some(i), Pattern::literal(""));
                    }
                }
                (None, form.clone())
            }
            None => (None, form.clone()),
        }
    }
}

/// Entries listed under a tree a command deletes or moves, at most.
const MAX_TREE_ENTRIES: usize = 1000;
/// Folders deep, at most.
const MAX_TREE_DEPTH: usize = 12;
/// Folders the listing skips, as the cage's whole-tree scan does.
const SKIPPED_FOLDERS: &[&str] = &["node_modules", ".git", ".venv", "venv", "__pycache__"];

/// The files under `dir` (links not followed) and the roots of any
/// repositories nested in it; bounded by [`MAX_TREE_ENTRIES`] and
/// [`MAX_TREE_DEPTH`] (past them the listing stops: the command is SIGNED
/// anyway, and what was listed is judged).
fn tree_listing(dir: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut files = Vec::new();
    let mut repositories = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), 0usize)];
    let mut seen = 0usize;
    while let Some((folder, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > MAX_TREE_ENTRIES {
                return (files, repositories);
            }
            let name = entry.file_name();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if name == ".git" && folder != dir {
                repositories.push(folder.clone());
            }
            if kind.is_dir() {
                if depth < MAX_TREE_DEPTH && !SKIPPED_FOLDERS.iter().any(|s| name == *s) {
                    stack.push((entry.path(), depth + 1));
                }
            } else {
                files.push(entry.path());
            }
        }
    }
    (files, repositories)
}

const TRUST_NOTE: &str = ".veritas-kanban/workspace-trust.json";

/// The one finding for a write target only run time knows.
fn unresolved_hit(spot: &Spot, could_be: &str) -> Hit {
    Hit {
        verdict: Verdict::Signed,
        rule: "write.unresolved".to_string(),
        reason: format!(
            "the write target `{}` is only known when the command runs, and could be {could_be}",
            crate::limits::clip(&spot.shown, 80)
        ),
        remediation:
            "Name the file literally (no variables or globs) so the path law can check it."
                .to_string(),
    }
}

/// One built-in rule's patterns, compiled once per process.
struct Compiled {
    /// Each path pattern, whether it names a file at any depth, and its
    /// quick form when it has one.
    paths: Vec<(Pattern, bool, Option<Quick>)>,
    except: Vec<Pattern>,
}

/// The built-in rules' patterns, in `PROTECTED_RULES` order: root-relative
/// (inside a repository) or anchored at any depth (outside every one).
fn builtin_patterns(in_repository: bool) -> &'static [Compiled] {
    static RELATIVE: std::sync::OnceLock<Vec<Compiled>> = std::sync::OnceLock::new();
    static ANYWHERE: std::sync::OnceLock<Vec<Compiled>> = std::sync::OnceLock::new();
    let cell = if in_repository { &RELATIVE } else { &ANYWHERE };
    cell.get_or_init(|| {
        PROTECTED_RULES
            .iter()
            .map(|rule| Compiled {
                paths: rule
                    .paths
                    .iter()
                    .map(|p| {
                        let pattern = rule_pattern(p, in_repository);
                        let quick = pattern.quick();
                        (pattern, p.starts_with("**/"), quick)
                    })
                    .collect(),
                except: rule.except.iter().map(|p| Pattern::glob(p)).collect(),
            })
            .collect()
    })
}

/// The built-in BLOCKED rule that already covers a root-relative literal
/// path, if any (a `.cage.yaml` `report` entry there would weaken it).
pub fn builtin_revert_rule(path: &str) -> Option<&'static str> {
    let spot = Pattern::literal(path);
    PROTECTED_RULES
        .iter()
        .zip(builtin_patterns(true))
        .filter(|(rule, _)| rule.verdict == Some(Verdict::Blocked))
        .find(|(_, compiled)| {
            compiled
                .paths
                .iter()
                .any(|(pattern, _, quick)| match quick {
                    Some(quick) => quick.covers(path),
                    None => covers(pattern, &spot, Reach::Path, false),
                })
        })
        .map(|(rule, _)| rule.id)
}

/// A built-in rule's pattern: root-relative in a repository; outside every
/// repository (no law, the path absolute) matched at any depth, so
/// `.github/workflows/x` is caught in whatever folder it is.
fn rule_pattern(glob: &str, in_repository: bool) -> Pattern {
    if in_repository || glob.starts_with("**/") {
        Pattern::glob(glob)
    } else {
        Pattern::glob(&format!("**/{glob}"))
    }
}

/// Whether a rule's pattern covers (a path of) the spot: the rule names the
/// path or a folder above it, or, for a write that reaches a whole tree,
/// something inside it. Rules that match a name at any depth (`**/.env`)
/// do not reach into a tree: that would need the folder's listing.
fn covers(rule: &Pattern, spot: &Pattern, reach: Reach, anywhere_rule: bool) -> bool {
    if spot.is_literal() {
        // The common case, a known path: the rule names it or a folder
        // above it.
        let named = rule.covers_path(&spot.literal_prefix());
        return named
            || reach == Reach::Tree && !anywhere_rule && intersects(rule, &spot.beneath());
    }
    // A pattern reaches beneath a rule only when the rule names a folder
    // (`.github/workflows`), not a file (`azure-pipelines.yml/x.txt`).
    intersects(rule, spot)
        || reach != Reach::Files && rule.names_folder() && intersects(&rule.beneath(), spot)
        || reach == Reach::Tree && !anywhere_rule && intersects(rule, &spot.beneath())
}

fn add(
    hits: &mut Vec<Hit>,
    spot: &Spot,
    verdict: Verdict,
    rule: &str,
    what: &str,
    source: &str,
    remediation: &str,
) {
    if hits.iter().any(|h| h.rule == rule && h.verdict >= verdict) {
        return;
    }
    hits.retain(|h| h.rule != rule);
    let reason = if spot.reach == Reach::Tree {
        format!(
            "writes `{}` and everything beneath it, which reaches {what} ({source})",
            crate::limits::clip(&spot.shown, 120)
        )
    } else {
        format!(
            "writes `{}`, {what} ({source})",
            crate::limits::clip(&spot.shown, 120)
        )
    };
    hits.push(Hit {
        verdict,
        rule: rule.to_string(),
        reason,
        remediation: remediation.to_string(),
    });
}

/// Judges one root-relative form against the built-ins and `law`'s policy.
fn judge_form(law: Option<&Law>, rel: &Pattern, spot: &Spot, hits: &mut Vec<Hit>) {
    let frozen = law.is_some_and(Law::frozen);
    let compiled = builtin_patterns(law.is_some());
    let literal = rel.is_literal().then(|| rel.literal_prefix());
    for (rule, compiled) in PROTECTED_RULES.iter().zip(compiled) {
        let Some(verdict) = (if frozen {
            rule.frozen.or(rule.verdict)
        } else {
            rule.verdict
        }) else {
            continue;
        };
        let hit = compiled
            .paths
            .iter()
            .any(|(pattern, anywhere, quick)| match (quick, &literal) {
                // A known path in the common shapes: no simulation.
                (Some(quick), Some(path)) if spot.reach != Reach::Files => {
                    quick.covers(path) || spot.reach == Reach::Tree && quick.lies_beneath(path)
                }
                _ => covers(pattern, rel, spot.reach, *anywhere),
            });
        let excepted = hit
            && rel.is_literal()
            && compiled
                .except
                .iter()
                .any(|p| covers(p, rel, Reach::Path, true));
        if hit && !excepted {
            add(
                hits,
                spot,
                verdict,
                rule.id,
                rule.what,
                rule.source,
                rule.remediation,
            );
        }
    }
    let Some(law) = law else { return };
    let policy = &law.policy;
    // A write into a workspace whose trust is narrowed, from wherever the
    // request runs.
    if let Some(hit) = trust_hit(law, Verdict::Signed) {
        add(
            hits,
            spot,
            hit.verdict,
            &hit.rule,
            "inside a workspace whose trust is narrowed",
            TRUST_NOTE,
            &hit.remediation,
        );
    }
    for protect in &policy.cage.protect {
        if covers(
            &Pattern::glob(&protect.glob),
            rel,
            spot.reach,
            protect.glob.starts_with("**/"),
        ) {
            let mode = if protect.verdict == Verdict::Blocked {
                "revert"
            } else {
                "report"
            };
            add(
                hits,
                spot,
                protect.verdict,
                "cage.cage_protect",
                &format!("protected by the project ({mode})"),
                &format!(".cage.yaml protect: {}", protect.written),
                "The project protects this path (.cage.yaml); leave it unchanged, or ask the person.",
            );
        }
    }
    if let Some(gantry) = &policy.gantry {
        judge_gantry(gantry, rel, spot, hits);
    }
    judge_scope(law, rel, spot, hits);
    for problem in &policy.problems {
        let Some(rule) = problem_rule(problem.file) else {
            continue;
        };
        if !hits.iter().any(|h| h.rule == rule) {
            hits.push(Hit {
                verdict: Verdict::Blocked,
                rule: rule.to_string(),
                reason: format!(
                    "{} {}; until it is fixed, every write in the repository is blocked (the strictest reading)",
                    problem.file, problem.message
                ),
                remediation: format!(
                    "Ask the person to fix {} ({}); do not edit it yourself.",
                    problem.file, problem.message
                ),
            });
        }
    }
}

/// The rule that blocks every write when a policy file is invalid (the
/// trust file instead denies every request).
pub fn problem_rule(file: &str) -> Option<&'static str> {
    match file {
        policy::CAGE_FILE => Some("cage.cage_config"),
        policy::MANIFEST_YAML | policy::MANIFEST_JSON => Some("cage.manifest_forbidden_zone"),
        policy::ACTIVE_MISSION => Some("gantry.forbidden_zone"),
        _ => None,
    }
}

/// gantry's path law: forbidden zones beat roots; governance files are not
/// judged; nothing under `.gitagent/` is outside the roots.
fn judge_gantry(gantry: &policy::Gantry, rel: &Pattern, spot: &Spot, hits: &mut Vec<Hit>) {
    let literal = rel.is_literal().then(|| rel.literal_prefix());
    let mission = gantry.mission.as_ref();
    let transport = literal.as_deref().is_some_and(|p| {
        p == "EXECUTOR_LOG.md"
            || p == policy::ACTIVE_MISSION
            || mission.is_some_and(|m| {
                p == m.file
                    || m.id
                        .as_ref()
                        .is_some_and(|id| p == format!(".gitagent/runs/{id}.json"))
            })
    });
    if transport {
        return;
    }
    let zone_covers = |zone: &str| covers(&Pattern::literal(zone), rel, spot.reach, false);
    if let Some(m) = mission
        && let Some((zone, from)) = m.zones.iter().find(|(z, _)| zone_covers(z))
    {
        add(
            hits,
            spot,
            Verdict::Blocked,
            "gantry.forbidden_zone",
            &format!("inside the forbidden zone `{zone}` (GXT_FORBIDDEN_ZONE)"),
            &format!("{from} of mission {} for skill {}", m.file, m.skill),
            "Forbidden zones must not be touched: stop and escalate to the Planner, or fail the task. Do not write there by another route.",
        );
    }
    if let Some((zone, skill)) = gantry.all_zones.iter().find(|(z, _)| zone_covers(z)) {
        add(
            hits,
            spot,
            Verdict::Blocked,
            "cage.manifest_forbidden_zone",
            &format!("inside the forbidden zone `{zone}` of skill {skill} (GXT_FORBIDDEN_ZONE)"),
            &format!(
                "{}, cage built-in rule manifest_forbidden_zone",
                gantry.manifest
            ),
            "Forbidden zones must not be touched: stop and escalate to the Planner, or fail the task.",
        );
    }
    if let Some(glob) = gantry
        .perimeter
        .iter()
        .find(|g| covers(&perimeter_pattern(g), rel, spot.reach, g.starts_with("**/")))
    {
        add(
            hits,
            spot,
            Verdict::Signed,
            "gantry.perimeter_protected",
            &format!("perimeter-protected (`{glob}`): changes need a Planner-stamped commit"),
            &gantry.manifest,
            "Perimeter files change through the Planner; propose the change instead of making it.",
        );
    }
    let Some(m) = mission else { return };
    if m.roots.is_empty() {
        return;
    }
    let in_governance = covers(&Pattern::literal(".gitagent"), rel, Reach::Path, false)
        && rel.literal_prefix().starts_with(".gitagent/");
    let inside = m.roots.iter().any(|(root, _)| {
        let root = Pattern::literal(root);
        if rel.is_literal() {
            intersects(&root, rel) || intersects(&root.beneath(), rel)
        } else {
            // A pattern is inside only when all it can match is.
            rel.literal_prefix()
                .starts_with(&format!("{}/", root.literal_prefix()))
        }
    });
    if !inside && !in_governance {
        let path = crate::limits::clip(&rel.literal_prefix(), 120).to_string();
        let path = if path.is_empty() {
            spot.shown.clone()
        } else {
            path
        };
        let roots: Vec<&str> = m.roots.iter().map(|(r, _)| r.as_str()).collect();
        hits.push(Hit {
            verdict: Verdict::Signed,
            rule: "gantry.outside_roots".to_string(),
            reason: format!(
                "writes `{}`, outside mission {}'s edit roots ({}; from the {})",
                crate::limits::clip(&spot.shown, 120),
                m.file,
                roots.join(", "),
                m.roots.first().map_or("skill", |(_, from)| from)
            ),
            remediation: format!(
                "Record a context request first: gantry context-request --path {path} --reason \"<why this path is needed>\", and wait for the verifier."
            ),
        });
    }
}

/// gantry's perimeter glob dialect: `**/x` is a suffix match, anything
/// else is the path itself.
fn perimeter_pattern(glob: &str) -> Pattern {
    if glob.starts_with("**/") {
        Pattern::glob(glob)
    } else {
        Pattern::literal(glob)
    }
}

/// The cage's `allow_only:`: a write git would track, outside the area,
/// is out of scope. Gitignored paths (build output, caches) stay allowed.
fn judge_scope(law: &Law, rel: &Pattern, spot: &Spot, hits: &mut Vec<Hit>) {
    let area = &law.policy.cage.allow_only;
    if area.is_empty() {
        return;
    }
    let globs: Vec<Pattern> = area.iter().map(|g| Pattern::glob_exact_case(g)).collect();
    let inside = if rel.is_literal() {
        globs.iter().any(|g| g.covers_path(&rel.literal_prefix()))
    } else {
        // A pattern is in scope only when its fixed folder is.
        let fixed = rel.literal_prefix();
        let folder = fixed.rsplit_once('/').map_or("", |(f, _)| f);
        !folder.is_empty() && globs.iter().any(|g| g.covers_path(&format!("{folder}/x")))
    };
    if inside {
        return;
    }
    let text = rel.literal_prefix();
    if text.is_empty() && rel.is_literal() {
        return;
    }
    let git_internal = text == ".git" || text.starts_with(".git/");
    let is_folder = spot.reach == Reach::Tree || law.repo.root.join(&text).is_dir();
    if git_internal || rel.is_literal() && gitignore::is_ignored(&law.repo, &text, is_folder) {
        return;
    }
    add(
        hits,
        spot,
        Verdict::Blocked,
        "cage.out_of_scope",
        &format!("outside the task's area ({})", area.join(", ")),
        ".cage.yaml allow_only",
        "Stay inside the task's area (.cage.yaml allow_only); if the work needs this file, ask the person to widen the area.",
    );
}

/// How far a command's writes reach: `rm -r` deletes everything beneath a
/// folder; `mv` and git's pathspecs move or restore whatever is there.
/// `None`: the command writes nothing on disk (`git rm --cached`,
/// `git restore --staged` touch only the index). A mode change (`chmod
/// -R`) is judged on the named path only: it changes no content.
pub fn reach_of(verb: &str, args: &[Word]) -> Option<Reach> {
    let short = |letters: &str| {
        args.iter().any(|a| {
            a.value.starts_with('-')
                && !a.value.starts_with("--")
                && a.value[1..].chars().any(|c| letters.contains(c))
        })
    };
    let has = |flag: &str| args.iter().any(|a| a.value == flag);
    if verb == "git" && (has("--cached") || has("--staged")) && !(has("--worktree") || has("-W")) {
        return None;
    }
    let tree = match verb {
        "mv" | "git" => true,
        "rm" | "shred" => short("rR") || has("--recursive"),
        _ => false,
    };
    Some(if tree { Reach::Tree } else { Reach::Path })
}

/// Under a dependency freeze, the rule a command breaks: it adds, removes
/// or updates packages (`cage.dependency_manifest`) or rewrites a lockfile
/// (`cage.lockfile`).
pub fn frozen_command(verb: &str, args: &[Word]) -> Option<&'static FrozenCommand> {
    let mut words: Vec<&str> = vec![verb];
    let mut options = Vec::new();
    let mut rest = args;
    // `python -m pip install x` is `pip install x`.
    if verb.starts_with("python")
        && args.first().is_some_and(|a| a.value == "-m")
        && let Some(module) = args.get(1)
    {
        words = vec![module.value.as_str()];
        rest = &args[2..];
    }
    for word in rest {
        if word.value.starts_with('-') {
            options.push(word.value.as_str());
        } else {
            words.push(word.value.as_str());
        }
    }
    // A global install (`npm install -g tsc`) changes no project file.
    if options.iter().any(|o| matches!(*o, "-g" | "--global")) {
        return None;
    }
    // Entries with a package (`npm install +`) come first in the table:
    // `npm install lodash` changes the manifest; `npm install` alone, or
    // `cargo update -p serde`, rewrites the lockfile.
    FROZEN_COMMANDS.iter().find(|c| {
        let extra = words.len().saturating_sub(c.words.len());
        let fits = words.len() >= c.words.len()
            && words[..c.words.len()] == *c.words
            && match c.rest {
                FrozenRest::Nothing => extra == 0,
                FrozenRest::Package => extra > 0,
                FrozenRest::Any => true,
            };
        let safe = c.rule == "cage.lockfile" && options.iter().any(|o| LOCK_SAFE_FLAGS.contains(o));
        fits && !safe
    })
}

/// The trust finding for a whole request, when the project maximum
/// narrows it: `restricted` blocks everything but FREE, `denied` blocks
/// everything.
pub fn trust_hit(law: &Law, verdict: Verdict) -> Option<Hit> {
    let why = law
        .policy
        .problem(policy::TRUST_FILE)
        .map(|p| format!(" ({} {}, read as denied)", p.file, p.message))
        .unwrap_or_default();
    match law.policy.trust {
        Trust::Trusted => None,
        Trust::Restricted if verdict == Verdict::Free => None,
        Trust::Restricted => Some(Hit {
            verdict: Verdict::Blocked,
            rule: "trust.restricted".to_string(),
            reason: format!(
                "the workspace's trust is restricted ({}): read-only, no network; only commands that change nothing may run",
                policy::TRUST_FILE
            ),
            remediation: "Only read-only inspection is allowed in this workspace; ask the person to run anything else.".to_string(),
        }),
        Trust::Denied => Some(Hit {
            verdict: Verdict::Blocked,
            rule: "trust.denied".to_string(),
            reason: format!(
                "the workspace's trust is denied{}: nothing may run here until an operator records a decision",
                if why.is_empty() { format!(" ({})", policy::TRUST_FILE) } else { why }
            ),
            remediation: "Stop: this workspace is not trusted. Ask the person to review it.".to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spot(path: &str, reach: Reach) -> Spot {
        Spot::path(Path::new(path), path, reach, &mut FsCache::default())
    }

    fn rules_hit(laws: &mut Laws, path: &str, reach: Reach) -> Vec<(String, Verdict)> {
        laws.judge(&spot(path, reach))
            .into_iter()
            .map(|h| (h.rule, h.verdict))
            .collect()
    }

    #[test]
    fn builtins_without_a_repository() {
        let mut laws = Laws::new(Some(Path::new("/nonexistent/proj")));
        let hits = rules_hit(
            &mut laws,
            "/nonexistent/proj/.github/workflows/ci.yml",
            Reach::Path,
        );
        assert_eq!(hits[0], ("cage.ci_config".to_string(), Verdict::Blocked));
        assert!(hits.iter().any(|(r, _)| r == "trust.executable"));
        let hits = rules_hit(&mut laws, "/nonexistent/proj/app/.env.local", Reach::Path);
        assert_eq!(hits, vec![("cage.secrets".to_string(), Verdict::Blocked)]);
        assert!(rules_hit(&mut laws, "/nonexistent/proj/.env.example", Reach::Path).is_empty());
        assert!(rules_hit(&mut laws, "/nonexistent/proj/src/main.rs", Reach::Path).is_empty());
        let hits = rules_hit(&mut laws, "/nonexistent/proj/.", Reach::Tree);
        assert!(
            hits.iter().any(|(r, _)| r == "cage.git_control"),
            "{hits:?}"
        );
        let hits = rules_hit(&mut laws, "/nonexistent/proj/docs/CLAUDE.md", Reach::Path);
        assert_eq!(
            hits,
            vec![("trust.model_influencing".to_string(), Verdict::Signed)]
        );
        let hits = rules_hit(&mut laws, "/nonexistent/proj/Cargo.lock", Reach::Path);
        assert_eq!(hits, vec![("cage.lockfile".to_string(), Verdict::Signed)]);
        assert!(rules_hit(&mut laws, "/nonexistent/proj/Cargo.toml", Reach::Path).is_empty());
        assert!(
            rules_hit(&mut laws, "/etc/hosts", Reach::Path).is_empty(),
            "{:?}",
            rules_hit(&mut laws, "/etc/hosts", Reach::Path)
        );
        // Outside the project, anchored rules match at any depth.
        let hits = rules_hit(&mut laws, "/nonexistent/other/.gitlab-ci.yml", Reach::Path);
        assert_eq!(hits[0].0, "cage.ci_config");
    }

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

    #[test]
    fn frozen_commands() {
        let words = |s: &str| s.split(' ').map(Word::literal).collect::<Vec<_>>();
        let rule = |verb: &str, args: &str| frozen_command(verb, &words(args)).map(|c| c.rule);
        assert_eq!(
            rule("npm", "install lodash"),
            Some("cage.dependency_manifest")
        );
        assert_eq!(
            rule("npm", "install -D lodash"),
            Some("cage.dependency_manifest")
        );
        assert_eq!(rule("npm", "install"), Some("cage.lockfile"));
        assert_eq!(rule("yarn", "install --frozen-lockfile"), None);
        assert_eq!(rule("npm", "ci"), None);
        assert_eq!(rule("cargo", "update"), Some("cage.lockfile"));
        assert_eq!(rule("cargo", "update -p serde"), Some("cage.lockfile"));
        assert_eq!(rule("npm", "install -g typescript"), None);
        assert_eq!(
            rule("python3", "-m pip install requests"),
            Some("cage.dependency_manifest")
        );
        assert_eq!(
            rule("uv", "pip install x"),
            Some("cage.dependency_manifest")
        );
        assert_eq!(rule("cargo", "build"), None);
        assert_eq!(rule("yarn", "test"), None);
        assert_eq!(
            frozen_command("yarn", &[]).map(|c| c.rule),
            Some("cage.lockfile")
        );
    }
}
