//! Wrapper peeling: one argv in, one step towards the command that really
//! runs out.
//!
//! `sudo -u bob env FOO=1 timeout 5 rm -rf x` is peeled one wrapper at a
//! time, using the wrapper table in `rules/wrappers.json`; the engine calls
//! [`peel`] until it returns [`Step::Verb`], and applies each wrapper's class
//! as a floor under the inner command's. Shells (`bash -c`), `eval` and
//! `watch` hand back a script to parse again.
#![deny(clippy::indexing_slicing)]

mod split_string;

use crate::feeds::Fed;
use crate::paths::{self, Location};
use crate::rules::{self, Wrapper, WrapperMode};
use crate::shell::Word;
use crate::verdict::Effect;
use std::path::PathBuf;

/// The result of peeling one layer.
#[derive(Debug)]
pub enum Step {
    /// `words[0]` is not a wrapper: it is the command.
    Verb,
    /// A wrapper around an inner command.
    Inner {
        /// The wrapper's name.
        wrapper: &'static str,
        /// Its class (a floor under the inner command's).
        class: Effect,
        /// The inner command's words.
        inner: Vec<Word>,
        /// A folder the inner command runs in (`env -C`, `sudo -D`).
        cwd: Option<Word>,
    },
    /// A script to parse again as shell (`bash -c S`, `eval S`, `su -c S`).
    Script {
        /// Who runs it (`bash -c`, `eval` …).
        wrapper: String,
        /// Its class.
        class: Effect,
        /// The script as one word (dynamic when not literal).
        script: Word,
    },
    /// A shell that reads its script from stdin (`bash`, `sh -s`).
    ShellStdin {
        /// The shell.
        wrapper: &'static str,
    },
    /// A shell running a script file by path (`bash build.sh`).
    ShellFile {
        /// The shell.
        wrapper: &'static str,
        /// The script path.
        file: Word,
    },
    /// Two readings of the same call, both judged: the usual one, and the
    /// inner words as written. `watch a b` runs `sh -c "a b"` (quotes lost)
    /// but `watch -x a b` and other watches run argv; `xargs cmd` appends
    /// stdin's words, but with empty stdin GNU xargs runs `cmd` as is.
    Either {
        /// The usual reading.
        main: Box<Step>,
        /// The inner command's words as written.
        also: Vec<Word>,
    },
    /// The wrapper runs nothing else (`sudo -i`, `command -v x`).
    Alone {
        /// The wrapper's name.
        wrapper: &'static str,
        /// The class it has alone.
        class: Effect,
    },
}

/// The command name as the tables know it: the last path component of
/// `/bin/rm`, when the path is a standard program folder.
pub fn verb_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// Peels one layer off `words` (`words[0]` is the candidate wrapper).
pub fn peel(words: &[Word]) -> Step {
    peel_fed(words, None)
}

/// [`peel`], knowing the words the command's stdin hands on
/// (`feeds::stdin_operands`): `xargs` passes them to its command as
/// `parallel … :::` does its own. Where stdin holds more words than the
/// line shows, they are passed beside the unknown rest; where a replace
/// string (`-I{}`) takes one of several words at a time, the caller reads
/// the command once for each.
pub fn peel_fed(words: &[Word], fed: Option<&Fed>) -> Step {
    let Some(first) = words.first() else {
        return Step::Verb;
    };
    let written = verb_name(&first.value);
    // Programs are found as the file system finds them, and macOS's
    // ignores case (`BASH -c`, `Sudo`, `XARGS`); builtins are not.
    let lower = written.to_ascii_lowercase();
    let name = lower.as_str();
    if rules::is_shell(name) {
        return peel_shell(words);
    }
    if written == "eval" {
        // `eval -- words`: bash's builtins take `--` before operands.
        let skip = if words.get(1).is_some_and(|w| w.value == "--") {
            2
        } else {
            1
        };
        return Step::Script {
            wrapper: "eval".into(),
            class: Effect::Inspect,
            script: join(words.get(skip..).unwrap_or(&[])),
        };
    }
    if written == "trap" {
        return peel_trap(words);
    }
    match rules::wrapper(name) {
        Some(w) => peel_wrapper(w, words, fed),
        None => Step::Verb,
    }
}

