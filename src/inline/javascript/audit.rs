//! The JavaScript lane's audit: the syntactic checks of every node that
//! no call resolution sees. Members that lead to the `Function`
//! constructor or a caller (`FORBIDDEN_MEMBERS`), members chosen at run
//! time, `with`; and the rule for a value the lane cannot name (`o[k]`, or
//! a name bound to one), which may only be used as data. Takes the lane's
//! tree after its walk; adds unresolved findings to the lane, nothing else.

use super::{DATA_SINKS, FORBIDDEN_MEMBERS, Index, Lane, entry, kind, method_fallback, plain_pure};
use crate::inline::MAX_DEPTH;
use crate::inline::value::Value;
use std::collections::HashSet;
use tree_sitter::Node;

impl<'s> Lane<'s> {
    /// The syntactic checks of every node: members that lead to the
    /// `Function` constructor or a caller, members chosen at run time,
    /// `with`.
    pub(super) fn audit(&mut self, node: Node<'s>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match kind(node) {
            "member_expression"
                if self
                    .fields
                    .child(node, "property")
                    .is_some_and(|p| FORBIDDEN_MEMBERS.contains(&self.text(p))) =>
            {
                self.flag(node);
            }
            "subscript_expression" => {
                if let (Some(object), Some(index)) = (
                    self.fields.child(node, "object"),
                    self.fields.child(node, "index"),
                ) {
                    match self.index_kind(index) {
                        Index::Static(text) => {
                            if FORBIDDEN_MEMBERS.contains(&text.as_str()) {
                                self.flag(node);
                            }
                        }
                        Index::Numeric => {}
                        Index::Runtime => match self.eval(object, 0) {
                            Value::Name(_) | Value::Module(_) => self.flag(node),
                            _ => self.opaque_use(node),
                        },
                    }
                }
            }
            "pair_pattern" => {
                if let Some(key) = self.fields.child(node, "key") {
                    let forbidden_key = match kind(key) {
                        "computed_property_name" => true,
                        "string" => self
                            .string(key)
                            .as_text()
                            .is_some_and(|k| FORBIDDEN_MEMBERS.contains(&k)),
                        _ => FORBIDDEN_MEMBERS.contains(&self.text(key)),
                    };
                    if forbidden_key {
                        self.flag(node);
                    }
                }
            }
            "shorthand_property_identifier_pattern"
                if FORBIDDEN_MEMBERS.contains(&self.text(node)) =>
            {
                self.flag(node);
            }
            "with_statement" => self.flag(node),
            _ => {}
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        for child in children {
            self.audit(child, depth + 1);
        }
    }

    /// A value the lane cannot name (`o[k]`, or a name bound to one): it
    /// may be anything, the `Function` constructor included, so it may only
    /// be used as data: compared, printed, turned into text, tested, or
    /// bound to a name that is then held to the same rule. Called, handed
    /// to a function that is not a data sink, stored in an object or array,
    /// returned or awaited, it is unresolved.
    fn opaque_use(&mut self, start: Node<'s>) {
        let mut node = start;
        for _ in 0..MAX_DEPTH {
            let Some(parent) = node.parent() else {
                return;
            };
            match kind(parent) {
                "parenthesized_expression" | "sequence_expression" => node = parent,
                "binary_expression" => {
                    let op = self
                        .fields
                        .child(parent, "operator")
                        .map(|o| self.text(o))
                        .unwrap_or("");
                    if !matches!(op, "&&" | "||" | "??") {
                        return;
                    }
                    node = parent;
                }
                "ternary_expression" => {
                    if self.is_field(parent, "condition", node) {
                        return;
                    }
                    node = parent;
                }
                "unary_expression"
                | "update_expression"
                | "template_substitution"
                | "expression_statement"
                | "augmented_assignment_expression"
                | "if_statement"
                | "while_statement"
                | "do_statement"
                | "for_statement"
                | "switch_statement"
                | "switch_case" => return,
                "assignment_expression" => {
                    if self.is_field(parent, "left", node) {
                        return;
                    }
                    match self.fields.child(parent, "left") {
                        Some(left)
                            if matches!(
                                kind(left),
                                "identifier" | "object_pattern" | "array_pattern"
                            ) =>
                        {
                            self.mark_opaque(left);
                            return;
                        }
                        _ => break,
                    }
                }
                "variable_declarator" => {
                    if let Some(name) = self.fields.child(parent, "name") {
                        self.mark_opaque(name);
                    }
                    return;
                }
                "for_in_statement" => {
                    let of = self
                        .fields
                        .child(parent, "operator")
                        .is_some_and(|o| self.text(o) == "of");
                    if of
                        && self.is_field(parent, "right", node)
                        && let Some(left) = self.fields.child(parent, "left")
                    {
                        self.mark_opaque(left);
                    }
                    return;
                }
                "member_expression" | "subscript_expression" => {
                    if !self.is_field(parent, "object", node) {
                        return;
                    }
                    node = parent;
                }
                "call_expression" => {
                    let method = self.is_field(parent, "function", node)
                        && kind(node) == "member_expression"
                        && self.fields.child(node, "property").is_some_and(|p| {
                            entry(&format!("?.{}", self.text(p)), true).is_some_and(plain_pure)
                        });
                    if !method {
                        break;
                    }
                    node = parent;
                }
                "arguments" => {
                    if parent.parent().is_some_and(|c| self.is_data_sink(c)) {
                        return;
                    }
                    break;
                }
                _ => break,
            }
        }
        self.flag(start);
    }

