//! The agent hosts a hook request may come from, how to tell them apart,
//! and the one output each host honours for a decision.
//!
//! Every host's trap decides its mapping (from the real clients, captured
//! in the team's host reference):
//! - Codex treats `ask`, and a bare `allow`, from PreToolUse as a failed
//!   hook and runs the tool; it approves only through PermissionRequest.
//! - Gemini waits forever on `ask` under `-p`, and its `allow` has no
//!   effect: a sign-off becomes a denial that says so.
//! - Copilot's `allow` grants; its `ask` is denied when it cannot ask.
//! - Cursor's `ask` is enforced only before shell commands.
//! - Qwen's `allow` does not skip its prompts; `ask` is denied headless.
//!
//! No output is ever one a host counts as a failed hook, and UNKNOWN is
//! left to the host's own permission flow everywhere.

use super::wire;
use super::{HookOptions, claude_output, opencode_output};
use crate::rule_id::{Rule, RuleId};
use crate::verdict::{Decision, Verdict};
use serde_json::json;

/// Which host's output format a hook call prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    /// Claude Code's PreToolUse output.
    Claude,
    /// One JSON verdict object, for the OpenCode plugin.
    OpenCode,
    /// OpenAI Codex CLI: PreToolUse (deny only) and PermissionRequest.
    Codex,
    /// Gemini CLI: BeforeTool.
    Gemini,
    /// GitHub Copilot CLI: preToolUse (camelCase or Claude format).
    Copilot,
    /// Cursor: beforeShellExecution and preToolUse.
    Cursor,
    /// Qwen Code: Claude-compatible PreToolUse.
    Qwen,
}

impl Host {
    /// Every host, in the order `--host` lists them.
    pub const ALL: [Host; 7] = [
        Host::Claude,
        Host::OpenCode,
        Host::Codex,
        Host::Gemini,
        Host::Copilot,
        Host::Cursor,
        Host::Qwen,
    ];

    /// The name `--host` takes.
    pub fn name(self) -> &'static str {
        match self {
            Host::Claude => "claude",
            Host::OpenCode => "opencode",
            Host::Codex => "codex",
            Host::Gemini => "gemini",
            Host::Copilot => "copilot",
            Host::Cursor => "cursor",
            Host::Qwen => "qwen",
        }
    }

    /// The host called `name` (`claude-code` is Claude's other name).
    pub fn named(name: &str) -> Option<Host> {
        match name {
            "claude-code" => Some(Host::Claude),
            _ => Host::ALL.into_iter().find(|h| h.name() == name),
        }
    }
}

/// The hook event a request is for, where a host has more than one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Before a tool runs (every host's main event).
    PreToolUse,
    /// Codex's approval prompt (and Qwen's): the hook may approve.
    PermissionRequest,
    /// Cursor's `beforeShellExecution`, where `ask` is enforced.
    BeforeShell,
}

/// The host a request's shape names, from its fields alone; `None` when it
/// has no tool name, no tool input and no command.
pub fn detect(request: &wire::Request) -> Option<Host> {
    let event = request.hook_event_name.as_ref().and_then(wire::Field::text);
    let has = |field: &Option<wire::Field>| field.is_some();
    match event {
        Some("BeforeTool") => return Some(Host::Gemini),
        Some("beforeShellExecution") => return Some(Host::Cursor),
        Some("preToolUse") if has(&request.cursor_version) => return Some(Host::Cursor),
        Some("PreToolUse" | "PermissionRequest") if has(&request.turn_id) => {
            return Some(Host::Codex);
        }
        Some("PreToolUse" | "PermissionRequest")
            if has(&request.tool_call_id) || has(&request.prompt_id) =>
        {
            return Some(Host::Qwen);
        }
        // Copilot's Claude format: an ISO timestamp, no tool use id.
        Some("PreToolUse")
            if request.tool_use_id.is_none()
                && request
                    .timestamp
                    .as_ref()
                    .and_then(wire::Field::text)
                    .is_some() =>
        {
            return Some(Host::Copilot);
        }
        _ => {}
    }
    if request.tool_name_camel.is_some() && event.is_none() {
        return Some(Host::Copilot);
    }
    if request.tool_name.is_some() || request.tool_input.is_some() {
        return Some(Host::Claude);
    }
    if request.tool.is_some() || request.args.is_some() {
        return Some(Host::OpenCode);
    }
    None
}

/// The event of a request, from its `hook_event_name`.
pub fn event(request: &wire::Request) -> Event {
    match request.hook_event_name.as_ref().and_then(wire::Field::text) {
        Some("PermissionRequest") => Event::PermissionRequest,
        Some("beforeShellExecution") => Event::BeforeShell,
        _ => Event::PreToolUse,
    }
}

