//! Workspace trust of the places a command names besides its own folder:
//! the files and folders it reads (`cat ../denied/x`, `< ../denied/x`),
//! and the folders it runs in through an option (`make -C ../restricted`,
//! `cargo build --manifest-path ../restricted/Cargo.toml`, listed in
//! `rules/law.json` `folder_options`).
//!
//! Takes a command's words and folder; adds trust findings to the run.
//! Reading is inspection: under `restricted` a read stays as it is, under
//! `denied` it is BLOCKED. A folder option counts as running the command
//! there, judged as the command's own folder is (`Run::narrowed_trust`).

use super::Run;
use super::ctx::Ctx;
use crate::shell::Word;
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};

/// The most words of one command whose trust is looked up: a command
/// naming more (a glob expanded by the agent) is judged on these, and the
/// cost stays bounded by the request.
const MAX_NAMED: usize = 64;

impl Run<'_> {
    /// Trust of every path among `words` that leaves the command's folder
    /// (it holds a `/`, or starts with `~`): an operand, or an option's
    /// value after `=`.
    pub(super) fn named_trust(
        &mut self,
        words: &[Word],
        cwd: Option<&Path>,
        part: &str,
        depth: usize,
    ) {
        for word in words.iter().take(MAX_NAMED) {
            let Some(path) = self.named_path(word, cwd) else {
                continue;
            };
            let Some(hit) = self.laws.trust_hit_for(&path, Verdict::Free) else {
                continue;
            };
            let reason = format!("`{}` is read: {}", word.value, hit.reason);
            self.note(depth, || format!("trust: {reason}"));
            self.find(hit.verdict, hit.rule, reason, &hit.remediation, part);
        }
    }

    /// Trust of the paths quoted in code handed to an interpreter
    /// (`open('../denied/x')`): every quoted string that holds a `/`, at
    /// most [`MAX_NAMED`] of them.
    pub(super) fn quoted_path_trust(
        &mut self,
        code: &str,
        cwd: Option<&Path>,
        part: &str,
        depth: usize,
    ) {
        let words: Vec<Word> = quoted_strings(code)
            .filter(|s| s.contains('/') && !s.contains("://"))
            .take(MAX_NAMED)
            .map(Word::literal)
            .collect();
        self.named_trust(&words, cwd, part, depth);
    }

    /// Trust of the folders `verb` runs in through an option, each judged
    /// as if the command ran there.
    pub(super) fn folder_option_trust(
        &mut self,
        args: &[Word],
        classified: &crate::lexicon::Classified,
        ctx: &Ctx,
    ) {
        let (cwd, part, depth) = (ctx.cwd(), ctx.part(), ctx.depth);
        let Some(&verb) = classified.path.first() else {
            return;
        };
        for folder in folders_run_in(verb, args, self.location, cwd) {
            self.narrowed_trust(
                classified.effect,
                &classified.path,
                Some(&folder),
                part,
                depth,
            );
        }
    }

    /// The absolute path a word names, when it leaves the folder.
    fn named_path(&self, word: &Word, cwd: Option<&Path>) -> Option<PathBuf> {
        let value = match word.value.split_once('=') {
            Some((option, value)) if option.starts_with('-') => value,
            // A short option with its value attached: `-f../denied/x`.
            None if word.value.starts_with('-') && !word.value.starts_with("--") => {
                word.value.get(2..).unwrap_or("")
            }
            None if word.value.starts_with('-') => return None,
            _ => word.value.as_str(),
        };
        if !(value.contains('/') || word.tilde) {
            return None;
        }
        let mut named = word.clone();
        named.value = value.to_string();
        self.location.resolve_in(&named, cwd).path
    }
}

/// The texts between matching single, double or back quotes in `code`,
/// on one line each (escapes are not read: a path with an escaped quote
/// is cut short, and still names its folders).
fn quoted_strings(code: &str) -> impl Iterator<Item = &str> {
    code.lines().flat_map(|line| {
        let mut found = Vec::new();
        let mut rest = line;
        while let Some(open) = rest.find(['\'', '"', '`']) {
            let quote = rest.as_bytes()[open];
            let after = &rest[open + 1..];
            match after.find(quote as char) {
                Some(close) => {
                    found.push(&after[..close]);
                    rest = &after[close + 1..];
                }
                None => break,
            }
        }
        found
    })
}

/// The folders `verb` runs in through the options of `rules/law.json`
/// `folder_options`: `-C DIR`, `-CDIR`, `--directory=DIR`, `-chdir=DIR`,
/// and a file option's folder (`--manifest-path DIR/Cargo.toml`).
fn folders_run_in(
    verb: &str,
    args: &[Word],
    location: &crate::paths::Location,
    cwd: Option<&Path>,
) -> Vec<PathBuf> {
    let Some(entry) = crate::rules::FOLDER_OPTIONS.iter().find(|e| e.verb == verb) else {
        return Vec::new();
    };
    let mut folders = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word.value == "--" {
            break;
        }
        let Some((is_file, attached)) = option_value(&word.value, entry) else {
            continue;
        };
        let named = match attached {
            Some(value) => Word {
                value: value.to_string(),
                ..word.clone()
            },
            None => match words.next() {
                Some(next) => next.clone(),
                None => break,
            },
        };
        let Some(path) = location.resolve_in(&named, cwd).path else {
            continue;
        };
        let folder = if is_file {
            path.parent().map(Path::to_path_buf)
        } else {
            Some(path)
        };
        folders.extend(folder);
    }
    folders
}

/// Whether `arg` is one of `entry`'s options (a file option or a folder
/// one), and its value when attached (`-C../x`, `--directory=../x`);
/// `Some((_, None))` when the value is the next word.
fn option_value<'a>(
    arg: &'a str,
    entry: &crate::rules::FolderOption,
) -> Option<(bool, Option<&'a str>)> {
    let options = entry
        .folder
        .iter()
        .map(|o| (false, *o))
        .chain(entry.file.iter().map(|o| (true, *o)));
    for (is_file, option) in options {
        if arg == option {
            return Some((is_file, None));
        }
        let Some(rest) = arg.strip_prefix(option) else {
            continue;
        };
        if let Some(value) = rest.strip_prefix('=') {
            return Some((is_file, Some(value)));
        }
        // A short option takes its value attached: `-C../x`.
        if option.len() == 2 && !rest.is_empty() {
            return Some((is_file, Some(rest)));
        }
    }
    None
}
