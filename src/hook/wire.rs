//! The hook's input and output as typed serde structs.
//!
//! The request is read leniently, as the hosts send it: unknown fields are
//! ignored, and a field of an unexpected type is kept as such ([`Field`]),
//! so the adapter can tell "absent" from "null" from "not a string" and
//! answer each as before. A tool input that is not an object reads as one
//! with no fields ([`ObjectOnly`]).

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::marker::PhantomData;

/// A Claude Code PreToolUse request (or OpenCode's `{tool, args}`): the
/// fields the hook reads.
#[derive(Debug, Default, Deserialize)]
pub struct Request {
    /// Claude Code's tool name; when present (whatever its type) it is the
    /// one read.
    #[serde(default, deserialize_with = "present")]
    pub tool_name: Option<Field>,
    /// OpenCode's tool name.
    #[serde(default, deserialize_with = "present")]
    pub tool: Option<Field>,
    /// The session's working folder.
    #[serde(default, deserialize_with = "present")]
    pub cwd: Option<Field>,
    /// Claude Code's permission mode (`default`, `plan`, `acceptEdits` …).
    #[serde(default, deserialize_with = "present")]
    pub permission_mode: Option<Field>,
    /// Claude Code's tool input; when present it is the one read.
    #[serde(default, deserialize_with = "present")]
    pub tool_input: Option<ObjectOnly<ToolInput>>,
    /// OpenCode's tool input.
    #[serde(default, deserialize_with = "present")]
    pub args: Option<ObjectOnly<ToolInput>>,
    /// Copilot's tool name (camelCase events).
    #[serde(default, rename = "toolName", deserialize_with = "present")]
    pub tool_name_camel: Option<Field>,
    /// Copilot's tool input: an object, or (older versions) a JSON string.
    #[serde(default, rename = "toolArgs")]
    pub tool_args: Option<serde_json::Value>,
    /// Cursor's `beforeShellExecution` command, at the top level.
    #[serde(default, deserialize_with = "present")]
    pub command: Option<Field>,
    /// The event (`PreToolUse`, `BeforeTool`, `beforeShellExecution` …).
    #[serde(default, deserialize_with = "present")]
    pub hook_event_name: Option<Field>,
    /// Codex's turn id.
    #[serde(default, deserialize_with = "present")]
    pub turn_id: Option<Field>,
    /// Qwen's tool call id.
    #[serde(default, deserialize_with = "present")]
    pub tool_call_id: Option<Field>,
    /// Qwen's prompt id.
    #[serde(default, deserialize_with = "present")]
    pub prompt_id: Option<Field>,
    /// Claude Code's and Codex's tool use id.
    #[serde(default, deserialize_with = "present")]
    pub tool_use_id: Option<Field>,
    /// Gemini's and Copilot's timestamp (a string, or Copilot's number).
    #[serde(default, deserialize_with = "present")]
    pub timestamp: Option<Field>,
    /// Cursor's version.
    #[serde(default, deserialize_with = "present")]
    pub cursor_version: Option<Field>,
}

impl Request {
    /// The tool's name: `tool_name` when present, else `tool`; `None` when
    /// the one present is not a string.
    pub fn tool(&self) -> Option<&str> {
        self.tool_name
            .as_ref()
            .or(self.tool_name_camel.as_ref())
            .or(self.tool.as_ref())?
            .text()
    }

    /// The tool's input: `tool_input` when present, else `args`.
    pub fn input(&self) -> Option<&ToolInput> {
        self.tool_input
            .as_ref()
            .or(self.args.as_ref())
            .map(|i| &i.0)
    }
}

/// The fields of a tool input the hook reads, in both hosts' spellings.
#[derive(Debug, Default, Deserialize)]
pub struct ToolInput {
    /// Bash's command line.
    #[serde(default, deserialize_with = "present")]
    pub command: Option<Field>,
    /// Claude Code's file path (`Write`, `Edit`, `MultiEdit`, `Read`).
    #[serde(default, deserialize_with = "present")]
    pub file_path: Option<Field>,
    /// Claude Code's `NotebookEdit` path.
    #[serde(default, deserialize_with = "present")]
    pub notebook_path: Option<Field>,
    /// OpenCode's file path.
    #[serde(default, rename = "filePath", deserialize_with = "present")]
    pub file_path_camel: Option<Field>,
    /// A path: a file tool's last choice, or the folder `Grep` searches.
    #[serde(default, deserialize_with = "present")]
    pub path: Option<Field>,
    /// `Write`'s whole new text.
    #[serde(default, deserialize_with = "present")]
    pub content: Option<Field>,
    /// `MultiEdit`'s replacements.
    #[serde(default, deserialize_with = "present")]
    pub edits: Option<Edits>,
    /// `Grep`'s glob.
    #[serde(default, deserialize_with = "present")]
    pub glob: Option<Field>,
    /// OpenCode's `grep` glob.
    #[serde(default, deserialize_with = "present")]
    pub include: Option<Field>,
    /// Gemini's shell folder, relative to the project.
    #[serde(default, deserialize_with = "present")]
    pub dir_path: Option<Field>,
    /// Cursor's shell folder.
    #[serde(default, deserialize_with = "present")]
    pub working_directory: Option<Field>,
    /// Copilot's `create` text.
    #[serde(default, deserialize_with = "present")]
    pub file_text: Option<Field>,
    /// OpenCode's `apply_patch` text (Codex sends it as `command`).
    #[serde(default, rename = "patchText", deserialize_with = "present")]
    pub patch_text: Option<Field>,
    /// `Edit`'s one replacement.
    #[serde(flatten)]
    pub replacement: Replacement,
}