/// The Claude Code name of a host's tool (`run_shell_command` is `Bash`),
/// or the name as it is.
pub fn canonical_tool(name: &str) -> &str {
    match name {
        "run_shell_command" | "Shell" => "Bash",
        "write_file" | "create" | "Delete" => "Write",
        "replace" | "str_replace_editor" => "Edit",
        other => other,
    }
}

/// What the host is told for `decision`: the line to print, or `None` for
/// no output (the host decides as usual). `command`: the shell command
/// judged, if the call is one; `file_tool`: the call is an edit, read or
/// search tool's.
pub fn output(
    host: Host,
    event: Event,
    decision: &Decision,
    command: Option<&str>,
    options: HookOptions,
    file_tool: bool,
) -> Option<String> {
    let verdict = decision.verdict();
    let reason = crate::render::reason_line(decision);
    let signed = || {
        format!(
            "{reason} This needs a person's sign-off: ask the person to approve it or to run it themselves."
        )
    };
    match host {
        Host::OpenCode => Some(opencode_output(decision, command)),
        // A file the law allows: the host decides as usual.
        Host::Claude if file_tool && verdict == Verdict::Free => None,
        // Plan mode is read-only: a FREE build, test or format is UNKNOWN
        // `mode.plan`, left to the host, which refuses it there (an `allow`
        // would override it, and so would an `ask` the person approves).
        Host::Claude if decision.top.rule == RuleId::Fixed(Rule::ModePlan) => None,
        Host::Claude => claude_output(decision, options),
        Host::Codex => match (event, verdict) {
            // Approval is given where Codex would prompt; the person signs.
            (Event::PermissionRequest, Verdict::Free) => Some(
                json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}),
            ),
            (Event::PermissionRequest, Verdict::Blocked) => Some(
                json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": reason}}}),
            ),
            (Event::PermissionRequest, _) => None,
            // PreToolUse: only a denial is honoured; `ask` would run the tool.
            (_, Verdict::Blocked) => Some(codex_deny(&reason)),
            (_, Verdict::Signed) => Some(codex_deny(&signed())),
            (_, Verdict::Free | Verdict::Unknown) => None,
        }
        .map(|value| value.to_string()),
        Host::Gemini => match verdict {
            Verdict::Blocked => Some(json!({"decision": "deny", "reason": reason})),
            // `ask` hangs under -p, `allow` has no effect.
            Verdict::Signed => Some(json!({"decision": "deny", "reason": signed()})),
            Verdict::Free | Verdict::Unknown => None,
        }
        .map(|value| value.to_string()),
        Host::Copilot => match verdict {
            Verdict::Blocked => Some(
                json!({"permissionDecision": "deny", "permissionDecisionReason": reason}),
            ),
            Verdict::Signed => Some(
                json!({"permissionDecision": "ask", "permissionDecisionReason": reason}),
            ),
            // Copilot's allow grants the call, as Claude Code's does.
            Verdict::Free if options.free_allows && !file_tool => {
                Some(json!({"permissionDecision": "allow"}))
            }
            Verdict::Free | Verdict::Unknown => None,
        }
        .map(|value| value.to_string()),
        Host::Cursor => {
            let permission = match (event, verdict) {
                (_, Verdict::Blocked) => "deny",
                (Event::BeforeShell, Verdict::Signed) => "ask",
                // Cursor's preToolUse does not enforce `ask`.
                (_, Verdict::Signed) => "deny",
                (Event::BeforeShell, Verdict::Free) if options.free_allows => "allow",
                (_, Verdict::Free | Verdict::Unknown) => return None,
            };
            let message = if permission == "deny" && verdict == Verdict::Signed {
                signed()
            } else {
                reason
            };
            Some(
                json!({"permission": permission, "user_message": message, "agent_message": message})
                    .to_string(),
            )
        }
        Host::Qwen => match verdict {
            // Qwen's allow does not skip its prompts: FREE needs no output.
            Verdict::Free | Verdict::Unknown => None,
            Verdict::Signed | Verdict::Blocked => claude_output(decision, options),
        },
    }
}

/// Codex's PreToolUse denial (its schema allows no other field).
fn codex_deny(reason: &str) -> serde_json::Value {
    json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for host in Host::ALL {
            assert_eq!(Host::named(host.name()), Some(host));
        }
        assert_eq!(Host::named("claude-code"), Some(Host::Claude));
        assert_eq!(Host::named("vscode"), None);
    }

    #[test]
    fn tools_are_named_as_claude_code_names_them() {
        assert_eq!(canonical_tool("run_shell_command"), "Bash");
        assert_eq!(canonical_tool("write_file"), "Write");
        assert_eq!(canonical_tool("replace"), "Edit");
        assert_eq!(canonical_tool("create"), "Write");
        assert_eq!(canonical_tool("Shell"), "Bash");
        assert_eq!(canonical_tool("grep"), "grep");
    }
}
