//! Names that builtins read as variable names (`read`, `printf -v`, `test -v`,
//! `unset`, declarations) and evaluate as arithmetic when they carry a
//! subscript, running its command substitutions: takes a parsed script,
//! adds a problem for each such name it cannot vouch for. Also the small
//! readers of arithmetic text the walk shares (names, numbers, blanked
//! substitutions). Touches nothing else.

use crate::limits;
use crate::shell::types::{Problem, Script};
use crate::shell::word::Word;

/// Builtins that take variable names evaluate a subscript in a name as
/// arithmetic, running its command substitutions (`read 'a[$(rm x)]'`,
/// `printf -v`, `test -v`, `unset`, declarations). Each such name of the
/// script's commands is checked by [`name_sink`].
pub(super) fn name_sinks(script: &mut Script) {
    let mut names: Vec<Word> = Vec::new();
    for command in &script.commands {
        let words = &command.words;
        let Some(head) = words.first() else { continue };
        // Options that take a value, per builtin.
        let valued: &[&str] = match head.value.as_str() {
            "read" => &["-d", "-i", "-n", "-N", "-p", "-t", "-u"],
            "mapfile" | "readarray" => &["-d", "-n", "-O", "-s", "-u", "-C", "-c"],
            _ => &[],
        };
        match head.value.as_str() {
            "test" | "[" | "printf" | "wait" => {
                let flag = if head.value == "wait" { "-p" } else { "-v" };
                for (i, word) in words.iter().enumerate() {
                    if word.value == flag {
                        names.extend(words.get(i + 1).cloned());
                    } else if let Some(name) = word.value.strip_prefix(flag)
                        && head.value == "printf"
                        && !name.is_empty()
                    {
                        let mut attached = word.clone();
                        attached.value = name.to_string();
                        names.push(attached);
                    }
                }
            }
            "read" | "mapfile" | "readarray" | "unset" | "getopts" | "declare" | "typeset"
            | "local" | "export" | "readonly" => {
                let mut skip_next = false;
                for (i, word) in words.iter().enumerate().skip(1) {
                    if skip_next {
                        skip_next = false;
                        continue;
                    }
                    if word.value.starts_with('-') && !word.dynamic {
                        skip_next = valued.contains(&word.value.as_str());
                        continue;
                    }
                    // `getopts OPTSTRING NAME`: the option string is no name.
                    if head.value == "getopts" && i == 1 {
                        continue;
                    }
                    let mut name = word.clone();
                    if let Some((before, _)) = word.value.split_once('=') {
                        name.value = before.to_string();
                        name.source = word
                            .source
                            .split_once('=')
                            .map_or(word.source.clone(), |(b, _)| b.to_string());
                    }
                    names.push(name);
                }
            }
            _ => {}
        }
    }
    for name in &names {
        name_sink(name, script);
    }
}

/// Checks a variable name that a builtin takes (see [`name_sinks`]): a
/// name only known at run time, or one whose subscript holds an expansion
/// or substitution, is a [`Problem::Dynamic`]; a substitution there is
/// parsed again as a script of its own.
pub(super) fn name_sink(word: &Word, script: &mut Script) {
    // The walk marks a bare name node dynamic; only an expansion or a
    // substitution in the name makes it unknown.
    let problem = if word.dynamic && word.source.contains(['$', '`']) {
        Some(format!(
            "the variable name `{}` is only known at run time, and bash evaluates a subscript in it",
            limits::clip(&word.source, 60)
        ))
    } else if let Some((_, subscript)) = word.value.split_once('[') {
        let (_, substitutions) = blank_substitutions(subscript);
        script.nested.extend(substitutions);
        (!subscript
            .trim_end_matches(']')
            .chars()
            .all(|c| c.is_ascii_digit() || c == '@' || c == '*'))
        .then(|| {
            format!(
                "the subscript of `{}` is evaluated as arithmetic when the command runs",
                limits::clip(&word.value, 60)
            )
        })
    } else {
        None
    };
    if let Some(what) = problem.map(Problem::Dynamic)
        && !script.problems.contains(&what)
    {
        script.problems.push(what);
    }
}