/// `trap ACTION SIGNAL…`: bash runs ACTION as a script when the signal
/// comes (`EXIT` comes for certain). `trap -p`, `trap -l`, `trap - SIG` and
/// `trap '' SIG` run nothing.
fn peel_trap(words: &[Word]) -> Step {
    let mut i = 1;
    if words.get(i).is_some_and(|w| w.value == "--") {
        i += 1;
    }
    match words.get(i) {
        Some(action)
            if !action.value.is_empty()
                && action.value != "-"
                && !(i == 1 && action.value.starts_with('-')) =>
        {
            Step::Script {
                wrapper: "trap".into(),
                class: Effect::Inspect,
                script: action.clone(),
            }
        }
        _ => Step::Verb,
    }
}

/// Joins words with spaces, as `eval` and `watch` do. The result is
/// dynamic if any part is.
fn join(words: &[Word]) -> Word {
    let mut out = Word::default();
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            out.value.push(' ');
            out.source.push(' ');
        }
        out.value.push_str(&w.value);
        out.source.push_str(&w.source);
        out.dynamic |= w.dynamic;
        out.substitution |= w.substitution;
    }
    out
}

fn peel_shell(words: &[Word]) -> Step {
    let wrapper = shell_name(words.first().map_or("", |w| w.value.as_str()));
    let mut i = 1;
    let mut command_mode = false;
    let mut stdin_mode = false;
    while let Some(word) = words.get(i) {
        let w = word.value.as_str();
        if w == "--" || w == "-" {
            i += 1;
            break;
        }
        if (w.starts_with('-') || w.starts_with('+')) && w.len() > 1 {
            if rules::SHELL_VALUE_OPTS.contains(&w) {
                i += 2;
                continue;
            }
            if !w.starts_with("--") {
                let letters = &w[1..];
                if letters.contains('c') {
                    command_mode = true;
                }
                if letters.contains('s') {
                    stdin_mode = true;
                }
                // `-o opt` / `-O opt` inside a cluster consume the next word.
                if letters.ends_with('o') || letters.ends_with('O') {
                    i += 1;
                }
            }
            i += 1;
            continue;
        }
        break;
    }
    if command_mode {
        return match words.get(i) {
            Some(script) => Step::Script {
                wrapper: format!("{wrapper} -c"),
                class: Effect::Inspect,
                script: script.clone(),
            },
            None => Step::Alone {
                wrapper,
                class: Effect::Exec,
            },
        };
    }
    if stdin_mode {
        return Step::ShellStdin { wrapper };
    }
    match words.get(i) {
        Some(file) => Step::ShellFile {
            wrapper,
            file: file.clone(),
        },
        None => Step::ShellStdin { wrapper },
    }
}

/// The static name of a shell, for messages.
fn shell_name(word: &str) -> &'static str {
    let name = verb_name(word).to_ascii_lowercase();
    rules::SHELLS
        .iter()
        .find(|s| **s == name)
        .copied()
        .unwrap_or("sh")
}

/// How many `env -S` strings one call is split into, at most (each may
/// hold another `-S`).
const MAX_SPLITS: u8 = 8;

fn peel_wrapper(w: &'static Wrapper, words: &[Word], fed: Option<&Fed>) -> Step {
    peel_wrapper_splitting(w, words, fed, MAX_SPLITS)
}

