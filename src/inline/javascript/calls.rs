//! How the JavaScript lane judges a call: the callee resolved to a
//! canonical name (through aliases, modules and `import('x').then`), its
//! arguments read as values, and whether it resolves (a table entry, a
//! function of the code, a promise's `resolve`). `new Function` of literal
//! text and callbacks of `setTimeout` are read here too. Takes call nodes
//! of the lane's tree; adds findings to the lane.

use super::values::special_name;
use super::{
    Lane, OTHER_LOADERS, analyse, entry, kind, line, loadable, member_name, method_fallback,
};
use crate::inline::value::Value;
use crate::inline::{Args, Callee, MAX_DEPTH};
use crate::rules::CodeEffect;
use tree_sitter::Node;

impl<'s> Lane<'s> {
    pub(super) fn call(&mut self, node: Node<'s>, depth: usize) {
        let function = self
            .fields
            .child(node, "function")
            .or_else(|| self.fields.child(node, "constructor"));
        let arguments = self.fields.child(node, "arguments");
        self.bind_import_then(function, arguments);
        if let Some(f) = function {
            match kind(f) {
                "identifier" | "import" | "super" => {}
                "member_expression" | "subscript_expression" => {
                    // A name chain (`fs.rmSync.call`) is the callee itself;
                    // anything else may hold calls of its own (`require('x')`).
                    if let Some(object) = self.fields.child(f, "object") {
                        self.visit_receiver(object, depth + 1);
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
        let mut callee = self.callee(function, 0);
        let mut args = self.args(arguments, 0);
        let name = callee.name.clone().unwrap_or_default();
        let loader =
            matches!(name.as_str(), "require" | "import") || OTHER_LOADERS.contains(&name.as_str());
        let dynamic_lookup = if loader {
            !matches!(args.get(0), Some(Value::Text { .. }))
        } else {
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
        };
        if dynamic_lookup {
            self.findings
                .push(CodeEffect::Dynamic, self.text(node), line(node));
            self.flag(node);
            return;
        }
        if loader {
            let spec = args.get(0).and_then(Value::as_text).unwrap_or("");
            if !loadable(spec) || OTHER_LOADERS.contains(&name.as_str()) {
                self.flag(node);
            }
            return;
        }
        // `$` is zx's and Bun's shell only as a template tag; as a function
        // it is usually jQuery, which is not here.
        if name == "$" && !tagged {
            self.flag(node);
            return;
        }
        if !self.resolve(node, function, &mut callee) {
            self.flag(node);
        }
        if name == "Function" {
            self.function_constructor(&mut args);
        }
        if let Some(e) = entry(&name, callee.method)
            && e.callback_ok
            && let Some(index) = e.code
        {
            self.callback_argument(arguments, &args, index);
        }
        let t = self.text(node).to_string();
        self.findings.call(&callee, &args, &t, line(node), analyse);
    }

    /// The receiver of a method call: the calls and indexes in its chain
    /// are walked (`require('fs').promises.readFile`); its named parts are
    /// the callee's own name, not values used.
    fn visit_receiver(&mut self, node: Node<'s>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match kind(node) {
            "identifier" | "this" => {}
            "member_expression" => {
                if let Some(object) = self.fields.child(node, "object") {
                    self.visit_receiver(object, depth + 1);
                }
            }
            "subscript_expression" => {
                if let Some(object) = self.fields.child(node, "object") {
                    self.visit_receiver(object, depth + 1);
                }
                if let Some(index) = self.fields.child(node, "index") {
                    self.visit(index, depth + 1);
                }
            }
            "parenthesized_expression" | "await_expression" => {
                if let Some(inner) = node.named_child(0) {
                    self.visit_receiver(inner, depth + 1);
                }
            }
            _ => self.visit(node, depth + 1),
        }
    }

    /// Whether a call resolves: to a table entry (pure or with an effect
    /// the findings report), to a function of the code, or to a promise's
    /// own `resolve`. Sets whether the `*.m` entries apply.
    pub(super) fn resolve(&self, node: Node, function: Option<Node>, callee: &mut Callee) -> bool {
        let Some(f) = function else {
            return false;
        };
        if kind(f) == "super" {
            return true;
        }
        if let Some(name) = callee.name.clone() {
            if callee.method {
                if self.is_import_then(f) {
                    return true;
                }
                callee.method = method_fallback(&callee.receiver);
            }
            return entry(&name, callee.method).is_some();
        }
        if kind(node) == "call_expression" && kind(f) == "identifier" && self.promise_param(f) {
            return true;
        }
        matches!(self.eval(f, 0), Value::Function)
    }

    /// `new Function('a', 'return a')`: the parameters and body, when all
    /// literal, as one function's code for the lane to read in turn;
    /// otherwise left for the table's `dynamic`.
    fn function_constructor(&self, args: &mut Args) {
        let texts: Option<Vec<&str>> = args.positional.iter().map(|(v, _)| v.as_text()).collect();
        let Some(texts) = texts else { return };
        if args.spread || texts.is_empty() {
            return;
        }
        let (body, params) = texts.split_last().unwrap_or((&"", &[]));
        let code = format!(
            "(function anonymous({}\n) {{\n{body}\n}})",
            params.join(",")
        );
        let source = args
            .positional
            .last()
            .map(|(_, s)| s.clone())
            .unwrap_or_default();
        args.positional = vec![(Value::text(code), source)];
    }

    /// The callback of `setTimeout` and its kind: a function of the code or
    /// a known pure function is a callback; a promise's `resolve` too;
    /// anything else unknown may be a string of code (Deno and Bun run it).
    fn callback_argument(&mut self, arguments: Option<Node<'s>>, args: &Args, index: u8) {
        let Some((value, _)) = args.positional.get(index as usize) else {
            return;
        };
        let node = arguments.and_then(|a| {
            let mut cursor = a.walk();
            a.named_children(&mut cursor)
                .filter(|c| kind(c) != "comment")
                .nth(index as usize)
        });
        if matches!(value, Value::Unknown) {
            let resolve = node.is_some_and(|n| kind(n) == "identifier" && self.promise_param(n));
            if !resolve && let Some(n) = node {
                self.flag(n);
            }
        }
    }

    /// `import('x').then(m => …)`: binds the callback's first parameter to
    /// the module.
    fn bind_import_then(&mut self, function: Option<Node>, arguments: Option<Node>) {
        let (Some(f), Some(arguments)) = (function, arguments) else {
            return;
        };
        if !self.is_import_then(f) {
            return;
        }
        let Some(module) = self.fields.child(f, "object").map(|o| self.eval(o, 0)) else {
            return;
        };
        let Some(callback) = arguments.named_child(0) else {
            return;
        };
        if !matches!(kind(callback), "arrow_function" | "function_expression") {
            return;
        }
        let param = self.fields.child(callback, "parameter").or_else(|| {
            self.fields
                .child(callback, "parameters")
                .and_then(|p| p.named_child(0))
        });
        if let Some(param) = param {
            self.bind(param, module);
        }
    }

    /// Whether `f` is `import('x').then` (or `.catch`, `.finally`).
    fn is_import_then(&self, f: Node) -> bool {
        kind(f) == "member_expression"
            && self
                .fields
                .child(f, "property")
                .is_some_and(|p| matches!(self.text(p), "then" | "catch" | "finally"))
            && self.fields.child(f, "object").is_some_and(|o| {
                kind(o) == "call_expression"
                    && self
                        .fields
                        .child(o, "function")
                        .is_some_and(|g| kind(g) == "import")
            })
    }

    /// Whether identifier `ident` is a parameter of a `new Promise(…)`
    /// executor: its `resolve` or `reject`, harmless to call or hand on.
    fn promise_param(&self, ident: Node) -> bool {
        let name = self.text(ident);
        let mut node = ident;
        for _ in 0..MAX_DEPTH {
            let Some(parent) = node.parent() else {
                return false;
            };
            node = parent;
            if !matches!(
                kind(node),
                "arrow_function"
                    | "function_expression"
                    | "function_declaration"
                    | "method_definition"
            ) {
                continue;
            }
            let mut names = Vec::new();
            if let Some(p) = self.fields.child(node, "parameter") {
                names.push(p);
            }
            if let Some(p) = self.fields.child(node, "parameters") {
                self.pattern_names(p, &mut names, 0);
            }
            if !names.iter().any(|n| self.text(*n) == name) {
                continue;
            }
            return node.parent().is_some_and(|args| {
                kind(args) == "arguments"
                    && args.parent().is_some_and(|new| {
                        kind(new) == "new_expression"
                            && self.fields.child(new, "constructor").is_some_and(
                                |c| matches!(self.eval(c, 0), Value::Name(n) if n == "Promise"),
                            )
                    })
            });
        }
        false
    }

    pub(super) fn callee(&self, function: Option<Node>, depth: usize) -> Callee {
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

    pub(super) fn args(&self, arguments: Option<Node>, depth: usize) -> Args {
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
}
