//! No input may panic the classifier or make a broken command FREE.
//!
//! Every labelled corpus command is cut at every character boundary and
//! judged again: the engine must return a decision for each (a panic fails
//! the test), and a cut that leaves a quote, `$(` or heredoc open must not
//! be FREE when bash itself rejects it.

use portcullis::{Decision, Verdict, evaluate};
use std::process::{Command, Stdio};

use crate::common;

use common::Scratch;

/// What every decision must be, whatever the input: its top finding is
/// one of its findings and the strictest of them (with no findings: FREE
/// `verb.empty`, the default). Returns whether the top is the default.
fn assert_sound(command: &str, decision: &Decision) -> bool {
    let top = &decision.top;
    assert!(
        !top.rule.to_string().is_empty() && top.rule.to_string().contains('.'),
        "{command:?}: rule id {:?} is not a dotted id",
        top.rule
    );
    let default = top.rule == "verb.empty" && decision.findings.is_empty();
    if decision.findings.is_empty() {
        assert!(
            top.rule == "verb.empty" && top.verdict == Verdict::Free,
            "{command:?}: no findings but {} {}",
            top.verdict,
            top.rule
        );
    } else {
        assert!(
            decision.findings.contains(top),
            "{command:?}: the top finding {} {} is none of its findings",
            top.verdict,
            top.rule
        );
        let strictest = decision.findings.iter().map(|f| f.verdict).max();
        assert_eq!(
            Some(top.verdict),
            strictest,
            "{command:?}: the top is not the strictest finding"
        );
    }
    default
}

fn corpus_commands() -> Vec<String> {
    common::load_cases()
        .into_iter()
        .map(|c| c.command)
        .collect()
}

#[test]
fn every_prefix_of_every_corpus_command_gets_a_decision() {
    let scratch = Scratch::new("robustness");
    let location = scratch.location();
    let mut judged = 0usize;
    let mut empty = 0usize;
    let mut by_verdict = [0usize; 4];
    for command in corpus_commands() {
        for (end, _) in command.char_indices().skip(1) {
            let decision = evaluate(&command[..end], &location);
            empty += usize::from(assert_sound(&command[..end], &decision));
            by_verdict[decision.verdict() as usize] += 1;
            judged += 1;
        }
    }
    println!("{judged} prefixes judged ({empty} with nothing to run): {by_verdict:?} by verdict");
    assert!(judged > 10_000, "only {judged} prefixes");
    // Prefixes of the corpus reach every verdict; the default is rare
    // (blank lines, comments, assignments: about 4%).
    assert!(
        by_verdict.iter().all(|n| *n > 0),
        "some verdict never reached: {by_verdict:?}"
    );
    assert!(
        empty * 10 < judged,
        "{empty} of {judged} have nothing to run"
    );
}

