//! Host adapters: a hook request on stdin in, a decision and the exact
//! output the host expects out.
//!
//! Claude Code's PreToolUse JSON is read leniently (unknown fields are
//! fine); OpenCode's `{tool, args}` shape is accepted too. Both are typed
//! serde structs ([`wire`]), as is Claude Code's output. Anything that is
//! not a well-formed request is a [`HookError`], which `main` reports on one
//! stderr line with exit code 2 (Claude Code blocks the call).
#![deny(clippy::indexing_slicing)]

pub mod apply_patch;
pub mod hosts;
pub mod wire;

pub use hosts::{Event, Host};

use crate::paths::Location;
use crate::verdict::{Decision, Verdict};
use serde::Deserialize;
use std::fmt;
use std::path::PathBuf;

/// What [`claude_output`] prints if its output could not be serialized.
const DENY_FALLBACK: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"portcullis: internal error writing the decision; blocking to be safe"}}"#;

/// What to print for FREE and UNKNOWN verdicts (`--free`, `--unknown`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HookOptions {
    /// FREE → `allow` (false: no output, the host decides as usual).
    pub free_allows: bool,
    /// UNKNOWN → `ask` (false: no output).
    pub unknown_asks: bool,
}

impl Default for HookOptions {
    fn default() -> Self {
        HookOptions {
            free_allows: true,
            unknown_asks: false,
        }
    }
}

/// A request the hook could not read.
#[derive(Debug, PartialEq, Eq)]
pub enum HookError {
    /// Nothing on stdin.
    Empty,
    /// stdin is not UTF-8.
    NotUtf8,
    /// stdin is larger than the limit.
    TooLarge(usize),
    /// stdin is not JSON.
    NotJson(String),
    /// The JSON has an object with the same key twice (at any depth).
    DuplicateKey(String),
    /// The JSON is not an object with the expected fields.
    Shape(String),
}

impl fmt::Display for HookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HookError::Empty => write!(
                f,
                "empty input: expected a PreToolUse JSON request on stdin"
            ),
            HookError::NotUtf8 => write!(f, "input is not valid UTF-8"),
            HookError::TooLarge(n) => write!(
                f,
                "input of {n} bytes is over the {} byte limit",
                crate::limits::MAX_STDIN_BYTES
            ),
            HookError::NotJson(e) => write!(f, "input is not JSON: {e}"),
            HookError::DuplicateKey(e) => {
                write!(f, "input is ambiguous, refused: {e} (send each key once)")
            }
            HookError::Shape(e) => write!(f, "unexpected request: {e}"),
        }
    }
}

/// One tool call to judge.
#[derive(Debug, PartialEq, Eq)]
pub enum ToolCall {
    /// A shell command.
    Bash {
        /// The command line.
        command: String,
    },
    /// An edit tool's write (`Write`, `Edit`, `MultiEdit`, `NotebookEdit`;
    /// OpenCode's `write`, `edit`), or a `Read`.
    File {
        /// The tool's name.
        tool: String,
        /// Whether the file is written or read.
        kind: crate::engine::EditKind,
        /// The path the tool names.
        path: String,
        /// What the request says it leaves in the file, when it says
        /// (`content`, `old_string`/`new_string`, `edits`).
        content: Option<crate::engine::EditContent>,
    },
    /// A patch that writes several files (`apply_patch`: Codex's,
    /// OpenCode's for GPT-5 style models, Copilot's): every file it adds,
    /// updates, deletes or moves, each judged as an edit tool's write.
    Patch {
        /// The tool's name.
        tool: String,
        /// The files it writes.
        targets: Vec<apply_patch::PatchTarget>,
    },
    /// A search over files' content (Claude Code's `Grep`, OpenCode's
    /// `grep`): what it prints enters the model's context.
    Search {
        /// The tool's name.
        tool: String,
        /// The file or folder searched (`None`: the working folder).
        path: Option<String>,
        /// The glob limiting which files are searched (`glob`, OpenCode's
        /// `include`).
        glob: Option<String>,
    },
    /// A tool portcullis does not judge.
    Other {
        /// The tool's name.
        tool: String,
    },
}

/// A parsed request: the call and where it runs.
#[derive(Debug)]
pub struct Request {
    /// The call.
    pub call: ToolCall,
    /// Its working folder (the request's `cwd`) and the home folder.
    pub location: Location,
    /// The host's permission mode (`permission_mode`), for shell commands.
    pub mode: crate::engine::PermissionMode,
    /// The host the request's shape names (`None`: none does).
    pub host: Option<Host>,
    /// The hook event it is for.
    pub event: Event,
}

