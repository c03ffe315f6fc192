//! The tree-sitter walk: one bash tree in, a [`Script`] out. [`Walker`]
//! visits every node once and dispatches by kind ([`Walker::walk`]);
//! commands and pipelines are read in `commands`, redirections and
//! heredocs in `redirects`, variables and arithmetic in `variables`,
//! subshells, branches, loops and functions in `scopes`, and the small
//! questions about nodes in `nodes`. Touches nothing outside the script
//! it builds.

mod commands;
mod nodes;
mod redirects;
mod scopes;
mod variables;

pub(super) use nodes::heredoc_end_line;
pub(super) use nodes::heredoc_start as heredoc_body_start;

use crate::limits;
use crate::shell::guard::{first_error, guard_dropped_text, only_read_write_redirects};
use crate::shell::parse::kind;
use crate::shell::types::{Callee, Problem, Script, SimpleCommand, Stdin};
use crate::shell::word::{Vars, Word, text};
use nodes::{endless_loop_in_background, inside};
use std::collections::HashMap;
use std::collections::HashSet;
use tree_sitter::{Node, Tree};

/// The named node kinds [`Walker::walk`] reads by an arm of its own (kept
/// beside the match for the test that lists the grammar's kinds).
#[cfg(test)]
const HANDLED: &[&str] = &[
    "command",
    "declaration_command",
    "unset_command",
    "test_command",
    "variable_assignment",
    "variable_assignments",
    "redirected_statement",
    "pipeline",
    "function_definition",
    "case_statement",
    "compound_statement",
    "subshell",
    "negated_command",
    "heredoc_body",
    "comment",
    "ERROR",
    "while_statement",
    "c_style_for_statement",
    "for_statement",
    "if_statement",
    "elif_clause",
    "else_clause",
    "case_item",
    "list",
];

/// The named node kinds [`Walker::walk`] passes through, walking their
/// children (the commands inside a word's `$( )`, a loop's `do` group, an
/// arithmetic expression). Any other named kind makes the line
/// [`Problem::Unsupported`]: a kind a newer tree-sitter-bash adds is not
/// read as harmless by default (as Codex's `ALLOWED_KINDS`).
const PASSED_THROUGH: &[&str] = &[
    "program",
    "do_group",
    "command_name",
    "word",
    "string",
    "raw_string",
    "ansi_c_string",
    "translated_string",
    "string_content",
    "concatenation",
    "expansion",
    "simple_expansion",
    "command_substitution",
    "process_substitution",
    "arithmetic_expansion",
    "number",
    "variable_name",
    "special_variable_name",
    "subscript",
    "array",
    "brace_expression",
    "extglob_pattern",
    "regex",
    "test_operator",
    "binary_expression",
    "unary_expression",
    "ternary_expression",
    "postfix_expression",
    "parenthesized_expression",
    "file_descriptor",
    "file_redirect",
    "heredoc_redirect",
    "herestring_redirect",
    "heredoc_start",
    "heredoc_content",
    "heredoc_end",
];

#[derive(Clone)]
struct Walker<'s> {
    src: &'s [u8],
    script: Script,
    vars: Vars,
    /// Functions in scope at this point of the walk (see [`Callee`]).
    functions: HashMap<String, Callee>,
    /// How many function bodies enclose the walk.
    function_body: u32,
    /// The functions whose bodies are being walked, outermost first.
    function_names: Vec<String>,
    /// Where each function was last defined for certain: the number of
    /// commands before it.
    defined_at: HashMap<String, usize>,
    /// Commands inside function bodies: their index and the innermost
    /// function around them. Resolved once the whole line is walked
    /// (`resolve_body_calls`).
    body_calls: Vec<(usize, String)>,
    /// Names given to `unset` anywhere in the line.
    unset_names: HashSet<String>,
    /// Every variable name assigned or forgotten so far, in order: what a
    /// function body or a loop changes.
    touched: Vec<String>,
    /// How many times every variable was forgotten at once (`eval`).
    touched_all: u32,
    /// Names whose values are never tracked again: assigned in a function
    /// body (which may run at any later point) or given an attribute that
    /// changes what is stored (`declare -l`, `-u`).
    volatile: HashSet<String>,
    /// No variable is tracked any more (a nameref, a `trap`, an `eval`
    /// inside a function body).
    untracked: bool,
    /// Variables declared `-i`: what is assigned to them is arithmetic.
    integers: HashSet<String>,
    /// Variables declared `-l` (`false`) or `-u` (`true`): bash stores
    /// what is assigned in lower or upper case.
    cased: HashMap<String, bool>,
    /// Associative arrays: their subscripts are strings, not arithmetic.
    associative: HashSet<String>,
    /// `IFS` was set: unquoted expansions split in ways not modelled.
    ifs_changed: bool,
    /// How many loops enclose the walk (see `walk_loop`).
    loop_depth: u32,
    /// Variables `${x:=y}` assigns in the words being read.
    assigned_in_words: Vec<String>,
    /// Variables that hold a number for certain (set by arithmetic, or by
    /// `for i in 1 2 3`): safe in arithmetic though their value is unknown.
    numeric: HashSet<String>,
    /// Names a loop body may set to text: arithmetic in the loop does not
    /// make them numbers for certain.
    unsure: HashSet<String>,
    /// The subshells being walked, outermost first.
    scope_stack: Vec<u32>,
    /// More commands or words than the limits were found: the walk stops.
    full: bool,
    /// Words decoded so far, in every command.
    words_seen: usize,
    /// How many branches, loops or `&&`/`||` right-hand sides enclose the
    /// walk: assignments there may not happen.
    conditional: u32,
    /// The next subshell id (0 is the script itself).
    next_scope: u32,
    /// Words tree-sitter hung on a redirection as extra targets
    /// (`git > /dev/null reset --hard`): for bash they are arguments of
    /// the command, and they go back to it.
    stray_words: Vec<Word>,
    /// Heredoc bodies as bash reads them where tree-sitter misplaced the
    /// end ([`Problem::HeredocEnd`]): a `<<` tree-sitter finds in one is
    /// body text to bash, not a heredoc of its own.
    bash_bodies: Vec<std::ops::Range<usize>>,
}

