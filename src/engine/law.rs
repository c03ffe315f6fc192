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
use crate::rule_id::RuleId;
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
                self.findings.push(super::finding(
                    hit.verdict,
                    RuleId::named(hit.rule.clone()),
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
            self.find(
                hit.verdict,
                RuleId::named(hit.rule),
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
            let real = crate::law::resolve::resolve_links(&from);
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

    /// Under narrowed workspace trust (`restricted`, of any law containing
    /// the folder the command runs in), only inspection that reaches no
    /// network may run: a build, test, formatter, network read or anything
    /// more is blocked; under `denied` everything is.
    pub(super) fn narrowed_trust(
        &mut self,
        effect: crate::verdict::Effect,
        path: &[&str],
        cwd: Option<&Path>,
        part: &str,
        depth: usize,
    ) {
        let network = reads_network(path);
        let offline = effect == crate::verdict::Effect::Inspect && !network;
        let asks = if offline {
            Verdict::Free
        } else {
            Verdict::Signed
        };
        let Some(hit) = self.laws.trust_hit_at(cwd, asks) else {
            return;
        };
        let what = if network {
            "reads the network".to_string()
        } else {
            format!("is classed {}", effect.as_str())
        };
        let reason = format!("`{}` {what}; {}", path.join(" "), hit.reason);
        self.note(depth, || format!("trust: {reason}"));
        self.find(hit.verdict, &hit.rule, reason, &hit.remediation, part);
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
            self.find(
                hit.verdict,
                RuleId::named(hit.rule),
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
        if let Some(formatter) = crate::rules::formatter(&classified.path) {
            let fixing = formatter
                .fixes
                .iter()
                .any(|f| words.iter().skip(1).any(|w| option_given(&w.value, f)));
            if classified.effect == crate::verdict::Effect::Format || fixes || fixing {
                self.formatter_reach(formatter, classified, words, part, depth, cwd);
            }
            return;
        }
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

    /// A formatter of `rules/rewrites.json`: each file it names is judged;
    /// a folder it names (or `DIR/...`), or with none the folder it starts
    /// from, is judged with the rules beneath it that hold files it
    /// rewrites. An option that makes it only report (`--check`) writes
    /// nothing.
    fn formatter_reach(
        &mut self,
        formatter: &crate::rules::Formatter,
        classified: &crate::lexicon::Classified,
        words: &[Word],
        part: &str,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        use crate::rules::Bare;
        let reports = words.iter().skip(1).any(|w| {
            formatter.unless.iter().any(|u| {
                w.value == *u
                    || w.value
                        .strip_prefix(u)
                        .is_some_and(|rest| rest.starts_with('='))
            })
        });
        if reports {
            return;
        }
        let tool = classified.path.join(" ");
        let operands: Vec<Word> = classified
            .operands
            .iter()
            .filter_map(|&i| words.get(i).cloned())
            .collect();
        let folder_of = |word: &Word, this: &Self| {
            (!word.glob)
                .then(|| this.location.resolve_in(word, cwd.as_deref()).path)
                .flatten()
        };
        let here = Word::literal(".");
        let start = match formatter.bare {
            Bare::Package(manifest) => cwd.as_deref().map(|c| package_root(c, manifest)),
            _ if !operands.is_empty() => None,
            Bare::Nothing => return,
            Bare::Folder | Bare::Tree => cwd.clone(),
        };
        if operands.is_empty() || matches!(formatter.bare, Bare::Package(_)) {
            let Some(folder) = start else {
                // The folder is unknown: judged as a target only run time knows.
                self.write_target(&here, cwd.clone(), Reach::Path, part, depth);
                return;
            };
            let tree = formatter.bare != Bare::Folder;
            self.rewritten_in(&folder, formatter.files, ".", tree, part, depth);
            if tree {
                self.rewritten_below(&folder, formatter.files, &tool, ".", part, depth);
            }
            return;
        }
        for operand in operands {
            // `go fmt ./...`: the folder and everything beneath it.
            let (word, tree) = match operand.value.strip_suffix("/...") {
                Some(prefix) => {
                    let mut word = operand.clone();
                    word.value = if prefix.is_empty() { "." } else { prefix }.to_string();
                    (word, true)
                }
                None => (operand.clone(), false),
            };
            match folder_of(&word, self) {
                Some(path) if tree || path.is_dir() => {
                    self.rewritten_in(&path, formatter.files, &word.value, true, part, depth);
                    self.rewritten_below(&path, formatter.files, &tool, &word.value, part, depth);
                }
                // `ruff format src/*`: what it matches may be folders.
                _ if word.glob => {
                    let matched = self.location.resolve_in(&word, cwd.as_deref()).path;
                    match matched.as_deref().and_then(glob_on_disk) {
                        Some(paths) => {
                            for path in paths {
                                if path.is_dir() {
                                    self.rewritten_in(
                                        &path,
                                        formatter.files,
                                        &word.value,
                                        true,
                                        part,
                                        depth,
                                    );
                                    self.rewritten_below(
                                        &path,
                                        formatter.files,
                                        &tool,
                                        &word.value,
                                        part,
                                        depth,
                                    );
                                }
                            }
                            self.write_target(&word, cwd.clone(), Reach::Path, part, depth);
                        }
                        None => self.write_target(&word, cwd.clone(), Reach::Tree, part, depth),
                    }
                }
                _ => self.write_target(&word, cwd.clone(), Reach::Path, part, depth),
            }
        }
    }

    /// The path law's findings for a formatter rewriting the files directly
    /// in `folder`. The built-in rules are judged on the folder, as on one
    /// such file in it (`_.py`): a rule covering the folder covers them
    /// (`prettier --write` in `.github/workflows`). The project's own rules
    /// are judged on the folder itself (a zone holding it) and on the files
    /// there (`tree`: by [`Laws::rewrites_below`], with what lies beneath;
    /// else each file in the folder), never on a name the folder merely
    /// could hold (`**/*.tf`).
    fn rewritten_in(
        &mut self,
        folder: &Path,
        files: &[&str],
        shown: &str,
        tree: bool,
        part: &str,
        depth: usize,
    ) {
        let spot = Spot::path(
            &spot_path(folder, files),
            shown,
            Reach::Path,
            &mut self.laws.fs,
        );
        let mut hits: Vec<law::Hit> = self
            .laws
            .judge(&spot)
            .into_iter()
            .filter(|h| !PROJECT_RULES.contains(&h.rule.as_str()))
            .collect();
        // A zone or protected folder that holds the folder itself.
        let itself = Spot::path(folder, shown, Reach::Path, &mut self.laws.fs);
        for hit in self.laws.judge(&itself) {
            let holds = PROJECT_RULES.contains(&hit.rule.as_str())
                && !["cage.out_of_scope", "gantry.outside_roots"].contains(&hit.rule.as_str());
            if holds && !hits.iter().any(|h| h.rule == hit.rule) {
                hits.push(hit);
            }
        }
        if !tree {
            let kinds: Vec<Pattern> = files.iter().map(|f| Pattern::glob(f)).collect();
            let mut found: Vec<PathBuf> = Vec::new();
            if let Ok(entries) = std::fs::read_dir(folder) {
                for (n, entry) in entries.flatten().enumerate() {
                    if n >= MAX_FOLDER_FILES {
                        // Too many to list: one such file stands for them.
                        found = vec![spot_path(folder, files)];
                        break;
                    }
                    let name = entry.file_name();
                    let name = name.to_string_lossy();
                    let file = entry.file_type().is_ok_and(|t| !t.is_dir());
                    if file && kinds.iter().any(|k| k.matches(&name)) {
                        found.push(entry.path());
                    }
                }
            }
            for file in found {
                let spot = Spot::path(&file, shown, Reach::Path, &mut self.laws.fs);
                for hit in self.laws.judge(&spot) {
                    let project = PROJECT_RULES.contains(&hit.rule.as_str());
                    if project && !hits.iter().any(|h| h.rule == hit.rule) {
                        hits.push(hit);
                    }
                }
            }
        }
        self.note(depth, || {
            format!(
                "path law: the files in {}: {} rule(s)",
                folder.display(),
                hits.len()
            )
        });
        for hit in hits {
            self.find(hit.verdict, &hit.rule, hit.reason, &hit.remediation, part);
        }
    }

    /// The path law's findings for a formatter rewriting files beneath
    /// `folder`.
    fn rewritten_below(
        &mut self,
        folder: &Path,
        files: &[&str],
        tool: &str,
        shown: &str,
        part: &str,
        depth: usize,
    ) {
        let hits = self.laws.rewrites_below(folder, files, tool, shown);
        self.note(depth, || {
            format!(
                "path law: {tool} rewrites {} beneath {}: {}",
                files.join(" "),
                folder.display(),
                if hits.is_empty() {
                    "no rule".to_string()
                } else {
                    hits.iter()
                        .map(|h| format!("{} {}", h.verdict, h.rule))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            )
        });
        for hit in hits {
            self.find(hit.verdict, &hit.rule, hit.reason, &hit.remediation, part);
        }
    }

    /// `ssh-keygen -f FILE`: the key file is written (with `FILE.pub`),
    /// unless the command only reads it (`-l`, `-y`, `-B`, `-F`, `-e`,
    /// `-i`, `-D`, `-Q`, `-k` list, print or convert; `-R` and `-H` still
    /// rewrite it).
    pub(super) fn key_file(
        &mut self,
        verb: &str,
        args: &[Word],
        part: &str,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
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
        if !self.laws.frozen_at_cwd() {
            return;
        }
        let Some(command) = law::frozen_command(verb, args) else {
            return;
        };
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

/// What a glob whose wildcards are all in its last part matches on disk
/// now (`src/*`), at most [`MAX_FOLDER_FILES`]; `None` for any other glob,
/// or a folder with more entries.
fn glob_on_disk(pattern: &Path) -> Option<Vec<PathBuf>> {
    let text = pattern.to_string_lossy();
    let (folder, last) = text.rsplit_once('/')?;
    if folder.contains(['*', '?', '[']) {
        return None;
    }
    let name = Pattern::shell_glob(last);
    let folder = if folder.is_empty() { "/" } else { folder };
    let mut found = Vec::new();
    for (n, entry) in std::fs::read_dir(folder).ok()?.flatten().enumerate() {
        if n >= MAX_FOLDER_FILES {
            return None;
        }
        if name.matches(&entry.file_name().to_string_lossy()) {
            found.push(entry.path());
        }
    }
    Some(found)
}

/// One file a formatter would rewrite in `folder`, named after its first
/// file pattern (`*.py` → `_.py`).
fn spot_path(folder: &Path, files: &[&str]) -> PathBuf {
    let probe = files
        .first()
        .map_or_else(|| "_".to_string(), |f| f.replace(['*', '?'], "_"));
    folder.join(probe)
}

/// Whether option word `word` gives `option`: the same, with `=value`,
/// or, for a one-letter option, inside a cluster (`-aD` gives `-a`).
fn option_given(word: &str, option: &str) -> bool {
    if word == option
        || word
            .strip_prefix(option)
            .is_some_and(|r| r.starts_with('='))
    {
        return true;
    }
    let letter = option.strip_prefix('-').filter(|l| l.len() == 1);
    match (letter, word.strip_prefix('-')) {
        (Some(letter), Some(cluster)) => !cluster.starts_with('-') && cluster.contains(letter),
        _ => false,
    }
}

/// The outermost folder from `start` up to its repository's root (a
/// folder holding `.git`) that holds `manifest` (`Cargo.toml`: `cargo fmt`
/// formats the whole package or workspace); `start` when none does.
fn package_root(start: &Path, manifest: &str) -> PathBuf {
    let mut found = start.to_path_buf();
    for dir in start.ancestors().take(64) {
        if dir.join(manifest).is_file() {
            found = dir.to_path_buf();
        }
        if dir.join(".git").exists() {
            break;
        }
    }
    found
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

/// Entries of a formatter's folder listed, at most (`go fmt`,
/// `terraform fmt` rewrite only the folder's own files).
const MAX_FOLDER_FILES: usize = 1000;

/// The rules a project adds (zones, protected paths, the task's area, edit
/// roots): a formatter meets them by the files it rewrites, not by its
/// folder's name.
const PROJECT_RULES: &[&str] = &[
    "gantry.forbidden_zone",
    "cage.manifest_forbidden_zone",
    "cage.cage_protect",
    "cage.out_of_scope",
    "gantry.outside_roots",
    "gantry.perimeter_protected",
];

/// The options of `ssh-keygen` that take a value.
const KEYGEN_VALUES: &str = "abCDEFfIJjMmNnOPRrSstVwYZz";

/// Copy tools whose operands may be `host:path` on another machine.
const REMOTE_COPIERS: &[&str] = &["scp", "rsync", "kubectl", "rclone", "gsutil"];

/// Whether a command (its verb and subcommands, as the lexicon matched
/// them) reads the network though it is classed inspect (`npm view`,
/// `gh pr view`, `kubectl get`): `rules/law.json` `network_reads`.
fn reads_network(path: &[&str]) -> bool {
    crate::rules::NETWORK_READS.iter().any(|entry| {
        let mut words = entry.split(' ');
        let mut given = path.iter();
        words.all(|w| given.next() == Some(&w))
    })
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
    let hit = laws.trust_hit_at(None, verdict)?;
    Some(Finding {
        verdict: hit.verdict,
        rule: RuleId::named(hit.rule),
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
        |findings: &mut Vec<Finding>, verdict, rule: RuleId, reason: String, remediation: &str| {
            findings.push(Finding {
                verdict,
                rule,
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
                    "cage.secrets.read".into(),
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
                    "edit.unresolved".into(),
                    format!("writes {shown}, a relative path with no working folder to resolve it"),
                    "Give the edit tool an absolute path.",
                );
                return Decision::from_findings(findings, path);
            };
            let spot = Spot::path(&absolute, &shown, Reach::Path, &mut laws.fs);
            let mut hits = laws.judge(&spot);
            // A `..` is read both ways: after the links before it (as the
            // kernel opens it) and by name (as a tool that cleans paths
            // first writes it); a file hard-linked to a protected one is
            // that file.
            let lexical = crate::paths::normalise(&absolute);
            let mut others = laws.hard_link_twins(
                &crate::law::resolve::resolve_links(&absolute),
                location.home.as_deref(),
            );
            if lexical != absolute {
                others.push(lexical);
            }
            for other in others {
                let also = Spot::path(&other, &shown, Reach::Path, &mut laws.fs);
                for hit in laws
                    .judge(&also)
                    .into_iter()
                    .chain(law::home_hits(&also, location.home.as_deref()))
                {
                    if !hits.iter().any(|h| h.rule == hit.rule) {
                        hits.push(hit);
                    }
                }
            }
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
                    RuleId::named(hit.rule.clone()),
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
                physical: None,
                opaque: false,
            };
            for rule in floor::check_write_target(&target, location) {
                let info = rule.info();
                push(
                    &mut findings,
                    Verdict::Blocked,
                    RuleId::fixed(info.id),
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
            "edit.allowed".into(),
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
    let finding = |verdict, rule: RuleId, reason: String, remediation: &str| Finding {
        verdict,
        rule,
        reason,
        remediation: remediation.to_string(),
        part: shown.clone(),
    };
    let mut findings = Vec::new();
    match absolute.map(|p| crate::paths::normalise(&p)) {
        None => findings.push(finding(
            Verdict::Signed,
            "search.unresolved".into(),
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
                    "cage.secrets.read".into(),
                    format!("{why}; they would enter the model's context"),
                    "Search the project's own folders, or ask the person for the one value you need.",
                ));
            }
        }
    }
    if findings.is_empty() {
        findings.push(finding(
            Verdict::Free,
            "search.allowed".into(),
            format!("a search of {shown} reads no credentials"),
            "",
        ));
    }
    let label = shown.clone();
    let decision = Decision::from_findings(findings, &label);
    trusted(decision, laws, &label)
}
