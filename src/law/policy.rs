//! A repository's project policy, read from the few files that declare it:
//! `.cage.yaml`, gantry's `.gitagent/foreman/MANIFEST.yaml` (or `.json`)
//! and its active mission, and `.veritas-kanban/workspace-trust.json`.
//!
//! Takes a repository root; returns a [`Policy`]. Every key only adds: a
//! file that tries to remove or weaken a rule, or that cannot be read as
//! its schema says, becomes a [`Problem`], and the law then reads it in the
//! strictest way (see `law::Law`). Reads at most six known files; never
//! walks a folder.

use super::document::{self, Allowance, DocError, Node};
use super::resolve::read_limited;
use crate::verdict::Verdict;
use std::path::Path;

/// One policy file larger than this is past the limit, read in the
/// strictest way without being parsed (the cage reads its own
/// configuration whole, and so does portcullis). The largest real policy
/// is a gantry manifest: gantry's own is about 2 KiB, one of 100 skills
/// about 16 KiB; a mission file, `.cage.yaml` and the trust file are
/// smaller still. 32 KiB leaves a margin of 2 over that and 16 over
/// gantry's own.
pub const MAX_POLICY_BYTES: u64 = 32 * 1024;

/// All the policy files of one repository together (up to eight: the
/// cage, both manifests, the pointer and its bundle, the pin, the mission
/// and the trust file) are read within this many bytes, and within
/// [`MAX_POLICY_KEYS`] keys and [`MAX_POLICY_ITEMS`] items: the file that
/// crosses a shared limit is past the limit. Keys and items are what
/// reading costs (about 5,000 instructions each), so together the files
/// may hold one file's worth and a quarter more (room for the small files
/// beside a full one): a gantry manifest of 100 skills has about 500 keys.
/// Measured with callgrind, `ls` as a hook call: 1.4 M instructions with
/// no policy, 12.0 M with a `.cage.yaml` at its own limits.
pub const MAX_POLICY_TOTAL_BYTES: u64 = 64 * 1024;
/// Mapping keys in all the policy files of one repository together.
pub const MAX_POLICY_KEYS: usize = document::MAX_KEYS + document::MAX_KEYS / 4;
/// List items in all the policy files of one repository together.
pub const MAX_POLICY_ITEMS: usize = document::MAX_ITEMS + document::MAX_ITEMS / 4;

/// What the policy files of one repository may still cost to read: bytes,
/// keys and list items shared by all of them (see
/// [`MAX_POLICY_TOTAL_BYTES`]).
#[derive(Clone, Copy, Debug)]
struct Budget {
    bytes: u64,
    entries: Allowance,
}

impl Budget {
    /// A repository's whole budget.
    fn new() -> Budget {
        Budget {
            bytes: MAX_POLICY_TOTAL_BYTES,
            entries: Allowance {
                keys: MAX_POLICY_KEYS,
                items: MAX_POLICY_ITEMS,
            },
        }
    }

    /// Reads YAML within what is left.
    fn yaml(&mut self, text: &str) -> Result<Node, DocError> {
        document::yaml_within(text, &mut self.entries)
    }

    /// Reads JSON within what is left.
    fn json(&mut self, text: &str) -> Result<Node, DocError> {
        document::json_within(text, &mut self.entries)
    }
}

/// Where `.cage.yaml` lives, relative to the root.
pub const CAGE_FILE: &str = ".cage.yaml";
/// gantry's manifest, YAML first.
pub const MANIFEST_YAML: &str = ".gitagent/foreman/MANIFEST.yaml";
/// gantry's manifest as the public tool writes it.
pub const MANIFEST_JSON: &str = ".gitagent/foreman/MANIFEST.json";
/// The pin naming the active mission.
pub const ACTIVE_MISSION: &str = ".gitagent/missions/.active-mission";
/// gantry's pin of the organisation policy bundle.
pub const POLICY_POINTER: &str = ".gitagent/foreman/POLICY.pointer.json";
/// veritas-kanban's project maximum trust.
pub const TRUST_FILE: &str = ".veritas-kanban/workspace-trust.json";
/// Where gantry keeps its missions.
pub const MISSIONS_DIR: &str = ".gitagent/missions";
/// Where `gantry policy pull` caches the organisation policy bundles.
pub const ORG_BUNDLES: &str = ".gitagent/history/policy";

