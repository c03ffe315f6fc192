//! The `portcullis` command: argument parsing and I/O only. Every decision
//! is made by the library (`portcullis::evaluate`).
//!
//! Exit codes: `hook` 0 (decision on stdout, or none) or 2 (bad input:
//! Claude Code blocks); `check` 0/10/20/30 for FREE/SIGNED/BLOCKED/UNKNOWN;
//! 2 for a usage or input error everywhere.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use portcullis::hook::{self, HookOptions, ToolCall};
use portcullis::{Location, Verdict, history, limits, render, rules};
use std::io::{self, BufRead, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage:
  portcullis hook [--host claude|opencode] [--free allow|defer] [--unknown defer|ask]
  portcullis check [--json] [--cwd DIR] -- COMMAND
  portcullis explain [--tree] [--cwd DIR] -- COMMAND
  portcullis replay [--format auto|lines|jsonl|sessions|bash|zsh|fish|claude] [--json] [--cwd DIR] FILE…|DIR|-
  portcullis policy [--json] [DIR]
  portcullis rules [--verbs]";

/// A usage or input error: one line on stderr, exit 2.
struct CliError(String);

/// Prints a line to stdout; a closed pipe (`portcullis check … | head -1`)
/// is not an error worth more than the verdict's exit code.
macro_rules! out {
    ($($arg:tt)*) => {{
        let _ = writeln!(io::stdout(), $($arg)*);
    }};
}

fn main() -> ExitCode {
    // Fail closed: an internal panic must never surface as an exit code the
    // host reads as "no opinion" (Claude Code runs the tool on any code but
    // 0 and 2). One line on stderr, exit 2.
    std::panic::set_hook(Box::new(|info| {
        let location = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("portcullis: internal error{location}; blocking to be safe");
    }));
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    match std::panic::catch_unwind(|| run(&args)) {
        Ok(Ok(code)) => ExitCode::from(code),
        Ok(Err(CliError(message))) => {
            eprintln!("portcullis: {message}");
            ExitCode::from(2)
        }
        Err(_) => ExitCode::from(2),
    }
}

fn run(args: &[String]) -> Result<u8, CliError> {
    let Some((command, rest)) = args.split_first() else {
        return Err(CliError(format!("no command given\n{USAGE}")));
    };
    match command.as_str() {
        "hook" => hook_command(rest),
        "check" => check_command(rest),
        "explain" => explain_command(rest),
        "replay" => replay_command(rest),
        "rules" => rules_command(rest),
        "policy" => policy_command(rest),
        "-h" | "--help" | "help" => {
            out!("{USAGE}");
            Ok(0)
        }
        "-V" | "--version" => {
            out!("portcullis {}", env!("CARGO_PKG_VERSION"));
            Ok(0)
        }
        other => Err(CliError(format!("unknown command `{other}`\n{USAGE}"))),
    }
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// Options shared by `check`, `explain` and `replay`, and the words after `--`.
struct Common {
    json: bool,
    tree: bool,
    cwd: Option<PathBuf>,
    format: String,
    positional: Vec<String>,
}

fn parse_common(args: &[String], allow: &[&str]) -> Result<Common, CliError> {
    let mut common = Common {
        json: false,
        tree: false,
        cwd: None,
        format: "auto".into(),
        positional: Vec::new(),
    };
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        let value = |i: usize| {
            args.get(i + 1)
                .cloned()
                .ok_or_else(|| CliError(format!("{arg} needs a value")))
        };
        match arg {
            "--" => {
                common.positional.extend(args[i + 1..].iter().cloned());
                break;
            }
            "--json" if allow.contains(&"--json") => common.json = true,
            "--tree" if allow.contains(&"--tree") => common.tree = true,
            "--cwd" => {
                common.cwd = Some(PathBuf::from(value(i)?));
                i += 1;
            }
            "--format" if allow.contains(&"--format") => {
                common.format = value(i)?;
                i += 1;
            }
            "-" => common.positional.push(arg.to_string()),
            a if a.starts_with('-') => {
                return Err(CliError(format!("unknown option `{a}`\n{USAGE}")));
            }
            a => common.positional.push(a.to_string()),
        }
        i += 1;
    }
    Ok(common)
}

fn location(cwd: Option<PathBuf>) -> Location {
    Location {
        cwd: cwd.or_else(|| std::env::current_dir().ok()),
        home: home(),
    }
}

fn hook_command(args: &[String]) -> Result<u8, CliError> {
    let mut options = HookOptions::default();
    let mut opencode = false;
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).map(String::as_str);
        match (args[i].as_str(), value) {
            ("--host", Some("claude" | "claude-code")) => opencode = false,
            ("--host", Some("opencode")) => opencode = true,
            ("--free", Some("allow")) => options.free_allows = true,
            ("--free", Some("defer")) => options.free_allows = false,
            ("--unknown", Some("defer")) => options.unknown_asks = false,
            ("--unknown", Some("ask")) => options.unknown_asks = true,
            (flag, value) => {
                return Err(CliError(format!(
                    "bad hook option `{flag} {}`\n{USAGE}",
                    value.unwrap_or("")
                )));
            }
        }
        i += 2;
    }
    let mut input = Vec::new();
    io::stdin()
        .take(limits::MAX_STDIN_BYTES as u64 + 1)
        .read_to_end(&mut input)
        .map_err(|e| CliError(format!("cannot read stdin: {e}")))?;
    let mut request = hook::parse_request(&input, home()).map_err(|e| CliError(e.to_string()))?;
    // Claude Code runs hooks in the session's folder: without a `cwd` field
    // (older hosts), that folder is the best answer.
    if request.location.cwd.is_none() {
        request.location.cwd = std::env::current_dir().ok();
    }
    let mut laws = portcullis::law::Laws::new(request.location.cwd.as_deref());
    let (decision, file_tool) = match &request.call {
        ToolCall::Bash { command } => (
            portcullis::engine::evaluate_in(command, &request.location, &mut laws),
            false,
        ),
        ToolCall::File { kind, path, .. } => (
            portcullis::engine::evaluate_edit(*kind, path, &request.location, &mut laws),
            true,
        ),
        ToolCall::Other { .. } => return Ok(0),
    };
    let output = if opencode {
        Some(hook::opencode_output(&decision))
    } else if file_tool && decision.verdict() == Verdict::Free {
        // A file the law allows: the host decides as usual.
        None
    } else {
        hook::claude_output(&decision, options)
    };
    if let Some(output) = output {
        let mut stdout = io::stdout().lock();
        writeln!(stdout, "{output}").map_err(|e| CliError(format!("cannot write stdout: {e}")))?;
    }
    Ok(0)
}

