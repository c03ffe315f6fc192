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
        .filter(|r| r["unreadable"] != true)
        .map(|r| r["command"].as_str().unwrap_or(""))
        .collect()
}

fn broken_lines(rows: &[Value]) -> Vec<u64> {
    rows.iter()
        .filter(|r| r["unreadable"] == true)
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
    // A folder replays every transcript under it, sub-agents' included,
    // in the order of their paths (a folder `s1/` before `s1.jsonl`).
    let folder = rows(&[&path("claude-projects")], b"");
    let session = rows(&[&path("claude-projects/-tmp-p/s1.jsonl")], b"");
    let agent = rows(
        &[&path("claude-projects/-tmp-p/s1/subagents/agent-ag1.jsonl")],
        b"",
    );
    let mut both = commands(&agent);
    both.extend(commands(&session));
    assert_eq!(commands(&folder), both);
    assert_eq!(commands(&agent), ["rm -rf ~", "Read /tmp/p/.env.local"]);
    assert_eq!(agent[0]["verdict"], "BLOCKED");
    assert_eq!(agent[1]["rule"], "cage.secrets.read");
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
    let judged: Vec<&Value> = rows.iter().filter(|r| r["unreadable"] != true).collect();
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

/// The verdict and rule of the row whose command is `command`.
fn judged<'a>(rows: &'a [Value], command: &str) -> (&'a str, &'a str) {
    let row = rows
        .iter()
        .find(|r| r["command"] == command)
        .unwrap_or_else(|| panic!("no row for {command:?} in {rows:#?}"));
    (
        row["verdict"].as_str().unwrap_or(""),
        row["rule"].as_str().unwrap_or(""),
    )
}

/// The summary of `replay --summary-json ARGS`, and the exit code.
fn summary(args: &[&str], stdin: &[u8]) -> (Option<i32>, Value) {
    let mut all = vec!["--summary-json"];
    all.extend_from_slice(args);
    let (code, text) = run(&all, stdin);
    (
        code,
        serde_json::from_str(text.trim()).expect("one JSON summary"),
    )
}

/// A transcript that opens with 300 `summary` lines is still read as a
/// transcript, and every tool call in it is judged as the hook would: the
/// sub-agent's calls in `progress` entries and in a sidechain, `Read`
/// (secrets are SIGNED), `Grep`, every edit tool, an argv-array command,
/// and the cut-short last line is reported with what could be read of it.
#[test]
fn claude_sub_agents_reads_and_a_long_head() {
    let file = path("claude-projects/-tmp-p/s1.jsonl");
    let r = rows(&[&file], b"");
    assert_eq!(
        commands(&r),
        [
            "git status",
            "Read /tmp/p/README.md",
            "Read /tmp/p/.env",
            "Grep /tmp/p/src",
            "Grep /tmp/p --glob *.pem",
            "Write /tmp/p/notes.md",
            "Edit /tmp/p/.git/hooks/pre-commit",
            "MultiEdit /tmp/p/.env",
            "NotebookEdit /tmp/p/.git/config",
            "rm -rf ~",
            "git push --force origin main",
            "git log --oneline",
        ]
    );
    assert_eq!(judged(&r, "git status"), ("FREE", "lexicon.git.status"));
    assert_eq!(
        judged(&r, "Read /tmp/p/README.md"),
        ("FREE", "edit.allowed")
    );
    assert_eq!(
        judged(&r, "Read /tmp/p/.env"),
        ("SIGNED", "cage.secrets.read")
    );
    assert_eq!(judged(&r, "Grep /tmp/p/src").0, "FREE");
    assert_eq!(
        judged(&r, "Grep /tmp/p --glob *.pem"),
        ("SIGNED", "cage.secrets.read")
    );
    assert_eq!(judged(&r, "Edit /tmp/p/.git/hooks/pre-commit").0, "BLOCKED");
    assert_eq!(judged(&r, "MultiEdit /tmp/p/.env").0, "BLOCKED");
    assert_eq!(judged(&r, "NotebookEdit /tmp/p/.git/config").0, "BLOCKED");
    // The sub-agent's command, from a `progress` entry.
    assert_eq!(judged(&r, "rm -rf ~"), ("BLOCKED", "floor.rm.home"));
    let sub = r.iter().find(|r| r["command"] == "rm -rf ~").expect("row");
    assert_eq!(sub["line"], 307);
    // The sidechain's command.
    assert_eq!(judged(&r, "git push --force origin main").0, "BLOCKED");
    // A Bash call whose command is an argv array: not what the hook reads,
    // so unjudged, but what it would run is judged and BLOCKED.
    let argv = r.iter().find(|r| r["line"] == 313).expect("row 313");
    assert_eq!(argv["unjudged"], true);
    assert_eq!(argv["verdict"], "BLOCKED");
    assert_eq!(argv["command"], "bash -lc 'rm -rf ~'");
    // The cut-short last line: reported, with the command read from it.
    let last = r.iter().find(|r| r["line"] == 314).expect("row 314");
    assert_eq!(last["unjudged"], true);
    assert_eq!(last["command"], "git reset --hard HEAD~3");
    assert_eq!(last["verdict"], "BLOCKED");
    let (code, s) = summary(&["--fail-on", "BLOCKED", &file], b"");
    assert_eq!(code, Some(1));
    assert_eq!(s["typed"], 1);
    assert_eq!(s["unjudged"], 2);
    assert_eq!(s["unjudged_verdicts"]["BLOCKED"], 2);
    let lines: Vec<&Value> = s["unjudged_lines"]
        .as_array()
        .expect("list")
        .iter()
        .map(|l| &l["line"])
        .collect();
    assert_eq!(lines, [313, 314]);
}

