//! The engine: one command line and its location in, one [`Decision`] out.
//!
//! Runs the pipeline of `docs/architecture.md` over every simple command the shell
//! lane finds: peel wrappers (re-parsing `bash -c`, `eval` and literal
//! heredocs fed to a shell), then the blocked floor, the verb lexicon and the
//! write targets. Every stage reports [`Finding`]s; the strictest wins.
//! With a trace enabled it also records each step for `portcullis explain`.

use crate::feeds;
use crate::lexicon::{self, Written};
use crate::limits;
use crate::paths::{self, Location};
use crate::peel::{self, Step};
use crate::rule_id::{LexiconDetail, Rule, RuleId};
use crate::rules::FloorRule;
use crate::settings::Scope;
use crate::shell::{self, Problem, Script, SimpleCommand, Stdin, Word};
use crate::verdict::{Decision, Effect, Finding, Verdict};
use std::borrow::Cow;
use std::collections::HashMap;
use std::path::PathBuf;

mod code;
mod ctx;
mod definitions;
mod edit;
mod formatters;
mod gitctl;
mod inner;
mod law;
mod mode;
mod modules;
mod named;
mod patch;
mod project;
mod scripts;
mod settings;
mod trust;
mod verb;
mod verbs;
use crate::law::Laws;
use ctx::{Ctx, Wrapping};
pub use edit::{
    EditContent, EditKind, Replacement, evaluate_edit, evaluate_edit_with, evaluate_search,
};
pub use mode::PermissionMode;
use settings::cargo_config_command;

/// Judges one shell command line.
pub fn evaluate(command: &str, location: &Location) -> Decision {
    let mut laws = Laws::new(location.cwd.as_deref());
    evaluate_in(command, location, &mut laws)
}

/// Judges one shell command line with laws already loaded (replay keeps
/// them across commands run in the same folder).
pub fn evaluate_in(command: &str, location: &Location, laws: &mut Laws) -> Decision {
    evaluate_in_mode(command, location, laws, PermissionMode::Default)
}

/// [`evaluate_in`] for a host in permission mode `mode` (see `mode.rs`).
pub fn evaluate_in_mode(
    command: &str,
    location: &Location,
    laws: &mut Laws,
    mode: PermissionMode,
) -> Decision {
    let mut run = Run::new(location, laws, false);
    run.top(command);
    run.finish(command, mode)
}

/// Judges one command line and returns the steps taken, for `explain`.
pub fn explain(command: &str, location: &Location) -> (Decision, Vec<String>) {
    explain_in_mode(command, location, PermissionMode::Default)
}

/// [`explain`] for a host in permission mode `mode`.
pub fn explain_in_mode(
    command: &str,
    location: &Location,
    mode: PermissionMode,
) -> (Decision, Vec<String>) {
    let mut laws = Laws::new(location.cwd.as_deref());
    let mut run = Run::new(location, &mut laws, true);
    run.top(command);
    let decision = run.finish_keeping_trace(command, mode);
    (decision, run.trace.take().unwrap_or_default())
}

impl Run<'_> {
    /// The decision, with the host's permission mode applied, then the
    /// workspace's trust: `restricted` blocks everything but FREE,
    /// `denied` blocks everything.
    fn finish(mut self, command: &str, mode: PermissionMode) -> Decision {
        self.finish_keeping_trace(command, mode)
    }

    fn finish_keeping_trace(&mut self, command: &str, mode: PermissionMode) -> Decision {
        let mut findings = std::mem::take(&mut self.findings);
        match mode {
            PermissionMode::AcceptEdits => findings = self.accept_edits(findings, command),
            PermissionMode::Plan => findings = mode::under_plan(findings, command),
            PermissionMode::Default => {}
        }
        let verdict = Decision::from_findings(findings, command);
        trust::trusted(verdict, self.laws, command)
    }
}

/// `set -o` names that change nothing about which commands run or what
/// they are given (`keyword` does: it is not here).
const SHELL_OPTIONS: &[&str] = &[
    "allexport",
    "braceexpand",
    "emacs",
    "errexit",
    "errtrace",
    "functrace",
    "hashall",
    "histexpand",
    "history",
    "ignoreeof",
    "interactive-comments",
    "monitor",
    "noclobber",
    "noexec",
    "noglob",
    "nolog",
    "notify",
    "nounset",
    "onecmd",
    "physical",
    "pipefail",
    "posix",
    "verbose",
    "vi",
    "xtrace",
];