fn peel_wrapper_splitting(
    w: &'static Wrapper,
    words: &[Word],
    fed: Option<&Fed>,
    splits_left: u8,
) -> Step {
    let mut i = 1;
    let mut cwd = None;
    let mut skipped_operands = 0u8;
    let mut replace: Option<String> = None;
    while let Some(word) = words.get(i) {
        // `env --un NAME`: getopt takes an unambiguous start of a long
        // option for the option.
        let expanded = long_option_abbreviated(&word.value, w);
        let v = expanded.as_deref().unwrap_or(word.value.as_str());
        if v == "--" {
            i += 1;
            break;
        }
        // `env -` is `env -i` (an empty environment), and `su -` a login
        // shell: an option, not the command.
        if v == "-" && w.skip_assignments {
            i += 1;
            continue;
        }
        if let Some(found) = replace_string(v, words.get(i + 1), w.replace_opts) {
            i += if found.1 { 2 } else { 1 };
            replace = Some(found.0);
            continue;
        }
        // `command -v x`, `command -pv x`: a cluster holding a lookup
        // option only looks the name up.
        let looks_up_in_cluster = cluster_letters(v)
            .is_some_and(|letters| letters.chars().all(|c| c.is_ascii_alphabetic()))
            && first_in_cluster(v, &[w.lookup_opts]).is_some();
        if w.lookup_opts.contains(&v) || looks_up_in_cluster {
            return Step::Alone {
                wrapper: w.name,
                class: Effect::Inspect,
            };
        }
        // `su -c CMD`, or a cluster ending in a script option (`script -qc CMD`).
        let clustered = v.len() > 2
            && v.starts_with('-')
            && !v.starts_with("--")
            && v[1..].chars().all(|c| c.is_ascii_alphabetic())
            && w.script_opts
                .contains(&format!("-{}", &v[v.len() - 1..]).as_str());
        if w.script_opts.contains(&v) || clustered {
            return match words.get(i + 1) {
                Some(script) => Step::Script {
                    wrapper: format!("{} {v}", w.name),
                    class: w.class,
                    script: script.clone(),
                },
                None => Step::Alone {
                    wrapper: w.name,
                    class: w.alone,
                },
            };
        }
        if let Some(script) = attached_value(v, w.script_opts) {
            let mut s = word.clone();
            s.value = script.to_string();
            return Step::Script {
                wrapper: w.name.to_string(),
                class: w.class,
                script: s,
            };
        }
        let split = match clustered_split(v, w) {
            _ if w.split_opts.contains(&v) => words.get(i + 1).map(|s| (s.clone(), i + 2)),
            Some("") => words.get(i + 1).map(|s| (s.clone(), i + 2)),
            Some(rest) => {
                let mut x = word.clone();
                x.value = rest.to_string();
                Some((x, i + 1))
            }
            None => attached_value(v, w.split_opts).map(|s| {
                let mut x = word.clone();
                x.value = s.to_string();
                (x, i + 1)
            }),
        };
        if let Some((string, next)) = split {
            // `env -S '-C dir rm -rf /'`: the string is split into words (as
            // env splits it, not as a shell does) that stand where it stood,
            // options of env's own included, and the words after it follow.
            let split_words = split_string::split(&string.value).filter(|_| !string.dynamic);
            let Some(split_words) = split_words.filter(|_| splits_left > 0) else {
                // Known only when it runs, refused by env, or split again
                // and again: not vouched for.
                let mut script = string;
                script.dynamic = true;
                return Step::Script {
                    wrapper: format!("{} -S", w.name),
                    class: w.class,
                    script,
                };
            };
            let mut spliced: Vec<Word> = words.iter().take(i).cloned().collect();
            spliced.extend(split_words.into_iter().map(|split| {
                let mut word = Word::literal(&split.text);
                word.dynamic = split.expands;
                word
            }));
            spliced.extend(words.iter().skip(next).cloned());
            return peel_wrapper_splitting(w, &spliced, fed, splits_left - 1);
        }
        if w.cwd_opts.contains(&v) {
            cwd = words.get(i + 1).cloned();
            i += 2;
            continue;
        }
        if let Some(dir) = attached_value(v, w.cwd_opts) {
            let mut d = word.clone();
            d.value = dir.to_string();
            cwd = Some(d);
            i += 1;
            continue;
        }
        if w.value_opts.contains(&v) {
            i += 2;
            continue;
        }
        if v.len() > 1 && v.starts_with('-') {
            if w.numeric_opts && v[1..].chars().all(|c| c.is_ascii_digit()) {
                i += 1;
                continue;
            }
            // Flags clustered before an option that takes a value, as
            // getopt reads them: the value is the rest of the cluster, or
            // the next word when the option ends it (`env -iu NAME cmd`,
            // `sudo -Eu root cmd`).
            if let Some((option, rest)) = clustered_value(v, w) {
                let value = if rest.is_empty() {
                    i += 1;
                    words.get(i).cloned()
                } else {
                    let mut value = word.clone();
                    value.value = rest.to_string();
                    Some(value)
                };
                if w.cwd_opts.contains(&option.as_str()) {
                    cwd = value;
                }
                i += 1;
                continue;
            }
            // A short option with an attached value (`-n10`, `-uroot`) or
            // flags without values.
            i += 1;
            continue;
        }
        if w.skip_assignments && is_assignment(v) {
            i += 1;
            continue;
        }
        if skipped_operands < w.skip_operands {
            skipped_operands += 1;
            i += 1;
            continue;
        }
        break;
    }
    if w.only_script {
        return Step::Alone {
            wrapper: w.name,
            class: w.alone,
        };
    }
    let mut inner: Vec<Word> = words.get(i..).unwrap_or(&[]).to_vec();
    // `parallel CMD ::: a b`: the words after `:::` are the arguments, given
    // in the line itself (`::::` names files of arguments: unknown).
    let mut given_arguments: Option<Vec<Word>> = None;
    if !w.stop_words.is_empty()
        && let Some(stop) = inner
            .iter()
            .position(|x| w.stop_words.contains(&x.value.as_str()))
    {
        let literal = inner.get(stop).is_some_and(|x| x.value == ":::");
        let rest: Vec<Word> = inner
            .iter()
            .skip(stop + 1)
            .take_while(|x| !w.stop_words.contains(&x.value.as_str()))
            .cloned()
            .collect();
        inner.truncate(stop);
        if literal {
            given_arguments = Some(rest);
        }
    }
    let fed = fed.filter(|_| {
        w.mode == WrapperMode::Xargs
            && given_arguments.is_none()
            && !reads_argument_file(words.get(1..i).unwrap_or(&[]))
    });
    // `-I{}` takes a line at a time: one line is its argument; with more,
    // the caller reads each.
    let by_line = replace.is_some() || w.name == "parallel";
    let fed_words = fed.map(|f| if by_line { &f.lines } else { &f.words });
    if let (Some(fed), Some(words)) = (fed, fed_words)
        && fed.complete
        && (!by_line || words.len() == 1)
    {
        given_arguments = Some(words.clone());
    }
    // Where the words are appended, the command is judged as written too
    // (plain xargs runs it so when stdin is empty, as a later change to
    // the line may make it): the stricter reading wins. Where one line
    // takes the place of `{}`, no line runs nothing.
    let also_as_written = given_arguments.is_some() && fed.is_some();
    let as_written = inner.clone();
    let fed_finish = |expanded: Vec<Word>, cwd: Option<Word>, appended: bool| {
        let main = finish(w, expanded, cwd);
        if also_as_written && appended {
            Step::Either {
                main: Box::new(main),
                also: as_written.clone(),
            }
        } else {
            main
        }
    };
    // One operand with blanks (`watch 'git status'`) is only a script: no
    // program is called `git status`.
    if w.mode == WrapperMode::Join
        && matches!(inner.as_slice(), [only] if only.value.contains(char::is_whitespace))
    {
        return Step::Script {
            wrapper: w.name.to_string(),
            class: w.class,
            script: join(&inner),
        };
    }
    if w.mode == WrapperMode::Join && !inner.is_empty() {
        return Step::Either {
            main: Box::new(Step::Script {
                wrapper: w.name.to_string(),
                class: w.class,
                script: join(&inner),
            }),
            also: inner,
        };
    }
    if w.mode == WrapperMode::Xargs && !inner.is_empty() {
        // stdin supplies words only known at run time: where the replace
        // string stands (`xargs -I{} sh -c {}`), or after the command.
        let placeholder = replace.or_else(|| (w.name == "parallel").then(|| "{}".to_string()));
        // Arguments written in the line: each word with the placeholder
        // stands for one word per argument (the union of what runs).
        if let (Some(arguments), Some(placeholder)) = (&given_arguments, &placeholder)
            && inner
                .iter()
                .skip(1)
                .any(|x| x.value.contains(placeholder.as_str()))
        {
            let mut expanded: Vec<Word> = inner.iter().take(1).cloned().collect();
            for word in inner.iter().skip(1) {
                if word.value.contains(placeholder.as_str()) {
                    for argument in arguments {
                        let mut each = word.clone();
                        each.value = word.value.replace(placeholder.as_str(), &argument.value);
                        // A word that is only the placeholder becomes the
                        // argument (find's `{}` may have marked it unknown).
                        each.dynamic = argument.dynamic
                            || (word.dynamic && word.value != placeholder.as_str());
                        each.glob |= argument.glob;
                        each.tilde = argument.tilde && word.value.starts_with(placeholder.as_str());
                        expanded.push(each);
                    }
                } else {
                    expanded.push(word.clone());
                }
            }
            return fed_finish(expanded, cwd, false);
        }
        let mut replaced = false;
        if let Some(placeholder) = placeholder.filter(|p| !p.is_empty()) {
            for word in inner.iter_mut().skip(1) {
                if word.value.contains(&placeholder) {
                    word.dynamic = true;
                    replaced = true;
                }
            }
        }
        if let Some(arguments) = given_arguments.take().filter(|_| !replaced) {
            inner.extend(arguments);
            return fed_finish(inner, cwd, true);
        } else if !replaced {
            let as_written = inner.clone();
            if let Some(fed) = fed.filter(|f| !f.complete) {
                inner.extend(fed.words.iter().cloned());
            }
            let mut more = Word::literal("<stdin>");
            more.dynamic = true;
            more.source = STDIN_OPERANDS.into();
            inner.push(more);
            return Step::Either {
                main: Box::new(finish(w, inner, cwd)),
                also: as_written,
            };
        }
    }
    finish(w, inner, cwd)
}

