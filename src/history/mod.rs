//! Recorded command history, read as a stream of [`Record`]s for replay:
//! plain lines, JSONL (strings, `{"command"}` / `{"cmd"}` / `{"argv"}` as
//! text or argv arrays, and the `{"session","step","cmd"}` session files),
//! bash history with `#<epoch>` lines (a multi-line entry kept whole),
//! zsh extended history (continuations joined, metafied bytes decoded),
//! fish history, and Claude Code transcripts (every tool call, in the main
//! conversation, in sidechains and in sub-agents' `progress` entries:
//! `Bash` commands, edit-tool and `Read` paths, `Grep` searches, and
//! `<bash-input>` lines the person typed).
//!
//! Takes bytes from a reader; calls back with one record at a time, so
//! memory does not grow with the input. A line that cannot be read (bad
//! UTF-8, broken JSON, a timestamp out of range) is a [`Kind::Broken`]
//! record with its line number: never a panic, never a silent skip. When
//! such a line may hold a command, the record's [`Record::salvage`] says so
//! and carries what could be read of it.
//!
//! This file holds the formats and their detection ([`Format`], [`detect`],
//! [`open`]), the records ([`Record`], [`Kind`]) and [`read`], which hands a
//! format to its reader: `shells` (plain lines, bash, zsh, fish), `jsonl`,
//! `claude`; `salvage` reads JSON command texts and broken lines.
#![deny(clippy::indexing_slicing)]

mod claude;
mod jsonl;
mod salvage;
mod shells;
#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests;

use self::claude::read_claude;
use self::jsonl::read_jsonl;
use self::salvage::{Reading, lossy_salvage};
use self::shells::{bash_timestamp, read_bash, read_fish, read_lines, read_zsh, zsh_extended};
pub use salvage::shell_join;
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

/// Bytes of a history's head read to detect its format, at most: far
/// above any real head (a Claude Code transcript opens with a few
/// `summary` lines; a bash history with a few commands written before
/// `HISTTIMEFORMAT` was set).
pub const DETECT_BYTES: usize = 1 << 20;
/// Lines of a history's head read to detect its format, at most.
pub const DETECT_LINES: usize = 1_000;

/// What one line of a head says about its history's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hint {
    /// Only this format writes such a line.
    Decides(Format),
    /// This format is likely, but a later line may decide otherwise.
    Leans(Format),
    /// Nothing (a blank line, a plain command).
    Nothing,
}

/// Keys only a Claude Code transcript entry has at its top level.
const CLAUDE_KEYS: &[&str] = &["sessionId", "parentUuid", "isSidechain", "leafUuid"];

/// Keys that hold a command in a JSONL history.
const COMMAND_KEYS: &[&str] = &["command", "cmd", "argv"];

/// What one line (without its newline) says about the format.
fn hint(line: &str) -> Hint {
    let line = line.trim();
    if line.is_empty() {
        return Hint::Nothing;
    }
    if bash_timestamp(line).is_some() {
        return Hint::Decides(Format::Bash);
    }
    if line.starts_with(": ") && zsh_extended(line.as_bytes()).is_some() {
        return Hint::Decides(Format::Zsh);
    }
    if line.starts_with("- cmd: ") {
        return Hint::Decides(Format::Fish);
    }
    if !line.starts_with(['{', '"', '[']) {
        return Hint::Nothing;
    }
    match serde_json::from_str::<Value>(line) {
        Ok(Value::String(_)) => Hint::Decides(Format::Jsonl),
        Ok(Value::Object(map)) => {
            if COMMAND_KEYS.iter().any(|k| map.contains_key(*k)) {
                Hint::Decides(Format::Jsonl)
            } else if CLAUDE_KEYS.iter().any(|k| map.contains_key(*k))
                || map.contains_key("message") && map.get("type").is_some_and(Value::is_string)
            {
                Hint::Decides(Format::Claude)
            } else if map.get("type").is_some_and(Value::is_string) {
                // `{"type":"summary",…}`, `{"type":"file-history-snapshot",…}`.
                Hint::Leans(Format::Claude)
            } else {
                Hint::Leans(Format::Jsonl)
            }
        }
        Ok(_) => Hint::Leans(Format::Jsonl),
        // `{ cmd; }` in a shell history, or a line cut short.
        Err(_) => Hint::Nothing,
    }
}

