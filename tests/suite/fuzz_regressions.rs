//! Replays what the fuzzers found, and their committed seeds, in
//! `cargo test`: every file under `tests/data/fuzz/<target>/` goes through
//! the same checks as the fuzz target of that name (`fuzz/src/checks.rs`,
//! included here, is the code the targets run).
//!
//! Each input runs in a child process (this test binary again, running only
//! [`replay_one_input`]) on a thread with an 8 MiB stack, as the hook's main
//! thread has: a panic, a failed check, an abort or a stack overflow fails
//! that input, and so does taking longer than [`HANG`] (libFuzzer's
//! `-timeout` in `fuzz/ci.sh`), without taking the other inputs down.
//! A target's folder may not be missing or empty, and every reproducer in
//! [`REPRODUCERS`] must still be there: nothing is skipped silently.

#[path = "../../fuzz/src/checks.rs"]
mod checks;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What the fuzzers found (`<target>/<file>` under `tests/data/fuzz/`):
/// each must stay, and pass. `hang-*` took longer than [`HANG`] for one
/// input, `stack-*` overflowed the stack, `slow-*` was reported as a slow
/// unit (a cost that grew with the square of the command).
const REPRODUCERS: &[&str] = &[
    "shell_amplified/hang-close-paren",
    "shell_amplified/hang-nul-run",
    "shell_amplified/hang-cd-lines",
    "shell_amplified/hang-glob-listing",
    "shell_amplified/stack-js-call-chain",
    "shell_amplified/slow-deep-missing-path",
    "hook_stdin/slow-nested-substitutions",
    "inline_javascript/stack-call-chain",
    "shell/python-unknown-option-before-code",
    "inline_python/backslash-line-before-body",
    "shell/dash-before-pipeline-redirect",
    "shell/dash-before-stage-redirect",
];

/// One input taking longer is a hang (libFuzzer's `-timeout=5`).
const HANG: Duration = Duration::from_secs(5);

/// The stack of the hook's main thread.
const STACK: usize = 8 << 20;

/// Set in a child process: `<target>\n<path>` of the one input to run.
const CHILD: &str = "PORTCULLIS_FUZZ_REPLAY_INPUT";

fn folder(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz")
        .join(target)
}

fn check_of(target: &str) -> checks::Check {
    checks::TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .map(|(_, check)| *check)
        .unwrap_or_else(|| panic!("no fuzz target named {target}"))
}

/// In a child process: runs the input it was given (a panic fails it); in
/// the test run itself: nothing.
#[test]
fn replay_one_input() {
    let Ok(spec) = std::env::var(CHILD) else {
        return;
    };
    let (target, path) = spec.split_once('\n').expect("<target>\\n<path>");
    let check = check_of(target);
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let outcome = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || check(&data))
        .expect("a thread for the input")
        .join();
    assert!(outcome.is_ok(), "{target} {path} failed");
    eprintln!("{REPLAYED}");
}

/// What a child prints when its input passed: a child that ran no test (a
/// renamed test, a filter that matched nothing) exits 0 too, so success is
/// this line, not the exit status alone.
const REPLAYED: &str = "portcullis-fuzz-replay: input passed";

/// Runs one input in a child process; `Err` says how it failed.
fn run_child(target: &str, path: &Path) -> Result<(), String> {
    let mut child = Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "--exact",
            &crate::common::test_name(module_path!(), "replay_one_input"),
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, format!("{target}\n{}", path.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the test binary runs again");
    // Drain stderr on a thread so a chatty child never blocks on the pipe.
    let mut stderr = child.stderr.take().expect("piped stderr");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the child") {
            break Some(status);
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stderr = reader.join().unwrap_or_default();
    let why = stderr
        .lines()
        .filter(|l| l.contains("panicked") || l.contains("overflow") || l.contains("fatal"))
        .take(3)
        .collect::<Vec<_>>()
        .join(" / ");
    match status {
        None => Err(format!("still running after {HANG:?}: a hang")),
        Some(status) if status.success() && stderr.lines().any(|l| l == REPLAYED) => Ok(()),
        Some(status) if status.success() => {
            Err("the child ran no test (is the test's name right?)".into())
        }
        Some(status) => Err(format!("{status}: {why}")),
    }
}

/// Runs every input of `target`; fails naming each input that fails.
fn replay(target: &str) {
    check_of(target);
    let dir = folder(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{} is missing ({e}): no input replayed", dir.display()))
        .map(|entry| entry.expect("a readable folder entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "{} is empty: no input replayed",
        dir.display()
    );
    let failed: Vec<String> = files
        .iter()
        .filter_map(|path| {
            run_child(target, path)
                .err()
                .map(|why| format!("{}: {why}", path.display()))
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} {target} inputs failed:\n  {}",
        failed.len(),
        files.len(),
        failed.join("\n  ")
    );
    println!("{target}: {} inputs replayed", files.len());
}

#[test]
fn every_target_has_inputs_and_every_reproducer_is_kept() {
    for (target, _) in checks::TARGETS {
        let fuzz_target = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/fuzz_targets")
            .join(format!("{target}.rs"));
        assert!(
            fuzz_target.is_file(),
            "{} is missing",
            fuzz_target.display()
        );
        let count = std::fs::read_dir(folder(target))
            .map(|entries| entries.count())
            .unwrap_or(0);
        assert!(count > 0, "tests/data/fuzz/{target}/ is missing or empty");
    }
    for reproducer in REPRODUCERS {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/fuzz")
            .join(reproducer);
        assert!(path.is_file(), "the reproducer {} is gone", path.display());
        let target = reproducer.split('/').next().unwrap_or_default();
        assert!(
            checks::TARGETS.iter().any(|(name, _)| *name == target),
            "{reproducer} is not under a target's folder"
        );
    }
}

#[test]
fn hook_stdin() {
    replay("hook_stdin");
}

#[test]
fn hook_json() {
    replay("hook_json");
}

#[test]
fn shell() {
    replay("shell");
}

#[test]
fn shell_amplified() {
    replay("shell_amplified");
}

#[test]
fn inline_python() {
    replay("inline_python");
}

#[test]
fn inline_javascript() {
    replay("inline_javascript");
}

#[test]
fn inline_scan() {
    replay("inline_scan");
}

#[test]
fn history() {
    replay("history");
}

#[test]
fn policy() {
    replay("policy");
}