/// How the words `xargs` takes from stdin stand in its command, when
/// the line does not show them.
pub const STDIN_OPERANDS: &str = "<operands from stdin>";

/// Whether the options `xargs` (or another wrapper `w`) is written with,
/// the words after its name, name a file of arguments. Its options end at
/// the first word that is not one, after the values of those that take
/// one (`xargs -I {} -a list cat`; `xargs -0 mogrify -quality 5` has none).
pub fn names_argument_file(w: &Wrapper, after: &[Word]) -> bool {
    let mut own = 0;
    while let Some(word) = after.get(own) {
        let v = word.value.as_str();
        if v == "--" || !v.starts_with('-') || v.len() < 2 {
            break;
        }
        own += if w.value_opts.contains(&v) { 2 } else { 1 };
    }
    reads_argument_file(after.get(..own.min(after.len())).unwrap_or(&[]))
}

/// Whether a wrapper's own options name a file of arguments (`xargs -a
/// FILE`, `--arg-file=FILE`), which it reads instead of stdin.
fn reads_argument_file(own: &[Word]) -> bool {
    own.iter().any(|w| {
        let v = w.value.as_str();
        v.starts_with("--arg-file")
            || (v.starts_with("-a") && !v.starts_with("--"))
            || (v.starts_with('-') && !v.starts_with("--") && v.contains('a') && v.len() > 2)
    })
}

