//! The hard limits of `src/limits.rs`, run against the real binary as
//! Claude Code runs it: one `portcullis hook` process per request, the
//! request's JSON on stdin.
//!
//! For every input at, just under and past a limit, the process must
//!
//! - exit 0 with a decision (or 2 for a request it cannot read, which
//!   Claude Code treats as a block) — never crash, never be killed by a
//!   signal (a stack overflow), never hang: Claude Code *runs* the command
//!   when a hook crashes, hangs or exits with any other code;
//! - past a limit: answer `ask` or `deny`, never `allow`, with a `parse.*`
//!   rule (an inline-code lane's own limits have `inline.*` ids, see the
//!   README's Limits table), even when a destructive command hides behind
//!   the limit;
//! - just under a limit: be judged as usual (no `parse.*` verdict; FREE for
//!   a harmless command, BLOCKED for `rm -rf /`);
//! - stay under 64 MiB of peak resident memory and 1 s of CPU time.
//!
//! CPU time (user + system, from `wait4`'s rusage), not wall time: the
//! machine that runs the tests is shared and noisy, and wall time would
//! make this test flaky without telling us anything about portcullis.
//! Wall time only serves as a last-resort kill switch for a hung process.
//!
//! `cargo test --release --test suite limits:: -- --nocapture` prints one row a
//! case: exit code, decision, rule, peak RSS in MiB, CPU ms.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const MIB: usize = 1 << 20;

// The limits, as `src/limits.rs` defines them (an integration test sees
// the library, so the values are the library's own).
use portcullis::limits::{
    MAX_COMMAND_BYTES, MAX_COMMANDS, MAX_PEEL_DEPTH, MAX_PIPES, MAX_SCRIPT_BYTES, MAX_SEPARATORS,
    MAX_STDIN_BYTES, MAX_TOKENS,
};

/// Peak resident memory a hook process may reach.
const MAX_RSS_BYTES: i64 = 64 * MIB as i64;
/// CPU time (user + system) a hook process may use.
const MAX_CPU: Duration = Duration::from_secs(1);
/// Wall time after which a process counts as hung and is killed. Far above
/// `MAX_CPU`: only a real hang gets here, not a busy machine.
const HANG: Duration = Duration::from_secs(60);
/// Virtual memory a hook process may map before its allocations fail: a
/// guard for the machine, not the limit asserted (`MAX_RSS_BYTES`).
const ADDRESS_SPACE: libc::rlim_t = 4 << 30;

/// How a case is fed to the binary.
enum Input {
    /// `portcullis hook` with a Claude Code Bash request for this command.
    Hook(String),
    /// `portcullis hook` with these exact bytes on stdin.
    Raw(Vec<u8>),
    /// `portcullis check --json -- ARGS…` (the CLI joins the words with
    /// spaces; no one word may pass the kernel's 128 KiB per argument).
    Check(Vec<String>),
}

/// What must hold for a case (besides memory and CPU, which hold for all).
#[derive(Clone, Copy)]
enum Expect {
    /// Past a limit: exit 0, `ask` or `deny`, a rule starting with one of
    /// these prefixes.
    Limit(&'static [&'static str]),
    /// Past a limit with a destructive command hidden behind it: as
    /// `Limit`, and the answer must be `deny`; the floor's own rule for the
    /// hidden command (`floor.*`) is as good a reason as the limit's.
    LimitDeny(&'static [&'static str]),
    /// Under every limit: exit 0, judged as usual (no limit rule); with a
    /// decision, exactly that one (`allow`, `ask`, `deny`, `none`).
    Judged(Option<&'static str>),
    /// Under every limit, a destructive command: `deny` with a `floor.*` rule.
    Floor,
    /// A request that cannot be read: exit 2, nothing on stdout, a message
    /// on stderr.
    Unreadable,
}

const PARSE: &[&str] = &["parse."];
/// The inline-code lanes' limits (README, "Limits"): a program over
/// `MAX_SCRIPT_BYTES` is `inline.unreadable-script`, one nested deeper than
/// the lane's depth is `inline.unparsable`.
const PARSE_OR_LANE: &[&str] = &["parse.", "inline.unreadable-script", "inline.unparsable"];
/// Rules that mean "a limit was passed"; a `Judged` case must have none.
const LIMIT_RULES: &[&str] = PARSE_OR_LANE;

struct Case {
    name: &'static str,
    input: Input,
    expect: Expect,
}

/// What one process did.
struct Outcome {
    /// Exit code, if it exited.
    exit: Option<i32>,
    /// Signal that ended it, if one did.
    signal: Option<i32>,
    /// Killed after `HANG` of wall time.
    hung: bool,
    stdout: String,
    stderr: String,
    max_rss_bytes: i64,
    cpu: Duration,
    /// `allow`, `ask`, `deny`, `none` (no output), or `?` (unreadable output).
    decision: String,
    /// The rule id, or `-`.
    rule: String,
}

fn cwd() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("limits-project");
    std::fs::create_dir_all(&dir).expect("a working folder for the requests");
    dir
}

fn request(command: &str) -> Vec<u8> {
    serde_json::json!({
        "session_id": "limits",
        "transcript_path": "/tmp/limits.jsonl",
        "cwd": cwd(),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "limits"},
        "tool_use_id": "toolu_limits",
    })
    .to_string()
    .into_bytes()
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
}

// ------------------------------------------------------------ measuring
//
// `ru_maxrss` is not the peak of the program alone: on `exec`, Linux folds
// the peak of the memory image being replaced into it. `std::process`
// spawns with vfork, whose image is the parent's, so every hook process
// would report this test's own peak (tens of MiB of generated inputs). A
// plain fork copies the parent's current pages, no better.
//
// So each hook process is started by a small helper: this test binary run
// again (the `measuring_helper` test, which does nothing unless
// `LIMITS_HELPER` names a job). The helper holds no inputs; it forks, the
// child points stdin, stdout and stderr at the job's files and execs
// portcullis, and the helper reaps it with `wait4` and writes the status,
// peak RSS and CPU time to the job's report. What the helper's own few MiB
// add is a floor under the figure, not a change of it past that floor.

/// Files of one measured run: `<base>.args` (NUL-separated arguments),
/// `.in` (stdin), `.out`, `.err`, `.report`.
struct Job {
    base: PathBuf,
}

impl Job {
    fn path(&self, ext: &str) -> PathBuf {
        self.base.with_extension(ext)
    }
}