struct Run<'a> {
    location: &'a Location,
    /// The path law of each repository the request touches.
    laws: &'a mut Laws,
    findings: Vec<Finding>,
    /// A finding no later one can displace is in (see `Run::record`):
    /// the rest of the request need not be judged, unless traced.
    settled: bool,
    trace: Option<Vec<String>>,
    /// Files written by heredocs so far in this command line.
    written: Vec<scripts::WrittenScript>,
    /// Scripts and recipe files the code lanes read in this request.
    lanes: code::LaneState,
    /// Wrappers read two ways so far (`Run::other_reading`).
    other_readings: usize,
    /// Words given to those readings so far.
    other_reading_words: usize,
    /// The refusal of more readings was reported.
    other_readings_refused: bool,
    /// Write targets the path law has judged in this request.
    judged_targets: std::collections::HashSet<crate::law::TargetKey>,
    /// `set -a` was seen: every later assignment is exported.
    allexport: bool,
    /// Functions in scope for the next script parsed (set for `eval` and
    /// `trap`, whose scripts run in the same shell; taken by `script`).
    inherited: Vec<(String, shell::Callee)>,
    /// Links made so far in this command line (`ln -s ~ h`), for the floor.
    links: paths::Links,
    /// Commands read once for each word stdin hands to `xargs`.
    fed_readings: usize,
    /// Where the names an `xargs` around the command being judged hands
    /// it may lie (`find ~ | xargs cat`), for the secret check; kept for
    /// the scripts it runs (`xargs sh -c 'cat "$1"' _`).
    listed: Option<std::rc::Rc<crate::feeds::Listed>>,
    /// The words after a script given to a shell (`sh -c S _ FILE`), for
    /// the next script parsed: its positional parameters.
    positional: Vec<Word>,
    /// Commands read again with a variable's value put in
    /// ([`Run::variants`]).
    variant_readings: usize,
    /// Bytes of substitutions [`Run::variants`] has parsed to find the
    /// literal text they print; `None` once past
    /// [`MAX_SUBSTITUTION_BYTES`] (and a finding says so).
    substitution_bytes: Option<usize>,
    /// Values of variables the secret check may still try in this request
    /// (see [`crate::secrets::MAX_HELD_TRIES`]).
    held_tries_left: usize,
    /// Every write target the path law was asked about, as resolved
    /// (`None`: only known at run time), for the permission mode.
    edits: Vec<Option<PathBuf>>,
}

/// The most readings of one command with a variable's value put in.
const MAX_VARIANTS_EACH: usize = 8;

/// The most such readings in one request.
const MAX_VARIANT_READINGS: usize = 32;

/// The longest command read again with a variable's value put in (the
/// reading with the variable unknown stands for a longer one).
const MAX_VARIANT_COMMAND_BYTES: usize = 16 << 10;

/// The most bytes of substitutions parsed in one request to find what they
/// print (`rm -rf $(echo /)`). Each command of `echo $(echo $(echo …))`
/// holds the text of every one inside it, so reading each costs the square
/// of the line's length; past this the line is SIGNED.
const MAX_SUBSTITUTION_BYTES: usize = 64 << 10;

/// The most words from stdin an `xargs` command is read once for each.
const MAX_FED_EACH: usize = 8;

/// The most such readings in one request.
const MAX_FED_READINGS: usize = 64;

/// Blank-separated tokens in `text` (quotes not considered: an upper
/// bound on what tree-sitter will make of it).
fn count_tokens(text: &str) -> usize {
    let mut tokens = 0;
    let mut in_token = false;
    for b in text.bytes() {
        let blank = b.is_ascii_whitespace();
        if !blank && !in_token {
            tokens += 1;
        }
        in_token = !blank;
    }
    tokens
}

/// Where one simple command sits: its text, and what its stdin is.
struct Site<'s> {
    script: &'s Script,
    command: &'s SimpleCommand,
}

