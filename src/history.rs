//! Recorded command history, read as a stream of [`Record`]s for replay:
//! plain lines, JSONL (strings, `{"command"}` / `{"cmd"}`, and the
//! `{"session","step","cmd"}` session files), bash history with `#<epoch>`
//! lines, zsh extended history (continuations joined, metafied bytes
//! decoded), fish history, and Claude Code transcripts (`Bash` tool calls,
//! edit-tool paths, and `<bash-input>` lines the person typed).
//!
//! Takes bytes from a reader; calls back with one record at a time, so
//! memory does not grow with the input. A line that cannot be read (bad
//! UTF-8, broken JSON, a timestamp out of range) is a [`Kind::Broken`]
//! record with its line number: never a panic, never a silent skip.

use serde_json::Value;
use std::io::{self, BufRead};
use std::path::{Path, PathBuf};

/// A history format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One command per line.
    Lines,
    /// One JSON value per line: a string, or an object with `command` or
    /// `cmd` (and optionally `session`, `step`, `timestamp`, `cwd`).
    Jsonl,
    /// bash history, `#<epoch>` lines giving the next command's time.
    Bash,
    /// zsh history, extended (`: <epoch>:<elapsed>;cmd`) or plain.
    Zsh,
    /// fish history (`- cmd: …` / `  when: …`).
    Fish,
    /// Claude Code transcript JSONL.
    Claude,
}

impl Format {
    /// Every format, by its `--format` name.
    pub const NAMES: &'static [(&'static str, Format)] = &[
        ("lines", Format::Lines),
        ("jsonl", Format::Jsonl),
        ("sessions", Format::Jsonl),
        ("bash", Format::Bash),
        ("zsh", Format::Zsh),
        ("fish", Format::Fish),
        ("claude", Format::Claude),
    ];

    /// The format named `name` (`--format`).
    pub fn named(name: &str) -> Option<Format> {
        Format::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f)
    }

    /// The format's name.
    pub fn name(self) -> &'static str {
        Format::NAMES
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("lines", |(n, _)| n)
    }
}

/// Guesses the format from the file's name and its first bytes.
pub fn detect(path: Option<&Path>, head: &[u8]) -> Format {
    let name = path
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if name.contains("zsh_history") || name == ".zhistory" {
        return Format::Zsh;
    }
    if name.contains("fish_history") {
        return Format::Fish;
    }
    let text = String::from_utf8_lossy(head);
    let first = text
        .lines()
        .map(str::trim_end)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if first.starts_with(": ") && zsh_extended(first.as_bytes()).is_some() {
        return Format::Zsh;
    }
    if first.starts_with("- cmd: ") {
        return Format::Fish;
    }
    if first.starts_with('{') {
        let claude = text.lines().take(20).any(|l| {
            l.contains("\"sessionId\"")
                || l.contains("\"type\":\"assistant\"")
                || l.contains("\"parentUuid\"")
        });
        return if claude {
            Format::Claude
        } else {
            Format::Jsonl
        };
    }
    if first.starts_with('"') {
        return Format::Jsonl;
    }
    if name.contains("bash_history") || bash_timestamp(first).is_some() {
        return Format::Bash;
    }
    Format::Lines
}

/// What one record holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A shell command to judge.
    Command(String),
    /// An edit tool's request (`Write`, `Edit`, …) on a path.
    Edit {
        /// The tool.
        tool: String,
        /// The path it names.
        path: String,
    },
    /// A command the person typed (Claude Code's `!` mode): it never
    /// passed a hook, and is reported apart.
    Typed(String),
    /// A line that could not be read, and why.
    Broken(String),
}

/// One entry of a history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The line it starts on (1-based).
    pub line: usize,
    /// What it is.
    pub kind: Kind,
    /// When it ran, as the history says it (epoch seconds or ISO 8601).
    pub timestamp: Option<String>,
    /// The session it belongs to.
    pub session: Option<String>,
    /// The folder it ran in, when the history records it.
    pub cwd: Option<PathBuf>,
}

impl Record {
    fn new(line: usize, kind: Kind) -> Record {
        Record {
            line,
            kind,
            timestamp: None,
            session: None,
            cwd: None,
        }
    }
}

