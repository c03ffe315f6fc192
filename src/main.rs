//! The `portcullis` command: argument parsing and I/O only. Every decision
//! is made by the library (`portcullis::evaluate`).
//!
//! Exit codes: `hook` 0 (decision on stdout, or none) or 2 (bad input:
//! Claude Code blocks); `check` 0/10/20/30 for FREE/SIGNED/BLOCKED/UNKNOWN;
//! 2 for a usage or input error everywhere.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use portcullis::hook::{self, HookOptions, Host};
use portcullis::{Location, Verdict, history, limits, render, rules};
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage:
  portcullis hook [--host claude|opencode] [--free allow|defer] [--unknown defer|ask]
  portcullis check [--json] [--cwd DIR] -- COMMAND
  portcullis explain [--tree] [--cwd DIR] -- COMMAND
  portcullis replay [--format auto|lines|jsonl|sessions|bash|zsh|fish|claude] [--json | --summary-json]
                    [--fail-on SIGNED|BLOCKED] [--threads N] [--cwd DIR] FILE…|DIR|-
  portcullis policy [--json] [DIR]
  portcullis opencode-permissions
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

/// An abort (tree-sitter out of memory, Rust's stack-overflow guard, an
/// allocation failure) would end the process by signal, which Claude Code
/// reads as "no opinion" and runs the tool. This handler turns it into one
/// stderr line and exit 2, which blocks the call. Only async-signal-safe
/// calls: `write` and `_exit`.
extern "C" fn abort_handler(_signal: libc::c_int) {
    const MESSAGE: &[u8] = b"portcullis: internal error (abort); blocking to be safe\n";
    // SAFETY: write and _exit are async-signal-safe; the buffer is static.
    unsafe {
        libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
        libc::_exit(2);
    }
}

