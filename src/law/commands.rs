//! What some commands mean for the path law beyond their written
//! arguments: how far their writes reach (`rm -r` a whole tree, `git rm
//! --cached` nothing on disk), and which change dependencies under a
//! freeze (`rules/law.json`'s `frozen_commands`).
//!
//! Takes a peeled verb and its arguments; returns a [`Reach`] or a
//! [`FrozenCommand`].

use super::spot::Reach;
use crate::rule_id::Rule;
use crate::rules::{FROZEN_COMMANDS, FrozenCommand, FrozenRest, LOCK_SAFE_FLAGS, READ_ONLY_FLAGS};
use crate::shell::Word;

/// How far a command's writes reach: `rm -r` deletes everything beneath a
/// folder; `mv` and git's pathspecs move or restore whatever is there.
/// `None`: the command writes nothing on disk (`git rm --cached`,
/// `git restore --staged` touch only the index). A mode change (`chmod
/// -R`) is judged on the named path only: it changes no content.
pub fn reach_of(verb: &str, args: &[Word]) -> Option<Reach> {
    let short = |letters: &str| {
        args.iter().any(|a| {
            a.value.starts_with('-')
                && !a.value.starts_with("--")
                && a.value[1..].chars().any(|c| letters.contains(c))
        })
    };
    let has = |flag: &str| args.iter().any(|a| a.value == flag);
    if verb == "git" && (has("--cached") || has("--staged")) && !(has("--worktree") || has("-W")) {
        return None;
    }
    let tree = match verb {
        "mv" | "git" => true,
        "rm" | "shred" => short("rR") || has("--recursive"),
        _ => false,
    };
    Some(if tree { Reach::Tree } else { Reach::Path })
}

/// Under a dependency freeze, the rule a command breaks: it adds, removes
/// or updates packages (`cage.dependency_manifest`) or rewrites a lockfile
/// (`cage.lockfile`). The command is read as the lexicon reads it, so an
/// option's value cannot shift the match (`npm --prefix . install x`,
/// `cargo +nightly add y`); where an option the lexicon does not know
/// comes before the subcommand, the words are also searched for the
/// table's subcommand wherever it stands.
pub fn frozen_command(verb: &str, args: &[Word]) -> Option<&'static FrozenCommand> {
    // `python -m pip install x` is `pip install x`; `corepack pnpm add x`
    // is `pnpm add x`.
    if verb.starts_with("python")
        && args.first().is_some_and(|a| a.value == "-m")
        && let Some(module) = args.get(1)
    {
        return frozen_command(&module.value, args.get(2..).unwrap_or_default());
    }
    if verb == "corepack"
        && let Some(manager) = args.first().filter(|a| {
            matches!(
                a.value.as_str(),
                "npm" | "pnpm" | "yarn" | "npx" | "pnpx" | "yarnpkg"
            )
        })
    {
        return frozen_command(&manager.value, args.get(1..).unwrap_or_default());
    }
    // `yarn workspace web add x` is `yarn add x` in a workspace.
    if verb == "yarn" && args.first().is_some_and(|a| a.value == "workspace") && args.len() > 2 {
        return frozen_command(verb, args.get(2..).unwrap_or_default());
    }
    let reading = Reading::of(verb, args);
    // A global install (`npm install -g tsc`) changes no project file.
    if reading
        .options
        .iter()
        .any(|o| matches!(*o, "-g" | "--global"))
    {
        return None;
    }
    if reading.options.iter().any(|o| READ_ONLY_FLAGS.contains(o)) {
        return None;
    }
    let found = matching(&reading.words, &reading.options, 0);
    if found.is_some() || !reading.shifted {
        return found;
    }
    // Every word that is not an option, the table's subcommand anywhere
    // after the verb.
    let plain = Reading::plain(verb, args);
    (0..plain.words.len()).find_map(|skip| matching(&plain.words, &reading.options, skip))
}

