//! Replay: every record of a history judged as the hook would have judged
//! it, and what they add up to.
//!
//! Takes [`history::Record`]s one at a time; returns each decision (for
//! `--json`) and keeps a [`Summary`] whose size does not grow with the
//! input (lists are capped, counts are not).
#![deny(clippy::indexing_slicing)]

use crate::engine::{self, EditKind};
use crate::history::{self, Kind, Record};
use crate::law::Laws;
use crate::paths::Location;
use crate::rule_id::{Family, Rule, RuleId};
use crate::verdict::{Decision, Finding, Verdict};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

/// BLOCKED commands listed in a summary, at most (the count is exact).
pub const MAX_LISTED: usize = 200;
/// Distinct rules and verbs counted, at most.
const MAX_DISTINCT: usize = 10_000;

/// A replayed command that a summary lists.
#[derive(Clone, Debug)]
pub struct Listed {
    /// The history file.
    pub file: String,
    /// Its line.
    pub line: usize,
    /// When it ran, if the history says.
    pub timestamp: Option<String>,
    /// The verdict.
    pub verdict: Verdict,
    /// The rule.
    pub rule: String,
    /// The command (clipped).
    pub command: String,
}

/// What a replay adds up to.
#[derive(Debug, Default)]
pub struct Summary {
    /// Commands (and edit-tool requests) judged, by verdict.
    pub counts: [usize; 4],
    /// Commands the person typed (Claude Code's `!` mode): judged, counted
    /// apart, never passed a hook.
    pub typed: usize,
    /// Lines that could not be read.
    pub broken: usize,
    /// Of those, lines that may hold a command that was not judged as the
    /// history wrote it (the part of it that could be read is judged on its
    /// own), by that reading's verdict, which is at least SIGNED.
    pub unjudged: [usize; 4],
    /// How often each top rule decided.
    pub rules: HashMap<RuleId, usize>,
    /// Verbs the lexicon does not know, by count.
    pub unknown_verbs: HashMap<String, usize>,
    /// Every BLOCKED command (up to [`MAX_LISTED`]).
    pub blocked: Vec<Listed>,
    /// Commands that could not be parsed (up to [`MAX_LISTED`]).
    pub unparsable: Vec<Listed>,
    /// Unreadable lines (up to [`MAX_LISTED`]).
    pub unreadable: Vec<Listed>,
    /// Lines that may hold a command that was not judged (up to
    /// [`MAX_LISTED`]).
    pub unjudged_lines: Vec<Listed>,
}

/// What every record of a replay is judged in: the folder of records that
/// name none, and the host's permission mode.
#[derive(Clone, Debug)]
pub struct Context {
    /// The location of records that name no folder.
    pub location: Location,
    /// The permission mode every shell command is judged in (`--mode`).
    pub mode: engine::PermissionMode,
}

/// One replay run: the laws of each working folder, read once, and the
/// summary so far.
pub struct Replay {
    default: Location,
    mode: engine::PermissionMode,
    folders: Folders,
    memo: Memo,
    /// What the records add up to.
    pub summary: Summary,
}

/// Decisions already made for a command in the working folder of the last
/// records. A replay never runs what it judges and reads the disk only to
/// judge, so the same text in the same folder gets the same decision;
/// agents repeat themselves (`ls`, `git status`, the same test run): a
/// quarter of the agent sessions' commands are repeats. Bounded by the bytes
/// of the commands kept; cleared when the folder changes or it is full.
#[derive(Default)]
struct Memo {
    cwd: Option<PathBuf>,
    /// Shared with the rows that repeat them: a decision is not copied.
    decisions: HashMap<String, Rc<Decision>>,
    bytes: usize,
}

/// The commands a memo keeps, at most, before it starts over.
const MEMO_MAX_ENTRIES: usize = 4096;
/// Their text, at most.
const MEMO_MAX_BYTES: usize = 1 << 20;
/// A command longer than this is not kept (long ones are rarely repeated).
const MEMO_MAX_COMMAND: usize = 1024;

