//! The host's `permission_mode` (issue 20, item 6). Under `acceptEdits` a
//! shell write of ordinary files inside the project, where nothing else
//! objects, is FREE `mode.accept-edits`, as the host's own edit tools are
//! there; everything else keeps its verdict. `default` changes nothing.
//! Run through the real hook, for Claude Code's and Codex's requests, in a
//! repository made in a temporary folder.

use serde_json::{Value, json};

use crate::common;

use common::claude_decision as claude;
use common::{Scratch, hook};

/// Codex's answer: `None` (it runs) or the denial's reason.
fn codex(cwd: &str, mode: &str, command: &str) -> Option<String> {
    let body = json!({
        "session_id": "s", "turn_id": "t", "transcript_path": null, "cwd": cwd,
        "hook_event_name": "PreToolUse", "model": "gpt-5", "permission_mode": mode,
        "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "call_1"
    });
    let out = hook(&["--host", "codex"], &body);
    assert!(out.status.success(), "{command}: {:?}", out.status);
    if out.stdout.is_empty() {
        return None;
    }
    let value: Value = serde_json::from_slice(&out.stdout).expect("hook JSON");
    value["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .map(str::to_string)
}

/// A repository with a source file, a link out of it and a file outside.
fn project() -> (Scratch, String) {
    let scratch = Scratch::new("permission-mode");
    let cwd = scratch.cwd();
    std::fs::create_dir_all(cwd.join(".git")).expect(".git");
    std::fs::create_dir_all(cwd.join("src")).expect("src");
    std::fs::write(cwd.join("src/app.py"), "print(1)\n").expect("app.py");
    std::fs::write(scratch.root().join("outside.txt"), "x\n").expect("outside");
    std::os::unix::fs::symlink(scratch.root(), cwd.join("up")).expect("link");
    std::os::unix::fs::symlink(scratch.root().join("outside.txt"), cwd.join("out.txt"))
        .expect("link");
    let text = cwd.display().to_string();
    (scratch, text)
}

const WRITES_INSIDE: &[&str] = &[
    "echo hi > notes.txt",
    "printf 'a\\nb\\n' >> src/app.py",
    "cat > src/new.py <<'EOF'\nprint(2)\nEOF",
    "mkdir -p build/out && touch build/out/stamp",
    "sed -i 's/1/2/' src/app.py",
    "ls src | tee listing.txt",
    "cp src/app.py src/copy.py",
];

#[test]
fn accept_edits_lets_ordinary_writes_inside_the_project_run() {
    let (_scratch, cwd) = project();
    let allow = Some("allow".to_string());
    for command in WRITES_INSIDE {
        assert_eq!(claude(&cwd, "acceptEdits", command), allow, "{command}");
        assert_eq!(
            codex(&cwd, "acceptEdits", command),
            None,
            "codex: {command}"
        );
    }
}

#[test]
fn other_modes_ask_for_the_same_writes() {
    let (_scratch, cwd) = project();
    for mode in ["default", "bypassPermissions", "acceptedits", ""] {
        for command in WRITES_INSIDE {
            assert_eq!(
                claude(&cwd, mode, command),
                Some("ask".to_string()),
                "{mode}: {command}"
            );
        }
    }
    let denied = codex(&cwd, "default", "echo hi > notes.txt").expect("codex denies");
    assert!(denied.contains("write.redirect"), "{denied}");
}

#[test]
fn accept_edits_still_asks_for_what_is_more_than_an_edit() {
    let (_scratch, cwd) = project();
    for command in [
        // Outside the project, or through a link out of it.
        "echo x > ../outside.txt",
        "echo x > /tmp/portcullis-mode-test.txt",
        "echo x > up/outside.txt",
        "echo x > out.txt",
        "echo x > up/../outside.txt",
        // Targets only run time knows.
        "echo x > \"$TARGET\"",
        "echo x > src/*.py",
        // More than a write.
        "rm src/app.py",
        "mv src/app.py src/main.py",
        "echo x > notes.txt && curl https://example.com",
        "echo x > notes.txt; frobnicate",
        "chmod +x src/app.py",
        "sed -i 's/1/2/e' src/app.py",
        "cp ~/.ssh/id_rsa key",
    ] {
        assert_ne!(
            claude(&cwd, "acceptEdits", command),
            Some("allow".to_string()),
            "{command}"
        );
        assert!(
            codex(&cwd, "acceptEdits", command).is_some(),
            "codex: {command}"
        );
    }
    for command in [
        "echo x > .env",
        "echo x > .git/config",
        "rm -rf ~",
        "echo x > .github/workflows/ci.yml",
    ] {
        assert_eq!(
            claude(&cwd, "acceptEdits", command),
            Some("deny".to_string()),
            "{command}"
        );
    }
}

#[test]
fn explain_names_the_mode_that_decided() {
    let (_scratch, cwd) = project();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_portcullis"))
        .args([
            "explain",
            "--cwd",
            &cwd,
            "--mode",
            "acceptEdits",
            "--",
            "echo hi > notes.txt",
        ])
        .env("HOME", common::HOME)
        .output()
        .expect("explain runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("mode: acceptEdits"), "{text}");
    assert!(text.contains("decision: FREE mode.accept-edits"), "{text}");
    assert_eq!(out.status.code(), Some(0), "{text}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_portcullis"))
        .args(["check", "--cwd", &cwd, "--mode", "sometimes", "--", "ls"])
        .output()
        .expect("check runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--mode takes"));
}
