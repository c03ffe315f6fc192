//! Patches as the tools read them: `git apply` and `patch` write the files
//! their diff names, read from unified and context diffs, git's headers
//! (`diff --git`, renames, copies, new empty files, mode changes: a
//! header alone writes), `Index:` lines, and C-quoted names
//! (`"b/.e\156v"` is `b/.env`). `patch -d DIR` works in DIR; `-o FILE`
//! (in any position) writes FILE instead of the named files; `-r FILE`
//! writes rejects there; `-B PREFIX` and `-Y PREFIX` put backups there.
//! Without `-p`, `patch` may strip any number of leading folders, so every
//! suffix of a name is judged.
//!
//! Takes the peeled command; adds write targets.

use super::Run;
use super::ctx::Ctx;
use crate::law::Reach;
use crate::shell::{Stdin, Word};
use std::path::Path;

/// Names read from one diff, at most.
const MAX_NAMES: usize = 1000;
/// Ways to split an unquoted `diff --git` line with spaces, at most.
const MAX_SPLITS: usize = 16;

/// `patch`'s options that take a value (short letter, long name).
const PATCH_VALUES: &[(char, &str)] = &[
    ('p', "--strip"),
    ('i', "--input"),
    ('d', "--directory"),
    ('o', "--output"),
    ('r', "--reject-file"),
    ('B', "--prefix"),
    ('Y', "--basename-prefix"),
    ('z', "--suffix"),
    ('F', "--fuzz"),
    ('D', "--ifdef"),
    ('V', "--version-control"),
    ('g', "--get"),
    ('x', "--debug"),
];
/// `patch`'s long options that take a value and have no short form.
const PATCH_LONG_VALUES: &[&str] = &["--quoting-style", "--reject-format", "--read-only"];

/// What a `patch` or `git apply` command line says.
#[derive(Debug, Default)]
struct PatchLine {
    /// Leading folders stripped (`-p1`); `None`: not given.
    strip: Option<usize>,
    /// Where the diff is read from (`-i F`, git apply's operands).
    inputs: Vec<Word>,
    /// `-d DIR`: the folder it works in.
    directory: Option<Word>,
    /// git apply's `--directory=ROOT`, put before every name.
    root: Option<String>,
    /// `-o FILE`.
    output: Option<Word>,
    /// `-r FILE`, git's `--build-fake-ancestor=FILE`.
    others: Vec<Word>,
    /// `-B PREFIX`.
    backup_prefix: Option<Word>,
    /// `-Y PREFIX`.
    basename_prefix: Option<String>,
    /// Operands (patch: the file to patch, then the diff).
    operands: Vec<Word>,
    /// Writes nothing (`--dry-run`, `git apply --check`).
    looks_only: bool,
}

/// Reads `patch`'s options, as getopt_long does (clusters, attached
/// values, `--opt=V`).
fn read_patch(args: &[Word]) -> PatchLine {
    let mut line = PatchLine::default();
    let mut i = 0;
    let mut only_operands = false;
    while i < args.len() {
        let arg = &args[i];
        let value = arg.value.as_str();
        i += 1;
        if only_operands || value == "-" || !value.starts_with('-') {
            line.operands.push(arg.clone());
            continue;
        }
        if value == "--" {
            only_operands = true;
            continue;
        }
        let take = |attached: &str, i: &mut usize| -> Option<Word> {
            if attached.is_empty() {
                let next = args.get(*i).cloned();
                *i += 1;
                next
            } else {
                let mut word = arg.clone();
                word.value = attached.to_string();
                Some(word)
            }
        };
        if let Some(long) = value.strip_prefix("--") {
            let (name, attached) = long.split_once('=').unwrap_or((long, ""));
            let name = format!("--{name}");
            if name == "--dry-run" {
                line.looks_only = true;
                continue;
            }
            let short = PATCH_VALUES
                .iter()
                .find(|(_, l)| *l == name)
                .map(|(s, _)| *s);
            let takes = short.is_some() || PATCH_LONG_VALUES.contains(&name.as_str());
            if !takes {
                continue;
            }
            let word = if long.contains('=') {
                let mut word = arg.clone();
                word.value = attached.to_string();
                Some(word)
            } else {
                take("", &mut i)
            };
            if let (Some(short), Some(word)) = (short, word) {
                apply_patch_option(&mut line, short, word);
            }
            continue;
        }
        // A cluster of short options; the first that takes a value takes
        // the rest of the word (or the next word).
        let letters = &value[1..];
        for (at, c) in letters.char_indices() {
            if PATCH_VALUES.iter().any(|(s, _)| *s == c) {
                let rest = &letters[at + c.len_utf8()..];
                if let Some(word) = take(rest, &mut i) {
                    apply_patch_option(&mut line, c, word);
                }
                break;
            }
        }
    }
    line
}

