//! GNU `env -S STRING` (`--split-string`): how env splits its string into
//! arguments, which is not how a shell does.
//!
//! Takes the string; returns its words, or `None` where GNU env refuses it
//! and runs nothing (an unterminated quote, an unknown escape, a `$` not
//! written `${NAME}`): the caller does not vouch for such a string.
//!
//! The rules, as coreutils' env 9 applies them (each checked against it):
//! - whitespace separates words outside quotes;
//! - `'…'` is literal, but for `\\` and `\'`;
//! - `"…"` reads escapes and `${NAME}`;
//! - outside single quotes, `\_` separates words (a space inside double
//!   quotes), `\c` ends the whole string (refused inside double quotes),
//!   `\n \t \r \f \v` are those characters, `\# \$ \\ \" \'` the character
//!   itself; any other escape is refused;
//! - a `#` that starts a word starts a comment to the end of the string;
//! - `${NAME}` is the variable's value, known only when env runs.

/// One word of a split string.
#[derive(Debug, PartialEq, Eq)]
pub struct SplitWord {
    /// Its text, with each `${NAME}` kept as written.
    pub text: String,
    /// It holds a `${NAME}`: its value is only known when env runs.
    pub expands: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Quote {
    None,
    Single,
    Double,
}

/// Splits `string` as GNU env's `-S` does (see the module's comment).
pub fn split(string: &str) -> Option<Vec<SplitWord>> {
    let mut words = Vec::new();
    let mut text = String::new();
    let mut expands = false;
    // A word is started (by a character or by quotes, `''` is a word).
    let mut started = false;
    let mut quote = Quote::None;
    let mut chars = string.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Quote::Single, '\'') | (Quote::Double, '"') => quote = Quote::None,
            (Quote::None, '\'') => {
                quote = Quote::Single;
                started = true;
            }
            (Quote::None, '"') => {
                quote = Quote::Double;
                started = true;
            }
            (Quote::None, c) if c.is_whitespace() => {
                end_word(&mut words, &mut text, &mut expands, &mut started);
            }
            (Quote::None, '#') if !started => break,
            (Quote::Single, '\\') => match chars.peek() {
                Some(&next @ ('\\' | '\'')) => {
                    chars.next();
                    text.push(next);
                }
                _ => text.push('\\'),
            },
            (Quote::Single, c) => text.push(c),
            (_, '\\') => {
                let escaped = match chars.next()? {
                    '_' if quote == Quote::None => {
                        end_word(&mut words, &mut text, &mut expands, &mut started);
                        continue;
                    }
                    'c' if quote == Quote::None => {
                        end_word(&mut words, &mut text, &mut expands, &mut started);
                        return Some(words);
                    }
                    '_' => ' ',
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    'f' => '\u{c}',
                    'v' => '\u{b}',
                    next @ ('#' | '$' | '\\' | '"' | '\'') => next,
                    _ => return None,
                };
                started = true;
                text.push(escaped);
            }
            (_, '$') => {
                started = true;
                if chars.next()? != '{' {
                    return None;
                }
                let mut name = String::new();
                loop {
                    match chars.next()? {
                        '}' => break,
                        n if n == '_' || n.is_ascii_alphanumeric() => name.push(n),
                        _ => return None,
                    }
                }
                if name.is_empty() || name.starts_with(|n: char| n.is_ascii_digit()) {
                    return None;
                }
                text.push_str("${");
                text.push_str(&name);
                text.push('}');
                expands = true;
            }
            (_, c) => {
                started = true;
                text.push(c);
            }
        }
    }
    if quote != Quote::None {
        return None;
    }
    end_word(&mut words, &mut text, &mut expands, &mut started);
    Some(words)
}

fn end_word(words: &mut Vec<SplitWord>, text: &mut String, expands: &mut bool, started: &mut bool) {
    if *started {
        words.push(SplitWord {
            text: std::mem::take(text),
            expands: std::mem::take(expands),
        });
    }
    *started = false;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(string: &str) -> Option<Vec<String>> {
        split(string).map(|words| words.into_iter().map(|w| w.text).collect())
    }

    /// Each answer is what coreutils 9's `env -S` gave.
    #[test]
    fn splits_as_gnu_env_does() {
        let cases: &[(&str, Option<&[&str]>)] = &[
            ("a b", Some(&["a", "b"])),
            ("a\\_b", Some(&["a", "b"])),
            ("'a\\_b'", Some(&["a\\_b"])),
            ("\"a\\_b\"", Some(&["a b"])),
            ("rm -rf ~ \\c \"", Some(&["rm", "-rf", "~"])),
            ("a\\cb c", Some(&["a"])),
            ("\"a\\cb\"", None),
            ("a #b c", Some(&["a"])),
            ("a b#c", Some(&["a", "b#c"])),
            ("'' x", Some(&["", "x"])),
            ("\"\" x", Some(&["", "x"])),
            ("${HOME}x", Some(&["${HOME}x"])),
            ("'${HOME}'", Some(&["${HOME}"])),
            ("$HOME", None),
            ("${1}", None),
            ("${A-B}", None),
            ("a\\qb", None),
            ("'a\\qb'", Some(&["a\\qb"])),
            ("'it\\'s'", Some(&["it's"])),
            ("a\\ b", None),
            ("a\\#b \\#c", Some(&["a#b", "#c"])),
            ("'unterminated", None),
            ("a\\\\b", Some(&["a\\b"])),
            ("a\\tb", Some(&["a\tb"])),
            ("x\\$y", Some(&["x$y"])),
            ("a\tb", Some(&["a", "b"])),
            ("", Some(&[])),
            ("trailing\\", None),
        ];
        for (string, want) in cases {
            let want = want.map(|w| w.iter().map(|s| s.to_string()).collect::<Vec<_>>());
            assert_eq!(texts(string), want, "{string:?}");
        }
    }

    #[test]
    fn a_variable_marks_its_word() {
        let words = split("cat ${HOME}/.ssh/id_rsa '${X}'").unwrap_or_default();
        let marks: Vec<bool> = words.iter().map(|w| w.expands).collect();
        assert_eq!(marks, [false, true, false]);
    }
}
