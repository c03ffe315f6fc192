//! The engine's path-law stage: every write target of a shell command
//! meets the floor's write rules and the path law; dependency commands
//! meet a freeze; the workspace's trust caps the whole decision. Also the
//! edit lane: Claude Code's `Write`, `Edit`, `MultiEdit` and `NotebookEdit`
//! (and `Read`, for secrets) judged by the same law.
//!
//! Takes words and targets from the shell stage; adds [`Finding`]s.

use super::Run;
use crate::floor;
use crate::law::glob::Pattern;
use crate::law::{self, Laws, Reach, Spot};
use crate::paths::{Location, Target};
use crate::shell::Word;
use crate::verdict::{Decision, Finding, Verdict};
use std::path::{Path, PathBuf};

impl Run<'_> {
    /// Floor and path-law checks for one written word (`> F`, `cp … F`,
    /// `open(F, 'w')`), resolved against the folder the command runs in.
    pub(super) fn write_target(
        &mut self,
        word: &Word,
        cwd: Option<PathBuf>,
        reach: Reach,
        part: &str,
        depth: usize,
    ) {
        self.remember_replaced(word, cwd.as_deref(), part);
        for target in floor::targets_of(word, self.location, cwd.as_deref()) {
            self.law_target(&target, cwd.as_deref(), reach, part, depth);
            for rule in floor::check_write_target(&target, self.location) {
                self.floor(rule, part, depth);
            }
        }
    }

    fn law_target(
        &mut self,
        target: &Target,
        cwd: Option<&Path>,
        reach: Reach,
        part: &str,
        depth: usize,
    ) {
        if crate::paths::is_sink(&target.raw) {
            return;
        }
        // The same target judged again (`rm -rf /etc/* /etc/* …`) finds
        // nothing new; a glob's listing on disk is costly.
        let home = self.location.home.as_deref();
        let key = crate::law::TargetKey::new(target, cwd, reach, home);
        if !self.judged_targets.insert(key.clone()) {
            return;
        }
        // Judged before with these laws (replay keeps them across commands;
        // nothing on disk changes while it runs): the same findings.
        if self.trace.is_none()
            && let Some(hits) = self.laws.remembered(&key)
        {
            for hit in hits {
                self.findings.push(super::finding(
                    hit.verdict,
                    &hit.rule,
                    hit.reason.clone(),
                    &hit.remediation,
                    part,
                ));
            }
            return;
        }
        let Some(spot) = Spot::of_target(target, cwd, home, reach, &mut self.laws.fs) else {
            self.laws.remember(key, Vec::new());
            return;
        };
        let mut hits = self.laws.judge(&spot);
        for hit in law::home_hits(&spot, home) {
            if !hits.iter().any(|h| h.rule == hit.rule) {
                hits.push(hit);
            }
        }
        self.laws.remember(key, hits.clone());
        self.note(depth, || {
            let resolved = match (&target.path, &spot.real) {
                (Some(p), Some(real)) => format!(
                    "{} (links resolved: {})",
                    p.display(),
                    real.literal_prefix()
                ),
                (Some(p), None) => p.display().to_string(),
                (None, _) => "(only known at run time)".to_string(),
            };
            let tree = if reach == Reach::Tree {
                ", and everything beneath"
            } else {
                ""
            };
            let judged = if hits.is_empty() {
                "no rule".to_string()
            } else {
                hits.iter()
                    .map(|h| format!("{} {}", h.verdict, h.rule))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!("path law: {} → {resolved}{tree}: {judged}", target.raw)
        });
        for hit in hits {
            self.find(hit.verdict, &hit.rule, hit.reason, &hit.remediation, part);
        }
    }

    /// A quoted glob handed to git (`git checkout -- '*.yml'`): git expands
    /// it itself, across folders, so it may reach `.github/workflows/`.
    pub(super) fn git_pathspec(
        &mut self,
        word: &Word,
        cwd: Option<&Path>,
        part: &str,
        depth: usize,
    ) {
        let Some(cwd) = cwd else { return };
        let mut named = Pattern::literal(&cwd.to_string_lossy());
        named.push_literal("/");
        named.append(&Pattern::git_pathspec(word.value.trim_start_matches("./")));
        let files = Spot {
            shown: word.value.clone(),
            named,
            real: None,
            reach: Reach::Files,
            unresolved: false,
            folder: None,
        };
        let mut hits = self.laws.judge(&files);
        if hits.is_empty() {
            // Files inside a protected folder could match too: signed.
            let anywhere = Spot {
                reach: Reach::Path,
                unresolved: true,
                ..files
            };
            hits = self.laws.judge(&anywhere);
        }
        self.note(depth, || {
            format!(
                "path law: git pathspec {}: {} rule(s)",
                word.value,
                hits.len()
            )
        });
        for hit in hits {
            self.find(hit.verdict, &hit.rule, hit.reason, &hit.remediation, part);
        }
    }

    /// `cp a b dir/`, `mv a dir`, `cp -t dir a`: each source lands in the
    /// folder under its own name (`cp /tmp/x/.env ./` writes `./.env`).
    /// The folder is one when it ends in `/`, is `.` or `..`, is named by
    /// `-t`, or exists as a folder on disk.
    pub(super) fn copies_into_folder(
        &mut self,
        verb: &str,
        args: &[Word],
        part: &str,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        if !matches!(verb, "cp" | "mv" | "install" | "ln" | "rsync" | "scp") {
            return;
        }
        let mut operands: Vec<&Word> = Vec::new();
        let mut folder: Option<Word> = None;
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            let value = arg.value.as_str();
            if value == "-t" || value == "--target-directory" {
                folder = iter.next().cloned();
            } else if let Some(dir) = value.strip_prefix("--target-directory=").or_else(|| {
                value
                    .strip_prefix("-t")
                    .filter(|d| !d.is_empty() && !d.starts_with('-'))
            }) {
                let mut word = arg.clone();
                word.value = dir.to_string();
                folder = Some(word);
            } else if !value.starts_with('-') || value == "-" {
                operands.push(arg);
            }
        }
        let (folder, sources) = match folder {
            Some(folder) => (folder, operands),
            None => {
                let Some((last, sources)) = operands.split_last() else {
                    return;
                };
                let named_folder =
                    last.value.ends_with('/') || matches!(last.value.as_str(), "." | "..");
                let on_disk = !last.dynamic
                    && self
                        .location
                        .resolve_in(last, cwd.as_deref())
                        .path
                        .is_some_and(|p| p.is_dir());
                if !(named_folder || on_disk) || sources.is_empty() {
                    return;
                }
                ((*last).clone(), sources.to_vec())
            }
        };
        let reach = law::reach_of(verb, args).unwrap_or(Reach::Path);
        for source in sources {
            let name = source.value.trim_end_matches('/');
            let name = name.rsplit('/').next().unwrap_or(name);
            if name.is_empty() || name == "." || name == ".." {
                continue;
            }
            let mut landed = folder.clone();
            landed.value = format!("{}/{name}", folder.value.trim_end_matches('/'));
            landed.dynamic |= source.dynamic;
            landed.glob |= source.glob;
            self.write_target(&landed, cwd.clone(), reach, part, depth);
        }
    }

    /// Formatters and fixers (`prettier --write F`, `black F`, `eslint
    /// --fix F`) rewrite the files they name, though they are FREE as a
    /// class: the path law judges each named path (not what lies beneath a
    /// named folder: a formatter touches only the files it understands).
    pub(super) fn rewrites_in_place(
        &mut self,
        classified: &crate::lexicon::Classified,
        words: &[Word],
        part: &str,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        let fixes = words.iter().any(|a| {
            matches!(
                a.value.as_str(),
                "--fix" | "--write" | "-w" | "-i" | "--in-place"
            )
        });
        if !classified.writes.is_empty()
            || !(classified.effect == crate::verdict::Effect::Format || fixes)
        {
            return;
        }
        // Operand indices count the verb itself.
        for operand in classified.operands.iter().filter_map(|&i| words.get(i)) {
            self.write_target(operand, cwd.clone(), Reach::Path, part, depth);
        }
    }

    /// `tar -x -C DIR`, `unzip … -d DIR`: the archive's files land under
    /// DIR, so a rule covering DIR (or a folder above it) covers them all.
    pub(super) fn extraction_folder(
        &mut self,
        verb: &str,
        args: &[Word],
        part: &str,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        let extracts = args.first().is_some_and(|a| {
            !a.value.starts_with("--") && a.value.trim_start_matches('-').contains('x')
        }) || args
            .iter()
            .any(|a| matches!(a.value.as_str(), "-x" | "--extract" | "--get"));
        let (short, long) = match verb {
            "tar" | "gtar" | "bsdtar" if extracts => ("-C", "--directory"),
            "unzip" => ("-d", "--directory"),
            _ => return,
        };
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            let value = arg.value.as_str();
            let folder = if value == short || value == long {
                iter.next().cloned()
            } else if let Some(dir) = value
                .strip_prefix(&format!("{long}="))
                .or_else(|| value.strip_prefix(short).filter(|d| !d.is_empty()))
            {
                let mut word = arg.clone();
                word.value = dir.to_string();
                Some(word)
            } else {
                None
            };
            if let Some(folder) = folder {
                self.write_target(&folder, cwd.clone(), Reach::Path, part, depth);
            }
        }
    }

    /// `git apply F`, `patch -p1 < F`, `git apply <<'EOF' … EOF`: the
    /// files the diff names are written. The diff is read from the heredoc,
    /// a file written earlier in the line, or the project folder (as script
    /// files are); when it cannot be read, the command stays as the lexicon
    /// judges it (SIGNED).
    pub(super) fn patched_files(
        &mut self,
        verb: &str,
        args: &[Word],
        site: &super::Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        let git_apply = verb == "git"
            && args
                .iter()
                .find(|a| !a.value.starts_with('-'))
                .is_some_and(|a| a.value == "apply");
        if !(git_apply || verb == "patch") {
            return;
        }
        let part = site.command.text.as_str();
        // Leading components stripped from the names in the diff.
        let mut strip: Option<usize> = None;
        let mut input: Option<Word> = None;
        let mut operands: Vec<&Word> = Vec::new();
        let mut iter = args.iter().skip(usize::from(git_apply));
        while let Some(arg) = iter.next() {
            let value = arg.value.as_str();
            if let Some(n) = value.strip_prefix("-p").and_then(|n| n.parse().ok()) {
                strip = Some(n);
            } else if value == "-p" || value == "--strip" {
                strip = iter.next().and_then(|n| n.value.parse().ok());
            } else if value == "-i" || value == "--input" {
                input = iter.next().cloned();
            } else if let Some(file) = value.strip_prefix("--input=") {
                input = Some(Word::literal(file));
            } else if git_apply && matches!(value, "--check" | "--stat" | "--numstat" | "--summary")
            {
                // Only reports; writes nothing.
                return;
            } else if !value.starts_with('-') {
                operands.push(arg);
            }
        }
        if verb == "patch" && args.iter().any(|a| a.value == "--dry-run") {
            return;
        }
        let strip = strip.unwrap_or(if git_apply { 1 } else { 0 });
        let text = if let Some(file) = input.as_ref().or(if git_apply {
            operands.first().copied()
        } else {
            None
        }) {
            self.read_script(file, cwd.as_deref()).ok()
        } else {
            match &site.command.stdin {
                crate::shell::Stdin::Heredoc { body, .. } => Some(body.clone()),
                crate::shell::Stdin::File(file) => self.read_script(file, cwd.as_deref()).ok(),
                _ => None,
            }
        };
        // `patch FILE < diff`: the file named on the command line is the one
        // written.
        if verb == "patch"
            && input.is_none()
            && let Some(file) = operands.first()
        {
            let file = (*file).clone();
            self.write_target(&file, cwd.clone(), Reach::Path, part, depth);
            return;
        }
        let Some(text) = text else { return };
        for name in diff_targets(&text, strip) {
            self.note(depth, || format!("patch writes {name}"));
            self.write_target(&Word::literal(&name), cwd.clone(), Reach::Path, part, depth);
        }
    }

    /// `perl -pi -e … FILE`, `ruby -i -pe … FILE`: the files after the code
    /// are edited in place.
    pub(super) fn in_place_edits(
        &mut self,
        interpreter: &str,
        args: &[Word],
        part: &str,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        if !matches!(interpreter, "perl" | "ruby") {
            return;
        }
        let mut in_place = false;
        let mut code_given = false;
        let mut files = Vec::new();
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            let value = arg.value.as_str();
            if value == "--" {
                files.extend(iter.by_ref());
                break;
            }
            if let Some(flags) = value
                .strip_prefix('-')
                .filter(|f| !f.is_empty() && !f.starts_with('-'))
            {
                // `-i` takes an optional backup suffix glued to it (`-i.bak`).
                let letters: String = flags
                    .chars()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .collect();
                in_place |= letters.contains('i');
                if letters.ends_with('e') || letters.ends_with('E') {
                    code_given = true;
                    iter.next();
                }
                continue;
            }
            if !code_given {
                // The first operand is the script file.
                code_given = true;
                continue;
            }
            files.push(arg);
        }
        if !in_place {
            return;
        }
        for file in files {
            self.write_target(file, cwd.clone(), Reach::Path, part, depth);
        }
    }

    /// Under a dependency freeze (`.cage.yaml` `dependencies: revert`),
    /// commands that add, remove or update packages are blocked.
    pub(super) fn frozen_dependencies(
        &mut self,
        verb: &str,
        args: &[Word],
        part: &str,
        depth: usize,
    ) {
        let Some(command) = law::frozen_command(verb, args) else {
            return;
        };
        if !self.laws.home().is_some_and(law::Law::frozen) {
            return;
        }
        self.note(depth, || {
            format!("path law: dependencies are frozen: {}", command.rule)
        });
        let (what, remediation) = if command.rule == "cage.lockfile" {
            (
                "rewrites the lockfile",
                "Dependencies are frozen for this task (.cage.yaml `dependencies: revert`): install from the lockfile as it is (`npm ci`, `--frozen-lockfile`, `--locked`), or ask the person to lift the freeze.",
            )
        } else {
            (
                "adds, removes or updates dependencies",
                "Dependencies are frozen for this task (.cage.yaml `dependencies: revert`): work with the packages already declared, or ask the person to lift the freeze.",
            )
        };
        self.find(
            Verdict::Blocked,
            command.rule,
            format!(
                "`{}` {what}, and dependencies are frozen (.cage.yaml dependencies: revert)",
                command.words.join(" ")
            ),
            remediation,
            part,
        );
    }

    /// `git config core.hooksPath …` (or `--unset`): the cage's git
    /// control, named before the floor rule that also blocks it.
    pub(super) fn git_control_setting(&mut self, part: &str, depth: usize) {
        self.note(depth, || {
            "path law: core.hooksPath is git control".to_string()
        });
        self.find(
            Verdict::Blocked,
            "cage.git_control",
            "changes core.hooksPath, which decides which hooks git runs (cage built-in rule git_control)".into(),
            "Leave core.hooksPath alone; hook changes are for the person to make.",
            part,
        );
    }

    /// The decision, with the workspace's trust applied last: `restricted`
    /// blocks everything but FREE, `denied` blocks everything.
    pub(super) fn finish(mut self, command: &str) -> Decision {
        let verdict = Decision::from_findings(std::mem::take(&mut self.findings), command);
        trusted(verdict, self.laws, command)
    }
}

