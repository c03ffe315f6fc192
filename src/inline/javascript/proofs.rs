//! The JavaScript lane's first pass and its proofs: every binding of
//! every name in the code, the names that only ever hold numbers, the text
//! an expression has before the code runs, and what a subscript's index
//! is. Takes the lane's tree; records bindings in the lane and answers
//! from them. Judges nothing.

use super::{Binding, Index, Lane, kind, numeric_operator};
use crate::inline::MAX_DEPTH;
use std::collections::HashSet;
use tree_sitter::Node;

impl<'s> Lane<'s> {
    /// Records every binding of every name in the code (the first pass of
    /// the proofs).
    pub(super) fn collect_bindings(&mut self, node: Node<'s>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match kind(node) {
            "variable_declarator" => {
                if let Some(name) = self.fields.child(node, "name") {
                    if kind(name) == "identifier" {
                        let b = match self.fields.child(node, "value") {
                            Some(v) => Binding::Value(v, true),
                            None => Binding::Empty,
                        };
                        self.add_binding(name, b);
                    } else {
                        self.pattern_bindings(name);
                    }
                }
            }
            "assignment_expression" => {
                if let (Some(left), Some(right)) = (
                    self.fields.child(node, "left"),
                    self.fields.child(node, "right"),
                ) {
                    if kind(left) == "identifier" {
                        self.add_binding(left, Binding::Value(right, false));
                    } else {
                        self.pattern_bindings(left);
                    }
                }
            }
            "augmented_assignment_expression" => {
                if let (Some(left), Some(right), Some(op)) = (
                    self.fields.child(node, "left"),
                    self.fields.child(node, "right"),
                    self.fields.child(node, "operator"),
                ) && kind(left) == "identifier"
                {
                    let b = match self.text(op) {
                        "+=" => Binding::Plus(right),
                        "&&=" | "||=" | "??=" => Binding::Value(right, false),
                        _ => Binding::Numeric,
                    };
                    self.add_binding(left, b);
                }
            }
            "update_expression" => {
                if let Some(arg) = self.fields.child(node, "argument")
                    && kind(arg) == "identifier"
                {
                    self.add_binding(arg, Binding::Numeric);
                }
            }
            "formal_parameters" => self.pattern_bindings(node),
            "arrow_function" => {
                if let Some(p) = self.fields.child(node, "parameter") {
                    self.pattern_bindings(p);
                }
            }
            "catch_clause" => {
                if let Some(p) = self.fields.child(node, "parameter") {
                    self.pattern_bindings(p);
                }
            }
            "for_in_statement" => {
                if let Some(left) = self.fields.child(node, "left") {
                    self.pattern_bindings(left);
                }
            }
            "function_declaration"
            | "generator_function_declaration"
            | "class_declaration"
            | "function_expression"
            | "generator_function"
            | "class" => {
                if let Some(name) = self.fields.child(node, "name") {
                    self.add_binding(name, Binding::Other);
                }
            }
            "import_statement" => self.pattern_bindings(node),
            _ => {}
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        for child in children {
            self.collect_bindings(child, depth + 1);
        }
    }

    fn add_binding(&mut self, name: Node<'s>, binding: Binding<'s>) {
        self.bindings
            .entry(self.text(name).to_string())
            .or_default()
            .push(binding);
    }

    /// Every name a pattern (or parameter list, or import) binds, bound to
    /// anything.
    fn pattern_bindings(&mut self, pattern: Node<'s>) {
        let mut names = Vec::new();
        self.pattern_names(pattern, &mut names, 0);
        for name in names {
            self.add_binding(name, Binding::Other);
        }
    }

    /// The identifiers a pattern binds (not its default values or keys).
    pub(super) fn pattern_names(&self, node: Node<'s>, out: &mut Vec<Node<'s>>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match kind(node) {
            "identifier" | "shorthand_property_identifier_pattern" => out.push(node),
            "assignment_pattern" | "object_assignment_pattern" => {
                if let Some(left) = self.fields.child(node, "left") {
                    self.pattern_names(left, out, depth + 1);
                }
            }
            "pair_pattern" => {
                if let Some(value) = self.fields.child(node, "value") {
                    self.pattern_names(value, out, depth + 1);
                }
            }
            "import_specifier" => {
                if let Some(n) = self
                    .fields
                    .child(node, "alias")
                    .or_else(|| self.fields.child(node, "name"))
                {
                    self.pattern_names(n, out, depth + 1);
                }
            }
            "object_pattern" | "array_pattern" | "rest_pattern" | "formal_parameters"
            | "import_statement" | "import_clause" | "named_imports" | "namespace_import" => {
                let mut cursor = node.walk();
                let children: Vec<Node> = node.named_children(&mut cursor).collect();
                for child in children {
                    self.pattern_names(child, out, depth + 1);
                }
            }
            _ => {}
        }
    }