/// Epoch seconds a history may plausibly hold: 1970 to 2200.
const LATEST_EPOCH: i64 = 7_258_118_400;

/// Reads `reader` as `format`, calling `each` for every record in order.
pub fn read(format: Format, reader: impl BufRead, each: impl FnMut(Record)) -> io::Result<()> {
    match format {
        Format::Lines => read_lines(reader, each, false),
        Format::Bash => read_lines(reader, each, true),
        Format::Jsonl => read_jsonl(reader, each),
        Format::Zsh => read_zsh(reader, each),
        Format::Fish => read_fish(reader, each),
        Format::Claude => read_claude(reader, each),
    }
}

/// Physical lines without their `\n` (and a `\r` before it), numbered.
fn lines(mut reader: impl BufRead) -> impl Iterator<Item = io::Result<(usize, Vec<u8>)>> {
    let mut number = 0;
    // Sized like the line before (lines of one history are alike): one
    // allocation a line instead of a doubling series.
    let mut last_len = 64usize;
    std::iter::from_fn(move || {
        let mut buf = Vec::with_capacity(last_len.min(1 << 16) + 64);
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => None,
            Ok(_) => {
                number += 1;
                last_len = buf.len();
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                }
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                Some(Ok((number, buf)))
            }
            Err(e) => Some(Err(e)),
        }
    })
}

/// The line as text; `None` (and a broken record given to `each`) when it
/// is not UTF-8.
fn utf8(line: usize, bytes: Vec<u8>, each: &mut impl FnMut(Record)) -> Option<String> {
    match String::from_utf8(bytes) {
        Ok(text) => Some(text),
        Err(_) => {
            each(Record::new(line, Kind::Broken("is not valid UTF-8".into())));
            None
        }
    }
}

/// `#1672918999`: a bash timestamp line, with its value.
fn bash_timestamp(line: &str) -> Option<i64> {
    let digits = line.strip_prefix('#')?;
    let body = digits.strip_prefix('-').unwrap_or(digits);
    (!body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().unwrap_or(i64::MAX))
}

fn read_lines(reader: impl BufRead, mut each: impl FnMut(Record), bash: bool) -> io::Result<()> {
    let mut time: Option<String> = None;
    for item in lines(reader) {
        let (number, bytes) = item?;
        let Some(text) = utf8(number, bytes, &mut each) else {
            continue;
        };
        if bash && let Some(epoch) = bash_timestamp(&text) {
            if (0..=LATEST_EPOCH).contains(&epoch) {
                time = Some(epoch.to_string());
            } else {
                time = None;
                each(Record::new(
                    number,
                    Kind::Broken(format!("timestamp {} is out of range", &text[1..])),
                ));
            }
            continue;
        }
        if text.trim().is_empty() {
            continue;
        }
        let mut record = Record::new(number, Kind::Command(text));
        record.timestamp = time.take();
        each(record);
    }
    Ok(())
}

/// One JSONL line as a JSON value; `None` for a blank line, or (with a
/// broken record given to `each`) for one that is not UTF-8 or not JSON.
fn json_line(number: usize, bytes: Vec<u8>, each: &mut impl FnMut(Record)) -> Option<Value> {
    let text = utf8(number, bytes, each)?;
    if text.trim().is_empty() {
        return None;
    }
    match serde_json::from_str(&text) {
        Ok(value) => Some(value),
        Err(e) => {
            each(Record::new(
                number,
                Kind::Broken(format!("is not JSON ({e})")),
            ));
            None
        }
    }
}

/// The fields a JSONL history object may carry, read without building the
/// whole object (`step` and any other key are skipped). Each stays a JSON
/// value, `null` included, so it is judged exactly as in the whole object.
#[derive(serde::Deserialize)]
struct JsonlFields {
    #[serde(default, deserialize_with = "present")]
    command: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    cmd: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    session: Option<Value>,
    #[serde(default, deserialize_with = "present", rename = "sessionId")]
    session_id_camel: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    session_id: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    timestamp: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    time: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    cwd: Option<Value>,
}

/// A field that is present, `null` included.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    <Value as serde::Deserialize>::deserialize(d).map(Some)
}

