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
        Some(end) => &head[..end],
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
        let take = buf.len().min(DETECT_BYTES - head.len());
        head.extend_from_slice(&buf[..take]);
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

/// Texts salvaged from one line, at most.
const MAX_SALVAGE: usize = 8;
/// Bytes of one salvaged text, at most.
const MAX_SALVAGE_BYTES: usize = 64 * 1024;

/// `words` as one shell command line that runs exactly that argv: each
/// word kept as it is when it holds only characters the shell reads
/// literally, otherwise single-quoted (`rm -rf ~` as one word is
/// `'rm -rf ~'`, so `bash -lc 'rm -rf ~'` is what the argv runs).
pub fn shell_join(words: &[String]) -> String {
    let mut out = String::new();
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let plain = !word.is_empty()
            && word
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_@%+=:,./-".contains(&b));
        if plain {
            out.push_str(word);
        } else {
            out.push('\'');
            out.push_str(&word.replace('\'', "'\\''"));
            out.push('\'');
        }
    }
    out
}

/// A JSON value given as a command: text as it is, an argv array (of text
/// or numbers) joined with shell quoting; `Err` with what it is otherwise.
fn command_text(value: &Value) -> Result<String, &'static str> {
    match value {
        Value::String(text) => Ok(text.clone()),
        Value::Array(items) => {
            let words: Option<Vec<String>> = items
                .iter()
                .map(|item| match item {
                    Value::String(s) => Some(s.clone()),
                    Value::Number(n) => Some(n.to_string()),
                    _ => None,
                })
                .collect();
            match words {
                Some(words) if !words.is_empty() => Ok(shell_join(&words)),
                Some(_) => Err("an empty argv array"),
                None => Err("an argv array with a word that is not text"),
            }
        }
        Value::Null => Err("null"),
        Value::Bool(_) => Err("true or false"),
        Value::Number(_) => Err("a number"),
        Value::Object(_) => Err("an object"),
    }
}

/// Every text in a JSON value (argv arrays joined), depth first, at most
/// [`MAX_SALVAGE`], each clipped: what an unexpected shape may hold.
fn texts_in(value: &Value, depth: usize, out: &mut Vec<String>) {
    if out.len() >= MAX_SALVAGE || depth > 16 {
        return;
    }
    match value {
        Value::String(text) if !text.trim().is_empty() => {
            out.push(crate::limits::clip(text, MAX_SALVAGE_BYTES).to_string())
        }
        Value::Array(items) if items.iter().all(Value::is_string) && !items.is_empty() => {
            if let Ok(text) = command_text(value) {
                out.push(crate::limits::clip(&text, MAX_SALVAGE_BYTES).to_string());
            }
        }
        Value::Array(items) => items.iter().for_each(|v| texts_in(v, depth + 1, out)),
        Value::Object(map) => map.values().for_each(|v| texts_in(v, depth + 1, out)),
        _ => {}
    }
}

/// A string literal read leniently from text that may be broken JSON: the
/// key it is the value of (if any), its text (escapes decoded; cut short
/// at the end of the line when unterminated), and whether it is a word of
/// an array.
struct Literal {
    key: Option<String>,
    text: String,
    in_array: bool,
}