impl Memo {
    /// The decision for `command` in `cwd`, judged by `judge` unless kept.
    fn decide(
        &mut self,
        cwd: &Option<PathBuf>,
        command: &str,
        judge: impl FnOnce() -> Decision,
    ) -> Rc<Decision> {
        if self.cwd != *cwd {
            self.decisions.clear();
            self.bytes = 0;
            self.cwd.clone_from(cwd);
        }
        if let Some(decision) = self.decisions.get(command) {
            return Rc::clone(decision);
        }
        let decision = Rc::new(judge());
        if command.len() <= MEMO_MAX_COMMAND {
            if self.bytes + command.len() > MEMO_MAX_BYTES
                || self.decisions.len() >= MEMO_MAX_ENTRIES
            {
                self.decisions.clear();
                self.bytes = 0;
            }
            self.bytes += command.len();
            self.decisions
                .insert(command.to_string(), Rc::clone(&decision));
        }
        decision
    }
}

/// How many working folders' laws a replay keeps before it starts over.
const MAX_FOLDERS: usize = 256;

/// The laws of each working folder seen so far (read once each, at most
/// [`MAX_FOLDERS`] kept), and the one the last record used: records of one
/// file mostly share their folder.
#[derive(Default)]
struct Folders {
    laws: Vec<(Option<PathBuf>, Laws)>,
    index: HashMap<Option<PathBuf>, usize>,
    last: usize,
}

impl Folders {
    // In bounds: `last` is the entry just checked, one the index names, or the one just pushed.
    #[allow(clippy::indexing_slicing)]
    fn laws_for(&mut self, cwd: &Option<PathBuf>) -> &mut Laws {
        if self.laws.get(self.last).is_none_or(|(seen, _)| seen != cwd) {
            self.last = match self.index.get(cwd) {
                Some(&at) => at,
                None => {
                    if self.laws.len() >= MAX_FOLDERS {
                        self.laws.clear();
                        self.index.clear();
                    }
                    self.laws.push((cwd.clone(), Laws::new(cwd.as_deref())));
                    self.index.insert(cwd.clone(), self.laws.len() - 1);
                    self.laws.len() - 1
                }
            };
        }
        &mut self.laws[self.last].1
    }
}

impl Replay {
    /// A replay whose records run in `context`'s location unless they say
    /// otherwise, in its permission mode.
    pub fn new(context: Context) -> Replay {
        Replay {
            default: context.location,
            mode: context.mode,
            folders: Folders::default(),
            memo: Memo::default(),
            summary: Summary::default(),
        }
    }

    /// Judges one record: its decision, the command as shown, and the
    /// extra JSON fields it carries.
    pub fn judge<'r>(
        &mut self,
        file: &str,
        record: &'r Record,
    ) -> (Rc<Decision>, std::borrow::Cow<'r, str>) {
        use std::borrow::Cow;
        // The default location is shared; a record with a folder of its own
        // gets one.
        let own;
        let location = match &record.cwd {
            Some(cwd) => {
                own = Location {
                    cwd: Some(cwd.clone()),
                    home: self.default.home.clone(),
                };
                &own
            }
            None => &self.default,
        };
        let laws = self.folders.laws_for(&location.cwd);
        let mode = self.mode;
        let (shown, decision) = match &record.kind {
            Kind::Command(command) | Kind::Typed(command) => (
                Cow::Borrowed(command.as_str()),
                self.memo.decide(&location.cwd, command, || {
                    judge_command(command, location, laws, mode)
                }),
            ),
            Kind::Edit { tool, path } => (
                Cow::Owned(format!("{tool} {path}")),
                Rc::new(engine::evaluate_edit(edit_kind(tool), path, location, laws)),
            ),
            Kind::Search { tool, path, glob } => (
                Cow::Owned(match glob {
                    Some(glob) => {
                        format!("{tool} {} --glob {glob}", path.as_deref().unwrap_or("."))
                    }
                    None => format!("{tool} {}", path.as_deref().unwrap_or(".")),
                }),
                Rc::new(engine::evaluate_search(
                    path.as_deref(),
                    glob.as_deref(),
                    location,
                    laws,
                )),
            ),
            Kind::Broken(why) => match &record.salvage {
                None => (Cow::Borrowed(""), Rc::new(unreadable(record.line, why))),
                Some(texts) => (
                    Cow::Owned(texts.join("\n")),
                    Rc::new(unjudged(record.line, why, texts, location, laws)),
                ),
            },
        };
        self.count(file, record, &decision, &shown);
        (decision, shown)
    }

    fn count(&mut self, file: &str, record: &Record, decision: &Decision, shown: &str) {
        let summary = &mut self.summary;
        let top = &decision.top;
        let listed = || Listed {
            file: file.to_string(),
            line: record.line,
            timestamp: record.timestamp.clone(),
            verdict: decision.verdict(),
            rule: top.rule.to_string(),
            command: crate::limits::clip(shown, 200).to_string(),
        };
        if let Kind::Broken(why) = &record.kind {
            summary.broken += 1;
            if summary.unreadable.len() < MAX_LISTED {
                summary.unreadable.push(Listed {
                    command: why.clone(),
                    ..listed()
                });
            }
            if record.salvage.is_some() {
                *tally_mut(&mut summary.unjudged, decision.verdict()) += 1;
                if summary.unjudged_lines.len() < MAX_LISTED {
                    summary.unjudged_lines.push(Listed {
                        command: crate::limits::clip(
                            &format!("{why}; read as: {}", shown.replace('\n', "\\n")),
                            200,
                        )
                        .to_string(),
                        ..listed()
                    });
                }
            }
            return;
        }
        if matches!(record.kind, Kind::Typed(_)) {
            summary.typed += 1;
        }
        *tally_mut(&mut summary.counts, decision.verdict()) += 1;
        if let Some(count) = summary.rules.get_mut(&top.rule) {
            *count += 1;
        } else if summary.rules.len() < MAX_DISTINCT {
            summary.rules.insert(top.rule.clone(), 1);
        }
        if decision.verdict() == Verdict::Blocked && summary.blocked.len() < MAX_LISTED {
            summary.blocked.push(listed());
        }
        if top.rule.family() == Family::Parse && summary.unparsable.len() < MAX_LISTED {
            summary.unparsable.push(listed());
        }
        for finding in decision
            .findings
            .iter()
            .filter(|f| f.rule == Rule::UnknownVerb)
        {
            let verb = finding.reason.split(' ').next().unwrap_or("").to_string();
            if summary.unknown_verbs.len() < MAX_DISTINCT
                || summary.unknown_verbs.contains_key(&verb)
            {
                *summary.unknown_verbs.entry(verb).or_default() += 1;
            }
        }
    }
}

