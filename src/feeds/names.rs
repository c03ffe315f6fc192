//! The names a command's stdin or a substitution hands on to the program
//! given them (`xargs`, `read`, an operand `$(…)`): the words the line
//! shows (a here-string, a literal `echo`), and where the others lie
//! ([`Listed`]: under a lister's folders, or anywhere). Takes a parsed
//! line and a command; returns a [`Fed`]. The secret check and the
//! engine's xargs and variable readings use it.
#![deny(clippy::indexing_slicing)]

use super::{echo_output, printf_output, producer_verb};
use crate::peel;
use crate::shell::{self, Script, SimpleCommand, Stdin, Word};

/// Programs that print their operands, each on its own (`echo $HOME`,
/// `realpath ~`): fed to `xargs`, those are words it passes on.
const ECHOERS: &[&str] = &["echo", "printf", "readlink", "realpath"];

/// Whether `producer` (its verb and words) prints `operand` as one of its
/// output words: an echoer always; `ls` for a glob or under `-d` (`ls
/// ~/.ssh/id_*` prints the names it matched, `ls DIR` only names inside
/// DIR); `find` under `-maxdepth 0` (it prints its start paths, and
/// otherwise only paths below them that its tests pass).
fn prints_itself(verb: &str, producer: &[Word], operand: &Word) -> bool {
    let has = |flag: &str| producer.iter().any(|w| w.value == flag);
    let ls_dirs = producer.iter().any(|w| {
        w.value == "--directory"
            || (w.value.starts_with('-') && !w.value.starts_with("--") && w.value.contains('d'))
    });
    match verb {
        _ if ECHOERS.contains(&verb) => true,
        "ls" => operand.glob || ls_dirs,
        "find" => {
            let depth_zero = producer.windows(2).any(
                |w| matches!(w, [flag, depth] if flag.value == "-maxdepth" && depth.value == "0"),
            );
            depth_zero && !has("-name") && is_find_start(producer, operand)
        }
        _ => false,
    }
}

/// Whether `operand` is one of find's start paths (before its first
/// expression word).
fn is_find_start(producer: &[Word], operand: &Word) -> bool {
    producer
        .iter()
        .skip(1)
        .skip_while(|w| matches!(w.value.as_str(), "-H" | "-L" | "-P" | "--"))
        .take_while(|w| !w.value.starts_with('-') && !matches!(w.value.as_str(), "(" | "!"))
        .any(|w| std::ptr::eq(w, operand))
}

/// The words a command's stdin hands to `xargs`, where the command line
/// shows them, each as written so `~` and `$HOME` keep their meaning.
#[derive(Clone, Debug, Default)]
pub struct Fed {
    /// Its lines, as `xargs -I{}` takes them one at a time.
    pub lines: Vec<Word>,
    /// Its words, as plain `xargs` splits them (blanks and quotes), with
    /// the lines too where a delimiter (`-0`, `-d`) may keep them whole.
    pub words: Vec<Word>,
    /// Whether these are all of stdin (a here-string, a literal heredoc, a
    /// literal `echo`/`printf`), or only the paths a lister was given (`ls
    /// DIR`, `find DIR` print more names, known at run time).
    pub complete: bool,
    /// Where the names the line does not show may lie.
    pub listed: Listed,
}

/// Where the file names a command's output hands on may lie, beyond the
/// words the line shows: under the folders a lister was given (`find ~`,
/// `ls ~/.ssh`, `git ls-files`), or anywhere, when a stage prints what the
/// line does not bound (`cat list.txt`, `sed …`). A program given such
/// names reads files under those folders (`find ~ | xargs cat`).
#[derive(Clone, Debug, Default)]
pub struct Listed {
    /// The folders (or files) the names lie under, as written.
    pub roots: Vec<Word>,
    /// A stage whose output may name any file, for the reason.
    pub unbounded: Option<String>,
}

impl Listed {
    /// Names from `what` (a file read as stdin: `xargs cat < list.txt`),
    /// which may be any file's.
    pub fn unbounded(what: String) -> Listed {
        Listed {
            roots: Vec::new(),
            unbounded: Some(what),
        }
    }

    /// Whether nothing beyond the words shown is known to be handed on.
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty() && self.unbounded.is_none()
    }
}

impl Fed {
    /// Adds the lines and words of literal `text`.
    fn add_text(&mut self, text: &str) {
        let mut seen: std::collections::HashSet<String> =
            self.words.iter().map(|w| w.value.clone()).collect();
        let lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        for line in lines {
            self.lines.push(Word::literal(line));
        }
        let quoted = shlex::split(text).unwrap_or_default();
        let blank = text.split(|c: char| c.is_whitespace() || c == '\0');
        let lines = text.lines().map(str::trim);
        for piece in quoted.iter().map(String::as_str).chain(blank).chain(lines) {
            if !piece.is_empty() && seen.insert(piece.to_string()) {
                self.words.push(Word::literal(piece));
            }
        }
    }

