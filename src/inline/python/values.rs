//! What a Python expression is worth before the code runs: a module, a
//! dotted name, text, a path, a list; and what a bare name or an attribute
//! refers to (a binding of the code, a builtin, a module reached through
//! another). Takes nodes of the lane's tree; returns [`Value`]s, unknown
//! where the code decides at run time. Judges nothing: the lane's walk
//! (`python/mod.rs`) does, with these values.

use super::{Lane, kind};
use crate::inline::Language;
use crate::inline::value::{self, Value};
use crate::rules;
use tree_sitter::Node;

/// Every name in Python's `builtins` module (3.11 to 3.13): a bare name
/// the code does not bind is the builtin, judged by the table.
#[rustfmt::skip]
const BUILTINS: &[&str] = &[
    "ArithmeticError", "AssertionError", "AttributeError", "BaseException",
    "BaseExceptionGroup", "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning",
    "ChildProcessError", "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError",
    "ConnectionResetError", "DeprecationWarning", "EOFError", "Ellipsis", "EncodingWarning",
    "EnvironmentError", "Exception", "ExceptionGroup", "FileExistsError", "FileNotFoundError",
    "FloatingPointError", "FutureWarning", "GeneratorExit", "IOError", "ImportError",
    "ImportWarning", "IndentationError", "IndexError", "InterruptedError", "IsADirectoryError",
    "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError", "ModuleNotFoundError",
    "NameError", "NotADirectoryError", "NotImplemented", "NotImplementedError", "OSError",
    "OverflowError", "PendingDeprecationWarning", "PermissionError", "ProcessLookupError",
    "PythonFinalizationError", "RecursionError", "ReferenceError", "ResourceWarning",
    "RuntimeError", "RuntimeWarning", "StopAsyncIteration", "StopIteration", "SyntaxError",
    "SyntaxWarning", "SystemError", "SystemExit", "TabError", "TimeoutError", "TypeError",
    "UnboundLocalError", "UnicodeDecodeError", "UnicodeEncodeError", "UnicodeError",
    "UnicodeTranslateError", "UnicodeWarning", "UserWarning", "ValueError", "Warning",
    "ZeroDivisionError", "__build_class__", "__debug__", "__doc__", "__import__", "__loader__",
    "__name__", "__package__", "__spec__", "abs", "aiter", "all", "anext", "any", "ascii", "bin",
    "bool", "breakpoint", "bytearray", "bytes", "callable", "chr", "classmethod", "compile",
    "complex", "copyright", "credits", "delattr", "dict", "dir", "divmod", "enumerate", "eval",
    "exec", "exit", "filter", "float", "format", "frozenset", "getattr", "globals", "hasattr",
    "hash", "help", "hex", "id", "input", "int", "isinstance", "issubclass", "iter", "len",
    "license", "list", "locals", "map", "max", "memoryview", "min", "next", "object", "oct",
    "open", "ord", "pow", "print", "property", "quit", "range", "repr", "reversed", "round",
    "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple", "type",
    "vars", "zip",
];

/// Modules that other modules import and so expose as attributes
/// (`glob.os`, `shutil.os`, `os.path.os`, `importlib.sys`): an attribute of
/// a module with one of these names is taken to be that module. Names that
/// are also common plain attributes (`sys.platform`, `err.code`) are left
/// out: for those the attribute stays unknown, which is unresolved anyway.
#[rustfmt::skip]
const REACHABLE_MODULES: &[&str] = &[
    "_posixsubprocess", "asyncio", "builtins", "cProfile", "ctypes", "doctest", "glob",
    "importlib", "marshal", "multiprocessing", "nt", "ntpath", "os", "pathlib", "pdb", "pickle",
    "posix", "posixpath", "pty", "pydoc", "requests", "runpy", "shutil", "socket", "subprocess",
    "sys", "tempfile", "timeit", "urllib", "webbrowser",
];