/// Which edit-tool request a file tool makes: `Read` reads, the others
/// (`Write`, `Edit`, `MultiEdit`, `NotebookEdit`) write.
fn edit_kind(tool: &str) -> EditKind {
    if tool.eq_ignore_ascii_case("read") {
        EditKind::Read
    } else {
        EditKind::Write
    }
}

/// Judges a command. A command of several lines that does not parse as a
/// whole (a history entry joined wrongly, a quote left open) is also judged
/// line by line, and the strictest finding wins: a line of it is never
/// hidden inside a string that was never closed.
fn judge_command(
    command: &str,
    location: &Location,
    laws: &mut Laws,
    mode: engine::PermissionMode,
) -> Decision {
    let decision = engine::evaluate_in_mode(command, location, laws, mode);
    if !command.contains('\n') || decision.top.rule.family() != Family::Parse {
        return decision;
    }
    let mut findings = decision.findings;
    for line in command.lines().filter(|l| !l.trim().is_empty()).take(1_000) {
        findings.extend(engine::evaluate_in_mode(line, location, laws, mode).findings);
    }
    Decision::from_findings(findings, command)
}

/// A line that could not be read but may hold a command: SIGNED
/// `parse.encoding` with its line, or stricter when what could be read of
/// it (`texts`) is judged stricter on its own.
fn unjudged(
    line: usize,
    why: &str,
    texts: &[String],
    location: &Location,
    laws: &mut Laws,
) -> Decision {
    let mut findings = unreadable(
        line,
        &format!(
            "{why}; it may hold a command that was not judged as written ({} text{} read from it judged on {})",
            texts.len(),
            if texts.len() == 1 { "" } else { "s" },
            if texts.len() == 1 { "its own" } else { "their own" },
        ),
    )
    .findings;
    // In the default mode: the line stays at least SIGNED whatever the
    // mode, and its pieces are judged as strictly as they come.
    for text in texts {
        findings
            .extend(judge_command(text, location, laws, engine::PermissionMode::Default).findings);
    }
    Decision::from_findings(findings, "")
}

/// A line that could not be read: SIGNED `parse.encoding`, with its line.
pub fn unreadable(line: usize, why: &str) -> Decision {
    Decision::from_findings(
        vec![Finding {
            verdict: Verdict::Signed,
            rule: Rule::ParseEncoding.into(),
            reason: format!("line {line} {why}"),
            remediation:
                "Fix the line: one command per line, UTF-8, JSON where the format is JSONL.".into(),
            part: String::new(),
        }],
        "",
    )
}

