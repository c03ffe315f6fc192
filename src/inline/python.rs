//! The Python lane: parses code with tree-sitter-python and walks it once
//! with its own recursion, following imports and aliases
//! (`import os as o`, `from shutil import rmtree as r`, `from os import *`,
//! `f = os.system`, `getattr(os, "system")`, `__import__("os")`) so each
//! call resolves to a canonical name that `rules/inline.json` judges.
//!
//! Takes code text; returns an [`Analysis`]. Bindings are flow-insensitive
//! and global: a name bound anywhere before its use keeps its last value,
//! which errs toward finding an effect, never toward missing one.

use super::value::{self, Value};
use super::{Analysis, Args, Callee, Fields, Findings, Language, MAX_DEPTH};
use crate::grammar::Grammar;
use crate::rules::CodeEffect;
use std::collections::HashMap;
use tree_sitter::Node;

/// The kind name of a Python node (see [`Grammar::kind`]).
fn kind<'t>(node: impl std::borrow::Borrow<Node<'t>>) -> &'static str {
    Grammar::Python.kind(*node.borrow())
}

/// Builtins the lane knows by their bare name.
#[rustfmt::skip]
const BUILTINS: &[&str] = &[
    "__import__", "breakpoint", "compile", "eval", "exec", "getattr", "globals", "locals", "open",
    "str", "vars",
];

/// Attributes that reach a module's or object's internals, where a name
/// can be looked up from a string nobody reads first.
#[rustfmt::skip]
const INTROSPECTION: &[&str] = &[
    "__bases__", "__builtins__", "__class__", "__closure__", "__code__", "__dict__",
    "__getattribute__", "__globals__", "__loader__", "__mro__", "__subclasses__",
];

