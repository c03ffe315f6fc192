//! OpenCode's own permission rules generated from the lexicon: a
//! `permission.bash` block for a user to paste into `opencode.json`, so
//! that calls portcullis signs are asked by OpenCode itself (OpenCode
//! plugins cannot raise a prompt; see the plugin in `integrations/opencode/`).
//!
//! Takes the compiled lexicon; returns the JSON block. It starts with
//! `"*": "ask"`, so a command the lexicon does not know (UNKNOWN) is asked
//! rather than left to OpenCode's default, which runs it. Verbs portcullis
//! lets run are `allow`ed, verbs it signs are `ask`ed, and a subcommand or
//! a flag that changes that gets a rule of its own (`"git status *":
//! "allow"` under `"git *": "ask"`, `"sed *-i*": "ask"` under `"sed *":
//! "allow"`). OpenCode applies the last matching rule, and keys are
//! written sorted, so a verb's rule comes before its subcommands' and its
//! flags'.
#![deny(clippy::indexing_slicing)]

use crate::rules::{self, Spec};
use crate::verdict::Verdict;
use serde_json::{Map, Value};

/// OpenCode's action for a verdict: `allow` what portcullis lets run,
/// `ask` for everything else.
fn action(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Free => "allow",
        Verdict::Signed | Verdict::Blocked | Verdict::Unknown => "ask",
    }
}

/// The verdict of `spec` as a whole: its class's, or stricter when
/// operands raise it (`with_operands`), since OpenCode's patterns cannot
/// tell a bare verb from one with operands.
fn spec_verdict(spec: &Spec) -> Verdict {
    let own = spec.class.verdict();
    match spec.with_operands {
        Some((_, raised)) => own.max(raised.verdict()),
        None => own,
    }
}

/// One spec's rules under `name` (`git`, `git stash`): its own when it
/// differs from `parent`'s action, an `ask` for each flag that raises an
/// allowed spec, then its subcommands'.
///
/// A pattern subcommand (`aws * describe-*`) is written with its `*`,
/// which OpenCode reads as any text, spaces included (`aws s3 rm x
/// describe-y` matches `aws * describe-* *`): such a rule may only ask.
/// Beneath a pattern only `ask` rules are written, and the action that
/// holds there stays the parent's.
fn add_spec(spec: &Spec, name: &str, parent: &str, rules: &mut Map<String, Value>) {
    let verdict = spec_verdict(spec);
    let mut own = action(verdict);
    let broad = name.contains('*');
    if broad && own == "allow" {
        own = parent;
    }
    if own != parent {
        rules.insert(format!("{name} *"), Value::String(own.into()));
    }
    if own == "allow" {
        for flag in spec.flags() {
            if flag.lowers || flag.class.verdict() == Verdict::Free {
                continue;
            }
            for spelling in flag.spellings.iter() {
                // The flag anywhere after the verb, alone or inside a
                // cluster or with its value attached; a stray match asks
                // more than needed, never less.
                rules.insert(format!("{name} *{spelling}*"), Value::String("ask".into()));
            }
        }
    }
    for sub in spec.subs() {
        add_spec(sub, &format!("{name} {}", sub.name()), own, rules);
    }
}

/// The `permission.bash` rules, in the order OpenCode should read them.
pub fn bash_rules() -> Map<String, Value> {
    let mut rules = Map::new();
    rules.insert("*".into(), Value::String("ask".into()));
    for spec in rules::lexicon() {
        // Every verb gets its own rule: the parent here is `"*": "ask"`,
        // which an asked verb repeats harmlessly.
        add_spec(spec, spec.name(), "", &mut rules);
    }
    rules
}

/// Whether OpenCode's wildcard `pattern` (`util/wildcard.ts`: `*` any
/// text, `?` one character, a trailing ` *` that may match nothing)
/// matches all of `text`. Linear backtracking over the last `*`, so
/// O(text × pattern) at worst.
fn wildcard(text: &str, pattern: &str) -> bool {
    fn glob(text: &[char], pattern: &[char]) -> bool {
        let (mut t, mut p) = (0, 0);
        let mut star: Option<(usize, usize)> = None;
        while t < text.len() {
            match pattern.get(p) {
                Some('*') => {
                    star = Some((p, t));
                    p += 1;
                }
                Some(c) if *c == '?' || Some(c) == text.get(t) => {
                    t += 1;
                    p += 1;
                }
                _ => match star {
                    Some((sp, st)) => {
                        p = sp + 1;
                        t = st + 1;
                        star = Some((sp, st + 1));
                    }
                    None => return false,
                },
            }
        }
        pattern
            .get(p..)
            .is_some_and(|rest| rest.iter().all(|c| *c == '*'))
    }
    let text: Vec<char> = text.chars().collect();
    let full: Vec<char> = pattern.chars().collect();
    glob(&text, &full)
        || pattern
            .strip_suffix(" *")
            .is_some_and(|head| glob(&text, &head.chars().collect::<Vec<_>>()))
}