/// Appends the JSON row of one replayed record (`--json`) to `out`, without
/// its newline: the keys in sorted order, as a `serde_json` map prints
/// them, written straight from the decision (a replay writes one a
/// command, so no `Value` is built).
pub fn write_row(out: &mut Vec<u8>, decision: &Decision, shown: &str, file: &str, record: &Record) {
    let top = &decision.top;
    let rule = top.rule.to_string();
    let cwd = record.cwd.as_ref().map(|c| c.to_string_lossy());
    let tool = match &record.kind {
        Kind::Edit { tool, .. } | Kind::Search { tool, .. } => Some(tool.as_str()),
        _ => None,
    };
    let broken = matches!(record.kind, Kind::Broken(_));
    let mut fields = RowWriter { out, first: true };
    fields.text("command", Some(shown));
    fields.text("cwd", cwd.as_deref());
    fields.text("file", Some(file));
    fields.raw("line", Some(&record.line.to_string()));
    fields.text("reason", Some(&top.reason));
    fields.text("remediation", Some(&top.remediation));
    fields.text("rule", Some(&rule));
    fields.text("session", record.session.as_deref());
    fields.text("timestamp", record.timestamp.as_deref());
    fields.text("tool", tool);
    fields.raw(
        "typed",
        matches!(record.kind, Kind::Typed(_)).then_some("true"),
    );
    fields.raw(
        "unjudged",
        (broken && record.salvage.is_some()).then_some("true"),
    );
    fields.raw("unreadable", broken.then_some("true"));
    fields.text("verdict", Some(top.verdict.as_str()));
    fields.out.push(b'}');
}

/// Writes `"key":value` pairs of one JSON object, skipping absent ones.
struct RowWriter<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl RowWriter<'_> {
    fn key(&mut self, key: &str) {
        self.out.push(if self.first { b'{' } else { b',' });
        self.first = false;
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\":");
    }

    /// A string value, escaped by `serde_json` (writing to a `Vec` cannot
    /// fail).
    fn text(&mut self, key: &str, value: Option<&str>) {
        if let Some(value) = value {
            self.key(key);
            let _ = serde_json::to_writer(&mut *self.out, value);
        }
    }

    /// A value already in JSON (a number, `true`).
    fn raw(&mut self, key: &str, value: Option<&str>) {
        if let Some(value) = value {
            self.key(key);
            self.out.extend_from_slice(value.as_bytes());
        }
    }
}

fn top<K: std::fmt::Display>(counts: &HashMap<K, usize>, n: usize) -> Vec<(String, usize)> {
    let mut all: Vec<(String, usize)> = counts.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    all.truncate(n);
    all
}

/// Adds `from`'s counts to `into`, keeping at most [`MAX_DISTINCT`] keys.
fn absorb_counts<K: std::hash::Hash + Eq>(into: &mut HashMap<K, usize>, from: HashMap<K, usize>) {
    for (key, n) in from {
        if into.len() < MAX_DISTINCT || into.contains_key(&key) {
            *into.entry(key).or_default() += n;
        }
    }
}

impl Summary {
    /// Commands judged (typed ones included, unreadable lines not).
    pub fn total(&self) -> usize {
        self.counts.iter().sum()
    }