/// A decision with the working folder's trust applied.
fn trusted(decision: Decision, laws: &mut Laws, part: &str) -> Decision {
    match trust_finding(laws, decision.verdict(), part) {
        Some(finding) => {
            let mut findings = decision.findings;
            findings.insert(0, finding);
            Decision::from_findings(findings, part)
        }
        None => decision,
    }
}

/// The trust finding for a request whose verdict would be `verdict`.
fn trust_finding(laws: &mut Laws, verdict: Verdict, part: &str) -> Option<Finding> {
    let hit = law::trust_hit(laws.home()?, verdict)?;
    Some(Finding {
        verdict: hit.verdict,
        rule: hit.rule,
        reason: hit.reason,
        remediation: hit.remediation,
        part: crate::limits::clip(part, 300).to_string(),
    })
}

/// Which edit tool a request uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditKind {
    /// `Write`, `Edit`, `MultiEdit`, `NotebookEdit` (and OpenCode's
    /// write, edit and patch): the file is written.
    Write,
    /// `Read`: the file's content enters the model's context.
    Read,
}

/// What an edit tool's request says it leaves in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditContent {
    /// The whole new text (`Write`'s `content`).
    Whole(String),
    /// Replacements applied in order to the text on disk (`Edit`,
    /// `MultiEdit`).
    Replace(Vec<Replacement>),
}

