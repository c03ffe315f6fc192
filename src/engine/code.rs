//! The engine's side of the inline-code lanes: finds the program an
//! interpreter runs (code in an argument, stdin, a script file written
//! earlier in the same command line or on disk under the request's
//! folder), has the lane read it, and turns what the lane found into
//! findings. Paths the code writes or deletes meet the floor as typed
//! commands do; commands it hands to a shell re-enter the shell lane.

use super::ctx::Ctx;
use super::scripts::{ScriptKind, Unreadable};
use super::{Run, Site};
use crate::feeds::{self, Producer};
use crate::floor::{self, Invocation};
use crate::inline::route::{self, Lane, Route};
use crate::inline::{self, Analysis, Handoff, Language};
use crate::law::Reach;
use crate::limits;
use crate::paths::Location;
use crate::rule_id::{InlineRule, Rule, RuleId};
use crate::rules::{CodeEffect, FloorRule};
use crate::shell::{Stdin, Word};
use crate::verdict::Verdict;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// What to do about code that does not parse.
const UNPARSABLE_REMEDIATION: &str = "Fix the code's syntax; portcullis judges code by its syntax tree and does not let code it cannot read run unseen.";

/// What to do about a script portcullis cannot read.
pub(super) const UNREADABLE_REMEDIATION: &str = "Show the script's content (write it in this command with a quoted heredoc, or keep it under the working folder and under 256 KiB) so it can be checked.";

/// What the code lanes have read in this request: recipe files (bounded
/// by `recipes::MAX_FILES`), recipe text handed to the shell lane
/// (bounded by `project::MAX_RECIPE_BYTES`), and the scripts read from disk.
#[derive(Default)]
pub(super) struct LaneState {
    pub(super) files: usize,
    pub(super) bytes: usize,
    /// Scripts and recipe files read from disk, so a later write to one
    /// (in a loop, or in the background) is seen.
    pub(super) read: HashSet<PathBuf>,
    /// The latest entry of `Run::written` for each path.
    pub(super) latest: HashMap<PathBuf, usize>,
    /// Bytes of paths and text kept in `Run::written`.
    pub(super) written_bytes: usize,
    /// Bytes of command text hashed to tell which command wrote a file
    /// (each write target of a command hashes the command's whole text).
    pub(super) hashed_bytes: usize,
    /// More was written than is kept: every script is then taken as
    /// replaced (SIGNED), never read from disk.
    pub(super) overflow: bool,
}

