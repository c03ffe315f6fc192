//! Spawns the real binary: the Claude Code hook with real PreToolUse JSON
//! (good and bad input), and the `check`, `explain`, `replay` and `rules`
//! commands, every subcommand's `--help`, `--option=value` and usage errors.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_portcullis"));
    c.env("HOME", "/home/u");
    c
}

fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn portcullis");
    // The child may exit before reading everything (it rejects at a size
    // limit); a broken pipe here is not a test failure.
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin);
    }
    child.wait_with_output().expect("wait for portcullis")
}

fn request(command: &str) -> Vec<u8> {
    serde_json::json!({
        "session_id": "abc123",
        "transcript_path": "/home/u/.claude/projects/x/t.jsonl",
        "cwd": "/home/u/proj",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "d", "timeout": 120000, "run_in_background": false},
        "tool_use_id": "toolu_01ABC",
        "some_future_field": {"nested": [1, 2]}
    })
    .to_string()
    .into_bytes()
}

fn decision(output: &Output) -> (String, String) {
    assert!(
        output.status.success(),
        "exit {:?}, stderr {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let value: Value = serde_json::from_slice(&output.stdout).expect("stdout is one JSON object");
    let specific = &value["hookSpecificOutput"];
    assert_eq!(specific["hookEventName"], "PreToolUse");
    let keys: Vec<&String> = specific.as_object().expect("object").keys().collect();
    assert_eq!(keys.len(), 3, "only documented keys: {keys:?}");
    (
        specific["permissionDecision"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        specific["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    )
}

#[test]
fn hook_maps_verdicts_to_permission_decisions() {
    let (d, reason) = decision(&run_with_stdin(&["hook"], &request("git status")));
    assert_eq!(d, "allow");
    assert!(reason.contains("FREE"), "{reason}");
    let (d, reason) = decision(&run_with_stdin(&["hook"], &request("git push origin main")));
    assert_eq!(d, "ask");
    assert!(reason.contains("SIGNED lexicon.git.push"), "{reason}");
    let (d, reason) = decision(&run_with_stdin(&["hook"], &request("sudo rm -rf /")));
    assert_eq!(d, "deny");
    assert!(reason.contains("BLOCKED floor.rm.root"), "{reason}");
    assert!(
        reason.contains("Instead:"),
        "the remediation reaches the model: {reason}"
    );
    assert!(
        reason.contains("sudo rm -rf /"),
        "the deciding part is named: {reason}"
    );
}

#[test]
fn hook_free_defer_and_unknown_ask() {
    let out = run_with_stdin(&["hook", "--free", "defer"], &request("ls -la"));
    assert!(out.status.success());
    assert!(
        out.stdout.is_empty(),
        "FREE with --free defer prints nothing"
    );
    let out = run_with_stdin(&["hook"], &request("frobnicate-xyz --all"));
    assert!(out.status.success());
    assert!(out.stdout.is_empty(), "UNKNOWN prints nothing by default");
    let (d, reason) = decision(&run_with_stdin(
        &["hook", "--unknown", "ask"],
        &request("frobnicate-xyz --all"),
    ));
    assert_eq!(d, "ask");
    assert!(reason.contains("unknown.verb"), "{reason}");
}

#[test]
fn hook_ignores_other_tools() {
    let body = br#"{"tool_name":"Read","tool_input":{"file_path":"/etc/passwd"},"cwd":"/home/u"}"#;
    let out = run_with_stdin(&["hook"], body);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
}

#[test]
fn hook_rejects_bad_input_with_exit_2_and_one_line() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("blank", b"   \n".to_vec()),
        ("not json", b"rm -rf /".to_vec()),
        (
            "truncated json",
            br#"{"tool_name":"Bash","tool_input":{"command":"ls"#.to_vec(),
        ),
        ("array", b"[1,2]".to_vec()),
        ("no tool_input", br#"{"tool_name":"Bash"}"#.to_vec()),
        (
            "no command",
            br#"{"tool_name":"Bash","tool_input":{}}"#.to_vec(),
        ),
        (
            "command not a string",
            br#"{"tool_name":"Bash","tool_input":{"command":["rm","-rf","/"]}}"#.to_vec(),
        ),
        (
            "command null",
            br#"{"tool_name":"Bash","tool_input":{"command":null}}"#.to_vec(),
        ),
        (
            "invalid utf-8",
            b"{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls \xff\xfe\"}}".to_vec(),
        ),
    ];
    for (name, body) in cases {
        let out = run_with_stdin(&["hook"], &body);
        assert_eq!(out.status.code(), Some(2), "{name}: exit code");
        assert!(out.stdout.is_empty(), "{name}: nothing on stdout");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            stderr.trim_end().lines().count(),
            1,
            "{name}: one stderr line, got {stderr:?}"
        );
        assert!(stderr.starts_with("portcullis: "), "{name}: {stderr}");
    }
}

#[test]
fn hook_handles_huge_and_deep_commands_without_crashing() {
    let huge = format!("echo {}", "a".repeat(1 << 20));
    let (d, reason) = decision(&run_with_stdin(&["hook"], &request(&huge)));
    assert_eq!(d, "deny");
    assert!(reason.contains("parse.too-large"), "{reason}");

    let deep = format!("{}ls{}", "$(echo ".repeat(5000), ")".repeat(5000));
    let (d, reason) = decision(&run_with_stdin(&["hook"], &request(&deep)));
    assert_ne!(d, "allow", "{reason}");
    assert!(reason.contains("parse."), "{reason}");

    // Quoting grows threefold per level, so nested `bash -c` stops at 10;
    // `eval` and wrapper chains nest without quoting, past every limit.
    let nested = (0..10).fold("rm -rf /".to_string(), |inner, _| {
        format!("bash -c {}", shell_quote(&inner))
    });
    let (d, reason) = decision(&run_with_stdin(&["hook"], &request(&nested)));
    assert_eq!(d, "deny", "{reason}");
    assert!(reason.contains("floor.rm.root"), "{reason}");
    for chain in [
        format!("{}ls", "eval ".repeat(40)),
        format!("{}ls", "sudo ".repeat(40)),
    ] {
        let (d, reason) = decision(&run_with_stdin(&["hook"], &request(&chain)));
        assert_eq!(d, "deny", "{reason}");
        assert!(reason.contains("parse.too-deep"), "{reason}");
    }

    // At the command limit the command is judged; one past it is refused.
    let (d, _) = decision(&run_with_stdin(
        &["hook"],
        &request(&vec!["ls"; 10_000].join("; ")),
    ));
    assert_eq!(d, "allow", "10,000 commands are within the limit");
    let (d, reason) = decision(&run_with_stdin(
        &["hook"],
        &request(&vec!["ls"; 10_001].join("; ")),
    ));
    assert_eq!(d, "deny");
    assert!(reason.contains("parse.too-many"), "{reason}");

    let many = vec!["ls"; 30_000].join(" | ");
    let (d, reason) = decision(&run_with_stdin(&["hook"], &request(&many)));
    assert_eq!(d, "deny");
    assert!(reason.contains("parse.too-many"), "{reason}");

    let body = vec![b'{'; 5 << 20];
    let out = run_with_stdin(&["hook"], &body);
    assert_eq!(
        out.status.code(),
        Some(2),
        "stdin over the limit is an input error"
    );
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[test]
fn check_exit_codes_follow_the_verdict() {
    for (command, code) in [
        ("ls", 0),
        ("git push", 10),
        ("git reset --hard", 20),
        ("frobnicate-xyz", 30),
    ] {
        let out = bin().args(["check", "--", command]).output().expect("run");
        assert_eq!(out.status.code(), Some(code), "{command}");
    }
    let out = bin()
        .args(["check", "--json", "--", "rm -rf ~"])
        .output()
        .expect("run");
    let value: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(value["verdict"], "BLOCKED");
    assert_eq!(value["rule"], "floor.rm.home");
    assert!(value["remediation"].as_str().is_some_and(|r| !r.is_empty()));
}

#[test]
fn explain_shows_each_stage() {
    let out = bin()
        .args(["explain", "--", "sudo bash -c 'git reset --hard'"])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "peel: sudo",
        "script (bash -c)",
        "lexicon: lexicon.git.reset",
        "floor: floor.git.reset-hard",
        "decision: BLOCKED",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
}

/// `portcullis replay --format FORMAT --json -` on `input`: one object a line.
fn replay_rows(format: &str, input: &[u8]) -> Vec<Value> {
    let out = run_with_stdin(&["replay", "--format", format, "--json", "-"], input);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

fn verdicts_of(rows: &[Value]) -> Vec<&str> {
    rows.iter()
        .map(|r| r["verdict"].as_str().unwrap_or(""))
        .collect()
}

#[test]
fn replay_lines_json_keeps_order() {
    let input = b"ls\ngit push\n\nrm -rf /\n\xff\xfe\n";
    let rows = replay_rows("lines", input);
    let verdicts = verdicts_of(&rows);
    assert_eq!(verdicts, ["FREE", "SIGNED", "BLOCKED", "SIGNED"]);
    assert_eq!(rows[2]["command"], "rm -rf /");
    assert_eq!(rows[3]["rule"], "parse.encoding");
    for row in &rows {
        for key in ["verdict", "rule", "reason", "remediation", "command"] {
            assert!(row.get(key).is_some(), "{key} missing in {row}");
        }
    }
}

#[test]
fn rules_lists_every_floor_rule() {
    let out = bin().arg("rules").output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    for rule in portcullis::rules::FLOOR_RULES {
        assert!(text.contains(rule.id), "{} missing", rule.id);
    }
    assert!(text.contains("unknown.verb"));
}

#[test]
fn cli_errors_are_one_line_and_exit_2() {
    for args in [
        vec![],
        vec!["frob"],
        vec!["check"],
        vec!["check", "--bogus"],
        vec!["replay", "/no/such/file"],
        vec!["hook", "--host", "x"],
    ] {
        let out = bin().args(&args).output().expect("run");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with("portcullis: "), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// Every subcommand, as `portcullis help` lists them.
const SUBCOMMANDS: [&str; 10] = [
    "hook",
    "check",
    "explain",
    "replay",
    "policy",
    "opencode-permissions",
    "rules",
    "install",
    "uninstall",
    "doctor",
];

#[test]
fn every_subcommand_answers_help() {
    for name in SUBCOMMANDS {
        for args in [[name, "--help"], [name, "-h"], ["help", name]] {
            // No stdin: `hook --help` must not wait for a request.
            let out = run_with_stdin(&args, b"");
            assert_eq!(out.status.code(), Some(0), "{args:?}");
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                text.starts_with(&format!("usage: portcullis {name}")),
                "{args:?}: {text}"
            );
            assert!(text.contains("--help"), "{args:?}: {text}");
            assert!(out.stderr.is_empty(), "{args:?}");
        }
    }
    let out = bin().arg("--help").output().expect("run");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for name in SUBCOMMANDS {
        assert!(text.contains(&format!("portcullis {name}")), "{name}");
    }
}

#[test]
fn check_judges_the_words_after_the_double_dash_as_one_argv() {
    let out = bin()
        .args(["check", "--", "bash", "-c", "rm -rf /"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(20), "bash -c \"rm -rf /\"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("BLOCKED floor.rm.root"), "{text}");
    let out = bin()
        .args([
            "check",
            "--json",
            "--",
            "sudo",
            "sh",
            "-c",
            "git reset --hard",
        ])
        .output()
        .expect("run");
    let value: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(value["verdict"], "BLOCKED", "{value}");
    // One word is still a whole command line.
    for (command, code) in [("ls | wc", 0), ("ls; git push", 10)] {
        let out = bin().args(["check", "--", command]).output().expect("run");
        assert_eq!(out.status.code(), Some(code), "{command}");
    }
    // Words that read the same unquoted join to the same line.
    let out = bin()
        .args(["check", "git", "status"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    // After `--`, `--help` is a word of the command, not an option.
    let out = bin().args(["check", "--", "--help"]).output().expect("run");
    assert_eq!(out.status.code(), Some(30));
    assert!(!String::from_utf8_lossy(&out.stdout).starts_with("usage"));
}

#[test]
fn option_values_may_be_joined_with_equals() {
    let rows = {
        let out = run_with_stdin(
            &["replay", "--threads=2", "--format=lines", "--json", "-"],
            b"ls\ngit push\n",
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).expect("one JSON object a line"))
            .collect::<Vec<_>>()
    };
    assert_eq!(verdicts_of(&rows), ["FREE", "SIGNED"]);
    // `--format=lines` reads JSON as plain lines, not as JSONL.
    let rows = replay_rows("lines", b"\"ls\"\n");
    assert_eq!(rows[0]["command"], "\"ls\"");
    let out = run_with_stdin(&["replay", "--format=jsonl", "--json", "-"], b"\"ls\"\n");
    let row: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(row["command"], "ls");
    let out = bin()
        .args(["check", "--cwd=/", "--", "rm -rf .."])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(20), "`..` of / is the root");
    let (d, _) = decision(&run_with_stdin(
        &["hook", "--unknown=ask"],
        &request("frobnicate-xyz"),
    ));
    assert_eq!(d, "ask");
}

#[test]
fn unknown_options_and_bad_values_are_usage_errors() {
    for args in [
        &["check", "--bogus", "--", "ls"][..],
        &["check", "-x", "--", "ls"],
        &["check", "--tree", "--", "ls"],
        &["check", "--json=yes", "--", "ls"],
        &["check", "--cwd"],
        &["explain", "--json", "--", "ls"],
        &["replay", "--bogus", "-"],
        &["replay", "--threads=0", "-"],
        &["replay", "--threads=two", "-"],
        &["replay", "--format=csv", "-"],
        &["replay", "--fail-on=FREE", "-"],
        &["policy", "--bogus"],
        &["policy", "/", "/tmp"],
        &["rules", "--bogus"],
        &["opencode-permissions", "--bogus"],
        &["hook", "--bogus"],
        &["hook", "--free=maybe"],
        &["help", "frob"],
        &["--bogus"],
    ] {
        let out = run_with_stdin(args, b"ls\n");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with("portcullis: "), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn replay_jsonl_reads_strings_and_objects_and_reports_bad_lines() {
    let input = b"\"ls\"\n{\"session\":\"s\",\"step\":1,\"cmd\":\"git reset --hard\"}\n{\"command\":\"cat <<'EOF' > f.py\\nprint(1)\\nEOF\"}\n{\"truncated\n42\n";
    let rows = replay_rows("jsonl", input);
    let verdicts = verdicts_of(&rows);
    assert_eq!(verdicts, ["FREE", "BLOCKED", "SIGNED", "SIGNED", "SIGNED"]);
    assert_eq!(rows[2]["rule"], "write.redirect");
    assert_eq!(rows[3]["rule"], "parse.encoding");
    assert_eq!(rows[4]["rule"], "parse.encoding");
    let out = run_with_stdin(&["replay", "--format", "csv", "-"], b"ls\n");
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown format is a usage error"
    );
}

#[test]
fn hook_without_cwd_resolves_against_its_own_folder() {
    let body = br#"{"tool_name":"Bash","tool_input":{"command":"rm -rf .."}}"#;
    let mut child = bin()
        .arg("hook")
        .current_dir("/")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(body);
    }
    let out = child.wait_with_output().expect("wait");
    let (d, reason) = decision(&out);
    assert_eq!(d, "deny", "`rm -rf ..` from / is the root: {reason}");
    assert!(reason.contains("floor.rm.root"), "{reason}");
}

#[test]
fn rules_verbs_lists_the_lexicon_with_classes() {
    let out = bin().args(["rules", "--verbs"]).output().expect("run");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert!(rows.len() >= 400, "{} verbs", rows.len());
    let find = |verb: &str| rows.iter().find(|r| r[0] == verb).map(|r| (r[1], r[2]));
    assert_eq!(find("ls"), Some(("inspect", "FREE")));
    assert_eq!(find("rm"), Some(("destroy", "SIGNED")));
    assert!(
        rows.iter().all(|r| r.len() == 4),
        "every row is verb, class, verdict, source"
    );
}

/// A PreToolUse request for a tool other than Bash, run in /home/u/proj.
fn tool_request(tool: &str, input: Value) -> Vec<u8> {
    serde_json::json!({
        "session_id": "abc123",
        "transcript_path": "/home/u/.claude/projects/x/t.jsonl",
        "cwd": "/home/u/proj",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": input,
        "tool_use_id": "toolu_01ABC"
    })
    .to_string()
    .into_bytes()
}

/// The permission decision of a tool request, or `None` for no output
/// (the host decides as usual).
fn tool_decision(tool: &str, input: Value) -> Option<(String, String)> {
    let out = run_with_stdin(&["hook"], &tool_request(tool, input));
    assert!(
        out.status.success(),
        "{tool}: exit {:?}, stderr {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    if out.stdout.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    Some(decision(&out))
}

#[test]
fn read_and_grep_of_credentials_are_asked() {
    use serde_json::json;
    let asked = [
        ("Read", json!({"file_path": "/etc/shadow"})),
        ("Read", json!({"file_path": "/proc/self/environ"})),
        ("Read", json!({"file_path": "/home/u/.aws/credentials"})),
        ("Read", json!({"file_path": "/home/u/.ssh/id_ed25519"})),
        (
            "Read",
            json!({"file_path": "/home/u/.claude/.credentials.json"}),
        ),
        (
            "Read",
            json!({"file_path": "/home/u/proj/certs/server.key"}),
        ),
        (
            "Read",
            json!({"file_path": "/home/u/proj/../.config/gh/hosts.yml"}),
        ),
        (
            "Read",
            json!({"file_path": "/proc/self/root/etc/shadow", "offset": 1}),
        ),
        ("Grep", json!({"pattern": "TOKEN", "path": "/home/u"})),
        ("Grep", json!({"pattern": "TOKEN", "path": "/home/u/"})),
        ("Grep", json!({"pattern": "TOKEN", "path": "~"})),
        ("Grep", json!({"pattern": "x", "path": "/home/u/.ssh"})),
        ("Grep", json!({"pattern": "x", "path": "/home/u/.aws"})),
        (
            "Grep",
            json!({"pattern": "x", "path": "/home/u/.config", "output_mode": "content"}),
        ),
        ("Grep", json!({"pattern": "root", "path": "/etc"})),
        ("Grep", json!({"pattern": "x", "path": "/"})),
        ("Grep", json!({"pattern": "x", "path": "/etc/shadow"})),
        ("Grep", json!({"pattern": "x", "path": ".."})),
        ("Grep", json!({"pattern": "KEY", "glob": "*.pem"})),
        ("Grep", json!({"pattern": "KEY", "glob": ".env"})),
        ("grep", json!({"pattern": "KEY", "path": "/home/u"})),
    ];
    for (tool, input) in asked {
        let got = tool_decision(tool, input.clone());
        let (d, reason) = got.unwrap_or_else(|| panic!("{tool} {input}: no output"));
        assert_eq!(d, "ask", "{tool} {input}: {reason}");
        assert!(
            reason.contains("cage.secrets.read"),
            "{tool} {input}: {reason}"
        );
    }
    let host_decides = [
        ("Read", json!({"file_path": "/home/u/proj/src/main.rs"})),
        ("Read", json!({"file_path": "/home/u/.ssh/id_ed25519.pub"})),
        ("Read", json!({"file_path": "/home/u/.bashrc"})),
        ("Read", json!({"file_path": "/home/u/proj/.env.example"})),
        ("Read", json!({"file_path": "/etc/passwd"})),
        ("Grep", json!({"pattern": "TODO"})),
        ("Grep", json!({"pattern": "TODO", "path": "/home/u/proj"})),
        (
            "Grep",
            json!({"pattern": "TODO", "path": "src", "glob": "*.rs"}),
        ),
        ("Grep", json!({"pattern": "listen", "path": "/etc/nginx"})),
        (
            "Grep",
            json!({"pattern": "serde", "path": "/home/u/.cargo/registry/src"}),
        ),
        ("Grep", json!({"pattern": "x", "path": null, "glob": null})),
    ];
    for (tool, input) in host_decides {
        assert_eq!(tool_decision(tool, input.clone()), None, "{tool} {input}");
    }
    // A path that is not a string is not read as "the working folder".
    let out = run_with_stdin(
        &["hook"],
        &tool_request("Grep", json!({"pattern": "x", "path": 7})),
    );
    assert_eq!(out.status.code(), Some(2), "a Grep path of 7 is refused");
}

#[test]
fn edit_tools_may_not_write_start_up_files() {
    use serde_json::json;
    for path in [
        "/home/u/.bashrc",
        "/home/u/.zshrc",
        "/home/u/.profile",
        "/home/u/.bash_profile",
        "/home/u/.claude.json",
        "/home/u/.ssh/authorized_keys",
        "/home/u/.config/systemd/user/x.service",
        "/home/u/.config/autostart/x.desktop",
        "/home/u/.config/fish/conf.d/x.fish",
        "/home/u/proj/.git/modules/sub/hooks/pre-commit",
        "/home/u/proj/.git/config.worktree",
    ] {
        for tool in ["Write", "Edit"] {
            let input =
                json!({"file_path": path, "content": "x", "old_string": "a", "new_string": "b"});
            let (d, reason) =
                tool_decision(tool, input).unwrap_or_else(|| panic!("{tool} {path}: no output"));
            assert_eq!(d, "deny", "{tool} {path}: {reason}");
            // A git folder's hooks and config are git control (issue 15).
            let rule = if path.contains("/.git/") {
                "cage.git_control"
            } else {
                "trust.executable"
            };
            assert!(reason.contains(rule), "{tool} {path}: {reason}");
        }
    }
    for path in [
        "/home/u/proj/bashrc-example",
        "/home/u/proj/docs/.profile.md",
        "/home/u/proj/.bashrc",
    ] {
        let input = json!({"file_path": path, "content": "x"});
        assert_eq!(tool_decision("Write", input), None, "Write {path}");
    }
}
