//! Scripts run by path: a script written earlier in the same command
//! line (a heredoc, an `echo`, any write target) is read from what was
//! written; one on disk under the request's folder is read from disk; a
//! venv's activation script and a project's own tool folders are known.
//!
//! Takes the script's word and folder; returns its text or why it is
//! unreadable; remembers what each command writes in `Run::written`.

use super::code::UNREADABLE_REMEDIATION;
use super::ctx::Ctx;
use super::{Run, Site};
use crate::feeds::{self, Producer};
use crate::inline::route::{self, Lane};
use crate::limits;
use crate::rule_id::Rule;
use crate::shell::{Stdin, Word};
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};

impl Run<'_> {
    /// A script run by path, by an interpreter (`python fix.py`, `bash
    /// x.sh`) or on its own (`./fix.py`). Returns true when judged.
    pub(super) fn script_file(
        &mut self,
        who: &str,
        kind: ScriptKind,
        path: &Word,
        ctx: &Ctx,
    ) -> bool {
        let (depth, cwd) = (ctx.depth, ctx.cwd.clone());
        let part = ctx.part();
        if matches!(kind, ScriptKind::Shell)
            && matches!(who, "source" | ".")
            && self.is_venv_activate(path, cwd.as_deref())
        {
            self.note(depth, || {
                format!("{who} {}: a venv's activate script", path.value)
            });
            self.find(
                Verdict::Free,
                Rule::ScriptVenvActivate,
                format!(
                    "{} is a virtual environment's standard activate script",
                    path.value
                ),
                "",
                part,
            );
            return true;
        }
        let text = match self.read_script(path, cwd.as_deref()) {
            Ok(text) => text,
            Err(Unreadable::Replaced(tail)) => {
                self.replaced_script(who, kind, path, tail, ctx);
                return true;
            }
            Err(why) => {
                // A script of unknown kind run by path stays `verb.exec`.
                if matches!(kind, ScriptKind::ByName) && !matches!(why, Unreadable::TooLarge(_)) {
                    return false;
                }
                let why = match why {
                    Unreadable::Dynamic => "its path is only known when the command runs".into(),
                    Unreadable::Outside => "it is outside the working folder".into(),
                    Unreadable::TooLarge(n) => format!(
                        "it is {n} bytes, over the {} byte limit",
                        limits::MAX_SCRIPT_BYTES
                    ),
                    Unreadable::Missing(e) => format!("it cannot be read ({e})"),
                    Unreadable::Replaced(_) => "it is written earlier in this command".into(),
                };
                self.find(
                    Verdict::Signed,
                    Rule::InlineUnreadableScript,
                    format!(
                        "{who} runs {}, which portcullis cannot read: {why}",
                        limits::clip(&path.value, 120)
                    ),
                    UNREADABLE_REMEDIATION,
                    part,
                );
                return true;
            }
        };
        let lane = match kind {
            ScriptKind::Lane(lane) => Some(lane),
            ScriptKind::Shell => None,
            ScriptKind::ByName => {
                match route::lane_of_script(&path.value, text.lines().next().unwrap_or("")) {
                    Some(Ok(lane)) => Some(lane),
                    Some(Err(())) => None,
                    // A project test runner with no `#!`: bash runs a file
                    // it cannot exec as a shell script.
                    None if crate::rules::is_test_script(&path.value)
                        && !text.starts_with("#!")
                        && !text.contains('\0') =>
                    {
                        None
                    }
                    None => return false,
                }
            }
        };
        let origin = format!("in {}", limits::clip(&path.value, 80));
        let script_folder = self
            .location
            .resolve_in(path, cwd.as_deref())
            .path
            .and_then(|p| p.parent().map(Path::to_path_buf));
        match lane {
            Some(lane) => self.lane_in(lane, &text, &origin, ctx, script_folder.as_deref()),
            None => {
                self.note(depth, || {
                    format!("{who} runs the shell script {}", path.value)
                });
                self.script(&text, depth + 1, cwd);
                true
            }
        }
    }

    /// The text of a script: written by a heredoc earlier in this command
    /// line, else read from disk if it lies under the request's folder and
    /// is at most [`limits::MAX_SCRIPT_BYTES`].
    pub(super) fn read_script(
        &mut self,
        path: &Word,
        cwd: Option<&Path>,
    ) -> Result<String, Unreadable> {
        if let Some(text) = printed_by_substitution(path) {
            return Ok(text);
        }
        if path.dynamic {
            return Err(Unreadable::Dynamic);
        }
        let target = self.location.resolve_in(path, cwd);
        let Some(full) = target.path else {
            return Err(Unreadable::Dynamic);
        };
        if self.lanes.overflow {
            return Err(Unreadable::Replaced(None));
        }
        if let Some(written) = self.last_written(&full) {
            return written
                .text
                .clone()
                .ok_or_else(|| Unreadable::Replaced(written.tail.clone()));
        }
        let root = self
            .location
            .cwd
            .as_deref()
            .and_then(|c| self.laws.fs.canonical(c).ok())
            .ok_or(Unreadable::Outside)?;
        let real = self
            .laws
            .fs
            .canonical(&full)
            .map_err(|kind| Unreadable::Missing(kind.to_string()))?;
        if !real.starts_with(&root) {
            return Err(Unreadable::Outside);
        }
        let meta =
            std::fs::metadata(&real).map_err(|e| Unreadable::Missing(e.kind().to_string()))?;
        if !meta.is_file() {
            return Err(Unreadable::Missing("not a file".into()));
        }
        if meta.len() > limits::MAX_SCRIPT_BYTES as u64 {
            return Err(Unreadable::TooLarge(meta.len()));
        }
        // Read at most the limit (plus one byte to notice more): files
        // under /proc report a size of 0 and can be endless.
        let mut bytes = Vec::new();
        std::fs::File::open(&real)
            .and_then(|file| {
                use std::io::Read;
                file.take(limits::MAX_SCRIPT_BYTES as u64 + 1)
                    .read_to_end(&mut bytes)
            })
            .map_err(|e| Unreadable::Missing(e.kind().to_string()))?;
        if bytes.len() > limits::MAX_SCRIPT_BYTES {
            return Err(Unreadable::TooLarge(bytes.len() as u64));
        }
        if self.lanes.read.len() < limits::MAX_COMMANDS {
            self.lanes.read.insert(full);
        }
        String::from_utf8(bytes).map_err(|_| Unreadable::Missing("not UTF-8 text".into()))
    }

    /// Records `cat > fix.py <<'EOF' … EOF`, `tee`, `echo '…' > t.sh` and
    /// `echo '…' | tee t.sh`, so a later `python3 fix.py` in the same
    /// command line reads what was written (`>>`: what was appended).
    pub(super) fn remember_written(&mut self, site: &Site, cwd: Option<&Path>) {
        let command = site.command;
        if command.words.iter().any(|w| w.dynamic) {
            return;
        }
        let words: Vec<&str> = command.words.iter().map(|w| w.value.as_str()).collect();
        let stdin_text = || match &command.stdin {
            Stdin::Heredoc { body, literal } => literal.then(|| body.clone()),
            _ => match feeds::stdin_producer(site.script, command) {
                Producer::Literal(text) => Some(text),
                _ => None,
            },
        };
        let mut targets: Vec<(&Word, bool)> = Vec::new();
        let text = match words.as_slice() {
            ["cat"] | ["cat", "-"] | ["echo", ..] | ["printf", ..] => {
                for r in &command.redirects {
                    if matches!(
                        r.op.as_str(),
                        ">" | ">|" | "1>" | ">>" | "1>>" | "&>" | "&>>"
                    ) {
                        targets.push((&r.target, r.op.contains(">>")));
                    }
                }
                match words[0] {
                    "cat" => stdin_text(),
                    _ => printed(&words),
                }
            }
            ["tee", ..] => {
                let append = words.iter().any(|w| matches!(*w, "-a" | "--append"));
                for w in command.words[1..]
                    .iter()
                    .filter(|w| !w.value.starts_with('-'))
                {
                    targets.push((w, append));
                }
                stdin_text()
            }
            _ => return,
        };
        if targets.is_empty() {
            return;
        }
        let Some(part) = self.hashed_part(&command.text) else {
            return;
        };
        for (target, append) in targets {
            if let Some(path) = self.location.resolve_in(target, cwd).path {
                let (text, tail) = match append {
                    false => (text.clone(), None),
                    true => (None, text.clone()),
                };
                self.push_written(WrittenScript {
                    path,
                    text,
                    tail,
                    part,
                });
            }
        }
    }

    /// A write target judged by the path law (`gcc -o run.sh`, `cp x
    /// run.sh`, `> run.sh`): a script at that path run later in the line
    /// is not the file on disk. Text recorded for it by the same command
    /// ([`Run::remember_written`]) is kept.
    pub(super) fn remember_replaced(&mut self, word: &Word, cwd: Option<&Path>, part: &str) {
        // Past the bound every script already counts as replaced.
        if self.lanes.overflow {
            return;
        }
        let Some(path) = self.location.resolve_in(word, cwd).path else {
            return;
        };
        // `chmod +x run.sh`, `touch run.sh`: the content stays as written.
        if part
            .split_whitespace()
            .next()
            .is_some_and(|verb| matches!(verb, "chmod" | "chown" | "chgrp" | "touch"))
        {
            return;
        }
        let Some(hash) = self.hashed_part(part) else {
            return;
        };
        if self.last_written(&path).is_some_and(|w| w.part == hash) {
            return;
        }
        // Read from disk earlier in this line: in a loop, or run in the
        // background, the new content may be what runs.
        if self.lanes.read.contains(&path) {
            self.find(
                Verdict::Signed,
                Rule::ScriptReplaced,
                format!(
                    "`{}` replaces {}, which this command also runs; in a loop or in the background the new content may be what runs",
                    limits::clip(part, 80),
                    path.display()
                ),
                "Run the script and the command that replaces it as separate commands.",
                part,
            );
        }
        self.push_written(WrittenScript {
            path,
            text: None,
            tail: None,
            part: hash,
        });
    }

    /// The latest record of a file written earlier in this command line.
    fn last_written(&self, path: &Path) -> Option<&WrittenScript> {
        self.lanes
            .latest
            .get(path)
            .and_then(|&i| self.written.get(i))
    }

    /// Whether `path` was written earlier in this command line (or more was
    /// written than is remembered).
    pub(super) fn was_written(&self, path: Option<&PathBuf>) -> bool {
        self.lanes.overflow || path.is_some_and(|p| self.lanes.latest.contains_key(p))
    }

    /// Remembers a written file, within [`MAX_WRITTEN_BYTES`]; past it,
    /// every script counts as replaced.
    /// [`part_hash`] of a command's text, within [`MAX_HASHED_BYTES`] for
    /// the request: a command of thousands of write targets (`touch a a a
    /// …`) hashes its whole text for each. Past the bound, `None`, and
    /// every script counts as replaced from then on (as past
    /// [`MAX_WRITTEN_BYTES`]).
    fn hashed_part(&mut self, part: &str) -> Option<u64> {
        self.lanes.hashed_bytes = self.lanes.hashed_bytes.saturating_add(part.len());
        if self.lanes.overflow || self.lanes.hashed_bytes > MAX_HASHED_BYTES {
            self.lanes.overflow = true;
            return None;
        }
        Some(part_hash(part))
    }

    fn push_written(&mut self, written: WrittenScript) {
        let size = written.path.as_os_str().len()
            + written.text.as_ref().map_or(0, String::len)
            + written.tail.as_ref().map_or(0, String::len);
        self.lanes.written_bytes += size;
        if self.lanes.overflow
            || self.lanes.written_bytes > MAX_WRITTEN_BYTES
            || self.written.len() >= limits::MAX_COMMANDS
        {
            self.lanes.overflow = true;
            return;
        }
        self.lanes
            .latest
            .insert(written.path.clone(), self.written.len());
        self.written.push(written);
    }

    /// A script written or replaced earlier in the line with content not
    /// known: SIGNED, and the text known to be appended is judged too.
    fn replaced_script(
        &mut self,
        who: &str,
        kind: ScriptKind,
        path: &Word,
        tail: Option<String>,
        ctx: &Ctx,
    ) {
        let (part, depth) = (ctx.part(), ctx.depth);
        self.note(depth, || {
            format!("{} was written earlier in this command", path.value)
        });
        self.find(
            Verdict::Signed,
            Rule::ScriptReplaced,
            format!(
                "{who} runs {}, which is written or replaced earlier in this command with content portcullis cannot see",
                limits::clip(&path.value, 120)
            ),
            "Write the script with a quoted heredoc (cat > run.sh <<'EOF' … EOF) so its content can be checked, or run it in a separate command.",
            part,
        );
        let Some(tail) = tail else {
            return;
        };
        let origin = format!("appended to {}", limits::clip(&path.value, 80));
        match kind {
            ScriptKind::Lane(lane) => {
                self.lane(lane, &tail, &origin, ctx);
            }
            ScriptKind::Shell | ScriptKind::ByName => {
                self.script(&tail, depth + 1, ctx.cwd.clone())
            }
        }
    }

    /// Whether `path` is a venv's activate script at one of the standard
    /// paths, relative to the request's folder, not written in this line.
    fn is_venv_activate(&self, path: &Word, cwd: Option<&Path>) -> bool {
        if path.dynamic || path.glob || path.tilde {
            return false;
        }
        let relative = path.value.strip_prefix("./").unwrap_or(&path.value);
        if !VENV_ACTIVATE.contains(&relative) || cwd != self.location.cwd.as_deref() {
            return false;
        }
        let full = self.location.resolve_in(path, cwd).path;
        !self.was_written(full.as_ref())
    }

    /// Whether the program `written` (run by path) is a project's own tool
    /// (`.venv/bin/pytest`, `./node_modules/.bin/jest`): a known verb in a
    /// tool folder of the project, not written in this line.
    pub(super) fn is_project_tool(&self, written: &str, cwd: Option<&Path>) -> bool {
        let relative = written.strip_prefix("./").unwrap_or(written);
        let Some(name) = TOOL_FOLDERS
            .iter()
            .find_map(|folder| relative.strip_prefix(folder))
        else {
            return false;
        };
        if name.is_empty() || name.contains('/') || crate::lexicon::lookup(name).is_none() {
            return false;
        }
        let full = self.location.resolve_in(&Word::literal(written), cwd).path;
        !self.was_written(full.as_ref())
    }

    /// The verb a project runner run by path is read as (`bin/rails test`
    /// is `rails test`, `./gradlew build` is `gradlew build`): a file the
    /// project holds, not written in this line.
    pub(super) fn project_runner(&self, written: &str, cwd: Option<&Path>) -> Option<&'static str> {
        let verb = crate::rules::project_runner(written)?;
        let full = self
            .location
            .resolve_in(&Word::literal(written), cwd)
            .path?;
        (full.is_file() && !self.was_written(Some(&full))).then_some(verb)
    }
}

