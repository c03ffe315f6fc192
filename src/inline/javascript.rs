//! The JavaScript lane (TypeScript is read as JavaScript: syntax only
//! TypeScript has makes the code unparsable, which is SIGNED, never FREE).
//! Parses code with tree-sitter-javascript and walks it once, following
//! `require`, `import`, dynamic `import()`, destructuring and aliases
//! (`const {rmSync: r} = require('fs')`) so each call resolves to a
//! canonical name that `rules/inline.json` judges.
//!
//! Takes code text; returns an [`Analysis`]. Bindings are flow-insensitive
//! and global, as in the Python lane.

use super::value::{self, Value};
use super::{Analysis, Args, Callee, Fields, Findings, Language, MAX_DEPTH};
use crate::grammar::Grammar;
use crate::rules::CodeEffect;
use std::collections::HashMap;
use tree_sitter::Node;

/// The kind name of a JavaScript node (see [`Grammar::kind`]).
fn kind<'t>(node: impl std::borrow::Borrow<Node<'t>>) -> &'static str {
    Grammar::JavaScript.kind(*node.borrow())
}

/// Globals the lane knows by their bare name.
#[rustfmt::skip]
const GLOBALS: &[&str] = &[
    "Bun", "Deno", "EventSource", "Function", "WebSocket", "XMLHttpRequest", "eval", "fetch",
    "module", "navigator", "process", "require", "setImmediate", "setInterval", "setTimeout",
];

/// Node's built-in modules, which `node -e` and `node -p` make globals.
#[rustfmt::skip]
const NODE_MODULES: &[&str] = &[
    "child_process", "cluster", "crypto", "dgram", "dns", "fs", "http", "http2", "https", "net",
    "os", "path", "readline", "stream", "tls", "url", "util", "vm", "worker_threads", "zlib",
];

/// Names of the global object itself (`globalThis.eval` is `eval`).
const GLOBAL_OBJECTS: &[&str] = &["global", "globalThis", "self", "window"];

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
    };
    lane.visit(root, 0);
    let mut analysis = lane.findings.analysis;
    if root.has_error() && analysis.unparsable.is_none() {
        analysis.unparsable = Some(super::first_error(root, code.as_bytes()));
    }
    analysis
}

/// The grammar's fields the lane reads.
const FIELDS: &[&str] = &[
    "alias",
    "arguments",
    "constructor",
    "function",
    "index",
    "key",
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
];

/// [`FIELDS`] as field ids, looked up once.
static LANE_FIELDS: std::sync::LazyLock<Fields> =
    std::sync::LazyLock::new(|| Fields::new(Grammar::JavaScript.language(), FIELDS));

struct Lane<'s> {
    src: &'s [u8],
    fields: &'static Fields,
    env: HashMap<String, Value>,
    findings: Findings,
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
        other => other.to_string(),
    }
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