    /// The names that only ever hold numbers (or nothing): every binding is
    /// a number, `++`, `-=`, or `+=` of a number. The largest such set.
    pub(super) fn numeric_names(&self) -> HashSet<String> {
        let mut set: HashSet<String> = self
            .bindings
            .iter()
            .filter(|(_, bs)| bs.iter().all(|b| !matches!(b, Binding::Other)))
            .map(|(n, _)| n.clone())
            .collect();
        loop {
            let failing: Vec<String> = set
                .iter()
                .filter(|name| {
                    self.bindings.get(*name).is_some_and(|bs| {
                        bs.iter().any(|b| match b {
                            Binding::Value(v, _) | Binding::Plus(v) => {
                                !self.is_numeric(*v, &set, 0)
                            }
                            _ => false,
                        })
                    })
                })
                .cloned()
                .collect();
            if failing.is_empty() {
                return set;
            }
            for name in failing {
                set.remove(&name);
            }
        }
    }

    /// Whether an expression is always a number (or another primitive
    /// that is not text), given the names known to be numbers.
    fn is_numeric(&self, node: Node, names: &HashSet<String>, depth: usize) -> bool {
        if depth > 32 {
            return false;
        }
        let field = |f: &str| self.fields.child(node, f);
        match kind(node) {
            "number" | "true" | "false" | "null" | "undefined" | "unary_expression"
            | "update_expression" => true,
            "parenthesized_expression" => node
                .named_child(0)
                .is_some_and(|c| self.is_numeric(c, names, depth + 1)),
            "identifier" => names.contains(self.text(node)),
            "binary_expression" => {
                let op = field("operator").map(|o| self.text(o)).unwrap_or("");
                let both = || {
                    field("left").is_some_and(|l| self.is_numeric(l, names, depth + 1))
                        && field("right").is_some_and(|r| self.is_numeric(r, names, depth + 1))
                };
                match op {
                    "+" | "&&" | "||" | "??" => both(),
                    "<" | ">" | "<=" | ">=" | "==" | "===" | "!=" | "!==" | "in" | "instanceof" => {
                        true
                    }
                    _ => numeric_operator(op),
                }
            }
            "ternary_expression" => {
                field("consequence").is_some_and(|c| self.is_numeric(c, names, depth + 1))
                    && field("alternative").is_some_and(|a| self.is_numeric(a, names, depth + 1))
            }
            "call_expression" => {
                let callee = self.callee(field("function"), 0);
                callee.name.is_some_and(|n| {
                    n.starts_with("Math.")
                        || matches!(
                            n.as_str(),
                            "Number" | "parseInt" | "parseFloat" | "Date.now"
                        )
                })
            }
            _ => false,
        }
    }

    /// Text an expression has before the code runs: literals, `+` of
    /// them, and names bound once by a declaration to such text.
    pub(super) fn static_text(&self, node: Node, depth: usize) -> Option<String> {
        if depth > 16 {
            return None;
        }
        match kind(node) {
            "string" => self.string(node).as_text().map(str::to_string),
            "template_string" => self.eval(node, 0).as_text().map(str::to_string),
            "parenthesized_expression" => self.static_text(node.named_child(0)?, depth + 1),
            "binary_expression" => {
                let op = self.fields.child(node, "operator")?;
                if self.text(op) != "+" {
                    return None;
                }
                let left = self.static_text(self.fields.child(node, "left")?, depth + 1)?;
                let right = self.static_text(self.fields.child(node, "right")?, depth + 1)?;
                Some(left + &right)
            }
            "identifier" => match self.bindings.get(self.text(node))?.as_slice() {
                [Binding::Value(v, true)] => self.static_text(*v, depth + 1),
                _ => None,
            },
            _ => None,
        }
    }

    /// What a subscript's index is.
    pub(super) fn index_kind(&self, index: Node) -> Index {
        if let Some(text) = self.static_text(index, 0) {
            Index::Static(text)
        } else if self.is_numeric(index, &self.numeric, 0) {
            Index::Numeric
        } else {
            Index::Runtime
        }
    }
}