/// Reads a Claude Code PreToolUse request (or OpenCode's `{tool, args}`).
pub fn parse_request(input: &[u8], home: Option<PathBuf>) -> Result<Request, HookError> {
    if input.len() > crate::limits::MAX_STDIN_BYTES {
        return Err(HookError::TooLarge(input.len()));
    }
    let text = std::str::from_utf8(input).map_err(|_| HookError::NotUtf8)?;
    if text.trim().is_empty() {
        return Err(HookError::Empty);
    }
    // Read strictly first (a key twice at any depth is refused), then into
    // the typed request.
    let value: serde_json::Value = crate::strict_json::from_str(text).map_err(|e| {
        if crate::strict_json::is_duplicate(&e) {
            HookError::DuplicateKey(e.to_string())
        } else {
            HookError::NotJson(e.to_string())
        }
    })?;
    if !value.is_object() {
        return Err(HookError::Shape("the request is not a JSON object".into()));
    }
    let mut request =
        wire::Request::deserialize(value).map_err(|e| HookError::Shape(e.to_string()))?;
    let host = hosts::detect(&request);
    let event = hosts::event(&request);
    // Copilot's toolArgs (an object, a JSON string in older versions, or
    // the bare text of a freeform tool: `apply_patch` for GPT-5 style
    // models) and Cursor's top-level command read as a tool input.
    if request.tool_input.is_none() && request.args.is_none() {
        if let Some(args) = request.tool_args.take() {
            let input = match args {
                serde_json::Value::String(text) => copilot_string_args(request.tool(), text)?,
                other => wire::ToolInput::deserialize(other)
                    .map_err(|e| HookError::Shape(format!("toolArgs: {e}")))?,
            };
            request.args = Some(wire::ObjectOnly(input));
        } else if let Some(command) = request.command.take() {
            request.args = Some(wire::ObjectOnly(wire::ToolInput {
                command: Some(command),
                ..Default::default()
            }));
            if request.tool().is_none() {
                request.tool_name = Some(wire::Field::Text("Bash".to_string()));
            }
        }
    }
    let cwd = request
        .cwd
        .as_ref()
        .and_then(wire::Field::text)
        .filter(|c| c.starts_with('/'))
        .map(PathBuf::from);
    let mut location = Location { cwd, home };
    let mode = crate::engine::PermissionMode::named(
        request.permission_mode.as_ref().and_then(wire::Field::text),
    );
    let tool = hosts::canonical_tool(request.tool().unwrap_or("Bash"));
    let input = request.input();
    if let Some(kind) = file_tool(tool) {
        let input = input.ok_or_else(|| HookError::Shape("no tool_input".into()))?;
        let path = input
            .file_path()
            .ok_or_else(|| HookError::Shape(format!("{tool}: no tool_input.file_path")))?
            .text()
            .filter(|p| !p.is_empty())
            .ok_or_else(|| {
                HookError::Shape(format!("{tool}: the file path is not a non-empty string"))
            })?;
        return Ok(Request {
            call: ToolCall::File {
                tool: tool.to_string(),
                kind,
                path: path.to_string(),
                content: edit_content(input),
            },
            location,
            mode,
            host,
            event,
        });
    }
    if tool == "apply_patch" {
        let input = input.ok_or_else(|| HookError::Shape("no tool_input".into()))?;
        let text = input
            .patch_text
            .as_ref()
            .or(input.command.as_ref())
            .ok_or_else(|| HookError::Shape(format!("{tool}: no patch text")))?
            .text()
            .ok_or_else(|| HookError::Shape(format!("{tool}: the patch is not a string")))?;
        let targets =
            apply_patch::targets(text).map_err(|why| HookError::Shape(format!("{tool}: {why}")))?;
        return Ok(Request {
            call: ToolCall::Patch {
                tool: tool.to_string(),
                targets,
            },
            location,
            mode,
            host,
            event,
        });
    }
    if matches!(tool, "Grep" | "grep") {
        let input = input.ok_or_else(|| HookError::Shape("no tool_input".into()))?;
        return Ok(Request {
            call: ToolCall::Search {
                tool: tool.to_string(),
                path: optional_text(input.path.as_ref(), "path", tool)?,
                glob: match optional_text(input.glob.as_ref(), "glob", tool)? {
                    Some(glob) => Some(glob),
                    None => optional_text(input.include.as_ref(), "include", tool)?,
                },
            },
            location,
            mode,
            host,
            event,
        });
    }
    // PowerShell commands are not bash: they get no output, like other tools.
    let is_shell = matches!(tool, "Bash" | "bash");
    if !is_shell {
        return Ok(Request {
            call: ToolCall::Other {
                tool: tool.to_string(),
            },
            location,
            mode,
            host,
            event,
        });
    }
    let input = input.ok_or_else(|| HookError::Shape("no tool_input".into()))?;
    if let Some(folder) = input
        .dir_path
        .as_ref()
        .or(input.working_directory.as_ref())
        .and_then(wire::Field::text)
        .filter(|f| !f.is_empty())
    {
        // Relative to the session's folder; unknown without one.
        location.cwd = match (&location.cwd, folder.starts_with('/')) {
            (_, true) => Some(PathBuf::from(folder)),
            (Some(cwd), false) => Some(cwd.join(folder)),
            (None, false) => None,
        };
    }
    let command = input
        .command
        .as_ref()
        .ok_or_else(|| HookError::Shape("no tool_input.command".into()))?
        .text()
        .ok_or_else(|| HookError::Shape("tool_input.command is not a string".into()))?;
    Ok(Request {
        call: ToolCall::Bash {
            command: command.to_string(),
        },
        location,
        mode,
        host,
        event,
    })
}

