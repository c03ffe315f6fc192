//! Renders a [`Decision`] for people and programs: the one-line reason the
//! hook sends, the human line of `check`, and the JSON objects of
//! `check --json` and `replay --json`.
#![deny(clippy::indexing_slicing)]

use crate::verdict::Decision;
use serde_json::{Value, json};

/// Longest reason sent to a host (Claude Code caps strings at 10,000).
const MAX_REASON: usize = 2_000;

/// `portcullis: BLOCKED floor.rm.root: <reason> (in `<part>`). Instead: <remediation>`
pub fn reason_line(decision: &Decision) -> String {
    let top = &decision.top;
    let mut line = format!("portcullis: {} {}: {}", top.verdict, top.rule, top.reason);
    if !top.part.is_empty() {
        line.push_str(&format!(" (in `{}`)", crate::limits::clip(&top.part, 200)));
    }
    if !top.remediation.is_empty() {
        line.push_str(". Instead: ");
        line.push_str(&top.remediation);
    }
    crate::limits::clip(&line, MAX_REASON).to_string()
}

/// `{"verdict","rule","reason","remediation"}`, plus `"command"` when given.
pub fn json_object(decision: &Decision, command: Option<&str>) -> Value {
    let top = &decision.top;
    let mut value = json!({
        "verdict": top.verdict.as_str(),
        "rule": top.rule,
        "reason": top.reason,
        "remediation": top.remediation,
    });
    if let (Some(command), Some(map)) = (command, value.as_object_mut()) {
        map.insert("command".into(), Value::String(command.to_string()));
    }
    value
}

/// The human line of `portcullis check`.
pub fn human_line(decision: &Decision) -> String {
    let top = &decision.top;
    let mut out = format!("{} {}: {}", top.verdict, top.rule, top.reason);
    if !top.remediation.is_empty() {
        out.push_str("\n  instead: ");
        out.push_str(&top.remediation);
    }
    out
}