impl<'a> Run<'a> {
    fn new(location: &'a Location, laws: &'a mut Laws, traced: bool) -> Run<'a> {
        crate::secrets::start_request();
        Run {
            location,
            laws,
            findings: Vec::new(),
            settled: false,
            trace: traced.then(Vec::new),
            written: Vec::new(),
            lanes: code::LaneState::default(),
            other_readings: 0,
            other_reading_words: 0,
            other_readings_refused: false,
            judged_targets: std::collections::HashSet::new(),
            allexport: false,
            inherited: Vec::new(),
            links: paths::Links::default(),
            fed_readings: 0,
            listed: None,
            positional: Vec::new(),
            variant_readings: 0,
            substitution_bytes: Some(0),
            held_tries_left: crate::secrets::MAX_HELD_TRIES,
            edits: Vec::new(),
        }
    }

    fn note(&mut self, depth: usize, line: impl FnOnce() -> String) {
        if let Some(trace) = &mut self.trace {
            trace.push(format!("{}{}", "  ".repeat(depth), line()));
        }
    }

    fn find(
        &mut self,
        verdict: Verdict,
        rule: impl Into<RuleId>,
        reason: String,
        remediation: &str,
        part: &str,
    ) {
        self.record(finding(verdict, rule, reason, remediation, part));
    }

    /// Adds a finding. One that is BLOCKED and as specific as a rule gets
    /// settles the decision: [`Decision::from_findings`] keeps the first
    /// such, so nothing judged after it can change the verdict or the rule.
    /// `explain` (traced) still judges everything, to show every step.
    fn record(&mut self, finding: Finding) {
        if self.trace.is_none() && crate::verdict::settles(&finding) {
            self.settled = true;
        }
        self.findings.push(finding);
    }

    fn floor(&mut self, rule: FloorRule, part: &str, depth: usize) {
        if rule == FloorRule::GitHooksPath {
            self.git_control_setting(part, depth);
        }
        let info = rule.info();
        self.note(depth, || format!("floor: {} ({})", info.id, info.reason));
        self.find(
            Verdict::Blocked,
            rule,
            info.reason.to_string(),
            info.remediation,
            part,
        );
    }

    fn top(&mut self, command: &str) {
        if command.len() > limits::MAX_COMMAND_BYTES {
            self.find(
                Verdict::Blocked,
                Rule::ParseTooLarge,
                format!("the command is {} bytes, over the {} byte limit", command.len(), limits::MAX_COMMAND_BYTES),
                "Split the work into smaller commands, or write long content to a file with the Write tool.",
                limits::clip(command, 80),
            );
            return;
        }
        // Tens of thousands of `|`, `;`, `&`: more commands than the limit
        // for certain, and a pipeline that long costs the parser ~3 KiB a
        // stage. Refused before parsing, so time and memory stay bounded.
        let separators = command
            .bytes()
            .filter(|b| matches!(b, b'|' | b';' | b'&' | b'\n'))
            .count();
        if separators > limits::MAX_SEPARATORS {
            let what = format!(
                "{separators} command separators, over the {} limit",
                limits::MAX_SEPARATORS
            );
            self.too_many(what, command);
            return;
        }
        self.script(command, 0, self.location.cwd.clone());
    }

    /// BLOCKED `parse.too-many`: `text` holds more of something than is
    /// parsed (`what` says what and the limit).
    fn too_many(&mut self, what: String, text: &str) {
        self.find(
            Verdict::Blocked,
            Rule::ParseTooMany,
            what,
            "Split the work into smaller commands, or write long content to a file with the Write tool.",
            limits::clip(text, 80),
        );
    }

    /// Parses and judges one shell script (the top line, or a script a
    /// wrapper runs).
    fn script(&mut self, text: &str, depth: usize, cwd: Option<PathBuf>) {
        let inherited = std::mem::take(&mut self.inherited);
        if depth > limits::MAX_PEEL_DEPTH {
            self.find(
                Verdict::Blocked,
                Rule::ParseTooDeep,
                format!("scripts nested more than {} deep", limits::MAX_PEEL_DEPTH),
                "Run the inner command directly instead of wrapping it in shells.",
                limits::clip(text, 80),
            );
            return;
        }
        if depth > 0 && text.len() > limits::MAX_SCRIPT_BYTES {
            self.find(
                Verdict::Signed,
                Rule::ParseTooLarge,
                format!(
                    "an inner script of {} bytes is over the {} byte limit",
                    text.len(),
                    limits::MAX_SCRIPT_BYTES
                ),
                "Save the script to a file and show it to the person before running it.",
                limits::clip(text, 80),
            );
            return;
        }
        // Counted before parsing, so time and memory stay bounded: a
        // tree-sitter-bash tree takes ~250 bytes a token (half a million
        // one-letter words would take 130 MiB before the walk could stop),
        // and a pipeline costs it memory with the square of its length.
        let tokens = count_tokens(text);
        if tokens > limits::MAX_TOKENS {
            self.too_many(
                format!("{tokens} words, over the {} limit", limits::MAX_TOKENS),
                text,
            );
            return;
        }
        let pipes = text.bytes().filter(|b| *b == b'|').count();
        if pipes > limits::MAX_PIPES {
            self.too_many(
                format!("{pipes} `|`, over the {} limit", limits::MAX_PIPES),
                text,
            );
            return;
        }
        let mut script = shell::parse::parse_in(text, &inherited);
        let positional = std::mem::take(&mut self.positional);
        if let Some((zero, arguments)) = positional.split_first() {
            script.hold("0", shell::Held::Word(zero.clone()));
            script.hold_positional(arguments);
        }
        self.note(depth, || {
            format!("parse: {} simple command(s)", script.commands.len())
        });
        for problem in &script.problems {
            self.problem(problem, text, depth);
        }
        if script.fork_bomb {
            self.floor(FloorRule::Forkbomb, text, depth);
        }
        for nested in &script.nested {
            self.note(depth, || format!("substitution inside ${{…}}: {nested}"));
            self.script(nested, depth + 1, cwd.clone());
        }
        for after in &script.after_heredoc {
            self.note(depth, || {
                format!(
                    "after the heredoc's real end line: {}",
                    limits::clip(after, 120)
                )
            });
            self.script(after, depth + 1, cwd.clone());
        }
        // Where each subshell stands after its `cd`s: a command sees the
        // folder of its innermost subshell that has moved, else the script's.
        let mut moved: HashMap<u32, Option<PathBuf>> = HashMap::new();
        for command in &script.commands {
            if self.settled {
                break;
            }
            let site = Site {
                script: &script,
                command,
            };
            let innermost = command.scopes.last().copied().unwrap_or(0);
            let mut here = command
                .scopes
                .iter()
                .rev()
                .chain(std::iter::once(&0))
                .find_map(|scope| moved.get(scope).cloned())
                .unwrap_or_else(|| cwd.clone());
            let before = here.clone();
            self.command(&site, depth, &mut here);
            if here != before {
                moved.insert(innermost, here);
            }
        }
    }

    fn problem(&mut self, problem: &Problem, text: &str, depth: usize) {
        let (verdict, rule, reason) = match problem {
            Problem::Syntax(what) => (
                Verdict::Signed,
                Rule::ParseError,
                format!("the command does not parse as shell: {what}"),
            ),
            Problem::MergedLine(at) => (
                Verdict::Signed,
                Rule::ParseMisparse,
                format!("a newline inside `{at}` may hide a second command (tree-sitter-bash#347)"),
            ),
            Problem::HeredocEnd(line) => (
                Verdict::Signed,
                Rule::ParseMisparse,
                format!(
                    "the parser ended a heredoc at the body line `{line}`; bash reads on to the line that is the delimiter alone"
                ),
            ),
            Problem::DroppedText(what) => (
                Verdict::Signed,
                Rule::ParseMisparse,
                format!("the parser dropped `{what}`, so what runs is not certain"),
            ),
            Problem::TooDeep => (
                Verdict::Blocked,
                Rule::ParseTooDeep,
                format!("nesting deeper than {} levels", limits::MAX_TREE_DEPTH),
            ),
            Problem::TooComplex => (
                Verdict::Blocked,
                Rule::ParseTooComplex,
                format!(
                    "the parser read the line over {} times a chunk, so it was stopped (unbalanced brackets?)",
                    limits::MAX_READS_PER_CHUNK
                ),
            ),
            Problem::TooMany => (
                Verdict::Blocked,
                Rule::ParseTooMany,
                format!(
                    "more than {} simple commands or {} words",
                    limits::MAX_COMMANDS,
                    limits::MAX_WORDS
                ),
            ),
            Problem::Unsupported(what) => (Verdict::Signed, Rule::ParseUnsupported, what.clone()),
            Problem::Dynamic(what) => (Verdict::Signed, Rule::ParseDynamicScript, what.clone()),
        };
        self.note(depth, || format!("problem: {rule}: {reason}"));
        self.find(
            verdict,
            rule,
            reason,
            "Rewrite the command in plain shell (one command per line, quotes closed) so it can be checked.",
            limits::clip(text, 120),
        );
    }

    fn command(&mut self, site: &Site, depth: usize, cwd: &mut Option<PathBuf>) {
        let command = site.command;
        self.note(depth, || {
            format!("command: {}", limits::clip(&command.text, 120))
        });
        for redirect in &command.redirects {
            self.redirect_target(
                &redirect.target,
                &redirect.op,
                cwd.clone(),
                &command.text,
                depth,
            );
            // `for f in .env; do echo x > $f; done`: each value in its place.
            let target = std::slice::from_ref(&redirect.target);
            for (name, variant) in self.variants(target, site) {
                let Some(target) = variant.first() else {
                    continue;
                };
                self.note(depth, || {
                    format!("variable: the target read with the value of {name} in its place")
                });
                self.redirect_target(target, &redirect.op, cwd.clone(), &command.text, depth);
            }
        }
        // Alone, an assignment sets a shell variable; before a command, or
        // after `set -a`, it is in that command's environment.
        let scope = if command.words.is_empty() && !self.allexport {
            Scope::Shell
        } else {
            Scope::Exported
        };
        for (name, value) in &command.assignments {
            self.setting(name, value, scope, &command.text, depth);
            let value = std::slice::from_ref(value);
            let assignment = crate::secrets::ASSIGNMENT;
            self.secret_reads(
                assignment,
                value,
                site.script,
                &command.text,
                depth,
                cwd.as_deref(),
            );
        }
        if let Stdin::File(file) = &command.stdin {
            self.named_trust(
                std::slice::from_ref(file),
                cwd.as_deref(),
                &command.text,
                depth,
            );
            if file.value.starts_with("/dev/tcp/") || file.value.starts_with("/dev/udp/") {
                self.find(
                    Effect::Network.verdict(),
                    Rule::ReadNetwork,
                    format!(
                        "`< {}` reads from a network connection",
                        limits::clip(&file.value, 80)
                    ),
                    Effect::Network.remediation(),
                    &command.text,
                );
            }
            let file = std::slice::from_ref(file);
            self.secret_reads("<", file, site.script, &command.text, depth, cwd.as_deref());
        }
        self.remember_written(site, cwd.as_deref());
        if command.words.is_empty() {
            return;
        }
        self.words(Cow::Borrowed(&command.words), site, depth, cwd);
    }

    /// Judges the other reading of a wrapper (`Step::Either`): the inner
    /// words as written, as a command of their own. Each top-level request
    /// gets a bounded number of these (`xargs xargs xargs …` would double
    /// the work at every layer); past the bound the request is refused.
    fn other_reading(
        &mut self,
        words: Vec<Word>,
        site: &Site,
        depth: usize,
        cwd: &Option<PathBuf>,
    ) {
        self.other_reading_words = self.other_reading_words.saturating_add(words.len());
        let over_words = self.other_reading_words > limits::MAX_OTHER_READING_WORDS;
        if self.other_readings >= limits::MAX_OTHER_READINGS || over_words {
            if !self.other_readings_refused {
                self.other_readings_refused = true;
                self.find(
                    Verdict::Signed,
                    Rule::ParseTooDeep,
                    format!(
                        "more than {} wrappers that can be read two ways (`watch`, `xargs`), or more than {} words read so",
                        limits::MAX_OTHER_READINGS,
                        limits::MAX_OTHER_READING_WORDS
                    ),
                    "Run the inner command directly.",
                    &site.command.text,
                );
            }
            self.other_readings += 1;
            return;
        }
        self.other_readings += 1;
        self.note(depth, || {
            format!("also read as written: {}", render_words(&words))
        });
        let mut cwd = cwd.clone();
        self.words(Cow::Owned(words), site, depth, &mut cwd);
    }

    /// Peels and judges one argv, knowing what its stdin hands to an
    /// `xargs` among its words (`xargs rm -rf <<< ~`, `echo ~ | xargs rm
    /// -rf`). Where xargs takes those words one at a time (`-I{}`), or
    /// stdin holds more than the line shows, each word shown is also read
    /// on its own (at most [`MAX_FED_READINGS`] per request).
    fn words(
        &mut self,
        words: Cow<'_, [Word]>,
        site: &Site,
        depth: usize,
        cwd: &mut Option<PathBuf>,
    ) {
        let mut xargs = words.iter().enumerate().filter_map(|(at, w)| {
            crate::rules::wrapper(&peel::verb_name(&w.value).to_ascii_lowercase())
                .filter(|w| w.mode == crate::rules::WrapperMode::Xargs)
                .map(|w| (at, w))
        });
        let first_xargs = xargs.next();
        let xargs_at = first_xargs.map(|(at, _)| at);
        let fed = xargs_at.and_then(|_| crate::feeds::stdin_operands(site.script, site.command));
        // Names from a file (`xargs cat < list.txt`, `xargs -a list.txt
        // cat`, `parallel xargs -a list.txt cat`) may be any file's.
        let argument_file = first_xargs
            .into_iter()
            .chain(xargs)
            .any(|(at, w)| peel::names_argument_file(w, words.get(at + 1..).unwrap_or(&[])));
        let listed = if argument_file {
            Some(crate::feeds::Listed::unbounded(
                "the file `xargs -a` names".into(),
            ))
        } else {
            fed.as_ref().map(|fed| fed.listed.clone())
        };
        let outer = self.listed.clone();
        if let Some(listed) = listed.filter(|l| !l.is_empty()) {
            self.listed = Some(std::rc::Rc::new(listed));
        }
        let variants = self.variants(&words, site);
        self.fed_words_each(words, site, depth, cwd, fed);
        // `for d in ~; do rm -rf $d; done`: each value the line gives a
        // variable, in its place, is a command of its own.
        for (name, variant) in variants {
            self.note(depth, || {
                format!("variable: read with the value of {name} in its place")
            });
            let mut variant_cwd = cwd.clone();
            self.fed_words(Cow::Owned(variant), site, depth, &mut variant_cwd, None);
        }
        self.listed = outer;
    }

    /// The readings of `words` with a value the line gives one of its
    /// variables put in (see [`shell::held::variants`]), within this
    /// request's bound; none once the decision is settled.
    fn variants(&mut self, words: &[Word], site: &Site) -> Vec<(String, Vec<Word>)> {
        let substitutes = words.iter().any(|w| w.substitution);
        let nothing_held = site.script.held.is_empty() && !substitutes;
        if self.settled || nothing_held || !words.iter().any(|w| w.dynamic) {
            return Vec::new();
        }
        // Each reading costs the command's size again.
        let size: usize = words.iter().map(|w| w.source.len() + 1).sum();
        if size > MAX_VARIANT_COMMAND_BYTES {
            return Vec::new();
        }
        let left = MAX_VARIANT_READINGS.saturating_sub(self.variant_readings);
        let script = site.script;
        let read_values = |index: usize| {
            script
                .commands
                .get(index)
                .and_then(|command| crate::feeds::stdin_operands(script, command))
                .map(|fed| fed.words)
                .unwrap_or_default()
        };
        let most = left.min(MAX_VARIANTS_EACH);
        let mut variants: Vec<(String, Vec<Word>)> =
            shell::held::variants(words, script, most, read_values)
                .into_iter()
                .map(|(name, variant)| (format!("${name}"), variant))
                .collect();
        // `rm -rf $(echo /)`: a substitution of literal text is that text.
        for (at, word) in words.iter().enumerate().filter(|(_, w)| w.substitution) {
            if variants.len() >= most || !self.may_parse_substitution(word, site) {
                break;
            }
            let crate::feeds::Producer::Literal(text) = crate::feeds::substitution_producer(word)
            else {
                continue;
            };
            let quoted = word.source.starts_with('"') && word.source.ends_with('"');
            let printed: Vec<Word> = if quoted {
                vec![Word::literal(&text)]
            } else {
                text.split_whitespace().map(Word::literal).collect()
            };
            let mut variant = words.get(..at).unwrap_or(&[]).to_vec();
            variant.extend(printed);
            variant.extend(words.get(at + 1..).unwrap_or(&[]).iter().cloned());
            variants.push((limits::clip(&word.source, 40).to_string(), variant));
        }
        self.variant_readings += variants.len();
        variants
    }

    /// Whether `word`'s substitution may still be parsed within
    /// [`MAX_SUBSTITUTION_BYTES`]; the first time it may not, a SIGNED
    /// finding says why.
    fn may_parse_substitution(&mut self, word: &Word, site: &Site) -> bool {
        let Some(parsed) = self.substitution_bytes else {
            return false;
        };
        let parsed = parsed.saturating_add(word.source.len());
        if parsed <= MAX_SUBSTITUTION_BYTES {
            self.substitution_bytes = Some(parsed);
            return true;
        }
        self.substitution_bytes = None;
        self.find(
            Verdict::Signed,
            Rule::ParseTooDeep,
            format!(
                "substitutions nested too deep to read what each prints (over {} bytes of them)",
                MAX_SUBSTITUTION_BYTES
            ),
            "Run the inner commands one at a time, or write their output to a file and show it.",
            &site.command.text,
        );
        false
    }

    /// [`Run::words`] once with all the words stdin hands to `xargs`, and
    /// once for each word it shows where xargs takes them one at a time.
    fn fed_words_each(
        &mut self,
        words: Cow<'_, [Word]>,
        site: &Site,
        depth: usize,
        cwd: &mut Option<PathBuf>,
        fed: Option<crate::feeds::Fed>,
    ) {
        let each = fed
            .as_ref()
            .filter(|f| (f.lines.len() > 1 || !f.complete) && f.lines.len() <= MAX_FED_EACH)
            .map(|_| words.clone());
        self.fed_words(words, site, depth, cwd, fed.as_ref());
        let (Some(fed), Some(words)) = (fed, each) else {
            return;
        };
        for word in fed.lines {
            if self.fed_readings >= MAX_FED_READINGS {
                break;
            }
            self.fed_readings += 1;
            self.note(depth, || {
                format!("xargs: read with {} from stdin", word.source)
            });
            let one = crate::feeds::Fed {
                lines: vec![word.clone()],
                words: vec![word],
                complete: true,
                listed: crate::feeds::Listed::default(),
            };
            let mut each_cwd = cwd.clone();
            self.fed_words(words.clone(), site, depth, &mut each_cwd, Some(&one));
        }
    }

    /// [`Run::words`], with the words stdin hands to an `xargs`.
    fn fed_words(
        &mut self,
        mut words: Cow<'_, [Word]>,
        site: &Site,
        depth: usize,
        cwd: &mut Option<PathBuf>,
        fed: Option<&crate::feeds::Fed>,
    ) {
        let part = site.command.text.as_str();
        let mut floor_class = Effect::Inspect;
        let mut floor_wrapper: Option<&'static str> = None;
        let mut runner: Option<&'static crate::rules::Wrapper> = None;
        let mut local_cwd: Option<PathBuf> = cwd.clone();
        let mut peeled = 0;
        loop {
            if words.is_empty() {
                return;
            }
            if words[0].dynamic {
                break;
            }
            // The first call peels the command itself; the limit counts
            // wrappers around it.
            peeled += 1;
            if peeled > limits::MAX_PEEL_DEPTH + 1 {
                self.find(
                    Verdict::Blocked,
                    Rule::ParseTooDeep,
                    format!(
                        "more than {} wrappers around one command",
                        limits::MAX_PEEL_DEPTH
                    ),
                    "Run the inner command directly.",
                    part,
                );
                return;
            }
            if peel::verb_of(&words[0].value).0 == "script" {
                self.session_files(&words[1..], part, depth, local_cwd.clone());
            }
            let mut step = peel::peel_fed(&words, fed);
            if let Step::Either { main, also } = step {
                self.other_reading(also, site, depth, &local_cwd);
                step = *main;
            }
            match step {
                Step::Verb => break,
                // `peel` never nests one `Either` in another.
                Step::Either { .. } => break,
                Step::Inner {
                    wrapper,
                    class,
                    inner,
                    cwd: inner_cwd,
                } => {
                    if wrapper == "env" {
                        // The words env itself took (`env -S` may make more words
                        // than it took, hence the checked slice).
                        let own = words
                            .get(1..words.len().saturating_sub(inner.len()))
                            .unwrap_or(&[]);
                        for word in own.iter().filter(|w| peel::is_assignment(&w.value)) {
                            if let Some((name, value)) = word.value.split_once('=') {
                                let mut value_word = word.clone();
                                value_word.value = value.to_string();
                                self.setting(name, &value_word, Scope::Exported, part, depth);
                            }
                        }
                    }
                    self.note(depth, || format!("peel: {wrapper} ({})", class.as_str()));
                    if let Some(w) = crate::rules::wrapper(wrapper).filter(|w| w.unknown.is_some())
                    {
                        runner = Some(w);
                        let own = words.get(1..words.len().saturating_sub(inner.len()));
                        self.fetched_packages(w.name, own.unwrap_or(&[]), &inner, part, depth);
                    }
                    if class.rank() > floor_class.rank() {
                        floor_class = class;
                        floor_wrapper = Some(wrapper);
                    }
                    if let Some(dir) = inner_cwd {
                        local_cwd = self.location.resolve_in(&dir, local_cwd.as_deref()).path;
                    }
                    words = Cow::Owned(inner);
                }
                Step::Script {
                    wrapper,
                    class,
                    script,
                } => {
                    self.note(depth, || format!("peel: {wrapper} runs a script"));
                    let own = wrapper.split(' ').next().unwrap_or("");
                    if class.rank() > floor_class.rank() {
                        self.wrapper_floor(Some(own), class, Effect::Inspect, part);
                    } else {
                        self.wrapper_floor(floor_wrapper, floor_class, Effect::Inspect, part);
                    }
                    // `eval` and `trap` run their script in this shell, with
                    // its functions.
                    if peeled == 1 && matches!(wrapper.as_str(), "eval" | "trap") {
                        let index = site
                            .script
                            .commands
                            .iter()
                            .position(|c| std::ptr::eq(c, site.command));
                        self.inherited = site
                            .script
                            .functions_at
                            .iter()
                            .find(|(at, _)| Some(*at) == index)
                            .map(|(_, functions)| functions.clone())
                            .unwrap_or_default();
                    }
                    // `sh -c 'cat "$1"' _ FILE`: the words after the script
                    // are its `$0`, `$1` ….
                    self.positional = words
                        .iter()
                        .position(|w| w.source == script.source)
                        .and_then(|at| words.get(at + 1..))
                        .map(<[Word]>::to_vec)
                        .unwrap_or_default();
                    self.inner_script(&wrapper, &script, site, depth, local_cwd);
                    self.positional.clear();
                    self.inherited.clear();
                    return;
                }
                Step::ShellStdin { wrapper } => {
                    self.wrapper_floor(floor_wrapper, floor_class, Effect::Inspect, part);
                    self.program_from_stdin(wrapper, &Ctx::new(site, depth, local_cwd));
                    return;
                }
                Step::ShellFile { wrapper, file } => {
                    self.wrapper_floor(floor_wrapper, floor_class, Effect::Exec, part);
                    self.program_file(wrapper, &file, &Ctx::new(site, depth, local_cwd));
                    return;
                }
                Step::Alone { wrapper, class } if wrapper == "env" => {
                    self.secret_reads("env", &[], site.script, part, depth, None);
                    self.wrapper_floor(
                        Some(wrapper),
                        floor_class.stricter(class),
                        Effect::Inspect,
                        part,
                    );
                    return;
                }
                Step::Alone { wrapper, class } => {
                    self.note(depth, || {
                        format!("peel: {wrapper} alone ({})", class.as_str())
                    });
                    let class = floor_class.stricter(class);
                    self.find(
                        class.verdict(),
                        RuleId::Wrapper(wrapper),
                        format!(
                            "{wrapper} with no command to run is classed {}",
                            class.as_str()
                        ),
                        class.remediation(),
                        part,
                    );
                    return;
                }
            }
        }
        self.note(depth, || format!("words: {}", render_words(&words)));
        let ctx = Ctx {
            site,
            depth,
            shell_cwd: cwd.as_deref(),
            cwd: local_cwd,
            wrapping: Wrapping {
                class: floor_class,
                wrapper: floor_wrapper,
            },
            runner,
            wrapped: peeled > 1,
        };
        if let verbs::Handled::Moved(to) = self.verb(&words, ctx) {
            *cwd = to;
        }
    }

    /// A wrapper's own class, when it is stricter than what it wraps.
    fn wrapper_floor(&mut self, wrapper: Option<&str>, class: Effect, inner: Effect, part: &str) {
        if let Some(wrapper) = wrapper
            && class.rank() > inner.rank()
            && class.verdict() > Verdict::Free
        {
            let entry = crate::rules::wrapper(wrapper);
            let note = entry.map(|w| w.note).unwrap_or("");
            // Only a wrapper of `rules/wrappers.json` has a class of its own;
            // anything else that got here is code portcullis does not read.
            let rule = entry.map_or(RuleId::Fixed(Rule::VerbExec), |w| RuleId::Wrapper(w.name));
            self.find(
                class.verdict(),
                rule,
                format!("{wrapper} is classed {}{}", class.as_str(), suffix(note)),
                class.remediation(),
                part,
            );
        }
    }

    /// SIGNED when a command the lexicon finds free has options outside
    /// its verb's closed option set, sends a word only known at run time
    /// over the network (`dig $(cat key).x.example`), or has such a word in
    /// option position for a verb whose options can raise its class: an
    /// option portcullis does not know may run a program or write a file.
    fn unknown_options(
        &mut self,
        classified: &lexicon::Classified,
        words: &[Word],
        part: &str,
        depth: usize,
    ) {
        if classified.effect.verdict() != Verdict::Free {
            return;
        }
        let command = &classified.command;
        if let Some(word) = classified
            .unknown_options
            .first()
            .and_then(|&i| words.get(i))
        {
            let option = limits::clip(&word.value, 60);
            self.note(depth, || {
                format!("option: {option} is not among {command}'s known options")
            });
            self.find(
                Verdict::Signed,
                classified.rule.with_detail(LexiconDetail::UnknownOption),
                format!("`{command}` is free only with the options portcullis knows, and `{option}` is not one of them; an unknown option may run a program or write a file"),
                "Use only the command's common options (`portcullis explain` shows how each word was read), or let the person approve this one.",
                part,
            );
        } else if let Some(word) = classified
            .spec
            .sends_arguments
            .then(|| words.iter().skip(1).find(|w| w.dynamic))
            .flatten()
        {
            let source = limits::clip(&word.source, 60);
            self.note(depth, || format!("network: {source} is sent out"));
            self.find(
                Effect::Network.verdict(),
                classified.rule.with_detail(LexiconDetail::SendsDynamic),
                format!("`{command}` sends its arguments over the network, and `{source}` is only known when the command runs (it could carry a file's contents out)"),
                "Write the value out literally, so what is sent can be checked.",
                part,
            );
        } else if let Some(word) = classified.maybe_options.first().and_then(|&i| words.get(i)) {
            let source = limits::clip(&word.source, 60);
            self.note(depth, || {
                format!("option: {source} may expand to an option")
            });
            self.find(
                Verdict::Signed,
                classified.rule.with_detail(LexiconDetail::DynamicOption),
                format!("`{source}` is only known when the command runs and may expand to an option of `{command}` that runs a program or writes a file"),
                "Write the options out literally, or put `--` before operands only known at run time (`cat -- \"$f\"`).",
                part,
            );
        }
    }

    /// The code a program's options run (`tar -I CMD`, `man -P CMD`,
    /// `pylint --init-hook CODE`, a cargo runner): each judged as the script
    /// it is, so the floor holds inside it; one only known at run time is a
    /// dynamic script.
    fn option_scripts(&mut self, classified: &lexicon::Classified, words: &[Word], ctx: &Ctx) {
        let (part, depth, cwd) = (ctx.part(), ctx.depth, &ctx.cwd);
        for (place, runs) in &classified.scripts {
            let (word, text) = match place {
                Written::Arg(i) => match words.get(*i) {
                    Some(w) => (w, w.value.as_str()),
                    None => continue,
                },
                Written::Attached(i, at) => match words.get(*i) {
                    Some(w) => (w, w.value.get(*at..).unwrap_or("")),
                    None => continue,
                },
                Written::KeyValue(_) | Written::Cwd => continue,
            };
            if word.dynamic {
                self.find(
                    Verdict::Signed,
                    Rule::ParseDynamicScript,
                    format!(
                        "an option of `{}` runs `{}`, which is only known when the command runs",
                        classified.path.join(" "),
                        limits::clip(&word.source, 80)
                    ),
                    "Write the command out literally so it can be checked.",
                    part,
                );
                continue;
            }
            self.note(depth, || format!("option runs: {text}"));
            let script = match runs {
                crate::rules::Runs::Shell => Some(text.to_string()),
                // Judged as `python3 -c CODE` is: by the Python lane.
                crate::rules::Runs::Python => shlex::try_quote(text)
                    .ok()
                    .map(|code| format!("python3 -c {code}")),
                crate::rules::Runs::CargoConfig => cargo_config_command(text),
            };
            if let Some(script) = script {
                self.script(&script, depth + 1, cwd.clone());
            }
        }
    }

    fn dynamic_verb(&mut self, head: &Word, part: &str, depth: usize) {
        self.note(depth, || {
            format!("verb: {} is only known at run time", head.source)
        });
        self.find(
            Verdict::Signed,
            Rule::ParseDynamicVerb,
            format!("the program to run, `{}`, is only known when the command runs", limits::clip(&head.source, 60)),
            "Name the program literally (for example `rm`, not `$cmd`) so the command can be checked.",
            part,
        );
    }
}