/// The first table entry `words` fit, with the words from `skip` on
/// standing right after the verb (0 and 1 alike: the verb is word 0).
fn matching(words: &[&str], options: &[&str], skip: usize) -> Option<&'static FrozenCommand> {
    let (verb, rest) = words.split_first()?;
    let rest = rest.get(skip.saturating_sub(1)..).unwrap_or(&[]);
    // Entries with a package (`npm install +`) come first in the table:
    // `npm install lodash` changes the manifest; `npm install` alone, or
    // `cargo update -p serde`, rewrites the lockfile.
    FROZEN_COMMANDS.iter().find(|c| {
        let Some((entry_verb, entry_rest)) = c.words.split_first() else {
            return false;
        };
        if entry_verb != verb || rest.len() < entry_rest.len() {
            return false;
        }
        let Some((head, tail)) = rest.split_at_checked(entry_rest.len()) else {
            return false;
        };
        if head != entry_rest {
            return false;
        }
        // `.` is the project itself, not a package (`pip install .`).
        let extra = tail.iter().filter(|w| !matches!(**w, "." | "./")).count();
        let fits = match c.rest {
            FrozenRest::Nothing => extra == 0,
            FrozenRest::Package => extra > 0,
            FrozenRest::Any => true,
        };
        let given = c.options.is_empty() || options.iter().any(|o| c.options.contains(o));
        let safe =
            c.rule == Rule::CageLockfile && options.iter().any(|o| LOCK_SAFE_FLAGS.contains(o));
        fits && given && !safe
    })
}

/// A command's words as the freeze matches them.
struct Reading<'a> {
    /// The verb, the subcommands as written, then the operands.
    words: Vec<&'a str>,
    /// The option words (not their values).
    options: Vec<&'a str>,
    /// An option the lexicon does not know came before the subcommand, or
    /// one was read by an abbreviation: what it took as its value may be
    /// the subcommand or a package.
    shifted: bool,
}

