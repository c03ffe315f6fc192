//! OpenCode's own permission rules generated from the lexicon: a
//! `permission.bash` block (`"git push *": "ask"`) for a user to paste into
//! `opencode.json`, so that calls portcullis signs are asked by OpenCode
//! itself (OpenCode plugins cannot raise a prompt; see the plugin in
//! `integrations/opencode/`).
//!
//! Takes the compiled lexicon; returns the JSON block. OpenCode applies the
//! last matching rule, so a verb's rule comes before its subcommands'.
#![deny(clippy::indexing_slicing)]

use crate::rules::{self, Spec};
use crate::verdict::Verdict;
use serde_json::{Map, Value};

/// The action OpenCode should take for a class's verdict: `ask` for what
/// portcullis signs; FREE and UNKNOWN are left to OpenCode's defaults.
fn action(verdict: Verdict) -> Option<&'static str> {
    match verdict {
        Verdict::Signed | Verdict::Blocked => Some("ask"),
        Verdict::Free | Verdict::Unknown => None,
    }
}

fn add_subs(spec: &Spec, prefix: &str, parent: Verdict, rules: &mut Map<String, Value>) {
    for sub in spec.subs() {
        let name = format!("{prefix} {}", sub.name());
        let verdict = sub.class.verdict();
        // Only where the subcommand differs from its parent: `npm ls` under
        // an asked `npm`, `git push` under an allowed `git`.
        if verdict != parent {
            let rule = match action(verdict) {
                Some(action) => action,
                None if action(parent).is_some() => "allow",
                None => continue,
            };
            rules.insert(format!("{name} *"), Value::String(rule.into()));
        }
        add_subs(sub, &name, verdict, rules);
    }
}

/// The `permission.bash` rules, in the order OpenCode should read them.
pub fn bash_rules() -> Map<String, Value> {
    let mut rules = Map::new();
    for spec in rules::lexicon() {
        let verdict = spec.class.verdict();
        if let Some(action) = action(verdict) {
            rules.insert(format!("{} *", spec.name()), Value::String(action.into()));
        }
        add_subs(spec, spec.name(), verdict, &mut rules);
    }
    rules
}

/// The whole block to paste into `opencode.json`. Keys are written in
/// sorted order, which keeps a verb's rule (`npm *`) before its
/// subcommands' (`npm ls *`): `*` sorts before letters and digits.
pub fn permission_block() -> Value {
    serde_json::json!({ "permission": { "bash": bash_rules() } })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_verbs_are_asked_and_free_subcommands_stay_free() {
        let rules = bash_rules();
        let ask = Some(&Value::String("ask".into()));
        let allow = Some(&Value::String("allow".into()));
        // `git` changes things unless its subcommand only looks.
        assert_eq!(rules.get("git *"), ask);
        assert_eq!(rules.get("git status *"), allow);
        assert!(rules.get("git push *").is_none(), "asked through `git *`");
        assert_eq!(rules.get("rm *"), ask);
        assert!(
            rules.get("ls *").is_none(),
            "FREE verbs are left to OpenCode"
        );
        // OpenCode applies the last match: the verb's rule comes first.
        let keys: Vec<&String> = rules.keys().collect();
        let at = |k: &str| keys.iter().position(|x| *x == k);
        assert!(at("git *") < at("git status *"));
    }
}