/// Runs the binary with `args` and `stdin` through the helper.
fn spawn_measured(args: &[String], stdin: Vec<u8>) -> Outcome {
    let dir = cwd();
    let io = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("limits-io");
    std::fs::create_dir_all(&io).expect("a folder for the runs' files");
    let job = Job {
        base: io.join(format!("run-{}", std::process::id())),
    };
    std::fs::write(job.path("args"), args.join("\0")).expect("write args");
    std::fs::write(job.path("in"), &stdin).expect("write stdin");
    drop(stdin);
    let _ = std::fs::remove_file(job.path("report"));
    let helper = Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "--exact",
            &crate::common::test_name(module_path!(), "measuring_helper"),
            "--test-threads=1",
            "--nocapture",
        ])
        .env("LIMITS_HELPER", &job.base)
        .env("HOME", &dir)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("run the measuring helper");
    let report = std::fs::read_to_string(job.path("report")).unwrap_or_else(|_| {
        panic!(
            "the measuring helper wrote no report: {}",
            String::from_utf8_lossy(&helper.stderr)
        )
    });
    let fields: Vec<i64> = report
        .split_whitespace()
        .map(|f| f.parse().expect("a number in the report"))
        .collect();
    let [status, maxrss_kib, cpu_us, hung] = fields[..] else {
        panic!("bad report `{report}`");
    };
    let status = status as libc::c_int;
    let (exit, signal) = if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else if libc::WIFSIGNALED(status) {
        (None, Some(libc::WTERMSIG(status)))
    } else {
        (None, None)
    };
    let read = |ext| {
        String::from_utf8_lossy(&std::fs::read(job.path(ext)).unwrap_or_default()).into_owned()
    };
    Outcome {
        exit,
        signal,
        hung: hung != 0,
        stdout: read("out"),
        stderr: read("err"),
        // Linux reports ru_maxrss in KiB.
        max_rss_bytes: maxrss_kib * 1024,
        cpu: Duration::from_micros(cpu_us as u64),
        decision: String::new(),
        rule: String::new(),
    }
}

/// The helper (see above). Run as an ordinary test it does nothing.
#[test]
fn measuring_helper() {
    use std::ffi::CString;
    use std::os::fd::AsRawFd;
    let Some(base) = std::env::var_os("LIMITS_HELPER") else {
        return;
    };
    let job = Job {
        base: PathBuf::from(base),
    };
    let program = CString::new(env!("CARGO_BIN_EXE_portcullis")).expect("program path");
    let args_text = std::fs::read(job.path("args")).expect("read args");
    let mut argv: Vec<CString> = vec![program.clone()];
    argv.extend(
        args_text
            .split(|b| *b == 0)
            .map(|a| CString::new(a).expect("an argument without NUL")),
    );
    drop(args_text);
    let mut argv_ptrs: Vec<*const libc::c_char> = argv.iter().map(|a| a.as_ptr()).collect();
    argv_ptrs.push(std::ptr::null());
    let stdin = std::fs::File::open(job.path("in")).expect("open stdin");
    let stdout = std::fs::File::create(job.path("out")).expect("create stdout");
    let stderr = std::fs::File::create(job.path("err")).expect("create stderr");
    let fds = [stdin.as_raw_fd(), stdout.as_raw_fd(), stderr.as_raw_fd()];
    // A runaway case must not take the shared machine down with it: the
    // hook process gets at most `ADDRESS_SPACE` of virtual memory (far past
    // the 64 MiB asserted; a case that reaches it fails all the same).
    let cap = libc::rlimit {
        rlim_cur: ADDRESS_SPACE,
        rlim_max: ADDRESS_SPACE,
    };
    // SAFETY: after fork the child only calls dup2, setrlimit, execv and
    // _exit, which are async-signal-safe; everything they use was built
    // before the fork.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        // SAFETY: see above.
        unsafe {
            for (target, fd) in fds.iter().enumerate() {
                if libc::dup2(*fd, target as libc::c_int) < 0 {
                    libc::_exit(126);
                }
            }
            libc::setrlimit(libc::RLIMIT_AS, &cap);
            libc::execv(program.as_ptr(), argv_ptrs.as_ptr());
            libc::_exit(127);
        }
    }
    let start = Instant::now();
    let mut status = 0;
    // SAFETY: rusage is plain old data, written by wait4.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut hung = false;
    loop {
        // SAFETY: pid is our own child, not yet reaped.
        let waited = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if waited == pid {
            break;
        }
        assert_eq!(waited, 0, "wait4 failed");
        if start.elapsed() > HANG && !hung {
            hung = true;
            // SAFETY: pid is our own child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let cpu = timeval(usage.ru_utime) + timeval(usage.ru_stime);
    std::fs::write(
        job.path("report"),
        format!(
            "{status} {} {} {}\n",
            usage.ru_maxrss,
            cpu.as_micros(),
            u8::from(hung)
        ),
    )
    .expect("write the report");
}

/// The hook's answer: `hookSpecificOutput.permissionDecision` and the rule
/// id from `permissionDecisionReason` (`portcullis: VERDICT rule: reason…`).
fn read_hook_answer(outcome: &mut Outcome) {
    let text = outcome.stdout.trim();
    if text.is_empty() {
        outcome.decision = "none".into();
        outcome.rule = "-".into();
        return;
    }
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        outcome.decision = "?".into();
        outcome.rule = "?".into();
        return;
    };
    let output = &value["hookSpecificOutput"];
    outcome.decision = output["permissionDecision"]
        .as_str()
        .unwrap_or("?")
        .to_string();
    let reason = output["permissionDecisionReason"].as_str().unwrap_or("");
    let mut words = reason.strip_prefix("portcullis: ").unwrap_or("").split(' ');
    let verdict = words.next().unwrap_or("");
    let rule = words.next().unwrap_or("").trim_end_matches(':');
    // The verdict named in the reason must agree with the decision.
    let agrees = matches!(
        (verdict, outcome.decision.as_str()),
        ("FREE", "allow") | ("SIGNED", "ask") | ("UNKNOWN", "ask") | ("BLOCKED", "deny")
    );
    outcome.rule = if rule.is_empty() || !agrees {
        format!("?({reason})")
    } else {
        rule.to_string()
    };
}