impl<'s, 't> Lane<'s, 't> {
    /// The value of an expression, without judging it.
    pub(super) fn eval(&self, node: Node<'t>, depth: usize) -> Value {
        if depth > 64 {
            return Value::Unknown;
        }
        match kind(node) {
            "identifier" => self.lookup(&self.name(node)),
            "attribute" => {
                let (Some(object), Some(attr)) = (
                    self.fields.child(node, "object"),
                    self.fields.child(node, "attribute"),
                ) else {
                    return Value::Unknown;
                };
                let object = self.eval(object, depth + 1);
                member(&object, &self.name(attr))
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

    /// The value of a bare name: bound by the code, else exported by a
    /// `from m import *` the table knows by that exact name
    /// (`from os import *` makes `open` `os.open`), else a builtin, else a
    /// name under a starred module the table covers (`from math import *`).
    fn lookup(&self, name: &str) -> Value {
        if let Some(v) = self.env.get(name) {
            return v.clone();
        }
        if name == "__builtins__" {
            return Value::Module("builtins".into());
        }
        for module in self.star.iter().rev() {
            if REACHABLE_MODULES.contains(&name) {
                return Value::Module(name.to_string());
            }
            let full = format!("{module}.{name}");
            if rules::code_call(Language::Python, &full, false).is_some_and(|e| e.name == full) {
                return Value::Name(full);
            }
        }
        if BUILTINS.contains(&name) {
            return Value::Name(name.to_string());
        }
        for module in self.star.iter().rev() {
            let full = format!("{module}.{name}");
            if rules::code_call(Language::Python, &full, false).is_some() {
                return Value::Name(full);
            }
        }
        Value::Unknown
    }

    /// The value a call returns, for the calls that build paths, lists and
    /// modules; unknown for the rest.
    pub(super) fn call_value(&self, node: Node<'t>, depth: usize) -> Value {
        let args = self
            .fields
            .child(node, "arguments")
            .map(|a| self.argument_values(a, depth))
            .unwrap_or_default();
        self.value_of_call(self.fields.child(node, "function"), args, depth)
    }

    /// The values of a call's arguments (`arguments`, an argument list or
    /// a generator expression) as [`Lane::value_of_call`] takes them:
    /// every one but keyword arguments and comments, in order.
    pub(super) fn argument_values(&self, arguments: Node<'t>, depth: usize) -> Vec<Value> {
        let mut cursor = arguments.walk();
        arguments
            .named_children(&mut cursor)
            .filter(|child| !matches!(kind(child), "keyword_argument" | "comment"))
            .map(|child| self.eval(child, depth + 1))
            .collect()
    }

    /// [`Lane::call_value`] with the call's arguments already evaluated:
    /// every argument but keyword ones, in order (a `*xs` is unknown).
    pub(super) fn value_of_call(
        &self,
        function: Option<Node<'t>>,
        args: Vec<Value>,
        depth: usize,
    ) -> Value {
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
                    .map(|a| self.name(a).into_owned())
                    .unwrap_or_default();
                let name = match member(&receiver, &attr) {
                    Value::Module(m) | Value::Name(m) => m,
                    _ => member_name(&receiver, &attr),
                };
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
            "getattr" => match args.get(1).and_then(Value::as_text) {
                Some(attr) => member(&first, attr),
                None => Value::Unknown,
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
pub(super) fn member_name(receiver: &Value, attr: &str) -> String {
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

/// The value of attribute `attr` of `receiver`: for a module or name, the
/// module it reaches (`glob.os` is `os`) or the dotted name; unknown for
/// anything else.
pub(super) fn member(receiver: &Value, attr: &str) -> Value {
    match receiver {
        Value::Module(m) | Value::Name(m) => module_member(m, attr),
        _ => Value::Unknown,
    }
}

/// `attr` of the module or name `base`: a module other modules expose
/// (`shutil.os`) is that module (but `glob.glob`, `socket.socket` and
/// `timeit.timeit` are the module's own function); anything else is the
/// dotted name.
pub(super) fn module_member(base: &str, attr: &str) -> Value {
    let own = base.rsplit('.').next() == Some(attr);
    if REACHABLE_MODULES.contains(&attr) && !own {
        return Value::Module(attr.to_string());
    }
    Value::Name(member_name(&Value::Name(base.to_string()), attr))
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
