//! Shell words: what bash would make of one argument, as far as it can be
//! known before the command runs.
//!
//! Takes a tree-sitter-bash word node (`word`, `string`, `raw_string`,
//! `ansi_c_string`, `concatenation`, expansions, substitutions) and returns a
//! [`Word`]: its literal value with quotes and escapes removed, and flags for
//! what could not be known (expansions, substitutions, globs).

use super::parse::kind;
use std::collections::HashMap;
use tree_sitter::Node;

/// One argument as bash would see it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Word {
    /// The unquoted value. Parts that only run-time knows keep their source
    /// spelling (`$HOME`, `${x:-y}`, `$(date)`).
    pub value: String,
    /// The word contains an expansion or substitution whose value is unknown.
    pub dynamic: bool,
    /// The word contains an unquoted glob (`*`, `?`, `[…]`) or brace expansion.
    pub glob: bool,
    /// The word starts with an unquoted `~` (home-relative).
    pub tilde: bool,
    /// The word contains a `$( )`, backtick or `<( )` substitution.
    pub substitution: bool,
    /// The word's source text, as written.
    pub source: String,
}

impl Word {
    /// A fully literal word.
    pub fn literal(value: &str) -> Word {
        Word {
            value: value.to_string(),
            source: value.to_string(),
            ..Word::default()
        }
    }

    /// True when the value is exactly what bash will pass.
    pub fn is_static(&self) -> bool {
        !self.dynamic && !self.glob
    }
}

/// Known values of shell variables assigned earlier in the same line
/// (`x=rm; $x -rf /`). Only literal assignments are recorded.
pub type Vars = HashMap<String, Word>;

/// Decodes one word node. `vars` resolves `$x` and `${x}` of variables
/// assigned literally earlier in the line.
pub fn decode(node: Node, src: &[u8], vars: &Vars) -> Word {
    let mut word = Word {
        source: text(node, src).to_string(),
        ..Word::default()
    };
    append(node, src, vars, &mut word, 0);
    word
}

/// Source text of a node (empty on a range outside `src` or invalid UTF-8
/// boundaries, which tree-sitter never produces for a `&str` input).
pub fn text<'a>(node: Node, src: &'a [u8]) -> &'a str {
    src.get(node.start_byte()..node.end_byte())
        .and_then(|bytes| std::str::from_utf8(bytes).ok())
        .unwrap_or("")
}

const MAX_WORD_DEPTH: usize = 64;

fn append(node: Node, src: &[u8], vars: &Vars, word: &mut Word, depth: usize) {
    if depth > MAX_WORD_DEPTH {
        word.dynamic = true;
        word.value.push_str(text(node, src));
        return;
    }
    let raw = text(node, src);
    match kind(node) {
        "word" | "command_name" if node.named_child_count() == 0 => {
            if word.value.is_empty() && raw.starts_with('~') {
                word.tilde = true;
            }
            unescape_unquoted(raw, word);
        }
        "number" | "special_variable_name"
            if node.parent().is_some_and(|p| kind(p) != "simple_expansion") =>
        {
            word.value.push_str(raw);
        }
        "raw_string" => {
            word.value.push_str(
                raw.strip_prefix('\'')
                    .and_then(|r| r.strip_suffix('\''))
                    .unwrap_or(raw),
            );
        }
        "ansi_c_string" => {
            let inner = raw
                .strip_prefix("$'")
                .and_then(|r| r.strip_suffix('\''))
                .unwrap_or(raw);
            word.value.push_str(&decode_ansi_c(inner));
        }
        "string" | "translated_string" => {
            // Children are the quoted parts; the quotes themselves are
            // anonymous `"` nodes. Text between children that no child
            // covers (possible around escapes) is taken from the source.
            let mut cursor = node.walk();
            let mut covered = node.start_byte();
            for child in node.children(&mut cursor) {
                // tree-sitter leaves some of the quoted text (newlines
                // between lines) outside every child: it is literal.
                if child.start_byte() > covered
                    && let Some(gap) = src.get(covered..child.start_byte())
                {
                    unescape_double_quoted(&String::from_utf8_lossy(gap), word);
                }
                covered = covered.max(child.end_byte());
                match kind(child) {
                    // tree-sitter-bash's closing quote takes the blanks
                    // before it when there is nothing else (`" "`): they
                    // are quoted text.
                    "\"" if child.start_byte() > node.start_byte() => {
                        let quote = text(child, src);
                        unescape_double_quoted(quote.strip_suffix('"').unwrap_or(quote), word);
                    }
                    // A `$` that starts no expansion (`":$"`) is itself;
                    // the `$` of `$"…"` is not part of the text.
                    "$" if kind(node) == "string" => word.value.push('$'),
                    // `$"…"` (a locale-translated string) is its text.
                    "\"" | "$\"" | "$" => {}
                    "string_content" => unescape_double_quoted(text(child, src), word),
                    _ => append(child, src, vars, word, depth + 1),
                }
            }
        }
        "string_content" => unescape_double_quoted(raw, word),
        "concatenation" | "command_name" => {
            let mut cursor = node.walk();
            let mut first = true;
            for child in node.children(&mut cursor) {
                if first && kind(child) == "word" && text(child, src).starts_with('~') {
                    word.tilde = true;
                }
                first = false;
                append(child, src, vars, word, depth + 1);
            }
        }
        "simple_expansion" | "expansion" => match plain_variable(node, src) {
            Some(name) if vars.contains_key(name) => {
                let known = &vars[name];
                // `x=~; rm -rf $x`: bash expands the tilde at assignment.
                if word.value.is_empty() && known.tilde {
                    word.tilde = true;
                }
                word.value.push_str(&known.value);
            }
            _ => match known_operation(raw, vars) {
                Some(value) => word.value.push_str(&value),
                None => {
                    word.dynamic = true;
                    word.value.push_str(raw);
                }
            },
        },
        "command_substitution" | "process_substitution" => {
            word.dynamic = true;
            word.substitution = true;
            word.value.push_str(raw);
        }
        "arithmetic_expansion" => {
            word.dynamic = true;
            word.value.push_str(raw);
        }
        "brace_expression" => {
            word.glob = true;
            word.value.push_str(raw);
        }
        "extglob_pattern" => {
            word.glob = true;
            word.value.push_str(raw);
        }
        // `$` alone, `"` quotes and other anonymous tokens: literal text.
        _ if !node.is_named() => word.value.push_str(raw),
        // Anything else we do not model is kept as written but marked
        // dynamic, so that no later stage mistakes it for a known value.
        _ => {
            word.dynamic = true;
            word.value.push_str(raw);
        }
    }
}