/// Detection reads up to 1,000 lines: a bash history whose timestamps
/// start after 600 plain commands is still bash (its multi-line entries
/// kept whole); past the bound the first line's guess holds.
#[test]
fn detection_looks_past_a_long_preamble() {
    let mut input = String::new();
    for i in 0..600 {
        input.push_str(&format!("echo {i}\n"));
    }
    input.push_str("#1700000000\necho \"open\nrm -rf ~\n#1700000001\nls\n");
    let r = rows(&["-"], input.as_bytes());
    assert_eq!(r.len(), 602);
    assert_eq!(r[600]["verdict"], "BLOCKED");
    assert_eq!(r[600]["timestamp"], "1700000000");
    let mut input = String::new();
    for i in 0..1_200 {
        input.push_str(&format!("echo {i}\n"));
    }
    input.push_str("#1700000000\nls\n");
    let r = rows(&["-"], input.as_bytes());
    assert_eq!(r.len(), 1_202, "past the bound: one command a line");
}

/// bash history with `#<epoch>` lines: an entry spans every line up to
/// the next timestamp (a heredoc, a loop, an open quote), lines before the
/// first timestamp are one command each, and a line that is not UTF-8 is
/// reported with the entry read lossily.
#[test]
fn bash_multi_line_entries_are_kept_whole() {
    let file = path("bash--lithist.bash_history");
    let r = rows(&[&file], b"");
    assert_eq!(
        commands(&r),
        [
            "ls -la",
            "git status",
            "cat <<'END' > notes.md\nrm -rf ~ is what we never run\n\nEND",
            "for f in *.log; do\n  rm -rf ~\ndone",
            "echo \"a quote left open\nrm -rf /",
            "git push --force origin main",
            "cargo build",
        ]
    );
    // The heredoc's body is text, not a command.
    assert_eq!(r[2]["verdict"], "SIGNED");
    assert_eq!(r[2]["line"], 4);
    assert_eq!(r[2]["timestamp"], "1700000000");
    assert_eq!(r[3]["verdict"], "BLOCKED");
    // A quote left open hides no line: each is judged too.
    assert_eq!(r[4]["verdict"], "BLOCKED");
    assert_eq!(r[4]["rule"], "floor.rm.root");
    assert_eq!(broken_lines(&r), [18, 19]);
    let bad = r.iter().find(|r| r["line"] == 18).expect("row 18");
    assert_eq!(bad["unjudged"], true);
    assert_eq!(bad["command"], "printf '%s\\n' ok \u{fffd}");
    let (code, s) = summary(&["--fail-on", "SIGNED", &file], b"");
    assert_eq!(code, Some(1));
    assert_eq!(s["unreadable"], 2);
    assert_eq!(
        s["unjudged"], 1,
        "the out-of-range timestamp holds no command"
    );
}

