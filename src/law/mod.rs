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
#![deny(clippy::indexing_slicing)]

mod below;
mod commands;
pub mod document;
pub mod gitconfig;
pub mod gitctl;
pub mod gitignore;
pub mod glob;
mod judge;
pub mod policy;
pub mod resolve;
pub mod show;
mod spot;

use crate::rule_id::Rule;
pub use commands::{frozen_command, reach_of};
pub use judge::{
    HOME_PREFIX, MISSION_CONTRACT_RULE, builtin_revert_rule, home_hits, problem_rule,
    rule_of_problem,
};
use judge::{judge_form, unresolved_hit};
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
    /// Its git-control places beyond the root-relative table, read once
    /// ([`gitctl::controls`]).
    pub git_controls: Vec<Pattern>,
}

impl Law {
    /// Reads the law of the repository holding `dir`.
    pub fn at(dir: &Path) -> Law {
        Law::of(Repository::at(dir))
    }

    fn of(repo: Repository) -> Law {
        let policy = Policy::load(&repo.root);
        let git_controls = gitctl::controls(&repo);
        Law {
            repo,
            policy,
            git_controls,
        }
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
    /// For a law's root, the roots of the laws around it (see
    /// [`Laws::outer_of`]).
    outer: HashMap<PathBuf, Vec<PathBuf>>,
    /// For a folder, the law of narrowest trust containing it.
    trust_of: HashMap<Box<[u8]>, Option<usize>>,
    /// For a folder, whether a workspace-trust file sits at or above it.
    trust_file_above: HashMap<Box<[u8]>, bool>,
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
            physical,
            opaque,
        } = target;
        let mut bytes = Vec::with_capacity(
            64 + raw.len()
                + [
                    target_path.as_deref(),
                    empty_var_hazard.as_deref(),
                    physical.as_deref(),
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
        part(&mut bytes, path(physical.as_deref()));
        bytes.push(u8::from(*opaque));
        part(&mut bytes, path(cwd));
        bytes.push(reach as u8);
        part(&mut bytes, path(home));
        TargetKey(bytes.into_boxed_slice())
    }
}

/// Files and folder entries [`Laws::hard_link_twins`] looks at, at most.
const MAX_TWIN_LOOKS: usize = 1024;

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
            outer: HashMap::new(),
            trust_of: HashMap::new(),
            trust_file_above: HashMap::new(),
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
        self.home_index().and_then(|i| self.laws.get(i))
    }

    /// Law `i`, an index [`Laws::push`], [`Laws::for_path`] or
    /// [`Laws::home_index`] gave out.
    // In bounds: each index was below `laws.len()` when given out, and no law is ever removed.
    #[allow(clippy::indexing_slicing)]
    fn law(&self, i: usize) -> &Law {
        &self.laws[i]
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
        // Paths reach the law lexically normalised. One that is not would
        // walk `..` folders below, each a longer path than the last.
        let normalised;
        let path = if path.is_absolute() && !resolve::is_plain(path.as_os_str().as_encoded_bytes())
        {
            normalised = crate::paths::normalise(path);
            normalised.as_path()
        } else {
            path
        };
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
        let base = best.map_or_else(|| PathBuf::from("/"), |i| self.law(i).repo.root.clone());
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
            (None, None) => {
                // Outside every repository: a project that is not one keeps
                // its policy files at its top, found by walking up.
                let root = std::iter::once(start)
                    .chain(resolve::existing_folders_above(start))
                    .find(|dir| self.fs.is_anchor(dir))
                    .map(Path::to_path_buf)?;
                Some(self.push(root))
            }
        }
    }

    /// The laws around law `i`: every folder above its root, up to the home
    /// folder, that holds a `.git` or a policy file, nearest first. A nested
    /// repository keeps the law of each one that contains it. Remembered per
    /// root: at most a few looks per folder above it, once.
    fn outer_of(&mut self, i: usize) -> Vec<usize> {
        let root = self.law(i).repo.root.clone();
        let roots = match self.outer.get(&root) {
            Some(known) => known.clone(),
            None => {
                let fs = &mut self.fs;
                let found: Vec<PathBuf> = resolve::existing_folders_above(&root)
                    .filter(|dir| fs.is_anchor(dir))
                    .map(Path::to_path_buf)
                    .collect();
                self.outer.insert(root, found.clone());
                found
            }
        };
        roots.into_iter().map(|r| self.push(r)).collect()
    }

    /// Every law that contains `path`: the nearest first, then those
    /// around it.
    fn chain_of(&mut self, path: &Path) -> Vec<usize> {
        let Some(i) = self.for_path(path) else {
            return Vec::new();
        };
        let mut chain = vec![i];
        for j in self.outer_of(i) {
            if !chain.contains(&j) {
                chain.push(j);
            }
        }
        chain
    }

    /// The strictest trust finding of the laws containing folder `dir`
    /// (the working folder when `None`), for a request whose verdict would
    /// be `verdict`.
    pub fn trust_hit_at(&mut self, dir: Option<&Path>, verdict: Verdict) -> Option<Hit> {
        self.load_home();
        // Keyed by the path's bytes: hashing a deep path component by
        // component costs more than the look it saves. A folder already
        // judged is looked up without a copy of its path.
        let dir = dir.or(self.cwd.as_deref())?;
        let known = self
            .trust_of
            .get(dir.as_os_str().as_encoded_bytes())
            .copied();
        let strictest = match known {
            Some(known) => known,
            None => {
                let dir = dir.to_path_buf();
                let found = self.strictest_trust(&dir);
                if self.trust_of.len() >= MAX_REMEMBERED {
                    self.trust_of.clear();
                }
                let key = dir
                    .as_os_str()
                    .as_encoded_bytes()
                    .to_vec()
                    .into_boxed_slice();
                self.trust_of.insert(key, found);
                found
            }
        };
        trust_hit(self.laws.get(strictest?)?, verdict)
    }

    /// The trust finding for a path a command reads or runs in (`cat
    /// ../denied/x`, `make -C ../restricted`), for a request whose verdict
    /// would be `verdict`. A law is loaded only where a workspace-trust
    /// file sits at or above the path (one look a folder, remembered), so
    /// naming a path never changes which laws a later write meets.
    pub fn trust_hit_for(&mut self, path: &Path, verdict: Verdict) -> Option<Hit> {
        if !self.has_trust_file_above(path) {
            return None;
        }
        self.trust_hit_at(Some(path), verdict)
    }

    /// Whether `path` or a folder above it (up to the home folder) holds
    /// the workspace-trust file.
    fn has_trust_file_above(&mut self, path: &Path) -> bool {
        let mut seen = Vec::new();
        let mut found = false;
        // Keyed by the path's bytes, as `trust_of` is: hashing a path
        // component by component costs more than the look it saves.
        for dir in std::iter::once(path).chain(resolve::existing_folders_above(path)) {
            let key = dir.as_os_str().as_encoded_bytes();
            if let Some(&known) = self.trust_file_above.get(key) {
                found = known;
                break;
            }
            seen.push(key.to_vec().into_boxed_slice());
            if std::fs::symlink_metadata(dir.join(policy::TRUST_FILE)).is_ok() {
                found = true;
                break;
            }
        }
        if self.trust_file_above.len() + seen.len() > MAX_REMEMBERED {
            self.trust_file_above.clear();
        }
        for dir in seen {
            self.trust_file_above.insert(dir, found);
        }
        found
    }

    /// The law of narrowest trust among those containing folder `dir`
    /// (`None` when every one is trusted).
    fn strictest_trust(&mut self, dir: &Path) -> Option<usize> {
        let dir = dir.to_path_buf();
        let mut chain = self.chain_of(&dir.join("-"));
        if dir.as_path() == self.cwd.as_deref().unwrap_or(Path::new("")) {
            // The working folder's own law, even where it is anchored at
            // the folder itself.
            if let Some(home) = self.home_index()
                && !chain.contains(&home)
            {
                chain.insert(0, home);
                for j in self.outer_of(home) {
                    if !chain.contains(&j) {
                        chain.push(j);
                    }
                }
            }
        }
        chain
            .into_iter()
            .filter(|&i| self.law(i).policy.trust != Trust::Trusted)
            .max_by_key(|&i| self.law(i).policy.trust == Trust::Denied)
    }

    /// Whether dependencies are frozen by any law containing the working
    /// folder.
    pub fn frozen_at_cwd(&mut self) -> bool {
        self.load_home();
        let Some(home) = self.home_index() else {
            return false;
        };
        let mut chain = vec![home];
        chain.extend(self.outer_of(home));
        chain.iter().any(|&i| self.law(i).frozen())
    }

    /// Protected files that are the same file as `path` (a hard link: the
    /// same device and inode), when `path` exists with more than one link.
    /// Only what the laws containing `path` (and the working folder) name
    /// is looked at: the built-in rules' literal paths, the git folder's
    /// control files, the policy files, the zones the policies name, and
    /// the home folder's protected files; a named folder's own entries are
    /// listed, one level, never a tree. At most [`MAX_TWIN_LOOKS`] looks.
    pub fn hard_link_twins(&mut self, path: &Path, home: Option<&Path>) -> Vec<PathBuf> {
        use std::os::unix::fs::MetadataExt;
        let Ok(meta) = std::fs::metadata(path) else {
            return Vec::new();
        };
        if !meta.is_file() || meta.nlink() < 2 {
            return Vec::new();
        }
        let mut chain = self.chain_of(path);
        self.load_home();
        if let Some(h) = self.home_index()
            && !chain.contains(&h)
        {
            chain.push(h);
            chain.extend(self.outer_of(h));
        }
        let mut named: Vec<PathBuf> = Vec::new();
        for rule in crate::rules::PROTECTED_RULES.iter() {
            for glob in rule.paths {
                if let (Some(rest), Some(home)) = (glob.strip_prefix(HOME_PREFIX), home) {
                    named.push(home.join(rest));
                }
            }
        }
        for &i in &chain {
            let law = self.law(i);
            let root = &law.repo.root;
            let literal = |p: &str| !p.contains(['*', '?', '[']);
            for rule in crate::rules::PROTECTED_RULES.iter() {
                for glob in rule.paths {
                    let rel = glob.trim_start_matches("**/");
                    if !glob.starts_with(HOME_PREFIX) && literal(rel) {
                        named.push(root.join(rel));
                    }
                }
            }
            if let Some(dir) = &law.repo.git_dir {
                for control in ["config", "config.worktree", "commondir", "hooks", "info"] {
                    named.push(dir.join(control));
                }
            }
            named.extend(law.repo.hooks_paths.iter().cloned());
            named.extend(law.repo.included_configs.iter().cloned());
            for file in [
                policy::CAGE_FILE,
                policy::MANIFEST_YAML,
                policy::MANIFEST_JSON,
                policy::ACTIVE_MISSION,
                policy::POLICY_POINTER,
                policy::TRUST_FILE,
            ] {
                named.push(root.join(file));
            }
            let policy = &law.policy;
            let mut zones: Vec<&str> = policy
                .cage
                .protect
                .iter()
                .map(|p| p.glob.as_str())
                .collect();
            if let Some(gantry) = &policy.gantry {
                zones.extend(gantry.all_zones.iter().map(|(z, _)| z.as_str()));
                zones.extend(gantry.org_zones.iter().map(String::as_str));
                if let Some(mission) = &gantry.mission {
                    zones.extend(mission.zones.iter().map(|(z, _)| z.as_str()));
                    named.push(root.join(&mission.file));
                }
            }
            for zone in zones {
                let zone = zone.trim_end_matches('/').trim_end_matches("/**");
                if literal(zone) && !zone.is_empty() {
                    named.push(root.join(zone));
                }
            }
        }
        let same = |m: &std::fs::Metadata| m.dev() == meta.dev() && m.ino() == meta.ino();
        let mut twins = Vec::new();
        let mut looks = 0usize;
        for candidate in named {
            if looks >= MAX_TWIN_LOOKS {
                break;
            }
            looks += 1;
            let Ok(found) = std::fs::metadata(&candidate) else {
                continue;
            };
            if found.is_dir() {
                let Ok(entries) = std::fs::read_dir(&candidate) else {
                    continue;
                };
                for entry in entries.flatten().take(MAX_TWIN_LOOKS) {
                    looks += 1;
                    if looks >= MAX_TWIN_LOOKS {
                        break;
                    }
                    if std::fs::metadata(entry.path()).is_ok_and(|m| same(&m)) {
                        twins.push(entry.path());
                    }
                }
            } else if same(&found) && candidate != path {
                twins.push(candidate);
            }
        }
        twins.retain(|t| t != path);
        twins.dedup();
        twins
    }

    /// `form` relative to the root of law `i`, when it lies there (an
    /// unknown start is kept as it is).
    fn strip_root(&self, i: usize, form: &Pattern) -> Option<Pattern> {
        let prefix = form.literal_prefix();
        if prefix.is_empty() || !prefix.starts_with('/') {
            return Some(form.clone());
        }
        let law = self.law(i);
        let roots = std::iter::once(&law.repo.root).chain(law.repo.real_root.as_ref());
        for root in roots {
            let root_text = root.to_string_lossy();
            if let Some(rel) = form.strip_literal_prefix(&format!("{root_text}/")) {
                return Some(rel);
            }
            if form.is_literal() && prefix == root_text {
                return Some(Pattern::literal(""));
            }
        }
        None
    }

    /// The laws around the one a form was judged by, each with the form
    /// relative to its root.
    fn outer_forms(&mut self, index: Option<usize>, form: &Pattern) -> Vec<(usize, Pattern)> {
        let Some(i) = index else { return Vec::new() };
        self.outer_of(i)
            .into_iter()
            .filter(|&j| j != i)
            .filter_map(|j| self.strip_root(j, form).map(|rel| (j, rel)))
            .collect()
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
    /// The rule (`cage.secrets`, `gantry.forbidden_zone` …).
    pub rule: Rule,
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
        // Matching a glob against each rule costs its length times the
        // rule's: one longer than any path can be (`rm -rf ./d/*d/*d/*…`,
        // 1 MiB of it took 2 s) is not matched, and could be any path.
        if spot
            .forms()
            .any(|form| !form.is_literal() && form.len() > MAX_MATCHED_GLOB)
        {
            // What covers the folder before its first wildcard covers
            // every match.
            let prefix = spot.named.literal_prefix();
            if let Some(slash) = prefix.rfind('/').filter(|&at| at > 0) {
                let inside = format!("{}/_", prefix.get(..slash).unwrap_or_default());
                let inside = Spot::path(Path::new(&inside), &spot.shown, Reach::Path, &mut self.fs);
                let certain = self.judge(&inside);
                if !certain.is_empty() {
                    return certain;
                }
            }
            return vec![unresolved_hit(
                spot,
                "any path, protected ones included (a glob too long to match against the rules)",
            )];
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
            // A nested repository (or a project inside another's folder)
            // is judged by every law that contains it.
            for (j, outer) in self.outer_forms(index, form) {
                judge_form(Some(self.law(j)), &outer, spot, &mut hits);
            }
            match index {
                Some(i) => judge_form(Some(self.law(i)), &rel, spot, &mut hits),
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
                let home_root = self.home_index().map(|i| self.law(i).repo.root.clone());
                let in_home = home_root.is_some_and(|r| {
                    dir.starts_with(&r)
                        && self
                            .laws
                            .first()
                            .is_some_and(|home| home.repo.git_dir.is_some())
                });
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
                        let file = Pattern::literal(&file.to_string_lossy());
                        let (index, rel) = self.relative_form(&file);
                        for (j, outer) in self.outer_forms(index, &file) {
                            judge_form(Some(self.law(j)), &outer, &file_spot, &mut hits);
                        }
                        judge_form(index.map(|i| self.law(i)), &rel, &file_spot, &mut hits);
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
        // Git folders outside the work tree, the `.git` file and a
        // `core.hooksPath` anywhere (`gitctl`).
        gitctl::judge(&self.laws, &forms, spot, &mut hits);
        if unresolved && !hits.is_empty() {
            // What only run time knows cannot be pinned on one rule: one
            // signed finding says what the target could be.
            hits.sort_by_key(|h| std::cmp::Reverse(h.verdict));
            let mut could_be = hits
                .iter()
                .take(3)
                .map(|h| h.rule.id())
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
                let law = self.law(i);
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

/// The longest glob (in pattern tokens, about its bytes) matched against
/// the rules: PATH_MAX, the longest path there is.
const MAX_MATCHED_GLOB: usize = 4096;

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
            rule: Rule::TrustRestricted,
            reason: format!(
                "the workspace's trust is restricted ({}): read-only, no network; only commands that change nothing may run",
                policy::TRUST_FILE
            ),
            remediation: "Only read-only inspection is allowed in this workspace; ask the person to run anything else.".to_string(),
        }),
        Trust::Denied => Some(Hit {
            verdict: Verdict::Blocked,
            rule: if too_large {
                Rule::TrustPolicyTooLarge
            } else {
                Rule::TrustDenied
            },
            reason: format!(
                "the workspace's trust is denied{}: nothing may run here until an operator records a decision",
                if why.is_empty() { format!(" ({})", policy::TRUST_FILE) } else { why }
            ),
            remediation: "Stop: this workspace is not trusted. Ask the person to review it.".to_string(),
        }),
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
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
            physical: None,
            opaque: false,
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
            .map(|h| (h.rule.id().to_string(), h.verdict))
            .collect()
    }

    /// A scratch folder (`portcullis-NAME-PID` in the temporary folder)
    /// holding a repository at `repo`.
    fn scratch_with_repository(name: &str, repo: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("portcullis-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(repo).join(".git")).unwrap();
        dir
    }

    /// A write thousands of made-up names deep (`~/.ssh/a/a/…/x`) looks in
    /// the folders that exist, not in each of its own: the cost of a climb
    /// grows with the command, not with its square.
    #[test]
    fn a_deep_missing_path_looks_only_where_folders_exist() {
        let dir = scratch_with_repository("deep", "proj");
        let mut laws = Laws::new(Some(&dir.join("proj")));
        let outside = format!("{}/home/.ssh/{}x", dir.display(), "a/".repeat(3000));
        assert!(rules_hit(&mut laws, &outside, Reach::Path).is_empty());
        let inside = format!("{}/proj/{}.env", dir.display(), "b/".repeat(3000));
        let hits = rules_hit(&mut laws, &inside, Reach::Path);
        assert_eq!(hits, vec![("cage.secrets".to_string(), Verdict::Blocked)]);
        let looked = laws.fs.anchors_looked_at();
        assert!(looked < 64, "looked in {looked} folders");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A path that reaches the law with `..` in it is read lexically: the
    /// repositories found are the ones it lies in, never a root spelled
    /// with `..` (`/p/r/../r/../r`, each a new law to load).
    #[test]
    fn a_path_with_parent_names_finds_its_own_repository() {
        let dir = scratch_with_repository("dotdot", "r");
        let mut laws = Laws::new(Some(&dir.join("r")));
        let path = format!(
            "{}/r/{}.git/hooks/pre-commit",
            dir.display(),
            "../r/".repeat(500)
        );
        let folder = Path::new(&path).parent().unwrap().to_path_buf();
        let index = laws.for_path(&folder).expect("the repository");
        assert_eq!(laws.law(index).repo.root, dir.join("r"));
        assert!(
            laws.loaded()
                .iter()
                .all(|law| resolve::is_plain(law.repo.root.as_os_str().as_encoded_bytes())),
            "{:?}",
            laws.loaded()
                .iter()
                .map(|l| &l.repo.root)
                .collect::<Vec<_>>()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A glob longer than any path is not matched against each rule (its
    /// cost is its length times the rule's): it could be any path.
    #[test]
    fn a_glob_longer_than_a_path_is_not_matched() {
        let mut laws = Laws::new(Some(Path::new("/nonexistent/proj")));
        let glob_spot = |text: &str| Spot {
            shown: text.to_string(),
            named: Pattern::shell_glob(text),
            real: None,
            reach: Reach::Path,
            unresolved: false,
            folder: None,
        };
        let hits = laws.judge(&glob_spot("/nonexistent/proj/.git/hooks/pre-*"));
        assert_eq!(hits[0].rule.id(), "cage.git_control", "{hits:?}");
        // What covers the folder before the first wildcard still counts.
        let long = format!("/nonexistent/proj/.git/hooks/{}x", "a*".repeat(2100));
        let hits = laws.judge(&glob_spot(&long));
        assert_eq!(hits[0].rule.id(), "cage.git_control", "{hits:?}");
        let long = format!("/nonexistent/proj/src/{}x", "a*".repeat(2100));
        let hits = laws.judge(&glob_spot(&long));
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert_eq!(hits[0].rule, Rule::WriteUnresolved);
        assert!(hits[0].reason.contains("a glob too long to match"));
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
