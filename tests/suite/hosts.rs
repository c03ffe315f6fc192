//! Every agent host's hook requests, shaped as each real client sends them
//! (the payloads captured in the team's host reference), through the real
//! binary: with `--host` and without it (the host told from the shape),
//! each answer is the one that host honours. Codex never gets `ask` or a
//! bare `allow` from PreToolUse, Gemini never gets `ask`, and every host's
//! edit tools meet the path law with relative paths resolved.

use serde_json::{Value, json};

use crate::common;

use common::{Scratch, hook};

/// What the hook printed for `body` (`None`: nothing), with and without
/// `--host NAME`, which must agree.
fn answer(host: &str, body: &Value) -> Option<Value> {
    let with = hook(&["--host", host], body);
    let without = hook(&[], body);
    assert!(
        with.status.success(),
        "{host} {body}: {}",
        String::from_utf8_lossy(&with.stderr)
    );
    assert_eq!(
        with.stdout, without.stdout,
        "{host}: the shape of {body} names another host"
    );
    if with.stdout.is_empty() {
        return None;
    }
    Some(serde_json::from_slice(&with.stdout).expect("one JSON object"))
}

fn text<'v>(value: &'v Option<Value>, pointer: &str) -> &'v str {
    value
        .as_ref()
        .and_then(|v| v.pointer(pointer))
        .and_then(Value::as_str)
        .unwrap_or("")
}

#[test]
fn gemini_denies_and_never_asks() {
    let scratch = Scratch::new("host-gemini");
    let cwd = scratch.cwd().display().to_string();
    let call = |tool: &str, input: Value| {
        json!({"session_id": "1b01922f", "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
               "hook_event_name": "BeforeTool", "timestamp": "2026-12-01T09:36:34.674Z",
               "tool_name": tool, "tool_input": input})
    };
    let blocked = answer(
        "gemini",
        &call("run_shell_command", json!({"command": "rm -rf ~"})),
    );
    assert_eq!(text(&blocked, "/decision"), "deny");
    assert!(text(&blocked, "/reason").contains("floor.rm.home"));
    let signed = answer(
        "gemini",
        &call(
            "run_shell_command",
            json!({"command": "git push origin main"}),
        ),
    );
    assert_eq!(
        text(&signed, "/decision"),
        "deny",
        "ask would hang under -p"
    );
    assert!(text(&signed, "/reason").contains("sign-off"));
    assert_eq!(
        answer(
            "gemini",
            &call("run_shell_command", json!({"command": "ls -la"}))
        ),
        None
    );
    // write_file's path as the model wrote it: relative to cwd.
    let env = answer(
        "gemini",
        &call(
            "write_file",
            json!({"file_path": ".env", "content": "X=1\n"}),
        ),
    );
    assert!(text(&env, "/reason").contains("cage.secrets"), "{env:?}");
    let replace = call(
        "replace",
        json!({"file_path": "src/main.rs", "old_string": "a", "new_string": "b"}),
    );
    assert_eq!(answer("gemini", &replace), None);
    // dir_path: the shell runs in that folder, relative to the project.
    let settings = answer(
        "gemini",
        &call(
            "run_shell_command",
            json!({"command": "echo '{}' > settings.json", "dir_path": ".claude"}),
        ),
    );
    assert_eq!(text(&settings, "/decision"), "deny");
    assert!(
        text(&settings, "/reason").contains("floor.guard.settings"),
        "{settings:?}"
    );
    // Without the folder the same write is a new file in the project.
    let plain = answer(
        "gemini",
        &call(
            "run_shell_command",
            json!({"command": "echo '{}' > settings.json"}),
        ),
    );
    assert!(
        text(&plain, "/reason").contains("write.redirect"),
        "{plain:?}"
    );
}