/// Guesses the format from the file's name and its head (the caller reads
/// at most [`DETECT_BYTES`]; see [`open`]). The first line that decides
/// wins, within [`DETECT_LINES`] lines: a bash `#<epoch>` line, a zsh
/// `: <epoch>:<n>;` line, a fish `- cmd:` line, a JSON string or object
/// with a command (JSONL), or a JSON object only a Claude Code transcript
/// writes (`sessionId`, `parentUuid`, a `message`). Lines that decide
/// nothing (blank lines, plain commands, `summary` entries) are looked
/// past. When no line decides within the bounds: a transcript's entries
/// seen (`{"type":…}`) make it Claude, other JSON makes it JSONL, a first
/// line opening with `{` or `"` makes it JSONL, a `bash_history` name
/// makes it bash, and anything else is one command a line. `--format`
/// forces a format.
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
    let mut lean: Option<Format> = None;
    for line in text.lines().take(DETECT_LINES) {
        match hint(line) {
            Hint::Decides(format) => return format,
            Hint::Leans(Format::Claude) => lean = Some(Format::Claude),
            Hint::Leans(format) => lean = lean.or(Some(format)),
            Hint::Nothing => {}
        }
    }
    if let Some(format) = lean {
        return format;
    }
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if first.starts_with(['{', '"']) {
        return Format::Jsonl;
    }
    if name.contains("bash_history") {
        return Format::Bash;
    }
    Format::Lines
}

/// Whether `head` already holds a line that decides the format, or as many
/// lines as detection reads: reading more would change nothing.
fn head_is_enough(head: &[u8]) -> bool {
    let complete = match head.iter().rposition(|&b| b == b'\n') {
        Some(end) => head.get(..end).unwrap_or(head),
        None => return false,
    };
    let text = String::from_utf8_lossy(complete);
    let mut lines = 0;
    for line in text.lines() {
        lines += 1;
        if lines >= DETECT_LINES || matches!(hint(line), Hint::Decides(_)) {
            return true;
        }
    }
    false
}

/// A history opened for reading: its format (`forced`, or detected from
/// `path` and a head of at most [`DETECT_BYTES`] read from `reader`) and a
/// reader that yields every byte, the head included.
pub fn open<R: BufRead + Send + 'static>(
    path: Option<&Path>,
    mut reader: R,
    forced: Option<Format>,
) -> io::Result<(Format, Box<dyn BufRead + Send>)> {
    if let Some(format) = forced {
        return Ok((format, Box::new(reader)));
    }
    let mut head: Vec<u8> = Vec::new();
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let chunk = buf.get(..DETECT_BYTES - head.len()).unwrap_or(buf);
        let take = chunk.len();
        head.extend_from_slice(chunk);
        reader.consume(take);
        if head.len() >= DETECT_BYTES || head_is_enough(&head) {
            break;
        }
    }
    let format = detect(path, &head);
    Ok((
        format,
        Box::new(io::Read::chain(io::Cursor::new(head), reader)),
    ))
}

/// What one record holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A shell command to judge.
    Command(String),
    /// A file tool's request on a path: `Write`, `Edit`, `MultiEdit` and
    /// `NotebookEdit` write it, `Read` reads it.
    Edit {
        /// The tool.
        tool: String,
        /// The path it names.
        path: String,
    },
    /// A search tool's request (`Grep`): a folder or file, and the glob
    /// limiting the files searched.
    Search {
        /// The tool.
        tool: String,
        /// The path searched (`None`: the working folder).
        path: Option<String>,
        /// The glob (`glob`, or OpenCode's `include`).
        glob: Option<String>,
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
    /// For a [`Kind::Broken`] line that may hold a command: the texts read
    /// from it that may be commands (a best-effort reading, possibly none).
    /// `None` when the line can hold no command (a timestamp out of range,
    /// JSON without any text).
    pub salvage: Option<Vec<String>>,
}

impl Record {
    fn new(line: usize, kind: Kind) -> Record {
        Record {
            line,
            kind,
            timestamp: None,
            session: None,
            cwd: None,
            salvage: None,
        }
    }

    /// A broken line that may hold the commands in `salvage`.
    fn unjudged(line: usize, why: String, salvage: Vec<String>) -> Record {
        Record {
            salvage: Some(salvage),
            ..Record::new(line, Kind::Broken(why))
        }
    }
}

/// Epoch seconds a history may plausibly hold: 1970 to 2200.
const LATEST_EPOCH: i64 = 7_258_118_400;

/// Reads `reader` as `format`, calling `each` for every record in order.
pub fn read(format: Format, reader: impl BufRead, each: impl FnMut(Record)) -> io::Result<()> {
    match format {
        Format::Lines => read_lines(reader, each),
        Format::Bash => read_bash(reader, each),
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
/// is not UTF-8. The broken record may hold commands: what a lossy reading
/// of the line gives (its text, or for `json` its JSON texts).
fn utf8(
    line: usize,
    bytes: Vec<u8>,
    reading: Reading,
    each: &mut impl FnMut(Record),
) -> Option<String> {
    match String::from_utf8(bytes) {
        Ok(text) => Some(text),
        Err(e) => {
            let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
            each(Record::unjudged(
                line,
                "is not valid UTF-8".into(),
                lossy_salvage(&lossy, reading),
            ));
            None
        }
    }
}