/// zsh extended history: a command zsh wrote over several lines (a
/// backslash before each newline) is one entry, judged whole.
#[test]
fn zsh_multi_line_entries_are_kept_whole() {
    let r = rows(&[&path("zsh--extended-continued.zsh_history")], b"");
    assert_eq!(
        commands(&r),
        [
            "ls",
            "for f in a b; do\n  rm -rf ~\ndone",
            "cat <<END > notes.md\nrm -rf ~\nEND",
            "cargo install atuin; \\\ncargo update",
            "git status",
        ]
    );
    assert_eq!(r[1]["verdict"], "BLOCKED");
    assert_eq!(r[1]["line"], 2);
    assert_eq!(r[2]["verdict"], "SIGNED");
    assert_eq!(r[4]["line"], 10);
    assert_eq!(r[4]["timestamp"], "1700000004");
}

/// JSONL: argv arrays (under `command` or `argv`) are joined with shell
/// quoting, a `null` command beside a `cmd` is no command, every command a
/// line holds is judged (two keys, a repeated key), and a line that is not
/// understood is reported; when it may hold a command, what could be read
/// of it is judged and the summary counts it as unjudged.
#[test]
fn jsonl_argv_null_and_unjudged_lines() {
    let file = path("jsonl--argv-null-broken.jsonl");
    let r = rows(&[&file], b"");
    assert_eq!(
        commands(&r),
        [
            "bash -lc 'rm -rf ~'",
            "git reset --hard",
            "ls -la",
            "ls",
            "git clean -fdx",
            "pwd",
            "rm -rf /",
            "echo 'it'\\''s fine'",
            "echo done",
        ]
    );
    assert_eq!(
        judged(&r, "bash -lc 'rm -rf ~'"),
        ("BLOCKED", "floor.rm.home")
    );
    assert_eq!(judged(&r, "git reset --hard").0, "BLOCKED");
    assert_eq!(judged(&r, "ls -la").0, "FREE");
    assert_eq!(judged(&r, "git clean -fdx").0, "BLOCKED");
    assert_eq!(judged(&r, "rm -rf /").0, "BLOCKED");
    assert_eq!(judged(&r, "echo 'it'\\''s fine'").0, "FREE");
    assert_eq!(broken_lines(&r), [7, 8, 9, 10, 11, 12]);
    let unjudged: Vec<(u64, &str, &str)> = r
        .iter()
        .filter(|r| r["unjudged"] == true)
        .map(|r| {
            (
                r["line"].as_u64().unwrap_or(0),
                r["verdict"].as_str().unwrap_or(""),
                r["command"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        unjudged,
        [
            (7, "BLOCKED", "rm -rf ~"),
            (8, "BLOCKED", "mkfs.ext4 /dev/sda1"),
            (9, "SIGNED", "rm -rf '~'"),
            (12, "SIGNED", "git status"),
        ]
        .iter()
        .map(|&(l, v, c)| (l, v, c))
        .collect::<Vec<_>>()
    );
    // The summary says so, with line numbers, in JSON and on screen.
    let (code, s) = summary(&[&file], b"");
    assert_eq!(code, Some(0));
    assert_eq!(s["unreadable"], 6);
    assert_eq!(s["unjudged"], 4);
    let lines: Vec<u64> = s["unjudged_lines"]
        .as_array()
        .expect("list")
        .iter()
        .map(|l| l["line"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(lines, [7, 8, 9, 12]);
    let (_, screen) = run(&[&file], b"");
    assert!(
        screen.contains("lines that may hold a command that was not judged (4;"),
        "{screen}"
    );
    assert!(
        screen.contains("jsonl--argv-null-broken.jsonl:7  BLOCKED floor.rm.home"),
        "{screen}"
    );
    // --fail-on: an unjudged line fails SIGNED always, and BLOCKED when
    // what could be read of it is BLOCKED.
    let broken = b"{\"command\": \"ls\n";
    assert_eq!(
        run(&["--fail-on", "SIGNED", "--format", "jsonl", "-"], broken).0,
        Some(1)
    );
    assert_eq!(
        run(&["--fail-on", "BLOCKED", "--format", "jsonl", "-"], broken).0,
        Some(0)
    );
    let broken = b"{\"command\": \"rm -rf ~\n";
    assert_eq!(
        run(&["--fail-on", "BLOCKED", "--format", "jsonl", "-"], broken).0,
        Some(1)
    );
    // A line without any command in it is reported, but fails nothing.
    assert_eq!(
        run(&["--fail-on", "SIGNED", "--format", "jsonl", "-"], b"[1]\n").0,
        Some(0)
    );
}

/// One Claude Code transcript line: a Bash tool use of `command` in `cwd`.
fn bash_use(n: usize, cwd: &Path, command: &str) -> String {
    serde_json::json!({
        "sessionId": "memo",
        "cwd": cwd,
        "type": "assistant",
        "uuid": format!("a{n}"),
        "timestamp": "2026-12-02T10:00:00Z",
        "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": format!("toolu_{n}"), "name": "Bash",
             "input": {"command": command}}
        ]}
    })
    .to_string()
}

#[test]
fn a_repeated_command_is_judged_in_its_own_folder() {
    // Replay keeps the decisions of repeated commands; the same text in
    // another folder, whose policy differs, is judged there, and back in
    // the first folder it is what it was.
    let root = std::env::temp_dir().join(format!("pc-replay-memo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (caged, open) = (root.join("caged"), root.join("open"));
    for dir in [&caged, &open] {
        std::fs::create_dir_all(dir).expect("scratch folder");
    }
    std::fs::write(caged.join(".cage.yaml"), "protect:\n  - path: notes.txt\n").expect("policy");
    let command = "echo x > notes.txt";
    let transcript: String = [&caged, &caged, &open, &open, &caged]
        .iter()
        .enumerate()
        .map(|(n, cwd)| bash_use(n, cwd, command) + "\n")
        .collect();
    let file = root.join("memo.jsonl");
    std::fs::write(&file, transcript).expect("transcript");
    let file = file.to_string_lossy().into_owned();
    for threads in ["1", "2"] {
        let found = rows(&["--format", "claude", "--threads", threads, &file], b"");
        let verdicts: Vec<&str> = found
            .iter()
            .map(|r| r["verdict"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(
            verdicts,
            ["BLOCKED", "BLOCKED", "SIGNED", "SIGNED", "BLOCKED"],
            "--threads {threads}: {found:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// `--mode` judges every shell command as the host's permission mode
/// would: under acceptEdits a write into the project is FREE
/// `mode.accept-edits` (the replay's folder is a scratch repository);
/// under plan a FREE build is UNKNOWN `mode.plan` (left to the host) and a
/// look stays FREE; stricter verdicts never move. The summary counts them.
#[test]
fn the_permission_mode_is_applied_to_every_command() {
    let scratch = crate::common::Scratch::new("replay-mode");
    std::fs::create_dir_all(scratch.cwd().join(".git")).expect("a repository");
    let cwd = scratch.cwd().display().to_string();
    let history = b"echo notes > notes.txt\ncargo build\nls -la\ngit push origin main\nrm -rf ~\n";
    let judged_in = |mode: &str| -> Vec<(String, String)> {
        rows(
            &["--cwd", &cwd, "--format", "lines", "--mode", mode, "-"],
            history,
        )
        .iter()
        .map(|row| {
            (
                row["verdict"].as_str().unwrap_or("").to_string(),
                row["rule"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
    };
    let pair = |v: &str, r: &str| (v.to_string(), r.to_string());
    assert_eq!(
        judged_in("default"),
        [
            pair("SIGNED", "write.redirect"),
            pair("FREE", "lexicon.cargo.build"),
            pair("FREE", "lexicon.ls"),
            pair("SIGNED", "lexicon.git.push"),
            pair("BLOCKED", "floor.rm.home"),
        ]
    );
    assert_eq!(
        judged_in("acceptEdits"),
        [
            pair("FREE", "mode.accept-edits"),
            pair("FREE", "lexicon.cargo.build"),
            pair("FREE", "lexicon.ls"),
            pair("SIGNED", "lexicon.git.push"),
            pair("BLOCKED", "floor.rm.home"),
        ]
    );
    assert_eq!(
        judged_in("plan"),
        [
            pair("SIGNED", "write.redirect"),
            pair("UNKNOWN", "mode.plan"),
            pair("FREE", "lexicon.ls"),
            pair("SIGNED", "lexicon.git.push"),
            pair("BLOCKED", "floor.rm.home"),
        ]
    );
    let (code, counted) = summary(
        &["--cwd", &cwd, "--format", "lines", "--mode", "plan", "-"],
        history,
    );
    assert_eq!(code, Some(0));
    assert_eq!(counted["verdicts"]["UNKNOWN"], 1, "{counted:#}");
    assert_eq!(counted["verdicts"]["FREE"], 1, "{counted:#}");
}