/// A file written earlier in the same command line: by a heredoc, an
/// `echo`, or any write target the path law judged (`gcc -o run.sh`,
/// `cp x run.sh`, `ln -sf … run.sh`, `curl -o run.sh`).
pub(super) struct WrittenScript {
    pub path: PathBuf,
    /// Its text; `None` when it is not known (appended to, copied, linked,
    /// compiled, downloaded).
    pub text: Option<String>,
    /// Text known to be appended to it (`echo 'x' >> t.sh`).
    pub tail: Option<String>,
    /// The command that wrote it (a hash of its text).
    pub part: u64,
}

/// Most bytes of paths and text remembered of files written in one
/// request (`cd a; rm b` repeated makes ever longer paths).
const MAX_WRITTEN_BYTES: usize = 4 * limits::MAX_COMMAND_BYTES;

/// Most bytes of command text hashed in one request (see
/// [`Run::hashed_part`]): a few milliseconds of hashing.
const MAX_HASHED_BYTES: usize = 4 * limits::MAX_COMMAND_BYTES;

/// A hash of a command's text, to tell the command that wrote a file.
fn part_hash(part: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    part.hash(&mut hasher);
    hasher.finish()
}

/// Venv activation scripts, standard files that only set variables:
/// `source` of them is FREE unread, at exactly these paths.
const VENV_ACTIVATE: &[&str] = &[".venv/bin/activate", "venv/bin/activate"];