pub(super) fn walk_tree(tree: &Tree, source: &str, functions: &[(String, Callee)]) -> Script {
    let root = tree.root_node();
    let mut walker = Walker {
        src: source.as_bytes(),
        script: Script::default(),
        vars: Vars::new(),
        functions: functions.iter().cloned().collect(),
        function_body: 0,
        function_names: Vec::new(),
        defined_at: HashMap::new(),
        body_calls: Vec::new(),
        unset_names: HashSet::new(),
        touched: Vec::new(),
        touched_all: 0,
        volatile: HashSet::new(),
        untracked: false,
        integers: HashSet::new(),
        cased: HashMap::new(),
        associative: HashSet::new(),
        ifs_changed: false,
        loop_depth: 0,
        assigned_in_words: Vec::new(),
        numeric: HashSet::new(),
        unsure: HashSet::new(),
        stray_words: Vec::new(),
        bash_bodies: Vec::new(),
        scope_stack: Vec::new(),
        next_scope: 1,
        conditional: 0,
        full: false,
        words_seen: 0,
    };
    if root.has_error() && !only_read_write_redirects(root, walker.src) {
        walker
            .script
            .problems
            .push(Problem::Syntax(first_error(root, walker.src)));
    }
    guard_dropped_text(root, walker.src, &mut walker.script.problems);
    walker.walk(root, 0, &Stdin::Inherited);
    walker.resolve_body_calls();
    walker.script
}

