//! Claude Code transcripts: every tool call of an entry, in the main
//! conversation, in sidechains and in sub-agents' `progress` entries
//! (`Bash` commands, edit-tool and `Read` paths, `Grep` searches), and the
//! `<bash-input>` lines the person typed, each a [`Record`] with the
//! entry's time, session and working folder.

use super::jsonl::json_line;
use super::salvage::{Reading, texts_in};
use super::{Kind, Record, lines};
use serde_json::Value;
use std::io::{self, BufRead};
use std::path::PathBuf;

/// A field as text (strings as they are, numbers written out).
fn text_field(value: &Value, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| match value.get(k)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    })
}

/// How deep in a transcript entry tool calls are looked for: a
/// sub-agent's call sits in a `progress` entry's `data.message.message`.
const MAX_ENTRY_DEPTH: usize = 32;

/// Every `tool_use` block in a transcript entry, in order, however deep:
/// the assistant's own (`message.content[]`), a sidechain's, and a
/// sub-agent's inside a `progress` entry (`data.message`).
fn tool_uses<'v>(value: &'v Value, depth: usize, out: &mut Vec<&'v Value>) {
    if depth > MAX_ENTRY_DEPTH {
        return;
    }
    match value {
        Value::Object(map) => {
            if map.get("type").and_then(Value::as_str) == Some("tool_use") {
                out.push(value);
                return;
            }
            map.values().for_each(|v| tool_uses(v, depth + 1, out));
        }
        Value::Array(items) => items.iter().for_each(|v| tool_uses(v, depth + 1, out)),
        _ => {}
    }
}

/// The kind of record one `tool_use` block is, as the hook would read the
/// call: `Bash` a command, a file tool (`Write`, `Edit`, `MultiEdit`,
/// `NotebookEdit`, `Read`) its path, `Grep` its search; `None` for a tool
/// the hook does not judge. A call the hook could not read is broken, with
/// the texts of its input as what it may hold.
fn tool_call(block: &Value) -> Option<Result<Kind, (String, Vec<String>)>> {
    let name = block.get("name").and_then(Value::as_str)?;
    let input = block.get("input");
    let unread = |why: String| {
        let mut salvage = Vec::new();
        if let Some(input) = input {
            texts_in(input, 0, &mut salvage);
        }
        Some(Err((why, salvage)))
    };
    match name {
        "Bash" | "bash" => match input.and_then(|i| i.get("command")) {
            Some(Value::String(command)) => Some(Ok(Kind::Command(command.clone()))),
            _ => unread(format!("has a {name} tool call without a text command")),
        },
        "Write" | "Edit" | "MultiEdit" | "NotebookEdit" | "Read" | "write" | "edit"
        | "multiedit" | "read" => {
            let path = ["file_path", "notebook_path", "filePath", "path"]
                .iter()
                .find_map(|key| input.and_then(|i| i.get(*key)));
            match path.and_then(Value::as_str).filter(|p| !p.is_empty()) {
                Some(path) => Some(Ok(Kind::Edit {
                    tool: name.to_string(),
                    path: path.to_string(),
                })),
                None => unread(format!("has a {name} tool call without a path")),
            }
        }
        "Grep" | "grep" => {
            let text = |key: &str| match input.and_then(|i| i.get(key)) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) if s.is_empty() => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(()),
            };
            let glob = match text("glob") {
                Ok(None) => text("include"),
                other => other,
            };
            match (text("path"), glob) {
                (Ok(path), Ok(glob)) => Some(Ok(Kind::Search {
                    tool: name.to_string(),
                    path,
                    glob,
                })),
                _ => unread(format!(
                    "has a {name} tool call whose path or glob is not text"
                )),
            }
        }
        _ => None,
    }
}

/// The command a person typed in Claude Code's `!` mode, from a `user`
/// entry's `<bash-input>…</bash-input>`.
fn typed_input(value: &Value) -> Option<String> {
    let content = value.pointer("/message/content");
    let text = match content {
        Some(Value::String(s)) => Some(s.as_str()),
        Some(Value::Array(items)) => items
            .iter()
            .find_map(|i| i.get("text").and_then(Value::as_str))
            .filter(|t| t.contains("<bash-input>")),
        _ => None,
    }?;
    let start = text.find("<bash-input>")? + "<bash-input>".len();
    let end = text[start..].find("</bash-input>")? + start;
    Some(text[start..end].to_string())
}

/// Claude Code transcript: every tool call of every entry (see
/// [`tool_uses`]), and the commands the person typed.
pub(super) fn read_claude(reader: impl BufRead, mut each: impl FnMut(Record)) -> io::Result<()> {
    for item in lines(reader) {
        let (number, bytes) = item?;
        let Some(value) = json_line(number, bytes, Reading::Transcript, &mut each) else {
            continue;
        };
        let stamp = |kind: Kind| Record {
            timestamp: text_field(&value, &["timestamp"]),
            session: text_field(&value, &["sessionId"]),
            cwd: text_field(&value, &["cwd"]).map(PathBuf::from),
            ..Record::new(number, kind)
        };
        let mut calls = Vec::new();
        tool_uses(&value, 0, &mut calls);
        for block in calls {
            match tool_call(block) {
                Some(Ok(kind)) => each(stamp(kind)),
                Some(Err((why, salvage))) => each(Record {
                    salvage: Some(salvage),
                    ..stamp(Kind::Broken(why))
                }),
                None => {}
            }
        }
        if value.get("type").and_then(Value::as_str) == Some("user")
            && let Some(input) = typed_input(&value)
        {
            each(stamp(Kind::Typed(input)));
        }
    }
    Ok(())
}