/// The first of `fields` that is text or a number, as text.
fn first_text<const N: usize>(fields: [Option<Value>; N]) -> Option<String> {
    fields.into_iter().find_map(|f| match f {
        Some(Value::String(s)) => Some(s),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    })
}

/// A JSONL object line with a command, read field by field; `None` when
/// it is anything else (a string, another shape, broken), which the whole
/// reading in `read_jsonl` reports.
fn jsonl_object(number: usize, bytes: &[u8]) -> Option<Record> {
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let fields: JsonlFields = serde_json::from_str(text).ok()?;
    let command = match fields.command {
        Some(Value::String(command)) => command,
        Some(_) => return None,
        None => match fields.cmd? {
            Value::String(command) => command,
            _ => return None,
        },
    };
    let mut record = Record::new(number, Kind::Command(command));
    record.session = first_text([fields.session, fields.session_id_camel, fields.session_id]);
    record.timestamp = first_text([fields.timestamp, fields.time]);
    record.cwd = first_text([fields.cwd]).map(PathBuf::from);
    Some(record)
}

fn read_jsonl(reader: impl BufRead, mut each: impl FnMut(Record)) -> io::Result<()> {
    for item in lines(reader) {
        let (number, bytes) = item?;
        if let Some(record) = jsonl_object(number, &bytes) {
            each(record);
            continue;
        }
        let Some(value) = json_line(number, bytes, &mut each) else {
            continue;
        };
        let command = match &value {
            Value::String(s) => Some(s.clone()),
            Value::Object(map) => map
                .get("command")
                .or_else(|| map.get("cmd"))
                .and_then(Value::as_str)
                .map(str::to_string),
            _ => None,
        };
        let Some(command) = command else {
            each(Record::new(
                number,
                Kind::Broken(
                    "is not a JSON string or an object with \"command\" or \"cmd\"".into(),
                ),
            ));
            continue;
        };
        let mut record = Record::new(number, Kind::Command(command));
        record.session = text_field(&value, &["session", "sessionId", "session_id"]);
        record.timestamp = text_field(&value, &["timestamp", "time"]);
        record.cwd = text_field(&value, &["cwd"]).map(PathBuf::from);
        each(record);
    }
    Ok(())
}

/// A field as text (strings as they are, numbers written out).
fn text_field(value: &Value, keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| match value.get(k)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    })
}

/// zsh's metafied bytes: `0x83` means "the next byte XOR 32".
fn unmetafy(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut iter = bytes.iter();
    while let Some(&b) = iter.next() {
        if b == 0x83 {
            if let Some(&next) = iter.next() {
                out.push(next ^ 32);
            }
        } else {
            out.push(b);
        }
    }
    out
}

/// `: <epoch>:<elapsed>;<command>`: the epoch and where the command starts.
fn zsh_extended(line: &[u8]) -> Option<(i64, usize)> {
    let rest = line.strip_prefix(b": ")?;
    let colon = rest.iter().position(|&b| b == b':')?;
    let epoch = std::str::from_utf8(&rest[..colon]).ok()?.trim();
    let epoch: i64 = epoch.parse().ok()?;
    let semicolon = rest[colon + 1..].iter().position(|&b| b == b';')?;
    let elapsed = &rest[colon + 1..colon + 1 + semicolon];
    if !elapsed.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some((epoch, 2 + colon + 1 + semicolon + 1))
}

/// Whether a physical zsh line continues on the next one: zsh writes a
/// newline inside a command as a backslash before it (atuin reads any
/// trailing backslash so, and so does portcullis; the backslash itself is
/// dropped when the lines are joined).
fn continues(line: &[u8]) -> bool {
    line.last() == Some(&b'\\')
}

