//! The `portcullis` command: argument parsing (`cli`) and printing only.
//! Every decision is made by the library (`portcullis::evaluate`).
//!
//! Exit codes: `hook` 0 (decision on stdout, or none) or 2 (bad input:
//! Claude Code blocks); `check` 0/10/20/30 for FREE/SIGNED/BLOCKED/UNKNOWN;
//! `replay` 0, or 1 with `--fail-on`; 2 for a usage or input error, or an
//! internal one, everywhere.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]
// On Linux the process starts at `start::main`, a C `main` (issue 19).
#![cfg_attr(all(target_os = "linux", not(test)), no_main)]

mod cli;
mod start;

use cli::{CliError, Command};
use portcullis::hook::{self, HookOptions, Host};
use portcullis::{Location, catalogue, limits, render};
use std::io::{self, Read, Write};
use std::path::PathBuf;

/// Prints a line to stdout; a closed pipe (`portcullis check … | head -1`)
/// is not an error worth more than the verdict's exit code.
macro_rules! out {
    ($($arg:tt)*) => {{
        let _ = writeln!(io::stdout(), $($arg)*);
    }};
}

/// Rust's own start, where the crate is not `no_main` (see `start`).
#[cfg(any(not(target_os = "linux"), test))]
fn main() -> std::process::ExitCode {
    start::install_abort_handler();
    let code = run_main(std::env::args_os().skip(1).collect());
    start::flush_stdout();
    std::process::ExitCode::from(code)
}

/// Parses the command line (`args`: the words after the program's name)
/// and runs it. Returns the exit code; a panic is reported and is exit 2.
fn run_main(args: Vec<std::ffi::OsString>) -> u8 {
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
    match std::panic::catch_unwind(|| cli::parse(args).and_then(run)) {
        Ok(Ok(code)) => code,
        Ok(Err(CliError(message))) => {
            eprintln!("portcullis: {message}");
            2
        }
        Err(_) => 2,
    }
}

/// Runs what the command line asked for. Returns the exit code, or the
/// error to report (exit 2).
fn run(command: Command) -> Result<u8, CliError> {
    match command {
        Command::Help(text) => out!("{text}"),
        Command::Version => out!("portcullis {}", env!("CARGO_PKG_VERSION")),
        Command::Hook { host, options } => return hook_command(host, options),
        Command::Check {
            json,
            cwd,
            mode,
            command,
        } => {
            let location = location(cwd);
            let mut laws = portcullis::law::Laws::new(location.cwd.as_deref());
            let decision =
                portcullis::engine::evaluate_in_mode(&command, &location, &mut laws, mode);
            if json {
                out!("{}", render::json_object(&decision, None));
            } else {
                out!("{}", render::human_line(&decision));
            }
            return Ok(decision.verdict().exit_code());
        }
        Command::Explain {
            tree,
            cwd,
            mode,
            command,
        } => return explain_command(tree, cwd, mode, &command),
        Command::Replay(replay) => return replay_command(replay),
        Command::Policy { json, cwd, dir } => return policy_command(json, cwd, dir),
        Command::OpencodePermissions => {
            let block = portcullis::opencode::permission_block();
            out!(
                "{}",
                serde_json::to_string_pretty(&block).unwrap_or_default()
            );
        }
        Command::Install(request) => {
            let bin = own_binary()?;
            let env = portcullis::install::hosts::Env::from_env();
            return Ok(portcullis::install::run(
                &request,
                &env,
                &bin,
                &mut io::stdout(),
                &mut io::stderr(),
            ));
        }
        Command::Doctor { json, hosts } => {
            let bin = own_binary()?;
            let env = portcullis::install::hosts::Env::from_env();
            let report = portcullis::doctor::run(&env, &bin, &hosts);
            if json {
                out!("{}", report.json());
            } else {
                let _ = io::stdout().write_all(report.text().as_bytes());
            }
            return Ok(if report.ok() { 0 } else { 1 });
        }
        Command::Rules { verbs } => {
            let text = if verbs {
                catalogue::verbs()
            } else {
                catalogue::listing()
            };
            let _ = io::stdout().write_all(text.as_bytes());
        }
    }
    Ok(0)
}