fn finish(w: &'static Wrapper, inner: Vec<Word>, cwd: Option<Word>) -> Step {
    if inner.is_empty() {
        return Step::Alone {
            wrapper: w.name,
            class: w.alone,
        };
    }
    Step::Inner {
        wrapper: w.name,
        class: w.class,
        inner,
        cwd,
    }
}

/// The replace string an option sets (`-I X`, `-IX`, `-i`, `-iX`,
/// `--replace`, `--replace=X`), and whether it took the next word.
fn replace_string(word: &str, next: Option<&Word>, opts: &[&str]) -> Option<(String, bool)> {
    for opt in opts {
        if word == *opt {
            return match *opt {
                // GNU `-I R`, BSD `-J R`: the string is the next word.
                "-I" | "-J" => next.map(|n| (n.value.clone(), true)),
                _ => Some(("{}".to_string(), false)),
            };
        }
        if let Some(rest) = word.strip_prefix(opt) {
            if let Some(value) = rest.strip_prefix('=').filter(|_| opt.starts_with("--")) {
                return Some((value.to_string(), false));
            }
            if opt.len() == 2 && !rest.is_empty() {
                return Some((rest.to_string(), false));
            }
        }
    }
    None
}

/// The long option of the wrapper's lists that `word` abbreviates, as
/// getopt_long reads it (`--un` for `--unset`, `--chd=/` for `--chdir=/`),
/// with its attached value; `None` for an option written whole, or one
/// the lists do not hold (a flag without a value: skipped as before).
/// Sound while no flag of a wrapper is a proper start of an option its
/// lists hold (checked by hand for every wrapper on 2026-12-04): getopt
/// would take the flag written whole for itself.
fn long_option_abbreviated(word: &str, w: &Wrapper) -> Option<String> {
    let option = word.strip_prefix("--").filter(|o| !o.is_empty())?;
    let (name, value) = match option.split_once('=') {
        Some((name, value)) => (name, Some(value)),
        None => (option, None),
    };
    let lists = [
        w.value_opts,
        w.cwd_opts,
        w.split_opts,
        w.script_opts,
        w.lookup_opts,
        w.replace_opts,
    ];
    let long_options = lists
        .iter()
        .flat_map(|list| list.iter())
        .filter_map(|o| o.strip_prefix("--"));
    if long_options.clone().any(|o| o == name) {
        return None;
    }
    let full = long_options.filter(|o| o.starts_with(name)).min()?;
    Some(match value {
        Some(value) => format!("--{full}={value}"),
        None => format!("--{full}"),
    })
}

