//! The inline-code lanes: Python and JavaScript handed to an interpreter
//! (`python3 -c`, `node -e`, a heredoc, a script file), read with their
//! tree-sitter grammars and judged by what the code calls.
//!
//! Takes code text; returns an [`Analysis`]: every call with an effect
//! ([`Found`]: what it does, where in the snippet, the paths it touches, the
//! command it hands to a shell), and whether the code parsed. The lanes
//! decide nothing: the engine turns effects into findings and sends paths
//! and shell commands through the same floor and lexicon as typed commands.
//! Which calls have effects is data, in `rules/inline.json`.
//!
//! `route` says where a program's code comes from; `scan` is the token scan
//! for languages without a grammar here (Perl, Ruby, PHP, Lua).
#![deny(clippy::indexing_slicing)]

pub mod javascript;
pub mod literal;
pub mod python;
pub mod route;
pub mod scan;
pub mod value;

use crate::grammar::Grammar;
use crate::limits;
use crate::rules::{self, CodeCall, CodeEffect, CodeLanguage, PathArg, ShellArg};
use crate::shell::Word;
use value::Value;

pub use crate::rules::CodeLanguage as Language;

/// Deepest nesting of code inside code (`exec("exec('…')")`) and of
/// syntax trees the lanes walk.
const MAX_DEPTH: usize = 200;

/// One call with an effect.
#[derive(Clone, Debug)]
pub struct Found {
    /// What it does.
    pub effect: CodeEffect,
    /// The call as written (clipped, on one line).
    pub call: String,
    /// Its line in the snippet, from 1.
    pub line: usize,
    /// The files it touches.
    pub paths: Vec<Word>,
    /// The shell command it amounts to, for the floor (`rm -rf`), or "".
    pub equivalent: &'static str,
    /// The mode of a `chmod`-like call, when literal.
    pub mode: Option<String>,
    /// The command it hands to a program or shell.
    pub handoff: Option<Handoff>,
}

/// A command that code hands over to run.
#[derive(Clone, Debug)]
pub enum Handoff {
    /// A shell line (`os.system("…")`, `execSync("…")`).
    Line(String),
    /// An argv (`subprocess.run(["git", "push"])`): words, not a line.
    Argv(Vec<Word>),
    /// Built at run time: nobody can read it first.
    Unknown(String),
}

/// What a snippet does.
#[derive(Debug, Default)]
pub struct Analysis {
    /// Every call with an effect, in source order.
    pub found: Vec<Found>,
    /// Where the code failed to parse, if it did.
    pub unparsable: Option<String>,
}

/// Reads `code` as `language` and returns what it does. `depth` counts the
/// levels of code inside code already entered.
pub fn analyse(language: Language, code: &str, depth: usize) -> Analysis {
    match language {
        Language::Python => python::analyse(code, depth),
        Language::JavaScript => javascript::analyse(code, depth),
    }
}

/// Field ids of a grammar, each looked up the first time a walk asks for
/// it: tree-sitter's lookup by name compares against every field name of
/// the grammar (19 lookups at once cost `python3 -c 'print(1)'` 15 k
/// instructions, 6 % of the call), and a short snippet asks for few.
pub(crate) struct Fields {
    language: &'static tree_sitter::Language,
    names: &'static [&'static str],
    ids: Box<[std::sync::OnceLock<Option<u16>>]>,
}

impl Fields {
    pub fn new(language: &'static tree_sitter::Language, names: &'static [&'static str]) -> Fields {
        Fields {
            language,
            names,
            ids: names.iter().map(|_| std::sync::OnceLock::new()).collect(),
        }
    }

    /// The child of `node` in field `name` (one of the names given to
    /// `new`; any other has no child).
    pub fn child<'t>(
        &self,
        node: tree_sitter::Node<'t>,
        name: &str,
    ) -> Option<tree_sitter::Node<'t>> {
        let at = self.names.iter().position(|n| *n == name)?;
        let id = self
            .ids
            .get(at)?
            .get_or_init(|| self.language.field_id_for_name(name).map(|id| id.get()))
            .as_ref()
            .copied()?;
        node.child_by_field_id(id)
    }
}