/// Words as a shell would need them written (for `explain`).
fn render_words(words: &[Word]) -> String {
    let values: Vec<&str> = words.iter().map(|w| w.value.as_str()).collect();
    shlex::try_join(values.iter().copied()).unwrap_or_else(|_| format!("{values:?}"))
}

/// One finding; `part` is clipped to 300 bytes.
fn finding(
    verdict: Verdict,
    rule: impl Into<RuleId>,
    reason: String,
    remediation: &str,
    part: &str,
) -> Finding {
    Finding {
        verdict,
        rule: rule.into(),
        reason,
        remediation: remediation.to_string(),
        part: limits::clip(part, 300).to_string(),
    }
}

fn suffix(note: &str) -> String {
    if note.is_empty() {
        String::new()
    } else {
        format!(": {note}")
    }
}

/// The verbs a command line runs, after peeling wrappers (not re-parsing
/// scripts): for the lexicon coverage report. Program paths and dynamic
/// names are left out; a verb is `(name, known to the lexicon)`.
pub fn verbs(command: &str) -> Vec<(String, bool)> {
    let script = shell::parse(command);
    let mut out = Vec::new();
    for c in &script.commands {
        let (verb, words) = feeds::producer_verb(&c.words);
        let Some(head) = words.first() else { continue };
        if head.dynamic
            || head.value.contains('/')
            || script.functions.contains(&verb)
            || verb.is_empty()
        {
            continue;
        }
        let known = lexicon::lookup(&verb).is_some()
            || crate::rules::wrapper(&verb).is_some()
            || crate::rules::is_shell(&verb)
            || matches!(verb.as_str(), "eval" | "cd" | "pushd" | "popd");
        out.push((verb, known));
    }
    out
}

#[cfg(test)]
mod tests;
