//! The engine's side of the inline-code lanes: finds the program an
//! interpreter runs (code in an argument, stdin, a script file written
//! earlier in the same command line or on disk under the request's
//! folder), has the lane read it, and turns what the lane found into
//! findings. Paths the code writes or deletes meet the floor as typed
//! commands do; commands it hands to a shell re-enter the shell lane.

use super::{Run, Site};
use crate::feeds::{self, Producer};
use crate::floor::{self, Invocation};
use crate::inline::route::{self, Lane, Route};
use crate::inline::{self, Analysis, Handoff, Language};
use crate::law::Reach;
use crate::limits;
use crate::paths::Location;
use crate::rule_id::RuleId;
use crate::rules::{CodeEffect, FloorRule};
use crate::shell::{Stdin, Word};
use crate::verdict::{Effect, Verdict};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// What to do about code that does not parse.
const UNPARSABLE_REMEDIATION: &str = "Fix the code's syntax; portcullis judges code by its syntax tree and does not let code it cannot read run unseen.";

/// What to do about a script portcullis cannot read.
const UNREADABLE_REMEDIATION: &str = "Show the script's content (write it in this command with a quoted heredoc, or keep it under the working folder and under 256 KiB) so it can be checked.";

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

/// What the code lanes have read in this request: recipe files (bounded
/// by `recipes::MAX_FILES`), recipe text handed to the shell lane
/// (bounded by [`MAX_RECIPE_BYTES`]), and the scripts read from disk.
#[derive(Default)]
pub(super) struct LaneState {
    files: usize,
    bytes: usize,
    /// Scripts and recipe files read from disk, so a later write to one
    /// (in a loop, or in the background) is seen.
    read: HashSet<PathBuf>,
    /// The latest entry of `Run::written` for each path.
    latest: HashMap<PathBuf, usize>,
    /// Bytes of paths and text kept in `Run::written`.
    written_bytes: usize,
    /// More was written than is kept: every script is then taken as
    /// replaced (SIGNED), never read from disk.
    overflow: bool,
}

/// Most bytes of paths and text remembered of files written in one
/// request (`cd a; rm b` repeated makes ever longer paths).
const MAX_WRITTEN_BYTES: usize = 4 * limits::MAX_COMMAND_BYTES;

/// A hash of a command's text, to tell the command that wrote a file.
fn part_hash(part: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    part.hash(&mut hasher);
    hasher.finish()
}

/// Most recipe text (Makefile recipes, package.json scripts) judged in
/// one request, in bytes: as much as one command line may hold.
const MAX_RECIPE_BYTES: usize = limits::MAX_COMMAND_BYTES;

/// Venv activation scripts, standard files that only set variables:
/// `source` of them is FREE unread, at exactly these paths.
const VENV_ACTIVATE: &[&str] = &[".venv/bin/activate", "venv/bin/activate"];

/// Folders of a project's own tools: a program there is the tool it names
/// (`.venv/bin/pytest` is pytest).
const TOOL_FOLDERS: &[&str] = &[".venv/bin/", "venv/bin/", "node_modules/.bin/"];

/// What to do about recipes portcullis cannot follow.
const RECIPE_REMEDIATION: &str = "Run the recipe's commands directly, or keep the recipe file plain (literal commands, no variables only known when it runs) so it can be checked.";

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

