//! Command text out of JSON values, and what can still be read of a line
//! that cannot be read whole. An argv array is joined with shell quoting
//! ([`shell_join`]); a broken line's string literals are read leniently and
//! the ones that may be commands kept ([`Record::salvage`]), at most 8 texts
//! of 64 KiB each.

use super::COMMAND_KEYS;
use serde_json::Value;

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
pub(super) fn command_text(value: &Value) -> Result<String, &'static str> {
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
pub(super) fn texts_in(value: &Value, depth: usize, out: &mut Vec<String>) {
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
pub(super) enum Reading {
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
pub(super) fn salvage_json(line: &str, reading: Reading) -> Vec<String> {
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

/// What a line that could not be read may hold as commands: its text, or
/// what its JSON says.
pub(super) fn lossy_salvage(text: &str, reading: Reading) -> Vec<String> {
    if reading != Reading::Text {
        salvage_json(text, reading)
    } else if text.trim().is_empty() {
        Vec::new()
    } else {
        vec![crate::limits::clip(text, MAX_SALVAGE_BYTES).to_string()]
    }
}
