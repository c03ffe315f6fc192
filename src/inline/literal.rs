//! The arguments of a call in Perl, Ruby, PHP or Lua, read by the token
//! scan: string literals of each language (`'…'`, `"…"`, Perl's `q{…}` and
//! `qq{…}`, Ruby's `%q(…)`, Lua's `[[…]]`), the expressions that name the
//! home folder (`$ENV{HOME}`, `ENV["HOME"]`, `Dir.home`, `getenv("HOME")`,
//! `os.getenv("HOME")`), and their concatenation. Anything else is an
//! argument only known when the code runs. Takes the text after a call's
//! name; returns [`Arg`]s. A scan, not a parser: bounded by the text read.

use crate::shell::Word;

/// Most arguments read of one call.
const MAX_ARGS: usize = 64;

/// One argument of a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// Text known in full; a home folder read from the environment is
    /// spelled `$HOME` in it.
    Text(String),
    /// Anything else, with its source.
    Other(String),
}

impl Arg {
    /// The literal text, when known.
    pub fn text(&self) -> Option<&str> {
        match self {
            Arg::Text(t) => Some(t),
            Arg::Other(_) => None,
        }
    }

    /// The argument as a shell word: a path starting at `$HOME` is a
    /// home-relative word (`~/…`), other text is literal, anything else is
    /// a word only known at run time.
    pub fn word(&self) -> Word {
        match self {
            Arg::Text(t) => {
                let home_rest = t
                    .strip_prefix("$HOME")
                    .filter(|rest| rest.is_empty() || rest.starts_with('/'));
                match home_rest {
                    Some(rest) => {
                        let mut word = Word::literal(&format!("~{rest}"));
                        word.tilde = true;
                        word
                    }
                    None if t.contains("$HOME") => dynamic(t),
                    None => Word::literal(t),
                }
            }
            Arg::Other(source) => dynamic(source),
        }
    }

    /// Whether the argument is a keyword option (`chdir: "x"`, `:in =>
    /// f`), a trailing options hash of a Ruby call rather than a word.
    pub fn is_keyword_option(&self) -> bool {
        let Arg::Other(source) = self else {
            return false;
        };
        let s = source.trim_start();
        if s.starts_with(':') && s.contains("=>") {
            return true;
        }
        let name_end = s
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(s.len());
        name_end > 0 && s[name_end..].starts_with(':') && !s[name_end..].starts_with("::")
    }
}

/// A word only known at run time, spelled as its source.
fn dynamic(source: &str) -> Word {
    Word {
        value: source.to_string(),
        source: source.to_string(),
        dynamic: true,
        ..Word::default()
    }
}

/// The arguments of a call whose name ends where `after` starts: in
/// parentheses, or (Perl, Ruby, Lua's single string) without them. Stops
/// at the end of the call, at most [`MAX_ARGS`].
pub fn arguments(language: &str, after: &str) -> Vec<Arg> {
    let text = after.trim_start_matches([' ', '\t']);
    let mut rest = text.strip_prefix('(').unwrap_or(text);
    let mut args = Vec::new();
    while args.len() < MAX_ARGS {
        rest = rest.trim_start_matches([' ', '\t', '\n', '\r']);
        match rest.chars().next() {
            None | Some(')' | ';' | '}' | ']') => break,
            _ => {}
        }
        let (arg, used) = expression(language, rest);
        args.push(arg);
        rest = rest[used..].trim_start_matches([' ', '\t', '\n', '\r']);
        if let Some(next) = rest.strip_prefix(',').or_else(|| rest.strip_prefix("=>")) {
            rest = next;
        } else {
            break;
        }
    }
    args
}

/// One argument: atoms joined by the language's concatenation. Returns it
/// and the bytes read.
fn expression(language: &str, text: &str) -> (Arg, usize) {
    let concat = match language {
        "perl" | "php" => ".",
        "lua" => "..",
        _ => "+",
    };
    let mut at = 0;
    let mut value = Some(String::new());
    loop {
        let (atom, used) = atom(language, &text[at..], concat);
        value = match (value, atom) {
            (Some(mut v), Some(piece)) => {
                v.push_str(&piece);
                Some(v)
            }
            _ => None,
        };
        at += used;
        let after = text[at..].trim_start_matches([' ', '\t']);
        let skipped = text.len() - at - after.len();
        match after.strip_prefix(concat) {
            Some(next)
                if used > 0
                    && !next.starts_with('=')
                    && !(concat == "." && next.starts_with('.')) =>
            {
                at += skipped + concat.len();
                at += text[at..].len() - text[at..].trim_start_matches([' ', '\t']).len();
            }
            _ => break,
        }
        if at >= text.len() {
            break;
        }
    }
    let source = text[..at].trim_end();
    match value {
        Some(v) => (Arg::Text(v), at),
        None => (Arg::Other(source.to_string()), at),
    }
}