    /// Adds a word as written (a lister's operand, a here-string).
    fn add_word(&mut self, word: &Word) {
        self.lines.push(word.clone());
        self.words.push(word.clone());
    }
}

/// What a command's stdin hands to `xargs`: a here-string, a literal
/// heredoc or a literal `echo`/`printf` (complete), and the operands of a
/// lister piped in (`ls ~/.ssh/id_*`, `find ~/.ssh`: not complete).
/// `None` where nothing of stdin shows in the line.
pub fn stdin_operands(script: &Script, command: &SimpleCommand) -> Option<Fed> {
    let mut fed = Fed {
        complete: true,
        ..Fed::default()
    };
    match &command.stdin {
        Stdin::HereString(word) if word.dynamic || word.tilde => fed.add_word(word),
        Stdin::HereString(word) => fed.add_text(&word.value),
        Stdin::Heredoc {
            body,
            literal: true,
        } => fed.add_text(body),
        Stdin::Pipe(range) => {
            let Some(stages) = feeding_stages(script, range.clone()) else {
                fed.complete = false;
                fed.listed.unbounded = Some(format!(
                    "a pipeline of more than {MAX_FEEDING_STAGES} commands"
                ));
                return Some(fed);
            };
            for producer in stages {
                fed.add_stage(producer);
            }
        }
        // `< <(find ~)`: the file is the output of the commands inside.
        Stdin::File(file) if file.source.starts_with("<(") => {
            let body = file
                .source
                .strip_prefix("<(")
                .and_then(|b| b.strip_suffix(')'))?;
            return names_printed_by(body);
        }
        // `xargs cat < list.txt`: names from a file may be any file's.
        Stdin::File(file) if !super::is_stdin_word(file) => {
            fed.complete = false;
            let file = crate::limits::clip(&file.value, 60);
            fed.listed = Listed::unbounded(format!("the file {file}"));
        }
        _ => return None,
    }
    fed.shown()
}

impl Fed {
    /// Adds what one command prints: the text of a literal `echo` or
    /// `printf`, the operands a lister prints itself, and where the rest
    /// of its names lie.
    fn add_stage(&mut self, producer: &SimpleCommand) {
        let (verb, words) = producer_verb(&producer.words);
        let args: Vec<&str> = words.iter().skip(1).map(|w| w.value.as_str()).collect();
        let printed = match verb.as_str() {
            _ if words.iter().any(|w| w.dynamic || w.glob || w.tilde) => None,
            "echo" => echo_output(&args),
            "printf" => printf_output(&args),
            _ => None,
        };
        if let Some(text) = printed {
            self.add_text(&text);
            return;
        }
        self.complete = false;
        // Not the words an xargs of its own stands in for: they are
        // unknown, whatever is fed to it.
        let operands = words
            .iter()
            .skip(1)
            .filter(|w| !w.value.starts_with('-') && w.source != peel::STDIN_OPERANDS);
        for operand in operands.filter(|w| prints_itself(&verb, &words, w)) {
            self.add_word(operand);
        }
        list_stage(&verb, &words, self);
    }

    /// Itself, where it shows anything and holds no more words than a
    /// command line would (past that, judged as unknown).
    fn shown(self) -> Option<Fed> {
        let shown = !self.words.is_empty() || !self.lines.is_empty() || !self.listed.is_empty();
        (shown && self.words.len() <= MAX_FED_WORDS && self.lines.len() <= MAX_FED_WORDS)
            .then_some(self)
    }
}

/// The names a word that is one substitution (`$(find . -name x)`,
/// `` `git ls-files` ``) hands the command it is an operand of: its
/// commands' output read as [`stdin_operands`] reads a pipe's. `None`
/// where the word is more than one substitution, or its text does not
/// parse cleanly.
pub fn substitution_names(word: &Word) -> Option<Fed> {
    names_printed_by(sole_substitution(word)?)
}

/// The longest substitution (or `<( )`) [`names_printed_by`] parses: a
/// line may name one value many times (`x=$(…); cat $x; cat $x …`), and
/// each is read again. A longer one names any file.
const MAX_PRINTING_BYTES: usize = 4 << 10;

/// The names the commands of `body` print, read as [`stdin_operands`]
/// reads a pipe's; `None` where it does not parse cleanly or holds a
/// substitution of its own (`$(a)x$(b)` is cut as `a)x$(b`).
fn names_printed_by(body: &str) -> Option<Fed> {
    if body.len() > MAX_PRINTING_BYTES
        || body.contains("$(")
        || body.contains('`')
        || body.contains("<(")
    {
        return None;
    }
    let inner = shell::parse(body);
    if !inner.problems.is_empty() || inner.commands.is_empty() {
        return None;
    }
    let mut fed = Fed {
        complete: true,
        ..Fed::default()
    };
    for command in &inner.commands {
        fed.add_stage(command);
    }
    fed.shown()
}