/// `${name<op>…}` on a variable whose value is known (assigned literally
/// earlier in the line), worked out as bash would: the defaults `:-`, `-`,
/// `:=`, `=`, `:+`, `+` (with a literal word), case changes `,,` `^^`,
/// substrings `:o` and `:o:l`, and prefix or suffix removal `#` `##` `%`
/// `%%` of a literal text or of `*` followed or preceded by one. Anything
/// else is unknown (`None`).
fn known_operation(raw: &str, vars: &Vars) -> Option<String> {
    let inner = raw.strip_prefix("${")?.strip_suffix('}')?;
    let name_len = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let (name, op) = inner.split_at(name_len);
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let known = vars.get(name).filter(|w| w.is_static())?;
    let value = known.value.as_str();
    let literal =
        |w: &str| (!w.contains(['$', '`', '\\', '\'', '"', '*', '?', '['])).then(|| w.to_string());
    if let Some(w) = op.strip_prefix(":-").or_else(|| op.strip_prefix(":=")) {
        return if value.is_empty() {
            literal(w)
        } else {
            Some(value.to_string())
        };
    }
    if let Some(w) = op.strip_prefix(":+") {
        return if value.is_empty() {
            Some(String::new())
        } else {
            literal(w)
        };
    }
    if op.starts_with('-') || op.starts_with('=') {
        return Some(value.to_string());
    }
    if let Some(w) = op.strip_prefix('+') {
        return literal(w);
    }
    match op {
        ",," => return Some(value.to_lowercase()),
        "^^" => return Some(value.to_uppercase()),
        _ => {}
    }
    if let Some(range) = op.strip_prefix(':') {
        let mut parts = range.splitn(2, ':');
        let offset: usize = parts.next()?.trim().parse().ok()?;
        let chars: Vec<char> = value.chars().collect();
        let start = offset.min(chars.len());
        let end = match parts.next() {
            Some(l) => start
                .saturating_add(l.trim().parse::<usize>().ok()?)
                .min(chars.len()),
            None => chars.len(),
        };
        return Some(chars.get(start..end)?.iter().collect());
    }
    // `#`/`##`: a prefix; `%`/`%%`: a suffix. The pattern is literal text,
    // or `*` then literal (prefix) / literal then `*` (suffix).
    let (longest, pattern, prefix) = if let Some(p) = op.strip_prefix("##") {
        (true, p, true)
    } else if let Some(p) = op.strip_prefix('#') {
        (false, p, true)
    } else if let Some(p) = op.strip_prefix("%%") {
        (true, p, false)
    } else if let Some(p) = op.strip_prefix('%') {
        (false, p, false)
    } else {
        return None;
    };
    if prefix {
        if let Some(text) = pattern.strip_prefix('*') {
            let text = literal(text)?;
            let at = if longest {
                value.rfind(&text)
            } else {
                value.find(&text)
            };
            return Some(at.map_or(value.to_string(), |i| value[i + text.len()..].to_string()));
        }
        let text = literal(pattern)?;
        return Some(
            value
                .strip_prefix(text.as_str())
                .unwrap_or(value)
                .to_string(),
        );
    }
    if let Some(text) = pattern.strip_suffix('*') {
        let text = literal(text)?;
        let at = if longest {
            value.find(&text)
        } else {
            value.rfind(&text)
        };
        return Some(at.map_or(value.to_string(), |i| value[..i].to_string()));
    }
    let text = literal(pattern)?;
    Some(
        value
            .strip_suffix(text.as_str())
            .unwrap_or(value)
            .to_string(),
    )
}