impl<'a> Reading<'a> {
    /// Reads `verb args` with the lexicon's option sets; a verb it does not
    /// know is read as words that are options and words that are not.
    fn of(verb: &'a str, args: &'a [Word]) -> Reading<'a> {
        let Some(top) = crate::lexicon::lookup(verb) else {
            return Reading::plain(verb, args);
        };
        let argv: Vec<Word> = std::iter::once(Word::literal(verb))
            .chain(args.iter().cloned())
            .collect();
        let word = |i: usize| args.get(i.wrapping_sub(1)).map_or("", |w| w.value.as_str());
        let mut words = vec![verb];
        let mut options = Vec::new();
        let mut shifted = false;
        let mut spec = top;
        let mut start = 1;
        while !spec.subs().is_empty() {
            let (place, before) = crate::options::first_operand(spec, &argv, start);
            options.extend(before.uses.iter().map(|u| word(u.index)));
            options.extend(before.unknown.iter().map(|&i| word(i)));
            shifted |= !before.unknown.is_empty();
            let Some((sub, i, offset, next)) = place.and_then(|(i, offset, next)| {
                let name = argv.get(i)?.value.get(offset..)?;
                spec.sub(name).map(|sub| (sub, i, offset, next))
            }) else {
                break;
            };
            words.push(word(i).get(offset..).unwrap_or(""));
            spec = sub;
            start = next;
        }
        let reading = crate::options::read(spec, &argv, start);
        // A long option the lexicon knows only by a longer name (`pip
        // install --upgrade` read as `--upgrade-strategy`) may have taken a
        // package as its value.
        shifted |= reading.uses.iter().any(|u| {
            let written = word(u.index);
            let name = written.split_once('=').map_or(written, |(name, _)| name);
            name.starts_with("--") && u.known.is_some_and(|k| k.spelling.get() != name)
        });
        options.extend(reading.uses.iter().map(|u| word(u.index)));
        options.extend(reading.unknown.iter().map(|&i| word(i)));
        // `pip install -e git+https://…` names a package to add; `-e .`
        // is the project itself.
        let editable = reading.uses.iter().filter_map(|u| {
            let spelling = u.known?.spelling.get();
            if !matches!(spelling, "-e" | "--editable") {
                return None;
            }
            let value = match u.value? {
                crate::options::Value::Next(at) => word(at),
                crate::options::Value::Attached(at) => word(u.index).get(at..).unwrap_or(""),
            };
            value.contains(':').then_some(value)
        });
        let editable: Vec<&str> = editable.collect();
        words.extend(reading.operands.iter().map(|&i| word(i)));
        words.extend(editable);
        Reading {
            words,
            options,
            shifted,
        }
    }

    /// Every word that is not an option, in order.
    fn plain(verb: &'a str, args: &'a [Word]) -> Reading<'a> {
        let mut words = vec![verb];
        let mut options = Vec::new();
        for word in args {
            if word.value.starts_with('-') {
                options.push(word.value.as_str());
            } else {
                words.push(word.value.as_str());
            }
        }
        Reading {
            words,
            options,
            shifted: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frozen_commands() {
        let words = |s: &str| s.split(' ').map(Word::literal).collect::<Vec<_>>();
        let rule = |verb: &str, args: &str| frozen_command(verb, &words(args)).map(|c| c.rule.id());
        assert_eq!(
            rule("npm", "install lodash"),
            Some("cage.dependency_manifest")
        );
        assert_eq!(
            rule("npm", "install -D lodash"),
            Some("cage.dependency_manifest")
        );
        assert_eq!(rule("npm", "install"), Some("cage.lockfile"));
        assert_eq!(rule("yarn", "install --frozen-lockfile"), None);
        assert_eq!(rule("npm", "ci"), None);
        assert_eq!(rule("cargo", "update"), Some("cage.lockfile"));
        assert_eq!(rule("cargo", "update -p serde"), Some("cage.lockfile"));
        assert_eq!(rule("npm", "install -g typescript"), None);
        assert_eq!(
            rule("python3", "-m pip install requests"),
            Some("cage.dependency_manifest")
        );
        assert_eq!(
            rule("uv", "pip install x"),
            Some("cage.dependency_manifest")
        );
        assert_eq!(rule("cargo", "build"), None);
        assert_eq!(rule("yarn", "test"), None);
        assert_eq!(
            frozen_command("yarn", &[]).map(|c| c.rule.id()),
            Some("cage.lockfile")
        );
    }

    #[test]
    fn frozen_commands_are_read_past_their_options() {
        let words = |s: &str| s.split(' ').map(Word::literal).collect::<Vec<_>>();
        let rule = |verb: &str, args: &str| frozen_command(verb, &words(args)).map(|c| c.rule.id());
        let manifest = Some("cage.dependency_manifest");
        assert_eq!(rule("npm", "--prefix . install x"), manifest);
        assert_eq!(rule("npm", "-w pkg install x"), manifest);
        assert_eq!(rule("cargo", "+nightly add y"), manifest);
        assert_eq!(
            rule("cargo", "--manifest-path x/Cargo.toml add y"),
            manifest
        );
        assert_eq!(rule("npm", "pkg set dependencies.x=1"), manifest);
        assert_eq!(rule("ncu", "-u"), manifest);
        assert_eq!(rule("ncu", ""), None);
        assert_eq!(rule("corepack", "pnpm add zod"), manifest);
        assert_eq!(
            rule("pip", "install -e git+https://example.com/x.git#egg=x"),
            manifest
        );
        assert_eq!(rule("pip", "install -r requirements.txt"), None);
        assert_eq!(rule("pip", "install -e ."), None);
        assert_eq!(rule("pip", "install ."), None);
        assert_eq!(rule("pip", "install --dry-run requests"), None);
        assert_eq!(rule("go", "mod edit -json"), None);
        assert_eq!(rule("go", "mod edit -require=x@v1"), manifest);
        assert_eq!(rule("npm", "it"), Some("cage.lockfile"));
        assert_eq!(rule("npm", "audit fix"), Some("cage.lockfile"));
        assert_eq!(rule("uv", "sync --locked"), None);
        assert_eq!(rule("npm", "run install"), None);
        assert_eq!(rule("yarn", "workspace web add zod"), manifest);
        assert_eq!(rule("bun", "--cwd web add zod"), manifest);
        assert_eq!(rule("pip", "install --upgr requests"), manifest);
    }
}