fn one_command(common: &Common) -> Result<String, CliError> {
    if common.positional.is_empty() {
        return Err(CliError(format!("no command to check\n{USAGE}")));
    }
    Ok(common.positional.join(" "))
}

fn check_command(args: &[String]) -> Result<u8, CliError> {
    let common = parse_common(args, &["--json"])?;
    let command = one_command(&common)?;
    let decision = portcullis::evaluate(&command, &location(common.cwd.clone()));
    if common.json {
        out!("{}", render::json_object(&decision, None));
    } else {
        out!("{}", render::human_line(&decision));
    }
    Ok(decision.verdict().exit_code())
}

fn explain_command(args: &[String]) -> Result<u8, CliError> {
    let common = parse_common(args, &["--tree"])?;
    let command = one_command(&common)?;
    if common.tree {
        print!("{}", portcullis::shell::parse::dump_tree(&command));
    }
    let (decision, trace) = portcullis::explain(&command, &location(common.cwd.clone()));
    out!("steps:");
    for line in &trace {
        out!("  {line}");
    }
    out!("findings:");
    for f in &decision.findings {
        out!(
            "  {} {}: {} [in `{}`]",
            f.verdict,
            f.rule,
            f.reason,
            limits::clip(&f.part, 100)
        );
    }
    out!("decision: {}", render::human_line(&decision));
    Ok(decision.verdict().exit_code())
}