/// `$name` or `${name}` with nothing else inside, as a variable name.
pub fn plain_variable<'a>(node: Node, src: &'a [u8]) -> Option<&'a str> {
    let raw = text(node, src);
    let name = raw
        .strip_prefix("${")
        .and_then(|r| r.strip_suffix('}'))
        .or_else(|| raw.strip_prefix('$'))?;
    let valid = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    valid.then_some(name)
}

/// Removes unquoted backslash escapes (`\r\m` → `rm`, `\<newline>` → nothing)
/// and notes unquoted globs.
fn unescape_unquoted(raw: &str, word: &mut Word) {
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(next) => word.value.push(next),
            },
            '*' | '?' | '[' => {
                word.glob = true;
                word.value.push(c);
            }
            _ => word.value.push(c),
        }
    }
}

/// Inside double quotes a backslash escapes only `$`, `` ` ``, `"`, `\` and
/// a newline.
fn unescape_double_quoted(raw: &str, word: &mut Word) {
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('$' | '`' | '"' | '\\') => {
                    if let Some(next) = chars.next() {
                        word.value.push(next);
                    }
                }
                Some('\n') => {
                    chars.next();
                }
                _ => word.value.push('\\'),
            }
        } else {
            word.value.push(c);
        }
    }
}

/// Decodes the inside of a `$'…'` string the way bash does. A NUL byte
/// (`\0`, `\x00`, `\000`, `\c@`, `\u0000`) ends the string there, as in
/// bash: `$'rm\0junk'` is `rm`.
pub fn decode_ansi_c(inner: &str) -> String {
    let mut out = String::new();
    let mut bytes: Vec<u8> = Vec::new();
    let chars: Vec<char> = inner.chars().collect();
    let mut i = 0;
    let flush = |bytes: &mut Vec<u8>, out: &mut String| {
        if !bytes.is_empty() {
            out.push_str(&String::from_utf8_lossy(bytes));
            bytes.clear();
        }
    };
    while let Some(&c) = chars.get(i) {
        let Some(&e) = chars.get(i + 1).filter(|_| c == '\\') else {
            flush(&mut bytes, &mut out);
            out.push(c);
            i += 1;
            continue;
        };
        i += 2;
        let simple = match e {
            'a' => Some('\x07'),
            'b' => Some('\x08'),
            'e' | 'E' => Some('\x1b'),
            'f' => Some('\x0c'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\x0b'),
            '\\' => Some('\\'),
            '\'' => Some('\''),
            '"' => Some('"'),
            '?' => Some('?'),
            _ => None,
        };
        if let Some(s) = simple {
            flush(&mut bytes, &mut out);
            out.push(s);
            continue;
        }
        match e {
            'x' => {
                let (value, used) = take_digits(chars.get(i..).unwrap_or_default(), 16, 2);
                if used == 0 {
                    flush(&mut bytes, &mut out);
                    out.push_str("\\x");
                } else if value == 0 {
                    break;
                } else {
                    bytes.push(value as u8);
                    i += used;
                }
            }
            'u' | 'U' => {
                let (value, used) = take_digits(
                    chars.get(i..).unwrap_or_default(),
                    16,
                    if e == 'u' { 4 } else { 8 },
                );
                flush(&mut bytes, &mut out);
                match char::from_u32(value).filter(|_| used > 0) {
                    Some('\0') => break,
                    Some(ch) => {
                        out.push(ch);
                        i += used;
                    }
                    None => {
                        out.push('\\');
                        out.push(e);
                    }
                }
            }
            'c' => {
                flush(&mut bytes, &mut out);
                if let Some(&ctl) = chars.get(i) {
                    let code = (ctl as u32) & 0x1f;
                    if code == 0 {
                        break;
                    }
                    out.push(char::from(code as u8));
                    i += 1;
                }
            }
            '0'..='7' => {
                let (value, used) = take_digits(chars.get(i - 1..).unwrap_or_default(), 8, 3);
                if value & 0xff == 0 {
                    break;
                }
                bytes.push((value & 0xff) as u8);
                i += used.saturating_sub(1);
            }
            other => {
                flush(&mut bytes, &mut out);
                out.push('\\');
                out.push(other);
            }
        }
    }
    flush(&mut bytes, &mut out);
    out
}

fn take_digits(chars: &[char], radix: u32, max: usize) -> (u32, usize) {
    let mut value: u32 = 0;
    let mut used = 0;
    for &c in chars.iter().take(max) {
        match c.to_digit(radix) {
            Some(d) => {
                value = value.saturating_mul(radix).saturating_add(d);
                used += 1;
            }
            None => break,
        }
    }
    (value, used)
}

#[cfg(test)]
mod tests {
    use super::{Vars, Word, decode_ansi_c, known_operation};

    /// A `$` that starts no expansion inside double quotes is kept.
    #[test]
    fn a_lone_dollar_in_quotes_is_itself() {
        let s = crate::shell::parse::parse_with_tree_sitter("grep \":$\" f; rm -rf \"/$\"");
        let values: Vec<Vec<String>> = s
            .commands
            .iter()
            .map(|c| c.words.iter().map(|w| w.value.clone()).collect())
            .collect();
        assert_eq!(
            values,
            vec![vec!["grep", ":$", "f"], vec!["rm", "-rf", "/$"]]
        );
    }

    #[test]
    fn operations_on_known_values_work_as_in_bash() {
        let mut vars = Vars::new();
        for (name, value) in [("e", ""), ("p", "/bin/rm"), ("f", "a.tar.gz"), ("u", "RM")] {
            vars.insert(name.into(), Word::literal(value));
        }
        let run = |raw: &str| known_operation(raw, &vars);
        assert_eq!(run("${e:-rm}").as_deref(), Some("rm"));
        assert_eq!(run("${e-rm}").as_deref(), Some(""));
        assert_eq!(run("${p:+x}").as_deref(), Some("x"));
        assert_eq!(run("${e:+x}").as_deref(), Some(""));
        assert_eq!(run("${p##*/}").as_deref(), Some("rm"));
        assert_eq!(run("${p#*/}").as_deref(), Some("bin/rm"));
        assert_eq!(run("${f%%.*}").as_deref(), Some("a"));
        assert_eq!(run("${f%.*}").as_deref(), Some("a.tar"));
        assert_eq!(run("${f%.gz}").as_deref(), Some("a.tar"));
        assert_eq!(run("${u,,}").as_deref(), Some("rm"));
        assert_eq!(run("${p:5}").as_deref(), Some("rm"));
        assert_eq!(run("${p:1:3}").as_deref(), Some("bin"));
        // Unknown variables, run-time words and other operators stay unknown.
        assert_eq!(run("${nope:-rm}"), None);
        assert_eq!(run("${e:-$(rm)}"), None);
        assert_eq!(run("${p/rm/ls}"), None);
        assert_eq!(run("${p: -2}"), None);
    }

    #[test]
    fn ansi_c_escapes_decode_like_bash() {
        assert_eq!(decode_ansi_c(r"\x72\x6d"), "rm");
        assert_eq!(decode_ansi_c(r"\162\155"), "rm");
        assert_eq!(decode_ansi_c(r"\u0072m"), "rm");
        assert_eq!(decode_ansi_c(r"a\tb"), "a\tb");
        assert_eq!(decode_ansi_c(r"it\'s"), "it's");
        assert_eq!(decode_ansi_c(r"\xc3\xa9"), "é");
    }

    /// A NUL ends a `$'…'` string in bash, whatever spells it.
    #[test]
    fn a_nul_ends_an_ansi_c_string() {
        for spelling in [
            r"\0",
            r"\x00",
            r"\000",
            r"\c@",
            r"\u0000",
            r"\U00000000",
            r"\x0",
        ] {
            assert_eq!(
                decode_ansi_c(&format!("rm{spelling}junk")),
                "rm",
                "{spelling}"
            );
        }
        assert_eq!(decode_ansi_c(r"a\x01b"), "a\u{1}b");
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod quoting_tests {
    #[test]
    fn double_quotes_keep_their_newlines() {
        let s = crate::shell::parse("python3 -c \"\nimport os\n  print(1)\n\" x");
        assert_eq!(s.commands[0].words[2].value, "\nimport os\n  print(1)\n");
        let s = crate::shell::parse("echo \"a\n$HOME\nb\"");
        assert_eq!(s.commands[0].words[1].value, "a\n$HOME\nb");
    }
}
