//! `portcullis replay` over every history format, on fixtures copied into
//! `tests/data/history/` (bash with timestamps, zsh extended and metafied,
//! fish with corrupted entries, a Claude Code transcript): every command
//! found, in order, with its line, and broken lines reported, never
//! skipped.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/history")
        .join(name)
}

/// Replays `args` with `--json`; the rows, in order.
fn rows(args: &[&str], stdin: &[u8]) -> Vec<Value> {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = replay(&all, stdin);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

fn commands(rows: &[Value]) -> Vec<&str> {
    rows.iter()
        .filter(|r| r["rule"] != "parse.encoding")
        .map(|r| r["command"].as_str().unwrap_or(""))
        .collect()
}

fn broken_lines(rows: &[Value]) -> Vec<u64> {
    rows.iter()
        .filter(|r| r["rule"] == "parse.encoding")
        .map(|r| r["line"].as_u64().unwrap_or(0))
        .collect()
}

fn path(name: &str) -> String {
    fixture(name).to_string_lossy().into_owned()
}

#[test]
fn bash_history_with_timestamps() {
    let r = rows(&[&path("bash--parse_with_timestamps.bash_history")], b"");
    assert_eq!(commands(&r), ["git reset", "git clean -dxf", "cd ../"]);
    assert_eq!(r[0]["timestamp"], "1672918999");
    assert_eq!(r[1]["line"], 4);
    assert_eq!(r[1]["verdict"], "BLOCKED");
    let r = rows(
        &[&path(
            "bash--timestamp_near_range_start_does_not_panic_on_backfill.bash_history",
        )],
        b"",
    );
    assert_eq!(commands(&r), ["cargo install atuin", "cargo update"]);
    assert_eq!(
        broken_lines(&r),
        [2],
        "the out-of-range timestamp is reported with its line"
    );
}

#[test]
fn zsh_extended_and_metafied() {
    let r = rows(&[&path("zsh--test_parse_file.zsh_history")], b"");
    assert_eq!(commands(&r).len(), 3);
    // zsh's backslash before the newline is dropped; the command's own
    // backslash stays, so bash reads `cargo install atuin; cargo update`.
    assert_eq!(commands(&r)[1], "cargo install atuin; \\\ncargo update");
    assert_eq!(r[2]["line"], 4);
    let r = rows(&[&path("zsh--test_parse_metafied.zsh_history")], b"");
    assert_eq!(commands(&r), ["echo 你好", "ls ~/音乐"]);
}

#[test]
fn fish_with_corrupted_entries() {
    let r = rows(&[&path("fish--parse_complex.fish_history")], b"");
    assert_eq!(commands(&r).len(), 8);
    assert_eq!(broken_lines(&r).len(), 5, "{r:?}");
    let r = rows(
        &[&path("fish--parse_out_of_range_timestamp.fish_history")],
        b"",
    );
    assert_eq!(commands(&r), ["echo before", "echo corrupt", "echo after"]);
    assert_eq!(broken_lines(&r), [4]);
}

#[test]
fn claude_transcript_and_folder() {
    let r = rows(
        &[&path("claude-code-log--representative_messages.jsonl")],
        b"",
    );
    assert_eq!(
        commands(&r),
        [
            "Edit /tmp/decorator_example.py",
            "python /tmp/decorator_example.py"
        ]
    );
    assert_eq!(r[0]["tool"], "Edit");
    assert_eq!(r[0]["session"], "test_session");
    assert_eq!(r[1]["cwd"], "/tmp");
    // A folder replays every transcript under it.
    let dir = fixture("");
    let folder = rows(&[&dir.to_string_lossy()], b"");
    assert_eq!(commands(&folder), commands(&r));
}

#[test]
fn typed_commands_and_edits_are_kept_apart() {
    let transcript = br#"{"type":"assistant","sessionId":"s","cwd":"/tmp/p","message":{"content":[{"type":"tool_use","name":"Write","input":{"file_path":"/tmp/p/.env","content":"x"}}]}}
{"type":"user","sessionId":"s","message":{"content":"<bash-input>git status</bash-input>"}}
"#;
    let r = rows(&["--format", "claude", "-"], transcript);
    assert_eq!(r[0]["verdict"], "BLOCKED");
    assert_eq!(r[0]["rule"], "cage.secrets");
    assert_eq!(r[1]["typed"], true);
    assert_eq!(r[1]["command"], "git status");
}

#[test]
fn auto_detects_every_format_from_stdin() {
    for (input, expect) in [
        (&b"#1672918999\ngit status\n"[..], "git status"),
        (b": 1613322469:0;git status\n", "git status"),
        (b"- cmd: git status\n  when: 1639162832\n", "git status"),
        (
            b"{\"session\":\"s\",\"step\":1,\"cmd\":\"git status\"}\n",
            "git status",
        ),
        (b"git status\n", "git status"),
    ] {
        let r = rows(&["-"], input);
        assert_eq!(commands(&r), [expect], "{}", String::from_utf8_lossy(input));
    }
}

/// Runs `replay --cwd /tmp ARGS` with `stdin`.
fn replay(args: &[&str], stdin: &[u8]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_portcullis"))
        .arg("replay")
        .args(["--cwd", "/tmp"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run portcullis");
    // A usage error exits before reading stdin: a closed pipe is fine.
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    child.wait_with_output().expect("wait")
}

/// Runs `replay ARGS` (no `--json`); exit code and stdout.
fn run(args: &[&str], stdin: &[u8]) -> (Option<i32>, String) {
    let out = replay(args, stdin);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn summary_agrees_with_the_rows() {
    let file = path("bash--parse_with_timestamps.bash_history");
    let fish = path("fish--parse_complex.fish_history");
    let rows = rows(&[&file, &fish], b"");
    let (code, text) = run(&["--summary-json", &file, &fish], b"");
    assert_eq!(code, Some(0));
    let summary: Value = serde_json::from_str(text.trim()).expect("one JSON object");
    let judged: Vec<&Value> = rows
        .iter()
        .filter(|r| r["rule"] != "parse.encoding")
        .collect();
    assert_eq!(summary["commands"], judged.len());
    for verdict in ["FREE", "SIGNED", "BLOCKED", "UNKNOWN"] {
        let n = judged.iter().filter(|r| r["verdict"] == verdict).count();
        assert_eq!(summary["verdicts"][verdict], n, "{verdict}");
    }
    assert_eq!(summary["unreadable"], rows.len() - judged.len());
    assert_eq!(summary["blocked"][0]["line"], 4);
    assert_eq!(summary["blocked"][0]["rule"], "floor.git.clean-force");
    assert_eq!(summary["blocked"][0]["timestamp"], "1672919006");
    // The screen summary names the same BLOCKED command with its place.
    let (_, screen) = run(&[&file], b"");
    assert!(screen.contains("BLOCKED (1)"), "{screen}");
    assert!(screen.contains("bash--parse_with_timestamps.bash_history:4 1672919006  floor.git.clean-force  git clean -dxf"), "{screen}");
}

#[test]
fn fail_on_sets_the_exit_code() {
    let file = path("bash--parse_with_timestamps.bash_history");
    assert_eq!(run(&["--fail-on", "BLOCKED", &file], b"").0, Some(1));
    assert_eq!(run(&["--fail-on", "SIGNED", &file], b"").0, Some(1));
    assert_eq!(
        run(&["--fail-on", "BLOCKED", "-"], b"ls\ngit push\n").0,
        Some(0)
    );
    assert_eq!(
        run(&["--fail-on", "SIGNED", "-"], b"ls\ngit push\n").0,
        Some(1)
    );
    assert_eq!(run(&["--fail-on", "SIGNED", "-"], b"ls\n").0, Some(0));
    assert_eq!(run(&["--fail-on", "maybe", "-"], b"ls\n").0, Some(2));
}

#[test]
fn parallel_replay_keeps_input_order_and_counts() {
    // Many chunks of work: the rows come back in input order, every line
    // once, and the summary adds up to them.
    let mut input = String::new();
    for i in 0..3000 {
        input.push_str(&match i % 3 {
            0 => format!("echo {i}\n"),
            1 => format!("touch file{i}\n"),
            _ => format!("rm -rf /tmp/x{i} && git reset --hard\n"),
        });
    }
    let r = rows(&["--format", "lines", "-"], input.as_bytes());
    assert_eq!(r.len(), 3000);
    for (i, row) in r.iter().enumerate() {
        assert_eq!(row["line"], i + 1);
    }
    let (_, text) = run(
        &["--summary-json", "--format", "lines", "-"],
        input.as_bytes(),
    );
    let summary: Value = serde_json::from_str(text.trim()).expect("summary");
    assert_eq!(summary["commands"], 3000);
    assert_eq!(summary["verdicts"]["BLOCKED"], 1000);
    assert_eq!(summary["blocked"][0]["line"], 3);
}

#[test]
fn any_number_of_threads_gives_the_same_rows() {
    let mut input = String::new();
    for i in 0..1500 {
        input.push_str(&format!("echo {i} > out{i}.txt && git push origin b{i}\n"));
    }
    let one = rows(
        &["--threads", "1", "--format", "lines", "-"],
        input.as_bytes(),
    );
    let three = rows(
        &["--threads", "3", "--format", "lines", "-"],
        input.as_bytes(),
    );
    assert_eq!(one.len(), 1500);
    assert_eq!(one, three);
    assert_eq!(run(&["--threads", "0", "-"], b"ls\n").0, Some(2));
}