/// `bash -n` on many scripts at once: one bash reads them NUL-separated and
/// prints 1 or 0 per script.
fn bash_accepts(scripts: &[String]) -> Option<Vec<bool>> {
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(r#"while IFS= read -r -d '' s; do if bash -n -O extglob -c "$s" 2>/dev/null; then echo 1; else echo 0; fi; done"#)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let mut input = Vec::new();
    for s in scripts {
        input.extend_from_slice(s.as_bytes());
        input.push(0);
    }
    let mut stdin = child.stdin.take()?;
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().ok()?;
    writer.join().ok()?;
    Some(
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(|l| l == "1")
            .collect(),
    )
}

/// Asserts that bash parses every one of `free` (commands judged FREE).
/// Without bash the check cannot be made: the test fails.
fn assert_bash_accepts_all(free: &[String], what: &str) {
    let accepted = bash_accepts(free)
        .unwrap_or_else(|| panic!("bash could not be run; {what} cannot be checked with bash -n"));
    assert_eq!(accepted.len(), free.len(), "bash answered for every script");
    let rejected: Vec<&String> = free
        .iter()
        .zip(&accepted)
        .filter(|(_, ok)| !**ok)
        .map(|(c, _)| c)
        .collect();
    println!("{} {what} checked with bash -n", free.len());
    assert!(
        rejected.is_empty(),
        "FREE although bash -n rejects them: {:?}",
        &rejected[..rejected.len().min(20)]
    );
}

#[test]
fn truncated_commands_that_bash_rejects_are_never_free() {
    let scratch = Scratch::new("robustness");
    let location = scratch.location();
    // Cut each command in the middle of every quote, `$(` and heredoc.
    let mut cuts = Vec::new();
    for command in corpus_commands() {
        for (at, c) in command.char_indices() {
            if matches!(c, '\'' | '"' | '(' | '`' | '<' | '{') && at + 1 < command.len() {
                let end = at + c.len_utf8() + 1;
                if command.is_char_boundary(end) {
                    cuts.push(command[..end].to_string());
                }
            }
        }
    }
    cuts.sort();
    cuts.dedup();
    let free: Vec<String> = cuts
        .into_iter()
        .filter(|c| evaluate(c, &location).verdict() == Verdict::Free)
        .collect();
    assert_bash_accepts_all(&free, "FREE truncations");
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

/// Shell-shaped noise: verbs, wrappers, operators, quotes, substitutions and
/// heredoc markers in random order. Every string must get a decision, and
/// one that bash cannot parse must not be FREE.
#[test]
fn random_shell_soup_gets_a_decision_and_is_free_only_when_bash_parses_it() {
    let tokens = [
        "rm",
        "-rf",
        "/",
        "~",
        "ls",
        "git",
        "reset",
        "--hard",
        "sudo",
        "env",
        "X=1",
        "bash",
        "-c",
        "eval",
        "xargs",
        "find",
        "-exec",
        "{}",
        "\\;",
        "|",
        "||",
        "&&",
        ";",
        "&",
        "(",
        ")",
        "{",
        "}",
        "$(",
        "`",
        "'",
        "\"",
        "<<",
        "EOF",
        "\n",
        ">",
        ">>",
        "<",
        "2>&1",
        "$x",
        "${x:-y}",
        "*",
        "..",
        "cd",
        "python3",
        "-",
        "curl",
        "sh",
        "\\",
        "#",
        "!",
        "[[",
        "]]",
        "if",
        "then",
        "fi",
        "for",
        "in",
        "do",
        "done",
        "case",
        "esac",
        "function",
        "f()",
        "<(",
        ">(",
        "$'\\x72m'",
        "<<<",
        "|&",
        "&>",
        "coproc",
        "select",
        "((",
        "))",
        "arr=(",
        "a[1]=x",
        "${#a[@]}",
        "$((1+2))",
        "\"$@\"",
        "'it''s'",
        "\\\n",
        ";;",
        "2>",
        ">|",
        "<>",
        "exec",
        "time",
        "-c",
        "--",
        "~root",
        "{a,b}",
        "!(x)",
        "@(y)",
    ];
    let scratch = Scratch::new("robustness");
    let location = scratch.location();
    // More runs by hand: PORTCULLIS_SOUP_RUNS=1000000 PORTCULLIS_SOUP_SEED=7.
    let runs: usize = std::env::var("PORTCULLIS_SOUP_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let seed: u64 = std::env::var("PORTCULLIS_SOUP_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x9e37_79b9_7f4a_7c15);
    let mut rng = Rng(seed.max(1));
    let mut free = Vec::new();
    for _ in 0..runs {
        let len = 1 + (rng.next() % 12) as usize;
        let line: Vec<&str> = (0..len).map(|_| rng.pick(&tokens)).collect();
        let command = line.join(" ");
        let decision = evaluate(&command, &location);
        if decision.verdict() == Verdict::Free {
            free.push(command);
        }
    }
    assert_bash_accepts_all(&free, "random FREE commands");
}

/// Arbitrary bytes (as text) must never panic the classifier.
#[test]
fn random_text_never_panics() {
    let scratch = Scratch::new("robustness");
    let location = scratch.location();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..5_000 {
        let len = (rng.next() % 200) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| (rng.next() % 128) as u8).collect();
        let text = String::from_utf8_lossy(&bytes);
        let decision = evaluate(&text, &location);
        assert_sound(&text, &decision);
    }
}

/// A floor command wrapped in random shell structure (lists, pipes,
/// groups, substitutions, wrappers, redirections in odd places) is BLOCKED
/// whenever bash accepts the line; where bash rejects it, it is never FREE.
#[test]
fn floor_commands_stay_blocked_in_random_structure() {
    let floors = [
        "rm -rf /",
        "git reset --hard",
        "rm -r ~",
        "chmod -R 777 .",
        "git push --force origin main",
    ];
    let benign = ["ls", "echo hi", "true", "cat f", "git status", "x=1"];
    let wrappers = [
        "",
        "sudo ",
        "env A=1 ",
        "timeout 5 ",
        "nice -n 5 ",
        "command ",
        "nohup ",
    ];
    let redirects = ["", " 2>/dev/null", " >/dev/null 2>&1", " </dev/null"];
    let runs: usize = std::env::var("PORTCULLIS_SOUP_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_000);
    let mut rng = Rng(0x51_7cc1_b727_220a);
    let scratch = Scratch::new("robustness");
    let location = scratch.location();
    let mut lines = Vec::new();
    for _ in 0..runs {
        let inner = format!(
            "{}{}{}",
            rng.pick(&wrappers),
            rng.pick(&floors),
            rng.pick(&redirects)
        );
        let b = rng.pick(&benign);
        let line = match rng.next() % 14 {
            0 => format!("{b}; {inner}"),
            1 => format!("{b} && {inner}"),
            2 => format!("{b} || {inner}"),
            3 => format!("{b} | {inner}"),
            4 => format!("echo $({inner})"),
            5 => format!("echo `{inner}`"),
            6 => format!("( {inner} )"),
            7 => format!("{{ {inner}; }}"),
            8 => format!("if {b}; then {inner}; fi"),
            9 => format!("for i in 1 2; do {inner}; done"),
            10 => format!("bash -c '{inner}'"),
            11 => format!("f() {{ {inner}; }}; f"),
            12 => format!("{b}\n{inner}\n{b}"),
            _ => format!("while {b}; do {inner}; break; done"),
        };
        lines.push(line);
    }
    let verdicts: Vec<Verdict> = lines
        .iter()
        .map(|l| evaluate(l, &location).verdict())
        .collect();
    let free: Vec<&String> = lines
        .iter()
        .zip(&verdicts)
        .filter(|(_, v)| **v == Verdict::Free)
        .map(|(l, _)| l)
        .collect();
    assert!(
        free.is_empty(),
        "floor commands judged FREE: {:?}",
        &free[..free.len().min(10)]
    );
    let not_blocked: Vec<String> = lines
        .iter()
        .zip(&verdicts)
        .filter(|(_, v)| **v != Verdict::Blocked)
        .map(|(l, _)| l.clone())
        .collect();
    let accepted = bash_accepts(&not_blocked)
        .expect("bash could not be run; the lines not BLOCKED cannot be checked with bash -n");
    let missed: Vec<&String> = not_blocked
        .iter()
        .zip(&accepted)
        .filter(|(_, ok)| **ok)
        .map(|(l, _)| l)
        .collect();
    println!(
        "{} lines, {} not BLOCKED (all rejected by bash)",
        lines.len(),
        not_blocked.len()
    );
    assert!(
        missed.is_empty(),
        "bash runs these but they are not BLOCKED: {:?}",
        &missed[..missed.len().min(10)]
    );
}

/// Words with multi-byte characters in every position (flags, paths,
/// variables, printf formats) must never panic on a character boundary.
#[test]
fn multibyte_text_in_every_position_never_panics() {
    let tokens = [
        "rm",
        "-rf",
        "/",
        "é",
        "ü",
        "—",
        "🙂",
        "\u{a0}",
        "$'\\xc3'",
        "'",
        "\"",
        "\\",
        "-é",
        "-rfé",
        "~é",
        "${é}",
        "$é",
        "é=1",
        "x=é",
        "|",
        ";",
        "&&",
        "(",
        ")",
        "$(",
        "`",
        "<<",
        "EOF",
        "\n",
        "*é",
        "{é,ü}",
        "--é",
        "-ié",
        "sed",
        "-i",
        "find",
        "-exec",
        "{}",
        "\\;",
        "git",
        "push",
        "-fé",
        "ssh",
        "é@h",
        "awk",
        "{print é}",
        "printf",
        "%é",
        "echo",
        "-e",
        "\\xé",
        "xargs",
        "-Ié",
        "parallel",
        ":::",
        "chmod",
        "-R",
        "7é7",
        "kill",
        "-é1",
        "env",
        "-S",
        "-iSé",
        "-iu",
        "--un",
        "--split=é",
        "'\\c é'",
        "\"\\_é\"",
        "'${é}'",
        "sudo",
        "-Eué",
    ];
    let scratch = Scratch::new("robustness");
    let location = scratch.location();
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for _ in 0..20_000 {
        let len = 1 + (rng.next() % 10) as usize;
        let line: Vec<&str> = (0..len).map(|_| rng.pick(&tokens)).collect();
        let line = line.join(" ");
        let decision = evaluate(&line, &location);
        assert_sound(&line, &decision);
    }
}

/// Every history reader on hostile bytes: random bytes and mangled pieces
/// of each format (truncated JSON, stray backslashes, metafied bytes, bare
/// timestamps) never panic, and every line that yields no command is
/// reported rather than dropped when it is not blank.
#[test]
fn history_readers_survive_random_input() {
    use portcullis::history::{self, Format, Kind};
    let pieces: &[&[u8]] = &[
        b"#1672918999\n", b"#-99999999999999999999\n", b": 1613322469:0;", b": x:y;", b"\\\n",
        b"\x83", b"\x83\xff", b"- cmd: ", b"  when: ", b"  paths:\n", b"    - ", b"{", b"}",
        b"\"", b"{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"name\":\"Bash\",\"input\":{\"command\":",
        b"{\"cmd\":", b"<bash-input>", b"</bash-input>", b"\n", b"\r\n", b"ls -la", b"\xff\xfe", b"\0",
    ];
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let runs: usize = std::env::var("PORTCULLIS_HISTORY_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    for _ in 0..runs {
        let mut input = Vec::new();
        for _ in 0..(rng.next() % 40) {
            if rng.next().is_multiple_of(4) {
                input.push((rng.next() % 256) as u8);
            } else {
                input.extend_from_slice(pieces[(rng.next() % pieces.len() as u64) as usize]);
            }
        }
        for (_, format) in Format::NAMES {
            let mut records = Vec::new();
            history::read(*format, input.as_slice(), |r| records.push(r))
                .expect("reading from memory cannot fail");
            let lines = input.split(|b| *b == b'\n').count();
            for record in &records {
                assert!(
                    record.line >= 1 && record.line <= lines,
                    "{format:?}: line {} of {lines}",
                    record.line
                );
                if let Kind::Command(c) = &record.kind {
                    assert!(
                        !c.trim().is_empty()
                            || *format == Format::Fish
                            || *format == Format::Claude
                            || *format == Format::Jsonl,
                        "{format:?}: an empty command"
                    );
                }
            }
        }
        let _ = history::detect(None, &input);
    }
}

/// An abort inside the process (tree-sitter out of memory, a stack
/// overflow) must end it with exit code 2, which blocks the call, never by
/// signal, which Claude Code reads as "no opinion". The hook is stopped
/// while it waits on stdin and sent SIGABRT.
#[test]
fn an_abort_or_a_fault_exits_2() {
    for signal in [libc::SIGABRT, libc::SIGSEGV, libc::SIGBUS] {
        signal_exits_2(signal);
    }
}

/// A stack overflow in the hook (here forced by a stack of 256 KiB and a
/// command nested 3,000 deep, which needs more) ends with exit code 2 and
/// the blocking line, never by signal: the fault handler runs on the
/// process's alternate signal stack (set up by `start::main` on Linux,
/// where Rust's own start-up is not used). The same binary with the same
/// small stack still decides an ordinary call, so the limit is the only
/// cause.
#[test]
fn a_stack_overflow_exits_2() {
    use std::os::unix::process::CommandExt;
    let scratch = Scratch::new("stack-overflow");
    let deep = format!("echo {}x{}", "$(".repeat(3000), ")".repeat(3000));
    let run = |command: &str| {
        let request = serde_json::json!({
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "cwd": scratch.cwd(),
        });
        let mut child = Command::new(env!("CARGO_BIN_EXE_portcullis"));
        child.args(["hook", "--host", "claude"]);
        // SAFETY: setrlimit is async-signal-safe and touches only the child.
        unsafe {
            child.pre_exec(|| {
                let small = libc::rlimit {
                    rlim_cur: 256 * 1024,
                    rlim_max: libc::RLIM_INFINITY,
                };
                if libc::setrlimit(libc::RLIMIT_STACK, &small) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        fed(&mut child, request.to_string().as_bytes())
    };
    let ordinary = run("ls -la");
    assert_eq!(ordinary.status.code(), Some(0), "{ordinary:?}");
    assert!(String::from_utf8_lossy(&ordinary.stdout).contains("\"allow\""));
    exited_2_blocking(&run(&deep), "a stack overflow");
}

/// Runs `command` with `input` on its stdin (stdout and stderr kept).
fn fed(command: &mut Command, input: &[u8]) -> std::process::Output {
    use std::io::Write;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start portcullis");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input).expect("write the input");
    drop(stdin);
    child.wait_with_output().expect("wait for portcullis")
}

/// Asserts that `output` is exit code 2 with the blocking line: `what`
/// ended the process the way that blocks the call, not by signal.
fn exited_2_blocking(output: &std::process::Output, what: &str) {
    assert_eq!(
        output.status.code(),
        Some(2),
        "{what} must exit 2, not end by signal: {:?}, stderr {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("blocking to be safe"));
}

/// The same for replay's worker threads: each has an alternate signal
/// stack of its own, so a worker that overflows its stack (here 256 KiB,
/// set by `RUST_MIN_STACK`, on a command nested 3,000 deep) ends replay
/// with exit code 2 and the blocking line, not by signal.
#[test]
fn a_stack_overflow_in_a_replay_worker_exits_2() {
    let deep = format!("echo {}x{}\nls\n", "$(".repeat(3000), ")".repeat(3000));
    let output = fed(
        Command::new(env!("CARGO_BIN_EXE_portcullis"))
            .args(["replay", "--threads", "2", "--format", "lines", "-"])
            .env("RUST_MIN_STACK", "262144"),
        deep.as_bytes(),
    );
    exited_2_blocking(&output, "a worker's stack overflow");
}

fn signal_exits_2(signal: libc::c_int) {
    let child = Command::new(env!("CARGO_BIN_EXE_portcullis"))
        .arg("hook")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start portcullis");
    // Wait until the process catches SIGABRT (bit 6 of SigCgt in
    // /proc/PID/status), so the test does not race its start.
    let status_file = format!("/proc/{}/status", child.id());
    let catches_abort = || {
        std::fs::read_to_string(&status_file)
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("SigCgt:"))
                    .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            })
            .is_some_and(|mask| mask & (1 << (signal - 1)) != 0)
    };
    let mut waited = 0;
    while !catches_abort() {
        assert!(
            waited < 1000,
            "portcullis never installed its handler for signal {signal}"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
        waited += 1;
    }
    // SAFETY: signalling our own child process.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    assert_eq!(sent, 0, "kill failed");
    let output = child.wait_with_output().expect("wait for portcullis");
    exited_2_blocking(&output, &format!("signal {signal}"));
}