/// gantry's law as files (besides mission files): a write to any of these
/// (or above them, reaching them) would change the law, and only the
/// person may (`gantry.policy_file`, BLOCKED), with or without gantry in the
/// repository. Each with what it is, for the reason.
pub const LAW_PATHS: &[(&str, &str)] = &[
    (
        ".gitagent/foreman",
        "gantry's foreman folder (the manifest and the organisation policy pin; the seed's own forbidden zone)",
    ),
    (
        ACTIVE_MISSION,
        "the active-mission pin (re-pinning changes the edit roots and forbidden zones)",
    ),
    (ORG_BUNDLES, "gantry's cached organisation policy bundles"),
];

/// The keys of a mission file that are the person's law: the contract
/// (edit roots, forbidden zones), the skill it runs under (the skill's
/// roots and zones), and its id (which run record is not judged).
pub const MISSION_LAW_KEYS: &[&str] = &["contract", "skill_key", "msn_id", "msnId"];

/// Keys that would remove protection; the cage refuses them by name.
const SUBTRACTIVE_KEYS: &[&str] = &[
    "relax",
    "exclude",
    "excludes",
    "allow",
    "allow_override",
    "allow_overrides",
    "ignore",
    "unprotect",
    "override",
    "overrides",
    "disable",
    "skip",
];

/// One `.cage.yaml` `protect:` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Protect {
    /// A root-relative glob (a `path:` entry is a literal glob).
    pub glob: String,
    /// As written (`path: test`, `glob: "**/*.tf"`).
    pub written: String,
    /// `revert` → BLOCKED, `report` → SIGNED.
    pub verdict: Verdict,
}

/// What `.cage.yaml` adds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cage {
    /// `protect:` entries.
    pub protect: Vec<Protect>,
    /// `allow_only:` globs: writes outside every one are out of scope.
    pub allow_only: Vec<String>,
    /// `dependencies: revert`.
    pub frozen: bool,
}

/// gantry's scope for the active mission (or, without one, the zones of
/// every skill).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gantry {
    /// Which manifest file was read.
    pub manifest: String,
    /// Every skill's forbidden zones, with the skill: the cage's
    /// `manifest_forbidden_zone` rule.
    pub all_zones: Vec<(String, String)>,
    /// `perimeter_protected` globs (gantry's default when absent).
    pub perimeter: Vec<String>,
    /// The active mission, when one is pinned and readable.
    pub mission: Option<Mission>,
    /// The organisation policy bundle's `forbidden_zones_add`, when the
    /// repository pins one: forbidden whatever the skill or mission.
    pub org_zones: Vec<String>,
}

/// The active mission's effective scope.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mission {
    /// The mission file, root-relative.
    pub file: String,
    /// `msn_id`, when given.
    pub id: Option<String>,
    /// The skill it runs under.
    pub skill: String,
    /// Effective edit roots (the contract's, else the skill's), with where
    /// each came from.
    pub roots: Vec<(String, &'static str)>,
    /// Effective forbidden zones (skill ∪ contract), with where each came
    /// from.
    pub zones: Vec<(String, &'static str)>,
}

/// veritas-kanban's project maximum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Trust {
    /// No file, or `trusted`.
    #[default]
    Trusted,
    /// Read-only, no network: every verdict but FREE is BLOCKED.
    Restricted,
    /// Everything is BLOCKED.
    Denied,
}

impl Trust {
    /// As written in the file.
    pub fn as_str(self) -> &'static str {
        match self {
            Trust::Trusted => "trusted",
            Trust::Restricted => "restricted",
            Trust::Denied => "denied",
        }
    }
}

/// A policy file that is invalid, symbolic-linked or tries to relax a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Root-relative file.
    pub file: &'static str,
    /// What is wrong, with the line when known.
    pub message: String,
    /// Whether the file is past a limit or otherwise unreadable.
    pub kind: ProblemKind,
}

