//! The JavaScript lane (TypeScript is read as JavaScript: syntax only
//! TypeScript has makes the code unparsable, which is SIGNED, never FREE).
//! Parses code with tree-sitter-javascript and walks it, following
//! `require`, `import`, dynamic `import()`, destructuring and aliases
//! (`const {rmSync: r} = require('fs')`) so each call resolves to a
//! canonical name that `rules/inline.json` judges.
//!
//! FREE is proven, not presumed: every call must resolve to an entry of the
//! table (`none` entries are the known pure functions and values), every
//! module loaded must be one the lane knows, and no value the lane cannot
//! name (a member chosen at run time, `require` or a module passed around,
//! the `Function` constructor reached through `.constructor`) may reach a
//! place where it could run. Anything else is `unresolved`, reported after
//! the effects so an effect's own rule stays first.
//!
//! Takes code text; returns an [`Analysis`]. Bindings are flow-insensitive
//! and global, as in the Python lane; the proofs that need more (a number
//! index, a constant key) count every binding of a name in the code.

mod audit;
mod calls;
mod proofs;
mod values;
use super::value::Value;
use super::{Analysis, Fields, Findings, Found, Language, MAX_DEPTH};
use crate::grammar::Grammar;
use crate::rules::{self, CodeCall, CodeEffect, CodeLanguage};
use std::collections::{HashMap, HashSet};
use tree_sitter::Node;
use values::special_name;

/// The kind name of a JavaScript node (see [`Grammar::kind`]).
fn kind<'t>(node: impl std::borrow::Borrow<Node<'t>>) -> &'static str {
    Grammar::JavaScript.kind(*node.borrow())
}

/// Node's built-in modules, which `node -e` and `node -p` make globals.
#[rustfmt::skip]
const NODE_MODULES: &[&str] = &[
    "child_process", "cluster", "crypto", "dgram", "dns", "fs", "http", "http2", "https", "net",
    "os", "path", "readline", "stream", "tls", "url", "util", "vm", "worker_threads", "zlib",
];

/// Names of the global object itself (`globalThis.eval` is `eval`).
const GLOBAL_OBJECTS: &[&str] = &["global", "globalThis", "self", "window"];

/// Modules code may load without a finding of its own: the built-ins whose
/// functions are in `rules/inline.json`, pure or with their effects. Any
/// other module (a package, a project file, `vm`'s cousins `repl`,
/// `module`, `inspector`, `v8`) runs or exposes code the lane cannot read.
#[rustfmt::skip]
const LOADABLE_MODULES: &[&str] = &[
    "assert", "assert/strict", "buffer", "child_process", "cluster", "console", "crypto", "dgram",
    "dns", "dns/promises", "events", "fs", "fs/promises", "http", "http2", "https", "net", "os",
    "path", "path/posix", "path/win32", "perf_hooks", "process", "querystring", "readline",
    "readline/promises", "stream", "stream/promises", "string_decoder", "timers",
    "timers/promises", "tls", "tty", "url", "util", "vm", "worker_threads", "zlib",
];

/// Member names that lead to the `Function` constructor, a prototype or a
/// caller (`(() => 0).constructor('…')`, `arguments.callee.caller`): never
/// resolved, whatever the object.
#[rustfmt::skip]
const FORBIDDEN_MEMBERS: &[&str] = &[
    "constructor", "__proto__", "caller", "callee", "__defineGetter__", "__defineSetter__",
    "__lookupGetter__", "__lookupSetter__",
];

/// Ways of loading a module other than `require` and `import`: they load
/// as `require` does, and are unresolved in their own right.
#[rustfmt::skip]
const OTHER_LOADERS: &[&str] = &[
    "module.require", "require.main.require", "process.mainModule.require",
    "process.getBuiltinModule", "module.constructor._load", "module._load",
];