/// The arguments of one call, evaluated.
#[derive(Debug, Default)]
pub(crate) struct Args {
    /// Positional arguments, with their source text.
    pub positional: Vec<(Value, String)>,
    /// Keyword arguments (Python `shell=True`).
    pub keywords: Vec<(String, Value)>,
    /// A `*args`/`...args` spread: positions after it are unknown.
    pub spread: bool,
}

impl Args {
    fn get(&self, index: u8) -> Option<&Value> {
        self.positional.get(index as usize).map(|(v, _)| v)
    }

    fn source(&self, index: u8) -> &str {
        self.positional
            .get(index as usize)
            .map(|(_, s)| s.as_str())
            .unwrap_or("")
    }

    fn keyword(&self, name: &str) -> Option<&Value> {
        self.keywords
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }
}

/// A call's target, resolved.
#[derive(Debug, Default)]
pub(crate) struct Callee {
    /// Canonical dotted name, when it resolves (`shutil.rmtree`).
    pub name: Option<String>,
    /// The call is a method call (`x.unlink()`).
    pub method: bool,
    /// The object a method is called on.
    pub receiver: Value,
    /// The first argument is `this` (`fn.call(this, …)`), not the first
    /// argument of the function.
    pub this_first: bool,
}

/// What a lane has found so far; shared by both languages.
pub(crate) struct Findings {
    pub language: Language,
    pub depth: usize,
    pub analysis: Analysis,
}

impl Findings {
    pub fn new(language: Language, depth: usize) -> Findings {
        Findings {
            language,
            depth,
            analysis: Analysis::default(),
        }
    }

    /// A call with no table entry but an effect of its own (a computed
    /// import, an introspection trick).
    pub fn push(&mut self, effect: CodeEffect, call: &str, line: usize) {
        self.analysis.found.push(Found {
            effect,
            call: one_line(call),
            line,
            paths: Vec::new(),
            equivalent: "",
            mode: None,
            handoff: None,
        });
    }

    /// A function with an effect referred to but not called here
    /// (`map(os.remove, files)`, `f = os.system`): its effect, arguments
    /// unknown.
    pub fn reference(&mut self, name: &str, text: &str, line: usize) {
        let Some(entry) = rules::code_call(self.language, name, false) else {
            return;
        };
        // Calls whose effect depends on an argument (`open`'s mode, a
        // timer's callback) are judged where they are called.
        if entry.effect == CodeEffect::None || entry.mode.is_some() || entry.callback_ok {
            return;
        }
        self.push(entry.effect, text, line);
        if entry.effect == CodeEffect::Spawn
            && let Some(found) = self.analysis.found.last_mut()
        {
            found.handoff = Some(Handoff::Unknown(one_line(text)));
        }
    }

    /// Judges a call against the language's table. `nested` analyses code
    /// handed to `eval`/`exec` in the same language.
    pub fn call(
        &mut self,
        callee: &Callee,
        args: &Args,
        text: &str,
        line: usize,
        nested: fn(&str, usize) -> Analysis,
    ) {
        let Some(name) = &callee.name else { return };
        let shifted;
        let args = if callee.this_first && !args.positional.is_empty() {
            shifted = Args {
                positional: args.positional.iter().skip(1).cloned().collect(),
                keywords: Vec::new(),
                spread: args.spread,
            };
            &shifted
        } else {
            args
        };
        let Some(entry) = rules::code_call(self.language, name, callee.method) else {
            return;
        };
        if entry.effect == CodeEffect::None {
            return;
        }
        // `df.to_csv()` with no path returns text; only `*.method` entries
        // need their path argument to be an effect.
        if entry.name.starts_with("*.")
            && let Some(PathArg::Arg(i)) = entry.paths.first()
            && args.positional.len() <= *i as usize
            && !args.spread
        {
            return;
        }
        if let Some(index) = entry.code {
            self.code_argument(entry, args, index, text, line, nested);
            return;
        }
        if let Some(index) = entry.mode
            && !writes_by_mode(entry, args, index)
        {
            return;
        }
        let mut paths = Vec::new();
        for path in entry.paths {
            match path {
                PathArg::Receiver => paths.push(callee.receiver.to_word(&receiver_text(text))),
                PathArg::Arg(i) => {
                    if let Some(value) = args.get(*i) {
                        paths.push(value.to_word(args.source(*i)));
                    } else if let Some(value) = ["path", "file", "dst", "filename", "fname"]
                        .iter()
                        .find_map(|k| args.keyword(k))
                    {
                        paths.push(value.to_word(name));
                    }
                }
            }
        }
        let mut equivalent = entry.equivalent;
        if let Some(index) = entry.recursive {
            let recursive = args
                .get(index)
                .and_then(|o| o.option("recursive"))
                .is_some_and(Value::is_true);
            if recursive && equivalent == "rm" {
                equivalent = "rm -rf";
            }
        }
        let mode = (equivalent == "chmod").then(|| chmod_mode(args)).flatten();
        let handoff = entry.shell.map(|shell| handoff(shell, args, text));
        self.analysis.found.push(Found {
            effect: entry.effect,
            call: one_line(text),
            line,
            paths,
            equivalent,
            mode,
            handoff,
        });
    }

