//! Values the line shows a variable may hold ([`Script::held`]): which
//! variables a word expands, and the word with one of their values put in
//! its place. Takes words and held values; returns words. Pure.

use super::types::{Held, Script};
use super::word::Word;

/// The longest value a variable is read again with.
const MAX_VARIANT_BYTES: usize = 4 << 10;

/// The readings of `words` with one variable's value put in its place
/// (`cat $f` after `for f in ~/.ssh/id_rsa`: `cat ~/.ssh/id_rsa`), one
/// value a reading, at most `max`; each with the variable's name.
/// `read_values` gives the words a `read` (by command index) reads,
/// where the line shows them.
pub fn variants(
    words: &[Word],
    script: &Script,
    max: usize,
    read_values: impl Fn(usize) -> Vec<Word>,
) -> Vec<(String, Vec<Word>)> {
    let mut variants = Vec::new();
    if script.held.is_empty() {
        return variants;
    }
    for (at, word) in words.iter().enumerate().filter(|(_, w)| w.dynamic) {
        for name in referenced_names(&word.source) {
            let held = script.held.iter().filter(|(n, _)| *n == name);
            // `"$@"`, `"${a[@]}"`: every word of one call or array, in order.
            if expands_all(&word.source, &name) {
                // `read -a a`: the words of the line it reads.
                let lists = held.clone().filter_map(|(_, held)| match held {
                    Held::Words(list) => Some(list.clone()),
                    Held::Read(index) => Some(read_values(*index)).filter(|l| !l.is_empty()),
                    Held::Word(_) => None,
                });
                for list in lists {
                    let size: usize = list.iter().map(|w| w.value.len()).sum();
                    if size > MAX_VARIANT_BYTES {
                        continue;
                    }
                    if variants.len() >= max {
                        return variants;
                    }
                    let mut variant = words.get(..at).unwrap_or(&[]).to_vec();
                    variant.extend(list.iter().cloned());
                    variant.extend(words.get(at + 1..).unwrap_or(&[]).iter().cloned());
                    variants.push((name.clone(), variant));
                }
            }
            let values = held.flat_map(|(_, held)| match held {
                Held::Word(value) => vec![value.clone()],
                Held::Read(index) => read_values(*index),
                Held::Words(_) => Vec::new(),
            });
            // A longer value is not read again (the reading with the
            // variable unknown stands): each reading costs its length.
            for value in values.filter(|v| v.value.len() <= MAX_VARIANT_BYTES) {
                if variants.len() >= max {
                    return variants;
                }
                variants.push((name.clone(), put_in(words, at, &name, &value)));
            }
        }
    }
    variants
}

/// Whether `source` is one expansion of all of `name`'s words: `"$@"`,
/// `$@`, `"${a[@]}"`, `${a[*]}`.
fn expands_all(source: &str, name: &str) -> bool {
    let whole = source.trim_matches('"');
    if name == "@" || name == "*" {
        whole == format!("${name}") || whole == format!("${{{name}}}")
    } else {
        whole == format!("${{{name}[@]}}") || whole == format!("${{{name}[*]}}")
    }
}