/// Functions that only read the value they are given as data (print it,
/// compare it, turn it into text or a number): a value the lane cannot name
/// may be handed to them. Names as resolved; `*.m` is a method on any value.
#[rustfmt::skip]
const DATA_SINKS: &[&str] = &[
    "Array.isArray", "Boolean", "JSON.stringify", "Number", "Object.keys", "String", "isFinite",
    "isNaN", "parseFloat", "parseInt", "process.stderr.write", "process.stdout.write",
    "*.endsWith", "*.has", "*.includes", "*.indexOf", "*.join", "*.lastIndexOf", "*.match",
    "*.split", "*.startsWith", "*.test",
];

/// Reads JavaScript `code`; `depth` counts code-in-code levels entered.
pub fn analyse(code: &str, depth: usize) -> Analysis {
    let tree = match super::parse(Grammar::JavaScript, code, "JavaScript") {
        Ok(tree) => tree,
        Err(failed) => return failed,
    };
    let root = tree.root_node();
    let mut lane = Lane {
        src: code.as_bytes(),
        fields: &LANE_FIELDS,
        env: HashMap::new(),
        findings: Findings::new(Language::JavaScript, depth),
        bindings: HashMap::new(),
        numeric: HashSet::new(),
        opaque: HashSet::new(),
        unresolved: Vec::new(),
        flagged: HashSet::new(),
    };
    lane.collect_bindings(root, 0);
    lane.numeric = lane.numeric_names();
    // A first walk learns every binding (a function may use a name bound
    // after it in the text); the second judges with them.
    lane.visit(root, 0);
    lane.findings = Findings::new(Language::JavaScript, depth);
    lane.unresolved.clear();
    lane.flagged.clear();
    lane.opaque.clear();
    lane.visit(root, 0);
    lane.audit(root, 0);
    lane.opaque_names(root);
    let mut analysis = lane.findings.analysis;
    analysis.found.append(&mut lane.unresolved);
    if root.has_error() && analysis.unparsable.is_none() {
        analysis.unparsable = Some(super::first_error(root, code.as_bytes()));
    }
    analysis
}

/// The grammar's fields the lane reads.
const FIELDS: &[&str] = &[
    "alias",
    "alternative",
    "arguments",
    "body",
    "condition",
    "constructor",
    "function",
    "index",
    "key",
    "kind",
    "left",
    "name",
    "object",
    "operator",
    "property",
    "right",
    "source",
    "value",
    "parameters",
    "parameter",
    "argument",
];

/// [`FIELDS`] as field ids, looked up once.
static LANE_FIELDS: std::sync::LazyLock<Fields> =
    std::sync::LazyLock::new(|| Fields::new(Grammar::JavaScript.language(), FIELDS));

/// One place a name is given a value, for the proofs that count bindings.
#[derive(Clone, Copy)]
enum Binding<'s> {
    /// `let x = e`, `const x = e`, `x = e`.
    Value(Node<'s>, bool),
    /// `let x;`: undefined.
    Empty,
    /// `x++`, `x -= e`: a number whatever `x` was.
    Numeric,
    /// `x += e`: a number when `e` is.
    Plus(Node<'s>),
    /// A parameter, a loop variable, a pattern, a function or an import:
    /// anything.
    Other,
}

struct Lane<'s> {
    src: &'s [u8],
    fields: &'static Fields,
    env: HashMap<String, Value>,
    findings: Findings,
    /// Every binding of every name in the code.
    bindings: HashMap<String, Vec<Binding<'s>>>,
    /// Names that only ever hold numbers.
    numeric: HashSet<String>,
    /// Names bound to a value the lane cannot name.
    opaque: HashSet<String>,
    /// Unresolved calls and values, reported after the effects.
    unresolved: Vec<Found>,
    /// Byte ranges already reported as unresolved.
    flagged: HashSet<(usize, usize)>,
}

fn line(node: Node) -> usize {
    node.start_position().row + 1
}