/// The letters of a one-dash cluster of short options (`-iu` gives `iu`).
fn cluster_letters(word: &str) -> Option<&str> {
    word.strip_prefix('-')
        .filter(|l| l.len() > 1 && !l.starts_with('-'))
}

/// The first letter of a one-dash cluster that is an option in `lists`
/// (as `-L`), and the rest of the cluster after it: its value, or empty
/// when the value is the next word. `-iu` gives (`-u`, ``), `-n5` gives
/// (`-n`, `5`), as getopt reads them.
fn first_in_cluster<'a>(word: &'a str, lists: &[&[&str]]) -> Option<(String, &'a str)> {
    let letters = cluster_letters(word)?;
    letters.char_indices().find_map(|(at, letter)| {
        let option = format!("-{letter}");
        lists
            .iter()
            .any(|list| list.contains(&option.as_str()))
            .then(|| (option, letters.get(at + letter.len_utf8()..).unwrap_or("")))
    })
}

/// The split-string option of a one-dash cluster, after letters that
/// take no value (`env -iS 'cmd'`, `env -vS'cmd'`): the rest of the
/// cluster, empty when the string is the next word. A letter that takes
/// a value first (`env -uS`) takes the rest.
fn clustered_split<'a>(word: &'a str, w: &Wrapper) -> Option<&'a str> {
    let lists = [w.split_opts, w.value_opts, w.cwd_opts, w.script_opts];
    first_in_cluster(word, &lists)
        .filter(|(option, _)| w.split_opts.contains(&option.as_str()))
        .map(|(_, rest)| rest)
}

/// The first option of a one-dash cluster that takes a value (a value
/// or folder option of the wrapper), and its value (see
/// [`first_in_cluster`]).
fn clustered_value<'a>(word: &'a str, w: &Wrapper) -> Option<(String, &'a str)> {
    first_in_cluster(word, &[w.value_opts, w.cwd_opts])
}

/// `--opt=value` or `-Xvalue` for an option in `opts`.
fn attached_value<'a>(word: &'a str, opts: &[&str]) -> Option<&'a str> {
    for opt in opts {
        if let Some(rest) = word.strip_prefix(opt) {
            if opt.starts_with("--") {
                if let Some(value) = rest.strip_prefix('=') {
                    return Some(value);
                }
            } else if opt.len() == 2 && !rest.is_empty() {
                return Some(rest);
            }
        }
    }
    None
}

/// `NAME=value`.
pub fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

/// Folders whose programs are the system's own: `/usr/bin/rm` is `rm`, while
/// `./rm` or `/tmp/x/rm` is a script that happens to share the name.
#[rustfmt::skip]
const PROGRAM_FOLDERS: &[&str] = &[
    "/bin", "/opt/homebrew/bin", "/opt/homebrew/sbin", "/sbin", "/snap/bin", "/usr/bin",
    "/usr/local/bin", "/usr/local/sbin", "/usr/sbin",
];