fn read_zsh(reader: impl BufRead, mut each: impl FnMut(Record)) -> io::Result<()> {
    let mut pending: Option<(usize, Vec<u8>, Option<String>)> = None;
    fn emit(each: &mut dyn FnMut(Record), (start, bytes, time): (usize, Vec<u8>, Option<String>)) {
        match String::from_utf8(bytes) {
            Ok(text) if text.trim().is_empty() => {}
            Ok(text) => {
                let mut record = Record::new(start, Kind::Command(text));
                record.timestamp = time;
                each(record);
            }
            Err(_) => each(Record::new(
                start,
                Kind::Broken("is not valid UTF-8 after unmetafying".into()),
            )),
        }
    }
    for item in lines(reader) {
        let (number, raw) = item?;
        let bytes = unmetafy(&raw);
        if let Some((start, mut joined, time)) = pending.take() {
            // zsh writes a newline inside a command as a backslash before
            // it: that backslash is zsh's, not the command's.
            joined.pop();
            joined.push(b'\n');
            joined.extend_from_slice(&bytes);
            if continues(&bytes) {
                pending = Some((start, joined, time));
            } else {
                emit(&mut each, (start, joined, time));
            }
            continue;
        }
        let (time, command) = match zsh_extended(&bytes) {
            Some((epoch, at)) if (0..=LATEST_EPOCH).contains(&epoch) => {
                (Some(epoch.to_string()), bytes[at..].to_vec())
            }
            Some((epoch, at)) => {
                each(Record::new(
                    number,
                    Kind::Broken(format!("timestamp {epoch} is out of range")),
                ));
                (None, bytes[at..].to_vec())
            }
            None => (None, bytes),
        };
        if continues(&command) {
            pending = Some((number, command, time));
        } else {
            emit(&mut each, (number, command, time));
        }
    }
    if let Some(rest) = pending {
        emit(&mut each, rest);
    }
    Ok(())
}

/// fish's escapes in `cmd:`: `\\` is a backslash, `\n` a newline.
fn fish_unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('\\') => out.push('\\'),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn read_fish(reader: impl BufRead, mut each: impl FnMut(Record)) -> io::Result<()> {
    let mut entry: Option<Record> = None;
    let mut in_paths = false;
    for item in lines(reader) {
        let (number, bytes) = item?;
        let Some(text) = utf8(number, bytes, &mut each) else {
            continue;
        };
        if let Some(cmd) = text.strip_prefix("- cmd: ") {
            if let Some(done) = entry.take() {
                each(done);
            }
            entry = Some(Record::new(number, Kind::Command(fish_unescape(cmd))));
            in_paths = false;
            continue;
        }
        if let Some(when) = text.strip_prefix("  when: ")
            && let Some(current) = entry.as_mut()
        {
            match when.trim().parse::<i64>() {
                Ok(epoch) if (0..=LATEST_EPOCH).contains(&epoch) => {
                    current.timestamp = Some(epoch.to_string())
                }
                _ => each(Record::new(
                    number,
                    Kind::Broken(format!("timestamp {} is out of range", when.trim())),
                )),
            }
            in_paths = false;
            continue;
        }
        if text == "  paths:" && entry.is_some() {
            in_paths = true;
            continue;
        }
        if in_paths && text.starts_with("    - ") {
            continue;
        }
        if text.trim().is_empty() {
            continue;
        }
        // Anything else is a corrupted entry: reported, and it ends the
        // entry before it.
        if let Some(done) = entry.take() {
            each(done);
        }
        in_paths = false;
        each(Record::new(
            number,
            Kind::Broken("is not a fish history entry".into()),
        ));
    }
    if let Some(done) = entry.take() {
        each(done);
    }
    Ok(())
}

/// Edit tools whose path a transcript records.
const EDIT_TOOLS: &[&str] = &["Write", "Edit", "MultiEdit", "NotebookEdit"];