    /// The summary as one screen of text.
    pub fn text(&self) -> String {
        let total = self.total();
        let share = |n: usize| {
            if total == 0 {
                0.0
            } else {
                100.0 * n as f64 / total as f64
            }
        };
        let mut out = format!(
            "{total} commands read ({} typed by the person, never passed a hook); {} lines unreadable, {} of them may hold a command that was not judged\n",
            self.typed,
            self.broken,
            self.unjudged_count()
        );
        for verdict in [
            Verdict::Free,
            Verdict::Signed,
            Verdict::Blocked,
            Verdict::Unknown,
        ] {
            let n = tally(&self.counts, verdict);
            out.push_str(&format!(
                "  {:<8}{n:>9}  {:5.1}%\n",
                verdict.as_str(),
                share(n)
            ));
        }
        out.push_str("\nrules that decided most:\n");
        for (rule, n) in top(&self.rules, 10) {
            out.push_str(&format!("  {n:>9}  {rule}\n"));
        }
        let blocked = tally(&self.counts, Verdict::Blocked);
        out.push_str(&format!("\nBLOCKED ({blocked}):\n"));
        for b in &self.blocked {
            let when = b
                .timestamp
                .as_deref()
                .map(|t| format!(" {t}"))
                .unwrap_or_default();
            out.push_str(&format!(
                "  {}:{}{when}  {}  {}\n",
                b.file,
                b.line,
                b.rule,
                b.command.replace('\n', "\\n")
            ));
        }
        if blocked > self.blocked.len() {
            out.push_str(&format!(
                "  … and {} more (--json lists every one)\n",
                blocked - self.blocked.len()
            ));
        }
        out.push_str("\nverbs the lexicon does not know (the to-do list for rules/):\n");
        let verbs = top(&self.unknown_verbs, 15);
        if verbs.is_empty() {
            out.push_str("  (none)\n");
        }
        for (verb, n) in verbs {
            out.push_str(&format!("  {n:>9}  {verb}\n"));
        }
        out.push_str(&format!(
            "\ncould not be parsed ({}):\n",
            self.unparsable.len()
        ));
        for u in self.unparsable.iter().take(20) {
            out.push_str(&format!(
                "  {}:{}  {}  {}\n",
                u.file,
                u.line,
                u.rule,
                crate::limits::clip(&u.command.replace('\n', "\\n"), 100)
            ));
        }
        if !self.unreadable.is_empty() {
            out.push_str(&format!("\nunreadable lines ({}):\n", self.broken));
            for u in self.unreadable.iter().take(20) {
                out.push_str(&format!("  {}:{}  {}\n", u.file, u.line, u.command));
            }
        }
        let unjudged = self.unjudged_count();
        if unjudged > 0 {
            out.push_str(&format!(
                "\nlines that may hold a command that was not judged ({unjudged}; --fail-on counts each at least SIGNED, and BLOCKED when what could be read of it is):\n"
            ));
            for u in self.unjudged_lines.iter().take(50) {
                out.push_str(&format!(
                    "  {}:{}  {} {}  {}\n",
                    u.file, u.line, u.verdict, u.rule, u.command
                ));
            }
            if unjudged > self.unjudged_lines.len().min(50) {
                out.push_str(&format!(
                    "  … and {} more (--summary-json lists up to {MAX_LISTED})\n",
                    unjudged - self.unjudged_lines.len().min(50)
                ));
            }
        }
        out
    }

    /// Lines that may hold a command that was not judged.
    pub fn unjudged_count(&self) -> usize {
        self.unjudged.iter().sum()
    }

    /// Whether anything reached `floor` (`--fail-on`): a judged command, or
    /// a line that may hold a command that was not judged, counted at the
    /// verdict of what could be read of it and at least SIGNED.
    pub fn reaches(&self, floor: Verdict) -> bool {
        [Verdict::Signed, Verdict::Blocked]
            .iter()
            .any(|v| *v >= floor && (tally(&self.counts, *v) > 0 || tally(&self.unjudged, *v) > 0))
    }

    /// The summary as one JSON object (`--summary-json`).
    pub fn json(&self) -> Value {
        let listed = |items: &[Listed]| -> Vec<Value> {
            items
                .iter()
                .map(|l| json!({"file": l.file, "line": l.line, "timestamp": l.timestamp, "verdict": l.verdict.as_str(), "rule": l.rule, "command": l.command}))
                .collect()
        };
        json!({
            "commands": self.total(),
            "typed": self.typed,
            "unreadable": self.broken,
            "unjudged": self.unjudged_count(),
            "unjudged_verdicts": {
                "SIGNED": tally(&self.unjudged, Verdict::Signed),
                "BLOCKED": tally(&self.unjudged, Verdict::Blocked),
            },
            "verdicts": {
                "FREE": tally(&self.counts, Verdict::Free),
                "SIGNED": tally(&self.counts, Verdict::Signed),
                "BLOCKED": tally(&self.counts, Verdict::Blocked),
                "UNKNOWN": tally(&self.counts, Verdict::Unknown),
            },
            "rules": top(&self.rules, 50).into_iter().map(|(r, n)| json!({"rule": r, "count": n})).collect::<Vec<_>>(),
            "unknown_verbs": top(&self.unknown_verbs, 50).into_iter().map(|(v, n)| json!({"verb": v, "count": n})).collect::<Vec<_>>(),
            "blocked": listed(&self.blocked),
            "unparsable": listed(&self.unparsable),
            "unreadable_lines": listed(&self.unreadable),
            "unjudged_lines": listed(&self.unjudged_lines),
        })
    }
}