    /// Whether a call only reads its arguments as data ([`DATA_SINKS`]).
    fn is_data_sink(&self, call: Node) -> bool {
        if kind(call) != "call_expression" {
            return false;
        }
        let callee = self.callee(self.fields.child(call, "function"), 0);
        let Some(name) = callee.name else {
            return false;
        };
        if name.starts_with("console.") || DATA_SINKS.contains(&name.as_str()) {
            return true;
        }
        callee.method
            && method_fallback(&callee.receiver)
            && name
                .rsplit_once('.')
                .is_some_and(|(_, m)| DATA_SINKS.contains(&format!("*.{m}").as_str()))
    }

    /// Marks the names a pattern binds as holding a value the lane cannot
    /// name.
    fn mark_opaque(&mut self, pattern: Node<'s>) {
        let mut names = Vec::new();
        self.pattern_names(pattern, &mut names, 0);
        for name in names {
            self.opaque.insert(self.text(name).to_string());
        }
    }

    /// Holds every use of a name bound to an unnamed value to the rule of
    /// [`Lane::opaque_use`], until no new name is marked.
    pub(super) fn opaque_names(&mut self, root: Node<'s>) {
        let mut checked: HashSet<usize> = HashSet::new();
        loop {
            let before = self.opaque.len();
            if before == 0 {
                return;
            }
            let mut uses = Vec::new();
            self.collect_uses(root, &mut uses, 0);
            for ident in uses {
                if checked.insert(ident.id()) {
                    self.opaque_use(ident);
                }
            }
            if self.opaque.len() == before {
                return;
            }
        }
    }

    /// The identifiers in expression positions whose name is opaque.
    fn collect_uses(&self, node: Node<'s>, out: &mut Vec<Node<'s>>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        if matches!(kind(node), "identifier" | "shorthand_property_identifier")
            && self.opaque.contains(self.text(node))
            && !self.is_binding_position(node)
        {
            out.push(node);
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        for child in children {
            self.collect_uses(child, out, depth + 1);
        }
    }

    /// Whether an identifier is where a name is bound, not used.
    fn is_binding_position(&self, node: Node) -> bool {
        let Some(parent) = node.parent() else {
            return false;
        };
        match kind(parent) {
            "variable_declarator" => self.is_field(parent, "name", node),
            "assignment_expression" | "assignment_pattern" | "object_assignment_pattern" => {
                self.is_field(parent, "left", node)
            }
            "augmented_assignment_expression" | "update_expression" => true,
            "formal_parameters" | "array_pattern" | "rest_pattern" | "object_pattern"
            | "import_clause" | "namespace_import" | "import_specifier" => true,
            "pair_pattern" => self.is_field(parent, "value", node),
            "arrow_function" => self.is_field(parent, "parameter", node),
            "catch_clause" => self.is_field(parent, "parameter", node),
            "for_in_statement" => self.is_field(parent, "left", node),
            "function_declaration"
            | "generator_function_declaration"
            | "class_declaration"
            | "function_expression"
            | "generator_function"
            | "class" => self.is_field(parent, "name", node),
            _ => false,
        }
    }
}
