//! The Python lane: parses code with tree-sitter-python and walks it once
//! with its own recursion, following imports and aliases
//! (`import os as o`, `from shutil import rmtree as r`, `from os import *`,
//! `f = os.system`, `getattr(os, "system")`, `__import__("os")`) so each
//! call resolves to a canonical name that `rules/inline.json` judges.
//!
//! Takes code text; returns an [`Analysis`]. Bindings are flow-insensitive
//! and global: a name bound anywhere before its use keeps its last value,
//! which errs toward finding an effect, never toward missing one.
//!
//! FREE is proven, call by call: every call must resolve to an entry of the
//! table (a known pure function, or one whose effect is judged), to a
//! function or class defined in the code itself (its body is read where it
//! is defined), or it is `unresolved`. Names are read as Python reads them,
//! after NFKC normalisation (`ｏｓ` is `os`). A module reached through
//! another (`glob.os`, `shutil.os`, `os.path.os`) is that module. A module,
//! or a name the table does not know, used as a value (put in a list,
//! passed on, returned) is unresolved: it could reach a method call on a
//! value the lane cannot follow.

mod values;

use super::value::Value;
use super::{Analysis, Args, Callee, Fields, Findings, Language, MAX_DEPTH};
use crate::grammar::Grammar;
use crate::rules::{self, CodeEffect};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use tree_sitter::Node;
use unicode_normalization::UnicodeNormalization;
use values::{member, member_name, module_member};

/// The kind name of a Python node (see [`Grammar::kind`]).
fn kind<'t>(node: impl std::borrow::Borrow<Node<'t>>) -> &'static str {
    Grammar::Python.kind(*node.borrow())
}

/// Dunder attributes that are only data: reading them runs nothing and
/// reaches nothing else.
#[rustfmt::skip]
const DATA_DUNDERS: &[&str] = &[
    "__all__", "__doc__", "__file__", "__module__", "__name__", "__qualname__", "__version__",
];

/// Attributes that reach a module's or object's internals (its globals,
/// frames, code), where a name can be looked up from a string nobody reads
/// first.
#[rustfmt::skip]
const INTROSPECTION: &[&str] = &[
    "__bases__", "__builtins__", "__class__", "__closure__", "__code__", "__dict__",
    "__getattribute__", "__globals__", "__loader__", "__mro__", "__subclasses__",
    "ag_frame", "cr_frame", "f_back", "f_builtins", "f_code", "f_globals", "f_locals",
    "func_code", "func_globals", "gi_code", "gi_frame", "im_func", "im_self", "tb_frame",
    "tb_next",
];

/// Modules whose import starts another program (`import antigravity`
/// opens a web browser).
const SPAWNING_IMPORTS: &[&str] = &["antigravity"];

/// Readers that also fetch a URL or a remote store given as the path
/// (`pandas.read_csv('https://…')`): pure only for a literal local path.
#[rustfmt::skip]
const URL_READERS: &[&str] = &[
    "pandas.read_csv", "pandas.read_excel", "pandas.read_json", "pandas.read_parquet",
    "pandas.read_table",
];

/// Calls that change where later imports are found: pure only for a
/// literal relative path that stays in the working folder (`'.'`, `'src'`).
const IMPORT_PATHS: &[&str] = &["sys.path.append", "sys.path.insert"];

/// Calls that only look at the value they are given (print it, describe
/// it) and hand nothing of it back, or that are judged dynamic themselves
/// (`vars(os)`): a module or unknown name passed to them goes nowhere else
/// unjudged.
#[rustfmt::skip]
const LOOKS_ONLY: &[&str] = &[
    "callable", "dir", "getattr", "globals", "hasattr", "id", "inspect.getcomments", "inspect.getdoc",
    "inspect.getfile", "inspect.getsource", "inspect.getsourcefile", "inspect.getsourcelines",
    "inspect.isclass", "inspect.isfunction", "inspect.ismethod", "inspect.ismodule",
    "inspect.signature", "isinstance", "issubclass", "locals", "print", "repr", "str", "vars",
];