impl Summary {
    /// Adds another summary's counts and lists (in order) to this one.
    pub fn absorb(&mut self, other: Summary) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            *mine += theirs;
        }
        self.typed += other.typed;
        self.broken += other.broken;
        for (mine, theirs) in self.unjudged.iter_mut().zip(other.unjudged) {
            *mine += theirs;
        }
        absorb_counts(&mut self.rules, other.rules);
        absorb_counts(&mut self.unknown_verbs, other.unknown_verbs);
        for (list, from) in [
            (&mut self.blocked, other.blocked),
            (&mut self.unparsable, other.unparsable),
            (&mut self.unreadable, other.unreadable),
            (&mut self.unjudged_lines, other.unjudged_lines),
        ] {
            let room = MAX_LISTED.saturating_sub(list.len());
            list.extend(from.into_iter().take(room));
        }
    }
}

/// The count of `verdict` in a tally by verdict ([`Summary::counts`],
/// [`Summary::unjudged`]), whose slots follow `Verdict`'s order.
fn tally(counts: &[usize; 4], verdict: Verdict) -> usize {
    let [free, unknown, signed, blocked] = *counts;
    match verdict {
        Verdict::Free => free,
        Verdict::Unknown => unknown,
        Verdict::Signed => signed,
        Verdict::Blocked => blocked,
    }
}

/// The slot of `verdict` in a tally by verdict, to count one more.
fn tally_mut(counts: &mut [usize; 4], verdict: Verdict) -> &mut usize {
    let [free, unknown, signed, blocked] = counts;
    match verdict {
        Verdict::Free => free,
        Verdict::Unknown => unknown,
        Verdict::Signed => signed,
        Verdict::Blocked => blocked,
    }
}

/// Records judged together by one worker.
const CHUNK: usize = 256;

/// A history to replay: its name and, once opened, its format and reader.
pub type Opened = (history::Format, Box<dyn std::io::BufRead + Send>);

/// Replays `sources` on `workers` threads: one reads records and hands
/// them out in chunks, the workers judge them (each with its own laws), and
/// one writes the `--json` rows in input order and adds up the summary.
/// Chunks in flight are bounded, so memory does not grow with the input.
/// With one worker, everything runs on the calling thread, one record at a
/// time. `progress` is called with the bytes of input read so far.
pub fn run(
    sources: &[String],
    open: impl Fn(&str) -> std::io::Result<Opened>,
    context: &Context,
    json: bool,
    workers: usize,
    out: &mut (dyn std::io::Write + Send),
    progress: impl FnMut(usize),
) -> std::io::Result<Summary> {
    if workers <= 1 {
        return run_here(sources, open, context, json, out, progress);
    }
    run_on_threads(sources, open, context, json, workers, out, progress)
}

/// [`run`] on the calling thread: read a record, judge it, write its row.
fn run_here(
    sources: &[String],
    open: impl Fn(&str) -> std::io::Result<Opened>,
    context: &Context,
    json: bool,
    out: &mut (dyn std::io::Write + Send),
    mut progress: impl FnMut(usize),
) -> std::io::Result<Summary> {
    let mut replay = Replay::new(context.clone());
    let bytes_read = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut failed: Option<std::io::Error> = None;
    let mut row_text: Vec<u8> = Vec::new();
    for source in sources {
        let (format, reader) = open(source)?;
        let counted = CountingReader {
            inner: reader,
            bytes: std::sync::Arc::clone(&bytes_read),
        };
        let mut seen = 0usize;
        history::read(format, counted, |record| {
            if failed.is_some() {
                return;
            }
            let (decision, shown) = replay.judge(source, &record);
            if json {
                row_text.clear();
                write_row(&mut row_text, &decision, &shown, source, &record);
                row_text.push(b'\n');
                if let Err(e) = out.write_all(&row_text) {
                    failed = Some(e);
                }
            }
            seen += 1;
            if seen.is_multiple_of(CHUNK) {
                progress(bytes_read.load(std::sync::atomic::Ordering::Relaxed));
            }
        })?;
        progress(bytes_read.load(std::sync::atomic::Ordering::Relaxed));
        if let Some(e) = failed {
            return Err(e);
        }
    }
    out.flush()?;
    Ok(replay.summary)
}