/// Records one `patch` option's value.
fn apply_patch_option(line: &mut PatchLine, short: char, word: Word) {
    match short {
        'p' => line.strip = word.value.parse().ok().or(Some(0)),
        'i' => line.inputs.push(word),
        'd' => line.directory = Some(word),
        'o' => line.output = Some(word),
        'r' => line.others.push(word),
        'B' => line.backup_prefix = Some(word),
        'Y' => line.basename_prefix = Some(word.value),
        _ => {}
    }
}

/// Reads `git apply`'s options (the words after `apply`).
fn read_git_apply(args: &[Word]) -> PatchLine {
    let mut line = PatchLine {
        strip: Some(1),
        ..PatchLine::default()
    };
    let mut reports = false;
    let mut applies = false;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let value = arg.value.as_str();
        let attached = |prefix: &str| value.strip_prefix(prefix).map(str::to_string);
        if let Some(n) = value.strip_prefix("-p").filter(|n| !n.is_empty()) {
            line.strip = n.parse().ok().or(Some(0));
        } else if value == "-p" {
            line.strip = iter.next().and_then(|n| n.value.parse().ok()).or(Some(0));
        } else if let Some(root) = attached("--directory=") {
            line.root = Some(root);
        } else if value == "--directory" {
            line.root = iter.next().map(|w| w.value.clone());
        } else if let Some(file) = attached("--build-fake-ancestor=") {
            line.others.push(Word::literal(&file));
        } else if value == "-C" || value == "--exclude" || value == "--include" {
            iter.next();
        } else if matches!(value, "--check" | "--stat" | "--numstat" | "--summary") {
            reports = true;
        } else if value == "--apply" {
            applies = true;
        } else if !value.starts_with('-') || value == "-" {
            line.inputs.push(arg.clone());
        }
    }
    line.looks_only = reports && !applies;
    line
}

/// Decodes a C-quoted name (`"b/.e\156v"` → `b/.env`) at the start of
/// `text`; returns it and the text after the closing quote.
pub fn unquote_c(text: &str) -> (String, &str) {
    let body = text.strip_prefix('"').unwrap_or(text);
    let mut bytes: Vec<u8> = Vec::new();
    let mut chars = body.char_indices();
    let mut end = body.len();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => {
                end = at + 1;
                break;
            }
            '\\' => {
                let Some((_, e)) = chars.next() else { break };
                match e {
                    'a' => bytes.push(7),
                    'b' => bytes.push(8),
                    't' => bytes.push(b'\t'),
                    'n' => bytes.push(b'\n'),
                    'v' => bytes.push(11),
                    'f' => bytes.push(12),
                    'r' => bytes.push(b'\r'),
                    '0'..='7' => {
                        let mut n = e.to_digit(8).unwrap_or(0);
                        for _ in 0..2 {
                            let digit = chars.clone().next().and_then(|(_, d)| d.to_digit(8));
                            let Some(digit) = digit else { break };
                            chars.next();
                            n = n * 8 + digit;
                        }
                        bytes.push((n & 0xff) as u8);
                    }
                    other => {
                        let mut buf = [0u8; 4];
                        bytes.extend_from_slice(other.encode_utf8(&mut buf).as_bytes());
                    }
                }
            }
            other => {
                let mut buf = [0u8; 4];
                bytes.extend_from_slice(other.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    (
        String::from_utf8_lossy(&bytes).into_owned(),
        body.get(end..).unwrap_or(""),
    )
}

/// The names a header line may give (`--- a/x\t2024-…`, `+++ "b/.e\156v"`):
/// GNU patch ends an unquoted name at the first blank (`+++ b/.env  2024`
/// is `.env`), git at a tab or a timestamp; both are kept.
fn header_names(rest: &str) -> Vec<String> {
    if rest.starts_with('"') {
        return vec![unquote_c(rest).0];
    }
    let to_tab = rest.split('\t').next().unwrap_or(rest).trim().to_string();
    let to_blank = rest.split_whitespace().next().unwrap_or("").to_string();
    if to_blank == to_tab {
        vec![to_tab]
    } else {
        vec![to_blank, to_tab]
    }
}

/// The first name of a header line (see [`header_names`]).
fn header_name(rest: &str) -> String {
    header_names(rest).into_iter().next().unwrap_or_default()
}

/// A context diff's hunk line (`*** 1,3 ****`, `--- 4,6 ----`), not a name.
fn is_hunk_range(rest: &str) -> bool {
    let rest = rest.trim_end();
    (rest.ends_with("****") || rest.ends_with("----"))
        && rest
            .split_whitespace()
            .next()
            .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit() || c == ','))
}

