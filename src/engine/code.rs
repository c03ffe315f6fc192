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
use crate::rules::{CodeEffect, FloorRule};
use crate::shell::{Stdin, Word};
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};

/// What to do about code that does not parse.
const UNPARSABLE_REMEDIATION: &str = "Fix the code's syntax; portcullis judges code by its syntax tree and does not let code it cannot read run unseen.";

/// What to do about a script portcullis cannot read.
const UNREADABLE_REMEDIATION: &str = "Show the script's content (write it in this command with a quoted heredoc, or keep it under the working folder and under 256 KiB) so it can be checked.";

/// A file written by a heredoc earlier in the same command line.
pub(super) struct WrittenScript {
    pub path: PathBuf,
    /// Its text; `None` when it is only partly known (appended to).
    pub text: Option<String>,
}

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
        match route::route(interpreter, args) {
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
                if !path.dynamic && crate::rules::is_test_script(&path.value) {
                    return false;
                }
                self.script_file(interpreter, ScriptKind::Lane(lane), path, site, depth, cwd)
            }
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
        let text = match self.read_script(path, cwd.as_deref()) {
            Ok(text) => text,
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
                    None => return false,
                }
            }
        };
        let origin = format!("in {}", limits::clip(&path.value, 80));
        match lane {
            Some(lane) => self.lane(lane, &text, &origin, site, depth, cwd),
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
        if let Some(written) = self.written.iter().rev().find(|w| w.path == full) {
            return written
                .text
                .clone()
                .ok_or_else(|| Unreadable::Missing("it is appended to in this command".into()));
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
        String::from_utf8(bytes).map_err(|_| Unreadable::Missing("not UTF-8 text".into()))
    }

    /// Records `cat > fix.py <<'EOF' … EOF` (and `tee`), so a later
    /// `python3 fix.py` in the same command line reads what was written.
    pub(super) fn remember_written(&mut self, site: &Site, cwd: Option<&Path>) {
        let command = site.command;
        let Stdin::Heredoc { body, literal } = &command.stdin else {
            return;
        };
        let words: Vec<&str> = command.words.iter().map(|w| w.value.as_str()).collect();
        let mut targets: Vec<(&Word, bool)> = Vec::new();
        match words.as_slice() {
            ["cat"] | ["cat", "-"] => {
                for r in &command.redirects {
                    targets.push((&r.target, r.op.contains(">>")));
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
            }
            _ => return,
        }
        for (target, append) in targets {
            if let Some(path) = self.location.resolve_in(target, cwd).path {
                let text = (!append && *literal).then(|| body.clone());
                self.written.push(WrittenScript { path, text });
            }
        }
    }

    /// Has a lane read `text` and judges what it found. Returns true when
    /// the lane's verdict replaces the lexicon's (always, but for the
    /// token-scanned languages, which stay exec).
    fn lane(
        &mut self,
        lane: Lane,
        text: &str,
        origin: &str,
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
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
                self.judge_code(language, &analysis, origin, site, depth, cwd);
                true
            }
            Lane::Scan(language) => {
                self.note(depth, || format!("{language} token scan: code {origin}"));
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
                &format!("inline.{}.pure", inline::rule_name(language)),
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
                &format!("inline.{language}.{}", found.effect.as_str()),
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