/// [`run`] with a reader, `workers` judges and a writer on threads.
fn run_on_threads(
    sources: &[String],
    open: impl Fn(&str) -> std::io::Result<Opened>,
    context: &Context,
    json: bool,
    workers: usize,
    out: &mut (dyn std::io::Write + Send),
    mut progress: impl FnMut(usize),
) -> std::io::Result<Summary> {
    use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
    use std::sync::{Arc, Mutex};
    type Chunk = (usize, Arc<str>, Vec<Record>);
    type Done = (usize, Vec<u8>, Summary);
    let workers = workers.max(1);
    let (work_tx, work_rx): (SyncSender<Chunk>, Receiver<Chunk>) = sync_channel(workers * 2);
    let work_rx = Arc::new(Mutex::new(work_rx));
    let (done_tx, done_rx): (SyncSender<Done>, Receiver<Done>) = sync_channel(workers * 4);
    std::thread::scope(|scope| -> std::io::Result<Summary> {
        for _ in 0..workers {
            let work_rx = Arc::clone(&work_rx);
            let done_tx = done_tx.clone();
            let context = context.clone();
            // Each worker has an alternate signal stack, so a fault on it
            // is caught as one on the main thread is (exit 2).
            scope.spawn(move || {
                crate::signal_stack::with_alternate_stack(|| {
                    let mut replay = Replay::new(context);
                    loop {
                        let next = work_rx.lock().map(|rx| rx.recv());
                        let Ok(Ok((seq, file, records))) = next else {
                            break;
                        };
                        let mut rows: Vec<u8> = Vec::new();
                        for record in &records {
                            let (decision, shown) = replay.judge(&file, record);
                            if json {
                                write_row(&mut rows, &decision, &shown, &file, record);
                                rows.push(b'\n');
                            }
                        }
                        let summary = std::mem::take(&mut replay.summary);
                        if done_tx.send((seq, rows, summary)).is_err() {
                            break;
                        }
                    }
                })
            });
        }
        drop(done_tx);
        // The writer: rows in input order, summaries added in order.
        let writer = scope.spawn(move || -> std::io::Result<Summary> {
            let mut total = Summary::default();
            let mut waiting: std::collections::BTreeMap<usize, (Vec<u8>, Summary)> =
                std::collections::BTreeMap::new();
            let mut next = 0;
            let mut failed: Option<std::io::Error> = None;
            for (seq, rows, summary) in done_rx {
                waiting.insert(seq, (rows, summary));
                while let Some((rows, summary)) = waiting.remove(&next) {
                    if failed.is_none()
                        && let Err(e) = out.write_all(&rows)
                    {
                        failed = Some(e);
                    }
                    total.absorb(summary);
                    next += 1;
                }
            }
            match failed {
                Some(e) => Err(e),
                None => out.flush().map(|()| total),
            }
        });
        let mut seq = 0;
        let mut read_error: Option<std::io::Error> = None;
        let bytes_read = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        'sources: for source in sources {
            let (format, reader) = match open(source) {
                Ok(opened) => opened,
                Err(e) => {
                    read_error = Some(e);
                    break;
                }
            };
            let file: Arc<str> = Arc::from(source.as_str());
            let mut chunk = Vec::with_capacity(CHUNK);
            let counted = CountingReader {
                inner: reader,
                bytes: Arc::clone(&bytes_read),
            };
            let mut stopped = false;
            let result = history::read(format, counted, |record| {
                if stopped {
                    return;
                }
                chunk.push(record);
                if chunk.len() == CHUNK {
                    let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK));
                    if work_tx.send((seq, Arc::clone(&file), full)).is_err() {
                        stopped = true;
                    }
                    seq += 1;
                    progress(bytes_read.load(std::sync::atomic::Ordering::Relaxed));
                }
            });
            progress(bytes_read.load(std::sync::atomic::Ordering::Relaxed));
            if !chunk.is_empty() && work_tx.send((seq, Arc::clone(&file), chunk)).is_ok() {
                seq += 1;
            }
            if let Err(e) = result {
                read_error = Some(e);
                break 'sources;
            }
        }
        drop(work_tx);
        let summary = writer
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("the replay writer stopped")));
        match read_error {
            Some(e) => Err(e),
            None => summary,
        }
    })
}