/// A module name as the table knows it: `node:fs` and `fs/promises` are
/// `fs`; `fs-extra` and `graceful-fs` extend `fs`.
fn module_name(spec: &str) -> String {
    let spec = spec.strip_prefix("node:").unwrap_or(spec);
    match spec {
        "fs/promises" | "fs-extra" | "graceful-fs" | "original-fs" => "fs".into(),
        "child_process/promises" => "child_process".into(),
        "timers/promises" => "timers".into(),
        "readline/promises" => "readline".into(),
        "stream/promises" => "stream".into(),
        "dns/promises" => "dns".into(),
        "path/posix" | "path/win32" => "path".into(),
        "assert/strict" => "assert".into(),
        other => other.to_string(),
    }
}

/// Whether loading `spec` runs nothing the lane has not read: a module of
/// [`LOADABLE_MODULES`], or a JSON file of the project (`./package.json`).
fn loadable(spec: &str) -> bool {
    let bare = spec.strip_prefix("node:").unwrap_or(spec);
    LOADABLE_MODULES.contains(&bare) || is_json_file(bare)
}

/// A relative or absolute path to a JSON file: loaded as data.
fn is_json_file(spec: &str) -> bool {
    (spec.starts_with("./") || spec.starts_with("../") || spec.starts_with('/'))
        && spec.ends_with(".json")
}

/// Whether a dotted name passes through a member of [`FORBIDDEN_MEMBERS`].
fn forbidden(name: &str) -> bool {
    name.split('.')
        .any(|part| FORBIDDEN_MEMBERS.contains(&part))
}

/// The table entry of a resolved name; `method` allows the `*.m` entries.
/// A name through a forbidden member has none.
fn entry(name: &str, method: bool) -> Option<&'static CodeCall> {
    if forbidden(name) {
        return None;
    }
    rules::code_call(CodeLanguage::JavaScript, name, method)
}

/// A `none` entry whose function can be handed around freely: no code,
/// mode or callback argument that would make its use depend on arguments.
fn plain_pure(entry: &CodeCall) -> bool {
    entry.effect == CodeEffect::None
        && entry.code.is_none()
        && entry.mode.is_none()
        && !entry.callback_ok
}

/// Whether a name (a function or a value such as `process.argv`) is known
/// to be pure, so it may be used as a value.
fn pure_value(name: &str) -> bool {
    entry(name, false).is_some_and(plain_pure)
}

/// `module.member`, with `fs.promises.x` read as `fs.x`.
fn member_name(receiver: &Value, member: &str) -> String {
    match receiver {
        Value::Module(m) if m.is_empty() => member.to_string(),
        Value::Module(m) | Value::Name(m) => {
            let full = format!("{m}.{member}");
            full.replace(".promises.", ".")
        }
        Value::Text { .. } => format!("String.{member}"),
        _ => format!("?.{member}"),
    }
}

/// Whether a method call on `receiver` may use the `*.m` entries: on data
/// and unknown values yes; on a module or an API object only when that
/// object is itself a known pure value (`process.argv.slice`).
fn method_fallback(receiver: &Value) -> bool {
    match receiver {
        Value::Module(_) => false,
        Value::Name(n) => pure_value(n),
        _ => true,
    }
}

/// A numeric literal's operators that always give a number.
fn numeric_operator(op: &str) -> bool {
    matches!(
        op,
        "-" | "*" | "/" | "%" | "**" | "&" | "|" | "^" | "<<" | ">>" | ">>>"
    )
}

/// What a subscript's index is, for the proofs.
enum Index {
    /// Text known before the code runs (`o['a']`, `o[KEY]` with one `const`).
    Static(String),
    /// Always a number (`a[i]` with `i` a counter, `a[a.length - 1]`).
    Numeric,
    /// Chosen when the code runs.
    Runtime,
}

