//! Secrets read through a variable whose value only run time knows but
//! the line shows (`for f in ~/.ssh/*; do cat $f; done`): takes a verb,
//! its words and the parsed line's [`Script::held`] values, puts each
//! value in its variable's place and asks [`secret_read`] again.

use super::secret_read;
use crate::feeds::{self, Listed};
use crate::paths::Location;
use crate::shell::held::{put_in, referenced_names};
use crate::shell::{Held, Script, Word};
use std::path::Path;

/// The most words [`through_variables`] has [`secret_read`] judge in one
/// request (a command line and the scripts it runs), over all the values
/// it tries (a try costs its command's words); past it, a command with
/// such a variable is judged as reading any file. The bound keeps a line
/// of thousands of `cat $f`, or a `$f` among thousands of words, cheap.
pub const MAX_HELD_TRIES: usize = 4_096;

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
    (location, cwd): (&Location, Option<&Path>),
    budget: &mut usize,
) -> Option<String> {
    // `$(< file)` is read by the shell, whatever the verb.
    let shell_reads = args.iter().any(|w| w.value.contains("$(<"));
    if script.held.is_empty() || !(super::reads_content(verb) || shell_reads) {
        return None;
    }
    let tries = budget;
    let judge = Judge {
        verb,
        listed,
        script,
        location,
        cwd,
    };
    judge.values(args, &[], tries)
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
            let written = referenced_names(&word.source);
            let mut names = written.clone();
            // A nameref or `${!x}` in the line: any variable may be meant,
            // and its value is then the whole word's.
            if self.script.any_variable {
                for (name, _) in &self.script.held {
                    if !names.contains(name) {
                        names.push(name.clone());
                    }
                }
            }
            for name in names.iter().filter(|n| !through.contains(&n.as_str())) {
                let held = self.script.held.iter().filter(|(n, _)| n == name);
                for (_, held) in held {
                    let (values, read_listed) = self.held_values(held);
                    let tries_here = values.len() + usize::from(read_listed.is_some());
                    let cost = tries_here * args.len().max(1);
                    if cost > *tries {
                        *tries = 0;
                        return Some(format!(
                            "reads {}, whose variables take more values than portcullis checks in one command line",
                            crate::limits::clip(&word.source, 60)
                        ));
                    }
                    *tries -= cost;
                    let through_name = |why: String| format!("{why} (through ${name})");
                    for value in &values {
                        let given = if written.contains(name) {
                            put_in(args, at, name, value)
                        } else {
                            let mut given = args.to_vec();
                            if let Some(slot) = given.get_mut(at) {
                                *slot = value.clone();
                            }
                            given
                        };
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
            // Its words are held one by one too.
            Held::Words(_) => return (Vec::new(), None),
            Held::Read(index) => *index,
        };
        let Some(command) = self.script.commands.get(index) else {
            // Past the command limit: not known.
            let unknown = Listed::unbounded("a command past the limit".into());
            return (Vec::new(), Some(unknown));
        };
        match feeds::stdin_operands(self.script, command) {
            Some(fed) => (fed.words, Some(fed.listed)),
            // The hook's own stdin, as `cat $X` is judged.
            None => (Vec::new(), None),
        }
    }
}
