//! Claude Code's plan mode is read-only: the hook answers `allow` there only
//! for what merely looks (the lexicon's `inspect` class, inline code that
//! only computes), and prints nothing for a FREE build, test or format, so
//! that plan mode refuses it as it would without the hook. Other modes and
//! stricter verdicts are unchanged.

use serde_json::{Value, json};

mod common;

use common::{Scratch, hook};

/// The permission decision for `command` in `mode`, or `None` for no output.
fn decision(cwd: &str, mode: &str, command: &str) -> Option<String> {
    let body = json!({
        "session_id": "s",
        "cwd": cwd,
        "permission_mode": mode,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_1"
    });
    let out = hook(&[], &body);
    assert!(out.status.success(), "{command}: {:?}", out.status);
    if out.stdout.is_empty() {
        return None;
    }
    let value: Value = serde_json::from_slice(&out.stdout).expect("hook JSON");
    value["hookSpecificOutput"]["permissionDecision"]
        .as_str()
        .map(str::to_string)
}

#[test]
fn plan_mode_allows_only_what_looks() {
    let scratch = Scratch::new("plan-mode");
    let cwd = scratch.cwd().display().to_string();
    let allow = Some("allow".to_string());
    for command in [
        "ls -la",
        "git status",
        "git log --oneline | head -5",
        "grep -rn TODO src",
        "python3 -c 'print(1 + 1)'",
    ] {
        assert_eq!(decision(&cwd, "plan", command), allow, "{command}");
    }
    for command in [
        "cargo build",
        "cargo test",
        "cargo fmt",
        "ls && cargo test",
        "make",
    ] {
        assert_eq!(
            decision(&cwd, "plan", command),
            None,
            "{command}: left to plan mode"
        );
        assert_eq!(
            decision(&cwd, "default", command),
            allow,
            "{command}: FREE outside plan mode"
        );
    }
    assert_eq!(
        decision(&cwd, "plan", "git reset --hard").as_deref(),
        Some("deny")
    );
    assert_eq!(
        decision(&cwd, "plan", "git push origin main").as_deref(),
        Some("ask")
    );
}