/// The names of the variables a word's source expands: `$f`, `${f}`,
/// `${f:-x}`, `${a[@]}`, and the positional `$1`, `$@`, `$*`.
pub fn referenced_names(source: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find('$') {
        rest = rest.get(at + 1..).unwrap_or("");
        let after = rest.strip_prefix('{').unwrap_or(rest);
        let name = match after.chars().next() {
            Some(c @ ('@' | '*' | '0'..='9')) => c.to_string(),
            _ => {
                let end = after
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                let name = after.get(..end).unwrap_or("");
                if name.starts_with(|c: char| c.is_ascii_digit()) {
                    continue;
                }
                name.to_string()
            }
        };
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// `words` with the word at `at` replaced by what it expands to with
/// `value` for `name`: [`put_value`], split at blanks where the expansion
/// is not quoted (`cat $f` with `f="a /etc/shadow"` reads two files).
pub fn put_in(words: &[Word], at: usize, name: &str, value: &Word) -> Vec<Word> {
    let Some(word) = words.get(at) else {
        return words.to_vec();
    };
    let put = put_value(word, name, value);
    let quoted =
        word.source.len() > 1 && word.source.starts_with('"') && word.source.ends_with('"');
    let parts: Vec<Word> = if !quoted && !put.dynamic && put.value.contains([' ', '\t', '\n']) {
        put.value
            .split([' ', '\t', '\n'])
            .filter(|part| !part.is_empty())
            .map(|part| {
                let mut split = Word::literal(part);
                split.glob = put.glob || part.contains(['*', '?', '[']);
                split
            })
            .collect()
    } else {
        vec![put]
    };
    let mut put_in = words.get(..at).unwrap_or(&[]).to_vec();
    put_in.extend(parts);
    put_in.extend(words.get(at + 1..).unwrap_or(&[]).iter().cloned());
    put_in
}

/// `word` with the expansion of `name` replaced by `value`: `value`
/// itself where the word is only that expansion (`"$f"`), else the word
/// with its text put in. What an expansion with an operator (`${f%.pub}`,
/// `${a[0]}`) makes of the value is not worked out: it stays, only known
/// at run time, under the value's folder.
pub fn put_value(word: &Word, name: &str, value: &Word) -> Word {
    let whole = word.source.trim_matches('"');
    if whole == format!("${name}") || whole == format!("${{{name}}}") {
        return value.clone();
    }
    let mut put = word.clone();
    put.value = replace_expansions(&word.value, name, &value.value);
    put.source = replace_expansions(&word.source, name, &value.value);
    put.tilde = word.value.starts_with('$') && value.tilde;
    put.dynamic = value.dynamic || put.value.contains('$');
    put.glob |= value.glob;
    put.substitution |= value.substitution;
    put
}

/// `text` with each `$name` and `${name}` replaced by `value`, and each
/// `${name…}` put under `value`'s folder.
fn replace_expansions(text: &str, name: &str, value: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let after = from.get(1..).unwrap_or("");
        if let Some(braced) = after.strip_prefix('{')
            && let Some(tail) = braced.strip_prefix(name)
            && !tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            && let Some(end) = tail.find('}')
        {
            if end == 0 {
                out.push_str(value);
            } else {
                // `${f%.pub}`: some text made of the value, under its folder.
                let folder = value
                    .rfind('/')
                    .map_or("", |at| value.get(..=at).unwrap_or(""));
                out.push_str(folder);
                out.push_str(from.get(..2 + name.len() + end + 1).unwrap_or(""));
            }
            rest = tail.get(end + 1..).unwrap_or("");
        } else if let Some(tail) = after.strip_prefix(name)
            && !tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        {
            out.push_str(value);
            rest = tail;
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_a_word_expands() {
        assert_eq!(referenced_names("\"$f\""), ["f"]);
        assert_eq!(referenced_names("${a[@]}/x$HOME"), ["a", "HOME"]);
        assert_eq!(referenced_names("$1 \"$@\" $*"), ["1", "@", "*"]);
        assert_eq!(referenced_names("$(pwd) $$"), Vec::<String>::new());
    }

    #[test]
    fn values_put_in_place() {
        assert_eq!(replace_expansions("$f/x", "f", "~/.ssh"), "~/.ssh/x");
        assert_eq!(replace_expansions("${f}a", "f", "id_rs"), "id_rsa");
        // `$foo` is another variable.
        assert_eq!(replace_expansions("$foo $f", "f", "v"), "$foo v");
        // An operator's result stays unknown, under the value's folder.
        assert_eq!(
            replace_expansions("${f%.pub}", "f", "~/.ssh/id_rsa.pub"),
            "~/.ssh/${f%.pub}"
        );
        let mut word = Word::literal("$f");
        word.dynamic = true;
        let mut value = Word::literal("~/.ssh/id_rsa");
        value.tilde = true;
        assert_eq!(put_value(&word, "f", &value), value);
    }
}
