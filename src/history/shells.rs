//! Shell histories: plain lines (one command a line), bash (`#<epoch>`
//! lines, a multi-line entry kept whole), zsh extended history
//! (`: <epoch>:<secs>;` lines, continuations joined, metafied bytes
//! decoded) and fish (`- cmd:` entries, escapes decoded). Each reader takes
//! bytes and calls back with one [`Record`] at a time.

use super::salvage::{Reading, lossy_salvage};
use super::{Kind, LATEST_EPOCH, Record, lines, utf8};
use std::io::{self, BufRead};

/// `#1672918999`: a bash timestamp line, with its value.
pub(super) fn bash_timestamp(line: &str) -> Option<i64> {
    let digits = line.strip_prefix('#')?;
    let body = digits.strip_prefix('-').unwrap_or(digits);
    (!body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().unwrap_or(i64::MAX))
}

/// One command a line.
pub(super) fn read_lines(reader: impl BufRead, mut each: impl FnMut(Record)) -> io::Result<()> {
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
pub(super) fn read_bash(reader: impl BufRead, mut each: impl FnMut(Record)) -> io::Result<()> {
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
pub(super) fn zsh_extended(line: &[u8]) -> Option<(i64, usize)> {
    let rest = line.strip_prefix(b": ")?;
    let colon = rest.iter().position(|&b| b == b':')?;
    let epoch = std::str::from_utf8(rest.get(..colon)?).ok()?.trim();
    let epoch: i64 = epoch.parse().ok()?;
    let after = rest.get(colon + 1..)?;
    let semicolon = after.iter().position(|&b| b == b';')?;
    let elapsed = after.get(..semicolon)?;
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

pub(super) fn read_zsh(reader: impl BufRead, mut each: impl FnMut(Record)) -> io::Result<()> {
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
            Some((epoch, at)) if (0..=LATEST_EPOCH).contains(&epoch) => (
                Some(epoch.to_string()),
                bytes.get(at..).unwrap_or(&bytes).to_vec(),
            ),
            Some((epoch, at)) => {
                each(Record::new(
                    number,
                    Kind::Broken(format!("timestamp {epoch} is out of range")),
                ));
                (None, bytes.get(at..).unwrap_or(&bytes).to_vec())
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

pub(super) fn read_fish(reader: impl BufRead, mut each: impl FnMut(Record)) -> io::Result<()> {
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