impl Run<'_> {
    /// An interpreter (`python3`, `node`, `perl` …) as the lexicon names
    /// it, with its arguments. Returns true when the lanes judged the
    /// program, so the lexicon's class for the interpreter does not apply.
    pub(super) fn code_route(
        &mut self,
        interpreter: &str,
        args: &[Word],
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) -> bool {
        let part = site.command.text.as_str();
        let (route, preloads) = route::route_with_preloads(interpreter, args);
        if !preloads.is_empty() {
            self.judge_preloads(
                interpreter,
                &route,
                &preloads,
                args,
                site,
                depth,
                cwd.clone(),
            );
        }
        match route {
            Route::Lexicon => false,
            Route::Inline { lane, code: inline } => {
                let text = inline.text();
                let code = inline.word;
                let origin = format!("given to {interpreter} on the command line");
                if code.dynamic {
                    match feeds::substitution_producer(code) {
                        Producer::Network(_) if code.substitution => {
                            self.floor(FloorRule::PipeNetworkShell, part, depth);
                        }
                        Producer::Opaque(_) if code.substitution => {
                            self.floor(FloorRule::PipeOpaqueShell, part, depth);
                        }
                        Producer::Literal(printed) => {
                            return self.lane(lane, &printed, &origin, site, depth, cwd);
                        }
                        _ => {}
                    }
                    self.find(
                        Verdict::Signed,
                        "parse.dynamic-script",
                        format!(
                            "{interpreter} runs code that is only known when the command runs: `{}`",
                            limits::clip(&code.source, 80)
                        ),
                        "Write the code out literally so it can be checked.",
                        part,
                    );
                    // What can be read of it is still judged.
                    if !code.substitution {
                        self.lane(lane, text, &origin, site, depth, cwd);
                    }
                    return !matches!(lane, Lane::Scan(_));
                }
                self.lane(lane, text, &origin, site, depth, cwd)
            }
            Route::Stdin { lane } => self.code_from_stdin(interpreter, lane, site, depth, cwd),
            Route::Module { lane, name } => {
                self.project_module(interpreter, lane, name, site, depth, cwd)
            }
            Route::File { lane, path } => {
                self.script_file(interpreter, ScriptKind::Lane(lane), path, site, depth, cwd)
            }
        }
    }

    /// The program text of awk, sed and vi-like editors (`verb`): the shell
    /// lines it runs go to the shell lane, the files it writes to the path
    /// law, and its program files (`-f prog.awk`, `vim -S x.vim`) are read
    /// as scripts are (written earlier in the line: their new content, or
    /// SIGNED `script.replaced` when not known; else from disk). A file
    /// that cannot be read keeps the lexicon's class.
    pub(super) fn program_parts(
        &mut self,
        verb: &str,
        args: &[Word],
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        let Some(dialect) = crate::programs::dialect(verb) else {
            return;
        };
        let parts = crate::programs::parts(dialect, args);
        self.judge_parts(verb, &parts, site, depth, cwd.clone());
        for &(at, start) in &parts.files {
            let Some(word) = args.get(at) else {
                continue;
            };
            let file = if start == 0 {
                word.clone()
            } else {
                let mut file = Word::literal(word.value.get(start..).unwrap_or(""));
                file.dynamic = word.dynamic;
                file.glob = word.glob;
                file
            };
            if matches!(file.value.as_str(), "-" | "/dev/stdin") {
                // The program comes from stdin: literal text fed to it
                // (`echo '…' | awk -f -`) is read.
                let text = match &site.command.stdin {
                    Stdin::Heredoc {
                        body,
                        literal: true,
                    } => Some(body.clone()),
                    _ => match feeds::stdin_producer(site.script, site.command) {
                        Producer::Literal(text) => Some(text),
                        _ => None,
                    },
                };
                if let Some(text) = text {
                    let parts = crate::programs::text_parts(dialect, &text);
                    self.judge_parts(verb, &parts, site, depth, cwd.clone());
                }
                continue;
            }
            match self.read_script(&file, cwd.as_deref()) {
                Ok(text) => {
                    self.note(depth, || {
                        format!("{verb} reads its program from {}", file.value)
                    });
                    let parts = crate::programs::text_parts(dialect, &text);
                    self.judge_parts(verb, &parts, site, depth, cwd.clone());
                }
                Err(Unreadable::Replaced(tail)) => {
                    self.replaced_program(verb, &file, site);
                    if let Some(tail) = tail {
                        let parts = crate::programs::text_parts(dialect, &tail);
                        self.judge_parts(verb, &parts, site, depth, cwd.clone());
                    }
                }
                Err(_) => {}
            }
        }
    }

    /// SIGNED `script.replaced`: a program file written earlier in the line
    /// with content not known.
    fn replaced_program(&mut self, verb: &str, file: &Word, site: &Site) {
        self.find(
            Verdict::Signed,
            "script.replaced",
            format!(
                "{verb} reads its program from {}, which is written or replaced earlier in this command with content portcullis cannot see",
                limits::clip(&file.value, 120)
            ),
            "Write the program file with a quoted heredoc (cat > x <<'EOF' … EOF) so its content can be checked, or run it in a separate command.",
            site.command.text.as_str(),
        );
    }

    /// Shell lines of a program to the shell lane, its written files to
    /// the path law.
    fn judge_parts(
        &mut self,
        verb: &str,
        parts: &crate::programs::Parts,
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        let part = site.command.text.as_str();
        for line in &parts.lines {
            self.note(depth + 1, || {
                format!("{verb} hands a shell: {}", limits::clip(line, 120))
            });
            self.script(line, depth + 1, cwd.clone());
        }
        for file in &parts.writes {
            self.write_target(&Word::literal(file), cwd.clone(), Reach::Path, part, depth);
        }
    }

    /// What an interpreter loads before its program (`ruby -r x`, `perl
    /// -MFoo`, `node -r ./setup.js`, `lua -l m`): a file is read as a
    /// script of the same lane; a standard module known to run nothing
    /// when loaded passes (unless a `-I` folder may shadow it); any other
    /// module is SIGNED `inline.preload`.
    #[allow(clippy::too_many_arguments)]
    fn judge_preloads(
        &mut self,
        interpreter: &str,
        route: &Route,
        preloads: &[route::Preload],
        args: &[Word],
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        let part = site.command.text.as_str();
        let lane = match route {
            Route::Inline { lane, .. }
            | Route::Stdin { lane }
            | Route::File { lane, .. }
            | Route::Module { lane, .. } => *lane,
            Route::Lexicon => match route::route(interpreter, &[]) {
                Route::Stdin { lane } => lane,
                _ => Lane::Code(Language::JavaScript),
            },
        };
        let language = match lane {
            Lane::Scan(language) => language,
            Lane::Code(_) => "javascript",
        };
        let shadowed = args.iter().any(|w| w.value.starts_with("-I"));
        for preload in preloads {
            let module = preload.module();
            if !preload.word.dynamic
                && !shadowed
                && !preload.is_path()
                && route::is_known_preload(language, module)
            {
                self.note(depth, || {
                    format!("{interpreter} loads the standard module {module}")
                });
                continue;
            }
            if !preload.word.dynamic && preload.is_path() {
                let extension = match language {
                    "ruby" => ".rb",
                    "perl" => ".pm",
                    "lua" => ".lua",
                    _ => ".js",
                };
                let file = Word::literal(preload.name);
                let exists = self
                    .location
                    .resolve_in(&file, cwd.as_deref())
                    .path
                    .is_some_and(|p| p.is_file() || self.lanes.latest.contains_key(&p));
                let file = if exists
                    || preload
                        .name
                        .rsplit('/')
                        .next()
                        .is_some_and(|n| n.contains('.'))
                {
                    file
                } else {
                    Word::literal(&format!("{}{extension}", preload.name))
                };
                self.note(depth, || {
                    format!("{interpreter} first loads the file {}", file.value)
                });
                self.script_file(
                    interpreter,
                    ScriptKind::Lane(lane),
                    &file,
                    site,
                    depth,
                    cwd.clone(),
                );
                continue;
            }
            self.find(
                Verdict::Signed,
                "inline.preload",
                format!(
                    "{interpreter} loads {} before its program: code portcullis does not read{}",
                    limits::clip(preload.name, 80),
                    if shadowed { " (a -I folder may hold a module of that name)" } else { "" }
                ),
                "Run the program without preloading modules (-r, -M, -l, --require, --import), or load only standard modules.",
                part,
            );
        }
    }

    /// `python -m NAME`: a module of the project (`NAME.py` or a folder
    /// `NAME/` in the working folder, which Python finds before any
    /// installed module) is its code: a file is read as a script, a package
    /// (code over many files) is SIGNED. Any other module is left to the
    /// lexicon (`-m pytest`, `-m json.tool`). Returns true when judged.
    fn project_module(
        &mut self,
        interpreter: &str,
        lane: Lane,
        name: &str,
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) -> bool {
        let top = name.split('.').next().unwrap_or(name);
        let file = Word::literal(&format!("{top}.py"));
        let Some(file_path) = self.location.resolve_in(&file, cwd.as_deref()).path else {
            return false;
        };
        let folder = file_path.with_extension("");
        if name == top && file_path.is_file() {
            return self.script_file(interpreter, ScriptKind::Lane(lane), &file, site, depth, cwd);
        }
        if !(file_path.exists() || folder.is_dir()) {
            return false;
        }
        self.find(
            Verdict::Signed,
            "inline.unreadable-script",
            format!(
                "{interpreter} -m {} runs the project's own module {top}, which portcullis does not read",
                limits::clip(name, 80)
            ),
            UNREADABLE_REMEDIATION,
            site.command.text.as_str(),
        );
        true
    }

    /// An interpreter reading its program from stdin.
    fn code_from_stdin(
        &mut self,
        interpreter: &str,
        lane: Lane,
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) -> bool {
        let part = site.command.text.as_str();
        let origin = format!("read by {interpreter} from stdin");
        match &site.command.stdin {
            Stdin::Inherited => return false,
            Stdin::File(file) => {
                return self.script_file(
                    interpreter,
                    ScriptKind::Lane(lane),
                    file,
                    site,
                    depth,
                    cwd,
                );
            }
            // An unquoted heredoc: bash expands `$x` and `$(…)` in it first.
            // The code is still read, and the expansion makes it SIGNED.
            Stdin::Heredoc {
                body,
                literal: false,
            } => {
                self.find(
                    Verdict::Signed,
                    "parse.dynamic-script",
                    format!(
                        "the heredoc {interpreter} reads expands shell variables or commands, so its code is only known when the command runs"
                    ),
                    "Quote the heredoc's delimiter (<<'EOF') so the code is exactly what is written.",
                    part,
                );
                return self.lane(lane, body, &origin, site, depth, cwd);
            }
            _ => {}
        }
        match feeds::stdin_producer(site.script, site.command) {
            Producer::Literal(text) => self.lane(lane, &text, &origin, site, depth, cwd),
            Producer::Network(what) => {
                self.note(depth, || {
                    format!("{interpreter} reads its program from the network ({what})")
                });
                self.floor(FloorRule::PipeNetworkShell, part, depth);
                true
            }
            Producer::Opaque(what) => {
                self.note(depth, || {
                    format!("{interpreter} reads a program produced by {what}")
                });
                self.floor(FloorRule::PipeOpaqueShell, part, depth);
                true
            }
            Producer::File | Producer::Dynamic => {
                self.find(
                    Verdict::Signed,
                    "inline.unreadable-script",
                    format!("{interpreter} reads a program from stdin that portcullis cannot see"),
                    UNREADABLE_REMEDIATION,
                    part,
                );
                true
            }
        }
    }

    /// A script run by path, by an interpreter (`python fix.py`, `bash
    /// x.sh`) or on its own (`./fix.py`). Returns true when judged.
    pub(super) fn script_file(
        &mut self,
        who: &str,
        kind: ScriptKind,
        path: &Word,
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) -> bool {
        let part = site.command.text.as_str();
        if matches!(kind, ScriptKind::Shell)
            && matches!(who, "source" | ".")
            && self.is_venv_activate(path, cwd.as_deref())
        {
            self.note(depth, || {
                format!("{who} {}: a venv's activate script", path.value)
            });
            self.find(
                Verdict::Free,
                "script.venv-activate",
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
                self.replaced_script(who, kind, path, tail, site, depth, cwd);
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
                    "inline.unreadable-script",
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
            Some(lane) => self.lane_in(
                lane,
                &text,
                &origin,
                site,
                depth,
                cwd,
                script_folder.as_deref(),
            ),
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
                    part: part_hash(&command.text),
                });
            }
        }
    }

    /// A write target judged by the path law (`gcc -o run.sh`, `cp x
    /// run.sh`, `> run.sh`): a script at that path run later in the line
    /// is not the file on disk. Text recorded for it by the same command
    /// ([`Run::remember_written`]) is kept.
    pub(super) fn remember_replaced(&mut self, word: &Word, cwd: Option<&Path>, part: &str) {
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
        let hash = part_hash(part);
        if self.last_written(&path).is_some_and(|w| w.part == hash) {
            return;
        }
        // Read from disk earlier in this line: in a loop, or run in the
        // background, the new content may be what runs.
        if self.lanes.read.contains(&path) {
            self.find(
                Verdict::Signed,
                "script.replaced",
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
    fn was_written(&self, path: Option<&PathBuf>) -> bool {
        self.lanes.overflow || path.is_some_and(|p| self.lanes.latest.contains_key(p))
    }

    /// Remembers a written file, within [`MAX_WRITTEN_BYTES`]; past it,
    /// every script counts as replaced.
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
    #[allow(clippy::too_many_arguments)]
    fn replaced_script(
        &mut self,
        who: &str,
        kind: ScriptKind,
        path: &Word,
        tail: Option<String>,
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        let part = site.command.text.as_str();
        self.note(depth, || {
            format!("{} was written earlier in this command", path.value)
        });
        self.find(
            Verdict::Signed,
            "script.replaced",
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
                self.lane(lane, &tail, &origin, site, depth, cwd);
            }
            ScriptKind::Shell | ScriptKind::ByName => self.script(&tail, depth + 1, cwd),
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

    /// Has a lane read `text` (code given on the command line or stdin,
    /// whose module folder is the working folder) and judges what it
    /// found. Returns true when the lane's verdict replaces the lexicon's
    /// (always, but for the token-scanned languages, which stay exec).
    fn lane(
        &mut self,
        lane: Lane,
        text: &str,
        origin: &str,
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) -> bool {
        let modules = cwd.clone();
        self.lane_in(lane, text, origin, site, depth, cwd, modules.as_deref())
    }

    /// [`Run::lane`] for code whose module folder (first on Python's
    /// module path) is `modules`: a script's own folder.
    #[allow(clippy::too_many_arguments)]
    fn lane_in(
        &mut self,
        lane: Lane,
        text: &str,
        origin: &str,
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
        modules: Option<&Path>,
    ) -> bool {
        let part = site.command.text.as_str();
        if depth > limits::MAX_PEEL_DEPTH {
            self.find(
                Verdict::Blocked,
                "parse.too-deep",
                format!("code nested more than {} deep", limits::MAX_PEEL_DEPTH),
                "Run the inner code directly instead of nesting interpreters.",
                part,
            );
            return true;
        }
        if text.len() > limits::MAX_SCRIPT_BYTES {
            self.find(
                Verdict::Signed,
                "inline.unreadable-script",
                format!(
                    "the code {origin} is {} bytes, over the {} byte limit",
                    text.len(),
                    limits::MAX_SCRIPT_BYTES
                ),
                UNREADABLE_REMEDIATION,
                part,
            );
            return true;
        }
        if let Some(secret) = secret_literal(text) {
            self.note(depth, || format!("secrets: the code names {secret}"));
            self.find(
                Verdict::Signed,
                "cage.secrets.read",
                format!("the code {origin} names {secret}, which holds secrets; reading it would put them into the model's context"),
                "Ask the person for the one value you need, or read a template such as .env.example.",
                part,
            );
        }
        match lane {
            Lane::Code(language) => {
                self.note(depth, || {
                    format!(
                        "{} lane: code {origin} ({} lines)",
                        inline::rule_name(language),
                        text.lines().count()
                    )
                });
                let analysis = inline::analyse(language, text, 0);
                self.quoted_path_trust(text, cwd.as_deref(), part, depth);
                if language == Language::Python {
                    self.python_local_modules(text, modules, part, depth);
                }
                self.judge_code(language, &analysis, origin, site, depth, cwd);
                true
            }
            Lane::Scan(language) => {
                self.note(depth, || format!("{language} token scan: code {origin}"));
                self.quoted_path_trust(text, cwd.as_deref(), part, depth);
                let found = inline::scan::scan(language, text);
                let analysis = Analysis {
                    found,
                    unparsable: None,
                };
                self.judge_found(language, &analysis, origin, site, depth, cwd);
                false
            }
        }
    }

    fn judge_code(
        &mut self,
        language: Language,
        analysis: &Analysis,
        origin: &str,
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        let part = site.command.text.as_str();
        let name = match language {
            Language::Python => "Python",
            Language::JavaScript => "JavaScript",
        };
        if let Some(error) = &analysis.unparsable {
            self.find(
                Verdict::Signed,
                "inline.unparsable",
                format!("the {name} code {origin} does not parse ({error})"),
                UNPARSABLE_REMEDIATION,
                part,
            );
        } else if analysis.found.is_empty() {
            self.find(
                Verdict::Free,
                RuleId::inline(inline::rule_name(language), "pure"),
                format!("the {name} code {origin} only computes, reads and prints"),
                "",
                part,
            );
        }
        self.judge_found(
            inline::rule_name(language),
            analysis,
            origin,
            site,
            depth,
            cwd,
        );
    }

    /// Findings for each effect; paths meet the floor, handed-over commands
    /// the shell lane.
    fn judge_found(
        &mut self,
        language: &str,
        analysis: &Analysis,
        origin: &str,
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        let part = site.command.text.as_str();
        for found in &analysis.found {
            let (does, remediation) = found.effect.text();
            self.note(depth + 1, || {
                format!(
                    "line {}: {} ({})",
                    found.line,
                    found.call,
                    found.effect.as_str()
                )
            });
            self.find(
                Verdict::Signed,
                RuleId::inline(language, found.effect.as_str()),
                format!(
                    "`{}` (line {} of the code {origin}) {does}",
                    found.call, found.line
                ),
                remediation,
                part,
            );
            self.code_paths(found, part, depth, cwd.clone());
            match &found.handoff {
                Some(Handoff::Line(line)) => {
                    self.note(depth + 1, || {
                        format!("hands a shell: {}", limits::clip(line, 120))
                    });
                    self.script(line, depth + 1, cwd.clone());
                }
                Some(Handoff::Argv(words)) if !words.is_empty() => {
                    let mut inner_cwd = cwd.clone();
                    if words[0].dynamic {
                        self.dynamic_exec(&found.call, part);
                    } else {
                        self.words(
                            std::borrow::Cow::Borrowed(words),
                            site,
                            depth + 1,
                            &mut inner_cwd,
                        );
                    }
                }
                Some(Handoff::Argv(_)) | Some(Handoff::Unknown(_)) => {
                    self.dynamic_exec(&found.call, part);
                }
                None => {}
            }
        }
    }

    fn dynamic_exec(&mut self, call: &str, part: &str) {
        self.find(
            Verdict::Signed,
            "inline.dynamic-exec",
            format!(
                "`{call}` runs a command built when the code runs, which nobody can read first"
            ),
            "Write the command out literally (an argv list of plain strings) so it can be checked.",
            part,
        );
    }

    /// The paths an effect touches, judged as the shell lane judges them:
    /// by the floor rule of the equivalent command (`shutil.rmtree(p)` is
    /// `rm -rf p`) and the write-target rules.
    fn code_paths(
        &mut self,
        found: &inline::Found,
        part: &str,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        if found.paths.is_empty() {
            return;
        }
        let location = Location {
            cwd: cwd.clone(),
            home: self.location.home.clone(),
        };
        if !found.equivalent.is_empty() {
            let mut parts = found.equivalent.split(' ');
            let verb = parts.next().unwrap_or("");
            let mut args: Vec<Word> = parts.map(Word::literal).collect();
            if let Some(mode) = &found.mode {
                args.push(Word::literal(mode));
            }
            args.extend(found.paths.iter().cloned());
            let invocation = Invocation {
                verb,
                args: &args,
                location: &location,
                links: &self.links,
                site: None,
            };
            for rule in floor::check_command(&invocation) {
                self.floor(rule, part, depth);
            }
        }
        if matches!(found.effect, CodeEffect::Write | CodeEffect::Delete) {
            // `shutil.rmtree` reaches a tree, `os.remove` one path: the
            // equivalent command says which.
            let mut equivalent = found.equivalent.split(' ');
            let verb = equivalent.next().unwrap_or("");
            let flags: Vec<Word> = equivalent.map(Word::literal).collect();
            let reach = crate::law::reach_of(verb, &flags).unwrap_or(Reach::Path);
            for path in &found.paths {
                self.write_target(path, cwd.clone(), reach, part, depth);
            }
        }
    }
}

/// Where a runner reads a recipe file, and why not.
enum RecipeFile {
    /// Its text and name.
    Read(String, String),
    /// None of the names is there (or it cannot be read): the plain
    /// invocation keeps the lexicon's verdict, the stated boundary.
    Absent(String),
    /// It cannot be judged: SIGNED with this reason.
    Unjudged(String),
}

impl Run<'_> {
    /// `make`, `just`, `npm`/`yarn`/`pnpm` run recipes from the project's
    /// files: those are read and each line judged through the shell lane.
    /// Returns true when the recipes were read whole and their verdict
    /// replaces the lexicon's (`just`, whose recipes are otherwise unseen).
    pub(super) fn project_recipes(
        &mut self,
        tool: &str,
        args: &[Word],
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) -> bool {
        match tool {
            "make" | "gmake" => {
                self.make_recipes(args, site, depth, cwd);
                false
            }
            "just" => self.just_recipes(args, site, depth, cwd),
            "npm" | "yarn" | "pnpm" | "bun" => {
                self.package_scripts(tool, args, site, depth, cwd);
                false
            }
            _ => false,
        }
    }

    /// One recipe file, relative to `dir`: the first of `names` that is
    /// there, read as scripts are (under the request's folder, bounded).
    fn recipe_file(&mut self, dir: &Path, names: &[&str]) -> RecipeFile {
        for name in names {
            let path = Word::literal(name);
            // Not there (nor written in this line): make, just and npm find
            // nothing either.
            let full = self.location.resolve_in(&path, Some(dir)).path;
            let written = full.as_ref().is_some_and(|f| self.was_written(Some(f)));
            // Named outside the request's folder (`make -f /tmp/x.mk`,
            // `make -C ..`): not the project's recipes, present or not.
            if let (Some(root), Some(f)) = (self.location.cwd.as_deref(), full.as_ref())
                && !f.starts_with(root)
            {
                return RecipeFile::Unjudged(format!("{name} is outside the working folder"));
            }
            if !written && full.as_ref().is_some_and(|f| !f.exists()) {
                continue;
            }
            match self.read_script(&path, Some(dir)) {
                Ok(text) => {
                    self.lanes.files += 1;
                    if self.lanes.files > crate::recipes::MAX_FILES {
                        return RecipeFile::Unjudged(format!(
                            "more than {} recipe files in one command",
                            crate::recipes::MAX_FILES
                        ));
                    }
                    return RecipeFile::Read(text, name.to_string());
                }
                Err(Unreadable::Missing(_)) => continue,
                Err(Unreadable::TooLarge(n)) => {
                    return RecipeFile::Absent(format!(
                        "{name} is {n} bytes, over the {} byte limit",
                        limits::MAX_SCRIPT_BYTES
                    ));
                }
                Err(Unreadable::Outside) => {
                    return RecipeFile::Unjudged(format!("{name} is outside the working folder"));
                }
                Err(Unreadable::Dynamic) => {
                    return RecipeFile::Unjudged(format!(
                        "{name} is only known when the command runs"
                    ));
                }
                Err(Unreadable::Replaced(_)) => {
                    return RecipeFile::Unjudged(format!(
                        "{name} is written earlier in this command with content portcullis cannot see"
                    ));
                }
            }
        }
        RecipeFile::Absent(format!("no {} here", names.join(" or ")))
    }

    /// SIGNED `rule`: the runner's recipes cannot be judged (`why`).
    fn recipe_finding(
        &mut self,
        rule: &'static str,
        tool: &str,
        why: &str,
        part: &str,
        depth: usize,
    ) {
        self.note(depth, || format!("{tool}: {why}"));
        self.find(
            Verdict::Signed,
            rule,
            format!("{tool} runs recipes portcullis cannot judge: {why}"),
            RECIPE_REMEDIATION,
            part,
        );
    }

    /// Judges the lines a runner runs, in `dir`. Returns true when every
    /// line was judged and nothing was left unknown.
    fn judge_plan(
        &mut self,
        tool: &str,
        plan: &crate::recipes::Plan,
        part: &str,
        depth: usize,
        dir: &Path,
    ) -> bool {
        let mut whole = plan.unknown.is_empty();
        if let Some(why) = plan.unknown.first() {
            let why = why.clone();
            self.recipe_finding("recipe.unresolved", tool, &why, part, depth);
        }
        for line in &plan.lines {
            self.lanes.bytes += line.text.len();
            if self.lanes.bytes > MAX_RECIPE_BYTES {
                let why = format!("more than {MAX_RECIPE_BYTES} bytes of recipes in one command");
                self.recipe_finding("recipe.too-many", tool, &why, part, depth);
                return false;
            }
            self.note(depth, || {
                format!("{tool}: {}: {}", line.origin, limits::clip(&line.text, 120))
            });
            if line.dynamic {
                whole = false;
                self.find(
                    Verdict::Signed,
                    "recipe.dynamic",
                    format!(
                        "{tool} runs `{}` ({}), part of which is only known when it runs",
                        limits::clip(&line.text, 80),
                        line.origin
                    ),
                    RECIPE_REMEDIATION,
                    part,
                );
            }
            self.script(&line.text, depth + 1, Some(dir.to_path_buf()));
        }
        whole
    }

    /// `make`: the Makefile it reads (after `-C`, or `-f`), the recipes of
    /// the goals and their prerequisites.
    fn make_recipes(&mut self, args: &[Word], site: &Site, depth: usize, cwd: Option<PathBuf>) {
        let part = site.command.text.as_str();
        if args
            .iter()
            .any(|a| a.dynamic && !(a.value.starts_with("-j") || a.value.starts_with("-l")))
        {
            let why = "its arguments are only known when it runs".to_string();
            self.recipe_finding("recipe.dynamic", "make", &why, part, depth);
            return;
        }
        let values: Vec<String> = args.iter().map(|a| a.value.clone()).collect();
        let parsed = crate::recipes::make_args(&values);
        let Some(mut dir) = cwd else {
            return;
        };
        for d in &parsed.dirs {
            match self.location.resolve_in(&Word::literal(d), Some(&dir)).path {
                Some(next) => dir = next,
                None => return,
            }
        }
        if parsed.include_dirs {
            let why = "-I adds folders its includes are looked for in".to_string();
            self.recipe_finding("recipe.source", "make", &why, part, depth);
        }
        let mut text = String::new();
        let mut names: Vec<String> = Vec::new();
        if parsed.files.is_empty() {
            match self.recipe_file(&dir, &["GNUmakefile", "makefile", "Makefile"]) {
                RecipeFile::Read(t, name) => {
                    text = t;
                    names.push(name);
                }
                RecipeFile::Absent(why) => {
                    if parsed.evals.is_empty() {
                        self.note(depth, || format!("make: {why}; recipes not read"));
                        return;
                    }
                }
                RecipeFile::Unjudged(why) => {
                    return self.recipe_finding("recipe.source", "make", &why, part, depth);
                }
            }
        }
        for file in &parsed.files {
            if file == "-" {
                let why = "it reads its makefile from stdin".to_string();
                self.recipe_finding("recipe.source", "make", &why, part, depth);
                match feeds::stdin_producer(site.script, site.command) {
                    Producer::Literal(t) => text.push_str(&t),
                    Producer::Network(_) => {
                        return self.floor(FloorRule::PipeNetworkShell, part, depth);
                    }
                    Producer::Opaque(_) => {
                        return self.floor(FloorRule::PipeOpaqueShell, part, depth);
                    }
                    Producer::File | Producer::Dynamic => return,
                }
                text.push('\n');
                continue;
            }
            match self.recipe_file(&dir, &[file.as_str()]) {
                RecipeFile::Read(t, name) => {
                    text.push_str(&t);
                    text.push('\n');
                    names.push(name);
                }
                RecipeFile::Absent(why) => {
                    self.note(depth, || format!("make: {why}; recipes not read"));
                    return;
                }
                RecipeFile::Unjudged(why) => {
                    return self.recipe_finding("recipe.source", "make", &why, part, depth);
                }
            }
        }
        let include_dir = dir.clone();
        let mut read = |name: &str| -> Result<Option<String>, String> {
            match self.recipe_file(&include_dir, &[name]) {
                RecipeFile::Read(t, _) => Ok(Some(t)),
                RecipeFile::Absent(why) if why.starts_with("no ") => Ok(None),
                RecipeFile::Absent(why) | RecipeFile::Unjudged(why) => Err(why),
            }
        };
        let makefile =
            crate::recipes::parse_makefile(&text, &parsed.evals, &parsed.overrides, &mut read);
        let plan = crate::recipes::make_plan(&makefile, &parsed.goals, &names);
        self.judge_plan("make", &plan, part, depth, &dir);
    }

    /// `just`: the justfile's recipes for the recipes named. Returns true
    /// when they were read whole (their verdict replaces the lexicon's).
    fn just_recipes(
        &mut self,
        args: &[Word],
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) -> bool {
        let part = site.command.text.as_str();
        if args.iter().any(|a| a.dynamic) {
            let why = "its arguments are only known when it runs".to_string();
            self.recipe_finding("recipe.dynamic", "just", &why, part, depth);
            return false;
        }
        let Some(dir) = cwd else {
            return false;
        };
        let mut rest: Vec<String> = Vec::new();
        let mut file: Option<String> = None;
        let mut i = 0;
        while i < args.len() {
            let a = args[i].value.as_str();
            i += 1;
            match a {
                "-f" | "--justfile" | "-d" | "--working-directory" => {
                    let value = args.get(i).map(|w| w.value.clone());
                    i += 1;
                    if matches!(a, "-f" | "--justfile") {
                        file = value;
                    } else {
                        let why = format!("{a} changes where its recipes run");
                        self.recipe_finding("recipe.source", "just", &why, part, depth);
                        return false;
                    }
                }
                _ if a.starts_with("--justfile=") => {
                    file = a.split_once('=').map(|(_, v)| v.to_string())
                }
                _ => rest.push(a.to_string()),
            }
        }
        let names: Vec<&str> = match &file {
            Some(f) => {
                let why = format!("--justfile {f} names another recipe file");
                self.recipe_finding("recipe.source", "just", &why, part, depth);
                vec![f.as_str()]
            }
            None => vec!["justfile", "Justfile", ".justfile", "JUSTFILE"],
        };
        let text = match self.recipe_file(&dir, &names) {
            RecipeFile::Read(t, _) => t,
            RecipeFile::Absent(why) => {
                self.note(depth, || format!("just: {why}; recipes not read"));
                return false;
            }
            RecipeFile::Unjudged(why) => {
                self.recipe_finding("recipe.source", "just", &why, part, depth);
                return false;
            }
        };
        let justfile = crate::recipes::parse_justfile(&text);
        let plan = crate::recipes::just_plan(&justfile, &rest);
        let whole = self.judge_plan("just", &plan, part, depth, &dir);
        if whole && file.is_none() {
            self.find(
                Verdict::Free,
                "recipe.read",
                "just runs recipes read from the justfile, each judged".into(),
                "",
                part,
            );
        }
        whole && file.is_none()
    }

    /// `npm test`, `npm run X`, `yarn X`, `pnpm X`: the `package.json`
    /// scripts they run (with `pre`/`post` scripts).
    fn package_scripts(
        &mut self,
        tool: &str,
        args: &[Word],
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        let part = site.command.text.as_str();
        let values: Vec<String> = args.iter().map(|a| a.value.clone()).collect();
        let Some(call) = crate::recipes::script_call(tool, &values) else {
            return;
        };
        if args.iter().any(|a| a.dynamic) {
            let why = "its arguments are only known when it runs".to_string();
            self.recipe_finding("recipe.dynamic", tool, &why, part, depth);
            return;
        }
        if !call.source.is_empty() {
            let why = format!(
                "{} changes where its scripts come from or what runs them",
                call.source.join(" ")
            );
            self.recipe_finding("recipe.source", tool, &why, part, depth);
        }
        let Some(mut dir) = cwd else {
            return;
        };
        if let Some(d) = &call.dir {
            match self.location.resolve_in(&Word::literal(d), Some(&dir)).path {
                Some(next) => dir = next,
                None => return,
            }
        }
        let text = match self.recipe_file(&dir, &["package.json"]) {
            RecipeFile::Read(t, _) => t,
            RecipeFile::Absent(why) => {
                self.note(depth, || format!("{tool}: {why}; scripts not read"));
                return;
            }
            RecipeFile::Unjudged(why) => {
                return self.recipe_finding("recipe.source", tool, &why, part, depth);
            }
        };
        // The project's .npmrc can name the shell that runs scripts.
        if let RecipeFile::Read(npmrc, _) = self.recipe_file(&dir, &[".npmrc"])
            && npmrc.lines().any(|l| {
                let key = l.split('=').next().unwrap_or("").trim();
                matches!(
                    key,
                    "script-shell" | "node-options" | "shell" | "userconfig" | "globalconfig"
                )
            })
        {
            let why = ".npmrc sets the shell or options that run scripts".to_string();
            self.recipe_finding("recipe.unresolved", tool, &why, part, depth);
        }
        match crate::recipes::package_plan(&text, &call, tool) {
            Ok(plan) => {
                self.judge_plan(tool, &plan, part, depth, &dir);
            }
            Err(why) => self.note(depth, || {
                format!("{tool}: package.json does not parse ({why}); scripts not read")
            }),
        }
    }

    /// Package runners (`npx -p PKG`, `uvx --from PKG`, `--with PKG`,
    /// `--registry URL`): fetching a package other than the known tool
    /// being run, or from another source, is an install (SIGNED).
    pub(super) fn fetched_packages(
        &mut self,
        runner: &str,
        own: &[Word],
        inner: &[Word],
        part: &str,
        depth: usize,
    ) {
        let Some(rules) = crate::rules::package_runner(runner) else {
            return;
        };
        let tool = inner.first().map(|w| w.value.as_str()).unwrap_or("");
        let known_tool = !tool.is_empty() && crate::lexicon::lookup(tool).is_some();
        let mut i = 0;
        while i < own.len() {
            let word = &own[i];
            i += 1;
            let (name, attached) = match word.value.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
                _ => (word.value.as_str(), None),
            };
            let short_attached = (name.starts_with('-')
                && !name.starts_with("--")
                && name.len() > 2
                && name.is_char_boundary(2))
            .then(|| (&name[..2], name[2..].to_string()));
            let (name, value) = match short_attached {
                Some((n, v))
                    if rules.package_opts.contains(&n) || rules.source_opts.contains(&n) =>
                {
                    (n, Some(v))
                }
                _ => (name, attached),
            };
            let is_package = rules.package_opts.contains(&name);
            let is_source = rules.source_opts.contains(&name);
            if !is_package && !is_source {
                continue;
            }
            let value = match value {
                Some(v) => Some(v),
                None => {
                    i += 1;
                    own.get(i - 1)
                        .filter(|w| !w.dynamic)
                        .map(|w| w.value.clone())
                }
            };
            let exact = is_package && known_tool && value.as_deref() == Some(tool) && !word.dynamic;
            if exact {
                continue;
            }
            let what = match (&value, is_package) {
                (Some(v), true) => format!("fetches the package `{}`", limits::clip(v, 80)),
                (None, true) => "fetches a package only known when it runs".to_string(),
                (Some(v), false) => format!("fetches from `{}` ({name})", limits::clip(v, 80)),
                (None, false) => format!("fetches from a source only known when it runs ({name})"),
            };
            self.note(depth, || format!("{runner} {what}"));
            self.find(
                Effect::Install.verdict(),
                "runner.package",
                format!("{runner} {what}, which installs and runs code portcullis has not read"),
                "Install the package as a project dependency first (so the person sees it), then run its tool by name.",
                part,
            );
        }
    }
}

/// A quoted string in code that names a secrets file (`open('.env')`,
/// `fs.readFileSync(".env.local")`): whatever the call, the code reaches
/// for the secrets. Only literal strings count, quoted with `'`, `"` or a
/// backtick, up to 200 characters.
fn secret_literal(code: &str) -> Option<&str> {
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let quote = bytes[i];
        if matches!(quote, b'\'' | b'"' | b'`') {
            let start = i + 1;
            let end = code[start..]
                .find(|c: char| c as u32 == u32::from(quote) || c == '\n')
                .map(|e| start + e);
            if let Some(end) = end {
                let literal = &code[start..end];
                if literal.len() <= 200 && crate::secrets::is_secret(literal) {
                    return Some(literal);
                }
                i = end + 1;
                continue;
            }
        }
        i += 1;
    }
    None
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