/// One `old_string` → `new_string` of an `Edit`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replacement {
    /// The text replaced.
    pub old: String,
    /// What replaces it.
    pub new: String,
    /// Every occurrence (`replace_all`), else the first.
    pub all: bool,
}

impl EditContent {
    /// The text the edit would leave in `path`: `None` when it cannot be
    /// known (the file on disk unreadable, a text to replace not found, an
    /// empty one) or would be past the policy size limit (never built:
    /// the cost stays bounded by the request and the limit).
    fn result(&self, path: &Path) -> Option<Result<String, ()>> {
        let limit = crate::law::policy::MAX_POLICY_BYTES as usize;
        let edits = match self {
            EditContent::Whole(text) => return Some(Ok(text.clone())),
            EditContent::Replace(edits) => edits,
        };
        let mut text = crate::law::resolve::read_limited(path, limit as u64)
            .ok()
            .flatten()?;
        for edit in edits {
            if edit.old.is_empty() {
                return None;
            }
            let count = if edit.all {
                text.matches(edit.old.as_str()).count()
            } else {
                usize::from(text.contains(edit.old.as_str()))
            };
            if count == 0 {
                return None;
            }
            let grown = text.len() - count * edit.old.len() + count * edit.new.len();
            if grown > limit {
                return Some(Err(()));
            }
            text = if edit.all {
                text.replace(edit.old.as_str(), &edit.new)
            } else {
                text.replacen(edit.old.as_str(), &edit.new, 1)
            };
        }
        Some(Ok(text))
    }
}