impl ToolInput {
    /// The path a file tool names: the first of `file_path`,
    /// `notebook_path`, `filePath` and `path` that is present.
    pub fn file_path(&self) -> Option<&Field> {
        [
            &self.file_path,
            &self.notebook_path,
            &self.file_path_camel,
            &self.path,
        ]
        .into_iter()
        .find_map(Option::as_ref)
    }
}

/// One replacement of an `Edit`, in either host's spelling.
#[derive(Debug, Default, Deserialize)]
pub struct Replacement {
    /// Claude Code's replaced text.
    #[serde(default, deserialize_with = "present")]
    pub old_string: Option<Field>,
    /// OpenCode's replaced text.
    #[serde(default, rename = "oldString", deserialize_with = "present")]
    pub old_string_camel: Option<Field>,
    /// Claude Code's new text.
    #[serde(default, deserialize_with = "present")]
    pub new_string: Option<Field>,
    /// OpenCode's new text.
    #[serde(default, rename = "newString", deserialize_with = "present")]
    pub new_string_camel: Option<Field>,
    /// Claude Code's every-occurrence flag.
    #[serde(default, deserialize_with = "present")]
    pub replace_all: Option<Field>,
    /// OpenCode's every-occurrence flag.
    #[serde(default, rename = "replaceAll", deserialize_with = "present")]
    pub replace_all_camel: Option<Field>,
}

impl Replacement {
    /// The replaced text: `old_string` when present, else `oldString`;
    /// `None` when the one present is not a string.
    pub fn old(&self) -> Option<&str> {
        self.old_string
            .as_ref()
            .or(self.old_string_camel.as_ref())?
            .text()
    }

    /// The new text, likewise.
    pub fn new_text(&self) -> Option<&str> {
        self.new_string
            .as_ref()
            .or(self.new_string_camel.as_ref())?
            .text()
    }

    /// The every-occurrence flag: absent or null is `false`; `None` when it
    /// is neither a boolean nor null.
    pub fn all(&self) -> Option<bool> {
        match self
            .replace_all
            .as_ref()
            .or(self.replace_all_camel.as_ref())
        {
            None | Some(Field::Null) => Some(false),
            Some(Field::Bool(flag)) => Some(*flag),
            Some(_) => None,
        }
    }
}

/// `MultiEdit`'s `edits`: a list of replacements, or something else.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Edits {
    /// A list (an element that is not an object has no fields).
    List(Vec<ObjectOnly<Replacement>>),
    /// Anything that is not a list.
    Other(IgnoredAny),
}

/// One field's value as far as the hook reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// A string.
    Text(String),
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, a list or an object.
    Other,
}

impl Field {
    /// The text, when it is a string.
    pub fn text(&self) -> Option<&str> {
        match self {
            Field::Text(text) => Some(text),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Field, D::Error> {
        struct FieldVisitor;
        impl<'de> Visitor<'de> for FieldVisitor {
            type Value = Field;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
                Ok(Field::Text(v.to_string()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Field, E> {
                Ok(Field::Text(v))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Field, E> {
                Ok(Field::Null)
            }
            fn visit_none<E: de::Error>(self) -> Result<Field, E> {
                Ok(Field::Null)
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Field, E> {
                Ok(Field::Bool(v))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Field, E> {
                Ok(Field::Other)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Field, E> {
                Ok(Field::Other)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Field, E> {
                Ok(Field::Other)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Field, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Field::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Field, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Field::Other)
            }
        }
        deserializer.deserialize_any(FieldVisitor)
    }
}

/// A `T` read from a JSON object; any other value reads as `T::default()`
/// (an object with no fields), never positionally from a list.
#[derive(Debug, Default)]
pub struct ObjectOnly<T>(pub T);

impl<'de, T: Deserialize<'de> + Default> Deserialize<'de> for ObjectOnly<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ObjectOnly<T>, D::Error> {
        struct ObjectVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de> + Default> Visitor<'de> for ObjectVisitor<T> {
            type Value = ObjectOnly<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ObjectOnly<T>, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map)).map(ObjectOnly)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ObjectOnly<T>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(ObjectOnly::default())
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<ObjectOnly<T>, E> {
                Ok(ObjectOnly::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<ObjectOnly<T>, E> {
                Ok(ObjectOnly::default())
            }
            fn visit_none<E: de::Error>(self) -> Result<ObjectOnly<T>, E> {
                Ok(ObjectOnly::default())
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<ObjectOnly<T>, E> {
                Ok(ObjectOnly::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<ObjectOnly<T>, E> {
                Ok(ObjectOnly::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<ObjectOnly<T>, E> {
                Ok(ObjectOnly::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<ObjectOnly<T>, E> {
                Ok(ObjectOnly::default())
            }
        }
        deserializer.deserialize_any(ObjectVisitor(PhantomData))
    }
}

/// A field that is present, whatever its value (`null` included): serde's
/// own `Option` reads `null` as absent.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// Claude Code's PreToolUse output.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaudeOutput<'a> {
    /// The one object Claude Code reads.
    pub hook_specific_output: HookSpecificOutput<'a>,
}

/// The decision inside [`ClaudeOutput`].
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HookSpecificOutput<'a> {
    /// Always `PreToolUse`.
    pub hook_event_name: &'static str,
    /// `allow`, `ask` or `deny`.
    pub permission_decision: &'static str,
    /// One line: the verdict, its rule, why, and what to do instead.
    pub permission_decision_reason: &'a str,
}