/// The running binary's absolute path, links resolved: what install
/// writes into the hosts' config files.
fn own_binary() -> Result<PathBuf, CliError> {
    std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| CliError(format!("cannot tell where this binary is: {e}")))
}

/// The home folder: `HOME`, else the password database's.
fn home() -> Option<PathBuf> {
    portcullis::home::home_folder().map(PathBuf::from)
}

/// Where a command is judged: `cwd`, or the current folder.
fn location(cwd: Option<PathBuf>) -> Location {
    Location {
        cwd: cwd.or_else(|| std::env::current_dir().ok()),
        home: home(),
    }
}

/// `portcullis hook`: one request on stdin, its decision (if any) on stdout.
fn hook_command(host: Option<Host>, options: HookOptions) -> Result<u8, CliError> {
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

/// `portcullis explain`: the steps, the findings and the decision of one
/// command (after its syntax tree, with `--tree`).
fn explain_command(
    tree: bool,
    cwd: Option<PathBuf>,
    mode: portcullis::engine::PermissionMode,
    command: &str,
) -> Result<u8, CliError> {
    if tree {
        print!("{}", portcullis::shell::parse::dump_tree(command));
    }
    let (decision, trace) = portcullis::engine::explain_in_mode(command, &location(cwd), mode);
    out!("mode: {}", mode.as_str());
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

/// `portcullis replay`: every command of the sources judged, the rows
/// (`--json`) and the summary printed; 1 when `--fail-on` was reached.
fn replay_command(replay: cli::Replay) -> Result<u8, CliError> {
    let inputs = portcullis::replay::inputs(&replay.sources);
    let forced = replay.format;
    // Both cores (or as many as there are, up to eight) judge in parallel;
    // output stays in input order.
    let workers = replay
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(8)));
    let mut out = io::BufWriter::new(io::stdout());
    let mut progress = cli::progress::Progress::new(portcullis::replay::total_bytes(&inputs));
    let summary = portcullis::replay::run(
        &inputs,
        |source| portcullis::replay::open(source, forced),
        &portcullis::replay::Context {
            location: location(replay.cwd),
            mode: replay.mode,
        },
        replay.json,
        workers,
        &mut out,
        |bytes| progress.update(bytes),
    )
    .map_err(|e| CliError(format!("replay: {e}")))?;
    progress.finish();
    let written = if replay.summary_json {
        writeln!(out, "{}", summary.json())
    } else if !replay.json {
        write!(out, "{}", summary.text())
    } else {
        Ok(())
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| CliError(format!("cannot write stdout: {e}")))?;
    // `--fail-on`: a non-zero exit for CI when any command reached it.
    let reached = replay.fail_on.is_some_and(|floor| summary.reaches(floor));
    Ok(if reached { 1 } else { 0 })
}

/// `portcullis policy`: the effective path law of the repository holding
/// `dir` (default: `cwd`, or the current folder).
fn policy_command(json: bool, cwd: Option<PathBuf>, dir: Option<PathBuf>) -> Result<u8, CliError> {
    let dir = match dir {
        Some(dir) => dir,
        None => location(cwd)
            .cwd
            .ok_or_else(|| CliError("cannot tell the current folder; give DIR".into()))?,
    };
    let dir = std::path::absolute(&dir)
        .map_err(|e| CliError(format!("cannot resolve {}: {e}", dir.display())))?;
    if !dir.is_dir() {
        return Err(CliError(format!("{} is not a folder", dir.display())));
    }
    let law = portcullis::law::Law::at(&dir);
    if json {
        out!("{}", law.json());
    } else {
        let _ = io::stdout().write_all(law.text().as_bytes());
    }
    Ok(0)
}