/// Judges an edit tool's request on one file, its new content unknown
/// (see [`evaluate_edit_with`]).
pub fn evaluate_edit(kind: EditKind, path: &str, location: &Location, laws: &mut Laws) -> Decision {
    evaluate_edit_with(kind, path, None, location, laws)
}

/// A mission file's finding with the edit's content known: none when the
/// mission's law (contract, skill, id) is left as it is, BLOCKED when it
/// changes or could not be read afterwards; unchanged (SIGNED) when the
/// new content cannot be known.
fn mission_hit(
    mut hit: law::Hit,
    absolute: &Path,
    content: Option<&EditContent>,
) -> Option<law::Hit> {
    use crate::law::policy::mission_law;
    let Some(after) = content.and_then(|c| c.result(absolute)) else {
        return Some(hit);
    };
    let before =
        match crate::law::resolve::read_limited(absolute, crate::law::policy::MAX_POLICY_BYTES) {
            Ok(text) => mission_law(text.as_deref()),
            Err(e) => Err(e),
        };
    let after = match after {
        Ok(text) => mission_law(Some(&text)),
        Err(()) => Err("would be over the size limit for a policy file".to_string()),
    };
    let why = match (&before, &after) {
        (_, Err(e)) => format!("would leave a mission file the law cannot read (it {e})"),
        (Ok(b), Ok(a)) if a == b => return None,
        _ => "changes the mission's contract, skill_key or msn_id".to_string(),
    };
    hit.verdict = Verdict::Blocked;
    hit.reason = format!(
        "{}: {why}; the contract (edit roots and forbidden zones) is the person's law",
        absolute.display()
    );
    hit.remediation = "Leave the mission's contract, skill_key and msn_id as they are; to work outside them, record a context request (gantry context-request --path P --reason \"…\") and escalate to the Planner.".to_string();
    Some(hit)
}