/// The text inside a word that starts with `$(` and ends with `)` (or
/// backticks), quoted or not: one substitution, unless the text does not
/// parse (`$(a) $(b)` gives `a) $(b`).
pub(super) fn sole_substitution(word: &Word) -> Option<&str> {
    let whole = word.source.trim_matches('"');
    let body = whole
        .strip_prefix("$(")
        .and_then(|w| w.strip_suffix(')'))
        .or_else(|| whole.strip_prefix('`').and_then(|w| w.strip_suffix('`')))?;
    Some(body)
}

/// The most commands [`feeding_stages`] follows back (every `xargs` of a
/// long pipeline asks again: the cost stays linear in its length).
const MAX_FEEDING_STAGES: usize = 64;

/// The stages a pipe from `range` carries the output of, earliest first:
/// those commands, and the stages piped into them, back to the
/// pipeline's start (`find ~ | grep ssh |`: a filter passes on what it
/// is fed). Each command is visited once; `None` past
/// [`MAX_FEEDING_STAGES`].
fn feeding_stages(script: &Script, range: std::ops::Range<usize>) -> Option<Vec<&SimpleCommand>> {
    let mut stages = std::collections::BTreeSet::new();
    let mut pending = vec![range];
    while let Some(range) = pending.pop() {
        for index in range {
            let Some(command) = script.commands.get(index) else {
                continue;
            };
            if stages.len() >= MAX_FEEDING_STAGES {
                return None;
            }
            if stages.insert(index)
                && let Stdin::Pipe(before) = &command.stdin
                // Pipes run from earlier commands to later ones.
                && before.end <= index
            {
                pending.push(before.clone());
            }
        }
    }
    let stages: Vec<&SimpleCommand> = stages
        .into_iter()
        .filter_map(|index| script.commands.get(index))
        .collect();
    // A command inside another's word (`find $(pwd) |`) prints into that
    // word, not into the pipe: the word is judged with the command.
    let printing = stages
        .iter()
        .filter(|c| {
            !stages.iter().any(|outer| {
                outer.span != c.span
                    && outer.span.start <= c.span.start
                    && c.span.end <= outer.span.end
            })
        })
        .copied()
        .collect();
    Some(printing)
}

/// The most words read from stdin for `xargs`.
const MAX_FED_WORDS: usize = 4_096;

/// The most folders kept for [`Listed::roots`]; past it, the names are
/// judged as any file's.
const MAX_LISTED_ROOTS: usize = 64;

/// Programs that print names of files under the folders they are given
/// (or the working folder): `find` (its start paths), `ls`, `tree`, `du`,
/// `fd`. `git` and the searchers count only when they print names.
#[rustfmt::skip]
const LISTERS: &[&str] = &[
    "du", "exa", "eza", "fd", "fdfind", "find", "gfind", "ls", "lsd", "tree",
];

/// Options with which a lister prints text of its own choosing, not only
/// names: find's actions and formats, fd's commands, git's formats.
#[rustfmt::skip]
const PRINTS_OWN_TEXT: &[&str] = &[
    "-exec", "-execdir", "-ok", "-okdir", "-printf", "-fprintf", "-fprint", "-fprint0", "-fls",
    "-x", "--exec", "-X", "--exec-batch", "--format", "--pretty",
];

/// Programs that print names from the whole file system.
const LOCATORS: &[&str] = &["locate", "mlocate", "plocate", "slocate"];

/// Programs that print some of the lines of their stdin, unchanged, when
/// given no file (`head -n 5`, `sort -u`, `grep -v test`).
#[rustfmt::skip]
const LINE_FILTERS: &[&str] = &[
    "cat", "head", "shuf", "sort", "tac", "tail", "tee", "uniq",
];

/// Searchers: with `-l` they print names of files, otherwise lines.
#[rustfmt::skip]
const SEARCHERS: &[&str] = &[
    "ack", "ag", "egrep", "fgrep", "grep", "rg", "ugrep",
];

