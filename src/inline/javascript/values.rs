//! What a JavaScript expression is worth before the code runs: a module,
//! a dotted name, text, a path, a number; and what a name the code does
//! not bind or `this` refers to (the global object, a built-in module, a
//! global). Takes nodes of the lane's tree; returns [`Value`]s, unknown
//! where the code decides at run time. Judges nothing: the lane's walk
//! (`javascript/mod.rs`) does, with these values.

use super::{GLOBAL_OBJECTS, Lane, NODE_MODULES, OTHER_LOADERS, is_json_file, kind, module_name};
use crate::inline::MAX_DEPTH;
use crate::inline::value::{self, Value};
use tree_sitter::Node;

impl<'s> Lane<'s> {
    /// The value of a name the code does not bind: the global object, a
    /// built-in module, or a global by its name.
    fn global(&self, name: &str) -> Value {
        if self.bindings.contains_key(name) {
            // A parameter, loop variable or name bound later: local.
            Value::Unknown
        } else if GLOBAL_OBJECTS.contains(&name) {
            Value::Module(String::new())
        } else if NODE_MODULES.contains(&name) {
            Value::Module(name.to_string())
        } else if name == "__dirname" {
            Value::text(".")
        } else if matches!(
            name,
            "undefined" | "NaN" | "Infinity" | "arguments" | "__filename"
        ) {
            Value::Unknown
        } else {
            Value::Name(name.to_string())
        }
    }

    /// `this`: the object in a method or class; elsewhere (the top level, a
    /// plain function called plainly) the global object.
    fn this_value(&self, node: Node) -> Value {
        let mut node = node;
        for _ in 0..MAX_DEPTH {
            let Some(parent) = node.parent() else {
                break;
            };
            node = parent;
            match kind(node) {
                "method_definition" | "class_body" | "field_definition" => return Value::Unknown,
                "function_declaration"
                | "function_expression"
                | "generator_function"
                | "generator_function_declaration"
                | "program" => break,
                _ => {}
            }
        }
        Value::Module(String::new())
    }

    pub(super) fn eval(&self, node: Node, depth: usize) -> Value {
        if depth > 64 {
            return Value::Unknown;
        }
        match kind(node) {
            "identifier" | "shorthand_property_identifier" => {
                let name = self.text(node);
                match self.env.get(name) {
                    Some(v) => v.clone(),
                    None => self.global(name),
                }
            }
            "this" => self.this_value(node),
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
            "arrow_function"
            | "function_expression"
            | "function"
            | "generator_function"
            | "class" => Value::Function,
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
            n if matches!(n, "require" | "import") || OTHER_LOADERS.contains(&n) => {
                match first.as_text() {
                    Some(spec) if is_json_file(spec) => Value::Unknown,
                    Some(spec) => Value::Module(module_name(spec)),
                    None => Value::Unknown,
                }
            }
            "path.join" | "path.resolve" | "path.posix.join" | "path.posix.resolve" => {
                value::join(&values)
            }
            "path.normalize" | "String" | "path.toNamespacedPath" => first,
            // `new Function('return 1')` with literal text: read in turn.
            "Function" if !args.spread && values.iter().all(|v| v.as_text().is_some()) => {
                Value::Function
            }
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

    pub(super) fn string(&self, node: Node) -> Value {
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
pub(super) fn special_name(name: String) -> Value {
    match name.as_str() {
        "process.env.HOME" | "process.env.USERPROFILE" => Value::home(),
        "fs.promises" => Value::Module("fs".into()),
        _ => Value::Name(name),
    }
}