/// The verb the tables know for a written command name, and whether it is a
/// program run by path (a script) rather than a system program.
pub fn verb_of(written: &str) -> (&str, bool) {
    if !written.contains('/') {
        return (written, false);
    }
    let normal = paths::normalise(std::path::Path::new(written));
    let folder = normal
        .parent()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = verb_name(written);
    let system = written.starts_with('/') && PROGRAM_FOLDERS.contains(&folder.as_str());
    (name, !system)
}

/// The index of the first operand: options (and the values of those in
/// `value_opts`) are skipped, and `--` ends them.
pub fn first_operand(args: &[Word], value_opts: &[&str]) -> usize {
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let v = word.value.as_str();
        if v == "--" {
            return i + 1;
        }
        if v.len() > 1 && v.starts_with('-') {
            i += if value_opts.contains(&v) { 2 } else { 1 };
            continue;
        }
        break;
    }
    i
}

/// ssh options that take a value.
#[rustfmt::skip]
const SSH_VALUE_OPTS: &[&str] = &[
    "-B", "-D", "-E", "-F", "-I", "-J", "-L", "-O", "-P", "-Q", "-R", "-S", "-W", "-b", "-c",
    "-e", "-i", "-l", "-m", "-o", "-p", "-w",
];

/// The command `ssh [options] host CMD…` runs on the other machine, as one
/// word (ssh joins its words with spaces); `None` for an interactive login.
pub fn ssh_remote_command(args: &[Word]) -> Option<Word> {
    let i = first_operand(args, SSH_VALUE_OPTS);
    let command = args.get(i + 1..).filter(|rest| !rest.is_empty())?;
    Some(join(command))
}