fn read_claude(reader: impl BufRead, mut each: impl FnMut(Record)) -> io::Result<()> {
    for item in lines(reader) {
        let (number, bytes) = item?;
        let Some(value) = json_line(number, bytes, &mut each) else {
            continue;
        };
        let stamp = |kind: Kind| Record {
            line: number,
            kind,
            timestamp: text_field(&value, &["timestamp"]),
            session: text_field(&value, &["sessionId"]),
            cwd: text_field(&value, &["cwd"]).map(PathBuf::from),
        };
        let content = value.pointer("/message/content");
        match value.get("type").and_then(Value::as_str) {
            Some("assistant") => {
                for block in content.and_then(Value::as_array).into_iter().flatten() {
                    if block.get("type").and_then(Value::as_str) != Some("tool_use") {
                        continue;
                    }
                    let name = block.get("name").and_then(Value::as_str).unwrap_or("");
                    let input = block.get("input");
                    if name == "Bash" {
                        match input.and_then(|i| i.get("command")).and_then(Value::as_str) {
                            Some(command) => each(stamp(Kind::Command(command.to_string()))),
                            None => each(stamp(Kind::Broken(
                                "a Bash tool call without a command".into(),
                            ))),
                        }
                    } else if EDIT_TOOLS.contains(&name) {
                        let path = input.and_then(|i| {
                            i.get("file_path")
                                .or_else(|| i.get("notebook_path"))
                                .and_then(Value::as_str)
                        });
                        match path {
                            Some(path) => each(stamp(Kind::Edit {
                                tool: name.to_string(),
                                path: path.to_string(),
                            })),
                            None => each(stamp(Kind::Broken(format!(
                                "a {name} tool call without a path"
                            )))),
                        }
                    }
                }
            }
            Some("user") => {
                let typed = match content {
                    Some(Value::String(s)) => Some(s.as_str()),
                    Some(Value::Array(items)) => items
                        .iter()
                        .find_map(|i| i.get("text").and_then(Value::as_str))
                        .filter(|t| t.contains("<bash-input>")),
                    _ => None,
                };
                if let Some(input) = typed.and_then(|t| {
                    let start = t.find("<bash-input>")? + "<bash-input>".len();
                    let end = t[start..].find("</bash-input>")? + start;
                    Some(&t[start..end])
                }) {
                    each(stamp(Kind::Typed(input.to_string())));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(format: Format, text: &[u8]) -> Vec<Record> {
        let mut out = Vec::new();
        read(format, text, |r| out.push(r)).unwrap();
        out
    }

    fn commands(records: &[Record]) -> Vec<String> {
        records
            .iter()
            .filter_map(|r| match &r.kind {
                Kind::Command(c) => Some(c.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn bash_with_timestamps() {
        let r = records(
            Format::Bash,
            b"#1672918999\ngit reset\n#1672919006\ngit clean -dxf\n#-377705116800\ncd ../\n\xff\n",
        );
        assert_eq!(commands(&r), vec!["git reset", "git clean -dxf", "cd ../"]);
        assert_eq!(r[0].timestamp.as_deref(), Some("1672918999"));
        assert!(matches!(&r[2].kind, Kind::Broken(why) if why.contains("out of range")));
        assert_eq!(r[2].line, 5);
        assert_eq!(r[3].timestamp, None);
        assert!(matches!(r.last().map(|r| &r.kind), Some(Kind::Broken(_))));
    }

    #[test]
    fn zsh_extended_continuations_and_metafied_bytes() {
        let r = records(Format::Zsh, b": 1613322469:0;cargo install atuin\n: 1613322469:10;cargo install atuin; \\\\\ncargo update\n");
        assert_eq!(
            commands(&r),
            vec![
                "cargo install atuin",
                "cargo install atuin; \\\ncargo update"
            ]
        );
        // `\x83` + (byte ^ 32): "é" is C3 A9; A9 ^ 32 = 89.
        let r = records(Format::Zsh, b"echo caf\xc3\x83\x89\n");
        assert_eq!(commands(&r), vec!["echo café"]);
        let r = records(Format::Zsh, b": -377705116800:0;cargo update\n");
        assert_eq!(commands(&r), vec!["cargo update"]);
        assert!(matches!(&r[0].kind, Kind::Broken(_)));
    }

    #[test]
    fn fish_entries() {
        let text = b"- cmd: history --help\n  when: 1639162832\n- cmd: cat ~/.bash_history\n  when: 1639162851\n  paths:\n    - ~/.bash_history\nERROR\n- CORRUPTED: ENTRY\n- cmd: echo \"foo\" \\\\\\n'bar'\n  when: 999999999999999\n";
        let r = records(Format::Fish, text);
        assert_eq!(
            commands(&r),
            vec![
                "history --help",
                "cat ~/.bash_history",
                "echo \"foo\" \\\n'bar'"
            ]
        );
        let broken = r
            .iter()
            .filter(|r| matches!(r.kind, Kind::Broken(_)))
            .count();
        assert_eq!(broken, 3, "{r:?}");
    }

    #[test]
    fn jsonl_and_sessions() {
        let r = records(Format::Jsonl, b"\"ls\"\n{\"session\":\"s1\",\"step\":3,\"cmd\":\"git status\"}\n{\"command\":\"pwd\",\"cwd\":\"/p\"}\n{broken\n[1]\n");
        assert_eq!(commands(&r), vec!["ls", "git status", "pwd"]);
        assert_eq!(r[1].session.as_deref(), Some("s1"));
        assert_eq!(r[2].cwd.as_deref(), Some(Path::new("/p")));
        assert_eq!(
            r.iter()
                .filter(|r| matches!(r.kind, Kind::Broken(_)))
                .count(),
            2
        );
    }

    /// Objects read field by field give what the whole object gave: a
    /// `null` or non-text command is broken even beside a `cmd`, the first
    /// text-or-number session key wins, and a line that is not UTF-8
    /// anywhere is broken.
    #[test]
    fn jsonl_fields_as_in_the_whole_object() {
        let r = records(
            Format::Jsonl,
            b"{\"command\":null,\"cmd\":\"ls\"}\n{\"cmd\":\"ls\",\"session\":true,\"sessionId\":7,\"time\":1.5}\n{\"cmd\":\"pwd\",\"step\":\"\xff\"}\n{\"command\":[\"ls\"]}\n{\"cmd\":\"a\",\"cmd\":\"b\"}\n",
        );
        assert!(matches!(r[0].kind, Kind::Broken(_)), "{:?}", r[0].kind);
        assert_eq!(r[1].kind, Kind::Command("ls".into()));
        assert_eq!(r[1].session.as_deref(), Some("7"));
        assert_eq!(r[1].timestamp.as_deref(), Some("1.5"));
        assert_eq!(r[2].kind, Kind::Broken("is not valid UTF-8".into()));
        assert!(matches!(r[3].kind, Kind::Broken(_)));
        // A repeated key: the whole object keeps the last.
        assert_eq!(r[4].kind, Kind::Command("b".into()));
    }

    #[test]
    fn claude_transcript() {
        let text = br#"{"type":"assistant","sessionId":"abc","cwd":"/home/u/p","timestamp":"2025-01-01T00:00:00Z","message":{"content":[{"type":"text","text":"hi"},{"type":"tool_use","name":"Bash","input":{"command":"git status"}},{"type":"tool_use","name":"Write","input":{"file_path":"/home/u/p/.env","content":"x"}}]}}
{"type":"user","sessionId":"abc","message":{"content":"<bash-input>rm -rf build</bash-input>"}}
{"type":"summary","summary":"x"}
{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{}}]}}
{not json
"#;
        let r = records(Format::Claude, text);
        assert_eq!(r[0].kind, Kind::Command("git status".into()));
        assert_eq!(r[0].session.as_deref(), Some("abc"));
        assert_eq!(r[0].cwd.as_deref(), Some(Path::new("/home/u/p")));
        assert_eq!(
            r[1].kind,
            Kind::Edit {
                tool: "Write".into(),
                path: "/home/u/p/.env".into()
            }
        );
        assert_eq!(r[2].kind, Kind::Typed("rm -rf build".into()));
        assert!(matches!(r[3].kind, Kind::Broken(_)));
        assert!(matches!(r[4].kind, Kind::Broken(_)));
        assert_eq!(r.len(), 5);
    }

    #[test]
    fn detection() {
        assert_eq!(
            detect(Some(Path::new("/h/.zsh_history")), b"ls\n"),
            Format::Zsh
        );
        assert_eq!(detect(None, b": 1613322469:0;ls\n"), Format::Zsh);
        assert_eq!(detect(None, b"- cmd: ls\n  when: 1\n"), Format::Fish);
        assert_eq!(detect(None, b"#1672918999\nls\n"), Format::Bash);
        assert_eq!(
            detect(None, b"{\"type\":\"assistant\",\"sessionId\":\"x\"}\n"),
            Format::Claude
        );
        assert_eq!(
            detect(None, b"{\"session\":\"s\",\"step\":1,\"cmd\":\"ls\"}\n"),
            Format::Jsonl
        );
        assert_eq!(detect(None, b"\"ls\"\n"), Format::Jsonl);
        assert_eq!(detect(None, b"ls -la\n"), Format::Lines);
        assert_eq!(Format::named("sessions"), Some(Format::Jsonl));
    }
}