/// What is wrong with a policy file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProblemKind {
    /// Unreadable, invalid, a link, or relaxing a rule.
    #[default]
    Invalid,
    /// Past [`MAX_POLICY_BYTES`], `document::MAX_KEYS` or
    /// `document::MAX_ITEMS`: not read at all (or no further).
    TooLarge,
}

/// Why one policy file could not be taken, before it is pinned on a file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Fault {
    message: String,
    kind: ProblemKind,
}

impl From<String> for Fault {
    fn from(message: String) -> Fault {
        Fault {
            message,
            kind: ProblemKind::Invalid,
        }
    }
}

impl From<DocError> for Fault {
    fn from(e: DocError) -> Fault {
        let kind = match e {
            DocError::Invalid(_) => ProblemKind::Invalid,
            DocError::OverLimit(_) => ProblemKind::TooLarge,
        };
        Fault {
            message: e.to_string(),
            kind,
        }
    }
}

impl Fault {
    /// The problem of `file`.
    fn at(self, file: &'static str) -> Problem {
        Problem {
            file,
            message: self.message,
            kind: self.kind,
        }
    }

    /// The same fault, its message led by `prefix` (the file it is in).
    fn prefixed(self, prefix: &str) -> Fault {
        Fault {
            message: format!("{prefix}{}", self.message),
            kind: self.kind,
        }
    }
}

/// Everything a repository's policy files add to the built-in law.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Policy {
    /// `.cage.yaml`, when present and valid.
    pub cage: Cage,
    /// gantry, when a manifest is present and valid.
    pub gantry: Option<Gantry>,
    /// The project maximum trust.
    pub trust: Trust,
    /// Files that could not be taken as written.
    pub problems: Vec<Problem>,
}

impl Policy {
    /// Reads the policy files under `root`.
    pub fn load(root: &Path) -> Policy {
        let mut policy = Policy::default();
        let mut budget = Budget::new();
        match read_policy_file(root, CAGE_FILE, &mut budget).and_then(|text| match text {
            Some(text) => cage_reading(&text, &mut budget).map(Some),
            None => Ok(None),
        }) {
            Ok(Some(cage)) => policy.cage = cage,
            Ok(None) => {}
            Err(fault) => {
                // The strictest reading: dependencies frozen too.
                policy.cage.frozen = true;
                policy.problems.push(fault.at(CAGE_FILE));
            }
        }
        match load_gantry(root, &mut budget) {
            Ok(gantry) => policy.gantry = gantry,
            Err(problem) => policy.problems.push(problem),
        }
        match read_policy_file(root, TRUST_FILE, &mut budget).and_then(|text| match text {
            Some(text) => trust_reading(&text, &mut budget),
            None => Ok(Trust::Trusted),
        }) {
            Ok(trust) => policy.trust = trust,
            Err(fault) => {
                policy.trust = Trust::Denied;
                policy.problems.push(fault.at(TRUST_FILE));
            }
        }
        policy
    }

    /// The problem with `file`, if it has one.
    pub fn problem(&self, file: &str) -> Option<&Problem> {
        self.problems.iter().find(|p| p.file == file)
    }
}

/// A policy file's text: `Ok(None)` when absent; an error when it is a
/// symbolic link, past [`MAX_POLICY_BYTES`] or what `budget` has left
/// (not read: [`ProblemKind::TooLarge`]), unreadable or not UTF-8. The
/// bytes read are taken from `budget`.
fn read_policy_file(root: &Path, name: &str, budget: &mut Budget) -> Result<Option<String>, Fault> {
    let path = root.join(name);
    let limit = MAX_POLICY_BYTES.min(budget.bytes);
    let too_large = |size: u64| Fault {
        message: if limit < MAX_POLICY_BYTES {
            format!(
                "is {size} bytes, over the {limit} bytes the repository's other policy files left of the {MAX_POLICY_TOTAL_BYTES} bytes they share"
            )
        } else {
            format!("is {size} bytes, over the limit of {MAX_POLICY_BYTES} bytes for a policy file")
        },
        kind: ProblemKind::TooLarge,
    };
    match std::fs::symlink_metadata(&path) {
        Err(_) => return Ok(None),
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err("is a symbolic link, which could point anywhere"
                .to_string()
                .into());
        }
        Ok(meta) if !meta.is_file() => return Err("is not a regular file".to_string().into()),
        Ok(meta) if meta.len() > limit => return Err(too_large(meta.len())),
        Ok(_) => {}
    }
    let text = read_limited(&path, limit).map_err(|message| {
        // Grown past the limit since it was looked at.
        if message.starts_with("is larger") {
            too_large(limit + 1)
        } else {
            Fault {
                message,
                kind: ProblemKind::Invalid,
            }
        }
    })?;
    if let Some(text) = &text {
        budget.bytes = budget.bytes.saturating_sub(text.len() as u64);
    }
    Ok(text)
}

