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
//!
//! This file holds the laws of one request ([`Laws`]: which repository a
//! path is in, loaded once) and [`Laws::judge`]; `spot` builds targets,
//! `judge` applies one repository's rules, `commands` says what some
//! commands reach, `policy` and `document` read the policy files, `glob`
//! matches, `resolve` and `gitignore` read the filesystem, `show` prints the
//! law for `portcullis policy`.

mod commands;
pub mod document;
pub mod gitignore;
pub mod glob;
mod judge;
pub mod policy;
pub mod resolve;
pub mod show;
mod spot;

pub use commands::{frozen_command, reach_of};
pub use judge::{
    HOME_PREFIX, MISSION_CONTRACT_RULE, builtin_revert_rule, home_hits, problem_rule,
    rule_of_problem,
};
use judge::{add, covers, judge_form, unresolved_hit};
pub use spot::{Reach, Spot};

use crate::verdict::Verdict;
use glob::Pattern;
use policy::{Policy, Trust};
use resolve::{FsCache, Repository};
use std::collections::HashMap;
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
    /// Findings per write target judged so far (see [`Laws::remember`]).
    judged: HashMap<TargetKey, Vec<Hit>>,
}

/// What a write target's findings depend on: the target, the folder it is
/// resolved in, how far the write reaches, and the home folder, written out
/// as one run of bytes (each part length-prefixed, so no two keys run
/// together). Hashing it is one pass over bytes, where a tuple of paths
/// would hash each path component by component, twice per target.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TargetKey(Box<[u8]>);

impl TargetKey {
    /// The key of `target` written with `reach`, resolved in `cwd`.
    pub fn new(
        target: &crate::paths::Target,
        cwd: Option<&Path>,
        reach: spot::Reach,
        home: Option<&Path>,
    ) -> TargetKey {
        use std::os::unix::ffi::OsStrExt;
        fn part(bytes: &mut Vec<u8>, part: Option<&[u8]>) {
            match part {
                None => bytes.push(0),
                Some(part) => {
                    bytes.push(1);
                    bytes.extend_from_slice(&(part.len() as u64).to_le_bytes());
                    bytes.extend_from_slice(part);
                }
            }
        }
        fn path(p: Option<&Path>) -> Option<&[u8]> {
            p.map(|p| p.as_os_str().as_bytes())
        }
        // Every field, named: a field added to `Target` must be added here
        // (or the key would mix up targets that differ only in it).
        let crate::paths::Target {
            path: target_path,
            raw,
            glob,
            dynamic,
            empty_var_hazard,
        } = target;
        let mut bytes = Vec::with_capacity(
            64 + raw.len()
                + [
                    target_path.as_deref(),
                    empty_var_hazard.as_deref(),
                    cwd,
                    home,
                ]
                .iter()
                .map(|p| p.map_or(0, |p| p.as_os_str().len()))
                .sum::<usize>(),
        );
        part(&mut bytes, path(target_path.as_deref()));
        part(&mut bytes, Some(raw.as_bytes()));
        bytes.push(u8::from(*glob));
        bytes.push(u8::from(*dynamic));
        part(&mut bytes, path(empty_var_hazard.as_deref()));
        part(&mut bytes, path(cwd));
        bytes.push(reach as u8);
        part(&mut bytes, path(home));
        TargetKey(bytes.into_boxed_slice())
    }
}

/// How many judged targets [`Laws`] keeps before it starts over.
const MAX_REMEMBERED: usize = 4096;

impl Laws {
    /// Laws for requests run in `cwd` (nothing is read yet).
    pub fn new(cwd: Option<&Path>) -> Laws {
        Laws {
            cwd: cwd.map(Path::to_path_buf),
            loaded: false,
            laws: Vec::new(),
            fs: FsCache::default(),
            judged: HashMap::new(),
        }
    }

    /// The findings remembered for a target.
    pub fn remembered(&self, key: &TargetKey) -> Option<&[Hit]> {
        self.judged.get(key).map(Vec::as_slice)
    }