/// The string literals of a line that is not JSON, in order (at most 256):
/// what a broken JSON line still says.
fn literals(line: &str) -> Vec<Literal> {
    /// An open container: an object with the key being read, or an array
    /// with the key it is the value of.
    enum Frame {
        Object(Option<String>),
        Array(Option<String>),
    }
    let mut out = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut chars = line.chars().peekable();
    // The last character outside strings that is not blank.
    let mut last = ' ';
    while let Some(c) = chars.next() {
        if out.len() >= 256 || stack.len() > 64 {
            break;
        }
        if c.is_whitespace() {
            continue;
        }
        if c != '"' {
            match c {
                '{' => stack.push(Frame::Object(None)),
                '[' => {
                    let key = match stack.last() {
                        Some(Frame::Object(key)) if last == ':' => key.clone(),
                        _ => None,
                    };
                    stack.push(Frame::Array(key));
                }
                '}' | ']' => {
                    stack.pop();
                }
                ',' => {
                    if let Some(Frame::Object(key)) = stack.last_mut() {
                        *key = None;
                    }
                }
                _ => {}
            }
            last = c;
            continue;
        }
        let mut text = String::new();
        while let Some(c) = chars.next() {
            match c {
                '"' => break,
                '\\' => match chars.next() {
                    Some('n') => text.push('\n'),
                    Some('t') => text.push('\t'),
                    Some('r') => text.push('\r'),
                    Some('b') => text.push('\u{8}'),
                    Some('f') => text.push('\u{c}'),
                    Some('u') => {
                        let hex: String = chars.by_ref().take(4).collect();
                        if let Some(c) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32)
                        {
                            text.push(c);
                        }
                    }
                    Some(other) => text.push(other),
                    None => {}
                },
                other => text.push(other),
            }
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let in_object = !matches!(stack.last(), Some(Frame::Array(_)));
        if in_object && chars.peek() == Some(&':') {
            chars.next();
            if let Some(Frame::Object(key)) = stack.last_mut() {
                *key = Some(text);
            }
            last = ':';
            continue;
        }
        let (key, in_array) = match stack.last() {
            Some(Frame::Object(key)) => (key.clone(), false),
            Some(Frame::Array(key)) => (key.clone(), true),
            None => (None, false),
        };
        out.push(Literal {
            key,
            text,
            in_array,
        });
        last = '"';
    }
    out
}

/// How a line that could not be read is read for what it may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reading {
    /// A shell history: the line is a command.
    Text,
    /// JSONL: its command keys, else any text in it, else the line.
    Jsonl,
    /// A transcript: its command keys only (its other texts are ids,
    /// times and prose).
    Transcript,
}