/// A root-relative path as the cage normalises it: trimmed, `\` → `/`,
/// no leading `./`, no trailing `/`; absolute paths, drive letters and
/// `.`/`..`/empty segments are refused.
pub fn normalise_entry(value: &str, what: &str) -> Result<String, String> {
    let mut v = value.trim().replace('\\', "/");
    while let Some(rest) = v.strip_prefix("./") {
        v = rest.to_string();
    }
    let v = v.trim_end_matches('/').to_string();
    let drive = matches!(v.as_bytes(), [letter, b':', ..] if letter.is_ascii_alphabetic());
    if v.is_empty()
        || v == "."
        || v.starts_with('/')
        || drive
        || v.split('/').any(|s| s.is_empty() || s == "." || s == "..")
    {
        return Err(format!(
            "{what} `{value}` must be a path inside the repository (no leading `/`, no `..`)"
        ));
    }
    Ok(v)
}

/// Escapes glob characters so a `path:` entry matches only itself.
pub fn escape_glob(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Reads `.cage.yaml`.
pub fn cage(text: &str) -> Result<Cage, String> {
    cage_reading(text, &mut Budget::new()).map_err(|f| f.message)
}

/// Reads `.cage.yaml`, telling a file past a limit from an invalid one.
fn cage_reading(text: &str, budget: &mut Budget) -> Result<Cage, Fault> {
    let doc = budget.yaml(text)?;
    Ok(cage_of(&doc)?)
}

/// `.cage.yaml`'s schema over its document.
fn cage_of(doc: &Node) -> Result<Cage, String> {
    let mut cage = Cage::default();
    let entries = match doc {
        Node::Null => return Ok(cage),
        Node::Map(entries) => entries,
        _ => return Err("the top level must be a mapping of keys".to_string()),
    };
    let mut default_mode = Verdict::Blocked;
    if let Some(mode) = doc.get("mode") {
        default_mode = mode_verdict(mode, "mode")?;
    }
    for (key, value) in entries {
        let line = line_of(value);
        if SUBTRACTIVE_KEYS.contains(&key.as_str()) {
            return Err(format!(
                "{line}`{key}:` would remove protection; subtractive keys are not allowed (the file can only add rules)"
            ));
        }
        match key.as_str() {
            "mode" | "contest_limit" => {}
            "protect" => {
                let Node::List(items) = value else {
                    return Err(format!("{line}`protect:` must be a list of entries"));
                };
                for item in items {
                    cage.protect.push(protect_entry(item, default_mode)?);
                }
            }
            "allow_only" => {
                for glob in value.strings("allow_only")? {
                    cage.allow_only
                        .push(normalise_entry(&glob, "allow_only glob")?);
                }
            }
            "dependencies" => match value.text() {
                Some("revert") => cage.frozen = true,
                Some("report") => {}
                _ => {
                    return Err(format!(
                        "{line}`dependencies:` must be `revert` (freeze) or `report`"
                    ));
                }
            },
            other => return Err(format!("{line}unknown key `{other}:`")),
        }
    }
    Ok(cage)
}

fn line_of(node: &Node) -> String {
    match node {
        Node::Text(_, line) if *line > 0 => format!("line {line}: "),
        _ => String::new(),
    }
}

fn mode_verdict(node: &Node, what: &str) -> Result<Verdict, String> {
    match node.text() {
        Some("revert") => Ok(Verdict::Blocked),
        Some("report") => Ok(Verdict::Signed),
        _ => Err(format!(
            "{}`{what}:` must be `revert` or `report`",
            line_of(node)
        )),
    }
}

fn protect_entry(item: &Node, default_mode: Verdict) -> Result<Protect, String> {
    let Node::Map(keys) = item else {
        return Err("each `protect:` entry must be a mapping with `path:` or `glob:`".to_string());
    };
    for (key, value) in keys {
        if !matches!(key.as_str(), "path" | "glob" | "mode") {
            return Err(format!(
                "{}unknown key `{key}:` in a `protect:` entry (allowed: path, glob, mode)",
                line_of(value)
            ));
        }
    }
    let verdict = match item.get("mode") {
        Some(mode) => mode_verdict(mode, "mode")?,
        None => default_mode,
    };
    let (glob, written) = match (item.get("path"), item.get("glob")) {
        (Some(path), None) => {
            let text = path.text().ok_or("`path:` must be a string")?;
            let path = normalise_entry(text, "protect path")?;
            (escape_glob(&path), format!("path: {path}"))
        }
        (None, Some(glob)) => {
            let text = glob.text().ok_or("`glob:` must be a string")?;
            let glob = normalise_entry(text, "protect glob")?;
            (glob.clone(), format!("glob: {glob}"))
        }
        _ => {
            return Err(
                "each `protect:` entry needs exactly one of `path:` and `glob:`".to_string(),
            );
        }
    };
    if verdict == Verdict::Signed
        && let Some(rule) = weakened_builtin(&glob)
    {
        return Err(format!(
            "`{written}` with mode report would weaken the built-in {rule} rule, which reverts it"
        ));
    }
    Ok(Protect {
        glob,
        written,
        verdict,
    })
}

/// The built-in revert rule a `report` entry would weaken: one that already
/// covers the entry's fixed part (the text before its first wildcard).
fn weakened_builtin(glob: &str) -> Option<crate::rule_id::Rule> {
    let fixed_end = glob.find(['*', '?', '[']).unwrap_or(glob.len());
    let fixed = glob[..fixed_end].trim_end_matches('/');
    if fixed.is_empty() {
        return None;
    }
    super::builtin_revert_rule(fixed)
}

/// Reads the manifest and the active mission.
fn load_gantry(root: &Path, budget: &mut Budget) -> Result<Option<Gantry>, Problem> {
    let yaml = read_policy_file(root, MANIFEST_YAML, budget).map_err(|f| f.at(MANIFEST_YAML))?;
    let json = read_policy_file(root, MANIFEST_JSON, budget).map_err(|f| f.at(MANIFEST_JSON))?;
    let (file, doc) = match (yaml, json) {
        (None, None) => return Ok(None),
        (Some(y), json) => {
            let doc = budget
                .yaml(&y)
                .map_err(|e| Fault::from(e).at(MANIFEST_YAML))?;
            if let Some(j) = json {
                let other = budget
                    .json(&j)
                    .map_err(|e| Fault::from(e).at(MANIFEST_JSON))?;
                if strip_lines(&other) != strip_lines(&doc) {
                    return Err(Fault::from(
                        "MANIFEST.yaml and MANIFEST.json both exist and say different things"
                            .to_string(),
                    )
                    .at(MANIFEST_YAML));
                }
            }
            (MANIFEST_YAML, doc)
        }
        (None, Some(j)) => (
            MANIFEST_JSON,
            budget
                .json(&j)
                .map_err(|e| Fault::from(e).at(MANIFEST_JSON))?,
        ),
    };
    let problem = |message: String| Fault::from(message).at(file);
    let Some(Node::Map(skills)) = doc.get("skills") else {
        return Err(problem("`skills` must be a mapping of skill names".into()));
    };
    let mut gantry = Gantry {
        manifest: file.to_string(),
        ..Gantry::default()
    };
    let mut skill_scopes = Vec::new();
    for (name, skill) in skills {
        let roots = path_list(
            skill.get("tmvc_roots"),
            &format!("skill {name}: tmvc_roots"),
        )
        .map_err(problem)?;
        let zones = path_list(
            skill.get("forbidden_zones"),
            &format!("skill {name}: forbidden_zones"),
        )
        .map_err(problem)?;
        for zone in &zones {
            gantry.all_zones.push((zone.clone(), name.clone()));
        }
        skill_scopes.push((name.clone(), roots, zones));
    }
    gantry.perimeter = match doc.get("perimeter_protected") {
        Some(list) => list
            .strings("perimeter_protected")
            .map_err(problem)?
            .into_iter()
            .map(|g| g.trim().trim_start_matches("./").to_string())
            .filter(|g| !g.is_empty())
            .collect(),
        None => Vec::new(),
    };
    if gantry.perimeter.is_empty() {
        gantry.perimeter = vec![
            "**/.gxt-skill.yaml".to_string(),
            file.to_string(),
            ".gitagent/planner/RULES.md".to_string(),
        ];
    }
    gantry.mission = load_mission(root, &skill_scopes, budget)?;
    let (org_zones, org_perimeter) = load_org_policy(root, budget)?;
    gantry.org_zones = org_zones;
    gantry.perimeter.extend(org_perimeter);
    Ok(Some(gantry))
}

/// The organisation policy (ADR-0042, a tighten-only floor): the pointer
/// names a bundle pinned to a commit, cached by `gantry policy pull` under
/// `.gitagent/history/policy/<commit>/<bundle_path>`; its
/// `manifest_constraints` add forbidden zones and perimeter paths. No
/// pointer: no org policy. A pointer whose bundle is not cached, or that
/// cannot be read, is a problem (read in the strictest way): gantry's own
/// verify fails closed on it too.
fn load_org_policy(
    root: &Path,
    budget: &mut Budget,
) -> Result<(Vec<String>, Vec<String>), Problem> {
    let problem = |message: String| Fault::from(message).at(POLICY_POINTER);
    let fault = |f: Fault| f.at(POLICY_POINTER);
    let Some(text) = read_policy_file(root, POLICY_POINTER, budget).map_err(fault)? else {
        return Ok((Vec::new(), Vec::new()));
    };
    let pointer = budget.json(&text).map_err(|e| fault(e.into()))?;
    let commit = pointer
        .get("pinned_commit")
        .and_then(Node::text)
        .filter(|c| (40..=64).contains(&c.len()) && c.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| problem("`pinned_commit` must be a 40 to 64 digit hex commit".into()))?;
    let bundle_path = pointer
        .get("bundle_path")
        .and_then(Node::text)
        .unwrap_or("ORG-POLICY.yaml");
    let bundle_path = normalise_entry(bundle_path, "bundle_path").map_err(problem)?;
    let cached = format!(".gitagent/history/policy/{commit}/{bundle_path}");
    let bundle = match read_policy_file(root, &cached, budget) {
        Ok(Some(text)) => text,
        Ok(None) => {
            return Err(problem(format!(
                "pins a policy bundle that is not cached at {cached} (run `gantry policy pull`)"
            )));
        }
        Err(f) => return Err(fault(f.prefixed(&format!("{cached} ")))),
    };
    let bundle = budget
        .yaml(&bundle)
        .map_err(|e| fault(Fault::from(e).prefixed(&format!("{cached}: "))))?;
    let constraints = bundle.get("manifest_constraints");
    let zones = path_list(
        constraints.and_then(|c| c.get("forbidden_zones_add")),
        "forbidden_zones_add",
    )
    .map_err(|m| problem(format!("{cached}: {m}")))?;
    let perimeter = match constraints.and_then(|c| c.get("perimeter_protected_add")) {
        Some(list) => list
            .strings("perimeter_protected_add")
            .map_err(|m| problem(format!("{cached}: {m}")))?,
        None => Vec::new(),
    };
    Ok((zones, perimeter))
}

/// The same document with line numbers dropped, to compare YAML and JSON.
fn strip_lines(node: &Node) -> Node {
    match node {
        Node::Text(s, _) => Node::Text(s.clone(), 0),
        Node::List(items) => Node::List(items.iter().map(strip_lines).collect()),
        Node::Map(entries) => Node::Map(
            entries
                .iter()
                .map(|(k, v)| (k.clone(), strip_lines(v)))
                .collect(),
        ),
        Node::Null => Node::Null,
    }
}

/// A list of root-relative paths (roots, zones), normalised as gantry
/// normalises them.
fn path_list(node: Option<&Node>, what: &str) -> Result<Vec<String>, String> {
    let Some(node) = node else {
        return Ok(Vec::new());
    };
    node.strings(what)?
        .iter()
        .map(|p| normalise_entry(p, what))
        .collect()
}

type SkillScope = (String, Vec<String>, Vec<String>);

/// The pinned mission's effective scope: contract roots narrow the
/// skill's, zones are the union.
fn load_mission(
    root: &Path,
    skills: &[SkillScope],
    budget: &mut Budget,
) -> Result<Option<Mission>, Problem> {
    let pin = match read_policy_file(root, ACTIVE_MISSION, budget) {
        Ok(Some(pin)) => pin,
        Ok(None) => return Ok(None),
        Err(fault) => return Err(fault.at(ACTIVE_MISSION)),
    };
    let problem = |message: String| Fault::from(message).at(ACTIVE_MISSION);
    let pin = pin.trim();
    if pin.is_empty() {
        return Ok(None);
    }
    let named = normalise_entry(pin, "the active mission").map_err(problem)?;
    let file = if named.contains('/') {
        named
    } else {
        format!(".gitagent/missions/{named}")
    };
    let text = match read_policy_file(root, &file, budget) {
        Ok(Some(text)) => text,
        Ok(None) => return Err(problem(format!("names {file}, which does not exist"))),
        Err(f) => {
            return Err(f
                .prefixed(&format!("names {file}, which "))
                .at(ACTIVE_MISSION));
        }
    };
    let doc = budget.yaml(&text).map_err(|e| {
        Fault::from(e)
            .prefixed(&format!("{file}: "))
            .at(ACTIVE_MISSION)
    })?;
    let skill = doc
        .get("skill_key")
        .and_then(Node::text)
        .ok_or_else(|| problem(format!("{file}: no `skill_key`")))?
        .to_string();
    let Some((_, skill_roots, skill_zones)) = skills.iter().find(|(name, ..)| *name == skill)
    else {
        return Err(problem(format!(
            "{file}: skill `{skill}` is not in the manifest"
        )));
    };
    let contract = doc.get("contract");
    let contract_roots = path_list(
        contract.and_then(|c| c.get("tmvc_roots")),
        "contract.tmvc_roots",
    )
    .map_err(|m| problem(format!("{file}: {m}")))?;
    let contract_zones = path_list(
        contract.and_then(|c| c.get("forbidden_zones")),
        "contract.forbidden_zones",
    )
    .map_err(|m| problem(format!("{file}: {m}")))?;
    // A contract may only narrow: its roots lie under the skill's.
    if !skill_roots.is_empty()
        && let Some(escape) = contract_roots
            .iter()
            .find(|r| !skill_roots.iter().any(|s| under(r, s)))
    {
        return Err(problem(format!(
            "{file}: contract root `{escape}` is outside the skill's roots (GXT_CONTRACT_SCOPE_ESCAPE)"
        )));
    }
    let roots = if contract_roots.is_empty() {
        skill_roots.iter().map(|r| (r.clone(), "skill")).collect()
    } else {
        contract_roots
            .into_iter()
            .map(|r| (r, "contract"))
            .collect()
    };
    let mut zones: Vec<(String, &'static str)> =
        skill_zones.iter().map(|z| (z.clone(), "skill")).collect();
    zones.extend(contract_zones.into_iter().map(|z| (z, "contract")));
    let id = doc
        .get("msn_id")
        .or_else(|| doc.get("msnId"))
        .and_then(Node::text)
        .map(str::to_string);
    Ok(Some(Mission {
        file,
        id,
        skill,
        roots,
        zones,
    }))
}

/// A mission file's law ([`MISSION_LAW_KEYS`], lines dropped), to compare
/// what a write leaves with what is there: `text` `None` is a file that
/// does not exist (no law). An error when the text is not a mission file
/// the law could read (past a limit, invalid YAML, not a mapping).
pub fn mission_law(text: Option<&str>) -> Result<Node, String> {
    let Some(text) = text else {
        return Ok(Node::Map(Vec::new()));
    };
    if text.len() as u64 > MAX_POLICY_BYTES {
        return Err(format!(
            "would be over the limit of {MAX_POLICY_BYTES} bytes for a policy file"
        ));
    }
    let doc = document::yaml(text)?;
    match doc {
        Node::Null => Ok(Node::Map(Vec::new())),
        Node::Map(entries) => Ok(Node::Map(
            entries
                .iter()
                .filter(|(k, _)| MISSION_LAW_KEYS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), strip_lines(v)))
                .collect(),
        )),
        _ => Err("is not a mapping of keys".to_string()),
    }
}