/// `check --json`'s answer, mapped onto the hook's decisions, with the
/// exit code checked against the verdict.
fn read_check_answer(outcome: &mut Outcome) {
    let value: serde_json::Value =
        serde_json::from_str(outcome.stdout.trim()).unwrap_or(serde_json::Value::Null);
    let (decision, code) = match value["verdict"].as_str() {
        Some("FREE") => ("allow", 0),
        Some("SIGNED") => ("ask", 10),
        Some("BLOCKED") => ("deny", 20),
        Some("UNKNOWN") => ("none", 30),
        _ => ("?", -1),
    };
    outcome.decision = if outcome.exit == Some(code) {
        decision.to_string()
    } else {
        format!("?(exit {:?} for {decision})", outcome.exit)
    };
    outcome.rule = value["rule"].as_str().unwrap_or("?").to_string();
}

fn run(case: &Case) -> Outcome {
    match &case.input {
        Input::Hook(command) => {
            let mut o = spawn_measured(&["hook".into()], request(command));
            read_hook_answer(&mut o);
            o
        }
        Input::Raw(bytes) => {
            let mut o = spawn_measured(&["hook".into()], bytes.clone());
            read_hook_answer(&mut o);
            o
        }
        Input::Check(words) => {
            let mut args: Vec<String> = vec!["check".into(), "--json".into(), "--".into()];
            args.extend(words.iter().cloned());
            let mut o = spawn_measured(&args, Vec::new());
            read_check_answer(&mut o);
            o
        }
    }
}