/// Folders of a project's own tools: a program there is the tool it names
/// (`.venv/bin/pytest` is pytest).
const TOOL_FOLDERS: &[&str] = &[".venv/bin/", "venv/bin/", "node_modules/.bin/"];

/// How a script run by path is read.
#[derive(Clone, Copy)]
pub(super) enum ScriptKind {
    /// By this lane (`python fix.py`).
    Lane(Lane),
    /// As shell (`bash x.sh`, `source x.sh`).
    Shell,
    /// By its `#!` line, else its extension (`./fix.py`); a script of
    /// unknown kind is left to the caller.
    ByName,
}

/// Why a script's text is not available.
pub(super) enum Unreadable {
    Dynamic,
    Outside,
    TooLarge(u64),
    Missing(String),
    /// Written or replaced earlier in this command line with content that
    /// is not known; the text known to be appended, if any.
    Replaced(Option<String>),
}

/// What `echo`/`printf` words print, when it is plain text (`echo a b`,
/// `echo -n a`, `printf 'a\\n'`); `None` for options, escapes and `%`.
fn printed(words: &[&str]) -> Option<String> {
    match words {
        ["echo", "-n", rest @ ..] if rest.iter().all(|a| !a.starts_with('-')) => {
            Some(rest.join(" "))
        }
        ["echo", rest @ ..] if rest.iter().all(|a| !a.starts_with('-')) => {
            Some(format!("{}\n", rest.join(" ")))
        }
        ["printf", format] if !format.contains('%') && !format.starts_with('-') => {
            let text = format.replace("\\n", "\n").replace("\\t", "\t");
            (!text.contains('\\')).then_some(text)
        }
        ["printf", format, args @ ..] if !format.starts_with('-') => printf_text(format, args),
        _ => None,
    }
}