#[test]
fn copilot_allows_asks_and_denies_in_both_formats() {
    let scratch = Scratch::new("host-copilot");
    let cwd = scratch.cwd().display().to_string();
    let camel = |tool: &str, args: Value| {
        json!({"sessionId": "d5e928ea", "timestamp": 1796118233240u64, "cwd": cwd,
               "toolName": tool, "toolArgs": args})
    };
    let decision = |v: &Option<Value>| text(v, "/permissionDecision").to_string();
    assert_eq!(
        decision(&answer("copilot", &camel("bash", json!({"command": "ls"})))),
        "allow"
    );
    assert_eq!(
        decision(&answer(
            "copilot",
            &camel("bash", json!({"command": "git push origin main"}))
        )),
        "ask"
    );
    assert_eq!(
        decision(&answer(
            "copilot",
            &camel("bash", json!({"command": "git reset --hard"}))
        )),
        "deny"
    );
    // Older versions send toolArgs as a JSON string.
    let string_args = camel("bash", Value::String(r#"{"command":"rm -rf ~"}"#.into()));
    assert_eq!(decision(&answer("copilot", &string_args)), "deny");
    // GPT-5 style models get the freeform apply_patch: toolArgs is the
    // patch itself (captured from Copilot CLI 1.0.102).
    let patch = |text: &str| camel("apply_patch", Value::String(text.into()));
    let env_patch = patch("*** Begin Patch\n*** Add File: .env\n+TOKEN=1\n*** End Patch\n");
    let denied = answer("copilot", &env_patch);
    assert_eq!(decision(&denied), "deny");
    assert!(text(&denied, "/permissionDecisionReason").contains("cage.secrets"));
    let notes_patch = patch("*** Begin Patch\n*** Add File: notes.md\n+hi\n*** End Patch\n");
    assert_eq!(
        answer("copilot", &notes_patch),
        None,
        "an allowed patch: the host decides"
    );
    let env = format!("{cwd}/.env");
    let create = camel("create", json!({"path": env, "file_text": "X=1\n"}));
    assert_eq!(decision(&answer("copilot", &create)), "deny");
    let notes = camel(
        "create",
        json!({"path": format!("{cwd}/notes.md"), "file_text": "hi\n"}),
    );
    assert_eq!(
        answer("copilot", &notes),
        None,
        "an allowed edit: the host decides"
    );
    // The Claude format keeps Copilot's argument names.
    let claude_format = json!({"hook_event_name": "PreToolUse", "session_id": "0ad0d867",
        "timestamp": "2026-12-01T09:44:43.368Z", "cwd": cwd, "tool_name": "Write",
        "tool_input": {"path": format!("{cwd}/.github/workflows/ci.yml"), "file_text": "on: push\n"}});
    let ci = answer("copilot", &claude_format);
    assert_eq!(decision(&ci), "deny");
    assert!(text(&ci, "/permissionDecisionReason").contains("cage.ci_config"));
}

#[test]
fn codex_denies_on_pre_tool_use_and_approves_on_permission_request() {
    let scratch = Scratch::new("host-codex");
    let cwd = scratch.cwd().display().to_string();
    let call = |event: &str, tool: &str, command: &str| {
        json!({"session_id": "01a230fb", "turn_id": "01a230fb-c088", "transcript_path": null,
               "cwd": cwd, "hook_event_name": event, "model": "gpt-5", "permission_mode": "default",
               "tool_name": tool, "tool_input": {"command": command}, "tool_use_id": "call_34b313"})
    };
    let pre = |command: &str| answer("codex", &call("PreToolUse", "Bash", command));
    let blocked = pre("git reset --hard");
    assert_eq!(
        text(&blocked, "/hookSpecificOutput/permissionDecision"),
        "deny"
    );
    assert_eq!(
        text(&blocked, "/hookSpecificOutput/hookEventName"),
        "PreToolUse"
    );
    assert!(!text(&blocked, "/hookSpecificOutput/permissionDecisionReason").is_empty());
    // `ask` would count as a failed hook and run the tool: a sign-off is a
    // denial that says so.
    let signed = pre("git push origin main");
    assert_eq!(
        text(&signed, "/hookSpecificOutput/permissionDecision"),
        "deny"
    );
    assert!(text(&signed, "/hookSpecificOutput/permissionDecisionReason").contains("sign-off"));
    // A bare `allow` would count as failed too: FREE prints nothing here.
    assert_eq!(pre("ls -la"), None);
    // Codex's schema allows no other field.
    let keys: Vec<&String> = blocked
        .as_ref()
        .and_then(|v| v.pointer("/hookSpecificOutput"))
        .and_then(Value::as_object)
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    assert_eq!(
        keys,
        [
            "hookEventName",
            "permissionDecision",
            "permissionDecisionReason"
        ]
    );
    let patch = answer(
        "codex",
        &call(
            "PreToolUse",
            "apply_patch",
            "*** Begin Patch\n*** Add File: .git/hooks/pre-commit\n+rm -rf ~\n*** End Patch\n",
        ),
    );
    assert_eq!(
        text(&patch, "/hookSpecificOutput/permissionDecision"),
        "deny"
    );
    // PermissionRequest: FREE is approved, BLOCKED refused, a sign-off left
    // to the person at Codex's own prompt.
    let permission = |command: &str| answer("codex", &call("PermissionRequest", "Bash", command));
    let free = permission("git status");
    assert_eq!(
        text(&free, "/hookSpecificOutput/hookEventName"),
        "PermissionRequest"
    );
    assert_eq!(
        text(&free, "/hookSpecificOutput/decision/behavior"),
        "allow"
    );
    assert_eq!(
        text(
            &permission("rm -rf ~"),
            "/hookSpecificOutput/decision/behavior"
        ),
        "deny"
    );
    assert_eq!(permission("git push origin main"), None);
}

#[test]
fn cursor_asks_only_before_shell_commands() {
    let scratch = Scratch::new("host-cursor");
    let cwd = scratch.cwd().display().to_string();
    let shell = |command: &str| {
        json!({"conversation_id": "c", "generation_id": "g", "model": "m",
               "hook_event_name": "beforeShellExecution", "cursor_version": "1.7",
               "workspace_roots": [cwd], "user_email": null, "transcript_path": null,
               "command": command, "cwd": cwd, "sandbox": false})
    };
    let permission = |v: &Option<Value>| text(v, "/permission").to_string();
    assert_eq!(permission(&answer("cursor", &shell("ls"))), "allow");
    let install = answer("cursor", &shell("npm install left-pad"));
    assert_eq!(permission(&install), "ask");
    assert!(!text(&install, "/agent_message").is_empty());
    assert_eq!(permission(&answer("cursor", &shell("rm -rf ~"))), "deny");
    let tool = |tool: &str, input: Value| {
        json!({"conversation_id": "c", "hook_event_name": "preToolUse", "cursor_version": "1.7",
               "tool_name": tool, "tool_input": input, "tool_use_id": "t", "cwd": cwd})
    };
    let write = answer(
        "cursor",
        &tool("Write", json!({"file_path": format!("{cwd}/.env")})),
    );
    assert_eq!(permission(&write), "deny");
    // preToolUse does not enforce `ask`: a sign-off is a denial.
    let push = answer(
        "cursor",
        &tool(
            "Shell",
            json!({"command": "git push origin main", "working_directory": cwd}),
        ),
    );
    assert_eq!(permission(&push), "deny");
    assert!(text(&push, "/agent_message").contains("sign-off"));
}

#[test]
fn qwen_gets_claude_output_without_allow() {
    let scratch = Scratch::new("host-qwen");
    let cwd = scratch.cwd().display().to_string();
    let call = |tool: &str, input: Value| {
        json!({"session_id": "s", "transcript_path": "t", "cwd": cwd, "hook_event_name": "PreToolUse",
               "timestamp": "2026-12-01T10:00:00Z", "permission_mode": "yolo", "prompt_id": "p",
               "tool_name": tool, "tool_input": input, "tool_use_id": "toolu_1", "tool_call_id": "call_d362ad"})
    };
    let decision =
        |v: &Option<Value>| text(v, "/hookSpecificOutput/permissionDecision").to_string();
    assert_eq!(
        decision(&answer(
            "qwen",
            &call(
                "run_shell_command",
                json!({"command": "git push origin main"})
            )
        )),
        "ask"
    );
    assert_eq!(
        decision(&answer(
            "qwen",
            &call("run_shell_command", json!({"command": "rm -rf ~"}))
        )),
        "deny"
    );
    assert_eq!(
        answer("qwen", &call("run_shell_command", json!({"command": "ls"}))),
        None
    );
    let env = call(
        "write_file",
        json!({"file_path": format!("{cwd}/.env"), "content": "X=1"}),
    );
    assert_eq!(decision(&answer("qwen", &env)), "deny");
    let edit = call(
        "edit",
        json!({"file_path": format!("{cwd}/src/lib.rs"), "old_string": "a", "new_string": "b"}),
    );
    assert_eq!(answer("qwen", &edit), None);
}

#[test]
fn a_request_no_host_sends_is_refused() {
    for body in [
        json!({"hook_event_name": "Stop", "session_id": "s"}),
        json!({"foo": 1}),
        json!({"hook_event_name": "BeforeTool"}),
    ] {
        let out = hook(&[], &body);
        assert_eq!(out.status.code(), Some(2), "{body}: blocked");
        assert!(out.stdout.is_empty());
    }
    let out = hook(&["--host", "vscode"], &json!({"tool_name": "Bash"}));
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown --host is a usage error"
    );
}