/// Judges an edit tool's request on one file, with what the request says
/// it leaves there (`content`; `None`: unknown). A path the law allows is
/// FREE with rule `edit.allowed` (the hook prints nothing for it: the host
/// decides as usual). A mission file is judged by the contract the edit
/// would leave behind, compared with the one on disk.
pub fn evaluate_edit_with(
    kind: EditKind,
    path: &str,
    content: Option<&EditContent>,
    location: &Location,
    laws: &mut Laws,
) -> Decision {
    let shown = path.to_string();
    let absolute = match (Path::new(path).is_absolute(), &location.cwd) {
        (true, _) => Some(PathBuf::from(path)),
        (false, Some(cwd)) => Some(cwd.join(path)),
        (false, None) => None,
    };
    let mut findings = Vec::new();
    let push =
        |findings: &mut Vec<Finding>, verdict, rule: &str, reason: String, remediation: &str| {
            findings.push(Finding {
                verdict,
                rule: rule.to_string(),
                reason,
                remediation: remediation.to_string(),
                part: shown.clone(),
            });
        };
    match kind {
        EditKind::Read => {
            let name = absolute
                .as_deref()
                .map(|p| crate::paths::normalise(p).to_string_lossy().into_owned())
                .unwrap_or_else(|| shown.clone());
            if crate::secrets::file_read(&name).is_some() || crate::secrets::is_secret(&shown) {
                push(
                    &mut findings,
                    Verdict::Signed,
                    "cage.secrets.read",
                    format!(
                        "reads {shown}, which holds secrets; they would enter the model's context"
                    ),
                    SECRETS_REMEDIATION,
                );
            }
        }
        EditKind::Write => {
            let Some(absolute) = absolute else {
                push(
                    &mut findings,
                    Verdict::Signed,
                    "edit.unresolved",
                    format!("writes {shown}, a relative path with no working folder to resolve it"),
                    "Give the edit tool an absolute path.",
                );
                return Decision::from_findings(findings, path);
            };
            let spot = Spot::path(&absolute, &shown, Reach::Path, &mut laws.fs);
            let mut hits = laws.judge(&spot);
            for hit in law::home_hits(&spot, location.home.as_deref()) {
                if !hits.iter().any(|h| h.rule == hit.rule) {
                    hits.push(hit);
                }
            }
            hits = hits
                .into_iter()
                .filter_map(|hit| {
                    if hit.rule == law::MISSION_CONTRACT_RULE {
                        mission_hit(hit, &absolute, content)
                    } else {
                        Some(hit)
                    }
                })
                .collect();
            for hit in hits {
                push(
                    &mut findings,
                    hit.verdict,
                    &hit.rule,
                    hit.reason,
                    &hit.remediation,
                );
            }
            let target = Target {
                path: Some(crate::paths::normalise(&absolute)),
                raw: shown.clone(),
                glob: false,
                dynamic: false,
                empty_var_hazard: None,
            };
            for rule in floor::check_write_target(&target, location) {
                let info = rule.info();
                push(
                    &mut findings,
                    Verdict::Blocked,
                    info.id,
                    info.reason.to_string(),
                    info.remediation,
                );
            }
        }
    }
    if findings.is_empty() {
        push(
            &mut findings,
            Verdict::Free,
            "edit.allowed",
            format!("the path law has no rule against {shown}"),
            "",
        );
    }
    // Under restricted trust nothing may be written, whatever the law says.
    let verdict = Decision::from_findings(findings.clone(), path).verdict();
    let as_trust = if kind == EditKind::Write {
        verdict.max(Verdict::Signed)
    } else {
        verdict
    };
    if let Some(finding) = trust_finding(laws, as_trust, path) {
        findings.insert(0, finding);
    }
    Decision::from_findings(findings, path)
}

