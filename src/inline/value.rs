//! What the inline lanes know of an expression's value: a literal string, a
//! list, a module or function by its canonical name, a `pathlib.Path`, an
//! options object, or nothing. Takes nothing from the shell; gives the lanes
//! the values that paths and shell commands are made of.

use crate::shell::Word;

/// Most elements kept of a list literal.
const MAX_LIST: usize = 4096;

/// An expression's value, as far as the lanes can tell without running it.
#[derive(Clone, Debug, Default)]
pub enum Value {
    /// Text known in full; `home` when it starts at the home folder
    /// (`os.path.expanduser('~/x')`, `Path.home() / 'x'`, `os.homedir()`).
    Text {
        /// The text (`~`-prefixed when `home`).
        value: String,
        /// It starts at the home folder.
        home: bool,
    },
    /// A list or tuple literal.
    List(Vec<Value>),
    /// A module, by canonical name (`os`, `fs`).
    Module(String),
    /// A function, class or attribute, by canonical dotted name.
    Name(String),
    /// An object of a known class, with the path it stands for
    /// (`pathlib.Path('/tmp')`).
    Object {
        /// Its class (`pathlib.Path`).
        class: String,
        /// The path it holds.
        path: Box<Value>,
    },
    /// An options object or dict literal: its literal keys.
    Options(Vec<(String, Value)>),
    /// A boolean literal.
    Bool(bool),
    /// An integer literal.
    Int(i64),
    /// A function, lambda or arrow function.
    Function,
    /// Unknown until the code runs.
    #[default]
    Unknown,
}

impl Value {
    /// Text that is not home-relative.
    pub fn text(value: impl Into<String>) -> Value {
        Value::Text {
            value: value.into(),
            home: false,
        }
    }

    /// The home folder.
    pub fn home() -> Value {
        Value::Text {
            value: "~".into(),
            home: true,
        }
    }

    /// The literal text, when known.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Value::Text { value, .. } => Some(value),
            _ => None,
        }
    }

    /// A list literal, kept to a bounded length.
    pub fn list(items: Vec<Value>) -> Value {
        let mut items = items;
        items.truncate(MAX_LIST);
        Value::List(items)
    }

    /// The path a value stands for: text, or a `Path` object's path.
    pub fn path(&self) -> &Value {
        match self {
            Value::Object { path, .. } => path,
            other => other,
        }
    }

    /// An option of an options object (`{recursive: true}`).
    pub fn option(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Options(pairs) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Whether the value is literally true.
    pub fn is_true(&self) -> bool {
        matches!(self, Value::Bool(true) | Value::Int(1))
    }

    /// The value as a shell word: text is literal, anything else is a word
    /// only known at run time (spelled as its source).
    pub fn to_word(&self, source: &str) -> Word {
        match self.path() {
            Value::Text { value, home } => {
                let mut word = Word::literal(value);
                word.tilde = *home;
                word
            }
            Value::Int(n) => Word::literal(&n.to_string()),
            _ => Word {
                value: source.to_string(),
                source: source.to_string(),
                dynamic: true,
                ..Word::default()
            },
        }
    }
}

/// Two texts end to end (`'a' + 'b'`); unknown if either is.
pub fn concat(left: &Value, right: &Value) -> Value {
    match (left, right) {
        (Value::Text { value: a, home }, Value::Text { value: b, .. }) => Value::Text {
            value: format!("{a}{b}"),
            home: *home,
        },
        _ => Value::Unknown,
    }
}

/// Path parts joined as `os.path.join` and `path.join` do: an absolute part
/// starts over. Unknown if any part is.
pub fn join<'v>(parts: impl IntoIterator<Item = &'v Value>) -> Value {
    let mut joined: Option<(String, bool)> = None;
    for part in parts {
        let Value::Text { value, home } = part.path() else {
            return Value::Unknown;
        };
        joined = Some(match joined {
            _ if value.starts_with('/') || *home => (value.clone(), *home),
            None => (value.clone(), false),
            Some((base, base_home)) if base.is_empty() || base.ends_with('/') => {
                (format!("{base}{value}"), base_home)
            }
            Some((base, base_home)) => (format!("{base}/{value}"), base_home),
        });
    }
    match joined {
        Some((value, home)) => Value::Text { value, home },
        None => Value::Unknown,
    }
}

/// `~` and `~/…` made home-relative, as `expanduser` does.
pub fn expand_user(value: &Value) -> Value {
    match value {
        Value::Text { value, home: false } if value == "~" || value.starts_with("~/") => {
            Value::Text {
                value: value.clone(),
                home: true,
            }
        }
        // `$HOME/x` through `os.path.expandvars`.
        Value::Text { value, home: false }
            if value == "$HOME" || value.starts_with("$HOME/") || value.starts_with("${HOME}") =>
        {
            Value::Text {
                value: format!(
                    "~{}",
                    value
                        .trim_start_matches("${HOME}")
                        .trim_start_matches("$HOME")
                ),
                home: true,
            }
        }
        other => other.clone(),
    }
}

/// Environment variables that name the home folder.
pub fn is_home_variable(name: &str) -> bool {
    matches!(name, "HOME" | "USERPROFILE")
}

/// An integer literal of Python or JavaScript (`511`, `0o777`, `0x1ff`,
/// `0b1`, `1_000`).
pub fn parse_integer(text: &str) -> Option<i64> {
    let t = text.replace('_', "").to_ascii_lowercase();
    if let Some(octal) = t.strip_prefix("0o") {
        i64::from_str_radix(octal, 8).ok()
    } else if let Some(hex) = t.strip_prefix("0x") {
        i64::from_str_radix(hex, 16).ok()
    } else if let Some(bin) = t.strip_prefix("0b") {
        i64::from_str_radix(bin, 2).ok()
    } else {
        t.parse().ok()
    }
}

/// Backslash escapes of Python and JavaScript strings, for the common
/// ones; others stay as written.
pub fn unescape_into(text: &str, out: &mut String) {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('\\') => out.push('\\'),
            Some('\'') => out.push('\''),
            Some('"') => out.push('"'),
            Some('\n') => {}
            Some('x') => {
                let hex: String = (0..2).filter_map(|_| chars.next()).collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => {
                        out.push_str("\\x");
                        out.push_str(&hex);
                    }
                }
            }
            Some(u @ ('u' | 'U')) => {
                let len = if u == 'u' { 4 } else { 8 };
                let hex: String = (0..len).filter_map(|_| chars.next()).collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => {
                        out.push('\\');
                        out.push(u);
                        out.push_str(&hex);
                    }
                }
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_starts_over_at_an_absolute_part() {
        let j = join(&[Value::text("a"), Value::text("/etc"), Value::text("x")]);
        assert_eq!(j.as_text(), Some("/etc/x"));
        let j = join(&[Value::home(), Value::text(".ssh")]);
        assert!(matches!(j, Value::Text { ref value, home: true } if value == "~/.ssh"));
        assert!(matches!(
            join(&[Value::text("a"), Value::Unknown]),
            Value::Unknown
        ));
    }

    #[test]
    fn expand_user_marks_home() {
        let v = expand_user(&Value::text("~/x"));
        assert!(v.to_word("").tilde);
        let v = expand_user(&Value::text("$HOME/x"));
        assert_eq!(v.to_word("").value, "~/x");
        assert!(!expand_user(&Value::text("a~")).to_word("").tilde);
    }
}