/// Reads Python `code`; `depth` counts code-in-code levels already entered.
pub fn analyse(code: &str, depth: usize) -> Analysis {
    let tree = match super::parse(Grammar::Python, code, "Python") {
        Ok(tree) => tree,
        Err(failed) => return failed,
    };
    let root = tree.root_node();
    let mut lane = Lane {
        src: code,
        fields: &LANE_FIELDS,
        cursors: Vec::new(),
        env: HashMap::new(),
        star: Vec::new(),
        findings: Findings::new(Language::Python, depth),
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
    "right",
    "subscript",
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
    findings: Findings,
}

fn text<'s>(node: Node, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

fn line(node: Node) -> usize {
    node.start_position().row + 1
}

impl<'s, 't> Lane<'s, 't> {
    fn text(&self, node: Node<'t>) -> &'s str {
        text(node, self.src)
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
                if let Some(right) = self.fields.child(node, "right") {
                    // `f = os.system` only names the function: its calls
                    // through `f` are judged.
                    if !matches!(kind(right), "identifier" | "attribute") {
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
                        self.env.insert(self.text(name).to_string(), v);
                    }
                }
            }
            "call" => self.call(node, depth),
            "attribute" | "identifier" | "subscript" => self.reference(node, depth),
            "function_definition" => {
                if let Some(name) = self.fields.child(node, "name") {
                    self.env
                        .insert(self.text(name).to_string(), Value::Function);
                }
                if let Some(params) = self.fields.child(node, "parameters") {
                    self.visit_defaults(params, depth);
                }
                if let Some(body) = self.fields.child(node, "body") {
                    self.visit(body, depth + 1);
                }
            }
            "class_definition" => {
                if let Some(name) = self.fields.child(node, "name") {
                    self.env.insert(self.text(name).to_string(), Value::Unknown);
                }
                for field in ["superclasses", "body"] {
                    if let Some(child) = self.fields.child(node, field) {
                        self.visit(child, depth + 1);
                    }
                }
            }
            "lambda" => {
                if let Some(body) = self.fields.child(node, "body") {
                    self.visit(body, depth + 1);
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

    /// Default values of parameters are expressions; the names are not.
    fn visit_defaults(&mut self, params: Node<'t>, depth: usize) {
        let mut cursor = params.walk();
        let children: Vec<Node<'t>> = params.named_children(&mut cursor).collect();
        for param in children {
            if let Some(value) = self.fields.child(param, "value") {
                self.visit(value, depth + 1);
            }
            if let Some(name) = self.fields.child(param, "name").or(Some(param))
                && kind(name) == "identifier"
            {
                self.env.insert(self.text(name).to_string(), Value::Unknown);
            }
        }
    }

    /// Binds the names of an assignment target.
    fn bind(&mut self, target: Node<'t>, value: Value, depth: usize) {
        match kind(target) {
            "identifier" => {
                self.env.insert(self.text(target).to_string(), value);
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
                    self.visit(object, depth + 1);
                }
            }
            _ => {}
        }
    }

    fn import(&mut self, node: Node<'t>) {
        let mut cursor = node.walk();
        let children: Vec<Node<'t>> = node.children_by_field_name("name", &mut cursor).collect();
        for child in children {
            match kind(child) {
                "dotted_name" => {
                    let full = self.text(child).to_string();
                    let head = full.split('.').next().unwrap_or(&full).to_string();
                    self.env.insert(head.clone(), Value::Module(head));
                }
                "aliased_import" => {
                    if let (Some(name), Some(alias)) = (
                        self.fields.child(child, "name"),
                        self.fields.child(child, "alias"),
                    ) {
                        let module = Value::Module(self.text(name).to_string());
                        self.env.insert(self.text(alias).to_string(), module);
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
            .map(|m| self.text(m).to_string());
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
                Some(module) => Value::Name(format!("{module}.{}", self.text(name))),
                // A relative import is the project's own code.
                None => Value::Unknown,
            };
            self.env.insert(self.text(alias).to_string(), value);
        }
    }

    /// A name or attribute used as a value, not called: a function with an
    /// effect passed along (`map(os.remove, files)`) has that effect.
    fn reference(&mut self, node: Node<'t>, depth: usize) {
        if kind(node) == "attribute"
            && let Some(attr) = self.fields.child(node, "attribute")
            && INTROSPECTION.contains(&self.text(attr))
        {
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
                // The object of an attribute or subscript may hold calls.
                for field in ["object", "value", "subscript"] {
                    if let Some(child) = self.fields.child(node, field) {
                        self.visit(child, depth + 1);
                    }
                }
            }
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
                        && INTROSPECTION.contains(&self.text(attr))
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
        let callee = self.callee(function);
        let args = self.args(arguments);
        let name = callee.name.clone().unwrap_or_default();
        // A module or attribute named by a string only known at run time.
        let dynamic_lookup = match name.as_str() {
            "__import__" | "importlib.import_module" | "importlib.__import__" => {
                !matches!(args.get(0), Some(Value::Text { .. }))
            }
            "getattr" => {
                !matches!(args.get(1), Some(Value::Text { .. }))
                    && matches!(args.get(0), Some(Value::Module(_) | Value::Name(_)))
            }
            "globals" | "locals" | "vars" => true,
            _ => false,
        };
        if dynamic_lookup {
            self.findings
                .push(CodeEffect::Dynamic, self.text(node), line(node));
            return;
        }
        let t = self.text(node).to_string();
        self.findings.call(&callee, &args, &t, line(node), analyse);
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
            let attr = self.text(attr);
            let name = member_name(&receiver, attr);
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

    fn args(&mut self, arguments: Option<Node<'t>>) -> Args {
        let mut args = Args::default();
        let Some(arguments) = arguments else {
            return args;
        };
        if kind(arguments) == "generator_expression" {
            args.positional
                .push((Value::Unknown, self.text(arguments).to_string()));
            return args;
        }
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
                "list_splat" | "dictionary_splat" => args.spread = true,
                "comment" => {}
                _ => {
                    let v = self.eval(child, 0);
                    args.positional.push((v, self.text(child).to_string()));
                }
            }
        }
        args
    }

    /// The value of an expression, without judging it.
    fn eval(&self, node: Node<'t>, depth: usize) -> Value {
        if depth > 64 {
            return Value::Unknown;
        }
        match kind(node) {
            "identifier" => self.lookup(self.text(node)),
            "attribute" => {
                let (Some(object), Some(attr)) = (
                    self.fields.child(node, "object"),
                    self.fields.child(node, "attribute"),
                ) else {
                    return Value::Unknown;
                };
                let object = self.eval(object, depth + 1);
                match object {
                    Value::Module(_) | Value::Name(_) => {
                        Value::Name(member_name(&object, self.text(attr)))
                    }
                    _ => Value::Unknown,
                }
            }
            "subscript" => {
                let (Some(value), Some(index)) = (
                    self.fields.child(node, "value"),
                    self.fields.child(node, "subscript"),
                ) else {
                    return Value::Unknown;
                };
                let object = self.eval(value, depth + 1);
                let key = self.eval(index, depth + 1);
                match (&object, key.as_text()) {
                    (Value::Name(n), Some(k))
                        if n == "os.environ" && value::is_home_variable(k) =>
                    {
                        Value::home()
                    }
                    // `sys.modules['os']` is the module.
                    (Value::Name(n), Some(k)) if n == "sys.modules" => Value::Module(k.to_string()),
                    (Value::Name(n), Some(k)) if n.ends_with(".__dict__") => {
                        Value::Name(format!("{}.{k}", n.trim_end_matches(".__dict__")))
                    }
                    (Value::List(items), _) => match self.eval(index, depth + 1) {
                        Value::Int(i) if i >= 0 => {
                            items.get(i as usize).cloned().unwrap_or_default()
                        }
                        _ => Value::Unknown,
                    },
                    _ => Value::Unknown,
                }
            }
            "string" => self.string(node),
            "concatenated_string" => {
                let mut cursor = node.walk();
                let parts: Vec<Value> = node
                    .named_children(&mut cursor)
                    .map(|p| self.eval(p, depth + 1))
                    .collect();
                parts
                    .iter()
                    .skip(1)
                    .fold(parts.first().cloned().unwrap_or_default(), |a, b| {
                        value::concat(&a, b)
                    })
            }
            "binary_operator" => {
                let (Some(left), Some(right), Some(op)) = (
                    self.fields.child(node, "left"),
                    self.fields.child(node, "right"),
                    self.fields.child(node, "operator"),
                ) else {
                    return Value::Unknown;
                };
                let l = self.eval(left, depth + 1);
                let r = self.eval(right, depth + 1);
                match (self.text(op), &l) {
                    ("+", _) => value::concat(&l, &r),
                    ("/", Value::Object { class, path }) => Value::Object {
                        class: class.clone(),
                        path: Box::new(value::join([path.as_ref(), r.path()])),
                    },
                    _ => Value::Unknown,
                }
            }
            "list" | "tuple" | "expression_list" => {
                let mut cursor = node.walk();
                let items: Vec<Value> = node
                    .named_children(&mut cursor)
                    .filter(|c| kind(c) != "comment")
                    .map(|c| {
                        if kind(c) == "list_splat" {
                            Value::Unknown
                        } else {
                            self.eval(c, depth + 1)
                        }
                    })
                    .collect();
                Value::list(items)
            }
            "dictionary" => {
                let mut pairs = Vec::new();
                let mut cursor = node.walk();
                for pair in node.named_children(&mut cursor) {
                    if let (Some(k), Some(v)) = (
                        self.fields.child(pair, "key"),
                        self.fields.child(pair, "value"),
                    ) && let Some(key) = self.eval(k, depth + 1).as_text()
                    {
                        pairs.push((key.to_string(), self.eval(v, depth + 1)));
                    }
                }
                Value::Options(pairs)
            }
            "parenthesized_expression" | "await" => node
                .named_child(0)
                .map(|c| self.eval(c, depth + 1))
                .unwrap_or_default(),
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            "integer" => value::parse_integer(self.text(node)).map_or(Value::Unknown, Value::Int),
            "lambda" => Value::Function,
            "call" => self.call_value(node, depth),
            _ => Value::Unknown,
        }
    }

    fn lookup(&self, name: &str) -> Value {
        if let Some(v) = self.env.get(name) {
            return v.clone();
        }
        if BUILTINS.contains(&name) {
            return Value::Name(name.to_string());
        }
        // `from os import *`: a bare name of a module the table knows.
        for module in self.star.iter().rev() {
            let full = format!("{module}.{name}");
            if crate::rules::code_call(Language::Python, &full, false).is_some() {
                return Value::Name(full);
            }
        }
        Value::Unknown
    }

    /// The value a call returns, for the calls that build paths, lists and
    /// modules; unknown for the rest.
    fn call_value(&self, node: Node<'t>, depth: usize) -> Value {
        let function = self.fields.child(node, "function");
        let mut args = Vec::new();
        if let Some(a) = self.fields.child(node, "arguments") {
            let mut cursor = a.walk();
            for child in a.named_children(&mut cursor) {
                if !matches!(kind(child), "keyword_argument" | "comment") {
                    args.push(self.eval(child, depth + 1));
                }
            }
        }
        let first = args.first().cloned().unwrap_or_default();
        let Some(function) = function else {
            return Value::Unknown;
        };
        let (receiver, name) = match kind(function) {
            "attribute" => {
                let receiver = self
                    .fields
                    .child(function, "object")
                    .map(|o| self.eval(o, depth + 1))
                    .unwrap_or_default();
                let attr = self
                    .fields
                    .child(function, "attribute")
                    .map(|a| self.text(a).to_string())
                    .unwrap_or_default();
                let name = member_name(&receiver, &attr);
                (receiver, name)
            }
            _ => match self.eval(function, depth + 1) {
                Value::Name(n) | Value::Module(n) => (Value::Unknown, n),
                _ => return Value::Unknown,
            },
        };
        let method = name.rsplit('.').next().unwrap_or("");
        match name.as_str() {
            "pathlib.Path" | "pathlib.PosixPath" | "pathlib.PurePath" | "pathlib.PurePosixPath" => {
                Value::Object {
                    class: "pathlib.Path".into(),
                    path: Box::new(if args.is_empty() {
                        Value::text(".")
                    } else {
                        value::join(&args)
                    }),
                }
            }
            "pathlib.Path.home" => path_object(Value::home()),
            "pathlib.Path.cwd" | "os.getcwd" => path_or_text(&name, Value::text(".")),
            "os.path.join" | "posixpath.join" => value::join(&args),
            "os.path.expanduser" | "os.path.expandvars" | "posixpath.expanduser" => {
                value::expand_user(&first)
            }
            "os.path.abspath" | "os.path.realpath" | "os.path.normpath" | "os.fspath" | "str" => {
                first
            }
            "os.getenv" | "os.environ.get" => match first.as_text() {
                Some(k) if value::is_home_variable(k) => Value::home(),
                _ => Value::Unknown,
            },
            "__import__" | "importlib.import_module" => match first.as_text() {
                Some(m) => Value::Module(m.to_string()),
                None => Value::Unknown,
            },
            "getattr" => match (&first, args.get(1).and_then(Value::as_text)) {
                (Value::Module(_) | Value::Name(_), Some(attr)) => {
                    Value::Name(member_name(&first, attr))
                }
                _ => Value::Unknown,
            },
            "shlex.split" => match first.as_text().and_then(shlex::split) {
                Some(words) => Value::list(words.into_iter().map(Value::text).collect()),
                None => Value::Unknown,
            },
            _ => match (&receiver, method) {
                (Value::Object { path, .. }, "expanduser") => path_object(value::expand_user(path)),
                (Value::Object { path, .. }, "resolve" | "absolute") => {
                    path_object(path.as_ref().clone())
                }
                (Value::Object { path, .. }, "joinpath") => {
                    let mut parts = vec![path.as_ref().clone()];
                    parts.extend(args);
                    path_object(value::join(&parts))
                }
                (Value::Text { value, .. }, "split") if args.is_empty() => {
                    Value::list(value.split_whitespace().map(Value::text).collect())
                }
                (Value::Text { value, .. }, "split") => match first.as_text() {
                    Some(sep) if !sep.is_empty() => {
                        Value::list(value.split(sep).map(Value::text).collect())
                    }
                    _ => Value::Unknown,
                },
                (Value::Text { value: sep, .. }, "join") => match &first {
                    Value::List(items) => {
                        let texts: Option<Vec<&str>> = items.iter().map(Value::as_text).collect();
                        texts.map_or(Value::Unknown, |t| Value::text(t.join(sep)))
                    }
                    _ => Value::Unknown,
                },
                (Value::Text { value, home }, "strip") if args.is_empty() => Value::Text {
                    value: value.trim().to_string(),
                    home: *home,
                },
                _ => Value::Unknown,
            },
        }
    }

    /// A string literal's value; unknown with an f-string expression in it.
    fn string(&self, node: Node<'t>) -> Value {
        let raw = self.text(node);
        let prefix: String = raw
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect::<String>()
            .to_ascii_lowercase();
        let raw_string = prefix.contains('r');
        let mut out = String::new();
        let mut cursor = node.walk();
        for part in node.named_children(&mut cursor) {
            match kind(part) {
                "string_content" => {
                    let content = self.text(part);
                    if raw_string {
                        out.push_str(content);
                    } else {
                        value::unescape_into(content, &mut out);
                    }
                }
                "escape_sequence" => value::unescape_into(self.text(part), &mut out),
                "interpolation" => return Value::Unknown,
                _ => {}
            }
        }
        Value::text(out)
    }
}

/// `module.attr` for a module or name; `?.attr` on an unknown receiver
/// (only `*.method` entries match it).
fn member_name(receiver: &Value, attr: &str) -> String {
    let base = match receiver {
        Value::Module(m) | Value::Name(m) => m.as_str(),
        Value::Object { class, .. } => class.as_str(),
        Value::Text { .. } => "str",
        _ => "?",
    };
    let full = format!("{base}.{attr}");
    // `builtins.open` is `open`; `os.path` functions are `posixpath`'s too.
    match full.strip_prefix("builtins.") {
        Some(bare) => bare.to_string(),
        None => full,
    }
}

fn path_object(path: Value) -> Value {
    Value::Object {
        class: "pathlib.Path".into(),
        path: Box::new(path),
    }
}

fn path_or_text(name: &str, path: Value) -> Value {
    if name.starts_with("pathlib") {
        path_object(path)
    } else {
        path
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
            "import shutil; shutil.rmtree('/x')",
            "import shutil as s; s.rmtree('/x')",
            "from shutil import rmtree; rmtree('/x')",
            "from shutil import rmtree as r; r('/x')",
            "from shutil import *; rmtree('/x')",
            "import shutil\nf = shutil.rmtree\nf('/x')",
            "getattr(__import__('shutil'), 'rmtree')('/x')",
            "import importlib; importlib.import_module('shutil').rmtree('/x')",
            "from pathlib import Path; Path('/x').rmdir()",
            "import os; os.rmdir(os.path.join('/', 'x'))",
        ] {
            assert_eq!(
                effects(code),
                vec![(CodeEffect::Delete, vec!["/x".to_string()])],
                "{code}"
            );
        }
    }

    #[test]
    fn data_and_reads_have_no_effect() {
        for code in [
            "print('rm -rf /')",
            "import os; print(os.listdir('.'))",
            "s = 'a'.replace('a', 'b'); l = [1]; l.remove(1)",
            "import json; json.load(open('x.json'))",
            "import sys; sys.stdout.write('x')",
            "def f(exec=True): return exec",
        ] {
            assert!(effects(code).is_empty(), "{code}: {:?}", effects(code));
        }
    }

    #[test]
    fn dynamic_lookups_are_dynamic() {
        for code in [
            "import os; getattr(os, name)('x')",
            "__import__(m)",
            "os.__dict__['system']",
            "exec(code)",
        ] {
            assert!(
                effects(code).iter().any(|(e, _)| *e == CodeEffect::Dynamic),
                "{code}: {:?}",
                effects(code)
            );
        }
    }

    #[test]
    fn literal_exec_is_read_in_turn() {
        assert_eq!(
            effects("exec(\"import os; os.remove('a')\")"),
            vec![(CodeEffect::Delete, vec!["a".to_string()])]
        );
    }
}