/// What one pipeline stage before an `xargs` adds to where the names it
/// hands on may lie: a lister's folders (and the working folder, where
/// it prints names relative to it), nothing for a filter that passes
/// some of its stdin's lines on, and "any file" for anything else.
fn list_stage(verb: &str, words: &[Word], fed: &mut Fed) {
    let given = |w: &&Word| !w.value.starts_with('-');
    // The words an `xargs` of the stage's own hands it: what came before.
    let takes_fed = words.iter().any(|w| w.source == peel::STDIN_OPERANDS);
    let operands: Vec<&Word> = words
        .iter()
        .skip(1)
        .filter(given)
        .filter(|w| w.source != peel::STDIN_OPERANDS)
        .collect();
    let has = |flags: &[&str]| {
        words.iter().skip(1).any(|w| {
            flags.contains(&w.value.as_str())
                || flags.iter().any(|f| {
                    f.len() == 2
                        && !w.value.starts_with("--")
                        && w.value.starts_with('-')
                        && f.get(1..).is_some_and(|letter| w.value.contains(letter))
                })
        })
    };
    let mut roots: Vec<Word> = Vec::new();
    let here = Word::literal(".");
    // An action or format that prints text of its own (`find -exec echo
    // /etc/shadow \;`, `-printf`, `fd -x`, `git ls-files --format`).
    let prints_own_text = words.iter().skip(1).any(|w| {
        let option = w.value.split_once('=').map_or(w.value.as_str(), |(o, _)| o);
        PRINTS_OWN_TEXT.contains(&option)
    });
    match verb {
        _ if prints_own_text && (LISTERS.contains(&verb) || verb == "git") => {
            fed.listed.unbounded = Some(format!("`{verb}` with an action of its own"));
            return;
        }
        // They print their operands: added as words already.
        _ if ECHOERS.contains(&verb) => return,
        "find" | "gfind" => {
            let starts: Vec<Word> = operands
                .iter()
                .filter(|w| is_find_start(words, w))
                .map(|w| (*w).clone())
                .collect();
            roots = if starts.is_empty() {
                vec![here]
            } else {
                starts
            };
        }
        _ if LISTERS.contains(&verb) => {
            roots = operands.iter().map(|w| (*w).clone()).collect();
            roots.push(here);
        }
        _ if LOCATORS.contains(&verb) => roots.push(Word::literal("/")),
        // It prints the working folder's path.
        "pwd" => roots.push(here),
        "git" if lists_paths(words) => {
            roots = operands.iter().map(|w| (*w).clone()).collect();
            roots.push(here);
        }
        _ if SEARCHERS.contains(&verb)
            && has(&[
                "-l",
                "-L",
                "--files-with-matches",
                "--files-without-match",
                "--files",
            ]) =>
        {
            roots = operands.iter().map(|w| (*w).clone()).collect();
            roots.push(here);
        }
        _ if SEARCHERS.contains(&verb)
            && !takes_fed
            && !has(&[
                "-o",
                "--only-matching",
                "-r",
                "-R",
                "--recursive",
                "--dereference-recursive",
            ])
            && operands.len() <= usize::from(!has(&["-e", "-f", "--regexp", "--file"])) => {}
        _ if LINE_FILTERS.contains(&verb)
            && !takes_fed
            && operands
                .iter()
                .all(|w| !w.dynamic && w.value.bytes().all(|b| b.is_ascii_digit()))
            || verb == "tee" && !takes_fed => {}
        _ => {
            fed.listed.unbounded = Some(format!("`{}`", crate::limits::clip(verb, 40)));
            return;
        }
    }
    // A lister given what came before lists under those names too.
    if takes_fed {
        roots.extend(fed.words.iter().cloned());
    }
    // A folder a substitution prints (`find $(echo ~/.ssh)`): the names it
    // prints are the folders.
    let mut printed = Vec::new();
    for root in roots.iter().filter(|r| r.substitution) {
        match substitution_names(root) {
            Some(inner) => {
                printed.extend(inner.words);
                printed.extend(inner.listed.roots);
                if inner.listed.unbounded.is_some() {
                    fed.listed.unbounded = inner.listed.unbounded;
                }
            }
            None => fed.listed.unbounded = Some("a folder named by a command's output".into()),
        }
    }
    roots.extend(printed);
    fed.listed.roots.extend(roots);
    if fed.listed.roots.len() > MAX_LISTED_ROOTS {
        fed.listed.roots.clear();
        fed.listed.unbounded = Some("a lister of many folders".into());
    }
}

/// Whether `git …` prints paths of the repository and nothing else:
/// `ls-files`, `ls-tree --name-only`, `diff --name-only`, `status -s`.
fn lists_paths(words: &[Word]) -> bool {
    let has = |flag: &str| words.iter().any(|w| w.value == flag);
    let names_only = has("--name-only") || has("--name-status");
    let subcommand = words
        .iter()
        .skip(1)
        .find(|w| !w.value.starts_with('-'))
        .map(|w| w.value.as_str());
    match subcommand {
        Some("ls-files") => true,
        Some("ls-tree" | "diff" | "diff-tree" | "diff-index" | "diff-files") => names_only,
        Some("status") => has("-s") || has("--short") || has("--porcelain"),
        _ => false,
    }
}