/// What an edit tool's input says it leaves in the file: Claude Code's
/// `content` (Write), `old_string`/`new_string`/`replace_all` (Edit) and
/// `edits` (MultiEdit), or OpenCode's `content`, `oldString`/`newString`/
/// `replaceAll` and `edits`. `None` when it says nothing readable.
fn edit_content(input: &wire::ToolInput) -> Option<crate::engine::EditContent> {
    use crate::engine::EditContent;
    if let Some(text) = input
        .content
        .as_ref()
        .or(input.file_text.as_ref())
        .and_then(wire::Field::text)
    {
        return Some(EditContent::Whole(text.to_string()));
    }
    if let Some(edits) = &input.edits {
        let wire::Edits::List(edits) = edits else {
            return None;
        };
        return edits
            .iter()
            .map(|e| replacement(&e.0))
            .collect::<Option<Vec<_>>>()
            .map(EditContent::Replace);
    }
    replacement(&input.replacement).map(|r| EditContent::Replace(vec![r]))
}

/// One replacement of an Edit (either host's spelling).
fn replacement(input: &wire::Replacement) -> Option<crate::engine::Replacement> {
    Some(crate::engine::Replacement {
        old: input.old()?.to_string(),
        new: input.new_text()?.to_string(),
        all: input.all()?,
    })
}

/// Copilot's `toolArgs` given as a string: the JSON text of the arguments
/// (older versions), or, for the freeform `apply_patch` tool, the patch
/// itself. Anything else is refused.
fn copilot_string_args(tool: Option<&str>, text: String) -> Result<wire::ToolInput, HookError> {
    if tool == Some("apply_patch") && !text.trim_start().starts_with('{') {
        return Ok(wire::ToolInput {
            patch_text: Some(wire::Field::Text(text)),
            ..Default::default()
        });
    }
    let args = crate::strict_json::from_str(&text)
        .map_err(|e| HookError::Shape(format!("toolArgs: {e}")))?;
    wire::ToolInput::deserialize(args).map_err(|e| HookError::Shape(format!("toolArgs: {e}")))
}

/// A tool input's optional text field: absent, `null` or empty is `None`;
/// any other value that is not a string is an error (read strictly: a
/// path that cannot be read must not pass as "the working folder").
fn optional_text(
    field: Option<&wire::Field>,
    key: &str,
    tool: &str,
) -> Result<Option<String>, HookError> {
    match field {
        None | Some(wire::Field::Null) => Ok(None),
        Some(wire::Field::Text(text)) if text.is_empty() => Ok(None),
        Some(wire::Field::Text(text)) => Ok(Some(text.clone())),
        Some(_) => Err(HookError::Shape(format!(
            "{tool}: tool_input.{key} is not a string"
        ))),
    }
}

/// Whether a tool writes or reads one file the path law judges.
fn file_tool(tool: &str) -> Option<crate::engine::EditKind> {
    use crate::engine::EditKind;
    match tool {
        "Write" | "Edit" | "MultiEdit" | "NotebookEdit" | "write" | "edit" => Some(EditKind::Write),
        "Read" | "read" => Some(EditKind::Read),
        _ => None,
    }
}