/// What to do instead of reading secrets.
const SECRETS_REMEDIATION: &str =
    "Ask the person for the one value you need, or read a template such as .env.example.";

/// Judges a search tool's request (Claude Code's `Grep`, OpenCode's
/// `grep`): a search over `path` (a file or a folder; the working folder
/// when absent), limited to files named by `glob`. A search over files of
/// credentials, or a folder that holds them (the home folder, `~/.ssh`,
/// `/etc`), is SIGNED `cage.secrets.read`; anything else is FREE
/// `search.allowed` (the hook prints nothing: the host decides as usual).
pub fn evaluate_search(
    path: Option<&str>,
    glob: Option<&str>,
    location: &Location,
    laws: &mut Laws,
) -> Decision {
    let shown = path.unwrap_or(".").to_string();
    let home = location.home.as_deref();
    let absolute = match path {
        Some(p) if p == "~" || p.starts_with("~/") => {
            home.map(|h| h.join(p.trim_start_matches('~').trim_start_matches('/')))
        }
        Some(p) if Path::new(p).is_absolute() => Some(PathBuf::from(p)),
        Some(p) => location.cwd.as_ref().map(|cwd| cwd.join(p)),
        None => location.cwd.clone(),
    };
    let finding = |verdict, rule: &str, reason: String, remediation: &str| Finding {
        verdict,
        rule: rule.to_string(),
        reason,
        remediation: remediation.to_string(),
        part: shown.clone(),
    };
    let mut findings = Vec::new();
    match absolute.map(|p| crate::paths::normalise(&p)) {
        None => findings.push(finding(
            Verdict::Signed,
            "search.unresolved",
            format!("searches {shown}, a relative path with no working folder to resolve it"),
            "Give the search tool an absolute path.",
        )),
        Some(root) => {
            let real = crate::law::resolve::resolve_links(&root);
            let found = [&root, &real]
                .iter()
                .find_map(|p| crate::secrets::search_read(&p.to_string_lossy(), glob, home));
            if let Some(why) = found {
                findings.push(finding(
                    Verdict::Signed,
                    "cage.secrets.read",
                    format!("{why}; they would enter the model's context"),
                    "Search the project's own folders, or ask the person for the one value you need.",
                ));
            }
        }
    }
    if findings.is_empty() {
        findings.push(finding(
            Verdict::Free,
            "search.allowed",
            format!("a search of {shown} reads no credentials"),
            "",
        ));
    }
    let label = shown.clone();
    let decision = Decision::from_findings(findings, &label);
    trusted(decision, laws, &label)
}