/// Reads Python `code`; `depth` counts code-in-code levels already entered.
pub fn analyse(code: &str, depth: usize) -> Analysis {
    if let Some(encoding) = foreign_encoding(code) {
        return Analysis {
            found: Vec::new(),
            unparsable: Some(format!(
                "it declares the source encoding `{}`, which Python decodes into code portcullis does not see",
                crate::limits::clip(encoding, 40)
            )),
        };
    }
    let tree = match super::parse(Grammar::Python, code, "Python") {
        Ok(tree) => tree,
        Err(failed) => return failed,
    };
    let root = tree.root_node();
    let mut lane = Lane::new(code, depth);
    lane.collect_definitions(root);
    lane.visit(root, 0);
    let mut analysis = lane.findings.analysis;
    if root.has_error() && analysis.unparsable.is_none() {
        analysis.unparsable = Some(super::first_error(root, code.as_bytes()));
    }
    analysis
}

/// Source encodings whose text reads the same as the UTF-8 the lane reads
/// (for every ASCII character).
#[rustfmt::skip]
const READ_ENCODINGS: &[&str] = &[
    "ascii", "cp1252", "iso-8859-1", "iso-8859-15", "iso-latin-1", "iso8859-1", "l1", "latin-1",
    "latin1", "us-ascii", "utf-8", "utf-8-sig", "utf8",
];

/// The encoding a PEP 263 cookie in the first two lines declares
/// (`# -*- coding: utf-7 -*-`), when it is not one the lane reads as
/// Python does: under `utf-7` a comment such as `#+AAo-import os` is code.
fn foreign_encoding(code: &str) -> Option<&str> {
    for line in code.lines().take(2) {
        let trimmed = line.trim_start_matches([' ', '\t', '\x0c']);
        if !trimmed.starts_with('#') {
            // Only a comment line may come before the cookie's line.
            if trimmed.is_empty() {
                continue;
            }
            return None;
        }
        // As Python's `coding[:=]`: the first `coding` followed by `:` or `=`.
        let Some(rest) = trimmed
            .match_indices("coding")
            .find_map(|(at, _)| trimmed[at + "coding".len()..].strip_prefix([':', '=']))
        else {
            continue;
        };
        let rest = rest.trim_start_matches([' ', '\t']);
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        let normal = name.to_ascii_lowercase().replace('_', "-");
        return (!READ_ENCODINGS.contains(&normal.as_str())).then_some(name);
    }
    None
}

/// The node kinds that can hold a statement, so a function or class
/// definition, at any depth: every kind of tree-sitter-python 0.25's
/// `node-types.json` with a child or field that is one of these or a
/// definition. A kind left out would hide a definition, whose calls would
/// then be unresolved: never FREE by mistake.
#[rustfmt::skip]
const HOLDS_STATEMENTS: &[&str] = &[
    "block", "case_clause", "class_definition", "decorated_definition", "elif_clause",
    "else_clause", "except_clause", "finally_clause", "for_statement", "function_definition",
    "if_statement", "match_statement", "module", "try_statement", "while_statement",
    "with_statement",
];

/// The grammar's fields the lane reads.
const FIELDS: &[&str] = &[
    "alias",
    "arguments",
    "attribute",
    "body",
    "function",
    "key",
    "left",
    "module_name",
    "name",
    "object",
    "operator",
    "parameters",
    "return_type",
    "right",
    "subscript",
    "type",
    "type_parameters",
    "value",
    "superclasses",
];

/// [`FIELDS`] as field ids, looked up once.
static LANE_FIELDS: std::sync::LazyLock<Fields> =
    std::sync::LazyLock::new(|| Fields::new(Grammar::Python.language(), FIELDS));

struct Lane<'s, 't> {
    src: &'s str,
    fields: &'static Fields,
    /// Cursors to walk children with, kept for reuse (one per level the
    /// walk is in at once).
    cursors: Vec<tree_sitter::TreeCursor<'t>>,
    /// Names bound by imports and assignments.
    env: HashMap<String, Value>,
    /// Modules imported with `from m import *`.
    star: Vec<String>,
    /// Names of the functions and classes the code defines (methods
    /// included): their bodies are read where they are defined.
    defined: HashSet<String>,
    /// Whether the walk is directly in a class body (not inside a method
    /// or lambda of it): an assignment there makes an attribute of the
    /// class, not a plain name. Kept as the walk enters bodies (asking a
    /// node for its parent costs a walk down from the root each time).
    in_class_body: bool,
    findings: Findings,
}

