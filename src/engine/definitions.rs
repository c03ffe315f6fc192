//! What a command defines for the commands after it: environment
//! settings (`export PAGER=…`, `unset HISTFILE`), `git -c` settings, and
//! aliases and functions.
//!
//! Takes one simple command; records in the run what later commands see.

use super::ctx::Ctx;
use super::{Run, SHELL_OPTIONS};
use crate::peel;
use crate::rule_id::{Rule, RuleId};
use crate::settings::Scope;
use crate::shell::Word;
use crate::verdict::Verdict;

impl Run<'_> {
    /// What a command sets for the commands after it: environment settings
    /// (`export PAGER=…`, `unset HISTFILE`), `git -c` settings, and aliases,
    /// whose values are judged as the scripts they are.
    pub(super) fn definitions(&mut self, verb: &str, args: &[Word], ctx: &Ctx) {
        let (part, depth, local_cwd) = (ctx.part(), ctx.depth, ctx.cwd.clone());
        if verb == "unset" {
            for name in args.iter().filter(|w| !w.value.starts_with('-')) {
                if matches!(
                    name.value.as_str(),
                    "HISTFILE" | "HISTSIZE" | "HISTFILESIZE" | "SAVEHIST"
                ) {
                    self.setting(
                        &name.value,
                        &Word::literal(""),
                        Scope::Exported,
                        part,
                        depth,
                    );
                }
            }
        }
        if matches!(
            verb,
            "export" | "declare" | "typeset" | "local" | "readonly"
        ) {
            // `declare -x`, `typeset -gx`, `local -x`: exported too.
            let exports = verb == "export"
                || self.allexport
                || args.iter().any(|w| {
                    w.value.starts_with('-') && !w.value.starts_with("--") && w.value.contains('x')
                });
            let scope = if exports {
                Scope::Exported
            } else {
                Scope::Shell
            };
            for word in args.iter().filter(|w| peel::is_assignment(&w.value)) {
                if let Some((name, value)) = word.value.split_once('=') {
                    let mut value_word = word.clone();
                    value_word.value = value.to_string();
                    self.setting(name, &value_word, scope, part, depth);
                }
            }
        }
        // `set -a` / `set -o allexport`: every assignment after it exports.
        // `set -o NAME` names a shell option: only those known to change
        // nothing about what runs are free (`-k`/`keyword` moves words
        // into the environment of the commands after it).
        if verb == "set" {
            let mut words = args.iter().map(|w| w.value.as_str()).peekable();
            while let Some(word) = words.next() {
                let letters =
                    (word.starts_with('-') || word.starts_with('+')) && !word.starts_with("--");
                if letters && word.starts_with('-') && word.contains('a') {
                    self.allexport = true;
                }
                if !matches!(word, "-o" | "+o") {
                    continue;
                }
                let Some(name) = words.next() else { continue };
                if name == "allexport" && word == "-o" {
                    self.allexport = true;
                } else if !SHELL_OPTIONS.contains(&name) {
                    self.find(
                        Verdict::Signed,
                        RuleId::lexicon(&["set"], Some("option")),
                        format!("`set {word} {name}` changes how the shell reads the commands after it, and portcullis does not follow that option"),
                        "Leave the shell option out, or let the person approve it.",
                        part,
                    );
                }
            }
        }
        if verb == "git" {
            let globals = crate::git::read(args);
            self.git_settings(&globals, part, depth, local_cwd.clone());
            self.git_scripts(args, &globals, depth, local_cwd.clone());
        }
        // `alias x='rm -rf /'`: bash expands no alias in `-c` scripts or
        // other non-interactive shells, so a later `x` runs the program `x`
        // (judged as such). With `shopt -s expand_aliases` a later line
        // runs the value instead: it is judged now, and the stricter wins.
        if verb == "alias" {
            for word in args.iter().filter(|w| w.value.contains('=')) {
                if let Some((name, value)) = word.value.split_once('=') {
                    self.note(depth, || format!("alias {name}: {value}"));
                    if word.dynamic {
                        self.find(
                            Verdict::Signed,
                            Rule::ParseDynamicScript,
                            format!("the alias {name} runs text only known when the command runs"),
                            "Write the alias out literally so it can be checked.",
                            part,
                        );
                    } else {
                        self.script(value, depth + 1, local_cwd.clone());
                    }
                }
            }
        }
    }
}