/// The two names of `diff --git A B`: quoted, or, unquoted with spaces,
/// every split whose two sides agree past their first folder (`a/x y`
/// `b/x y`); failing that, every right side (a rename), at most
/// [`MAX_SPLITS`].
fn git_header_names(rest: &str) -> Vec<String> {
    if rest.starts_with('"') {
        let (first, after) = unquote_c(rest);
        let after = after.trim_start();
        return vec![first, header_name(after)];
    }
    if let Some((first, second)) = rest.split_once(" \"") {
        return vec![first.to_string(), unquote_c(&format!("\"{second}")).0];
    }
    let tail = |s: &str| s.split_once('/').map(|(_, t)| t.to_string());
    let splits: Vec<(&str, &str)> = rest
        .match_indices(' ')
        .map(|(at, _)| (&rest[..at], &rest[at + 1..]))
        .collect();
    if let Some((a, b)) = splits
        .iter()
        .find(|(a, b)| tail(a).is_some() && tail(a) == tail(b))
    {
        return vec![a.to_string(), b.to_string()];
    }
    splits
        .iter()
        .take(MAX_SPLITS)
        .flat_map(|(a, b)| [a.to_string(), b.to_string()])
        .collect()
}

/// One name as a tool with `strip` writes it: `strip` leading folders
/// taken off (none left: not a name); without `-p`, every suffix.
fn stripped(name: &str, strip: Option<usize>) -> Vec<String> {
    let parts: Vec<&str> = name.split('/').filter(|p| !p.is_empty()).collect();
    let absolute = name.starts_with('/');
    match strip {
        Some(0) if absolute => vec![name.to_string()],
        Some(n) => parts
            .get(n..)
            .filter(|rest| !rest.is_empty())
            .map(|rest| vec![rest.join("/")])
            .unwrap_or_default(),
        None => {
            let mut all: Vec<String> = (0..parts.len()).map(|n| parts[n..].join("/")).collect();
            if absolute {
                all.push(name.to_string());
            }
            all
        }
    }
}

/// The files a diff writes: names of `+++`, `---` and `***` headers, git's
/// `diff --git` line, renames and copies, and `Index:`, with `strip`
/// applied (see [`stripped`]). At most [`MAX_NAMES`].
pub fn diff_targets(text: &str, strip: Option<usize>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut push = |raw: &str, strip: Option<usize>| {
        if raw.is_empty() || raw == "/dev/null" {
            return;
        }
        for name in stripped(raw, strip) {
            if names.len() >= MAX_NAMES {
                return;
            }
            if !name.is_empty() && !names.contains(&name) {
                names.push(name);
            }
        }
    };
    // git writes rename and copy names without the `a/` folder.
    let git_strip = strip.map(|n| n.saturating_sub(1));
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("diff --git ") {
            for name in git_header_names(rest) {
                push(&name, strip);
            }
        } else if let Some(rest) = line
            .strip_prefix("+++ ")
            .or_else(|| line.strip_prefix("--- "))
            .or_else(|| line.strip_prefix("*** "))
        {
            if !is_hunk_range(rest) {
                for name in header_names(rest) {
                    push(&name, strip);
                }
            }
        } else if let Some(rest) = [
            "rename from ",
            "rename to ",
            "rename old ",
            "rename new ",
            "copy to ",
        ]
        .iter()
        .find_map(|p| line.strip_prefix(p))
        {
            for name in header_names(rest) {
                push(&name, git_strip);
            }
        } else if let Some(rest) = line.strip_prefix("Index: ") {
            for name in header_names(rest) {
                push(&name, strip);
            }
        }
    }
    names
}