fn replay_command(args: &[String]) -> Result<u8, CliError> {
    let common = parse_common(args, &["--json", "--format"])?;
    let forced = match common.format.as_str() {
        "auto" => None,
        name => Some(history::Format::named(name).ok_or_else(|| {
            CliError(format!(
                "replay format `{name}` is not known; use auto, lines, jsonl, sessions, bash, zsh, fish or claude"
            ))
        })?),
    };
    if common.positional.is_empty() {
        return Err(CliError(format!(
            "replay takes FILE…, a folder or -\n{USAGE}"
        )));
    }
    let mut inputs: Vec<String> = Vec::new();
    for source in &common.positional {
        let path = std::path::Path::new(source);
        if source != "-" && path.is_dir() {
            // A folder of transcripts (`~/.claude/projects`): every `.jsonl`.
            let mut found = Vec::new();
            transcripts_under(path, 0, &mut found);
            found.sort();
            inputs.extend(found.into_iter().map(|p| p.to_string_lossy().into_owned()));
        } else {
            inputs.push(source.clone());
        }
    }
    let mut replay = Replay {
        json: common.json,
        default: location(common.cwd.clone()),
        laws: std::collections::HashMap::new(),
        counts: [0; 4],
        typed: 0,
        broken: 0,
        out: io::BufWriter::new(io::stdout().lock()),
        error: None,
    };
    for source in &inputs {
        let reader: Box<dyn Read> = if source == "-" {
            Box::new(io::stdin())
        } else {
            Box::new(
                std::fs::File::open(source)
                    .map_err(|e| CliError(format!("cannot open {source}: {e}")))?,
            )
        };
        let mut reader = io::BufReader::with_capacity(64 * 1024, reader);
        let head = reader
            .fill_buf()
            .map_err(|e| CliError(format!("cannot read {source}: {e}")))?
            .to_vec();
        let path = (source != "-").then(|| std::path::Path::new(source));
        let format = forced.unwrap_or_else(|| history::detect(path, &head));
        history::read(format, reader, |record| replay.record(source, record))
            .map_err(|e| CliError(format!("cannot read {source}: {e}")))?;
        if let Some(e) = replay.error.take() {
            return Err(CliError(format!("cannot write stdout: {e}")));
        }
    }
    replay.finish()
}

/// Every `.jsonl` file under a folder (eight levels deep at most).
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

/// One replay run: where decisions go and what they add up to.
struct Replay<W: Write> {
    json: bool,
    default: Location,
    /// The path law of each working folder, read once.
    laws: std::collections::HashMap<Option<PathBuf>, portcullis::law::Laws>,
    counts: [usize; 4],
    typed: usize,
    broken: usize,
    out: W,
    error: Option<io::Error>,
}

impl<W: Write> Replay<W> {
    /// Judges one record and writes its line.
    fn record(&mut self, source: &str, record: history::Record) {
        if self.error.is_some() {
            return;
        }
        let location = Location {
            cwd: record.cwd.clone().or_else(|| self.default.cwd.clone()),
            home: self.default.home.clone(),
        };
        let laws = self
            .laws
            .entry(location.cwd.clone())
            .or_insert_with(|| portcullis::law::Laws::new(location.cwd.as_deref()));
        let (shown, decision, extra) = match &record.kind {
            history::Kind::Command(command) => (
                command.clone(),
                portcullis::engine::evaluate_in(command, &location, laws),
                None,
            ),
            history::Kind::Typed(command) => {
                self.typed += 1;
                (
                    command.clone(),
                    portcullis::engine::evaluate_in(command, &location, laws),
                    Some(("typed", serde_json::Value::Bool(true))),
                )
            }
            history::Kind::Edit { tool, path } => (
                format!("{tool} {path}"),
                portcullis::engine::evaluate_edit(
                    portcullis::engine::EditKind::Write,
                    path,
                    &location,
                    laws,
                ),
                Some(("tool", serde_json::Value::String(tool.clone()))),
            ),
            history::Kind::Broken(why) => {
                self.broken += 1;
                (String::new(), unreadable_line(record.line, why), None)
            }
        };
        self.counts[decision.verdict() as usize] += 1;
        let written = if self.json {
            let mut value = render::json_object(&decision, Some(&shown));
            if let Some(map) = value.as_object_mut() {
                map.insert("file".into(), source.into());
                map.insert("line".into(), record.line.into());
                for (key, field) in [
                    ("session", &record.session),
                    ("timestamp", &record.timestamp),
                ] {
                    if let Some(text) = field {
                        map.insert(key.into(), text.clone().into());
                    }
                }
                if let Some(cwd) = &record.cwd {
                    map.insert("cwd".into(), cwd.to_string_lossy().into_owned().into());
                }
                if let Some((key, field)) = extra {
                    map.insert(key.into(), field);
                }
            }
            writeln!(self.out, "{value}")
        } else {
            let top = &decision.top;
            let typed = if matches!(record.kind, history::Kind::Typed(_)) {
                "[typed by the person] "
            } else {
                ""
            };
            // One line a command: newlines inside it are shown as `\n`.
            let shown = shown.replace('\n', "\\n");
            writeln!(self.out, "{}\t{}\t{typed}{shown}", top.verdict, top.rule)
        };
        if let Err(e) = written {
            self.error = Some(e);
        }
    }

