//! The doctor's live self-test: one request that must be BLOCKED
//! (`rm -rf ~`) and one that is FREE (`ls`), in each host's exact stdin
//! shape (`reference/hosts.md` §1.2, §2.2, §3.2, §4, §5; Claude Code's
//! PreToolUse), fed to the configured command the way the host runs it —
//! through `sh -c` for hosts that take a shell string, `exec` + `args` for
//! Copilot CLI — under a time bound; and the check that each answer is one
//! the host honours (`hosts.md` §8).
//!
//! The hook only reads its request and prints a decision: nothing here
//! writes a file. Every child runs in its own process group, which is
//! killed when the time is up.

use crate::hook::Host;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The command every self-test must see BLOCKED.
pub const BLOCKED_PROBE: &str = "rm -rf ~";
/// The command every self-test must see FREE.
pub const FREE_PROBE: &str = "ls";
/// How long one hook call may take before it is killed (the hosts' own
/// timeout in the table is 10 s).
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// How a host runs its hook.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invocation {
    /// A shell command line, run as `sh -c LINE`.
    Shell(String),
    /// A program and its arguments, run directly.
    Exec(String, Vec<String>),
}

/// What one run printed and how it ended.
#[derive(Debug)]
pub struct Answer {
    /// The exit code (`None`: killed by a signal or by the time bound).
    pub code: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// True when the time bound killed it.
    pub timed_out: bool,
}

/// The request `host` sends for a shell call of `command` in `cwd`.
pub fn request(host: Host, command: &str, cwd: &Path) -> Value {
    let cwd = cwd.to_string_lossy();
    match host {
        Host::Claude => json!({
            "session_id": "portcullis-doctor", "transcript_path": "", "cwd": cwd,
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command, "description": "portcullis doctor self-test"},
            "tool_use_id": "toolu_doctor"
        }),
        Host::Codex => json!({
            "session_id": "portcullis-doctor", "turn_id": "portcullis-doctor", "transcript_path": null,
            "cwd": cwd, "hook_event_name": "PreToolUse", "model": "gpt-5",
            "permission_mode": "default", "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_use_id": "call_doctor"
        }),
        Host::Gemini => json!({
            "session_id": "portcullis-doctor", "transcript_path": "", "cwd": cwd,
            "hook_event_name": "BeforeTool", "timestamp": "2026-01-01T00:00:00.000Z",
            "tool_name": "run_shell_command",
            "tool_input": {"command": command, "description": "portcullis doctor self-test"}
        }),
        Host::Copilot => json!({
            "sessionId": "portcullis-doctor", "timestamp": 1_796_118_233_240_u64, "cwd": cwd,
            "toolName": "bash",
            "toolArgs": {"command": command, "description": "portcullis doctor self-test"}
        }),
        Host::Cursor => json!({
            "conversation_id": "portcullis-doctor", "generation_id": "portcullis-doctor",
            "model": "doctor", "hook_event_name": "beforeShellExecution", "cursor_version": "doctor",
            "workspace_roots": [cwd], "user_email": null, "transcript_path": null,
            "command": command, "cwd": cwd, "sandbox": false
        }),
        Host::Qwen => json!({
            "session_id": "portcullis-doctor", "transcript_path": "", "cwd": cwd,
            "hook_event_name": "PreToolUse", "timestamp": "2026-01-01T00:00:00.000Z",
            "permission_mode": "default", "prompt_id": "doctor", "tool_name": "run_shell_command",
            "tool_input": {"command": command, "description": "portcullis doctor self-test"},
            "tool_use_id": "toolu_doctor", "tool_call_id": "call_doctor"
        }),
        Host::OpenCode => json!({"tool": "bash", "args": {"command": command}, "cwd": cwd}),
    }
}