/// The files a unified or git diff writes: `+++` targets, `--- ` sources
/// of deletions, and git's rename and copy targets, with `strip` leading
/// components removed (`b/src/x.rs` → `src/x.rs` at 1). At most 1,000.
fn diff_targets(text: &str, strip: usize) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut push = |raw: &str, strip: usize| {
        let raw = raw.split('\t').next().unwrap_or(raw).trim();
        let raw = raw.trim_matches('"');
        if raw.is_empty() || raw == "/dev/null" || names.len() >= 1000 {
            return;
        }
        let stripped: String = raw
            .splitn(strip + 1, '/')
            .nth(strip)
            .unwrap_or(raw)
            .to_string();
        if !stripped.is_empty() && !names.contains(&stripped) {
            names.push(stripped);
        }
    };
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if let Some(target) = line.strip_prefix("+++ ") {
            push(target, strip);
        } else if let Some(source) = line.strip_prefix("--- ") {
            // A deletion names the file only on the `---` line.
            if lines
                .peek()
                .is_some_and(|next| next.trim_end() == "+++ /dev/null")
            {
                push(source, strip);
            }
        } else if let Some(target) = line
            .strip_prefix("rename to ")
            .or_else(|| line.strip_prefix("copy to "))
        {
            push(target, 0);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::diff_targets;

    #[test]
    fn diff_targets_are_found() {
        let diff = "diff --git a/src/a.rs b/src/a.rs\n--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1 +1 @@\n-x\n+y\n--- a/.env\n+++ /dev/null\nrename from x\nrename to .github/workflows/ci.yml\n";
        assert_eq!(
            diff_targets(diff, 1),
            vec!["src/a.rs", ".env", ".github/workflows/ci.yml"]
        );
        assert_eq!(diff_targets("+++ .envrc\t2024-01-01\n", 0), vec![".envrc"]);
    }
}
