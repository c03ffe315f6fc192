//! What some commands mean for the path law beyond their written
//! arguments: how far their writes reach (`rm -r` a whole tree, `git rm
//! --cached` nothing on disk), and which change dependencies under a
//! freeze (`rules/law.json`'s `frozen_commands`).
//!
//! Takes a peeled verb and its arguments; returns a [`Reach`] or a
//! [`FrozenCommand`].

use super::spot::Reach;
use crate::rules::{FROZEN_COMMANDS, FrozenCommand, FrozenRest, LOCK_SAFE_FLAGS};
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
/// (`cage.lockfile`).
pub fn frozen_command(verb: &str, args: &[Word]) -> Option<&'static FrozenCommand> {
    let mut words: Vec<&str> = vec![verb];
    let mut options = Vec::new();
    let mut rest = args;
    // `python -m pip install x` is `pip install x`.
    if verb.starts_with("python")
        && args.first().is_some_and(|a| a.value == "-m")
        && let Some(module) = args.get(1)
    {
        words = vec![module.value.as_str()];
        rest = &args[2..];
    }
    for word in rest {
        if word.value.starts_with('-') {
            options.push(word.value.as_str());
        } else {
            words.push(word.value.as_str());
        }
    }
    // A global install (`npm install -g tsc`) changes no project file.
    if options.iter().any(|o| matches!(*o, "-g" | "--global")) {
        return None;
    }
    // Entries with a package (`npm install +`) come first in the table:
    // `npm install lodash` changes the manifest; `npm install` alone, or
    // `cargo update -p serde`, rewrites the lockfile.
    FROZEN_COMMANDS.iter().find(|c| {
        let extra = words.len().saturating_sub(c.words.len());
        let fits = words.len() >= c.words.len()
            && words[..c.words.len()] == *c.words
            && match c.rest {
                FrozenRest::Nothing => extra == 0,
                FrozenRest::Package => extra > 0,
                FrozenRest::Any => true,
            };
        let safe = c.rule == "cage.lockfile" && options.iter().any(|o| LOCK_SAFE_FLAGS.contains(o));
        fits && !safe
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frozen_commands() {
        let words = |s: &str| s.split(' ').map(Word::literal).collect::<Vec<_>>();
        let rule = |verb: &str, args: &str| frozen_command(verb, &words(args)).map(|c| c.rule);
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
            frozen_command("yarn", &[]).map(|c| c.rule),
            Some("cage.lockfile")
        );
    }
}