impl Walker<'_> {
    /// Whether `node` starts inside a heredoc body as bash reads it, after
    /// tree-sitter misplaced the body's end: text to bash, whatever
    /// tree-sitter made of it.
    fn in_bash_body(&self, node: Node) -> bool {
        self.bash_bodies
            .iter()
            .any(|body| body.contains(&node.start_byte()))
    }

    fn walk(&mut self, node: Node, depth: usize, stdin: &Stdin) {
        // Past the command limit the verdict is decided (and a heredoc
        // body is text): stop walking.
        if self.full || self.in_bash_body(node) {
            return;
        }
        if depth > limits::MAX_TREE_DEPTH {
            if !self.script.problems.contains(&Problem::TooDeep) {
                self.script.problems.push(Problem::TooDeep);
            }
            return;
        }
        match kind(node) {
            "command" => self.walk_command(node, depth, stdin, Vec::new()),
            "declaration_command" | "unset_command" | "test_command" => {
                self.walk_builtin_like(node, depth, stdin)
            }
            "variable_assignment" => self.walk_assignment(node, depth),
            "variable_assignments" => self.walk_children(node, depth, stdin),
            "redirected_statement" => self.walk_redirected(node, depth, stdin),
            "pipeline" => self.walk_pipeline(node, depth, stdin),
            "function_definition" => self.walk_function(node, depth),
            "case_statement" => {
                self.guard_case_end(node);
                self.conditionally(|w| w.walk_children(node, depth, stdin));
            }
            // Shapes bash rejects that tree-sitter accepts: an empty group
            // (`{ }`, `f() {}`), and `!` inside a pipeline (`a | ! b`).
            "compound_statement" | "subshell" | "negated_command" => {
                if text(node, self.src).starts_with("((") {
                    let inner = text(node, self.src);
                    let inner = inner.trim_start_matches("((").trim_end_matches("))");
                    self.arithmetic(inner, false, 0);
                }
                let mut cursor = node.walk();
                let empty = !node
                    .named_children(&mut cursor)
                    .any(|c| kind(c) != "comment");
                let negated_inside_pipeline = kind(node) == "negated_command"
                    && node
                        .parent()
                        .is_some_and(|p| kind(p) == "pipeline" && p.named_child(0) != Some(node));
                if empty || negated_inside_pipeline {
                    self.script.problems.push(Problem::Syntax(format!(
                        "bash rejects `{}` here",
                        limits::clip(text(node, self.src), 40)
                    )));
                }
                if kind(node) == "subshell" {
                    self.in_subshell(|w| w.walk_children(node, depth, stdin));
                } else {
                    self.walk_children(node, depth, stdin);
                }
            }
            ";;" | ";&" | ";;&" if !inside(node, "case_item") => {
                self.script
                    .problems
                    .push(Problem::Syntax("`;;` outside a case".into()));
            }
            "heredoc_body" | "comment" => {}
            "ERROR" => {
                // Still collect whatever commands tree-sitter recovered inside,
                // so a floor command next to a syntax error is not missed.
                self.walk_children(node, depth, stdin);
            }
            "while_statement" | "c_style_for_statement" | "for_statement" => {
                if endless_loop_in_background(node, self.src) {
                    self.script.fork_bomb = true;
                }
                self.walk_loop(node, depth, stdin);
            }
            "if_statement" | "elif_clause" | "else_clause" | "case_item" => {
                self.conditionally(|w| w.walk_children(node, depth, stdin))
            }
            "list" => self.walk_list(node, depth, stdin),
            // A named kind the walk does not know (a newer grammar's): its
            // commands are still collected, but the line is not vouched for.
            other if node.is_named() && !PASSED_THROUGH.contains(&other) => {
                self.script.problems.push(Problem::Unsupported(format!(
                    "the bash construct `{other}`"
                )));
                self.walk_children(node, depth, stdin);
            }
            _ => self.walk_children(node, depth, stdin),
        }
    }

    /// tree-sitter-bash ends a `case` at an `esac` written as an argument
    /// (`?) echo x esac;; done`), where bash reads a plain word and then
    /// finds no `esac`. An `esac` must follow `;`, `&`, a newline or `in`.
    fn guard_case_end(&mut self, node: Node) {
        let mut cursor = node.walk();
        let end = node.children(&mut cursor).find(|c| kind(c) == "esac");
        let Some(end) = end else { return };
        let before = self
            .src
            .get(node.start_byte()..end.start_byte())
            .unwrap_or(&[]);
        let before = String::from_utf8_lossy(before);
        let trimmed = before.trim_end_matches([' ', '\t']);
        let in_command_position = trimmed.ends_with([';', '&', '\n'])
            || trimmed.ends_with(" in")
            || trimmed.ends_with("\tin");
        if !in_command_position {
            self.script.problems.push(Problem::Syntax(
                "`esac` where bash reads an argument".into(),
            ));
        }
    }

    /// Walks each child; one followed by `&` runs in the background, in a
    /// subshell of its own (`f() { :; } & f` calls no function).
    fn walk_children(&mut self, node: Node, depth: usize, stdin: &Stdin) {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        for (i, child) in children.iter().enumerate() {
            let background = child.is_named()
                && children
                    .get(i + 1)
                    .is_some_and(|next| kind(*next) == "&" && !next.is_named());
            if background {
                self.in_subshell(|w| w.walk(*child, depth + 1, stdin));
            } else {
                self.walk(*child, depth + 1, stdin);
            }
        }
    }

    fn push(&mut self, mut command: SimpleCommand) {
        for name in std::mem::take(&mut self.assigned_in_words) {
            self.forget(&name);
        }
        // `${!g}`: the value of whichever variable `g` names, any of those
        // known here among them.
        let indirect = |w: &Word| w.dynamic && w.source.contains("${!");
        if command.words.iter().any(indirect)
            || command.redirects.iter().any(|r| indirect(&r.target))
        {
            self.script.any_variable = true;
            let mut known: Vec<(String, Word)> = self
                .vars
                .iter()
                .map(|(n, w)| (n.clone(), w.clone()))
                .collect();
            // In a fixed order, so the same line gets the same reason.
            known.sort_by(|a, b| a.0.cmp(&b.0));
            for (name, value) in known {
                self.script.hold(&name, super::types::Held::Word(value));
            }
        }
        command.scopes = self.scope_stack.clone();
        if self.script.commands.len() >= limits::MAX_COMMANDS {
            if !self.full {
                self.script.problems.push(Problem::TooMany);
                self.full = true;
            }
            return;
        }
        self.script.commands.push(command);
    }

    /// `a && b || c`: what follows an `&&` or `||` may not run.
    fn walk_list(&mut self, node: Node, depth: usize, stdin: &Stdin) {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        let mut after_operator = false;
        for child in children {
            if matches!(kind(child), "&&" | "||") {
                after_operator = true;
            }
            if after_operator {
                self.conditionally(|w| w.walk(child, depth + 1, stdin));
            } else {
                self.walk(child, depth + 1, stdin);
            }
        }
    }
}

#[cfg(test)]
mod tests;