/// One atom: a string literal or a home expression (`Some` text), or
/// anything else up to the next `,`, `)`, `;`, newline or `concat` at
/// nesting depth 0 (`None`). Returns the bytes read (at least one when
/// `text` is not empty).
fn atom(language: &str, text: &str, concat: &str) -> (Option<String>, usize) {
    if let Some((value, used)) = string_literal(language, text) {
        return (value, used);
    }
    let mut depth = 0usize;
    let mut end = text.len();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => {
                end = i;
                break;
            }
            ')' | ']' | '}' => depth -= 1,
            '"' | '\'' | '`' => {
                // A string inside the atom (`ENV["HOME"]`): skip it whole.
                let close = c;
                let mut escaped = false;
                for (_, d) in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if d == '\\' {
                        escaped = true;
                    } else if d == close {
                        break;
                    }
                }
            }
            ',' | ';' | '\n' if depth == 0 => {
                end = i;
                break;
            }
            _ if depth == 0 && text[i..].starts_with("=>") => {
                end = i;
                break;
            }
            _ if depth == 0
                && i > 0
                && text[i..].starts_with(concat)
                && is_concat(text, i, concat) =>
            {
                end = i;
                break;
            }
            _ => {}
        }
    }
    let source = text[..end].trim_end();
    (
        home_expression(language, source),
        end.max(usize::from(!text.is_empty())),
    )
}

/// Whether the `concat` at byte `i` of `text` joins two values (not a
/// method call `Dir.home`, a number `1.5` or an operator `+=`, `..=`).
fn is_concat(text: &str, i: usize, concat: &str) -> bool {
    let after = &text[i + concat.len()..];
    if after.starts_with('=') || (concat == "." && after.starts_with('.')) {
        return false;
    }
    if concat == "." {
        // Perl and PHP join with ` . `; `a.b` is read as one atom.
        let before = text[..i].chars().next_back();
        return before.is_some_and(|c| c == ' ' || c == '"' || c == '\'' || c == ')' || c == '}')
            && after.starts_with([' ', '"', '\'', '$']);
    }
    true
}

/// The expressions that name the home folder, without quotes and spaces.
const HOME_EXPRESSIONS: &[(&str, &str)] = &[
    ("perl", "$ENV{HOME}"),
    ("perl", "${ENV{HOME}}"),
    ("perl", "glob(~)"),
    ("perl", "(getpwuid($<))[7]"),
    ("ruby", "ENV[HOME]"),
    ("ruby", "ENV.fetch(HOME)"),
    ("ruby", "Dir.home"),
    ("ruby", "Dir.home()"),
    ("ruby", "File.expand_path(~)"),
    ("ruby", "Etc.getpwuid.dir"),
    ("php", "getenv(HOME)"),
    ("php", "$_SERVER[HOME]"),
    ("php", "$_ENV[HOME]"),
    ("lua", "os.getenv(HOME)"),
    ("lua", "os.getenvHOME"),
];

/// `$HOME` when `source` names the home folder in `language`.
fn home_expression(language: &str, source: &str) -> Option<String> {
    let bare: String = source
        .chars()
        .filter(|c| !matches!(c, '"' | '\'' | ' ' | '\t'))
        .collect();
    let bare = bare.replace("USERPROFILE", "HOME");
    HOME_EXPRESSIONS
        .iter()
        .any(|(lang, expr)| *lang == language && *expr == bare)
        .then(|| "$HOME".to_string())
}