    /// `eval("…")`, `exec(code)`, `setTimeout("…")`: literal code is read in
    /// turn; anything else is code nobody can read first.
    fn code_argument(
        &mut self,
        entry: &CodeCall,
        args: &Args,
        index: u8,
        text: &str,
        line: usize,
        nested: fn(&str, usize) -> Analysis,
    ) {
        match args.get(index) {
            Some(Value::Text { value, .. }) if self.depth < MAX_DEPTH => {
                let inner = nested(value, self.depth + 1);
                for mut found in inner.found {
                    found.line = line;
                    self.analysis.found.push(found);
                }
                if let Some(error) = inner.unparsable {
                    self.analysis.unparsable.get_or_insert(error);
                }
            }
            // A function, or a name bound to something unknown (a
            // parameter: `setTimeout(resolve, 10)`), is a callback; a known
            // API value (`process.env.CODE`) is a string of code.
            Some(Value::Function | Value::Unknown) if entry.callback_ok => {}
            None if entry.callback_ok || args.positional.is_empty() && !args.spread => {}
            _ => self.push(CodeEffect::Dynamic, text, line),
        }
    }
}

/// Whether an `open`-like call writes: a mode with `w`, `a`, `x` or `+`
/// (or `os.open` flags that write); an unknown mode is taken to write.
fn writes_by_mode(entry: &CodeCall, args: &Args, index: u8) -> bool {
    let mode = args
        .get(index)
        .or_else(|| args.keyword("mode"))
        .or_else(|| args.keyword("flags"))
        .or_else(|| args.keyword("flag"));
    let mode = match mode {
        None if args.spread => return true,
        None => return false,
        Some(mode) => mode,
    };
    if entry.name == "os.open" {
        let source = args.source(index);
        return ["O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC"]
            .iter()
            .any(|flag| source.contains(flag))
            || !source.contains("O_RDONLY");
    }
    match mode {
        Value::Text { value, .. } => value.contains(['w', 'a', 'x', '+']),
        Value::Options(_) => mode
            .option("flag")
            .or_else(|| mode.option("mode"))
            .and_then(Value::as_text)
            .is_some_and(|m| m.contains(['w', 'a', 'x', '+'])),
        _ => true,
    }
}

/// The literal mode of a `chmod`-like call, as `chmod` spells it (octal).
fn chmod_mode(args: &Args) -> Option<String> {
    match args.get(1)? {
        Value::Int(n) => Some(format!("{n:o}")),
        Value::Text { value, .. } => Some(value.clone()),
        _ => None,
    }
}

/// The receiver's text of a method call (`Path("/")` of `Path("/").unlink()`).
fn receiver_text(call: &str) -> String {
    let head = call.split('(').next().unwrap_or(call);
    head.rsplit_once('.')
        .map(|(r, _)| r.to_string())
        .unwrap_or_default()
}