/// Runs `how` with `input` on stdin in `cwd`, for at most `timeout`.
/// `Err`: it could not be started (the reason).
pub fn run(
    how: &Invocation,
    input: &[u8],
    cwd: &Path,
    timeout: Duration,
) -> Result<Answer, String> {
    let mut command = match how {
        Invocation::Shell(line) => {
            let mut c = Command::new("/bin/sh");
            c.arg("-c").arg(line);
            c
        }
        Invocation::Exec(program, args) => {
            let mut c = Command::new(program);
            c.args(args);
            c
        }
    };
    command
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot start it: {e}"))?;
    let mut stdin = child.stdin.take();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        if let Some(stdin) = stdin.as_mut() {
            let _ = stdin.write_all(&input);
        }
    });
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(pipe) = pipe {
                let _ = pipe.take(1 << 20).read_to_end(&mut bytes);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let out = reader(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = reader(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() >= timeout => {
                timed_out = true;
                kill_group(child.id());
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => {
                kill_group(child.id());
                break child.wait().ok();
            }
        }
    };
    // The group is killed in any case: nothing the hook started outlives it.
    kill_group(child.id());
    let _ = writer.join();
    Ok(Answer {
        code: status.and_then(|s| s.code()),
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        timed_out,
    })
}

/// Sends SIGKILL to the process group `id` leads.
fn kill_group(id: u32) {
    if let Ok(pid) = libc::pid_t::try_from(id) {
        // SAFETY: kill with a negative pid signals the group; no memory is touched.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

/// The decision an answer carries, as the host reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// The host blocks the call.
    Deny,
    /// The host lets its own rules decide, or allows.
    Pass,
    /// The host asks the person.
    Ask,
    /// The host treats the hook as failed (fail-open for most hosts).
    Failed,
}

/// How `host` reads `answer` (`hosts.md` §1.3, §2.3, §3.3, §4, §5; Claude
/// Code's PreToolUse).
pub fn read(host: Host, answer: &Answer) -> Reading {
    if answer.timed_out {
        return Reading::Failed;
    }
    let text = answer.stdout.trim();
    let value: Option<Value> = if text.is_empty() {
        None
    } else {
        match serde_json::from_str(text) {
            Ok(v) => Some(v),
            Err(_) => return Reading::Failed,
        }
    };
    match answer.code {
        Some(0) => {}
        Some(2) if host != Host::OpenCode => return Reading::Deny,
        // Copilot denies on any failure; Cursor with failClosed too.
        Some(_) if matches!(host, Host::Copilot | Host::Cursor) => return Reading::Deny,
        _ => return Reading::Failed,
    }
    let Some(value) = value else {
        return if host == Host::Cursor || host == Host::OpenCode {
            Reading::Failed
        } else {
            Reading::Pass
        };
    };
    let word = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
    let decision = match host {
        Host::Claude | Host::Codex | Host::Qwen => {
            word(value.pointer("/hookSpecificOutput/permissionDecision"))
        }
        Host::Gemini => word(value.get("decision")),
        Host::Copilot => word(value.get("permissionDecision")),
        Host::Cursor => word(value.get("permission")),
        Host::OpenCode => {
            return match value.get("verdict").and_then(Value::as_str) {
                Some("BLOCKED") => Reading::Deny,
                Some("FREE" | "UNKNOWN") => Reading::Pass,
                Some("SIGNED") => Reading::Ask,
                _ => Reading::Failed,
            };
        }
    };
    match decision.as_deref() {
        Some("deny" | "block") => Reading::Deny,
        Some("ask") => Reading::Ask,
        // Codex counts `allow` without `updatedInput` as a failed hook.
        Some("allow") if host == Host::Codex => Reading::Failed,
        Some("allow" | "approve") | None => Reading::Pass,
        Some(_) => Reading::Failed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(code: i32, stdout: &str) -> Answer {
        Answer {
            code: Some(code),
            stdout: stdout.into(),
            stderr: String::new(),
            timed_out: false,
        }
    }

    #[test]
    fn each_host_reads_its_own_deny_shape() {
        let claude = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}"#;
        assert_eq!(read(Host::Claude, &answer(0, claude)), Reading::Deny);
        assert_eq!(read(Host::Qwen, &answer(0, claude)), Reading::Deny);
        assert_eq!(read(Host::Gemini, &answer(0, claude)), Reading::Pass);
        assert_eq!(
            read(
                Host::Gemini,
                &answer(0, r#"{"decision":"deny","reason":"r"}"#)
            ),
            Reading::Deny
        );
        assert_eq!(
            read(Host::Cursor, &answer(0, r#"{"permission":"allow"}"#)),
            Reading::Pass
        );
        assert_eq!(read(Host::Cursor, &answer(0, "")), Reading::Failed);
        assert_eq!(read(Host::Codex, &answer(127, "")), Reading::Failed);
        assert_eq!(read(Host::Copilot, &answer(127, "")), Reading::Deny);
        assert_eq!(read(Host::Codex, &answer(0, "not json")), Reading::Failed);
    }

    #[test]
    fn a_hook_that_hangs_is_killed_in_time() {
        let how = Invocation::Shell("sleep 30".into());
        let answer = run(&how, b"", Path::new("/"), Duration::from_millis(200)).unwrap();
        assert!(answer.timed_out);
        assert_eq!(answer.code, None);
    }
}