impl Run<'_> {
    /// `git apply F`, `patch -p1 < F`, `git apply <<'EOF' … EOF`: the
    /// files the diff names are written. The diff is read from the heredoc,
    /// a file written earlier in the line, or the project folder (as script
    /// files are); when it cannot be read, the command stays as the lexicon
    /// judges it (SIGNED), and a `-d DIR` is judged as a whole.
    pub(super) fn patched_files(&mut self, verb: &str, args: &[Word], ctx: &Ctx) {
        let (site, depth, cwd) = (ctx.site, ctx.depth, ctx.cwd.clone());
        let line = if verb == "patch" {
            read_patch(args)
        } else if verb == "git" {
            let globals = crate::git::read(args);
            let Some(at) = globals
                .sub
                .filter(|&i| matches!(args[i].value.as_str(), "apply" | "am"))
            else {
                return;
            };
            read_git_apply(&args[at + 1..])
        } else {
            return;
        };
        if line.looks_only {
            return;
        }
        let part = site.command.text.as_str();
        let git_apply = verb == "git";
        // `patch -d DIR`: everything happens in DIR (but the shell opens
        // its standard input where it stands).
        let shell_cwd = cwd.clone();
        let cwd = match &line.directory {
            Some(dir) => {
                let folder = self.location.resolve_in(dir, cwd.as_deref()).path;
                if folder.is_none() {
                    self.write_target(dir, cwd.clone(), Reach::Tree, part, depth);
                    return;
                }
                folder
            }
            None => cwd,
        };
        for other in &line.others {
            self.write_target(other, cwd.clone(), Reach::Path, part, depth);
        }
        if let Some(prefix) = &line.backup_prefix {
            let folder = super::gitctl::prefix_folder(prefix);
            self.write_target(&folder, cwd.clone(), Reach::Tree, part, depth);
        }
        if !git_apply && let Some(output) = &line.output {
            if output.value != "-" {
                self.write_target(output, cwd.clone(), Reach::Path, part, depth);
            }
            return;
        }
        // `patch FILE < diff`: the file named on the command line is the one
        // written.
        if !git_apply && let Some(file) = line.operands.first() {
            self.write_target(file, cwd.clone(), Reach::Path, part, depth);
            return;
        }
        let texts = self.diff_texts(&line, git_apply, site, cwd.as_deref(), shell_cwd.as_deref());
        let Some(texts) = texts else {
            if let Some(dir) = &line.directory {
                self.write_target(dir, cwd.clone(), Reach::Tree, part, depth);
            }
            return;
        };
        // In a repository git applies names from its root (those outside
        // the working folder are skipped); outside one, from the working
        // folder: both are judged.
        let root = cwd
            .as_deref()
            .filter(|_| git_apply)
            .and_then(crate::law::resolve::find_root)
            .filter(|root| Some(root.as_path()) != cwd.as_deref());
        for text in texts {
            for name in diff_targets(&text, line.strip) {
                let name = match &line.root {
                    Some(root) => format!("{}/{name}", root.trim_end_matches('/')),
                    None => name,
                };
                self.note(depth, || format!("patch writes {name}"));
                self.write_target(&Word::literal(&name), cwd.clone(), Reach::Path, part, depth);
                if let Some(root) = &root {
                    let word = Word::literal(&name);
                    self.write_target(&word, Some(root.clone()), Reach::Path, part, depth);
                }
                if let Some(prefix) = &line.basename_prefix {
                    let (folder, base) = name.rsplit_once('/').unwrap_or((".", &name));
                    let backup = Word::literal(&format!("{folder}/{prefix}{base}"));
                    self.write_target(&backup, cwd.clone(), Reach::Path, part, depth);
                }
            }
        }
    }

    /// Every diff text the command reads, or `None` when one of them cannot
    /// be read before the command runs.
    fn diff_texts(
        &mut self,
        line: &PatchLine,
        git_apply: bool,
        site: &super::Site,
        cwd: Option<&Path>,
        shell_cwd: Option<&Path>,
    ) -> Option<Vec<String>> {
        let mut files: Vec<&Word> = line.inputs.iter().collect();
        if !git_apply && files.is_empty() {
            files.extend(line.operands.get(1));
        }
        let files: Vec<&Word> = files.into_iter().filter(|f| f.value != "-").collect();
        if files.is_empty() {
            return match &site.command.stdin {
                Stdin::Heredoc { body, .. } => Some(vec![body.clone()]),
                Stdin::File(file) => self.read_script(file, shell_cwd).ok().map(|t| vec![t]),
                _ => None,
            };
        }
        let mut texts = Vec::new();
        for file in files {
            texts.push(self.read_script(file, cwd).ok()?);
        }
        Some(texts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_targets_are_found() {
        let diff = "diff --git a/src/a.rs b/src/a.rs\n--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1 +1 @@\n-x\n+y\n--- a/.env\n+++ /dev/null\nrename from x\nrename to .github/workflows/ci.yml\n";
        let names = diff_targets(diff, Some(1));
        for name in ["src/a.rs", ".env", ".github/workflows/ci.yml", "x"] {
            assert!(names.contains(&name.to_string()), "{name}: {names:?}");
        }
        assert_eq!(
            diff_targets("+++ .envrc\t2024-01-01\n", Some(0)),
            vec![".envrc"]
        );
        let spaced = diff_targets("+++ b/.env  2024-01-01 00:00:00\n", Some(1));
        assert!(spaced.contains(&".env".to_string()), "{spaced:?}");
    }

    #[test]
    fn quoted_context_and_header_only_diffs() {
        assert_eq!(unquote_c("\"b/.e\\156v\" x").0, "b/.env");
        assert_eq!(unquote_c("\"a\\tb\\\"c\"").0, "a\tb\"c");
        let quoted =
            "diff --git \"a/.e\\156v\" \"b/.e\\156v\"\n--- \"a/.e\\156v\"\n+++ \"b/.e\\156v\"\n";
        assert_eq!(diff_targets(quoted, Some(1)), vec![".env"]);
        let header_only = "diff --git a/.github/workflows/x.yml b/.github/workflows/x.yml\nnew file mode 100644\nindex 0000000..e69de29\n";
        assert_eq!(
            diff_targets(header_only, Some(1)),
            vec![".github/workflows/x.yml"]
        );
        let spaced = "diff --git a/my file b/my file\nold mode 100644\nnew mode 100755\n";
        assert_eq!(diff_targets(spaced, Some(1)), vec!["my file"]);
        let context = "*** a/.env\t2024\n--- b/.env\t2024\n***************\n*** 1 ****\n! A=1\n--- 1 ----\n! A=2\n";
        assert_eq!(diff_targets(context, Some(1)), vec![".env"]);
        // Without -p, every suffix.
        assert_eq!(
            diff_targets("+++ x/.github/workflows/ci.yml\n", None),
            vec![
                "x/.github/workflows/ci.yml",
                ".github/workflows/ci.yml",
                "workflows/ci.yml",
                "ci.yml"
            ]
        );
    }

    #[test]
    fn patch_options_in_any_position() {
        let words =
            |line: &str| -> Vec<Word> { line.split_whitespace().map(Word::literal).collect() };
        let line = read_patch(&words("x.txt -o .git/hooks/pre-commit -Np1"));
        assert_eq!(
            line.output.map(|w| w.value).as_deref(),
            Some(".git/hooks/pre-commit")
        );
        assert_eq!(line.strip, Some(1));
        let line = read_patch(&words("--directory=.git/hooks -oout -i d.patch"));
        assert_eq!(
            line.directory.map(|w| w.value).as_deref(),
            Some(".git/hooks")
        );
        assert_eq!(line.output.map(|w| w.value).as_deref(), Some("out"));
        assert_eq!(line.inputs.len(), 1);
        assert!(read_patch(&words("--dry-run -p1")).looks_only);
        assert!(read_git_apply(&words("--check x.patch")).looks_only);
        assert!(!read_git_apply(&words("--check --apply x.patch")).looks_only);
    }
}