/// What command a spawning call hands over.
fn handoff(shell: ShellArg, args: &Args, text: &str) -> Handoff {
    let unknown = || Handoff::Unknown(one_line(text));
    let words = |values: &[(Value, String)]| -> Vec<Word> {
        values.iter().map(|(v, s)| v.to_word(s)).collect()
    };
    let list_words = |value: &Value| -> Option<Vec<Word>> {
        match value {
            Value::List(items) => Some(items.iter().map(|v| v.to_word("$ARG")).collect()),
            _ => None,
        }
    };
    match shell {
        ShellArg::Line(i) => match args.get(i) {
            Some(Value::Text { value, .. }) => Handoff::Line(value.clone()),
            Some(list @ Value::List(_)) => list_words(list).map_or_else(unknown, Handoff::Argv),
            _ => unknown(),
        },
        ShellArg::Command(i) => {
            let shell = args.keyword("shell").is_some_and(Value::is_true);
            match args.get(i).or_else(|| args.keyword("args")) {
                Some(Value::Text { value, .. }) => Handoff::Line(value.clone()),
                // With `shell=True` a list's first item is the shell line.
                Some(Value::List(items)) if shell => match items.first() {
                    Some(Value::Text { value, .. }) => Handoff::Line(value.clone()),
                    _ => unknown(),
                },
                Some(list @ Value::List(_)) => list_words(list).map_or_else(unknown, Handoff::Argv),
                _ => unknown(),
            }
        }
        ShellArg::ArgvList(i) => args
            .get(i)
            .and_then(list_words)
            .map_or_else(unknown, Handoff::Argv),
        ShellArg::ArgvFrom(i) => match args.positional.get(i as usize..) {
            Some(rest) if !rest.is_empty() && !args.spread => Handoff::Argv(words(rest)),
            _ => unknown(),
        },
        ShellArg::Spawn => {
            let Some(Value::Text { value: program, .. }) = args.get(0) else {
                return unknown();
            };
            let (list, options) = match (args.get(1), args.get(2)) {
                (Some(Value::List(items)), options) => (Some(items.as_slice()), options),
                (Some(options @ Value::Options(_)), _) => (None, Some(options)),
                (None, _) => (None, None),
                _ => return unknown(),
            };
            let shell = options
                .and_then(|o| o.option("shell"))
                .is_some_and(|s| !matches!(s, Value::Bool(false)));
            let mut argv = vec![Word::literal(program)];
            argv.extend(list.unwrap_or(&[]).iter().map(|v| v.to_word("$ARG")));
            if shell {
                if argv.iter().any(|w| w.dynamic) {
                    return unknown();
                }
                let line: Vec<&str> = argv.iter().map(|w| w.value.as_str()).collect();
                return Handoff::Line(line.join(" "));
            }
            Handoff::Argv(argv)
        }
    }
}

/// A call's text on one line, clipped for a reason.
pub fn one_line(text: &str) -> String {
    let joined: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    limits::clip(&joined, 100).to_string()
}

/// Parses `code` with `grammar` (named `name` in reasons); an [`Analysis`]
/// saying why when the parser cannot be set up or gives up.
pub(crate) fn parse(
    grammar: Grammar,
    code: &str,
    name: &str,
) -> Result<tree_sitter::Tree, Analysis> {
    let failed = |why: String| Analysis {
        found: Vec::new(),
        unparsable: Some(why),
    };
    if bracket_depth(code) > limits::MAX_CODE_NESTING {
        return Err(failed(format!(
            "the {name} code opens brackets over {} deep",
            limits::MAX_CODE_NESTING
        )));
    }
    grammar
        .with_parser(|parser| crate::shell::parse::parse_bounded(parser, code))
        .ok_or_else(|| failed(format!("the {name} grammar did not load")))?
        .map_err(|_| {
            failed(format!(
                "the {name} parser read the code over {} times a chunk and was stopped",
                crate::limits::MAX_READS_PER_CHUNK
            ))
        })
}

/// The most brackets open at once in `code`, counted on the bytes (quotes
/// not followed: a bracket in a string counts, which can only refuse more).
fn bracket_depth(code: &str) -> usize {
    let mut depth = 0usize;
    let mut deepest = 0usize;
    for b in code.bytes() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Where and why a tree failed to parse, for a reason.
pub(crate) fn first_error(root: tree_sitter::Node, src: &[u8]) -> String {
    let Some(node) = crate::shell::parse::first_error_node(root) else {
        return "a syntax error".into();
    };
    let line = node.start_position().row + 1;
    if node.is_missing() {
        return format!("line {line}: missing `{}`", node.kind());
    }
    let text = std::str::from_utf8(src.get(node.byte_range()).unwrap_or(&[])).unwrap_or("");
    format!(
        "line {line}: cannot parse `{}`",
        one_line(limits::clip(text, 40))
    )
}

/// The table name of a language, as in rule ids.
pub fn rule_name(language: Language) -> &'static str {
    match language {
        CodeLanguage::Python => "python",
        CodeLanguage::JavaScript => "js",
    }
}