/// The commands `find -exec … ;` (and `-execdir`, `-ok`, `-okdir`) runs.
pub fn find_exec_commands(args: &[Word]) -> Vec<Vec<Word>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(word) = args.get(i) {
        if matches!(word.value.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            let mut inner: Vec<Word> = args
                .iter()
                .skip(i + 1)
                .take_while(|w| !matches!(w.value.as_str(), ";" | "+"))
                .cloned()
                .collect();
            let end = i + 1 + inner.len();
            for w in &mut inner {
                if w.value.contains("{}") {
                    w.dynamic = true;
                }
            }
            if let Some(name) = inner.first_mut() {
                // The name itself is literal even when it is `{}`-free.
                name.dynamic = name.value.contains("{}");
                out.push(inner);
            }
            i = end + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// `find` without its `-exec … ;` segments, so the lexicon judges find alone.
pub fn strip_find_exec(words: &[Word]) -> Vec<Word> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(word) = words.get(i) {
        if matches!(word.value.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            while words
                .get(i)
                .is_some_and(|w| !matches!(w.value.as_str(), ";" | "+"))
            {
                i += 1;
            }
            i += 1;
        } else {
            out.push(word.clone());
            i += 1;
        }
    }
    out
}

/// The folder `git -C DIR …` runs in (each `-C` relative to the one
/// before, as git reads them).
pub fn git_cwd(args: &[Word], location: &Location, cwd: Option<PathBuf>) -> Option<PathBuf> {
    crate::git::read(args).dirs.iter().fold(cwd, |cwd, dir| {
        location.resolve_in(dir, cwd.as_deref()).path
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Word> {
        line.split_whitespace().map(Word::literal).collect()
    }

    fn inner(line: &str) -> Vec<String> {
        match peel(&words(line)) {
            Step::Inner { inner, .. } => inner.into_iter().map(|w| w.value).collect(),
            Step::Either { main, .. } => match *main {
                Step::Inner { inner, .. } => inner.into_iter().map(|w| w.value).collect(),
                other => panic!("{line}: {other:?}"),
            },
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn xargs_and_watch_are_also_read_as_written() {
        let Step::Either { also, .. } = peel(&words("xargs rm -f")) else {
            panic!("xargs rm -f: one reading");
        };
        assert_eq!(
            also.iter().map(|w| w.value.as_str()).collect::<Vec<_>>(),
            ["rm", "-f"]
        );
        let Step::Either { main, also } = peel(&words("watch -n 1 git status")) else {
            panic!("watch git status: one reading");
        };
        assert!(matches!(*main, Step::Script { script, .. } if script.value == "git status"));
        assert_eq!(also.len(), 2);
        // `xargs -I{}` with no input runs nothing: one reading.
        assert!(matches!(
            peel(&words("xargs -I{} rm {}")),
            Step::Inner { .. }
        ));
    }

    #[test]
    fn backquoted_bodies_are_split_and_unescaped_as_bash_does() {
        use crate::shell::parse::parse;
        let script = parse("echo `true``rm -rf /`");
        assert!(
            script.nested.iter().any(|n| n == "rm -rf /"),
            "{:?}",
            script.nested
        );
        let script = parse("echo `echo \\`rm x\\``");
        assert!(
            script.nested.iter().any(|n| n == "echo `rm x`"),
            "{:?}",
            script.nested
        );
    }

    #[test]
    fn peels_argv_wrappers() {
        assert_eq!(inner("sudo -u bob rm -rf x"), ["rm", "-rf", "x"]);
        assert_eq!(inner("env -i FOO=1 rm x"), ["rm", "x"]);
        assert_eq!(inner("timeout -s KILL 10 make"), ["make"]);
        assert_eq!(inner("nice -n 5 ls"), ["ls"]);
        assert_eq!(inner("nice -10 ls"), ["ls"]);
        assert_eq!(inner("xargs -I{} rm {}"), ["rm", "{}"]);
        assert_eq!(inner("xargs rm -f"), ["rm", "-f", "<stdin>"]);
        let inner_fed = |line: &str, fed: &str, complete: bool| {
            let fed = Fed {
                lines: fed.split(',').map(Word::literal).collect(),
                words: fed.split([',', ' ']).map(Word::literal).collect(),
                complete,
                listed: Default::default(),
            };
            let step = match peel_fed(&words(line), Some(&fed)) {
                Step::Either { main, .. } => *main,
                step => step,
            };
            match step {
                Step::Inner { inner, .. } => inner.into_iter().map(|w| w.value).collect(),
                _ => Vec::<String>::new(),
            }
        };
        assert_eq!(
            inner_fed("xargs rm -f", "a b", true),
            ["rm", "-f", "a", "b"]
        );
        assert_eq!(inner_fed("xargs -I{} rm {}", "a b", true), ["rm", "a b"]);
        // Several lines, one at a time: the caller reads each.
        assert_eq!(inner_fed("xargs -I{} rm {}", "a,b", true), ["rm", "{}"]);
        // More words than the line shows: the rest stays unknown.
        assert_eq!(inner_fed("xargs rm", "d", false), ["rm", "d", "<stdin>"]);
        // A file of arguments is read instead of stdin.
        assert_eq!(inner_fed("xargs -a list rm", "a", true), ["rm", "<stdin>"]);
        assert_eq!(inner("xargs -i rm -f {}"), ["rm", "-f", "{}"]);
        assert_eq!(inner("env -S rm"), ["rm"]);
        // A cluster ending in an option that takes a value takes the next
        // word; one with the value attached does not.
        assert_eq!(inner("env -iu ls rm -rf /"), ["rm", "-rf", "/"]);
        assert_eq!(inner("sudo -Eu root ls"), ["ls"]);
        assert_eq!(inner("nice -n5 ls"), ["ls"]);
        assert_eq!(inner("busybox rm -rf x"), ["rm", "-rf", "x"]);
        assert_eq!(inner("parallel rm ::: a b"), ["rm", "a", "b"]);
        assert_eq!(inner("flock /tmp/l rm x"), ["rm", "x"]);
    }

    #[test]
    fn shells_hand_back_scripts() {
        assert!(
            matches!(peel(&words("bash -lc ls")), Step::Script { script, .. } if script.value == "ls")
        );
        assert!(matches!(peel(&words("sh")), Step::ShellStdin { .. }));
        assert!(matches!(peel(&words("bash x.sh")), Step::ShellFile { .. }));
        assert!(matches!(peel(&words("su -c ls root")), Step::Script { .. }));
        assert!(matches!(
            peel(&words("command -v rg")),
            Step::Alone {
                class: Effect::Inspect,
                ..
            }
        ));
        assert!(matches!(peel(&words("ls")), Step::Verb));
    }
}