impl Run<'_> {
    /// An interpreter (`python3`, `node`, `perl` …) as the lexicon names
    /// it, with its arguments. Returns true when the lanes judged the
    /// program, so the lexicon's class for the interpreter does not apply.
    pub(super) fn code_route(&mut self, interpreter: &str, args: &[Word], ctx: &Ctx) -> bool {
        let (site, depth) = (ctx.site, ctx.depth);
        let part = site.command.text.as_str();
        let (route, preloads) = route::route_with_preloads(interpreter, args);
        if !preloads.is_empty() {
            self.judge_preloads(interpreter, &route, &preloads, args, ctx);
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
                            return self.lane(lane, &printed, &origin, ctx);
                        }
                        _ => {}
                    }
                    self.find(
                        Verdict::Signed,
                        Rule::ParseDynamicScript,
                        format!(
                            "{interpreter} runs code that is only known when the command runs: `{}`",
                            limits::clip(&code.source, 80)
                        ),
                        "Write the code out literally so it can be checked.",
                        part,
                    );
                    // What can be read of it is still judged.
                    if !code.substitution {
                        self.lane(lane, text, &origin, ctx);
                    }
                    return !matches!(lane, Lane::Scan(_));
                }
                self.lane(lane, text, &origin, ctx)
            }
            Route::Stdin { lane } => self.code_from_stdin(interpreter, lane, ctx),
            Route::Module { lane, name } => self.project_module(interpreter, lane, name, ctx),
            // `python3 /dev/stdin`: the program is its stdin.
            Route::File { lane, path } if feeds::is_stdin_word(path) => {
                self.code_from_stdin(interpreter, lane, ctx)
            }
            Route::File { lane, path } => {
                self.script_file(interpreter, ScriptKind::Lane(lane), path, ctx)
            }
        }
    }

    /// The program text of awk, sed and vi-like editors (`verb`): the shell
    /// lines it runs go to the shell lane, the files it writes to the path
    /// law, and its program files (`-f prog.awk`, `vim -S x.vim`) are read
    /// as scripts are (written earlier in the line: their new content, or
    /// SIGNED `script.replaced` when not known; else from disk). A file
    /// that cannot be read keeps the lexicon's class.
    pub(super) fn program_parts(&mut self, verb: &str, args: &[Word], ctx: &Ctx) {
        let (site, depth, cwd) = (ctx.site, ctx.depth, ctx.cwd.clone());
        let Some(dialect) = crate::programs::dialect(verb) else {
            return;
        };
        let parts = crate::programs::parts(dialect, args);
        self.judge_parts(verb, &parts, ctx);
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
            if file.value == "-" || feeds::is_stdin_device(&file.value) {
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
                    self.judge_parts(verb, &parts, ctx);
                }
                continue;
            }
            match self.read_script(&file, cwd.as_deref()) {
                Ok(text) => {
                    self.note(depth, || {
                        format!("{verb} reads its program from {}", file.value)
                    });
                    let parts = crate::programs::text_parts(dialect, &text);
                    self.judge_parts(verb, &parts, ctx);
                }
                Err(Unreadable::Replaced(tail)) => {
                    self.replaced_program(verb, &file, site);
                    if let Some(tail) = tail {
                        let parts = crate::programs::text_parts(dialect, &tail);
                        self.judge_parts(verb, &parts, ctx);
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
            Rule::ScriptReplaced,
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
    fn judge_parts(&mut self, verb: &str, parts: &crate::programs::Parts, ctx: &Ctx) {
        let (site, depth, cwd) = (ctx.site, ctx.depth, ctx.cwd.clone());
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
    fn judge_preloads(
        &mut self,
        interpreter: &str,
        route: &Route,
        preloads: &[route::Preload],
        args: &[Word],
        ctx: &Ctx,
    ) {
        let (site, depth, cwd) = (ctx.site, ctx.depth, ctx.cwd.clone());
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
                self.script_file(interpreter, ScriptKind::Lane(lane), &file, ctx);
                continue;
            }
            self.find(
                Verdict::Signed,
                Rule::InlinePreload,
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
    fn project_module(&mut self, interpreter: &str, lane: Lane, name: &str, ctx: &Ctx) -> bool {
        let (site, cwd) = (ctx.site, ctx.cwd.clone());
        let top = name.split('.').next().unwrap_or(name);
        let file = Word::literal(&format!("{top}.py"));
        let Some(file_path) = self.location.resolve_in(&file, cwd.as_deref()).path else {
            return false;
        };
        let folder = file_path.with_extension("");
        if name == top && file_path.is_file() {
            return self.script_file(interpreter, ScriptKind::Lane(lane), &file, ctx);
        }
        if !(file_path.exists() || folder.is_dir()) {
            return false;
        }
        self.find(
            Verdict::Signed,
            Rule::InlineUnreadableScript,
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
    fn code_from_stdin(&mut self, interpreter: &str, lane: Lane, ctx: &Ctx) -> bool {
        let (site, depth) = (ctx.site, ctx.depth);
        let part = site.command.text.as_str();
        let origin = format!("read by {interpreter} from stdin");
        match &site.command.stdin {
            Stdin::Inherited => return false,
            Stdin::File(file) => {
                return self.script_file(interpreter, ScriptKind::Lane(lane), file, ctx);
            }
            // An unquoted heredoc: bash expands `$x` and `$(…)` in it first.
            // The code is still read, and the expansion makes it SIGNED.
            Stdin::Heredoc {
                body,
                literal: false,
            } => {
                self.find(
                    Verdict::Signed,
                    Rule::ParseDynamicScript,
                    format!(
                        "the heredoc {interpreter} reads expands shell variables or commands, so its code is only known when the command runs"
                    ),
                    "Quote the heredoc's delimiter (<<'EOF') so the code is exactly what is written.",
                    part,
                );
                return self.lane(lane, body, &origin, ctx);
            }
            _ => {}
        }
        match feeds::stdin_producer(site.script, site.command) {
            Producer::Literal(text) => self.lane(lane, &text, &origin, ctx),
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
                    Rule::InlineUnreadableScript,
                    format!("{interpreter} reads a program from stdin that portcullis cannot see"),
                    UNREADABLE_REMEDIATION,
                    part,
                );
                true
            }
        }
    }

    /// Has a lane read `text` (code given on the command line or stdin,
    /// whose module folder is the working folder) and judges what it
    /// found. Returns true when the lane's verdict replaces the lexicon's
    /// (always, but for the token-scanned languages, which stay exec).
    pub(super) fn lane(&mut self, lane: Lane, text: &str, origin: &str, ctx: &Ctx) -> bool {
        self.lane_in(lane, text, origin, ctx, ctx.cwd())
    }

    /// [`Run::lane`] for code whose module folder (first on Python's
    /// module path) is `modules`: a script's own folder.
    pub(super) fn lane_in(
        &mut self,
        lane: Lane,
        text: &str,
        origin: &str,
        ctx: &Ctx,
        modules: Option<&Path>,
    ) -> bool {
        let (site, depth, cwd) = (ctx.site, ctx.depth, ctx.cwd.clone());
        let part = site.command.text.as_str();
        if depth > limits::MAX_PEEL_DEPTH {
            self.find(
                Verdict::Blocked,
                Rule::ParseTooDeep,
                format!("code nested more than {} deep", limits::MAX_PEEL_DEPTH),
                "Run the inner code directly instead of nesting interpreters.",
                part,
            );
            return true;
        }
        if text.len() > limits::MAX_SCRIPT_BYTES {
            self.find(
                Verdict::Signed,
                Rule::InlineUnreadableScript,
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
                Rule::CageSecretsRead,
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
                self.judge_code(language, &analysis, origin, ctx);
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
                self.judge_found(language, &analysis, origin, ctx);
                false
            }
        }
    }

    fn judge_code(&mut self, language: Language, analysis: &Analysis, origin: &str, ctx: &Ctx) {
        let site = ctx.site;
        let part = site.command.text.as_str();
        let name = match language {
            Language::Python => "Python",
            Language::JavaScript => "JavaScript",
        };
        if let Some(error) = &analysis.unparsable {
            self.find(
                Verdict::Signed,
                Rule::InlineUnparsable,
                format!("the {name} code {origin} does not parse ({error})"),
                UNPARSABLE_REMEDIATION,
                part,
            );
        } else if analysis.found.is_empty() {
            self.find(
                Verdict::Free,
                RuleId::Inline(inline::rule_name(language), InlineRule::Pure),
                format!("the {name} code {origin} only computes, reads and prints"),
                "",
                part,
            );
        }
        self.judge_found(inline::rule_name(language), analysis, origin, ctx);
    }

    /// Findings for each effect; paths meet the floor, handed-over commands
    /// the shell lane.
    fn judge_found(
        &mut self,
        language: &'static str,
        analysis: &Analysis,
        origin: &str,
        ctx: &Ctx,
    ) {
        let (site, depth, cwd) = (ctx.site, ctx.depth, ctx.cwd.clone());
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
                RuleId::Inline(language, InlineRule::Effect(found.effect)),
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
            Rule::InlineDynamicExec,
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
