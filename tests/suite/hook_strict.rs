//! Hook input is strict: a JSON object with the same key twice, at any
//! depth and in every request shape the hook accepts (Claude Code's
//! `tool_name`/`tool_input` for Bash, the edit tools, Read, Grep and other
//! tools; OpenCode's `tool`/`args`), is exit 2 with one clear line on
//! stderr. serde_json alone keeps the last duplicate, so
//! `"command":"rm -rf ~","command":"ls"` would be judged as `ls`. Each
//! refused request has its near miss (the same request with the key once),
//! which is read as usual.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::common;

/// `portcullis hook ARGS` with `stdin`, in a scratch folder with a scratch
/// home (nothing the hook reads is outside them).
fn hook(args: &[&str], stdin: &str) -> Output {
    let scratch = common::Scratch::new("strict");
    let scratch = scratch.root();
    std::fs::create_dir_all(scratch.join("home")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_portcullis"))
        .arg("hook")
        .args(args)
        .env("HOME", scratch.join("home"))
        .current_dir(scratch)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin.as_bytes());
    }
    child.wait_with_output().unwrap()
}

/// Request shapes, each written with a duplicate key (`DUP` marks where:
/// the request is built once with a second, different value there, once
/// without).
const SHAPES: &[(&str, &str, &str)] = &[
    // (host arguments, request with {D} for the duplicate, what is duplicated)
    (
        "",
        r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf ~"{D}}}"#,
        r#","command":"ls""#,
    ),
    (
        "",
        r#"{"tool_name":"Bash"{D},"tool_input":{"command":"rm -rf ~"}}"#,
        r#","tool_name":"Read""#,
    ),
    (
        "",
        r#"{"tool_name":"Bash","tool_input":{"command":"ls"}{D}}"#,
        r#","tool_input":{"command":"ls"}"#,
    ),
    (
        "",
        r#"{"cwd":"/tmp"{D},"tool_name":"Bash","tool_input":{"command":"ls"}}"#,
        r#","cwd":"/""#,
    ),
    (
        "",
        r#"{"tool_name":"Write","tool_input":{"file_path":"/p/.env"{D},"content":"x"}}"#,
        r#","file_path":"/p/notes.txt""#,
    ),
    (
        "",
        r#"{"tool_name":"Edit","tool_input":{"file_path":"/p/a.txt","old_string":"a","new_string":"b"{D}}}"#,
        r#","new_string":"c""#,
    ),
    (
        "",
        r#"{"tool_name":"MultiEdit","tool_input":{"file_path":"/p/a.txt","edits":[{"old_string":"a","new_string":"b"{D}}]}}"#,
        r#","old_string":"c""#,
    ),
    (
        "",
        r#"{"tool_name":"NotebookEdit","tool_input":{"notebook_path":"/p/a.ipynb"{D}}}"#,
        r#","notebook_path":"/p/b.ipynb""#,
    ),
    (
        "",
        r#"{"tool_name":"Read","tool_input":{"file_path":"/p/a.txt"{D}}}"#,
        r#","file_path":"/p/.env""#,
    ),
    (
        "",
        r#"{"tool_name":"Grep","tool_input":{"pattern":"x","path":"/p"{D}}}"#,
        r#","path":"/etc""#,
    ),
    (
        "",
        r#"{"tool_name":"WebFetch","tool_input":{"url":"https://example.com"{D}}}"#,
        r#","url":"https://example.org""#,
    ),
    (
        "",
        r#"{"session_id":"s","extra":{"nested":[{"k":1{D}}]},"tool_name":"Bash","tool_input":{"command":"ls"}}"#,
        r#","k":2"#,
    ),
    (
        "--host opencode",
        r#"{"tool":"bash","args":{"command":"rm -rf ~"{D}}}"#,
        r#","command":"ls""#,
    ),
    (
        "--host opencode",
        r#"{"tool":"write"{D},"args":{"filePath":"/p/a.txt","content":"x"}}"#,
        r#","tool":"read""#,
    ),
    (
        "--host opencode",
        r#"{"tool":"edit","args":{"filePath":"/p/a.txt","oldString":"a","newString":"b"{D}}}"#,
        r#","newString":"c""#,
    ),
    (
        "--host opencode",
        r#"{"tool":"grep","args":{"pattern":"x","path":"/p"{D}}}"#,
        r#","path":"/etc""#,
    ),
];

#[test]
fn duplicate_keys_are_exit_2_in_every_shape() {
    for (args, shape, duplicate) in SHAPES {
        let args: Vec<&str> = args.split_whitespace().collect();
        let refused = shape.replace("{D}", duplicate);
        let out = hook(&args, &refused);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{refused}: {stderr}");
        assert!(out.stdout.is_empty(), "{refused}: printed {:?}", out.stdout);
        assert!(
            stderr.contains("duplicate key") && stderr.contains("ambiguous"),
            "{refused}: {stderr}"
        );
        assert_eq!(stderr.trim().lines().count(), 1, "{refused}: {stderr}");
        // The near miss: the same request with each key once is read.
        let once = shape.replace("{D}", "");
        let out = hook(&args, &once);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{once}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A key written with an escape is the same key (`"comm\u0061nd"`), and
/// whitespace or a long request in between hides nothing.
#[test]
fn spelled_differently_is_still_a_duplicate() {
    let padding = " ".repeat(100_000);
    for request in [
        r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf ~","comm\u0061nd":"ls"}}"#
            .to_string(),
        format!(
            r#"{{"tool_name":"Bash","tool_input":{{"command":"rm -rf ~",{padding}"command":"ls"}}}}"#
        ),
        format!(
            r#"{{"tool_name":"Bash","tool_input":{{"command":"rm -rf ~","description":"{}","command":"ls"}}}}"#,
            "x".repeat(100_000)
        ),
    ] {
        let out = hook(&[], &request);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("duplicate key `command`"));
    }
    // Keys that differ only in case are different keys.
    let out = hook(
        &[],
        r#"{"tool_name":"Bash","tool_input":{"command":"ls","Command":"rm -rf ~"}}"#,
    );
    assert_eq!(out.status.code(), Some(0));
}
