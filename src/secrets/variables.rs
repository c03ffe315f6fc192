//! Secrets read through a variable whose value only run time knows but
//! the line shows (`for f in ~/.ssh/*; do cat $f; done`): takes a verb,
//! its words and the parsed line's [`Script::held`] values, puts each
//! value in its variable's place and asks [`secret_read`] again.

use super::secret_read;
use crate::feeds::{self, Listed};
use crate::paths::Location;
use crate::shell::{Held, Script, Stdin, Word};
use std::path::Path;

/// The most values of variables [`through_variables`] tries for one
/// command; past it, the command is judged as reading any file.
const MAX_HELD_TRIES: usize = 64;

/// How many variables deep a value is followed (`g=$f` after `for f in
/// …`).
const MAX_HELD_DEPTH: usize = 3;

/// Why `verb args` reads secrets through a variable whose value only run
/// time knows but the line shows (`for f in ~/.ssh/*; do cat $f; done`,
/// `x=$(find ~ -type f); cat $x`, `find ~ | while read f; do cat "$f";
/// done`, `f() { cat "$1"; }; f ~/.ssh/id_rsa`): each value it may hold is
/// put in its place and judged.
pub fn through_variables(
    verb: &str,
    args: &[Word],
    listed: Option<&Listed>,
    script: &Script,
    location: &Location,
    cwd: Option<&Path>,
) -> Option<String> {
    if script.held.is_empty() || !super::reads_content(verb) {
        return None;
    }
    let mut tries = 0;
    let judge = Judge {
        verb,
        listed,
        script,
        location,
        cwd,
    };
    judge.values(args, &[], &mut tries)
}

/// What [`through_variables`] judges with.
struct Judge<'a> {
    verb: &'a str,
    listed: Option<&'a Listed>,
    script: &'a Script,
    location: &'a Location,
    cwd: Option<&'a Path>,
}

impl Judge<'_> {
    fn read(&self, args: &[Word], listed: Option<&Listed>) -> Option<String> {
        secret_read(self.verb, args, listed, self.location, self.cwd)
    }

    /// The values the variables of `args`'s dynamic words may hold, each
    /// put in its place and judged; `through` are the variables already
    /// put in (`g=$f`: `$g`'s value is `$f`), not put in again.
    fn values(&self, args: &[Word], through: &[&str], tries: &mut usize) -> Option<String> {
        for (at, word) in args.iter().enumerate().filter(|(_, w)| w.dynamic) {
            let names = referenced_names(&word.source);
            for name in names.iter().filter(|n| !through.contains(&n.as_str())) {
                let held = self.script.held.iter().filter(|(n, _)| n == name);
                for (_, held) in held {
                    let (values, read_listed) = self.held_values(held);
                    *tries += values.len() + usize::from(read_listed.is_some());
                    if *tries > MAX_HELD_TRIES {
                        return Some(format!(
                            "reads {}, which may be any of more than {MAX_HELD_TRIES} values the line gives ${name}",
                            crate::limits::clip(&word.source, 60)
                        ));
                    }
                    let through_name = |why: String| format!("{why} (through ${name})");
                    for value in &values {
                        let mut given = args.to_vec();
                        if let Some(slot) = given.get_mut(at) {
                            *slot = put_value(word, name, value);
                        }
                        if let Some(why) = self.read(&given, self.listed) {
                            return Some(through_name(why));
                        }
                        // `g=$f`: the value is a variable of its own.
                        let deeper: Vec<&str> =
                            through.iter().copied().chain([name.as_str()]).collect();
                        if deeper.len() < MAX_HELD_DEPTH
                            && given.get(at).is_some_and(|w| w.dynamic)
                            && let Some(why) = self.values(&given, &deeper, tries)
                        {
                            return Some(through_name(why));
                        }
                    }
                    if let Some(read_listed) = read_listed.filter(|l| !l.is_empty())
                        && let Some(why) = self.read(args, Some(&read_listed))
                    {
                        return Some(through_name(why));
                    }
                }
            }
        }
        None
    }

    /// The words one held value may be, and where the names a `read`
    /// reads lie.
    fn held_values(&self, held: &Held) -> (Vec<Word>, Option<Listed>) {
        let index = match held {
            Held::Word(value) => return (vec![value.clone()], None),
            Held::Read(index) => *index,
        };
        let Some(command) = self.script.commands.get(index) else {
            // Past the command limit: not known.
            let unknown = Listed::unbounded("a command past the limit".into());
            return (Vec::new(), Some(unknown));
        };
        match feeds::stdin_operands(self.script, command) {
            Some(fed) => (fed.words, Some(fed.listed)),
            None => match &command.stdin {
                Stdin::File(file) if !feeds::is_stdin_word(file) => {
                    let from = format!("the file {}", crate::limits::clip(&file.value, 60));
                    (Vec::new(), Some(Listed::unbounded(from)))
                }
                // The hook's own stdin, as `cat $X` is judged.
                _ => (Vec::new(), None),
            },
        }
    }
}

/// The names of the variables a word's source expands: `$f`, `${f}`,
/// `${f:-x}`, `${a[@]}`, and the positional `$1`, `$@`, `$*`.
fn referenced_names(source: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find('$') {
        rest = rest.get(at + 1..).unwrap_or("");
        let after = rest.strip_prefix('{').unwrap_or(rest);
        let name = match after.chars().next() {
            Some(c @ ('@' | '*' | '1'..='9')) => c.to_string(),
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

/// `word` with the expansion of `name` replaced by `value`: `value`
/// itself where the word is only that expansion (`"$f"`), else the word
/// with its text put in. What an expansion with an operator (`${f%.pub}`,
/// `${a[0]}`) makes of the value is not worked out: it stays, only known
/// at run time, under the value's folder.
fn put_value(word: &Word, name: &str, value: &Word) -> Word {
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