/// `text` with its command substitutions (`$( … )`, backquotes) blanked
/// out, and their bodies. A backslash escapes the next character; `$((`
/// is arithmetic, not a substitution.
pub(super) fn blank_substitutions(text: &str) -> (String, Vec<String>) {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut bodies = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if c == '\\' {
            out.push(' ');
            i += 2;
            continue;
        }
        if c == '`' {
            let mut body = String::new();
            i += 1;
            while let Some(&inside) = chars.get(i)
                && inside != '`'
            {
                if inside == '\\' && matches!(chars.get(i + 1), Some('`' | '$' | '\\')) {
                    i += 1;
                }
                if let Some(&next) = chars.get(i) {
                    body.push(next);
                }
                i += 1;
            }
            i += 1;
            bodies.push(body);
            out.push(' ');
            continue;
        }
        if c == '$' && chars.get(i + 1) == Some(&'(') && chars.get(i + 2) != Some(&'(') {
            let mut depth = 0usize;
            let mut body = String::new();
            i += 1;
            while let Some(&inside) = chars.get(i) {
                match inside {
                    '(' => depth += 1,
                    ')' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
                if !(depth == 1 && inside == '(') {
                    body.push(inside);
                }
                i += 1;
            }
            i += 1;
            bodies.push(body);
            out.push(' ');
            continue;
        }
        out.push(c);
        i += 1;
    }
    (out, bodies)
}

/// A name in arithmetic text (see [`arithmetic_names`]).
pub(super) struct ArithmeticName {
    pub(super) name: String,
    /// The expression assigns it (`x=1`, `x+=2`, `x++`, `--x`).
    pub(super) assigned: bool,
    /// It is an array element (`a[i]`).
    pub(super) element: bool,
}

/// The variable names in arithmetic text, in order. A run that starts
/// with a digit is a number (`0x1f`, `16#ff`'s `16`); a name after `#` is
/// a length or a base's digits (`${#a}`, `16#ff`).
pub(super) fn arithmetic_names(text: &str) -> Vec<ArithmeticName> {
    let bytes = text.as_bytes();
    let mut names = Vec::new();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if !(b.is_ascii_alphanumeric() || b == b'_') {
            i += 1;
            continue;
        }
        let start = i;
        while bytes
            .get(i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            i += 1;
        }
        if b.is_ascii_digit() || (start > 0 && bytes.get(start - 1) == Some(&b'#')) {
            continue;
        }
        let name = &text[start..i];
        let after = text[i..].trim_start();
        let before = text[..start].trim_end();
        let assigned = (after.starts_with('=') && !after.starts_with("=="))
            || [
                "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "<<=", ">>=", "++", "--",
            ]
            .iter()
            .any(|op| after.starts_with(op))
            || before.ends_with("++")
            || before.ends_with("--");
        names.push(ArithmeticName {
            name: name.to_string(),
            assigned,
            element: after.starts_with('['),
        });
    }
    names
}

/// Whether a variable's value is a plain number to bash's arithmetic
/// (empty counts as 0): digits, with a sign, `0x` or a `base#` prefix.
pub(super) fn is_number(value: &str) -> bool {
    let value = value.trim();
    let digits = value.trim_start_matches(['-', '+']);
    digits.is_empty()
        || digits.starts_with(|c: char| c.is_ascii_digit())
            && digits
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '#')
}

/// The names (runs of letters, digits and `_` not starting with a digit)
/// in a word.
pub(super) fn identifiers(value: &str) -> Vec<String> {
    value
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|n| !n.is_empty() && !n.starts_with(|c: char| c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// Whether `name` is a shell variable name.
pub(super) fn is_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}