/// How a call resolves.
#[derive(Debug, PartialEq, Eq)]
enum Resolution {
    /// To a table entry: a known pure function, or an effect judged by the
    /// table.
    Table,
    /// To a function or class the code defines.
    Defined,
    /// To nothing known.
    Unresolved,
}

/// A name as Python reads it: NFKC-normalised (`ｏｓ` is `os`).
fn normalised(name: &str) -> Cow<'_, str> {
    if name.is_ascii() {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(name.nfkc().collect())
    }
}

/// Whether `name` is a plain identifier that is not private or a dunder
/// (`sqrt`, not `_x` or `__class__`).
fn is_public_identifier(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `name` is a dunder that is not plain data (`__class__`).
fn is_code_dunder(name: &str) -> bool {
    name.len() > 4
        && name.starts_with("__")
        && name.ends_with("__")
        && !DATA_DUNDERS.contains(&name)
}

fn text<'s>(node: Node, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

fn line(node: Node) -> usize {
    node.start_position().row + 1
}

impl<'s, 't> Lane<'s, 't> {
    /// A lane for `code`, `depth` code-in-code levels down, with nothing
    /// bound yet.
    fn new(code: &'s str, depth: usize) -> Lane<'s, 't> {
        Lane {
            src: code,
            fields: &LANE_FIELDS,
            cursors: Vec::new(),
            env: HashMap::new(),
            star: Vec::new(),
            defined: HashSet::new(),
            in_class_body: false,
            findings: Findings::new(Language::Python, depth),
        }
    }

    fn text(&self, node: Node<'t>) -> &'s str {
        text(node, self.src)
    }

    /// The text of a name node (identifier, attribute name, dotted import
    /// name), normalised as Python normalises identifiers.
    fn name(&self, node: Node<'t>) -> Cow<'s, str> {
        normalised(self.text(node))
    }

    /// Records the names of every function and class the code defines.
    /// Definitions are statements: the walk enters only the nodes that can
    /// hold statements ([`HOLDS_STATEMENTS`]), not expressions.
    fn collect_definitions(&mut self, root: Node<'t>) {
        let mut cursor = root.walk();
        let mut depth = 0usize;
        loop {
            let node = cursor.node();
            let node_kind = kind(node);
            if matches!(node_kind, "function_definition" | "class_definition")
                && let Some(name) = self.fields.child(node, "name")
            {
                let name = self.name(name).into_owned();
                self.defined.insert(name);
            }
            let enter = HOLDS_STATEMENTS.contains(&node_kind) || node.is_error();
            if enter && depth < MAX_DEPTH && cursor.goto_first_child() {
                depth += 1;
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return;
                }
                depth = depth.saturating_sub(1);
            }
        }
    }

    fn visit(&mut self, node: Node<'t>, depth: usize) {
        if depth > MAX_DEPTH {
            self.findings
                .analysis
                .unparsable
                .get_or_insert_with(|| "the code nests too deep to read".into());
            return;
        }
        match kind(node) {
            "import_statement" => self.import(node),
            "import_from_statement" => self.import_from(node),
            "future_import_statement" | "comment" | "global_statement" | "nonlocal_statement" => {}
            "assignment" | "augmented_assignment" => {
                // `x: T = v`: Python evaluates the annotation `T` at module
                // and class level.
                if let Some(annotation) = self.fields.child(node, "type") {
                    self.visit(annotation, depth + 1);
                }
                if let Some(right) = self.fields.child(node, "right") {
                    // `f = os.system` only names the function: its calls
                    // through `f` are judged. Stored anywhere else
                    // (`self.m = os`), the value is used.
                    let alias = kind(node) == "assignment"
                        && self
                            .fields
                            .child(node, "left")
                            .is_some_and(|l| kind(l) == "identifier")
                        && !self.in_class_body;
                    if !(alias && matches!(kind(right), "identifier" | "attribute")) {
                        self.visit(right, depth + 1);
                    }
                    let value = if kind(node) == "assignment" {
                        self.eval(right, 0)
                    } else {
                        Value::Unknown
                    };
                    if let Some(left) = self.fields.child(node, "left") {
                        self.bind(left, value, depth);
                    }
                }
            }
            "named_expression" => {
                if let Some(value) = self.fields.child(node, "value") {
                    self.visit(value, depth + 1);
                    let v = self.eval(value, 0);
                    if let Some(name) = self.fields.child(node, "name") {
                        self.env.insert(self.name(name).into_owned(), v);
                    }
                }
            }
            "call" => self.call(node, depth),
            "attribute" | "identifier" | "subscript" => self.reference(node, depth),
            "function_definition" => {
                if let Some(name) = self.fields.child(node, "name") {
                    self.env
                        .insert(self.name(name).into_owned(), Value::Function);
                }
                if let Some(params) = self.fields.child(node, "parameters") {
                    self.visit_defaults(params, depth);
                }
                // Annotations are evaluated where the function is defined.
                for field in ["return_type", "type_parameters"] {
                    if let Some(child) = self.fields.child(node, field) {
                        self.visit(child, depth + 1);
                    }
                }
                if let Some(body) = self.fields.child(node, "body") {
                    self.visit_body(body, false, depth);
                }
            }
            "class_definition" => {
                // Calling the class runs its `__init__`, read in its body.
                if let Some(name) = self.fields.child(node, "name") {
                    self.env
                        .insert(self.name(name).into_owned(), Value::Function);
                }
                for field in ["type_parameters", "superclasses"] {
                    if let Some(child) = self.fields.child(node, field) {
                        self.visit(child, depth + 1);
                    }
                }
                if let Some(body) = self.fields.child(node, "body") {
                    self.visit_body(body, true, depth);
                }
            }
            "lambda" => {
                if let Some(params) = self.fields.child(node, "parameters") {
                    self.visit_defaults(params, depth);
                }
                if let Some(body) = self.fields.child(node, "body") {
                    self.visit_body(body, false, depth);
                }
            }
            "keyword_argument" => {
                if let Some(value) = self.fields.child(node, "value") {
                    self.visit(value, depth + 1);
                }
            }
            "for_statement" | "for_in_clause" => {
                if let Some(left) = self.fields.child(node, "left") {
                    self.bind(left, Value::Unknown, depth);
                }
                self.visit_named_except(node, "left", depth);
            }
            "as_pattern" => {
                // `with open(p, "w") as f`: the value is an expression, the
                // alias a binding.
                if let Some(value) = node.named_child(0) {
                    self.visit(value, depth + 1);
                }
                if let Some(alias) = self.fields.child(node, "alias") {
                    self.bind(alias, Value::Unknown, depth);
                }
            }
            _ => self.visit_named_except(node, "", depth),
        }
    }

    /// Visits the body of a class (`class_body`) or of a function or
    /// lambda (not), keeping [`Lane::in_class_body`] for what lies in it.
    fn visit_body(&mut self, body: Node<'t>, class_body: bool, depth: usize) {
        let outer = std::mem::replace(&mut self.in_class_body, class_body);
        self.visit(body, depth + 1);
        self.in_class_body = outer;
    }

    fn visit_named_except(&mut self, node: Node<'t>, field: &str, depth: usize) {
        let skip = if field.is_empty() {
            None
        } else {
            self.fields.child(node, field)
        };
        let mut cursor = match self.cursors.pop() {
            Some(mut cursor) => {
                cursor.reset(node);
                cursor
            }
            None => node.walk(),
        };
        if cursor.goto_first_child() {
            loop {
                let child = cursor.node();
                if child.is_named() && Some(child) != skip {
                    self.visit(child, depth + 1);
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        self.cursors.push(cursor);
    }

    /// Default values and annotations of parameters are expressions; the
    /// names are not.
    fn visit_defaults(&mut self, params: Node<'t>, depth: usize) {
        let mut cursor = params.walk();
        let children: Vec<Node<'t>> = params.named_children(&mut cursor).collect();
        for param in children {
            for field in ["value", "type"] {
                if let Some(value) = self.fields.child(param, field) {
                    self.visit(value, depth + 1);
                }
            }
            if let Some(name) = self.fields.child(param, "name").or(Some(param))
                && kind(name) == "identifier"
            {
                self.env
                    .insert(self.name(name).into_owned(), Value::Unknown);
            }
        }
    }

    /// Binds the names of an assignment target.
    fn bind(&mut self, target: Node<'t>, value: Value, depth: usize) {
        match kind(target) {
            "identifier" => {
                self.env.insert(self.name(target).into_owned(), value);
            }
            "pattern_list" | "tuple_pattern" | "list_pattern" | "expression_list" | "tuple"
            | "list" => {
                let items = match value {
                    Value::List(items) => items,
                    _ => Vec::new(),
                };
                let mut cursor = target.walk();
                let children: Vec<Node<'t>> = target.named_children(&mut cursor).collect();
                for (i, child) in children.into_iter().enumerate() {
                    self.bind(child, items.get(i).cloned().unwrap_or_default(), depth);
                }
            }
            // `x.attr = …`, `d[k] = …`: the object is an expression.
            "attribute" | "subscript" => {
                if let Some(object) = self
                    .fields
                    .child(target, "object")
                    .or_else(|| self.fields.child(target, "value"))
                {
                    // Changing a module (`json.loads = …`, `sys.path += …`,
                    // `sys.modules['json'] = …`) changes what later calls
                    // and imports run; `os.environ[k] = v` only the
                    // environment of programs started later, judged there.
                    match self.eval(object, 0) {
                        Value::Module(m) | Value::Name(m) if m != "os.environ" => {
                            self.findings.push(
                                CodeEffect::Unresolved,
                                self.text(target),
                                line(target),
                            );
                        }
                        _ => self.visit(object, depth + 1),
                    }
                }
            }
            _ => {}
        }
    }

    /// Whether a value at `node` is kept only under a plain name (`m =
    /// __import__('os')`, outside a class body, where it would become an
    /// attribute the lane does not follow), used at once (`….system`,
    /// `…()`), looked at (`print(…)`) or dropped: anywhere else it can
    /// reach code the lane does not follow.
    fn stays_named(&self, node: Node<'t>) -> bool {
        let Some(parent) = node.parent() else {
            return true;
        };
        match kind(parent) {
            "attribute" => self.fields.child(parent, "object") == Some(node),
            "call" => self.fields.child(parent, "function") == Some(node),
            "expression_statement" => true,
            "assignment" => {
                self.fields.child(parent, "right") == Some(node)
                    && self
                        .fields
                        .child(parent, "left")
                        .is_some_and(|l| kind(l) == "identifier")
                    && !self.in_class_body
            }
            "argument_list" => self.looked_at(node),
            _ => false,
        }
    }

    fn import(&mut self, node: Node<'t>) {
        let mut cursor = node.walk();
        let children: Vec<Node<'t>> = node.children_by_field_name("name", &mut cursor).collect();
        for child in children {
            match kind(child) {
                "dotted_name" => {
                    let full = self.name(child).into_owned();
                    if SPAWNING_IMPORTS.contains(&full.as_str()) {
                        self.findings
                            .push(CodeEffect::Spawn, self.text(node), line(node));
                    }
                    let head = full.split('.').next().unwrap_or(&full).to_string();
                    self.env.insert(head.clone(), Value::Module(head));
                }
                "aliased_import" => {
                    if let (Some(name), Some(alias)) = (
                        self.fields.child(child, "name"),
                        self.fields.child(child, "alias"),
                    ) {
                        let module = Value::Module(self.name(name).into_owned());
                        self.env.insert(self.name(alias).into_owned(), module);
                    }
                }
                _ => {}
            }
        }
    }

    fn import_from(&mut self, node: Node<'t>) {
        let module = self
            .fields
            .child(node, "module_name")
            .filter(|m| kind(m) == "dotted_name")
            .map(|m| self.name(m).into_owned());
        let mut cursor = node.walk();
        let children: Vec<Node<'t>> = node.named_children(&mut cursor).collect();
        for child in children {
            if kind(child) == "wildcard_import" {
                if let Some(module) = &module {
                    self.star.push(module.clone());
                }
                continue;
            }
            let (name, alias) = match kind(child) {
                "dotted_name" if Some(child) != self.fields.child(node, "module_name") => {
                    (child, child)
                }
                "aliased_import" => match (
                    self.fields.child(child, "name"),
                    self.fields.child(child, "alias"),
                ) {
                    (Some(n), Some(a)) => (n, a),
                    _ => continue,
                },
                _ => continue,
            };
            let value = match &module {
                Some(module) => module_member(module, &self.name(name)),
                // A relative import is the project's own code.
                None => Value::Unknown,
            };
            self.env.insert(self.name(alias).into_owned(), value);
        }
    }

    /// A name or attribute used as a value, not called: a function with an
    /// effect passed along (`map(os.remove, files)`) has that effect; a
    /// module, or a name the table does not know, used as a value is
    /// unresolved (unless only looked at: `print(os)`).
    fn reference(&mut self, node: Node<'t>, depth: usize) {
        if kind(node) == "attribute"
            && let Some(attr) = self.fields.child(node, "attribute")
        {
            let attr = self.name(attr);
            if INTROSPECTION.contains(&attr.as_ref()) {
                self.findings
                    .push(CodeEffect::Dynamic, self.text(node), line(node));
                return;
            }
            if is_code_dunder(&attr) {
                self.findings
                    .push(CodeEffect::Unresolved, self.text(node), line(node));
                return;
            }
        }
        match self.eval(node, 0) {
            Value::Name(name) => {
                let t = self.text(node).to_string();
                let effect = rules::code_call(Language::Python, &name, false)
                    .is_some_and(|e| e.effect != CodeEffect::None);
                if effect {
                    self.findings.reference(&name, &t, line(node));
                } else if !self.known_value(&name) && !self.looked_at(node) {
                    self.findings.push(CodeEffect::Unresolved, &t, line(node));
                }
            }
            Value::Module(_) => {
                if !self.looked_at(node) {
                    let t = self.text(node).to_string();
                    self.findings.push(CodeEffect::Unresolved, &t, line(node));
                }
            }
            _ => {
                // A method of a value the lane cannot follow, passed on
                // (`callback=p.unlink`), has the method's effect.
                if kind(node) == "attribute"
                    && let Some(attr) = self.fields.child(node, "attribute")
                    && let Some(entry) =
                        rules::code_call(Language::Python, &format!("?.{}", self.name(attr)), true)
                    && entry.effect != CodeEffect::None
                    && entry.mode.is_none()
                {
                    self.findings
                        .push(entry.effect, self.text(node), line(node));
                }
                // The object of an attribute or subscript may hold calls.
                for field in ["object", "value", "subscript"] {
                    if let Some(child) = self.fields.child(node, field) {
                        self.visit(child, depth + 1);
                    }
                }
            }
        }
    }

    /// Whether a name used as a value is known to be harmless there: a
    /// pure function or data of the table (`len`, `sys.stdin`, `math.pi`),
    /// or data about a module (`numpy.__version__`).
    fn known_value(&self, name: &str) -> bool {
        let last = name.rsplit('.').next().unwrap_or(name);
        DATA_DUNDERS.contains(&last) || pure_entry(name, false)
    }

    /// Whether `node` is an argument of a call that only looks at it
    /// (`print(os)`, `inspect.getsource(m.f)`).
    fn looked_at(&self, node: Node<'t>) -> bool {
        let Some(list) = node.parent().filter(|p| kind(p) == "argument_list") else {
            return false;
        };
        let Some(function) = list
            .parent()
            .filter(|c| kind(c) == "call")
            .and_then(|c| self.fields.child(c, "function"))
        else {
            return false;
        };
        match self.eval(function, 0) {
            Value::Name(name) => LOOKS_ONLY.contains(&name.as_str()),
            _ => false,
        }
    }

    fn call(&mut self, node: Node<'t>, depth: usize) {
        let function = self.fields.child(node, "function");
        let arguments = self.fields.child(node, "arguments");
        // Calls inside the callee (`subprocess.run(…).stdout`) and the
        // arguments are calls of their own.
        if let Some(f) = function {
            match kind(f) {
                "identifier" => {}
                "attribute" => {
                    if let Some(attr) = self.fields.child(f, "attribute")
                        && INTROSPECTION.contains(&self.name(attr).as_ref())
                    {
                        self.findings
                            .push(CodeEffect::Dynamic, self.text(f), line(f));
                    }
                    if let Some(object) = self.fields.child(f, "object")
                        && !matches!(self.eval(object, 0), Value::Name(_) | Value::Module(_))
                    {
                        self.visit(object, depth + 1);
                    }
                }
                _ => self.visit(f, depth + 1),
            }
        }
        if let Some(a) = arguments {
            self.visit(a, depth + 1);
        }
        let mut callee = self.callee(function);
        let (args, values) = self.args(arguments);
        let name = callee.name.clone().unwrap_or_default();
        // A module or attribute named by a string only known at run time,
        // or an attribute that reaches internals (`getattr(f, '__globals__')`).
        let dynamic_lookup = match name.as_str() {
            "__import__" | "importlib.import_module" | "importlib.__import__" => {
                !matches!(args.get(0), Some(Value::Text { .. }))
            }
            "getattr" | "operator.attrgetter" => match args.get(1) {
                Some(Value::Text { value, .. }) => {
                    is_code_dunder(value) || INTROSPECTION.contains(&value.as_str())
                }
                _ => matches!(args.get(0), Some(Value::Module(_) | Value::Name(_))),
            },
            "globals" | "locals" | "vars" => true,
            _ => false,
        };
        if dynamic_lookup {
            self.findings
                .push(CodeEffect::Dynamic, self.text(node), line(node));
            return;
        }
        // `x.replace(target)` with one argument is `Path.replace` (a move),
        // not `str.replace(old, new)`.
        if name.starts_with("?.")
            && name.ends_with(".replace")
            && args.positional.len() == 1
            && !args.spread
        {
            callee.name = Some("pathlib.Path.replace".into());
        }
        let t = self.text(node);
        // A module or unknown name a call hands back (`__import__('os')`,
        // `getattr(m, 'x')`) is judged as that value where it goes.
        let escapes = match self.value_of_call(function, values, 0) {
            Value::Module(_) => true,
            Value::Name(n) => !self.known_value(&n),
            _ => false,
        };
        if escapes && !self.stays_named(node) {
            self.findings.push(CodeEffect::Unresolved, t, line(node));
        }
        if let Some(effect) = argument_decides(&name, &args) {
            self.findings.push(effect, t, line(node));
            return;
        }
        match self.resolution(&callee, function) {
            Resolution::Table => self.findings.call(&callee, &args, t, line(node), analyse),
            Resolution::Defined => {}
            Resolution::Unresolved => {
                self.findings.push(CodeEffect::Unresolved, t, line(node));
            }
        }
    }

    /// How a call resolves: to the table, to a function the code defines,
    /// or to nothing known.
    fn resolution(&self, callee: &Callee, function: Option<Node<'t>>) -> Resolution {
        let Some(name) = &callee.name else {
            return match function.map(|f| self.eval(f, 0)) {
                Some(Value::Function) => Resolution::Defined,
                _ => Resolution::Unresolved,
            };
        };
        // A method of a value the lane cannot follow, named as a method the
        // code defines (`self.helper()`, `obj.run()`).
        if let Some(method) = name.strip_prefix("?.")
            && self.defined.contains(method)
        {
            return Resolution::Defined;
        }
        let Some(entry) = rules::code_call(Language::Python, name, callee.method) else {
            return Resolution::Unresolved;
        };
        if entry.effect != CodeEffect::None {
            return Resolution::Table;
        }
        // `*.get` is a method of a value (a dict, a string), never a
        // module's function (`requests.api.get`); a module's data the table
        // knows (`sys.platform`, `os.environ`) is such a value.
        let module_function = match &callee.receiver {
            Value::Module(_) => true,
            Value::Name(n) => !self.known_value(n) || n == "sys.path",
            _ => false,
        };
        if entry.name.starts_with("*.") && module_function {
            return Resolution::Unresolved;
        }
        if pure_entry(name, callee.method) {
            Resolution::Table
        } else {
            Resolution::Unresolved
        }
    }

    fn callee(&mut self, function: Option<Node<'t>>) -> Callee {
        let Some(function) = function else {
            return Callee::default();
        };
        if kind(function) == "attribute"
            && let (Some(object), Some(attr)) = (
                self.fields.child(function, "object"),
                self.fields.child(function, "attribute"),
            )
        {
            let receiver = self.eval(object, 0);
            let attr = self.name(attr);
            let name = match member(&receiver, &attr) {
                Value::Module(m) | Value::Name(m) => m,
                _ => member_name(&receiver, &attr),
            };
            return Callee {
                name: Some(name),
                method: true,
                receiver,
                this_first: false,
            };
        }
        match self.eval(function, 0) {
            Value::Name(name) | Value::Module(name) => Callee {
                name: Some(name),
                ..Callee::default()
            },
            _ => Callee::default(),
        }
    }

    /// The arguments of a call, evaluated once: as the table judges them,
    /// and as [`Lane::value_of_call`] takes them (every argument but
    /// keyword ones, a splat unknown).
    fn args(&mut self, arguments: Option<Node<'t>>) -> (Args, Vec<Value>) {
        let mut args = Args::default();
        let Some(arguments) = arguments else {
            return (args, Vec::new());
        };
        if kind(arguments) == "generator_expression" {
            args.positional
                .push((Value::Unknown, self.text(arguments).to_string()));
            return (args, self.argument_values(arguments, 0));
        }
        let mut values = Vec::new();
        let mut cursor = arguments.walk();
        let children: Vec<Node<'t>> = arguments.named_children(&mut cursor).collect();
        for child in children {
            match kind(child) {
                "keyword_argument" => {
                    if let (Some(name), Some(value)) = (
                        self.fields.child(child, "name"),
                        self.fields.child(child, "value"),
                    ) {
                        let v = self.eval(value, 0);
                        args.keywords.push((self.text(name).to_string(), v));
                    }
                }
                "list_splat" | "dictionary_splat" => {
                    args.spread = true;
                    values.push(Value::Unknown);
                }
                "comment" => {}
                _ => {
                    let v = self.eval(child, 0);
                    values.push(v.clone());
                    args.positional.push((v, self.text(child).to_string()));
                }
            }
        }
        (args, values)
    }
}

/// For a call whose argument decides whether it is pure (a reader that
/// also fetches URLs, a change to the import path): the effect of this
/// call, if any; `None` for every other call.
fn argument_decides(name: &str, args: &Args) -> Option<CodeEffect> {
    if URL_READERS.contains(&name) {
        let local = match args.get(0) {
            Some(Value::Text { value, .. }) => !value.contains("://") && !value.contains("::"),
            Some(Value::Name(_)) => true,
            _ => false,
        };
        return (!local).then_some(CodeEffect::Network);
    }
    if IMPORT_PATHS.contains(&name) {
        let index = usize::from(name.ends_with("insert"));
        let inside = match args.positional.get(index).map(|(v, _)| v) {
            Some(Value::Text { value, home: false }) => {
                !value.starts_with('/') && !value.split('/').any(|part| part == "..")
            }
            _ => false,
        };
        return (!inside || args.spread).then_some(CodeEffect::Unresolved);
    }
    None
}

/// Whether `name` resolves to a pure entry of the table: an exact name, a
/// `*.method` (for a method call), or one plain public name under a
/// `module.*` entry (`math.sqrt`, never `math._x` or `math.a.b`).
fn pure_entry(name: &str, method: bool) -> bool {
    let Some(entry) = rules::code_call(Language::Python, name, method) else {
        return false;
    };
    if entry.effect != CodeEffect::None {
        return false;
    }
    match entry.name.strip_suffix(".*") {
        Some(prefix) => name
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_prefix('.'))
            .is_some_and(is_public_identifier),
        None => true,
    }
}

#[cfg(test)]
mod tests;