/// The PreToolUse output for a decision, or `None` for no output.
pub fn claude_output(decision: &Decision, options: HookOptions) -> Option<String> {
    let permission = match decision.verdict() {
        Verdict::Free if options.free_allows => "allow",
        Verdict::Free => return None,
        Verdict::Unknown if options.unknown_asks => "ask",
        Verdict::Unknown => return None,
        Verdict::Signed => "ask",
        Verdict::Blocked => "deny",
    };
    let reason = crate::render::reason_line(decision);
    let output = wire::ClaudeOutput {
        hook_specific_output: wire::HookSpecificOutput {
            hook_event_name: "PreToolUse",
            permission_decision: permission,
            permission_decision_reason: &reason,
        },
    };
    // Strings only: serializing cannot fail. Were it to, the call is
    // denied rather than left to the host.
    Some(serde_json::to_string(&output).unwrap_or_else(|_| DENY_FALLBACK.to_string()))
}

/// One whole hook call, as the binary runs it: the request's bytes in, the
/// line to print (if any) out. `home` is the home folder; `fallback_cwd`
/// stands in for a request without a `cwd` (Claude Code runs hooks in the
/// session's folder). An error is a request that could not be read: the
/// caller reports it and exits 2, which blocks the call.
pub fn respond(
    input: &[u8],
    host: Option<Host>,
    options: HookOptions,
    home: Option<PathBuf>,
    fallback_cwd: Option<PathBuf>,
) -> Result<Option<String>, HookError> {
    let mut request = parse_request(input, home)?;
    if request.location.cwd.is_none() {
        request.location.cwd = fallback_cwd;
    }
    let mut laws = crate::law::Laws::new(request.location.cwd.as_deref());
    let (decision, file_tool) = match &request.call {
        ToolCall::Bash { command } => (
            crate::engine::evaluate_in_mode(command, &request.location, &mut laws, request.mode),
            false,
        ),
        ToolCall::File {
            kind,
            path,
            content,
            ..
        } => (
            crate::engine::evaluate_edit_with(
                *kind,
                path,
                content.as_ref(),
                &request.location,
                &mut laws,
            ),
            true,
        ),
        ToolCall::Patch { targets, .. } => {
            let mut findings = Vec::new();
            for target in targets {
                let decision = crate::engine::evaluate_edit_with(
                    crate::engine::EditKind::Write,
                    &target.path,
                    target.content.as_ref(),
                    &request.location,
                    &mut laws,
                );
                findings.extend(decision.findings);
            }
            (Decision::from_findings(findings, "apply_patch"), true)
        }
        ToolCall::Search { path, glob, .. } => (
            crate::engine::evaluate_search(
                path.as_deref(),
                glob.as_deref(),
                &request.location,
                &mut laws,
            ),
            true,
        ),
        ToolCall::Other { .. } => return Ok(None),
    };
    // Without `--host`, the request's shape names the host; a request no
    // host sends is refused, so the call is blocked.
    let host = host.or(request.host).ok_or_else(|| {
        HookError::Shape("the request matches no host's shape; pass --host".into())
    })?;
    let command = match &request.call {
        ToolCall::Bash { command } => Some(command.as_str()),
        _ => None,
    };
    Ok(hosts::output(
        host,
        request.event,
        &decision,
        command,
        options,
        file_tool,
    ))
}

/// The OpenCode plugin's output: one JSON verdict object. A SIGNED shell
/// `command` also says whether the plugin may `defer` it to OpenCode's own
/// permission rules (`portcullis opencode-permissions`): only when it is
/// one simple command as written (no redirect, pipe, list or wrapper that
/// OpenCode's patterns would judge apart) and those rules ask for it.
/// Otherwise OpenCode would run what portcullis signs (`echo x > f` meets
/// `"echo *": "allow"`), so the plugin blocks it.
pub fn opencode_output(decision: &Decision, command: Option<&str>) -> String {
    let mut value = crate::render::json_object(decision, None);
    if let (Some(command), Some(map), Verdict::Signed) =
        (command, value.as_object_mut(), decision.verdict())
    {
        let command = command.trim();
        let alone = decision.top.part.trim() == command;
        let defer = alone && crate::opencode::would_ask(command);
        map.insert("defer".into(), serde_json::Value::Bool(defer));
    }
    value.to_string()
}
