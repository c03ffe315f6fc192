//! Formatters, fixers and in-place editors: `prettier --write F`, `black
//! F`, `cargo fmt`, `go fmt`, `perl -pi -e … F` rewrite the files they
//! name (or a whole package or folder) though they are FREE as a class.
//! The path law judges each file they would rewrite.
//!
//! Takes the classified words and the working folder; adds findings
//! through the path-law stage; reads folders on disk (at most
//! [`MAX_FOLDER_FILES`] entries) to see what a folder formatter touches.

use super::Run;
use super::ctx::Ctx;
use crate::law::glob::Pattern;
use crate::law::{self, Reach, Spot};
use crate::rule_id::Rule;
use crate::shell::Word;
use std::path::{Path, PathBuf};

impl Run<'_> {
    /// Formatters and fixers (`prettier --write F`, `black F`, `eslint
    /// --fix F`) rewrite the files they name, though they are FREE as a
    /// class: the path law judges each named path (not what lies beneath a
    /// named folder: a formatter touches only the files it understands).
    pub(super) fn rewrites_in_place(
        &mut self,
        classified: &crate::lexicon::Classified,
        words: &[Word],
        ctx: &Ctx,
    ) {
        let (part, depth, cwd) = (ctx.part(), ctx.depth, ctx.cwd.clone());
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
            .filter(|h| !PROJECT_RULES.contains(&h.rule))
            .collect();
        // A zone or protected folder that holds the folder itself.
        let itself = Spot::path(folder, shown, Reach::Path, &mut self.laws.fs);
        for hit in self.laws.judge(&itself) {
            let holds = PROJECT_RULES.contains(&hit.rule)
                && ![Rule::CageOutOfScope, Rule::GantryOutsideRoots].contains(&hit.rule);
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
                    let project = PROJECT_RULES.contains(&hit.rule);
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
            self.find(hit.verdict, hit.rule, hit.reason, &hit.remediation, part);
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
            self.find(hit.verdict, hit.rule, hit.reason, &hit.remediation, part);
        }
    }

    /// `perl -pi -e … FILE`, `ruby -i -pe … FILE`: the files after the code
    /// are edited in place.
    pub(super) fn in_place_edits(&mut self, interpreter: &str, args: &[Word], ctx: &Ctx) {
        let (part, depth, cwd) = (ctx.part(), ctx.depth, ctx.cwd.clone());
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

/// Entries of a formatter's folder listed, at most (`go fmt`,
/// `terraform fmt` rewrite only the folder's own files).
const MAX_FOLDER_FILES: usize = 1000;

/// The rules a project adds (zones, protected paths, the task's area, edit
/// roots): a formatter meets them by the files it rewrites, not by its
/// folder's name.
const PROJECT_RULES: &[Rule] = &[
    Rule::GantryForbiddenZone,
    Rule::CageManifestForbiddenZone,
    Rule::CageCageProtect,
    Rule::CageOutOfScope,
    Rule::GantryOutsideRoots,
    Rule::GantryPerimeterProtected,
];