/// A string literal at the start of `text`: its value (`None` when it
/// interpolates something other than the home folder) and the bytes read.
/// `None` when `text` does not start with a string literal.
pub fn string_literal(language: &str, text: &str) -> Option<(Option<String>, usize)> {
    let first = text.chars().next()?;
    match (language, first) {
        (_, '\'') => {
            let (body, used) = delimited(&text[1..], '\'', '\'')?;
            Some((single_quoted(language, body), used + 1))
        }
        (_, '"') => {
            let (body, used) = delimited(&text[1..], '"', '"')?;
            Some((double_quoted(language, body), used + 1))
        }
        ("perl", 'q') => {
            let (interpolates, start) = match text.get(1..2) {
                Some("q") => (true, 2),
                _ => (false, 1),
            };
            let rest = text[start..].trim_start_matches([' ', '\t']);
            let open = rest.chars().next()?;
            if open.is_ascii_alphanumeric()
                || open.is_whitespace()
                || open == '_'
                || open == ','
                || open == '='
            {
                return None;
            }
            let close = closing(open);
            let offset = text.len() - rest.len() + open.len_utf8();
            let (body, used) = delimited(&text[offset..], open, close)?;
            let value = if interpolates {
                double_quoted(language, body)
            } else {
                single_quoted(language, body)
            };
            Some((value, offset + used))
        }
        ("ruby", '%') => {
            let kind = text[1..].chars().next()?;
            let (interpolates, start) = match kind {
                'q' => (false, 2),
                'Q' => (true, 2),
                c if c.is_ascii_punctuation() && c != '=' => (true, 1),
                _ => return None,
            };
            let open = text[start..].chars().next()?;
            if !open.is_ascii_punctuation() {
                return None;
            }
            let (body, used) = delimited(&text[start + 1..], open, closing(open))?;
            let value = if interpolates {
                double_quoted(language, body)
            } else {
                single_quoted(language, body)
            };
            Some((value, start + 1 + used))
        }
        ("lua", '[') => {
            let level = text[1..].chars().take_while(|c| *c == '=').count();
            if !text[1 + level..].starts_with('[') {
                return None;
            }
            let close = format!("]{}]", "=".repeat(level));
            let body_start = 2 + level;
            let end = text[body_start..].find(&close)?;
            Some((
                Some(text[body_start..body_start + end].to_string()),
                body_start + end + close.len(),
            ))
        }
        _ => None,
    }
}

/// The closing delimiter for `open` (brackets pair, others repeat).
fn closing(open: char) -> char {
    match open {
        '(' => ')',
        '{' => '}',
        '[' => ']',
        '<' => '>',
        c => c,
    }
}

/// The body up to the matching `close` (nested brackets counted, escapes
/// honoured) and the bytes read including `close`; `None` when unclosed.
fn delimited(text: &str, open: char, close: char) -> Option<(&str, usize)> {
    let mut depth = 0usize;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == close && depth == 0 {
            return Some((&text[..i], i + c.len_utf8()));
        } else if c == close {
            depth -= 1;
        } else if c == open && open != close {
            depth += 1;
        }
    }
    None
}