/// SIGABRT, and SIGSEGV and SIGBUS (a fault in the parsers' C code) too.
/// The handler runs on the alternate signal stack Rust's runtime sets up
/// for the main thread (`SA_ONSTACK`), so a stack overflow reaches it.
fn install_abort_handler() {
    // SAFETY: sigaction with a zeroed struct, an empty mask and a handler
    // that only calls async-signal-safe functions.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = abort_handler as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_ONSTACK;
        libc::sigemptyset(&mut action.sa_mask);
        for signal in [libc::SIGABRT, libc::SIGSEGV, libc::SIGBUS] {
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

fn main() -> ExitCode {
    install_abort_handler();
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
        "opencode-permissions" => {
            if let Some(extra) = rest.first() {
                return Err(CliError(format!(
                    "opencode-permissions takes no arguments, got `{extra}`"
                )));
            }
            let block = portcullis::opencode::permission_block();
            out!(
                "{}",
                serde_json::to_string_pretty(&block).unwrap_or_default()
            );
            Ok(0)
        }
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
    summary_json: bool,
    fail_on: Option<Verdict>,
    threads: Option<usize>,
    cwd: Option<PathBuf>,
    format: String,
    positional: Vec<String>,
}

fn parse_common(args: &[String], allow: &[&str]) -> Result<Common, CliError> {
    let mut common = Common {
        json: false,
        tree: false,
        summary_json: false,
        fail_on: None,
        threads: None,
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
            "--summary-json" if allow.contains(&"--summary-json") => common.summary_json = true,
            "--threads" if allow.contains(&"--threads") => {
                let n = value(i)?;
                common.threads = Some(n.parse().ok().filter(|n| *n >= 1).ok_or_else(|| {
                    CliError(format!("--threads takes a number of at least 1, not `{n}`"))
                })?);
                i += 1;
            }
            "--fail-on" if allow.contains(&"--fail-on") => {
                let verdict = value(i)?;
                common.fail_on = match verdict.as_str() {
                    "SIGNED" | "signed" => Some(Verdict::Signed),
                    "BLOCKED" | "blocked" => Some(Verdict::Blocked),
                    other => {
                        return Err(CliError(format!(
                            "--fail-on takes SIGNED or BLOCKED, not `{other}`"
                        )));
                    }
                };
                i += 1;
            }
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
    let mut host = Host::Claude;
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).map(String::as_str);
        match (args[i].as_str(), value) {
            ("--host", Some("claude" | "claude-code")) => host = Host::Claude,
            ("--host", Some("opencode")) => host = Host::OpenCode,
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
    // Claude Code runs hooks in the session's folder: without a `cwd` field
    // (older hosts), that folder is the best answer.
    let output = hook::respond(&input, host, options, home(), std::env::current_dir().ok())
        .map_err(|e| CliError(e.to_string()))?;
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
    let common = parse_common(
        args,
        &[
            "--json",
            "--format",
            "--summary-json",
            "--fail-on",
            "--threads",
        ],
    )?;
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
    let open = |source: &str| -> io::Result<portcullis::replay::Opened> {
        let reader: Box<dyn Read + Send> = if source == "-" {
            Box::new(io::stdin())
        } else {
            Box::new(
                std::fs::File::open(source)
                    .map_err(|e| io::Error::new(e.kind(), format!("cannot open {source}: {e}")))?,
            )
        };
        let reader = io::BufReader::with_capacity(64 * 1024, reader);
        let path = (source != "-").then(|| std::path::Path::new(source));
        history::open(path, reader, forced)
    };
    // Both cores (or as many as there are, up to eight) judge in parallel;
    // output stays in input order.
    let workers = common
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(8)));
    let mut out = io::BufWriter::new(io::stdout());
    let mut progress = Progress::new(&inputs);
    let summary = portcullis::replay::run(
        &inputs,
        open,
        &location(common.cwd.clone()),
        common.json,
        workers,
        &mut out,
        |bytes| progress.update(bytes),
    )
    .map_err(|e| CliError(format!("replay: {e}")))?;
    progress.finish();
    let summary = &summary;
    let written = if common.summary_json {
        writeln!(out, "{}", summary.json())
    } else if !common.json {
        write!(out, "{}", summary.text())
    } else {
        Ok(())
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| CliError(format!("cannot write stdout: {e}")))?;
    // `--fail-on`: a non-zero exit for CI when any command reached it.
    let reached = common.fail_on.is_some_and(|floor| summary.reaches(floor));
    Ok(if reached { 1 } else { 0 })
}

/// A progress bar on stderr for a replay that takes more than a second,
/// only when stderr is a terminal (nothing on stdout, nothing in pipes).
struct Progress {
    total: Option<u64>,
    started: std::time::Instant,
    bar: Option<indicatif::ProgressBar>,
    terminal: bool,
}

impl Progress {
    fn new(inputs: &[String]) -> Progress {
        use std::io::IsTerminal;
        // The total is known when every input is a file.
        let total = inputs
            .iter()
            .map(|s| {
                (s != "-")
                    .then(|| std::fs::metadata(s).ok().map(|m| m.len()))
                    .flatten()
            })
            .sum::<Option<u64>>();
        Progress {
            total,
            started: std::time::Instant::now(),
            bar: None,
            terminal: io::stderr().is_terminal(),
        }
    }

    fn update(&mut self, bytes: usize) {
        if !self.terminal {
            return;
        }
        if self.bar.is_none() && self.started.elapsed() >= std::time::Duration::from_secs(1) {
            let bar = match self.total {
                Some(total) => indicatif::ProgressBar::new(total).with_style(
                    indicatif::ProgressStyle::with_template(
                        "replay {bar:40} {bytes}/{total_bytes} ({bytes_per_sec}, {eta} left)",
                    )
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                ),
                None => indicatif::ProgressBar::new_spinner().with_style(
                    indicatif::ProgressStyle::with_template(
                        "replay {spinner} {bytes} read ({bytes_per_sec})",
                    )
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
                ),
            };
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            // The rate counts from now, not from the bytes read before the
            // bar appeared.
            bar.set_position(bytes as u64);
            bar.reset_eta();
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(bytes as u64);
        }
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
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