/// A reader that counts the bytes read through it (for progress).
struct CountingReader<R> {
    inner: R,
    bytes: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl<R: std::io::BufRead> std::io::Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes
            .fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: std::io::BufRead> std::io::BufRead for CountingReader<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amount: usize) {
        self.bytes
            .fetch_add(amount, std::sync::atomic::Ordering::Relaxed);
        self.inner.consume(amount);
    }
}

/// The inputs of `portcullis replay SOURCE…`: each source as it is given
/// (a file, or `-` for stdin), except that a folder stands for every
/// `.jsonl` file under it (eight levels deep at most, a folder of Claude
/// Code transcripts such as `~/.claude/projects`), in sorted order.
/// Returns the list in the order the sources were given.
pub fn inputs(sources: &[String]) -> Vec<String> {
    let mut inputs = Vec::new();
    for source in sources {
        let path = std::path::Path::new(source);
        if source != "-" && path.is_dir() {
            let mut found = Vec::new();
            transcripts_under(path, 0, &mut found);
            found.sort();
            inputs.extend(found.into_iter().map(|p| p.to_string_lossy().into_owned()));
        } else {
            inputs.push(source.clone());
        }
    }
    inputs
}

/// Adds every `.jsonl` file under `dir` to `found`, descending into
/// folders while `depth` is below eight; an unreadable folder adds nothing.
fn transcripts_under(dir: &std::path::Path, depth: usize, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(kind) if kind.is_dir() && depth < 8 => transcripts_under(&path, depth + 1, found),
            Ok(kind) if kind.is_file() && path.extension().is_some_and(|e| e == "jsonl") => {
                found.push(path)
            }
            _ => {}
        }
    }
}

/// Opens one input of [`inputs`] for [`run`]: `-` is stdin, anything else
/// a file. Returns its format (`forced`, or detected from its name and
/// head) and a buffered reader, or the error of opening it, naming it.
pub fn open(source: &str, forced: Option<history::Format>) -> std::io::Result<Opened> {
    let reader: Box<dyn std::io::Read + Send> = if source == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(
            std::fs::File::open(source)
                .map_err(|e| std::io::Error::new(e.kind(), format!("cannot open {source}: {e}")))?,
        )
    };
    let reader = std::io::BufReader::with_capacity(64 * 1024, reader);
    let path = (source != "-").then(|| std::path::Path::new(source));
    history::open(path, reader, forced)
}

/// The bytes `inputs` hold together, when every one is a file whose size
/// can be read (for a progress bar); `None` when one is stdin or cannot be
/// read.
pub fn total_bytes(inputs: &[String]) -> Option<u64> {
    inputs
        .iter()
        .map(|s| {
            (s != "-")
                .then(|| std::fs::metadata(s).ok().map(|m| m.len()))
                .flatten()
        })
        .sum()
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::write_row;
    use crate::history::{Kind, Record};
    use crate::rule_id::Rule;
    use crate::verdict::{Decision, Finding, Verdict};

    #[test]
    fn a_row_is_one_json_object_with_sorted_keys() {
        let command = "printf 'a\"b\\\\c\\n\u{1b}[0m ☃'";
        let decision = Decision::from_findings(
            vec![Finding {
                verdict: Verdict::Signed,
                rule: Rule::ParseEncoding.into(),
                reason: "a \"quoted\"\treason".into(),
                remediation: String::new(),
                part: String::new(),
            }],
            command,
        );
        let record = Record {
            line: 7,
            kind: Kind::Typed(command.into()),
            timestamp: None,
            session: Some("s\u{0}1".into()),
            cwd: None,
            salvage: None,
        };
        let mut row = Vec::new();
        write_row(&mut row, &decision, command, "h.jsonl", &record);
        let value: serde_json::Value = serde_json::from_slice(&row).expect("one JSON object");
        assert_eq!(value["command"], command);
        assert_eq!(value["reason"], "a \"quoted\"\treason");
        assert_eq!(value["session"], "s\u{0}1");
        assert_eq!(value["line"], 7);
        assert_eq!(value["typed"], true);
        assert_eq!(value["verdict"], "SIGNED");
        // The same bytes a serde_json map (sorted keys) prints.
        assert_eq!(row, value.to_string().into_bytes());
    }
}