/// What `printf FORMAT ARGS…` prints when the format's only directives are
/// `%s` and `%%` and its only escapes `\n`, `\t`, `\\` (the format repeats
/// while arguments remain, as bash does); `None` otherwise.
fn printf_text(format: &str, args: &[&str]) -> Option<String> {
    let mut pieces: Vec<String> = vec![String::new()];
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => pieces.last_mut()?.push(match chars.next()? {
                'n' => '\n',
                't' => '\t',
                '\\' => '\\',
                _ => return None,
            }),
            '%' => match chars.next()? {
                '%' => pieces.last_mut()?.push('%'),
                's' => pieces.push(String::new()),
                _ => return None,
            },
            c => pieces.last_mut()?.push(c),
        }
    }
    let slots = pieces.len() - 1;
    let mut out = String::new();
    let mut rest = args;
    loop {
        for (i, piece) in pieces.iter().enumerate() {
            out.push_str(piece);
            if i < slots {
                out.push_str(rest.get(i).copied().unwrap_or(""));
            }
        }
        rest = rest.get(slots..).unwrap_or(&[]);
        if slots == 0 || rest.is_empty() || out.len() > limits::MAX_SCRIPT_BYTES {
            break;
        }
    }
    Some(out)
}

/// What a process substitution that only prints literal text hands over
/// (`bash <(echo 'rm -rf /')`, `. <(printf 'ls\n')`): its text, read as
/// the script. Anything else (options, `%` directives, expansions) is
/// unknown.
fn printed_by_substitution(path: &Word) -> Option<String> {
    let inner = path.value.strip_prefix("<(")?.strip_suffix(')')?;
    let script = crate::shell::parse(inner);
    let [command] = script.commands.as_slice() else {
        return None;
    };
    if !script.problems.is_empty()
        || !command.redirects.is_empty()
        || !command.assignments.is_empty()
        || command.words.iter().any(|w| !w.is_static())
    {
        return None;
    }
    let (verb, args) = command.words.split_first()?;
    match verb.value.as_str() {
        "echo" if args.iter().all(|a| !a.value.starts_with('-')) => Some(
            args.iter()
                .map(|a| a.value.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        ),
        "printf" if args.len() == 1 && !args[0].value.contains(['%', '\\']) => {
            Some(args[0].value.clone())
        }
        "printf" if args.len() == 1 && !args[0].value.contains('%') => {
            Some(args[0].value.replace("\\n", "\n").replace("\\t", "\t"))
        }
        _ => None,
    }
}