    /// The closing count (text output), and the flush.
    fn finish(mut self) -> Result<u8, CliError> {
        let write_err = |e: io::Error| CliError(format!("cannot write stdout: {e}"));
        if !self.json {
            let total: usize = self.counts.iter().sum();
            writeln!(
                self.out,
                "# {total} commands: {} FREE, {} UNKNOWN, {} SIGNED, {} BLOCKED; {} typed by the person, {} lines unreadable",
                self.counts[Verdict::Free as usize],
                self.counts[Verdict::Unknown as usize],
                self.counts[Verdict::Signed as usize],
                self.counts[Verdict::Blocked as usize],
                self.typed,
                self.broken
            )
            .map_err(write_err)?;
        }
        self.out.flush().map_err(write_err)?;
        Ok(0)
    }
}

fn unreadable_line(line: usize, why: &str) -> portcullis::Decision {
    portcullis::Decision::from_findings(
        vec![portcullis::Finding {
            verdict: Verdict::Signed,
            rule: "parse.encoding".into(),
            reason: format!("line {line} {why}"),
            remediation:
                "Fix the line: one command per line, UTF-8, JSON where the format is JSONL.".into(),
            part: String::new(),
        }],
        "",
    )
}

/// `portcullis policy [--json] [DIR]`: the effective path law of the
/// repository holding DIR (default: the current folder).
fn policy_command(args: &[String]) -> Result<u8, CliError> {
    let common = parse_common(args, &["--json"])?;
    let dir = match common.positional.as_slice() {
        [] => location(common.cwd.clone())
            .cwd
            .ok_or_else(|| CliError("cannot tell the current folder; give DIR".into()))?,
        [dir] => PathBuf::from(dir),
        [_, extra, ..] => {
            return Err(CliError(format!(
                "policy takes one DIR, got also `{extra}`"
            )));
        }
    };
    let dir = std::path::absolute(&dir)
        .map_err(|e| CliError(format!("cannot resolve {}: {e}", dir.display())))?;
    if !dir.is_dir() {
        return Err(CliError(format!("{} is not a folder", dir.display())));
    }
    let law = portcullis::law::Law::at(&dir);
    if common.json {
        out!("{}", law.json());
    } else {
        let _ = io::stdout().write_all(law.text().as_bytes());
    }
    Ok(0)
}

/// `portcullis rules --verbs`: every verb of the lexicon, its class, its
/// verdict and the file it comes from.
fn verbs_command() -> Result<u8, CliError> {
    let mut out = String::new();
    for (spec, source) in rules::lexicon().iter().zip(rules::LEXICON_SOURCES.iter()) {
        let subs = spec.subs().len();
        let subs = if subs > 0 {
            format!(" ({subs} subcommands)")
        } else {
            String::new()
        };
        out.push_str(&format!(
            "{}\t{}\t{}\t{}{subs}\n",
            spec.name(),
            spec.class.as_str(),
            spec.class.verdict(),
            source.get()
        ));
    }
    let _ = io::stdout().write_all(out.as_bytes());
    Ok(0)
}

fn rules_command(args: &[String]) -> Result<u8, CliError> {
    match args {
        [] => {}
        [flag] if flag == "--verbs" => return verbs_command(),
        [extra, ..] => return Err(CliError(format!("rules takes only --verbs, got `{extra}`"))),
    }
    let mut out = String::new();
    out.push_str("# Blocked floor (always on; BLOCKED)\n");
    for rule in rules::FLOOR_RULES {
        out.push_str(&format!("{:<32} {}\n", rule.id, rule.reason));
    }
    out.push_str("\n# Other rule families\n");
    for (id, what) in portcullis::engine::RULE_FAMILIES {
        out.push_str(&format!("{id:<32} {what}\n"));
    }
    out.push_str(&format!(
        "\n# Lexicon: {} verbs, {} wrappers, {} shells (lexicon.<verb>[.<sub>][.<flag>])\n",
        rules::lexicon().len(),
        rules::WRAPPERS.len(),
        rules::SHELLS.len()
    ));
    for class in [
        "inspect", "build", "test", "format", "mutate", "install", "network", "publish", "destroy",
        "exec",
    ] {
        let count = rules::lexicon()
            .iter()
            .filter(|s| s.class.as_str() == class)
            .count();
        let verdict = rules::lexicon()
            .iter()
            .find(|s| s.class.as_str() == class)
            .map(|s| s.class.verdict().as_str())
            .unwrap_or("-");
        out.push_str(&format!("{class:<10} {verdict:<7} {count} verbs\n"));
    }
    let _ = io::stdout().write_all(out.as_bytes());
    Ok(0)
}
