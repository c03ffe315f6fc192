//! `apply_patch` requests through the real binary's hook: every file a
//! patch adds, updates, deletes or moves meets the path law, in the shape
//! Codex sends (`tool_input.command`) and the one OpenCode's plugin sends
//! (`args.patchText`); text that is not a patch is refused with exit 2.

use serde_json::{Value, json};

use crate::common;

use common::{Scratch, hook};

/// The OpenCode verdict and rule for a patch run in `cwd`.
fn opencode(cwd: &str, patch: &str) -> (String, String) {
    let out = hook(
        &["--host", "opencode"],
        &json!({"tool": "apply_patch", "cwd": cwd, "args": {"patchText": patch}}),
    );
    assert!(
        out.status.success(),
        "{patch:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: Value = serde_json::from_slice(&out.stdout).expect("a verdict object");
    (
        value["verdict"].as_str().unwrap_or("").to_string(),
        value["rule"].as_str().unwrap_or("").to_string(),
    )
}

fn patch(body: &str) -> String {
    format!("*** Begin Patch\n{body}*** End Patch\n")
}

#[test]
fn every_file_a_patch_writes_meets_the_path_law() {
    let scratch = Scratch::new("apply-patch");
    std::fs::create_dir_all(scratch.cwd().join(".git/hooks")).expect("a .git folder");
    let cwd = scratch.cwd().display().to_string();
    let cases = [
        ("*** Add File: .env\n+TOKEN=1\n", "BLOCKED", "cage.secrets"),
        (
            "*** Update File: src/app.rs\n*** Move to: .github/workflows/ci.yml\n@@\n-a\n+b\n",
            "BLOCKED",
            "cage.ci_config",
        ),
        (
            "*** Delete File: .git/hooks/pre-commit\n",
            "BLOCKED",
            "cage.git_control",
        ),
        (
            "*** Add File: notes.md\n+hello\n*** Update File: .claude/settings.json\n@@\n-a\n+b\n",
            "BLOCKED",
            "trust.executable",
        ),
        (
            "*** Add File: docs/new.md\n+hello\n*** Update File: src/main.rs\n@@\n-a\n+b\n",
            "FREE",
            "edit.allowed",
        ),
        (
            "*** Add File: AGENTS.md\n+be bold\n",
            "SIGNED",
            "trust.model_influencing",
        ),
    ];
    for (body, verdict, rule) in cases {
        assert_eq!(
            opencode(&cwd, &patch(body)),
            (verdict.to_string(), rule.to_string()),
            "{body:?}"
        );
    }
    // An absolute path outside the folder meets the law as well.
    let home_rc = format!("*** Add File: {}/.bashrc\n+x\n", common::HOME);
    assert_eq!(opencode(&cwd, &patch(&home_rc)).0, "BLOCKED");
}

#[test]
fn codex_sends_the_patch_as_the_command() {
    let scratch = Scratch::new("apply-patch-codex");
    let cwd = scratch.cwd().display().to_string();
    let request = |patch: String| {
        json!({
            "hook_event_name": "PreToolUse",
            "cwd": cwd,
            "tool_name": "apply_patch",
            "tool_input": {"command": patch},
            "turn_id": "t1",
            "tool_use_id": "call_1"
        })
    };
    let out = hook(&[], &request(patch("*** Add File: .env\n+X=1\n")));
    assert!(out.status.success());
    let value: Value = serde_json::from_slice(&out.stdout).expect("hook JSON");
    assert_eq!(value["hookSpecificOutput"]["permissionDecision"], "deny");
    // A file the law allows: no output, the host decides as usual.
    let out = hook(&[], &request(patch("*** Add File: src/lib.rs\n+\n")));
    assert!(out.status.success());
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn text_that_is_not_a_patch_is_refused() {
    let scratch = Scratch::new("apply-patch-bad");
    let cwd = scratch.cwd().display().to_string();
    for text in [
        json!("git reset --hard"),
        json!("*** Begin Patch\n*** Add File: .env\n+X=1\n"),
        json!("*** Begin Patch\n*** Copy File: .env\n*** End Patch\n"),
        json!(42),
    ] {
        let out = hook(
            &["--host", "opencode"],
            &json!({"tool": "apply_patch", "cwd": cwd, "args": {"patchText": text}}),
        );
        assert_eq!(out.status.code(), Some(2), "{text}: refused, so blocked");
        assert!(out.stdout.is_empty());
    }
    let out = hook(
        &["--host", "opencode"],
        &json!({"tool": "apply_patch", "cwd": cwd, "args": {}}),
    );
    assert_eq!(out.status.code(), Some(2), "no patch text");
}