impl<'s> Lane<'s> {
    fn text(&self, node: Node) -> &'s str {
        std::str::from_utf8(self.src.get(node.byte_range()).unwrap_or(&[])).unwrap_or("")
    }

    /// Whether `child` is the child of `parent` in field `name`.
    fn is_field(&self, parent: Node, name: &str, child: Node) -> bool {
        self.fields
            .child(parent, name)
            .is_some_and(|c| c.id() == child.id())
    }

    /// Reports `node` as unresolved (once).
    fn flag(&mut self, node: Node) {
        if !self.flagged.insert((node.start_byte(), node.end_byte())) {
            return;
        }
        self.unresolved.push(Found {
            effect: CodeEffect::Unresolved,
            call: super::one_line(self.text(node)),
            line: line(node),
            paths: Vec::new(),
            equivalent: "",
            mode: None,
            handoff: None,
        });
    }

    fn visit(&mut self, node: Node<'s>, depth: usize) {
        if depth > MAX_DEPTH {
            self.findings
                .analysis
                .unparsable
                .get_or_insert_with(|| "the code nests too deep to read".into());
            return;
        }
        match kind(node) {
            "import_statement" => self.import(node),
            "export_statement" => {
                if let Some(source) = self.fields.child(node, "source")
                    && self.string(source).as_text().is_none_or(|s| !loadable(s))
                {
                    self.flag(node);
                }
                self.visit_named_except(node, &["source"], depth);
            }
            "comment"
            | "string"
            | "regex"
            | "property_identifier"
            | "hash_bang_line"
            | "statement_identifier" => {}
            "variable_declarator" => {
                if let Some(name) = self.fields.child(node, "name") {
                    self.visit_pattern(name, depth + 1);
                }
                if let Some(value) = self.fields.child(node, "value") {
                    let v = self.eval(value, 0);
                    // `const f = fs.rmSync` only names the function.
                    if matches!(kind(value), "identifier" | "member_expression") {
                        self.value_use(value, &v, true);
                    } else {
                        self.visit(value, depth + 1);
                    }
                    if let Some(name) = self.fields.child(node, "name") {
                        self.bind(name, v);
                    }
                }
            }
            "assignment_expression" => {
                let (Some(left), Some(right)) = (
                    self.fields.child(node, "left"),
                    self.fields.child(node, "right"),
                ) else {
                    return;
                };
                if matches!(
                    kind(left),
                    "identifier" | "object_pattern" | "array_pattern"
                ) {
                    self.visit_pattern(left, depth + 1);
                    let v = self.eval(right, 0);
                    if matches!(kind(right), "identifier" | "member_expression") {
                        self.value_use(right, &v, true);
                    } else {
                        self.visit(right, depth + 1);
                    }
                    self.bind(left, v);
                } else {
                    self.visit(right, depth + 1);
                    self.assign_target(left, depth + 1);
                }
            }
            "call_expression" | "new_expression" => {
                self.call(node, depth);
                // `Object.values(require('fs'))`: a module handed on.
                if matches!(self.eval(node, 0), Value::Module(_)) && !self.module_kept(node) {
                    self.flag(node);
                }
            }
            "member_expression"
            | "subscript_expression"
            | "identifier"
            | "shorthand_property_identifier"
            | "this" => self.reference(node, depth),
            "unary_expression" => {
                // `typeof require` only asks what a name is.
                let typeof_name = self
                    .fields
                    .child(node, "operator")
                    .is_some_and(|o| self.text(o) == "typeof")
                    && self
                        .fields
                        .child(node, "argument")
                        .is_some_and(|a| self.is_name_chain(a));
                if !typeof_name {
                    self.visit_named_except(node, &[], depth);
                }
            }
            "function_declaration" | "generator_function_declaration" | "class_declaration" => {
                if let Some(name) = self.fields.child(node, "name") {
                    self.env
                        .insert(self.text(name).to_string(), Value::Function);
                }
                if let Some(params) = self.fields.child(node, "parameters") {
                    self.visit_pattern(params, depth + 1);
                }
                self.visit_named_except(node, &["name", "parameters"], depth);
            }
            "function_expression"
            | "arrow_function"
            | "method_definition"
            | "function"
            | "generator_function" => {
                if let Some(params) = self.fields.child(node, "parameters") {
                    self.visit_pattern(params, depth + 1);
                }
                if let Some(name) = self.fields.child(node, "name")
                    && kind(name) == "computed_property_name"
                {
                    self.visit(name, depth + 1);
                }
                self.visit_named_except(node, &["name", "parameters", "parameter"], depth);
            }
            "pair" => {
                if let Some(key) = self.fields.child(node, "key")
                    && kind(key) == "computed_property_name"
                {
                    self.visit(key, depth + 1);
                }
                if let Some(value) = self.fields.child(node, "value") {
                    self.visit(value, depth + 1);
                }
            }
            "catch_clause" => {
                if let Some(p) = self.fields.child(node, "parameter") {
                    self.visit_pattern(p, depth + 1);
                }
                self.visit_named_except(node, &["parameter"], depth);
            }
            "for_in_statement" => {
                if let Some(left) = self.fields.child(node, "left") {
                    self.visit_pattern(left, depth + 1);
                }
                self.visit_named_except(node, &["left"], depth);
            }
            // A JSX tag's name is markup (node cannot run JSX at all); its
            // attributes and `{…}` children are code.
            "jsx_opening_element" | "jsx_self_closing_element" | "jsx_closing_element" => {
                self.visit_named_except(node, &["name"], depth);
            }
            "template_string" => {
                let mut cursor = node.walk();
                let subs: Vec<Node> = node
                    .named_children(&mut cursor)
                    .filter(|c| kind(c) == "template_substitution")
                    .collect();
                for sub in subs {
                    self.visit(sub, depth + 1);
                }
            }
            _ => self.visit_named_except(node, &[], depth),
        }
    }

    fn visit_named_except(&mut self, node: Node<'s>, fields: &[&str], depth: usize) {
        let skip: Vec<Node> = fields
            .iter()
            .filter_map(|f| self.fields.child(node, f))
            .collect();
        let mut cursor = node.walk();
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        for child in children {
            if !skip.contains(&child) {
                self.visit(child, depth + 1);
            }
        }
    }

    /// A pattern or parameter list: its names are bindings, but its default
    /// values and computed keys run (`function f(a = g()) {}`).
    fn visit_pattern(&mut self, node: Node<'s>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match kind(node) {
            "identifier" | "shorthand_property_identifier_pattern" => {}
            "assignment_pattern" | "object_assignment_pattern" => {
                if let Some(left) = self.fields.child(node, "left") {
                    self.visit_pattern(left, depth + 1);
                }
                if let Some(right) = self.fields.child(node, "right") {
                    self.visit(right, depth + 1);
                }
            }
            "pair_pattern" => {
                if let Some(key) = self.fields.child(node, "key")
                    && kind(key) == "computed_property_name"
                {
                    self.visit(key, depth + 1);
                }
                if let Some(value) = self.fields.child(node, "value") {
                    self.visit_pattern(value, depth + 1);
                }
            }
            "object_pattern" | "array_pattern" | "rest_pattern" | "formal_parameters" => {
                let mut cursor = node.walk();
                let children: Vec<Node> = node.named_children(&mut cursor).collect();
                for child in children {
                    self.visit_pattern(child, depth + 1);
                }
            }
            "member_expression" | "subscript_expression" => self.assign_target(node, depth + 1),
            "comment" => {}
            _ => self.visit(node, depth + 1),
        }
    }

    /// A member assigned to (`o.x = v`, `o[k] = v`): on data, nothing to
    /// judge; on a module or an API object (`console.log = …`,
    /// `module.exports = …`, `require.extensions[…] = …`) only a known pure
    /// member may be replaced.
    fn assign_target(&mut self, target: Node<'s>, depth: usize) {
        let Some(object) = self.fields.child(target, "object") else {
            return;
        };
        let object_value = self.eval(object, 0);
        if matches!(object_value, Value::Name(_) | Value::Module(_)) {
            let name = match kind(target) {
                "member_expression" => self
                    .fields
                    .child(target, "property")
                    .map(|p| member_name(&object_value, self.text(p))),
                _ => self
                    .fields
                    .child(target, "index")
                    .and_then(|i| self.static_text(i, 0))
                    .map(|t| member_name(&object_value, &t)),
            };
            if !name.is_some_and(|n| pure_value(&n)) {
                self.flag(target);
            }
        } else {
            self.visit(object, depth + 1);
        }
        if kind(target) == "subscript_expression"
            && let Some(index) = self.fields.child(target, "index")
        {
            self.visit(index, depth + 1);
        }
    }

    /// Whether a module value (a `require(…)` call) stays where the lane
    /// follows it: bound to a name, a member read or called, or dropped.
    fn module_kept(&self, node: Node) -> bool {
        let mut node = node;
        for _ in 0..MAX_DEPTH {
            let Some(parent) = node.parent() else {
                return true;
            };
            match kind(parent) {
                "parenthesized_expression" | "await_expression" => node = parent,
                "member_expression" | "subscript_expression" => {
                    return self.is_field(parent, "object", node);
                }
                "call_expression" => return self.is_field(parent, "function", node),
                "new_expression" => return self.is_field(parent, "constructor", node),
                "variable_declarator" | "expression_statement" => return true,
                "assignment_expression" => {
                    return self.fields.child(parent, "left").is_some_and(|l| {
                        matches!(kind(l), "identifier" | "object_pattern" | "array_pattern")
                    });
                }
                _ => return false,
            }
        }
        false
    }

    /// Whether a node is a plain name or a chain of named members
    /// (`process.env.HOME`).
    fn is_name_chain(&self, node: Node) -> bool {
        match kind(node) {
            "identifier" => true,
            "member_expression" => self
                .fields
                .child(node, "object")
                .is_some_and(|o| self.is_name_chain(o)),
            _ => false,
        }
    }

    /// Binds the names of a declaration or assignment target, destructuring
    /// objects (`const {rmSync: r} = require('fs')`).
    fn bind(&mut self, target: Node, value: Value) {
        match kind(target) {
            "identifier" => {
                self.env.insert(self.text(target).to_string(), value);
            }
            "object_pattern" => {
                let mut cursor = target.walk();
                let children: Vec<Node> = target.named_children(&mut cursor).collect();
                for child in children {
                    match kind(child) {
                        "shorthand_property_identifier_pattern" => {
                            let name = self.text(child).to_string();
                            let v = self.member(&value, &name);
                            self.env.insert(name, v);
                        }
                        "pair_pattern" => {
                            let (Some(key), Some(inner)) = (
                                self.fields.child(child, "key"),
                                self.fields.child(child, "value"),
                            ) else {
                                continue;
                            };
                            let key = match kind(key) {
                                "string" => self.string(key).as_text().unwrap_or("").to_string(),
                                _ => self.text(key).to_string(),
                            };
                            let v = self.member(&value, &key);
                            let inner = match kind(inner) {
                                "assignment_pattern" => self.fields.child(inner, "left"),
                                _ => Some(inner),
                            };
                            if let Some(inner) = inner {
                                self.bind(inner, v);
                            }
                        }
                        "object_assignment_pattern" => {
                            if let Some(left) = self.fields.child(child, "left") {
                                let name = self.text(left).to_string();
                                let v = self.member(&value, &name);
                                self.bind(left, v);
                            }
                        }
                        _ => {}
                    }
                }
            }
            "array_pattern" => {
                let mut cursor = target.walk();
                let children: Vec<Node> = target.named_children(&mut cursor).collect();
                for child in children {
                    self.bind(child, Value::Unknown);
                }
            }
            _ => {}
        }
    }

    fn member(&self, object: &Value, name: &str) -> Value {
        match object {
            Value::Module(_) | Value::Name(_) => special_name(member_name(object, name)),
            _ => Value::Unknown,
        }
    }

    fn import(&mut self, node: Node) {
        let Some(source) = self.fields.child(node, "source") else {
            return;
        };
        let Some(raw) = self.string(source).as_text().map(str::to_string) else {
            return;
        };
        if !loadable(&raw) {
            self.flag(node);
        }
        let spec = module_name(&raw);
        let module = if is_json_file(&raw) {
            Value::Unknown
        } else {
            Value::Module(spec.clone())
        };
        let mut cursor = node.walk();
        let clauses: Vec<Node> = node
            .named_children(&mut cursor)
            .filter(|c| kind(c) == "import_clause")
            .collect();
        for clause in clauses {
            let mut c = clause.walk();
            let parts: Vec<Node> = clause.named_children(&mut c).collect();
            for part in parts {
                match kind(part) {
                    "identifier" => {
                        self.env.insert(self.text(part).to_string(), module.clone());
                    }
                    "namespace_import" => {
                        if let Some(name) = part.named_child(0) {
                            self.env.insert(self.text(name).to_string(), module.clone());
                        }
                    }
                    "named_imports" => {
                        let mut c2 = part.walk();
                        let specs: Vec<Node> = part.named_children(&mut c2).collect();
                        for s in specs {
                            let Some(name) = self.fields.child(s, "name") else {
                                continue;
                            };
                            let alias = self.fields.child(s, "alias").unwrap_or(name);
                            let imported = match kind(name) {
                                "string" => self.string(name).as_text().unwrap_or("").to_string(),
                                _ => self.text(name).to_string(),
                            };
                            let v = if imported == "default" {
                                module.clone()
                            } else if matches!(module, Value::Unknown) {
                                Value::Unknown
                            } else {
                                special_name(format!("{spec}.{imported}"))
                            };
                            self.env.insert(self.text(alias).to_string(), v);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// A name or member used as a value, not called.
    fn reference(&mut self, node: Node<'s>, depth: usize) {
        if kind(node) == "subscript_expression"
            && let (Some(object), Some(index)) = (
                self.fields.child(node, "object"),
                self.fields.child(node, "index"),
            )
            && matches!(self.eval(object, 0), Value::Module(_))
            && self.eval(index, 0).as_text().is_none()
        {
            // `fs[name]`, `globalThis[x]`: a member only known at run time.
            self.findings
                .push(CodeEffect::Dynamic, self.text(node), line(node));
            return;
        }
        let v = self.eval(node, 0);
        match v {
            Value::Name(_) | Value::Module(_) => self.value_use(node, &v, false),
            _ => {
                for field in ["object", "index"] {
                    if let Some(child) = self.fields.child(node, field) {
                        self.visit(child, depth + 1);
                    }
                }
            }
        }
    }

    /// Judges a named value used as a value: bound to a variable
    /// (`binding`), handed to a function, stored or returned. Only a known
    /// pure function or value may be; a module may only be bound to a name
    /// (where the lane follows it); anything else is unresolved (`require`,
    /// `eval` or a module passed around).
    fn value_use(&mut self, node: Node<'s>, value: &Value, binding: bool) {
        // A statement of its own (`x;`, `node -p 'process'`): the value is
        // dropped or printed, never run.
        if node
            .parent()
            .is_some_and(|p| kind(p) == "expression_statement")
        {
            return;
        }
        match value {
            Value::Name(name) => {
                if pure_value(name) {
                    return;
                }
                if !binding {
                    let t = self.text(node).to_string();
                    self.findings.reference(name, &t, line(node));
                }
                self.flag(node);
            }
            Value::Module(_) if !binding => self.flag(node),
            _ => {}
        }
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests;