/// The action the last of `rules` that matches `command` names, if any.
/// (OpenCode applies the last match.)
fn last_match<'r>(rules: &'r Map<String, Value>, command: &str) -> Option<&'r str> {
    rules
        .iter()
        .rev()
        .find(|(pattern, _)| wildcard(command, pattern))
        .and_then(|(_, action)| action.as_str())
}

/// Whether the printed rules make OpenCode ask before running `command`,
/// a single simple command as written. Every rule but `"*"` starts with
/// its verb's name and a space, so only `"*"` and the rules of the verb
/// named by the command's first word can match: those alone are built.
pub fn would_ask(command: &str) -> bool {
    let mut rules = Map::new();
    rules.insert("*".into(), Value::String("ask".into()));
    let word = command.split_whitespace().next().unwrap_or("");
    if let Some(spec) = rules::lexicon().iter().find(|spec| spec.name() == word) {
        add_spec(spec, word, "", &mut rules);
    }
    last_match(&rules, command) == Some("ask")
}

/// The whole block to paste into `opencode.json`. Keys are written in
/// sorted order, which puts `"*"` first and keeps a verb's rule (`npm *`)
/// before its subcommands' (`npm ls *`) and its flags' (`sed *-i*`): `*`
/// sorts before letters, digits and `-`.
pub fn permission_block() -> Value {
    serde_json::json!({ "permission": { "bash": bash_rules() } })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_is_asked_signed_verbs_are_asked_and_free_ones_allowed() {
        let rules = bash_rules();
        let ask = Some(&Value::String("ask".into()));
        let allow = Some(&Value::String("allow".into()));
        // What the lexicon does not know is asked, and that rule is read
        // first, so every other rule overrides it.
        assert_eq!(rules.get("*"), ask);
        assert_eq!(rules.keys().next().map(String::as_str), Some("*"));
        // `git` changes things unless its subcommand only looks.
        assert_eq!(rules.get("git *"), ask);
        assert_eq!(rules.get("git status *"), allow);
        assert!(rules.get("git push *").is_none(), "asked through `git *`");
        assert_eq!(rules.get("rm *"), ask);
        assert_eq!(rules.get("ls *"), allow);
        // A flag that makes an allowed verb write is asked.
        assert_eq!(rules.get("sed *-i*"), ask);
        assert_eq!(rules.get("sed *--in-place*"), ask);
        assert_eq!(rules.get("sed *"), allow);
        // OpenCode applies the last match: the verb's rule comes first.
        let keys: Vec<&String> = rules.keys().collect();
        let at = |k: &str| keys.iter().position(|x| *x == k);
        assert!(at("git *") < at("git status *"));
        assert!(at("sed *") < at("sed *-i*"));
    }

    #[test]
    fn commands_meet_the_action_portcullis_would_take() {
        for (command, expected) in [
            ("frobnicate --all", "ask"),
            ("ls", "allow"),
            ("ls -la src", "allow"),
            ("sed -n 1p file", "allow"),
            ("sed -i s/a/b/ file", "ask"),
            ("sed -n -i.bak s/a/b/ file", "ask"),
            ("git status", "allow"),
            ("git push origin main", "ask"),
            ("rm -rf build", "ask"),
            ("sudo ls", "ask"),
            ("echo b", "allow"),
        ] {
            assert_eq!(would_ask(command), expected == "ask", "{command}");
        }
    }

    #[test]
    fn wildcards_match_as_opencode_matches_them() {
        assert!(wildcard("ls", "ls *"), "a trailing ` *` may match nothing");
        assert!(wildcard("ls -la", "ls *"));
        assert!(!wildcard("lsblk", "ls *"));
        assert!(wildcard("sed -n -i.bak x f", "sed *-i*"));
        assert!(!wildcard("sed -n p f", "sed *-i*"));
        assert!(wildcard("anything at all", "*"));
        assert!(wildcard("a?c", "a?c") && wildcard("abc", "a?c"));
        assert!(!wildcard("", "?"));
        // Many stars against a long text stay linear-ish.
        let long = "a".repeat(10_000);
        assert!(!wildcard(&long, "*a*a*a*a*a*b"));
    }

    #[test]
    fn would_ask_agrees_with_the_whole_printed_block() {
        let all = bash_rules();
        for spec in rules::lexicon() {
            let name = spec.name();
            assert!(
                !name.contains(|c: char| c.is_whitespace() || c == '*' || c == '?'),
                "{name}: a verb's rules start with its name and a space"
            );
        }
        for command in [
            "frobnicate",
            "ls -la",
            "git status --short",
            "git push origin main",
            "sed -i s/a/b/ f",
            "sed -n p f",
            "npm ls",
            "npm install left-pad",
            "rm -rf build",
            "echo b",
            "7z l archive.7z",
            "7z x archive.7z",
            "",
        ] {
            assert_eq!(
                would_ask(command),
                last_match(&all, command) == Some("ask"),
                "{command:?}"
            );
        }
    }
}
