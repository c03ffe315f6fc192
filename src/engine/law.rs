//! The engine's path-law stage: every write target of a shell command
//! meets the floor's write rules and the path law; dependency commands
//! meet a freeze. Formatters are judged in `formatters.rs`, the
//! workspace's trust in `trust.rs`, the edit tools in `edit.rs`.
//!
//! Takes words and targets from the shell stage; adds [`Finding`]s.

use super::Run;
use super::ctx::Ctx;
use crate::floor;
use crate::law::glob::Pattern;
use crate::law::{self, Reach, Spot};
use crate::limits;
use crate::paths::Target;
use crate::rule_id::{Rule, RuleId};
use crate::shell::Word;
use crate::verdict::Verdict;
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

    /// A verb of a free class (a build's `-o`, a test's report, a
    /// formatter's output) writing `word`: SIGNED `write.outside-project`
    /// unless the file is inside the project (the repository holding the
    /// request's working folder, else that folder; judged on disk when that
    /// exists, links resolved, by name otherwise) or in the temporary
    /// folder. A write only known at run time is the path law's to judge.
    pub(super) fn free_write_outside(
        &mut self,
        verb: &str,
        word: &Word,
        cwd: Option<&Path>,
        part: &str,
    ) {
        if word.dynamic || crate::paths::is_sink(&word.value) {
            return;
        }
        let Some(path) = self.location.resolve_in(word, cwd).path else {
            return;
        };
        // By name, `..` taken lexically; on disk, the kernel's reading.
        let path = crate::paths::normalise(&path);
        // The project is the request's own folder's, never one `cd` moved
        // to (`cd /etc && go build -o cron.d/x .`).
        let project = self.location.cwd.as_deref();
        let in_project = project.is_some_and(|dir| match super::mode::project_root(Some(dir)) {
            Some(root) => super::mode::ordinary_inside(&path, &root),
            None => path.starts_with(dir) && path != dir,
        });
        let in_temporary = || {
            TEMPORARY.iter().any(|tmp| {
                std::fs::canonicalize(tmp)
                    .is_ok_and(|real| super::mode::ordinary_inside(&path, &real))
            })
        };
        if in_project || in_temporary() {
            return;
        }
        self.find(
            Verdict::Signed,
            Rule::WriteOutsideProject,
            format!(
                "`{}` writes {}, outside the project",
                limits::clip(verb, 40),
                limits::clip(&word.value, 120)
            ),
            "Write the output inside the project (or the temporary folder), or ask the person to sign off on the write.",
            part,
        );
    }

    fn law_target(
        &mut self,
        target: &Target,
        cwd: Option<&Path>,
        reach: Reach,
        part: &str,
        depth: usize,
    ) {
        if crate::paths::is_sink(&target.raw) || self.settled {
            return;
        }
        if self.edits.len() <= super::mode::MAX_EDITS {
            // The kernel's reading (`..` after links) where it differs.
            let path = target.physical.as_ref().or(target.path.as_ref());
            let known = !(target.glob || target.dynamic || target.opaque);
            self.edits.push(path.filter(|_| known).cloned());
        }
        self.law_target_elsewhere(target, cwd, reach, part, depth);
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
                let found = super::finding(
                    hit.verdict,
                    RuleId::Fixed(hit.rule),
                    hit.reason.clone(),
                    &hit.remediation,
                    part,
                );
                // As `Run::record` (untraced here); `laws` is borrowed.
                self.settled |= crate::verdict::settles(&found);
                self.findings.push(found);
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
            self.find(
                hit.verdict,
                RuleId::Fixed(hit.rule),
                hit.reason,
                &hit.remediation,
                part,
            );
        }
    }

    /// A write target that is another path too: through links made earlier
    /// in this line, read component by component as the kernel reads them
    /// (`ln -s .git/hooks h && echo x > h/../config`), and a file on disk
    /// hard-linked to a protected one (same inode). Each such path is judged
    /// as a target of its own.
    fn law_target_elsewhere(
        &mut self,
        target: &Target,
        cwd: Option<&Path>,
        reach: Reach,
        part: &str,
        depth: usize,
    ) {
        let Some(path) = target.path.clone() else {
            return;
        };
        let mut elsewhere = Vec::new();
        if target.physical.is_some() {
            // The name read with `..` taken lexically, links resolved after
            // (as a tool that cleans paths first would write it).
            elsewhere.push(path.clone());
        }
        let from = target.physical.clone().unwrap_or_else(|| path.clone());
        if let Some(via) = self.links.through(&from, reach != Reach::Tree, part)
            && via != path
        {
            elsewhere.push(via);
        }
        if reach != Reach::Tree {
            let home = self.location.home.clone();
            let real = self.laws.fs.resolve(&from);
            elsewhere.extend(self.laws.hard_link_twins(&real, home.as_deref()));
        }
        for other in elsewhere {
            self.note(depth, || {
                format!("path law: {} is also {}", target.raw, other.display())
            });
            let led = Target {
                path: Some(other),
                physical: None,
                ..target.clone()
            };
            self.law_target(&led, cwd, reach, part, depth);
        }
    }

    /// The folder `cd` (or `pushd`) moves to: as bash keeps it (`..`
    /// read by name), or, with `-P`, the folder on disk (links resolved,
    /// those made earlier in the line too).
    pub(super) fn cd_folder(
        &self,
        words: &[Word],
        dir: &Word,
        cwd: Option<&Path>,
    ) -> Option<PathBuf> {
        let target = self.location.resolve_in(dir, cwd);
        let path = target.path.clone()?;
        let physical = words
            .iter()
            .skip(1)
            .take_while(|w| w.value.starts_with('-') && w.value != "-" && w.value != "--")
            .any(|w| !w.value.starts_with("--") && w.value.contains('P'));
        if !physical {
            return Some(path);
        }
        let from = target.physical.unwrap_or(path);
        let via = self.links.through(&from, true, "");
        Some(crate::law::resolve::resolve_links(
            via.as_deref().unwrap_or(&from),
        ))
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
        let Some(cwd) = cwd.filter(|_| !self.settled) else {
            return;
        };
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
            self.find(
                hit.verdict,
                RuleId::Fixed(hit.rule),
                hit.reason,
                &hit.remediation,
                part,
            );
        }
    }

    /// `cp a b dir/`, `mv a dir`, `cp -t dir a`: each source lands in the
    /// folder under its own name (`cp /tmp/x/.env ./` writes `./.env`).
    /// The folder is one when it ends in `/`, is `.` or `..`, is named by
    /// `-t`, or exists as a folder on disk.
    pub(super) fn copies_into_folder(&mut self, verb: &str, args: &[Word], ctx: &Ctx) {
        let (part, depth, cwd) = (ctx.part(), ctx.depth, ctx.cwd.clone());
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

    /// `ssh-keygen -f FILE`: the key file is written (with `FILE.pub`),
    /// unless the command only reads it (`-l`, `-y`, `-B`, `-F`, `-e`,
    /// `-i`, `-D`, `-Q`, `-k` list, print or convert; `-R` and `-H` still
    /// rewrite it).
    pub(super) fn key_file(&mut self, verb: &str, args: &[Word], ctx: &Ctx) {
        let (part, depth, cwd) = (ctx.part(), ctx.depth, ctx.cwd.clone());
        if verb != "ssh-keygen" {
            return;
        }
        // Read as getopt reads it: letters, and the values of those that
        // take one (the rest of the word, or the next word).
        let mut letters = String::new();
        let mut files: Vec<Word> = Vec::new();
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            let Some(cluster) = arg.value.strip_prefix('-').filter(|c| !c.starts_with('-')) else {
                continue;
            };
            for (at, letter) in cluster.char_indices() {
                letters.push(letter);
                if !KEYGEN_VALUES.contains(letter) {
                    continue;
                }
                let rest = &cluster[at + letter.len_utf8()..];
                let value = if rest.is_empty() {
                    iter.next().cloned()
                } else {
                    let mut word = arg.clone();
                    word.value = rest.to_string();
                    Some(word)
                };
                if letter == 'f' {
                    files.extend(value);
                }
                break;
            }
        }
        let only_reads = letters.chars().any(|c| "lyBFeiDQk".contains(c))
            && !letters.chars().any(|c| "RH".contains(c));
        if only_reads {
            return;
        }
        for file in files {
            let mut public = file.clone();
            public.value.push_str(".pub");
            self.write_target(&file, cwd.clone(), Reach::Path, part, depth);
            self.write_target(&public, cwd.clone(), Reach::Path, part, depth);
        }
    }

    /// `script FILE`, `script -O FILE -c CMD`, `script -t=TIMING`: the
    /// files the session is recorded to (the first operand, default
    /// `typescript`, and the log options' values) are written.
    pub(super) fn session_files(
        &mut self,
        args: &[Word],
        part: &str,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        let mut files: Vec<Word> = Vec::new();
        let mut operand = false;
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            let value = arg.value.as_str();
            let attached = |at: usize| {
                let mut word = arg.clone();
                word.value = value[at..].to_string();
                word
            };
            match value {
                "--" => {
                    files.extend(iter.next().cloned().filter(|_| !operand));
                    break;
                }
                "-I" | "--log-in" | "-O" | "--log-out" | "-B" | "--log-io" | "-T"
                | "--log-timing" => files.extend(iter.next().cloned()),
                "-c" | "--command" | "-E" | "--echo" | "-m" | "--logging-format" | "-o"
                | "--output-limit" => {
                    iter.next();
                }
                _ if value.starts_with("--log-") || value.starts_with("--timing=") => {
                    if let Some(at) = value.find('=') {
                        files.push(attached(at + 1));
                    }
                }
                _ if value.starts_with("-t") && value.len() > 2 => {
                    let at = if value.as_bytes().get(2) == Some(&b'=') {
                        3
                    } else {
                        2
                    };
                    files.push(attached(at));
                }
                _ if value.starts_with('-') && value.len() > 1 => {}
                _ if !operand => {
                    operand = true;
                    files.push(arg.clone());
                }
                // BSD `script FILE CMD…`: the rest is the command.
                _ => break,
            }
        }
        for file in files {
            self.write_target(&file, cwd.clone(), Reach::Path, part, depth);
        }
    }

    /// `tar -x -C DIR`, `unzip … -d DIR`: the archive's files land under
    /// DIR, so a rule covering DIR (or a folder above it) covers them all.
    pub(super) fn extraction_folder(&mut self, verb: &str, args: &[Word], ctx: &Ctx) {
        let (part, depth, cwd) = (ctx.part(), ctx.depth, ctx.cwd.clone());
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
                let reach = self.unpacking_reach(&folder, cwd.as_deref());
                self.write_target(&folder, cwd.clone(), reach, part, depth);
            }
        }
    }

    /// How far files written into `folder` reach: an archive or patch
    /// unpacked into a folder may write anything beneath it. Inside a
    /// hidden folder (`.git`, `.github`, `.claude`, `.gitagent`, where
    /// tools keep the code and config they run) the whole tree is judged
    /// (`tar -x -C .git` writes `hooks/`); elsewhere the folder itself is,
    /// and rules covering it cover what lands in it (unpacking at the
    /// project root or into `vendor/` stays an ordinary write).
    pub(super) fn unpacking_reach(&self, folder: &Word, cwd: Option<&Path>) -> Reach {
        let target = self.location.resolve_in(folder, cwd);
        let hidden = |path: &Path| {
            path.components().any(|c| {
                let name = c.as_os_str().as_encoded_bytes();
                name.len() > 1 && name.starts_with(b".") && name != b".."
            })
        };
        let inside = match &target.path {
            Some(path) => hidden(path) || target.physical.as_deref().is_some_and(hidden),
            // Only known when it runs: judged whole.
            None => true,
        };
        if inside { Reach::Tree } else { Reach::Path }
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
        if !self.laws.frozen_at_cwd() {
            return;
        }
        let Some(command) = law::frozen_command(verb, args) else {
            return;
        };
        self.note(depth, || {
            format!("path law: dependencies are frozen: {}", command.rule)
        });
        let (what, remediation) = if command.rule == Rule::CageLockfile {
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
            Rule::CageGitControl,
            "changes core.hooksPath, which decides which hooks git runs (cage built-in rule git_control)".into(),
            "Leave core.hooksPath alone; hook changes are for the person to make.",
            part,
        );
    }
}

/// A write operand on another machine (`s3://b/k`, and `host:path` for
/// the copy tools that take one: `scp`, `rsync`, `kubectl cp`, `rclone`):
/// nothing is written here. A word only known at run time is never one.
pub(super) fn remote_operand(verb: &str, word: &Word) -> bool {
    let value = word.value.as_str();
    if word.dynamic {
        return false;
    }
    if let Some((scheme, _)) = value.split_once("://")
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
    {
        return true;
    }
    if !REMOTE_COPIERS.contains(&verb) || value.starts_with(['/', '.', '~']) {
        return false;
    }
    value
        .split_once(':')
        .is_some_and(|(host, _)| !host.is_empty() && (verb == "kubectl" || !host.contains('/')))
}

/// The options of `ssh-keygen` that take a value.
const KEYGEN_VALUES: &str = "abCDEFfIJjMmNnOPRrSstVwYZz";

/// Copy tools whose operands may be `host:path` on another machine.
const REMOTE_COPIERS: &[&str] = &["scp", "rsync", "kubectl", "rclone", "gsutil"];

/// The temporary folders a free step may write in.
const TEMPORARY: &[&str] = &["/tmp", "/var/tmp"];