/// What a line that is not JSON may hold as commands: the values of its
/// command keys (`command`, `cmd`, `argv`; arrays joined as argv), or, with
/// none and for JSONL, each of its text values, or the line itself; at
/// most [`MAX_SALVAGE`].
fn salvage_json(line: &str, reading: Reading) -> Vec<String> {
    let found = literals(line);
    let mut out: Vec<String> = Vec::new();
    let mut argv: Option<(String, Vec<String>)> = None;
    for literal in found
        .iter()
        .filter(|l| l.key.as_deref().is_some_and(|k| COMMAND_KEYS.contains(&k)))
    {
        let key = literal.key.clone().unwrap_or_default();
        if literal.in_array {
            match &mut argv {
                Some((k, words)) if *k == key => words.push(literal.text.clone()),
                _ => {
                    if let Some((_, words)) = argv.take() {
                        out.push(shell_join(&words));
                    }
                    argv = Some((key, vec![literal.text.clone()]));
                }
            }
        } else {
            if let Some((_, words)) = argv.take() {
                out.push(shell_join(&words));
            }
            out.push(literal.text.clone());
        }
    }
    if let Some((_, words)) = argv.take() {
        out.push(shell_join(&words));
    }
    if out.is_empty() && reading == Reading::Jsonl {
        out = found.into_iter().map(|l| l.text).collect();
    }
    // No text in it at all (`rm -rf ~` where JSON was expected): the line
    // itself is the best reading.
    if out.is_empty() && reading == Reading::Jsonl && !line.trim().is_empty() {
        out.push(line.trim().to_string());
    }
    out.retain(|t| !t.trim().is_empty());
    out.truncate(MAX_SALVAGE);
    for text in &mut out {
        if text.len() > MAX_SALVAGE_BYTES {
            *text = crate::limits::clip(text, MAX_SALVAGE_BYTES).to_string();
        }
    }
    out
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

/// What a line that could not be read may hold as commands: its text, or
/// what its JSON says.
fn lossy_salvage(text: &str, reading: Reading) -> Vec<String> {
    if reading != Reading::Text {
        salvage_json(text, reading)
    } else if text.trim().is_empty() {
        Vec::new()
    } else {
        vec![crate::limits::clip(text, MAX_SALVAGE_BYTES).to_string()]
    }
}

/// `#1672918999`: a bash timestamp line, with its value.
fn bash_timestamp(line: &str) -> Option<i64> {
    let digits = line.strip_prefix('#')?;
    let body = digits.strip_prefix('-').unwrap_or(digits);
    (!body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().unwrap_or(i64::MAX))
}

/// One command a line.
fn read_lines(reader: impl BufRead, mut each: impl FnMut(Record)) -> io::Result<()> {
    for item in lines(reader) {
        let (number, bytes) = item?;
        let Some(text) = utf8(number, bytes, Reading::Text, &mut each) else {
            continue;
        };
        if !text.trim().is_empty() {
            each(Record::new(number, Kind::Command(text)));
        }
    }
    Ok(())
}

/// A bash history entry being read: its first line, its text, its time,
/// and whether a line of it was not UTF-8.
struct BashEntry {
    start: usize,
    text: String,
    time: Option<String>,
    lossy: bool,
}

impl BashEntry {
    /// The entry's record: a command, or (with a line that was not UTF-8)
    /// a broken record holding the lossy reading; `None` when blank.
    fn record(self) -> Option<Record> {
        let text = self.text.trim_end_matches(['\n', ' ', '\t']).to_string();
        if text.trim().is_empty() {
            return None;
        }
        let mut record = if self.lossy {
            Record::unjudged(
                self.start,
                "holds a line that is not valid UTF-8".into(),
                lossy_salvage(&text, Reading::Text),
            )
        } else {
            Record::new(self.start, Kind::Command(text))
        };
        record.timestamp = self.time;
        Some(record)
    }
}

/// bash history. Once a `#<epoch>` line has been seen, bash writes one
/// before every entry, so an entry spans every line up to the next one:
/// a multi-line command (`lithist`, a heredoc, a quoted newline) is kept
/// whole. Lines before the first timestamp, or in a history without any,
/// are one command each (nothing marks where a multi-line entry ends).
fn read_bash(reader: impl BufRead, mut each: impl FnMut(Record)) -> io::Result<()> {
    let mut stamped = false;
    let mut time: Option<String> = None;
    let mut entry: Option<BashEntry> = None;
    for item in lines(reader) {
        let (number, bytes) = item?;
        let (text, lossy) = match String::from_utf8(bytes) {
            Ok(text) => (text, false),
            Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
        };
        if let Some(epoch) = bash_timestamp(&text) {
            if let Some(done) = entry.take().and_then(BashEntry::record) {
                each(done);
            }
            stamped = true;
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
        if !stamped {
            let single = BashEntry {
                start: number,
                text,
                time: None,
                lossy,
            };
            if let Some(record) = single.record() {
                each(record);
            }
            continue;
        }
        match &mut entry {
            Some(open) => {
                open.text.push('\n');
                open.text.push_str(&text);
                open.lossy |= lossy;
            }
            None if text.trim().is_empty() => {}
            None => {
                entry = Some(BashEntry {
                    start: number,
                    text,
                    time: time.take(),
                    lossy,
                })
            }
        }
    }
    if let Some(done) = entry.take().and_then(BashEntry::record) {
        each(done);
    }
    Ok(())
}

/// One JSON line as a JSON value; `None` for a blank line, or (with a
/// broken record given to `each`) for one that is not UTF-8 or not JSON.
fn json_line(
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
fn read_jsonl(reader: impl BufRead, mut each: impl FnMut(Record)) -> io::Result<()> {
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
            Err(e) => {
                let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
                each(Record::unjudged(
                    start,
                    "is not valid UTF-8 after unmetafying".into(),
                    lossy_salvage(&lossy, Reading::Text),
                ))
            }
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
        let Some(text) = utf8(number, bytes, Reading::Text, &mut each) else {
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
        each(Record::unjudged(
            number,
            "is not a fish history entry".into(),
            lossy_salvage(&text, Reading::Text),
        ));
    }
    if let Some(done) = entry.take() {
        each(done);
    }
    Ok(())
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
fn read_claude(reader: impl BufRead, mut each: impl FnMut(Record)) -> io::Result<()> {
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
        assert_eq!(commands(&r), vec!["git reset", "git clean -dxf"]);
        assert_eq!(r[0].timestamp.as_deref(), Some("1672918999"));
        assert!(matches!(&r[2].kind, Kind::Broken(why) if why.contains("out of range")));
        assert_eq!(r[2].line, 5);
        assert_eq!(r[2].salvage, None);
        // `cd ../` and the line that is not UTF-8 are one entry: unreadable,
        // read lossily for what it may hold.
        assert_eq!(r[3].timestamp, None);
        assert_eq!(r[3].line, 6);
        assert!(matches!(r[3].kind, Kind::Broken(_)));
        assert_eq!(r[3].salvage, Some(vec!["cd ../\n\u{fffd}".to_string()]));
        assert_eq!(r.len(), 4);
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

    /// Objects read field by field: a `null` command beside a `cmd` is no
    /// command, an argv array is joined with shell quoting, the first
    /// text-or-number session key wins, a line that is not UTF-8 anywhere
    /// is broken, and a repeated key is judged each time.
    #[test]
    fn jsonl_fields() {
        let r = records(
            Format::Jsonl,
            b"{\"command\":null,\"cmd\":\"ls\"}\n{\"cmd\":\"ls\",\"session\":true,\"sessionId\":7,\"time\":1.5}\n{\"cmd\":\"pwd\",\"step\":\"\xff\"}\n{\"command\":[\"ls\"]}\n{\"cmd\":\"a\",\"cmd\":\"b\"}\n",
        );
        assert_eq!(r[0].kind, Kind::Command("ls".into()));
        assert_eq!(r[1].kind, Kind::Command("ls".into()));
        assert_eq!(r[1].session.as_deref(), Some("7"));
        assert_eq!(r[1].timestamp.as_deref(), Some("1.5"));
        assert_eq!(r[2].kind, Kind::Broken("is not valid UTF-8".into()));
        assert!(r[2].salvage.is_some());
        assert_eq!(r[3].kind, Kind::Command("ls".into()));
        assert_eq!(r[4].kind, Kind::Command("a".into()));
        assert_eq!(r[5].kind, Kind::Command("b".into()));
        assert_eq!(r.len(), 6);
        let r = records(
            Format::Jsonl,
            br#"{"command":null}
{"argv":["bash","-lc","rm -rf ~"],"step":1}
{"command":["rm","-rf","it's here"]}
{"command":{"x":1}}
{"command":"rm -rf ~
{"shell":"rm -rf ~","session":"s"}
[1]
"#,
        );
        assert!(matches!(r[0].kind, Kind::Broken(_)) && r[0].salvage.is_none());
        assert_eq!(r[1].kind, Kind::Command("bash -lc 'rm -rf ~'".into()));
        assert_eq!(r[2].kind, Kind::Command("rm -rf 'it'\\''s here'".into()));
        assert!(matches!(r[3].kind, Kind::Broken(_)) && r[3].salvage == Some(vec![]));
        assert_eq!(r[4].salvage, Some(vec!["rm -rf ~".to_string()]));
        assert_eq!(r[5].salvage, Some(vec!["rm -rf ~".to_string()]));
        assert!(matches!(r[6].kind, Kind::Broken(_)) && r[6].salvage.is_none());
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
    fn bash_multi_line_entries_are_kept_whole() {
        let r = records(
            Format::Bash,
            b"ls\npwd\n#1700000000\ncat <<EOF > notes.md\nrm -rf ~\n\nEOF\n#1700000001\necho \"a\nb\"\n#1700000002\ngit status\n\n",
        );
        assert_eq!(
            commands(&r),
            vec![
                "ls",
                "pwd",
                "cat <<EOF > notes.md\nrm -rf ~\n\nEOF",
                "echo \"a\nb\"",
                "git status"
            ]
        );
        assert_eq!(r[2].line, 4);
        assert_eq!(r[2].timestamp.as_deref(), Some("1700000000"));
        assert_eq!(r[4].timestamp.as_deref(), Some("1700000002"));
        // A line that is not UTF-8 makes its whole entry unreadable, read
        // lossily for what it may hold.
        let r = records(Format::Bash, b"#1700000000\nrm -rf ~ \xff\necho\n");
        assert!(matches!(r[0].kind, Kind::Broken(_)));
        assert_eq!(
            r[0].salvage,
            Some(vec!["rm -rf ~ \u{fffd}\necho".to_string()])
        );
    }

    #[test]
    fn claude_sub_agents_reads_and_searches() {
        let text = br#"{"type":"progress","sessionId":"s","data":{"type":"agent_progress","agentId":"a","message":{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{"command":"rm -rf ~"}}]}}}}
{"type":"assistant","isSidechain":true,"message":{"content":[{"type":"tool_use","name":"Read","input":{"file_path":"/p/.env"}},{"type":"tool_use","name":"Grep","input":{"pattern":"x","glob":"*.pem"}},{"type":"tool_use","name":"Glob","input":{"pattern":"*"}}]}}
{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Grep","input":{"path":7}}]}}
{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{"command":"git st
{"type":"summary","summary":"cut sh
"#;
        let r = records(Format::Claude, text);
        assert_eq!(r[0].kind, Kind::Command("rm -rf ~".into()));
        assert_eq!(r[0].session.as_deref(), Some("s"));
        assert_eq!(
            r[1].kind,
            Kind::Edit {
                tool: "Read".into(),
                path: "/p/.env".into()
            }
        );
        assert_eq!(
            r[2].kind,
            Kind::Search {
                tool: "Grep".into(),
                path: None,
                glob: Some("*.pem".into())
            }
        );
        assert!(matches!(r[3].kind, Kind::Broken(_)) && r[3].salvage.is_some());
        assert_eq!(r[4].salvage, Some(vec!["git st".to_string()]));
        assert!(matches!(r[5].kind, Kind::Broken(_)) && r[5].salvage.is_none());
        assert_eq!(r.len(), 6);
    }

    #[test]
    fn detection_looks_past_a_long_head() {
        let mut head = String::new();
        for i in 0..500 {
            head.push_str(&format!("{{\"type\":\"summary\",\"summary\":\"s{i}\"}}\n"));
        }
        head.push_str("{\"type\":\"assistant\",\"message\":{\"content\":[]}}\n");
        assert_eq!(detect(None, head.as_bytes()), Format::Claude);
        let mut head = String::new();
        for i in 0..500 {
            head.push_str(&format!("echo {i}\n"));
        }
        head.push_str("#1700000000\nls\n");
        assert_eq!(detect(None, head.as_bytes()), Format::Bash);
        // Past the bound nothing decides: the first line's guess holds.
        let mut head = String::new();
        for i in 0..DETECT_LINES {
            head.push_str(&format!("echo {i}\n"));
        }
        head.push_str("#1700000000\nls\n");
        assert_eq!(detect(None, head.as_bytes()), Format::Lines);
        // A JSONL object with a command decides even beside `sessionId`.
        assert_eq!(
            detect(None, b"{\"sessionId\":\"x\",\"command\":\"ls\"}\n"),
            Format::Jsonl
        );
        // A shell group is not JSON.
        assert_eq!(detect(None, b"{ ls; }\n#1700000000\nls\n"), Format::Bash);
    }

    #[test]
    fn open_keeps_every_byte_of_a_long_head() {
        let mut text = String::new();
        for i in 0..3000 {
            text.push_str(&format!(
                "{{\"type\":\"summary\",\"summary\":\"{}\"}}\n",
                "x".repeat(i % 700)
            ));
        }
        text.push_str("{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"name\":\"Bash\",\"input\":{\"command\":\"ls\"}}]}}\n");
        let reader = io::BufReader::new(io::Cursor::new(text.clone().into_bytes()));
        let (format, mut reader) = open(None, reader, None).unwrap();
        assert_eq!(format, Format::Claude);
        let mut back = String::new();
        io::Read::read_to_string(&mut reader, &mut back).unwrap();
        assert_eq!(back, text);
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