/// A single-quoted body: `\\` and `\'` are the only escapes (Lua's
/// single quotes take every escape, as its double quotes do).
fn single_quoted(language: &str, body: &str) -> Option<String> {
    if language == "lua" {
        return double_quoted(language, body);
    }
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(d @ ('\\' | '\'')) => out.push(d),
                Some(d) => {
                    out.push('\\');
                    out.push(d);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// A double-quoted body: common escapes decoded; the home folder
/// interpolated as `$HOME`; any other interpolation makes it unknown.
pub fn double_quoted(language: &str, body: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        if c == '\\' {
            let d = rest[1..].chars().next()?;
            out.push(match d {
                'n' => '\n',
                't' => '\t',
                '\\' | '"' | '\'' | '$' | '@' | '#' | '{' | '}' | '/' | '`' => d,
                _ => return None,
            });
            rest = &rest[1 + d.len_utf8()..];
            continue;
        }
        let interpolation = match language {
            "perl" => matches!(c, '$' | '@'),
            "php" => c == '$' || (c == '{' && rest[1..].starts_with('$')),
            "ruby" => c == '#' && rest[1..].starts_with('{'),
            _ => false,
        };
        if interpolation {
            let (home, used) = interpolated_home(language, rest)?;
            out.push_str(&home);
            rest = &rest[used..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

/// A home folder interpolated in a double-quoted string (`$ENV{HOME}`,
/// `#{Dir.home}`, `{$_SERVER['HOME']}`): `$HOME` and the bytes read.
fn interpolated_home(language: &str, text: &str) -> Option<(String, usize)> {
    let candidates: &[&str] = match language {
        "perl" => &[
            "$ENV{HOME}",
            "$ENV{'HOME'}",
            "${ENV{HOME}}",
            "$ENV{USERPROFILE}",
        ],
        "ruby" => &[
            "#{Dir.home}",
            "#{ENV['HOME']}",
            "#{ENV[\"HOME\"]}",
            "#{ENV.fetch('HOME')}",
        ],
        "php" => &[
            "{$_SERVER['HOME']}",
            "{$_ENV['HOME']}",
            "$_SERVER[HOME]",
            "$_ENV[HOME]",
        ],
        _ => &[],
    };
    let found = candidates.iter().find(|c| text.starts_with(**c))?;
    Some(("$HOME".to_string(), found.len()))
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn texts(language: &str, after: &str) -> Vec<Option<String>> {
        arguments(language, after)
            .iter()
            .map(|a| a.text().map(str::to_string))
            .collect()
    }

    fn t(s: &str) -> Option<String> {
        Some(s.to_string())
    }

    #[test]
    fn literals_of_each_language() {
        assert_eq!(texts("perl", "(q{rm -rf ~})"), vec![t("rm -rf ~")]);
        assert_eq!(texts("perl", " qq(rm -rf ~);"), vec![t("rm -rf ~")]);
        assert_eq!(texts("perl", " q[a [b] c]"), vec![t("a [b] c")]);
        assert_eq!(texts("perl", "('a\\'b')"), vec![t("a'b")]);
        assert_eq!(texts("perl", "(\"x $y\")"), vec![None]);
        assert_eq!(
            texts("perl", "(\"rm -rf $ENV{HOME}\")"),
            vec![t("rm -rf $HOME")]
        );
        assert_eq!(texts("perl", "($ENV{HOME})"), vec![t("$HOME")]);
        assert_eq!(texts("perl", "($ENV{HOME} . \"/x\")"), vec![t("$HOME/x")]);
        assert_eq!(texts("ruby", "(%q(a b))"), vec![t("a b")]);
        assert_eq!(texts("ruby", "(Dir.home)"), vec![t("$HOME")]);
        assert_eq!(
            texts("ruby", " ENV[\"HOME\"] + '/.ssh'"),
            vec![t("$HOME/.ssh")]
        );
        assert_eq!(texts("ruby", "(\"#{Dir.home}\")"), vec![t("$HOME")]);
        assert_eq!(texts("ruby", "(\"#{x}\")"), vec![None]);
        assert_eq!(texts("php", "(getenv('HOME'))"), vec![t("$HOME")]);
        assert_eq!(
            texts("lua", "(os.getenv(\"HOME\") .. \"/x\")"),
            vec![t("$HOME/x")]
        );
        assert_eq!(texts("lua", "([[rm -rf ~]])"), vec![t("rm -rf ~")]);
        assert_eq!(texts("lua", " [==[a]]b]==]"), vec![t("a]]b")]);
    }

    #[test]
    fn every_argument_is_read() {
        assert_eq!(texts("php", "(\"ls\", \"r\")"), vec![t("ls"), t("r")]);
        assert_eq!(
            texts("ruby", "(\"rm\", \"-rf\", ENV[\"HOME\"])"),
            vec![t("rm"), t("-rf"), t("$HOME")]
        );
        assert_eq!(
            texts("perl", " \"rm\", \"-rf\", $d or die"),
            vec![t("rm"), t("-rf"), None]
        );
        assert_eq!(texts("php", "(\"x\", [], $p);"), vec![t("x"), None, None]);
        let args = arguments("ruby", "(\"ls\", chdir: \"/\")");
        assert!(args[1].is_keyword_option());
        assert!(!args[0].is_keyword_option());
        assert!(arguments("perl", "($x)")[0].word().dynamic);
        let home = arguments("ruby", "(Dir.home)")[0].word();
        assert!(home.tilde && home.value == "~");
    }

    #[test]
    fn odd_input_does_not_panic() {
        for text in [
            "(", "(\"", "q", "qq{", "%", "%q", "[[", "[=", "(\"\\", "é(ü", "(,,,)", "$ENV{",
        ] {
            for language in ["perl", "ruby", "php", "lua"] {
                let _ = arguments(language, text);
            }
        }
    }
}