impl<'s> Lane<'s> {
    fn text(&self, node: Node) -> &'s str {
        std::str::from_utf8(self.src.get(node.byte_range()).unwrap_or(&[])).unwrap_or("")
    }

    fn visit(&mut self, node: Node, depth: usize) {
        if depth > MAX_DEPTH {
            self.findings
                .analysis
                .unparsable
                .get_or_insert_with(|| "the code nests too deep to read".into());
            return;
        }
        match kind(node) {
            "import_statement" => self.import(node),
            "comment"
            | "string"
            | "regex"
            | "property_identifier"
            | "hash_bang_line"
            | "shorthand_property_identifier"
            | "statement_identifier" => {}
            "variable_declarator" => {
                if let Some(value) = self.fields.child(node, "value") {
                    // `const f = fs.rmSync` only names the function.
                    if !matches!(kind(value), "identifier" | "member_expression") {
                        self.visit(value, depth + 1);
                    }
                    let v = self.eval(value, 0);
                    if let Some(name) = self.fields.child(node, "name") {
                        self.bind(name, v, depth);
                    }
                }
            }
            "assignment_expression" => {
                if let Some(right) = self.fields.child(node, "right") {
                    if !matches!(kind(right), "identifier" | "member_expression") {
                        self.visit(right, depth + 1);
                    }
                    let v = self.eval(right, 0);
                    if let Some(left) = self.fields.child(node, "left") {
                        self.bind(left, v, depth);
                    }
                }
            }
            "call_expression" | "new_expression" => self.call(node, depth),
            "member_expression" | "subscript_expression" | "identifier" => {
                self.reference(node, depth)
            }
            "function_declaration" | "generator_function_declaration" | "class_declaration" => {
                if let Some(name) = self.fields.child(node, "name") {
                    self.env
                        .insert(self.text(name).to_string(), Value::Function);
                }
                self.visit_named_except(node, &["name", "parameters"], depth);
            }
            "function_expression" | "arrow_function" | "method_definition" | "function" => {
                self.visit_named_except(node, &["name", "parameters", "parameter"], depth);
            }
            "pair" => {
                if let Some(value) = self.fields.child(node, "value") {
                    self.visit(value, depth + 1);
                }
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

    fn visit_named_except(&mut self, node: Node, fields: &[&str], depth: usize) {
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

    /// Binds the names of a declaration or assignment target, destructuring
    /// objects (`const {rmSync: r} = require('fs')`).
    fn bind(&mut self, target: Node, value: Value, depth: usize) {
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
                                self.bind(inner, v, depth);
                            }
                        }
                        "object_assignment_pattern" => {
                            if let Some(left) = self.fields.child(child, "left") {
                                let name = self.text(left).to_string();
                                let v = self.member(&value, &name);
                                self.bind(left, v, depth);
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
                    self.bind(child, Value::Unknown, depth);
                }
            }
            "member_expression" | "subscript_expression" => {
                if let Some(object) = self.fields.child(target, "object") {
                    self.visit(object, depth + 1);
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
        let Some(spec) = self.string(source).as_text().map(module_name) else {
            return;
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
                        self.env
                            .insert(self.text(part).to_string(), Value::Module(spec.clone()));
                    }
                    "namespace_import" => {
                        if let Some(name) = part.named_child(0) {
                            self.env
                                .insert(self.text(name).to_string(), Value::Module(spec.clone()));
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
                                Value::Module(spec.clone())
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
    fn reference(&mut self, node: Node, depth: usize) {
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
        match self.eval(node, 0) {
            Value::Name(name) => {
                let t = self.text(node).to_string();
                self.findings.reference(&name, &t, line(node));
            }
            _ => {
                for field in ["object", "index"] {
                    if let Some(child) = self.fields.child(node, field) {
                        self.visit(child, depth + 1);
                    }
                }
            }
        }
    }

    fn call(&mut self, node: Node, depth: usize) {
        let function = self
            .fields
            .child(node, "function")
            .or_else(|| self.fields.child(node, "constructor"));
        let arguments = self.fields.child(node, "arguments");
        if let Some(f) = function {
            match kind(f) {
                "identifier" | "import" => {}
                "member_expression" | "subscript_expression" => {
                    // A name chain (`fs.rmSync.call`) is the callee itself;
                    // anything else may hold calls of its own.
                    if let Some(object) = self.fields.child(f, "object")
                        && !matches!(self.eval(object, 0), Value::Name(_) | Value::Module(_))
                    {
                        self.visit(object, depth + 1);
                    }
                    if kind(f) == "subscript_expression"
                        && let Some(index) = self.fields.child(f, "index")
                    {
                        self.visit(index, depth + 1);
                    }
                }
                _ => self.visit(f, depth + 1),
            }
        }
        if let Some(a) = arguments {
            self.visit(a, depth + 1);
        }
        let tagged = arguments.is_some_and(|a| kind(a) == "template_string");
        let callee = self.callee(function, 0);
        let args = self.args(arguments, 0);
        let name = callee.name.clone().unwrap_or_default();
        let dynamic_lookup = match name.as_str() {
            "require" | "import" | "module.require" => {
                !matches!(args.get(0), Some(Value::Text { .. }))
            }
            _ => {
                // `fs[x](…)`: a member chosen at run time.
                function.is_some_and(|f| {
                    kind(f) == "subscript_expression"
                        && self
                            .fields
                            .child(f, "object")
                            .is_some_and(|o| matches!(self.eval(o, 0), Value::Module(_)))
                        && self
                            .fields
                            .child(f, "index")
                            .is_some_and(|i| self.eval(i, 0).as_text().is_none())
                })
            }
        };
        if dynamic_lookup {
            self.findings
                .push(CodeEffect::Dynamic, self.text(node), line(node));
            return;
        }
        // `$` is zx's and Bun's shell only as a template tag; as a function
        // it is usually jQuery.
        if name == "$" && !tagged {
            return;
        }
        let t = self.text(node).to_string();
        self.findings.call(&callee, &args, &t, line(node), analyse);
    }

    fn callee(&self, function: Option<Node>, depth: usize) -> Callee {
        let Some(function) = function else {
            return Callee::default();
        };
        if kind(function) == "import" {
            return Callee {
                name: Some("import".into()),
                ..Callee::default()
            };
        }
        if matches!(kind(function), "member_expression" | "subscript_expression")
            && let Some(object) = self.fields.child(function, "object")
        {
            let receiver = self.eval(object, depth + 1);
            let member = match kind(function) {
                "member_expression" => self
                    .fields
                    .child(function, "property")
                    .map(|p| self.text(p).to_string()),
                _ => self
                    .fields
                    .child(function, "index")
                    .and_then(|i| self.eval(i, depth + 1).as_text().map(str::to_string)),
            };
            let Some(member) = member else {
                return Callee::default();
            };
            // `fn.call(this, …)` / `fn.apply(…)` call `fn`.
            if matches!(member.as_str(), "call" | "apply" | "bind")
                && let Value::Name(name) = &receiver
            {
                return Callee {
                    name: Some(name.clone()),
                    method: false,
                    receiver: Value::Unknown,
                    this_first: member == "call",
                };
            }
            let name = match special_name(member_name(&receiver, &member)) {
                Value::Name(n) | Value::Module(n) => n,
                _ => member_name(&receiver, &member),
            };
            return Callee {
                name: Some(name),
                method: true,
                receiver,
                this_first: false,
            };
        }
        match self.eval(function, depth + 1) {
            Value::Name(name) | Value::Module(name) if !name.is_empty() => Callee {
                name: Some(name),
                ..Callee::default()
            },
            _ => Callee::default(),
        }
    }

    fn args(&self, arguments: Option<Node>, depth: usize) -> Args {
        let mut args = Args::default();
        let Some(arguments) = arguments else {
            return args;
        };
        if kind(arguments) == "template_string" {
            let v = self.eval(arguments, depth + 1);
            args.positional.push((v, self.text(arguments).to_string()));
            return args;
        }
        let mut cursor = arguments.walk();
        for child in arguments.named_children(&mut cursor) {
            match kind(child) {
                "spread_element" => args.spread = true,
                "comment" => {}
                _ => {
                    let v = self.eval(child, depth + 1);
                    args.positional.push((v, self.text(child).to_string()));
                }
            }
        }
        args
    }

    fn eval(&self, node: Node, depth: usize) -> Value {
        if depth > 64 {
            return Value::Unknown;
        }
        match kind(node) {
            "identifier" => {
                let name = self.text(node);
                if let Some(v) = self.env.get(name) {
                    return v.clone();
                }
                if GLOBALS.contains(&name) {
                    Value::Name(name.to_string())
                } else if NODE_MODULES.contains(&name) {
                    Value::Module(name.to_string())
                } else if GLOBAL_OBJECTS.contains(&name) {
                    Value::Module(String::new())
                } else if name == "__dirname" {
                    Value::text(".")
                } else {
                    Value::Unknown
                }
            }
            "member_expression" => {
                let (Some(object), Some(property)) = (
                    self.fields.child(node, "object"),
                    self.fields.child(node, "property"),
                ) else {
                    return Value::Unknown;
                };
                let object = self.eval(object, depth + 1);
                self.member(&object, self.text(property))
            }
            "subscript_expression" => {
                let (Some(object), Some(index)) = (
                    self.fields.child(node, "object"),
                    self.fields.child(node, "index"),
                ) else {
                    return Value::Unknown;
                };
                let object = self.eval(object, depth + 1);
                let index = self.eval(index, depth + 1);
                match (&object, &index) {
                    (Value::List(items), Value::Int(i)) if *i >= 0 => {
                        items.get(*i as usize).cloned().unwrap_or_default()
                    }
                    (_, Value::Text { value, .. }) => self.member(&object, value),
                    _ => Value::Unknown,
                }
            }
            "string" => self.string(node),
            "template_string" => {
                let mut out = String::new();
                let mut cursor = node.walk();
                for part in node.named_children(&mut cursor) {
                    match kind(part) {
                        "string_fragment" => out.push_str(self.text(part)),
                        "escape_sequence" => value::unescape_into(self.text(part), &mut out),
                        _ => return Value::Unknown,
                    }
                }
                Value::text(out)
            }
            "binary_expression" => {
                let (Some(left), Some(right), Some(op)) = (
                    self.fields.child(node, "left"),
                    self.fields.child(node, "right"),
                    self.fields.child(node, "operator"),
                ) else {
                    return Value::Unknown;
                };
                if self.text(op) != "+" {
                    return Value::Unknown;
                }
                value::concat(&self.eval(left, depth + 1), &self.eval(right, depth + 1))
            }
            "array" => {
                let mut cursor = node.walk();
                let items: Vec<Value> = node
                    .named_children(&mut cursor)
                    .filter(|c| kind(c) != "comment")
                    .map(|c| {
                        if kind(c) == "spread_element" {
                            Value::Unknown
                        } else {
                            self.eval(c, depth + 1)
                        }
                    })
                    .collect();
                Value::list(items)
            }
            "object" => {
                let mut pairs = Vec::new();
                let mut cursor = node.walk();
                for pair in node.named_children(&mut cursor) {
                    if kind(pair) == "pair"
                        && let (Some(k), Some(v)) = (
                            self.fields.child(pair, "key"),
                            self.fields.child(pair, "value"),
                        )
                    {
                        let key = match kind(k) {
                            "string" => self.string(k).as_text().unwrap_or("").to_string(),
                            _ => self.text(k).to_string(),
                        };
                        pairs.push((key, self.eval(v, depth + 1)));
                    }
                }
                Value::Options(pairs)
            }
            "parenthesized_expression" | "await_expression" => node
                .named_child(0)
                .map(|c| self.eval(c, depth + 1))
                .unwrap_or_default(),
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            "number" => value::parse_integer(self.text(node)).map_or(Value::Unknown, Value::Int),
            "arrow_function" | "function_expression" | "function" => Value::Function,
            "call_expression" | "new_expression" => self.call_value(node, depth),
            _ => Value::Unknown,
        }
    }

    /// The value a call returns, for modules and paths; unknown otherwise.
    fn call_value(&self, node: Node, depth: usize) -> Value {
        let callee = self.callee(
            self.fields
                .child(node, "function")
                .or_else(|| self.fields.child(node, "constructor")),
            depth + 1,
        );
        let args = self.args(self.fields.child(node, "arguments"), depth + 1);
        let first = args.get(0).cloned().unwrap_or_default();
        let Some(name) = callee.name else {
            return Value::Unknown;
        };
        let values: Vec<Value> = args.positional.iter().map(|(v, _)| v.clone()).collect();
        match name.as_str() {
            "require" | "import" | "module.require" => match first.as_text() {
                Some(spec) => Value::Module(module_name(spec)),
                None => Value::Unknown,
            },
            "path.join" | "path.resolve" | "path.posix.join" | "path.posix.resolve" => {
                value::join(&values)
            }
            "path.normalize" | "String" | "path.toNamespacedPath" => first,
            "os.homedir" => Value::home(),
            "process.cwd" => Value::text("."),
            _ => match (&callee.receiver, name.rsplit('.').next().unwrap_or("")) {
                (Value::Text { value, .. }, "split") => match first.as_text() {
                    Some(sep) if !sep.is_empty() => {
                        Value::list(value.split(sep).map(Value::text).collect())
                    }
                    _ => Value::Unknown,
                },
                (Value::List(items), "join") => {
                    let sep = first.as_text().unwrap_or(",");
                    let texts: Option<Vec<&str>> = items.iter().map(Value::as_text).collect();
                    texts.map_or(Value::Unknown, |t| Value::text(t.join(sep)))
                }
                (Value::Text { value, home }, "trim") => Value::Text {
                    value: value.trim().to_string(),
                    home: *home,
                },
                _ => Value::Unknown,
            },
        }
    }

    fn string(&self, node: Node) -> Value {
        let mut out = String::new();
        let mut cursor = node.walk();
        for part in node.named_children(&mut cursor) {
            match kind(part) {
                "string_fragment" => out.push_str(self.text(part)),
                "escape_sequence" => value::unescape_into(self.text(part), &mut out),
                _ => {}
            }
        }
        Value::text(out)
    }
}

/// Names that stand for values: `process.env.HOME` is the home folder,
/// `fs.promises` is `fs`.
fn special_name(name: String) -> Value {
    match name.as_str() {
        "process.env.HOME" | "process.env.USERPROFILE" => Value::home(),
        "fs.promises" => Value::Module("fs".into()),
        _ => Value::Name(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effects(code: &str) -> Vec<(CodeEffect, Vec<String>)> {
        analyse(code, 0)
            .found
            .into_iter()
            .map(|f| (f.effect, f.paths.into_iter().map(|w| w.value).collect()))
            .collect()
    }

    #[test]
    fn aliases_resolve_to_canonical_names() {
        for code in [
            "require('fs').rmSync('/x')",
            "const fs = require('fs'); fs.rmSync('/x')",
            "const fs = require('node:fs'); fs.unlinkSync('/x')",
            "const {rmSync: r} = require('fs'); r('/x')",
            "const {rmSync} = require('fs'); rmSync('/x')",
            "import {rmSync as r} from 'fs'; r('/x')",
            "import * as fs from 'fs'; fs.rmSync('/x')",
            "import fs from 'fs/promises'; await fs.rm('/x')",
            "const fs = require('fs'); fs.promises.unlink('/x')",
            "const {promises: p} = require('fs'); p.rm('/x')",
            "const fs = await import('fs'); fs.rmSync('/x')",
            "const fs = require('fs'); const f = fs.rmSync; f('/x')",
            "const fs = require('fs'); fs['rmSync']('/x')",
            "const fs = require('fs'); fs.rmSync.call(null, '/x')",
        ] {
            let found = effects(code);
            assert_eq!(found.len(), 1, "{code}: {found:?}");
            assert_eq!(found[0].0, CodeEffect::Delete, "{code}");
        }
    }

    #[test]
    fn data_and_reads_have_no_effect() {
        for code in [
            "console.log('git push --force')",
            "const fs = require('fs'); console.log(fs.readFileSync('a', 'utf8'))",
            "[1,2].map(x => x * 2).filter(Boolean)",
            "setTimeout(() => console.log(1), 10)",
            "const s = 'a b'.split(' ').join('-')",
        ] {
            assert!(effects(code).is_empty(), "{code}: {:?}", effects(code));
        }
    }

    #[test]
    fn computed_members_and_requires_are_dynamic() {
        for code in [
            "const fs = require('fs'); fs[name]('/x')",
            "require(m)",
            "eval(code)",
            "new Function(body)()",
        ] {
            assert!(
                effects(code).iter().any(|(e, _)| *e == CodeEffect::Dynamic),
                "{code}: {:?}",
                effects(code)
            );
        }
    }
}