/// gantry's `isPathUnderRoot`: equal, or below on a segment boundary.
pub fn under(path: &str, root: &str) -> bool {
    let root = root.trim_end_matches('/');
    path == root
        || path.len() > root.len()
            && path.starts_with(root)
            && path.as_bytes().get(root.len()) == Some(&b'/')
}

/// Reads the workspace-trust project maximum (strict schema).
pub fn trust(text: &str) -> Result<Trust, String> {
    trust_reading(text, &mut Budget::new()).map_err(|f| f.message)
}

/// Reads the trust file, telling a file past a limit from an invalid one.
fn trust_reading(text: &str, budget: &mut Budget) -> Result<Trust, Fault> {
    let doc = budget.json(text)?;
    Ok(trust_of(&doc)?)
}

/// The trust file's schema over its document.
fn trust_of(doc: &Node) -> Result<Trust, String> {
    let Node::Map(entries) = doc else {
        return Err("must be a JSON object".to_string());
    };
    for (key, _) in entries {
        if !matches!(key.as_str(), "schemaVersion" | "maximumTrust") {
            return Err(format!("unknown key `{key}`"));
        }
    }
    if doc.get("schemaVersion").and_then(Node::text) != Some("workspace-trust-policy/v1") {
        return Err("`schemaVersion` must be \"workspace-trust-policy/v1\"".to_string());
    }
    match doc.get("maximumTrust").and_then(Node::text) {
        Some("trusted") | None => Ok(Trust::Trusted),
        Some("restricted") => Ok(Trust::Restricted),
        Some("denied") => Ok(Trust::Denied),
        Some(other) => Err(format!(
            "`maximumTrust` is `{other}`; it must be trusted, restricted or denied"
        )),
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn cage_file_adds_only() {
        let c = cage("protect:\n  - path: ./test/\n  - glob: \"**/*.tf\"\n    mode: report\nallow_only: [\"src/billing/**\"]\ndependencies: revert\n").unwrap();
        assert_eq!(c.protect[0].glob, "test");
        assert_eq!(c.protect[0].verdict, Verdict::Blocked);
        assert_eq!(c.protect[1].verdict, Verdict::Signed);
        assert_eq!(c.allow_only, vec!["src/billing/**"]);
        assert!(c.frozen);
        for (text, why) in [
            ("relax:\n  - .env\n", "would remove protection"),
            (
                "protect:\n  - path: .github/workflows/ci.yml\n    mode: report\n",
                "weaken the built-in cage.ci_config",
            ),
            ("protect:\n  - path: ../outside\n", "inside the repository"),
            ("protect:\n  - path: a\n    glob: b\n", "exactly one"),
            ("protecc: []\n", "unknown key"),
            ("dependencies: maybe\n", "revert"),
            (
                "mode: report\nprotect:\n  - path: .env\n",
                "weaken the built-in cage.secrets",
            ),
        ] {
            let err = cage(text).unwrap_err();
            assert!(err.contains(why), "{text:?}: {err}");
        }
        assert!(cage("protect:\n  - glob: \"**/*.yml\"\n    mode: report\n").is_ok());
    }

    #[test]
    fn trust_file_is_strict() {
        assert_eq!(
            trust(r#"{"schemaVersion":"workspace-trust-policy/v1","maximumTrust":"restricted"}"#),
            Ok(Trust::Restricted)
        );
        assert!(
            trust(r#"{"schemaVersion":"workspace-trust-policy/v1","maximumTrust":"all"}"#).is_err()
        );
        assert!(trust(r#"{"maximumTrust":"trusted"}"#).is_err());
        assert!(trust("[").is_err());
    }

    #[test]
    fn under_is_segment_prefix() {
        assert!(under("src/auth/x.rs", "src/auth/"));
        assert!(under("src/auth", "src/auth"));
        assert!(!under("src/authz/x", "src/auth"));
    }
}