/// Every way `outcome` breaks what `case` must hold.
fn failures(case: &Case, o: &Outcome) -> Vec<String> {
    let mut bad = Vec::new();
    if o.hung {
        bad.push(format!("hung: killed after {HANG:?} of wall time"));
    }
    if let Some(signal) = o.signal {
        bad.push(format!(
            "killed by signal {signal} (a crash: Claude Code would run the command); stderr: {}",
            first_line(&o.stderr)
        ));
    }
    if o.max_rss_bytes >= MAX_RSS_BYTES {
        bad.push(format!(
            "peak RSS {:.1} MiB, limit {} MiB",
            mib(o.max_rss_bytes),
            MAX_RSS_BYTES / MIB as i64
        ));
    }
    if o.cpu >= MAX_CPU {
        bad.push(format!(
            "CPU {} ms, limit {} ms",
            o.cpu.as_millis(),
            MAX_CPU.as_millis()
        ));
    }
    if o.signal.is_some() || o.hung {
        return bad;
    }
    let check = matches!(case.input, Input::Check(_));
    let exit_ok = if check {
        // `check` exits with its verdict's code, checked in read_check_answer.
        !o.decision.starts_with('?')
    } else {
        o.exit == Some(0)
    };
    let is_limit_rule = |rule: &str| LIMIT_RULES.iter().any(|p| rule.starts_with(p));
    match case.expect {
        Expect::Limit(prefixes) | Expect::LimitDeny(prefixes) => {
            if !exit_ok {
                bad.push(format!(
                    "exit {:?}, expected a decision; stderr: {}",
                    o.exit,
                    first_line(&o.stderr)
                ));
            }
            let wanted: &[&str] = if matches!(case.expect, Expect::LimitDeny(_)) {
                &["deny"]
            } else {
                &["ask", "deny"]
            };
            if !wanted.contains(&o.decision.as_str()) {
                bad.push(format!(
                    "decision `{}` past a limit, expected {}",
                    o.decision,
                    wanted.join(" or ")
                ));
            }
            let floor_too =
                matches!(case.expect, Expect::LimitDeny(_)) && o.rule.starts_with("floor.");
            if !prefixes.iter().any(|p| o.rule.starts_with(p)) && !floor_too {
                bad.push(format!(
                    "rule `{}` past a limit, expected {}",
                    o.rule,
                    prefixes
                        .iter()
                        .map(|p| format!("{p}*"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ));
            }
        }
        Expect::Judged(decision) => {
            if !exit_ok {
                bad.push(format!(
                    "exit {:?}; stderr: {}",
                    o.exit,
                    first_line(&o.stderr)
                ));
            }
            if is_limit_rule(&o.rule) || o.rule.starts_with('?') {
                bad.push(format!(
                    "rule `{}` under every limit: should be judged as usual",
                    o.rule
                ));
            }
            if let Some(d) = decision
                && o.decision != d
            {
                bad.push(format!(
                    "decision `{}`, expected `{d}` ({})",
                    o.decision, o.rule
                ));
            }
        }
        Expect::Floor => {
            if !exit_ok {
                bad.push(format!(
                    "exit {:?}; stderr: {}",
                    o.exit,
                    first_line(&o.stderr)
                ));
            }
            if o.decision != "deny" || !o.rule.starts_with("floor.") {
                bad.push(format!(
                    "`{}` `{}` under every limit, expected deny with a floor.* rule",
                    o.decision, o.rule
                ));
            }
        }
        Expect::Unreadable => {
            if o.exit != Some(2) {
                bad.push(format!("exit {:?}, expected 2 (blocks the call)", o.exit));
            }
            if !o.stdout.trim().is_empty() {
                bad.push(format!(
                    "printed `{}` for an unreadable request",
                    first_line(&o.stdout)
                ));
            }
            if o.stderr.trim().is_empty() {
                bad.push("no message on stderr".into());
            }
        }
    }
    bad
}

fn first_line(s: &str) -> String {
    portcullis::limits::clip(s.lines().next().unwrap_or(""), 200).to_string()
}

fn mib(bytes: i64) -> f64 {
    bytes as f64 / MIB as f64
}

// ---------------------------------------------------------------- inputs

/// `head` followed by ` word` (cycled from `words`) until exactly `len`
/// bytes (the last word is cut to fit).
fn fill(head: &str, words: &[&str], len: usize) -> String {
    let mut s = String::with_capacity(len + 64);
    s.push_str(head);
    let mut i = 0;
    while s.len() < len {
        s.push(' ');
        s.push_str(words[i % words.len()]);
        i += 1;
    }
    s.truncate(len);
    // A cut that leaves a trailing space would change nothing, but keep the
    // last word whole-looking.
    if s.ends_with(' ') {
        s.pop();
        s.push('x');
    }
    assert_eq!(s.len(), len);
    s
}

/// `ls` and file names, exactly `len` bytes.
fn ls_of_len(len: usize) -> String {
    fill(
        "ls",
        &[
            "src/engine/pipeline_stage.rs",
            "README.md",
            "Cargo.toml",
            "tests/integration_tests.rs",
        ],
        len,
    )
}

/// `echo` and one word of `A`s, exactly `len` bytes.
fn one_word_of_len(len: usize) -> String {
    format!("echo {}", "A".repeat(len - 5))
}

fn nest(open: &str, inner: &str, close: &str, n: usize) -> String {
    format!("{}{inner}{}", open.repeat(n), close.repeat(n))
}

/// `bash -c "…"` around `inner`, `depth` times, each level quoted for the
/// next with double quotes (the quoting doubles the backslashes each level,
/// so the size grows about twofold a level).
fn bash_c(inner: &str, depth: usize) -> String {
    let mut s = inner.to_string();
    for _ in 0..depth {
        let mut q = String::with_capacity(s.len() * 2 + 16);
        q.push_str("bash -c \"");
        for c in s.chars() {
            if matches!(c, '"' | '\\' | '$' | '`') {
                q.push('\\');
            }
            q.push(c);
        }
        q.push('"');
        s = q;
    }
    s
}

/// The deepest `bash_c` nesting of `inner` that stays under `max` bytes.
fn deepest_bash_c(inner: &str, max: usize) -> (String, usize) {
    let mut depth = 0;
    while bash_c(inner, depth + 1).len() <= max {
        depth += 1;
    }
    (bash_c(inner, depth), depth)
}

/// Backquoted command substitutions nested `depth` deep, each level
/// escaped as bash requires (`\`, `` ` `` and `$` get a backslash).
fn backticks(inner: &str, depth: usize) -> String {
    let mut s = inner.to_string();
    for _ in 0..depth {
        let mut q = String::with_capacity(s.len() * 2 + 16);
        q.push_str("echo `");
        for c in s.chars() {
            if matches!(c, '\\' | '`' | '$') {
                q.push('\\');
            }
            q.push(c);
        }
        q.push('`');
        s = q;
    }
    s
}

fn deepest_backticks(inner: &str, max: usize) -> (String, usize) {
    let mut depth = 0;
    while backticks(inner, depth + 1).len() <= max {
        depth += 1;
    }
    (backticks(inner, depth), depth)
}

/// `n` copies of `unit` followed by `tail`.
fn repeated(unit: &str, n: usize, tail: &str) -> String {
    let mut s = unit.repeat(n);
    s.push_str(tail);
    s
}

/// Lines of `line` (each ending in a newline) until about `bytes`.
fn lines_of(line: &str, bytes: usize) -> String {
    repeated(&format!("{line}\n"), bytes / (line.len() + 1), "")
}

/// A Python program of about `bytes`, with long lines (so that its newlines
/// stay far below `MAX_SEPARATORS`), that only computes and prints.
fn python_program(bytes: usize) -> String {
    let line = format!(
        "x = [{}]",
        (0..40)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    format!("{}print(len(x))\n", lines_of(&line, bytes))
}

/// A JavaScript program of about `bytes` that only computes and prints.
fn js_program(bytes: usize) -> String {
    let line = format!(
        "x = [{}];",
        (0..40)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    format!(
        "let x = [];\n{}console.log(x.length);\n",
        lines_of(&line, bytes)
    )
}

/// A request of exactly `len` bytes: `command`'s request, padded with
/// spaces after the JSON (still one valid JSON value).
fn request_of_len(command: &str, len: usize) -> Vec<u8> {
    let mut r = request(command);
    assert!(r.len() <= len);
    r.resize(len, b' ');
    r
}

/// `command` as the argv of `check -- WORD…`: its words, split at every
/// space (one argument may not pass 128 KiB). `check` quotes the words back
/// into a command line, which is `command` again where every word reads
/// the same unquoted (`ls` and paths, `echo AAA…`).
fn argv_words(command: &str) -> Vec<String> {
    command.split(' ').map(str::to_string).collect()
}

fn hook(name: &'static str, command: String, expect: Expect) -> Case {
    Case {
        name,
        input: Input::Hook(command),
        expect,
    }
}

fn cases() -> Vec<Case> {
    use Expect::*;
    let rm = "rm -rf /";
    // Tree depth is counted in syntax-tree levels (MAX_TREE_DEPTH = 256):
    // `$(` costs two levels (about 127 fit), `(`, `{` and `${x:-` one.
    // "Under" stays a few levels below so that a change of one level in how
    // the walk counts does not flip these cases.
    let under_subst = 120;
    let under_tree = 250;
    let deep = 10_000;
    // The deepest double-quoted `bash -c` nesting that fits in the command
    // limit (about 18 levels, past MAX_PEEL_DEPTH).
    let (bash_deep, bash_depth) = deepest_bash_c(rm, MAX_COMMAND_BYTES - 64);
    assert!(
        bash_depth > MAX_PEEL_DEPTH,
        "only {bash_depth} levels of bash -c fit"
    );
    let (ticks_deep, ticks_depth) = deepest_backticks(rm, MAX_COMMAND_BYTES - 64);
    assert!(
        ticks_depth > MAX_PEEL_DEPTH,
        "only {ticks_depth} levels of backticks fit"
    );
    // A heredoc body of long lines (few newlines).
    let heredoc = |cmd: &str, body: &str| format!("{cmd} <<'EOF'\n{body}EOF");
    let text_line = "the quick brown fox jumps over the lazy dog ".repeat(2);
    let ls_line = format!("ls {}", "src/main.rs ".repeat(8));
    let big_stdin = 5 * MIB;
    // Inner scripts and inline programs: a bit over and a bit under
    // MAX_SCRIPT_BYTES (256 KiB), and far over it (900 KiB, still under the
    // command limit).
    let script_over = MAX_SCRIPT_BYTES + (44 << 10);
    let script_under = MAX_SCRIPT_BYTES - (6 << 10);
    let script_huge = 900 << 10;
    let mut cases = vec![
        // ------------------------------------------------ command size
        hook(
            "size: ls, exactly MAX_COMMAND_BYTES",
            ls_of_len(MAX_COMMAND_BYTES),
            Judged(Some("allow")),
        ),
        hook(
            "size: ls, MAX_COMMAND_BYTES + 1",
            ls_of_len(MAX_COMMAND_BYTES + 1),
            Limit(PARSE),
        ),
        hook(
            "size: rm -rf / then ls, MAX_COMMAND_BYTES + 1",
            format!("{rm}; {}", ls_of_len(MAX_COMMAND_BYTES + 1 - rm.len() - 2)),
            LimitDeny(PARSE),
        ),
        hook(
            "size: one word, exactly MAX_COMMAND_BYTES",
            one_word_of_len(MAX_COMMAND_BYTES),
            Judged(Some("allow")),
        ),
        hook(
            "size: one word, MAX_COMMAND_BYTES + 1",
            one_word_of_len(MAX_COMMAND_BYTES + 1),
            Limit(PARSE),
        ),
        hook(
            "size: echo + 524,286 one-letter words (1 MiB, over MAX_TOKENS)",
            fill("echo", &["a"], MAX_COMMAND_BYTES),
            Limit(PARSE),
        ),
        hook(
            "size: echo + MAX_TOKENS - 1 one-letter words",
            format!("echo{}", " a".repeat(MAX_TOKENS - 1)),
            Judged(Some("allow")),
        ),
        hook(
            "size: echo + MAX_TOKENS one-letter words",
            format!("echo{}", " a".repeat(MAX_TOKENS)),
            Limit(PARSE),
        ),
        hook(
            "size: echo + 1,000,000 one-letter words",
            format!("echo{}", " a".repeat(1_000_000)),
            Limit(PARSE),
        ),
        hook(
            "size: 1,000,000 words then rm -rf /",
            format!("echo{}; {rm}", " a".repeat(1_000_000)),
            LimitDeny(PARSE),
        ),
        // ------------------------------------------------ stdin size
        Case {
            name: "stdin: ls request padded to exactly MAX_STDIN_BYTES",
            input: Input::Raw(request_of_len("ls", MAX_STDIN_BYTES)),
            expect: Judged(Some("allow")),
        },
        Case {
            name: "stdin: ls request padded to MAX_STDIN_BYTES + 1",
            input: Input::Raw(request_of_len("ls", MAX_STDIN_BYTES + 1)),
            expect: Unreadable,
        },
        hook(
            "stdin: cat <<EOF, 5 MiB heredoc",
            heredoc("cat", &lines_of(&text_line, big_stdin)),
            Unreadable,
        ),
        hook(
            "stdin: bash <<EOF, 5 MiB of rm -rf /",
            heredoc("bash", &lines_of(rm, big_stdin)),
            Unreadable,
        ),
        hook(
            "stdin: python3 <<EOF, 5 MiB program",
            heredoc("python3", &python_program(big_stdin)),
            Unreadable,
        ),
        hook(
            "stdin: 5 MiB of newlines then rm -rf /",
            repeated("\n", big_stdin, rm),
            Unreadable,
        ),
        // ------------------------------------------------ heredocs
        hook(
            "heredoc: cat <<EOF, 3 MiB (stdin under, command over)",
            heredoc("cat", &lines_of(&text_line, 3 * MIB)),
            Limit(PARSE),
        ),
        hook(
            "heredoc: cat <<EOF, 1 MiB - 1 KiB of base64-like lines",
            heredoc("cat", &lines_of(&"QUJD".repeat(19), MIB - 1024)),
            Judged(Some("allow")),
        ),
        hook(
            "heredoc: cat <<EOF, 1 MiB - 1 KiB of prose (over MAX_TOKENS words)",
            heredoc("cat", &lines_of(&text_line, MIB - 1024)),
            Limit(PARSE),
        ),
        hook(
            "heredoc: cat <<EOF, 400 KiB of prose (under MAX_TOKENS words)",
            heredoc("cat", &lines_of(&text_line, 400 << 10)),
            Judged(Some("allow")),
        ),
        hook(
            "heredoc: bash <<EOF, 300 KiB of ls (over MAX_SCRIPT_BYTES)",
            heredoc("bash", &lines_of(&ls_line, script_over)),
            Limit(PARSE),
        ),
        hook(
            "heredoc: bash <<EOF, 300 KiB of ls then rm -rf /",
            heredoc(
                "bash",
                &format!("{}{rm}\n", lines_of(&ls_line, script_over)),
            ),
            Limit(PARSE),
        ),
        hook(
            "heredoc: bash <<EOF, 250 KiB of ls (under MAX_SCRIPT_BYTES)",
            heredoc("bash", &lines_of(&ls_line, script_under)),
            Judged(Some("allow")),
        ),
        hook(
            "heredoc: bash <<EOF, 250 KiB of ls then rm -rf /",
            heredoc(
                "bash",
                &format!("{}{rm}\n", lines_of(&ls_line, script_under)),
            ),
            Floor,
        ),
        hook(
            "heredoc: python3 <<EOF, 900 KiB program",
            heredoc("python3", &python_program(script_huge)),
            Limit(PARSE_OR_LANE),
        ),
        hook(
            "heredoc: python3 <<EOF, 250 KiB program",
            heredoc("python3", &python_program(script_under)),
            Judged(Some("allow")),
        ),
        // ------------------------------------------------ inline code
        hook(
            "inline: python3 -c, 900 KiB program",
            format!("python3 -c '{}'", python_program(script_huge)),
            Limit(PARSE_OR_LANE),
        ),
        hook(
            "inline: python3 -c, 250 KiB program",
            format!("python3 -c '{}'", python_program(script_under)),
            Judged(Some("allow")),
        ),
        hook(
            "inline: node -e, 900 KiB program",
            format!("node -e '{}'", js_program(script_huge)),
            Limit(PARSE_OR_LANE),
        ),
        hook(
            "inline: node -e, 250 KiB program",
            format!("node -e '{}'", js_program(script_under)),
            Judged(Some("allow")),
        ),
        // Found by the shell_amplified fuzz target: tree-sitter's error
        // recovery on thousands of unclosed calls took 650 MiB for 64 KiB.
        hook(
            "inline: python3 -c, 5,000 unclosed calls",
            format!(
                "python3 -c \"import os; {}\"",
                "os.system(rt os; ".repeat(5_000)
            ),
            Limit(PARSE_OR_LANE),
        ),
        hook(
            "inline: node -e, 20,000 unclosed calls",
            format!("node -e '{}'", "f(".repeat(20_000)),
            Limit(PARSE_OR_LANE),
        ),
        hook(
            "inline: python3 -c, 10,000 nested (",
            format!("python3 -c 'print({})'", nest("(", "1", ")", deep)),
            Limit(PARSE_OR_LANE),
        ),
        hook(
            "inline: node -e, 10,000 nested [",
            format!("node -e 'console.log({})'", nest("[", "1", "]", deep)),
            Limit(PARSE_OR_LANE),
        ),
        hook(
            "inline: python3 -c, 10,000 nested ( around os.system('rm -rf /')",
            format!(
                "python3 -c 'import os; print({})'",
                nest("(", "os.system(\"rm -rf /\")", ")", deep)
            ),
            Limit(PARSE_OR_LANE),
        ),
        // ------------------------------------------------ nesting
        hook(
            "nest: 10,000 $( closed",
            nest("echo $(", "true", " )", deep),
            Limit(PARSE),
        ),
        hook(
            "nest: 10,000 $( closed, rm -rf / inside",
            nest("echo $(", rm, " )", deep),
            LimitDeny(PARSE),
        ),
        hook("nest: 10,000 $( unclosed", "$(".repeat(deep), Limit(PARSE)),
        hook(
            "nest: 10,000 $( unclosed, rm -rf / inside",
            repeated("$(", deep, rm),
            LimitDeny(PARSE),
        ),
        hook(
            "nest: 120 $( (under the tree limit)",
            nest("echo $(", "true", " )", under_subst),
            Judged(Some("allow")),
        ),
        hook(
            "nest: 120 $(, rm -rf / inside",
            nest("echo $(", rm, " )", under_subst),
            Floor,
        ),
        hook(
            "nest: 10,000 ( subshells",
            nest("( ", "true", " )", deep),
            Limit(PARSE),
        ),
        hook(
            "nest: 10,000 ( subshells, rm -rf / inside",
            nest("( ", rm, " )", deep),
            LimitDeny(PARSE),
        ),
        hook("nest: 10,000 ( unclosed", "( ".repeat(deep), Limit(PARSE)),
        hook(
            "nest: 250 ( subshells",
            nest("( ", "true", " )", under_tree),
            Judged(Some("allow")),
        ),
        hook(
            "nest: 250 ( subshells, rm -rf / inside",
            nest("( ", rm, " )", under_tree),
            Floor,
        ),
        hook(
            "nest: 10,000 { groups",
            nest("{ ", "true", "; }", deep),
            Limit(PARSE),
        ),
        hook(
            "nest: 10,000 { groups, rm -rf / inside",
            nest("{ ", rm, "; }", deep),
            LimitDeny(PARSE),
        ),
        hook(
            "nest: 250 { groups",
            nest("{ ", "true", "; }", under_tree),
            Judged(Some("allow")),
        ),
        hook(
            "nest: 10,000 ${x:-",
            format!("echo {}", nest("${x:-", "y", "}", deep)),
            Limit(PARSE),
        ),
        hook(
            "nest: 10,000 ${x:-, $(rm -rf /) inside",
            format!("echo {}", nest("${x:-", "$(rm -rf /)", "}", deep)),
            LimitDeny(PARSE),
        ),
        hook(
            "nest: 250 ${x:-",
            format!("echo {}", nest("${x:-", "y", "}", under_tree)),
            Judged(Some("allow")),
        ),
        hook(
            "nest: 250 ${x:-, $(rm -rf /) inside",
            format!("echo {}", nest("${x:-", "$(rm -rf /)", "}", under_tree)),
            Floor,
        ),
        hook(
            "nest: backticks escaped as deep as fits in 1 MiB, rm -rf / inside",
            ticks_deep,
            // The first inner body is over MAX_SCRIPT_BYTES: SIGNED by
            // design, like the deepest `bash -c`.
            Limit(PARSE),
        ),
        hook(
            "nest: backticks 2 deep, rm -rf / inside",
            backticks(rm, 2),
            Floor,
        ),
        hook(
            "nest: backticks 10 deep, rm -rf / inside",
            backticks(rm, 10),
            Floor,
        ),
        hook(
            "nest: backticks 10 deep, ls inside",
            backticks("ls", 10),
            Judged(Some("allow")),
        ),
        // Two substitutions side by side: bash runs both (`echo `echo
        // a``echo b`` prints `ab`).
        hook(
            "nest: 2 adjacent backtick substitutions, `true``rm -rf /`",
            format!("echo `true``{rm}`"),
            Floor,
        ),
        hook(
            "nest: 10,000 `true` substitutions, then `rm -rf /`",
            format!("echo {}`{rm}`", "`true`".repeat(deep)),
            LimitDeny(PARSE),
        ),
        hook(
            "nest: 10,001 unbalanced backticks",
            format!("echo {}", "`".repeat(deep + 1)),
            Limit(PARSE),
        ),
        // At the top level `\`` is a literal backquote: harmless text.
        hook(
            "nest: 10,000 escaped backquotes at the top level (literal text)",
            repeated("echo \\`", deep, "x"),
            Judged(Some("allow")),
        ),
        // Over MAX_SCRIPT_BYTES after one level: SIGNED by design (README,
        // "inner script size"), so `ask`, not `deny`.
        hook(
            "nest: bash -c as deep as fits in 1 MiB, rm -rf / inside",
            bash_deep,
            Limit(PARSE),
        ),
        hook(
            "nest: bash -c 16 deep (MAX_PEEL_DEPTH), ls inside",
            bash_c("ls", MAX_PEEL_DEPTH),
            Judged(Some("allow")),
        ),
        hook(
            "nest: bash -c 16 deep, rm -rf / inside",
            bash_c(rm, MAX_PEEL_DEPTH),
            Floor,
        ),
        hook(
            "nest: bash -c 17 deep, ls inside",
            bash_c("ls", MAX_PEEL_DEPTH + 1),
            Limit(PARSE),
        ),
        hook(
            "nest: bash -c 17 deep, rm -rf / inside",
            bash_c(rm, MAX_PEEL_DEPTH + 1),
            LimitDeny(PARSE),
        ),
        // ------------------------------------------------ lists
        hook(
            "list: 100,000 true;",
            repeated("true;", 100_000, "true"),
            Limit(PARSE),
        ),
        hook(
            "list: 100,000 true; then rm -rf /",
            repeated("true;", 100_000, rm),
            LimitDeny(PARSE),
        ),
        hook(
            "list: 15,000 true; then rm -rf / (over MAX_COMMANDS, under MAX_SEPARATORS)",
            repeated("true;", 15_000, rm),
            LimitDeny(PARSE),
        ),
        hook(
            "list: 9,999 true; then ls (MAX_COMMANDS commands)",
            repeated("true;", MAX_COMMANDS - 1, "ls"),
            Judged(Some("allow")),
        ),
        hook(
            "list: 9,999 true; then rm -rf / (MAX_COMMANDS commands)",
            repeated("true;", MAX_COMMANDS - 1, rm),
            Floor,
        ),
        hook(
            "list: 100,000 |",
            repeated("true|", 100_000, "true"),
            Limit(PARSE),
        ),
        hook(
            "list: 100,000 | then rm -rf /",
            repeated("true|", 100_000, rm),
            LimitDeny(PARSE),
        ),
        hook(
            "list: 20,000 | (MAX_SEPARATORS, over MAX_COMMANDS)",
            repeated("cat|", MAX_SEPARATORS, "cat"),
            Limit(PARSE),
        ),
        hook(
            "list: 20,000 | then rm -rf / (MAX_SEPARATORS)",
            repeated("cat|", MAX_SEPARATORS, rm),
            LimitDeny(PARSE),
        ),
        hook(
            "list: 9,999 | (over MAX_PIPES)",
            repeated("cat|", MAX_COMMANDS - 1, "cat"),
            Limit(PARSE),
        ),
        hook(
            "list: 9,999 | then rm -rf /",
            repeated("cat|", MAX_COMMANDS - 1, rm),
            LimitDeny(PARSE),
        ),
        hook(
            "list: MAX_PIPES | (cat only)",
            repeated("cat|", MAX_PIPES, "cat"),
            Judged(Some("allow")),
        ),
        hook(
            "list: MAX_PIPES | then rm -rf /",
            repeated("cat|", MAX_PIPES, rm),
            Floor,
        ),
        hook(
            "list: MAX_PIPES + 1 | then ls",
            repeated("cat|", MAX_PIPES + 1, "ls"),
            Limit(PARSE),
        ),
        // The same shape without the floor: any `-flag operand` as the last
        // stage of a long pipeline, harmless or not.
        hook(
            "list: 3,000 | then ls -l x",
            repeated("cat|", 3_000, "ls -l x"),
            Limit(PARSE),
        ),
        hook(
            "list: 3,000 | then ls x",
            repeated("cat|", 3_000, "ls x"),
            Limit(PARSE),
        ),
        hook(
            "list: 100,000 newlines of true",
            repeated("true\n", 100_000, "true"),
            Limit(PARSE),
        ),
        hook(
            "list: 100,000 empty lines then rm -rf /",
            repeated("\n", 100_000, rm),
            LimitDeny(PARSE),
        ),
        hook(
            "list: 19,999 empty lines then rm -rf /",
            repeated("\n", MAX_SEPARATORS - 1, rm),
            Floor,
        ),
        hook(
            "list: 9,999 lines of true then ls",
            repeated("true\n", MAX_COMMANDS - 1, "ls"),
            Judged(Some("allow")),
        ),
        hook(
            "list: 100,000 & then rm -rf /",
            repeated("true &", 100_000, rm),
            LimitDeny(PARSE),
        ),
        hook(
            "list: 100,000 && then rm -rf /",
            repeated("true && ", 100_000, rm),
            LimitDeny(PARSE),
        ),
        // ------------------------------------------------ wrappers
        hook(
            "wrap: 15 sudo, ls",
            repeated("sudo ", MAX_PEEL_DEPTH - 1, "ls"),
            Judged(None),
        ),
        hook(
            "wrap: 16 sudo (MAX_PEEL_DEPTH), ls",
            repeated("sudo ", MAX_PEEL_DEPTH, "ls"),
            Judged(None),
        ),
        hook(
            "wrap: 16 sudo (MAX_PEEL_DEPTH), rm -rf /",
            repeated("sudo ", MAX_PEEL_DEPTH, rm),
            Floor,
        ),
        hook(
            "wrap: 17 sudo, rm -rf /",
            repeated("sudo ", MAX_PEEL_DEPTH + 1, rm),
            LimitDeny(PARSE),
        ),
        hook(
            "wrap: 10,000 sudo, rm -rf /",
            repeated("sudo ", deep, rm),
            LimitDeny(PARSE),
        ),
        hook(
            "wrap: 10,000 sudo, ls",
            repeated("sudo ", deep, "ls"),
            Limit(PARSE),
        ),
        hook(
            "wrap: 16 eval (MAX_PEEL_DEPTH), ls",
            repeated("eval ", MAX_PEEL_DEPTH, "ls"),
            Judged(Some("allow")),
        ),
        hook(
            "wrap: 10,000 eval, rm -rf /",
            repeated("eval ", deep, rm),
            LimitDeny(PARSE),
        ),
        hook(
            "wrap: 16 xargs (MAX_PEEL_DEPTH), rm -rf /",
            repeated("xargs ", MAX_PEEL_DEPTH, rm),
            Floor,
        ),
        hook(
            "wrap: 10,000 xargs, rm -rf /",
            repeated("xargs ", deep, rm),
            LimitDeny(PARSE),
        ),
        hook(
            "wrap: 2,000 x (sudo env timeout 5 nice xargs), rm -rf /",
            repeated("sudo env timeout 5 nice xargs ", 2_000, rm),
            LimitDeny(PARSE),
        ),
        hook(
            "wrap: ls | 10,000 x (| xargs echo)",
            format!("ls {}", "| xargs echo ".repeat(deep)),
            Limit(PARSE),
        ),
        hook(
            "wrap: ls | 10,000 x (| xargs echo) | xargs rm -rf /",
            format!("ls {}| xargs {rm}", "| xargs echo ".repeat(deep)),
            LimitDeny(PARSE),
        ),
        hook(
            "wrap: ls | 500 x (| xargs echo)",
            format!("ls {}", "| xargs echo ".repeat(500)),
            Limit(PARSE),
        ),
        // `xargs` is read two ways (its command, and its command fed by the
        // stage before); at most 16 such readings a request are followed.
        hook(
            "wrap: ls | 16 x (| xargs echo)",
            format!("ls {}", "| xargs echo ".repeat(16)),
            Judged(Some("allow")),
        ),
        hook(
            "wrap: ls | 17 x (| xargs echo)",
            format!("ls {}", "| xargs echo ".repeat(17)),
            Limit(PARSE),
        ),
        // What a pipe hands to `xargs` is followed back at most 64 stages,
        // so every `xargs` of a long pipeline costs the same.
        hook(
            "wrap: ls | 999 x (| xargs cat)",
            format!("ls {}", "| xargs cat ".repeat(999)),
            // Past 64 stages the names may be any file's: the secret
            // check asks (more specific than the limit's own rule).
            Judged(Some("ask")),
        ),
        // Values the line gives a variable are tried 256 times a request
        // at most (each is a secret check); past that, asked.
        hook(
            "variables: for over 60 words, 3,000 x cat $f/$f/$f",
            format!(
                "for f in {}; do {}done",
                (0..60)
                    .map(|i| format!("w{i}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                "cat $f/$f/$f; ".repeat(3_000)
            ),
            Judged(Some("ask")),
        ),
        // A substitution is parsed for the names it prints only up to 4
        // KiB: each of 250 `cat $x` reads the value again.
        hook(
            "variables: x=$(echo 6,000 x $A), 250 x cat $x",
            format!(
                "x=$(echo {}); {}",
                ["$A"; 6_000].join(" "),
                "cat $x; ".repeat(250)
            ),
            Judged(Some("ask")),
        ),
        hook(
            "variables: 200 x=$(echo ~/.ssh/id_rsa), 200 x cat $x",
            format!(
                "{}{}",
                "x=$(echo ~/.ssh/id_rsa); ".repeat(200),
                "cat $x; ".repeat(200)
            ),
            Judged(Some("ask")),
        ),
        // ------------------------------------------------ the CLI
        Case {
            name: "check: one word, MAX_COMMAND_BYTES + 1",
            input: Input::Check(argv_words(&fill(
                "echo",
                &["A".repeat(90_000).as_str()],
                MAX_COMMAND_BYTES + 1,
            ))),
            expect: Limit(PARSE),
        },
        Case {
            name: "check: ls, exactly MAX_COMMAND_BYTES",
            input: Input::Check(argv_words(&ls_of_len(MAX_COMMAND_BYTES))),
            expect: Judged(Some("allow")),
        },
        Case {
            name: "check: 10,000 $( closed, rm -rf / inside",
            input: Input::Check(vec![nest("echo $(", rm, " )", deep)]),
            expect: LimitDeny(PARSE),
        },
        Case {
            name: "check: 100,000 true; then rm -rf /",
            input: Input::Check(argv_words(&repeated("true; ", 100_000, rm))),
            expect: LimitDeny(PARSE),
        },
        Case {
            name: "check: 10,000 sudo, rm -rf /",
            input: Input::Check(vec![repeated("sudo ", deep, rm)]),
            expect: LimitDeny(PARSE),
        },
    ];
    // Costs that grew with the square of the command, or with a large
    // constant per word, each found at 1 MiB; `rm -rf /` behind each must
    // still be judged within the bounds: (name, head, unit, tail).
    let work: [WorkCase; 5] = [
        (
            "work: a write 80,000 made-up names deep, then rm -rf /",
            "echo x >> ~/.ssh/",
            |_| "a/".to_string(),
            "x; rm -rf /",
        ),
        (
            "work: 87,000 write targets in one command, then rm -rf /",
            "touch",
            |_| " config.tpl".to_string(),
            "; rm -rf /",
        ),
        (
            "work: 1 MiB of distinct globs, then rm -rf /",
            "cat",
            |i| format!(" s/*.x{i}"),
            "; rm -rf /",
        ),
        (
            "work: one glob of 1 MiB, then rm -rf /",
            "rm -rf ./d/*",
            |_| "d/*".to_string(),
            "; rm -rf /",
        ),
        (
            "work: rm -rf / and 1 MiB of stars (`/**` to bash)",
            "rm -rf /",
            |_| "*".to_string(),
            "",
        ),
    ];
    cases.extend(
        work.into_iter()
            .map(|(name, head, unit, tail)| hook(name, behind_1mib(head, unit, tail), Floor)),
    );
    cases
}

/// A case of work per word: its name, the command's head, the unit
/// repeated (given its index), and the tail after the units.
type WorkCase = (
    &'static str,
    &'static str,
    fn(usize) -> String,
    &'static str,
);

/// `head`, then `unit(0)`, `unit(1)`, … while the command stays under
/// [`MAX_COMMAND_BYTES`] with `tail` after them.
fn behind_1mib(head: &str, unit: impl Fn(usize) -> String, tail: &str) -> String {
    let mut command = head.to_string();
    for i in 0.. {
        let next = unit(i);
        if command.len() + next.len() + tail.len() > MAX_COMMAND_BYTES {
            break;
        }
        command.push_str(&next);
    }
    command.push_str(tail);
    command
}

#[test]
fn every_limit_holds_in_the_real_hook_process() {
    let cases = cases();
    let mut broken = Vec::new();
    println!();
    println!("| case | input | exit | decision | rule | peak RSS | CPU |");
    println!("|---|---|---|---|---|---|---|");
    for case in &cases {
        let size = match &case.input {
            Input::Hook(c) => c.len(),
            Input::Raw(b) => b.len(),
            Input::Check(w) => w.iter().map(|w| w.len() + 1).sum(),
        };
        let o = run(case);
        let exit = match (o.exit, o.signal) {
            (Some(code), _) => code.to_string(),
            (None, Some(sig)) => format!("signal {sig}"),
            _ => "?".into(),
        };
        println!(
            "| {} | {} | {exit}{} | {} | {} | {:.1} MiB | {} ms |",
            case.name.replace('|', "\\|"),
            human_size(size),
            if o.hung { " (hung)" } else { "" },
            o.decision,
            portcullis::limits::clip(&o.rule, 80).replace('|', "\\|"),
            mib(o.max_rss_bytes),
            o.cpu.as_millis()
        );
        for why in failures(case, &o) {
            broken.push(format!("{}: {why}", case.name));
        }
    }
    println!();
    assert!(
        broken.is_empty(),
        "{} of {} limit cases broke:\n  {}",
        broken.len(),
        cases.len(),
        broken.join("\n  ")
    );
}

fn human_size(bytes: usize) -> String {
    if bytes >= MIB {
        format!("{:.2} MiB", bytes as f64 / MIB as f64)
    } else if bytes >= 1024 {
        format!("{:.0} KiB", bytes as f64 / 1024.0)
    } else {
        format!("{bytes} B")
    }
}
