//! JSONL command logs: one JSON value a line, a string or an object with
//! a `command` / `cmd` / `argv` (text or argv array), and the
//! `{"session","step","cmd"}` session files. Object keys are read once
//! without building the whole object; a line that is not JSON is a broken
//! [`Record`] with what could be salvaged from it.

use super::salvage::{Reading, command_text, salvage_json, texts_in};
use super::{Kind, Record, lines, utf8};
use serde_json::Value;
use std::io::{self, BufRead};
use std::path::PathBuf;

/// One JSON line as a JSON value; `None` for a blank line, or (with a
/// broken record given to `each`) for one that is not UTF-8 or not JSON.
pub(super) fn json_line(
    number: usize,
    bytes: Vec<u8>,
    reading: Reading,
    each: &mut impl FnMut(Record),
) -> Option<Value> {
    let text = utf8(number, bytes, reading, each)?;
    if text.trim().is_empty() {
        return None;
    }
    match serde_json::from_str(&text) {
        Ok(value) => Some(value),
        Err(e) => {
            let why = format!("is not JSON ({e})");
            let salvage = salvage_json(&text, reading);
            // A transcript line that names no tool call, typed command or
            // command (escapes aside) cannot hold one.
            let inert = reading == Reading::Transcript
                && salvage.is_empty()
                && !["tool_use", "bash-input", "command", "\\u"]
                    .iter()
                    .any(|m| text.contains(m));
            each(if inert {
                Record::new(number, Kind::Broken(why))
            } else {
                Record::unjudged(number, why, salvage)
            });
            None
        }
    }
}

/// Keys of a JSONL history object that say where and when, never what ran.
const META_KEYS: &[&str] = &[
    "session",
    "sessionId",
    "session_id",
    "step",
    "timestamp",
    "time",
    "cwd",
];

/// A key of a JSONL history object that replay reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Command,
    Cmd,
    Argv,
    Session,
    SessionIdCamel,
    SessionIdSnake,
    Timestamp,
    Time,
    Cwd,
}

/// Which [`Key`] a JSON key is, if any (read without allocating).
struct KeySeed;

impl<'de> serde::de::DeserializeSeed<'de> for KeySeed {
    type Value = Option<Key>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Option<Key>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> serde::de::Visitor<'de> for KeySeed {
    type Value = Option<Key>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Option<Key>, E> {
        Ok(match key {
            "command" => Some(Key::Command),
            "cmd" => Some(Key::Cmd),
            "argv" => Some(Key::Argv),
            "session" => Some(Key::Session),
            "sessionId" => Some(Key::SessionIdCamel),
            "session_id" => Some(Key::SessionIdSnake),
            "timestamp" => Some(Key::Timestamp),
            "time" => Some(Key::Time),
            "cwd" => Some(Key::Cwd),
            _ => None,
        })
    }
}

/// The fields of a JSONL history object that replay reads, every
/// occurrence in order (a repeated key is kept each time, so a command
/// hidden under a repeated key is judged too); other keys are skipped
/// without being built.
struct JsonlFields(Vec<(Key, Value)>);

impl<'de> serde::Deserialize<'de> for JsonlFields {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<JsonlFields, D::Error> {
        d.deserialize_map(FieldsVisitor)
    }
}

/// Reads a JSONL object into [`JsonlFields`].
struct FieldsVisitor;

impl<'de> serde::de::Visitor<'de> for FieldsVisitor {
    type Value = JsonlFields;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<JsonlFields, A::Error> {
        let mut fields = Vec::new();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            match key {
                Some(key) => fields.push((key, map.next_value::<Value>()?)),
                None => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(JsonlFields(fields))
    }
}

impl JsonlFields {
    /// The first value under any of `keys` (in that order of keys) that is
    /// text or a number, as text.
    fn text(&self, keys: &[Key]) -> Option<String> {
        keys.iter().find_map(|key| {
            self.0.iter().find_map(|(k, v)| match v {
                _ if k != key => None,
                Value::String(s) => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
        })
    }
}

/// The records of one JSONL object line: one command for each distinct
/// command it holds under `command`, `cmd` or `argv` (text, or an argv
/// array joined with shell quoting; a `null` one is no command), and a
/// broken record for one of another kind or for an object with none.
/// `None` when the line is not an object (a string, broken JSON), which
/// the whole reading in `read_jsonl` reports.
fn jsonl_object(number: usize, bytes: &[u8]) -> Option<Vec<Record>> {
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let fields: JsonlFields = serde_json::from_str(text).ok()?;
    let session = fields.text(&[Key::Session, Key::SessionIdCamel, Key::SessionIdSnake]);
    let timestamp = fields.text(&[Key::Timestamp, Key::Time]);
    let cwd = fields.text(&[Key::Cwd]).map(PathBuf::from);
    let mut commands: Vec<String> = Vec::new();
    let mut records = Vec::new();
    for (key, value) in &fields.0 {
        if !matches!(key, Key::Command | Key::Cmd | Key::Argv) || value.is_null() {
            continue;
        }
        match command_text(value) {
            Ok(command) if !commands.contains(&command) => commands.push(command),
            Ok(_) => {}
            Err(what) => {
                let mut salvage = Vec::new();
                texts_in(value, 0, &mut salvage);
                let name = match key {
                    Key::Cmd => "cmd",
                    Key::Argv => "argv",
                    _ => "command",
                };
                records.push(Record::unjudged(
                    number,
                    format!("has a \"{name}\" that is {what}"),
                    salvage,
                ));
            }
        }
    }
    if commands.is_empty() && records.is_empty() {
        let mut salvage = Vec::new();
        if let Ok(Value::Object(whole)) = serde_json::from_str::<Value>(text) {
            for (key, value) in &whole {
                if !META_KEYS.contains(&key.as_str()) {
                    texts_in(value, 1, &mut salvage);
                }
            }
        }
        let why = "is an object without a \"command\", \"cmd\" or \"argv\" to judge".to_string();
        records.push(if salvage.is_empty() {
            Record::new(number, Kind::Broken(why))
        } else {
            Record::unjudged(number, why, salvage)
        });
    }
    let mut out: Vec<Record> = commands
        .into_iter()
        .map(|command| Record::new(number, Kind::Command(command)))
        .chain(records)
        .collect();
    for record in &mut out {
        record.session.clone_from(&session);
        record.timestamp.clone_from(&timestamp);
        record.cwd.clone_from(&cwd);
    }
    Some(out)
}

/// JSONL: one JSON string or object a line.
pub(super) fn read_jsonl(reader: impl BufRead, mut each: impl FnMut(Record)) -> io::Result<()> {
    for item in lines(reader) {
        let (number, bytes) = item?;
        if let Some(records) = jsonl_object(number, &bytes) {
            records.into_iter().for_each(&mut each);
            continue;
        }
        let Some(value) = json_line(number, bytes, Reading::Jsonl, &mut each) else {
            continue;
        };
        match value {
            Value::String(command) => each(Record::new(number, Kind::Command(command))),
            other => {
                let mut salvage = Vec::new();
                texts_in(&other, 0, &mut salvage);
                let why = "is not a JSON string or an object with \"command\", \"cmd\" or \"argv\""
                    .to_string();
                each(if salvage.is_empty() {
                    Record::new(number, Kind::Broken(why))
                } else {
                    Record::unjudged(number, why, salvage)
                });
            }
        }
    }
    Ok(())
}