    /// Remembers a target's findings. Laws live for one request, or for
    /// one replay, where nothing on disk changes; at most
    /// `MAX_REMEMBERED` targets are kept, so memory stays bounded.
    pub fn remember(&mut self, key: TargetKey, hits: Vec<Hit>) {
        if self.judged.len() >= MAX_REMEMBERED {
            self.judged.clear();
        }
        self.judged.insert(key, hits);
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
        // Walked down from that root one folder at a time, stopping at the
        // first folder that does not exist (nothing below it does): a
        // deep path costs one look per existing folder, not per ancestor.
        let start = path.parent().unwrap_or(path);
        let base = best.map_or_else(|| PathBuf::from("/"), |i| self.laws[i].repo.root.clone());
        let mut nested = None;
        if best.is_none() && std::fs::symlink_metadata(base.join(".git")).is_ok() {
            nested = Some(base.clone());
        }
        if let Ok(rest) = start.strip_prefix(&base) {
            let mut dir = base.clone();
            for component in rest.components() {
                dir.push(component);
                if std::fs::symlink_metadata(&dir).is_err() {
                    break;
                }
                if std::fs::symlink_metadata(dir.join(".git")).is_ok() {
                    nested = Some(dir.clone());
                }
            }
        }
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
            let inside = Spot::path(folder, &spot.shown, Reach::Path, &mut self.fs);
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
                    let matched = Spot::path(&entry.path(), &spot.shown, spot.reach, &mut self.fs);
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

/// The trust finding for a whole request, when the project maximum
/// narrows it: `restricted` blocks everything but FREE, `denied` blocks
/// everything.
pub fn trust_hit(law: &Law, verdict: Verdict) -> Option<Hit> {
    let problem = law.policy.problem(policy::TRUST_FILE);
    let why = problem
        .map(|p| format!(" ({} {}, read as denied)", p.file, p.message))
        .unwrap_or_default();
    let too_large = problem.is_some_and(|p| p.kind == policy::ProblemKind::TooLarge);
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
            rule: if too_large {
                "trust.policy_too_large"
            } else {
                "trust.denied"
            }
            .to_string(),
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

    /// A write target's memo key tells apart every field it depends on,
    /// and parts that would run together end to end.
    #[test]
    fn target_keys_differ_where_the_findings_may() {
        let target = |raw: &str| crate::paths::Target {
            path: Some(PathBuf::from(format!("/p/{raw}"))),
            raw: raw.to_string(),
            glob: false,
            dynamic: false,
            empty_var_hazard: None,
        };
        let key = |t: &crate::paths::Target, cwd: &str, reach, home: Option<&str>| {
            TargetKey::new(t, Some(Path::new(cwd)), reach, home.map(Path::new))
        };
        let base = key(&target("ab"), "/c", Reach::Path, Some("/h"));
        assert_eq!(base, key(&target("ab"), "/c", Reach::Path, Some("/h")));
        let mut globbed = target("ab");
        globbed.glob = true;
        let mut hazard = target("ab");
        hazard.empty_var_hazard = Some(PathBuf::from("/"));
        for other in [
            key(&target("a"), "/c", Reach::Path, Some("/h")),
            key(&globbed, "/c", Reach::Path, Some("/h")),
            key(&hazard, "/c", Reach::Path, Some("/h")),
            key(&target("ab"), "/d", Reach::Path, Some("/h")),
            key(&target("ab"), "/c", Reach::Tree, Some("/h")),
            key(&target("ab"), "/c", Reach::Path, None),
        ] {
            assert_ne!(base, other);
        }
        // Neighbouring parts do not run together: path `/p/a` with raw
        // `b` is not path `/p/ab` with raw ``.
        let mut short = target("b");
        short.path = Some(PathBuf::from("/p/a"));
        let mut long = target("");
        long.path = Some(PathBuf::from("/p/ab"));
        assert_ne!(
            key(&short, "/c", Reach::Path, None),
            key(&long, "/c", Reach::Path, None)
        );
    }

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
}
