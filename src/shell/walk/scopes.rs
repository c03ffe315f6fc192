//! Scopes of the walk: subshells, branches that may not run, loops and
//! function bodies, and which functions a command name calls there.
//! Methods of [`Walker`]; touch only its state.

use super::Walker;
use super::nodes::calls_itself_in_background;
use crate::shell::parse::kind;
use crate::shell::sinks::is_number;
use crate::shell::types::{Callee, Held, Stdin};
use crate::shell::word;
use crate::shell::word::{Word, text};
use tree_sitter::Node;

impl Walker<'_> {
    /// Walks `f` where what it runs may not run.
    pub(super) fn conditionally(&mut self, f: impl FnOnce(&mut Self)) {
        self.conditional += 1;
        f(self);
        self.conditional -= 1;
    }

    /// Variables assigned inside do not outlive it either.
    pub(super) fn in_subshell(&mut self, f: impl FnOnce(&mut Self)) {
        self.scope_stack.push(self.next_scope);
        self.next_scope += 1;
        let outer_vars = self.vars.clone();
        let outer_functions = self.functions.clone();
        f(self);
        self.vars = outer_vars;
        self.functions = outer_functions;
        self.scope_stack.pop();
    }

    /// A function definition: its name is in scope from here (for certain
    /// only where the definition surely runs), and its body is walked as
    /// code that may run at any later point: no variable is known inside,
    /// and what it assigns is never known again.
    pub(super) fn walk_function(&mut self, node: Node, depth: usize) {
        if let Some(name) = node.child_by_field_name("name") {
            let name = text(name, self.src).to_string();
            if let Some(body) = node.child_by_field_name("body")
                && calls_itself_in_background(body, &name, self.src)
            {
                self.script.fork_bomb = true;
            }
            let certain = self.conditional == 0 && self.function_body == 0;
            let entry = self.functions.entry(name.clone()).or_insert(Callee::Either);
            if certain {
                *entry = Callee::Function;
                self.defined_at
                    .insert(name.clone(), self.script.commands.len());
            }
            self.script.functions.push(name);
        }
        let own_name = node
            .child_by_field_name("name")
            .map(|n| text(n, self.src).to_string())
            .unwrap_or_default();
        if let Some(body) = node.child_by_field_name("body") {
            let outer = std::mem::take(&mut self.vars);
            let mark = self.touched.len();
            let all = self.touched_all;
            self.function_body += 1;
            self.function_names.push(own_name);
            self.walk(body, depth + 1, &Stdin::Inherited);
            self.function_names.pop();
            self.function_body -= 1;
            self.vars = outer;
            let touched: Vec<String> = self.touched.get(mark..).unwrap_or(&[]).to_vec();
            for name in touched {
                self.volatile.insert(name.clone());
                self.forget(&name);
            }
            if self.touched_all != all {
                self.untracked = true;
                self.forget_all();
            }
        }
    }

    /// A loop: its body may run many times, so a variable it changes is
    /// unknown throughout it (`x=ls; for i in 1 2; do $x; x=rm; done` runs
    /// `rm` the second time). The outermost loop is walked once to learn
    /// what it changes, that walk is undone, those names are forgotten,
    /// and the loop is walked again for real (inner loops are covered by
    /// the outer one's first walk).
    pub(super) fn walk_loop(&mut self, node: Node, depth: usize, stdin: &Stdin) {
        if self.loop_depth == 0 && !self.full {
            let saved = self.clone();
            self.loop_depth += 1;
            self.loop_variable(node);
            self.conditionally(|w| w.walk_children(node, depth, stdin));
            let touched: Vec<String> = self
                .touched
                .get(saved.touched.len()..)
                .unwrap_or(&[])
                .to_vec();
            let all = self.touched_all != saved.touched_all;
            let untracked = self.untracked;
            let volatile = std::mem::take(&mut self.volatile);
            let unsure: Vec<String> = touched
                .iter()
                .filter(|name| !self.numeric.contains(*name))
                .cloned()
                .collect();
            *self = saved;
            self.untracked |= untracked;
            self.volatile.extend(volatile);
            self.unsure.extend(unsure);
            for name in touched {
                self.forget(&name);
            }
            if all {
                self.forget_all();
            }
        }
        self.loop_depth += 1;
        self.loop_variable(node);
        if kind(node) == "c_style_for_statement" {
            // The header as one expression: `i` in `i<n` is the `i` that
            // `i=0` and `i++` set.
            let mut header = Vec::new();
            for field in ["initializer", "condition", "update"] {
                let mut cursor = node.walk();
                let parts: Vec<Node> = node.children_by_field_name(field, &mut cursor).collect();
                header.extend(parts.iter().map(|p| text(*p, self.src)));
            }
            self.arithmetic(&header.join(", "), false, 0);
        }
        self.conditionally(|w| w.walk_children(node, depth, stdin));
        self.loop_depth -= 1;
    }

    /// `for x in …` and `select x in …` set `x` each time round: a number
    /// for certain when every word is a literal number (`for i in 1 2 3`).
    pub(super) fn loop_variable(&mut self, node: Node) {
        if let Some(variable) = node.child_by_field_name("variable") {
            let name = text(variable, self.src).to_string();
            let mut cursor = node.walk();
            let values: Vec<Node> = node.children_by_field_name("value", &mut cursor).collect();
            let words: Vec<Word> = values
                .iter()
                .map(|v| word::decode(*v, self.src, &self.vars))
                .collect();
            let numbers = !words.is_empty()
                && words.iter().all(|word| {
                    word.is_static() && is_number(&word.value) && !word.value.is_empty()
                });
            self.forget(&name);
            for word in words {
                self.hold(&name, Held::Word(word));
            }
            if numbers && !self.unsure.contains(&name) && !self.untracked {
                self.numeric.insert(name);
            }
        }
    }

    /// Once the whole line is walked: a command inside the body of `g`
    /// calls a function `f` for certain only if `f` ends up defined for
    /// certain in the line's own shell, is never unset, and no command
    /// before `f`'s definition names `g` (so `g` cannot run before `f`
    /// exists); any other name defined as a function anywhere in the line
    /// may be one.
    pub(super) fn resolve_body_calls(&mut self) {
        for (index, enclosing) in std::mem::take(&mut self.body_calls) {
            let Some(name) = self
                .script
                .commands
                .get(index)
                .and_then(|c| c.words.first())
                .map(|w| w.value.clone())
            else {
                continue;
            };
            let certain = self.functions.get(&name) == Some(&Callee::Function)
                && !self.unset_names.contains(&name)
                && self.defined_at.get(&name).is_some_and(|&at| {
                    !self
                        .script
                        .commands
                        .iter()
                        .take(at)
                        .any(|c| c.words.iter().any(|w| w.value == enclosing || w.dynamic))
                });
            let callee = if certain {
                Callee::Function
            } else if self.script.functions.contains(&name) {
                Callee::Either
            } else {
                Callee::Program
            };
            if let Some(command) = self.script.commands.get_mut(index) {
                command.callee = callee;
            }
        }
    }

    /// What a command's name calls here (see [`Callee`]). Inside a function
    /// body that depends on when the function runs: resolved at the end.
    pub(super) fn callee_of(&mut self, head: Option<&Word>) -> Callee {
        let Some(head) = head.filter(|w| w.is_static()) else {
            return Callee::Program;
        };
        if let Some(enclosing) = self
            .function_names
            .last()
            .filter(|_| self.function_body > 0)
        {
            let enclosing = enclosing.clone();
            self.body_calls
                .push((self.script.commands.len(), enclosing));
            return Callee::Program;
        }
        self.functions
            .get(&head.value)
            .copied()
            .unwrap_or(Callee::Program)
    }
}
