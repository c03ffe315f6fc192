//! The shell lane's parser: one command line in, its simple commands out.
//!
//! Parses with tree-sitter-bash and walks the tree once, collecting every
//! simple command wherever it sits (lists, pipelines, subshells, groups,
//! `$( )`, backticks, `<( )`, function bodies, loops, `case`, heredoc
//! commands), each with its words decoded, its redirections, and what feeds
//! its stdin. Anything the walk cannot vouch for becomes a [`Problem`]:
//! parse errors, the two known silent misparses of tree-sitter-bash, and
//! nesting past the depth limit.

use super::types::{Callee, Problem, Redirect, Script, SimpleCommand, Stdin};
use super::word::{self, Vars, Word, text};
use crate::grammar::Grammar;
use crate::limits;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use tree_sitter::{Node, Parser, Tree};

/// The kind name of a bash node (see [`Grammar::kind`]).
pub(crate) fn kind<'t>(node: impl std::borrow::Borrow<Node<'t>>) -> &'static str {
    Grammar::Bash.kind(*node.borrow())
}

/// Parses `source` as bash. Never panics; a parser that cannot be created is
/// reported as a problem. Plain lines are read by hand
/// ([`super::plain::parse`]), into the script tree-sitter's walk gives.
pub fn parse(source: &str) -> Script {
    let mut script = super::plain::parse(source).unwrap_or_else(|| parse_with_tree_sitter(source));
    name_sinks(&mut script);
    script
}

/// Builtins that take variable names evaluate a subscript in a name as
/// arithmetic, running its command substitutions (`read 'a[$(rm x)]'`,
/// `printf -v`, `test -v`, `unset`, declarations). Each such name of the
/// script's commands is checked by [`name_sink`].
fn name_sinks(script: &mut Script) {
    let mut names: Vec<Word> = Vec::new();
    for command in &script.commands {
        let words = &command.words;
        let Some(head) = words.first() else { continue };
        // Options that take a value, per builtin.
        let valued: &[&str] = match head.value.as_str() {
            "read" => &["-d", "-i", "-n", "-N", "-p", "-t", "-u"],
            "mapfile" | "readarray" => &["-d", "-n", "-O", "-s", "-u", "-C", "-c"],
            _ => &[],
        };
        match head.value.as_str() {
            "test" | "[" | "printf" | "wait" => {
                let flag = if head.value == "wait" { "-p" } else { "-v" };
                for (i, word) in words.iter().enumerate() {
                    if word.value == flag {
                        names.extend(words.get(i + 1).cloned());
                    } else if let Some(name) = word.value.strip_prefix(flag)
                        && head.value == "printf"
                        && !name.is_empty()
                    {
                        let mut attached = word.clone();
                        attached.value = name.to_string();
                        names.push(attached);
                    }
                }
            }
            "read" | "mapfile" | "readarray" | "unset" | "getopts" | "declare" | "typeset"
            | "local" | "export" | "readonly" => {
                let mut skip_next = false;
                for (i, word) in words.iter().enumerate().skip(1) {
                    if skip_next {
                        skip_next = false;
                        continue;
                    }
                    if word.value.starts_with('-') && !word.dynamic {
                        skip_next = valued.contains(&word.value.as_str());
                        continue;
                    }
                    // `getopts OPTSTRING NAME`: the option string is no name.
                    if head.value == "getopts" && i == 1 {
                        continue;
                    }
                    let mut name = word.clone();
                    if let Some((before, _)) = word.value.split_once('=') {
                        name.value = before.to_string();
                        name.source = word
                            .source
                            .split_once('=')
                            .map_or(word.source.clone(), |(b, _)| b.to_string());
                    }
                    names.push(name);
                }
            }
            _ => {}
        }
    }
    for name in &names {
        name_sink(name, script);
    }
}

/// Checks a variable name that a builtin takes (see [`name_sinks`]): a
/// name only known at run time, or one whose subscript holds an expansion
/// or substitution, is a [`Problem::Dynamic`]; a substitution there is
/// parsed again as a script of its own.
fn name_sink(word: &Word, script: &mut Script) {
    // The walk marks a bare name node dynamic; only an expansion or a
    // substitution in the name makes it unknown.
    let problem = if word.dynamic && word.source.contains(['$', '`']) {
        Some(format!(
            "the variable name `{}` is only known at run time, and bash evaluates a subscript in it",
            limits::clip(&word.source, 60)
        ))
    } else if let Some((_, subscript)) = word.value.split_once('[') {
        let (_, substitutions) = blank_substitutions(subscript);
        script.nested.extend(substitutions);
        (!subscript
            .trim_end_matches(']')
            .chars()
            .all(|c| c.is_ascii_digit() || c == '@' || c == '*'))
        .then(|| {
            format!(
                "the subscript of `{}` is evaluated as arithmetic when the command runs",
                limits::clip(&word.value, 60)
            )
        })
    } else {
        None
    };
    if let Some(what) = problem.map(Problem::Dynamic)
        && !script.problems.contains(&what)
    {
        script.problems.push(what);
    }
}

/// `text` with its command substitutions (`$( … )`, backquotes) blanked
/// out, and their bodies. A backslash escapes the next character; `$((`
/// is arithmetic, not a substitution.
fn blank_substitutions(text: &str) -> (String, Vec<String>) {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut bodies = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            out.push(' ');
            i += 2;
            continue;
        }
        if c == '`' {
            let mut body = String::new();
            i += 1;
            while i < chars.len() && chars[i] != '`' {
                if chars[i] == '\\' && matches!(chars.get(i + 1), Some('`' | '$' | '\\')) {
                    i += 1;
                }
                if let Some(&next) = chars.get(i) {
                    body.push(next);
                }
                i += 1;
            }
            i += 1;
            bodies.push(body);
            out.push(' ');
            continue;
        }
        if c == '$' && chars.get(i + 1) == Some(&'(') && chars.get(i + 2) != Some(&'(') {
            let mut depth = 0usize;
            let mut body = String::new();
            i += 1;
            while i < chars.len() {
                match chars[i] {
                    '(' => depth += 1,
                    ')' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
                if !(depth == 1 && chars[i] == '(') {
                    body.push(chars[i]);
                }
                i += 1;
            }
            i += 1;
            bodies.push(body);
            out.push(' ');
            continue;
        }
        out.push(c);
        i += 1;
    }
    (out, bodies)
}

/// A name in arithmetic text (see [`arithmetic_names`]).
struct ArithmeticName {
    name: String,
    /// The expression assigns it (`x=1`, `x+=2`, `x++`, `--x`).
    assigned: bool,
    /// It is an array element (`a[i]`).
    element: bool,
}

/// The variable names in arithmetic text, in order. A run that starts
/// with a digit is a number (`0x1f`, `16#ff`'s `16`); a name after `#` is
/// a length or a base's digits (`${#a}`, `16#ff`).
fn arithmetic_names(text: &str) -> Vec<ArithmeticName> {
    let bytes = text.as_bytes();
    let mut names = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !(b.is_ascii_alphanumeric() || b == b'_') {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        if b.is_ascii_digit() || (start > 0 && bytes[start - 1] == b'#') {
            continue;
        }
        let name = &text[start..i];
        let after = text[i..].trim_start();
        let before = text[..start].trim_end();
        let assigned = (after.starts_with('=') && !after.starts_with("=="))
            || [
                "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "<<=", ">>=", "++", "--",
            ]
            .iter()
            .any(|op| after.starts_with(op))
            || before.ends_with("++")
            || before.ends_with("--");
        names.push(ArithmeticName {
            name: name.to_string(),
            assigned,
            element: after.starts_with('['),
        });
    }
    names
}

/// Whether a variable's value is a plain number to bash's arithmetic
/// (empty counts as 0): digits, with a sign, `0x` or a `base#` prefix.
fn is_number(value: &str) -> bool {
    let value = value.trim();
    let digits = value.trim_start_matches(['-', '+']);
    digits.is_empty()
        || digits.starts_with(|c: char| c.is_ascii_digit())
            && digits
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '#')
}

/// The names (runs of letters, digits and `_` not starting with a digit)
/// in a word.
fn identifiers(value: &str) -> Vec<String> {
    value
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|n| !n.is_empty() && !n.starts_with(|c: char| c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// Whether `name` is a shell variable name.
fn is_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Parses `source` as a script that runs in a shell where `functions` are
/// already in scope (`eval`, `trap`; see [`Script::functions_at`]).
pub fn parse_in(source: &str, functions: &[(String, Callee)]) -> Script {
    if functions.is_empty() {
        return parse(source);
    }
    let mut script = walk_source(source, functions);
    name_sinks(&mut script);
    script
}

/// Parses `source` with tree-sitter-bash and walks the tree: the reading
/// every line gets that is not plain, and the reference the fast path is
/// tested against.
pub fn parse_with_tree_sitter(source: &str) -> Script {
    walk_source(source, &[])
}

/// [`parse_with_tree_sitter`], with `functions` in scope from the start.
fn walk_source(source: &str, functions: &[(String, Callee)]) -> Script {
    let tree = Grammar::Bash.with_parser(|parser| parse_bounded(parser, source));
    match tree {
        None => Script {
            problems: vec![Problem::Unsupported(
                "the bash parser could not be started".into(),
            )],
            ..Script::default()
        },
        Some(Err(Overworked)) => Script {
            problems: vec![Problem::TooComplex],
            ..Script::default()
        },
        Some(Ok(tree)) => walk_tree(&tree, source, functions),
    }
}

/// Bytes handed to tree-sitter per read: the unit of [`parse_bounded`]'s
/// work count.
const READ_CHUNK: usize = 512;

/// The parser was stopped: it read far more than the text (see
/// [`parse_bounded`]).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Overworked;

/// Parses `source` with `parser`, counting the chunks of text tree-sitter
/// reads. A parse reads each chunk a few times (at most 11 times a chunk
/// over the agent corpus); some inputs make it read again and again (64 KiB
/// of unmatched `)` cost bash's grammar 10 s, growing with the square of the
/// length). Past `limits::MAX_READS_PER_CHUNK` times the chunks plus a
/// margin, the parse is stopped. The count depends only on the text, never
/// on time, so the same line always gets the same answer.
pub(crate) fn parse_bounded(parser: &mut Parser, source: &str) -> Result<Tree, Overworked> {
    let bytes = source.as_bytes();
    let budget = (bytes.len() / READ_CHUNK + 1) * limits::MAX_READS_PER_CHUNK + 256;
    let mut reads = 0usize;
    let over = std::cell::Cell::new(false);
    let mut read = |offset: usize, _| {
        reads += 1;
        if reads > budget {
            // An empty read is the end of the text: the parse winds up fast
            // (the progress callback alone comes too seldom when each step
            // re-reads the whole line). Chunks end on character boundaries,
            // so tree-sitter never has half a character to finish here.
            over.set(true);
            return &[] as &[u8];
        }
        // Chunks end on a character boundary: tree-sitter's lexers must
        // never see half a character at the end of a chunk.
        let mut end = offset.saturating_add(READ_CHUNK).min(bytes.len());
        while end > offset && !source.is_char_boundary(end) {
            end -= 1;
        }
        if end == offset {
            end = bytes.len();
        }
        bytes.get(offset..end).unwrap_or(&[])
    };
    let mut progress = |_: &tree_sitter::ParseState| {
        if over.get() {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    };
    let options = tree_sitter::ParseOptions::new().progress_callback(&mut progress);
    let tree = parser.parse_with_options(&mut read, None, Some(options));
    match tree {
        Some(tree) if !over.get() => Ok(tree),
        _ => {
            // A stopped parser keeps its state and would resume this parse
            // on the next text (a tree of the old text over the new one).
            parser.reset();
            Err(Overworked)
        }
    }
}

/// Prints the syntax tree (for `portcullis explain --tree`).
pub fn dump_tree(source: &str) -> String {
    match Grammar::Bash
        .with_parser(|parser| parser.parse(source, None))
        .flatten()
    {
        Some(tree) => {
            let mut out = String::new();
            let mut cursor = tree.walk();
            let mut depth = 0usize;
            let mut visited = false;
            loop {
                if !visited {
                    let node = cursor.node();
                    let field = cursor
                        .field_name()
                        .map(|f| format!("{f}: "))
                        .unwrap_or_default();
                    if node.is_named() || node.is_missing() {
                        out.push_str(&format!(
                            "{}{field}{}{} {:?}\n",
                            "  ".repeat(depth),
                            if node.is_missing() { "MISSING " } else { "" },
                            kind(node),
                            text(node, source.as_bytes())
                        ));
                    }
                    if cursor.goto_first_child() {
                        depth += 1;
                    } else {
                        visited = true;
                    }
                } else if cursor.goto_next_sibling() {
                    visited = false;
                } else if cursor.goto_parent() {
                    depth = depth.saturating_sub(1);
                } else {
                    break;
                }
            }
            out
        }
        None => "no tree".into(),
    }
}

/// The bodies of consecutive backquoted substitutions in `raw` (which
/// starts with a backquote), each unescaped as bash does: `\` followed by
/// `` ` ``, `$` or `\` stands for that character; other backslashes stay.
fn split_backquoted(raw: &str) -> Vec<String> {
    let mut bodies = Vec::new();
    let mut chars = raw.chars().peekable();
    while chars.next_if_eq(&'`').is_some() {
        let mut body = String::new();
        loop {
            match chars.next() {
                None | Some('`') => break,
                Some('\\') => match chars.peek() {
                    Some(&c @ ('`' | '$' | '\\')) => {
                        chars.next();
                        body.push(c);
                    }
                    _ => body.push('\\'),
                },
                Some(c) => body.push(c),
            }
        }
        bodies.push(body);
    }
    bodies
}

#[derive(Clone)]
struct Walker<'s> {
    src: &'s [u8],
    script: Script,
    vars: Vars,
    /// Functions in scope at this point of the walk (see [`Callee`]).
    functions: HashMap<String, Callee>,
    /// How many function bodies enclose the walk.
    function_body: u32,
    /// The functions whose bodies are being walked, outermost first.
    function_names: Vec<String>,
    /// Where each function was last defined for certain: the number of
    /// commands before it.
    defined_at: HashMap<String, usize>,
    /// Commands inside function bodies: their index and the innermost
    /// function around them. Resolved once the whole line is walked
    /// (`resolve_body_calls`).
    body_calls: Vec<(usize, String)>,
    /// Names given to `unset` anywhere in the line.
    unset_names: HashSet<String>,
    /// Every variable name assigned or forgotten so far, in order: what a
    /// function body or a loop changes.
    touched: Vec<String>,
    /// How many times every variable was forgotten at once (`eval`).
    touched_all: u32,
    /// Names whose values are never tracked again: assigned in a function
    /// body (which may run at any later point) or given an attribute that
    /// changes what is stored (`declare -l`, `-u`).
    volatile: HashSet<String>,
    /// No variable is tracked any more (a nameref, a `trap`, an `eval`
    /// inside a function body).
    untracked: bool,
    /// Variables declared `-i`: what is assigned to them is arithmetic.
    integers: HashSet<String>,
    /// Variables declared `-l` (`false`) or `-u` (`true`): bash stores
    /// what is assigned in lower or upper case.
    cased: HashMap<String, bool>,
    /// Associative arrays: their subscripts are strings, not arithmetic.
    associative: HashSet<String>,
    /// `IFS` was set: unquoted expansions split in ways not modelled.
    ifs_changed: bool,
    /// How many loops enclose the walk (see `walk_loop`).
    loop_depth: u32,
    /// Variables `${x:=y}` assigns in the words being read.
    assigned_in_words: Vec<String>,
    /// Variables that hold a number for certain (set by arithmetic, or by
    /// `for i in 1 2 3`): safe in arithmetic though their value is unknown.
    numeric: HashSet<String>,
    /// Names a loop body may set to text: arithmetic in the loop does not
    /// make them numbers for certain.
    unsure: HashSet<String>,
    /// The subshells being walked, outermost first.
    scope_stack: Vec<u32>,
    /// More commands or words than the limits were found: the walk stops.
    full: bool,
    /// Words decoded so far, in every command.
    words_seen: usize,
    /// How many branches, loops or `&&`/`||` right-hand sides enclose the
    /// walk: assignments there may not happen.
    conditional: u32,
    /// The next subshell id (0 is the script itself).
    next_scope: u32,
    /// Words tree-sitter hung on a redirection as extra targets
    /// (`git > /dev/null reset --hard`): for bash they are arguments of
    /// the command, and they go back to it.
    stray_words: Vec<Word>,
    /// Heredoc bodies as bash reads them where tree-sitter misplaced the
    /// end ([`Problem::HeredocEnd`]): a `<<` tree-sitter finds in one is
    /// body text to bash, not a heredoc of its own.
    bash_bodies: Vec<std::ops::Range<usize>>,
}

fn walk_tree(tree: &Tree, source: &str, functions: &[(String, Callee)]) -> Script {
    let root = tree.root_node();
    let mut walker = Walker {
        src: source.as_bytes(),
        script: Script::default(),
        vars: Vars::new(),
        functions: functions.iter().cloned().collect(),
        function_body: 0,
        function_names: Vec::new(),
        defined_at: HashMap::new(),
        body_calls: Vec::new(),
        unset_names: HashSet::new(),
        touched: Vec::new(),
        touched_all: 0,
        volatile: HashSet::new(),
        untracked: false,
        integers: HashSet::new(),
        cased: HashMap::new(),
        associative: HashSet::new(),
        ifs_changed: false,
        loop_depth: 0,
        assigned_in_words: Vec::new(),
        numeric: HashSet::new(),
        unsure: HashSet::new(),
        stray_words: Vec::new(),
        bash_bodies: Vec::new(),
        scope_stack: Vec::new(),
        next_scope: 1,
        conditional: 0,
        full: false,
        words_seen: 0,
    };
    if root.has_error() && !only_read_write_redirects(root, walker.src) {
        walker
            .script
            .problems
            .push(Problem::Syntax(first_error(root, walker.src)));
    }
    guard_dropped_text(root, walker.src, &mut walker.script.problems);
    walker.walk(root, 0, &Stdin::Inherited);
    walker.resolve_body_calls();
    walker.script
}

/// The first ERROR or MISSING node of a tree, found without recursion
/// (for any grammar: the inline lanes use it too).
pub(crate) fn first_error_node(root: Node) -> Option<Node> {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            return Some(node);
        }
        // Descend into the first child that contains an error.
        let mut moved = false;
        if cursor.goto_first_child() {
            loop {
                if cursor.node().has_error() {
                    moved = true;
                    break;
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        if !moved {
            return None;
        }
    }
}

/// tree-sitter-bash does not know the read-write redirection `<>` (`exec
/// 3<> file`): it reads `<` and an ERROR `>`. That pair is bash, not an
/// error; the walk reads it back as `<>`, a write.
fn is_read_write_gap(node: Node, src: &[u8]) -> bool {
    node.is_error()
        && text(node, src) == ">"
        && node.parent().is_some_and(|p| kind(p) == "file_redirect")
        && node
            .prev_sibling()
            .is_some_and(|prev| text(prev, src) == "<" && prev.end_byte() == node.start_byte())
}

/// Whether every error in the tree is such a `<>` (a bounded walk over
/// the nodes that contain errors).
fn only_read_write_redirects(root: Node, src: &[u8]) -> bool {
    let mut stack = vec![root];
    let mut seen = 0usize;
    while let Some(node) = stack.pop() {
        seen += 1;
        if seen > 100_000 {
            return false;
        }
        if node.is_missing() || node.is_error() && !is_read_write_gap(node, src) {
            return false;
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor).filter(|c| c.has_error()));
    }
    true
}

/// The text of the first ERROR or MISSING node.
fn first_error(root: Node, src: &[u8]) -> String {
    match first_error_node(root) {
        Some(node) if node.is_missing() => format!("missing `{}`", kind(node)),
        Some(node) => format!("cannot parse near `{}`", limits::clip(text(node, src), 60)),
        None => "syntax error".into(),
    }
}

/// tree-sitter-bash drops a lone `-` written just before a heredoc
/// (`python3 - <<'EOF'`, the usual way to run a script from stdin). The
/// walker puts it back (see `walk_redirected`); the guard lets that gap be.
fn is_dropped_dash(leaf: Node, src: &[u8], gap_start: usize) -> bool {
    kind(leaf) == "<<"
        && leaf.parent().is_some_and(|redirect| {
            kind(redirect) == "heredoc_redirect"
                && redirect
                    .prev_sibling()
                    .is_some_and(|body| kind(body) == "command")
        })
        && src
            .get(gap_start..leaf.start_byte())
            .is_some_and(|gap| gap.trim_ascii() == b"-")
}

/// Guard for the second known misparse: any non-blank source byte that no
/// leaf covers (tree-sitter dropped a token, as with `cmd - <<'EOF'`).
fn guard_dropped_text(root: Node, src: &[u8], problems: &mut Vec<Problem>) {
    let mut covered_to = 0usize;
    let mut cursor = root.walk();
    let mut visited = false;
    let check = |from: usize, to: usize, problems: &mut Vec<Problem>| -> bool {
        let gap = &src[from.min(src.len())..to.min(src.len())];
        // Blanks, `;` and backslash-newline continuations may fall between
        // leaves; anything else (an escaped space `\ ` included) is a token.
        let dropped = gap.iter().enumerate().any(|(i, b)| match b {
            b'\\' => !matches!(src.get(from + i + 1), Some(b'\n' | b'\r')),
            b';' => false,
            b => !b.is_ascii_whitespace(),
        });
        if dropped {
            let shown = String::from_utf8_lossy(gap).trim().to_string();
            problems.push(Problem::DroppedText(limits::clip(&shown, 40).to_string()));
        }
        dropped
    };
    loop {
        if !visited {
            let node = cursor.node();
            if node.child_count() == 0
                || kind(node) == "heredoc_body"
                || kind(node) == "heredoc_content"
            {
                if node.start_byte() > covered_to
                    && !is_dropped_dash(node, src, covered_to)
                    && check(covered_to, node.start_byte(), problems)
                {
                    return;
                }
                // A `#` glued to the word before it (`a\ #b`) is part of that
                // word for bash; tree-sitter starts a comment there.
                let glued = kind(node) == "comment"
                    && node.start_byte() > 0
                    && src
                        .get(node.start_byte() - 1)
                        .is_some_and(|b| !b.is_ascii_whitespace() && !b";&|()`".contains(b));
                if glued {
                    problems.push(Problem::Syntax(
                        "`#` inside a word, read by tree-sitter as a comment".into(),
                    ));
                    return;
                }
                covered_to = covered_to.max(node.end_byte());
                visited = true;
            } else if !cursor.goto_first_child() {
                visited = true;
            }
        } else if cursor.goto_next_sibling() {
            visited = false;
        } else if !cursor.goto_parent() {
            break;
        }
    }
    // Comments are leaves, so trailing text past the last leaf was dropped.
    if covered_to < src.len() {
        check(covered_to, src.len(), problems);
    }
}

impl Walker<'_> {
    /// Whether `node` starts inside a heredoc body as bash reads it, after
    /// tree-sitter misplaced the body's end: text to bash, whatever
    /// tree-sitter made of it.
    fn in_bash_body(&self, node: Node) -> bool {
        self.bash_bodies
            .iter()
            .any(|body| body.contains(&node.start_byte()))
    }

    fn walk(&mut self, node: Node, depth: usize, stdin: &Stdin) {
        // Past the command limit the verdict is decided (and a heredoc
        // body is text): stop walking.
        if self.full || self.in_bash_body(node) {
            return;
        }
        if depth > limits::MAX_TREE_DEPTH {
            if !self.script.problems.contains(&Problem::TooDeep) {
                self.script.problems.push(Problem::TooDeep);
            }
            return;
        }
        match kind(node) {
            "command" => self.walk_command(node, depth, stdin, Vec::new()),
            "declaration_command" | "unset_command" | "test_command" => {
                self.walk_builtin_like(node, depth, stdin)
            }
            "variable_assignment" => self.walk_assignment(node, depth),
            "variable_assignments" => self.walk_children(node, depth, stdin),
            "redirected_statement" => self.walk_redirected(node, depth, stdin),
            "pipeline" => self.walk_pipeline(node, depth, stdin),
            "function_definition" => self.walk_function(node, depth),
            "case_statement" => {
                self.guard_case_end(node);
                self.conditionally(|w| w.walk_children(node, depth, stdin));
            }
            // Shapes bash rejects that tree-sitter accepts: an empty group
            // (`{ }`, `f() {}`), and `!` inside a pipeline (`a | ! b`).
            "compound_statement" | "subshell" | "negated_command" => {
                if text(node, self.src).starts_with("((") {
                    let inner = text(node, self.src);
                    let inner = inner.trim_start_matches("((").trim_end_matches("))");
                    self.arithmetic(inner, false, 0);
                }
                let mut cursor = node.walk();
                let empty = !node
                    .named_children(&mut cursor)
                    .any(|c| kind(c) != "comment");
                let negated_inside_pipeline = kind(node) == "negated_command"
                    && node
                        .parent()
                        .is_some_and(|p| kind(p) == "pipeline" && p.named_child(0) != Some(node));
                if empty || negated_inside_pipeline {
                    self.script.problems.push(Problem::Syntax(format!(
                        "bash rejects `{}` here",
                        limits::clip(text(node, self.src), 40)
                    )));
                }
                if kind(node) == "subshell" {
                    self.in_subshell(|w| w.walk_children(node, depth, stdin));
                } else {
                    self.walk_children(node, depth, stdin);
                }
            }
            ";;" | ";&" | ";;&" if !inside(node, "case_item") => {
                self.script
                    .problems
                    .push(Problem::Syntax("`;;` outside a case".into()));
            }
            "heredoc_body" | "comment" => {}
            "ERROR" => {
                // Still collect whatever commands tree-sitter recovered inside,
                // so a floor command next to a syntax error is not missed.
                self.walk_children(node, depth, stdin);
            }
            "while_statement" | "c_style_for_statement" | "for_statement" => {
                if endless_loop_in_background(node, self.src) {
                    self.script.fork_bomb = true;
                }
                self.walk_loop(node, depth, stdin);
            }
            "if_statement" | "elif_clause" | "else_clause" | "case_item" => {
                self.conditionally(|w| w.walk_children(node, depth, stdin))
            }
            "list" => self.walk_list(node, depth, stdin),
            _ => self.walk_children(node, depth, stdin),
        }
    }

    /// tree-sitter-bash ends a `case` at an `esac` written as an argument
    /// (`?) echo x esac;; done`), where bash reads a plain word and then
    /// finds no `esac`. An `esac` must follow `;`, `&`, a newline or `in`.
    fn guard_case_end(&mut self, node: Node) {
        let mut cursor = node.walk();
        let end = node.children(&mut cursor).find(|c| kind(c) == "esac");
        let Some(end) = end else { return };
        let before = self
            .src
            .get(node.start_byte()..end.start_byte())
            .unwrap_or(&[]);
        let before = String::from_utf8_lossy(before);
        let trimmed = before.trim_end_matches([' ', '\t']);
        let in_command_position = trimmed.ends_with([';', '&', '\n'])
            || trimmed.ends_with(" in")
            || trimmed.ends_with("\tin");
        if !in_command_position {
            self.script.problems.push(Problem::Syntax(
                "`esac` where bash reads an argument".into(),
            ));
        }
    }

    /// Walks each child; one followed by `&` runs in the background, in a
    /// subshell of its own (`f() { :; } & f` calls no function).
    fn walk_children(&mut self, node: Node, depth: usize, stdin: &Stdin) {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        for (i, child) in children.iter().enumerate() {
            let background = child.is_named()
                && children
                    .get(i + 1)
                    .is_some_and(|next| kind(*next) == "&" && !next.is_named());
            if background {
                self.in_subshell(|w| w.walk(*child, depth + 1, stdin));
            } else {
                self.walk(*child, depth + 1, stdin);
            }
        }
    }

    fn push(&mut self, mut command: SimpleCommand) {
        for name in std::mem::take(&mut self.assigned_in_words) {
            self.forget(&name);
        }
        command.scopes = self.scope_stack.clone();
        if self.script.commands.len() >= limits::MAX_COMMANDS {
            if !self.full {
                self.script.problems.push(Problem::TooMany);
                self.full = true;
            }
            return;
        }
        self.script.commands.push(command);
    }

    /// `a && b || c`: what follows an `&&` or `||` may not run.
    fn walk_list(&mut self, node: Node, depth: usize, stdin: &Stdin) {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        let mut after_operator = false;
        for child in children {
            if matches!(kind(child), "&&" | "||") {
                after_operator = true;
            }
            if after_operator {
                self.conditionally(|w| w.walk(child, depth + 1, stdin));
            } else {
                self.walk(child, depth + 1, stdin);
            }
        }
    }

    /// Walks `f` inside a new subshell scope.
    /// Records `name=value`. A value only known at run time, or one set
    /// where it may not run (a branch, a loop, the right of `&&`/`||`),
    /// leaves the variable unknown: `x=/; if false; then x=b; fi; rm -rf $x`
    /// must not be read as `rm -rf b`.
    /// When the variable had no known value, the assigned one is kept even
    /// there (`cd x && p=/; rm -rf $p`): the other case leaves it empty.
    fn assign(&mut self, name: String, value: Word) {
        if self.integers.contains(&name) {
            // `declare -i n; n=$x`: bash evaluates the value as arithmetic.
            self.arithmetic_word(&value, 0);
        }
        let mut value = value;
        match self.cased.get(&name) {
            Some(false) => value.value = value.value.to_lowercase(),
            Some(true) => value.value = value.value.to_uppercase(),
            None => {}
        }
        let conflicting = self.conditional > 0
            && self
                .vars
                .get(&name)
                .is_some_and(|old| old.value != value.value);
        let tracked = !self.untracked && !self.volatile.contains(&name);
        self.note_touched(&name);
        if value.is_static() && !conflicting && tracked {
            self.vars.insert(name, value);
        } else {
            self.vars.remove(&name);
        }
    }

    /// Records that `name` changed here (see `touched`).
    fn note_touched(&mut self, name: &str) {
        self.numeric.remove(name);
        if name == "IFS" {
            self.ifs_changed = true;
        }
        self.touched.push(name.to_string());
    }

    /// Forgets the value of `name`: from here on it is only known at run
    /// time.
    fn forget(&mut self, name: &str) {
        self.note_touched(name);
        self.vars.remove(name);
    }

    /// Forgets every variable (`eval`, `source`: anything may be set).
    fn forget_all(&mut self) {
        self.touched_all += 1;
        if self.function_body > 0 {
            self.untracked = true;
        }
        self.ifs_changed = true;
        self.vars.clear();
        self.numeric.clear();
    }

    /// Walks `f` where what it runs may not run.
    fn conditionally(&mut self, f: impl FnOnce(&mut Self)) {
        self.conditional += 1;
        f(self);
        self.conditional -= 1;
    }

    /// Variables assigned inside do not outlive it either.
    fn in_subshell(&mut self, f: impl FnOnce(&mut Self)) {
        self.scope_stack.push(self.next_scope);
        self.next_scope += 1;
        let outer_vars = self.vars.clone();
        let outer_functions = self.functions.clone();
        f(self);
        self.vars = outer_vars;
        self.functions = outer_functions;
        self.scope_stack.pop();
    }

    fn walk_pipeline(&mut self, node: Node, depth: usize, stdin: &Stdin) {
        let mut cursor = node.walk();
        let mut stages: Vec<Node> = node
            .named_children(&mut cursor)
            .filter(|c| kind(c) != "comment")
            .collect();
        // A fifth silent misparse: a pipeline of three or more stages
        // followed by `&&` or `||` (`a | b | c || cd x; tee f`) is read as
        // `a | { b | c || cd x; }`, a `cd` in a pipeline stage. bash runs
        // `{ a | b | c; } || cd x`: the list's first element continues the
        // pipeline, and the rest runs after it, in this shell.
        // The pipeline's continuation can itself end in such a list
        // (`a | b | c | d || e | f || g`): unfolded until it does not.
        let mut rest_of_lists: Vec<Node> = Vec::new();
        while stages.len() > 1
            && let Some(&last) = stages.last()
            && kind(last) == "list"
            && rest_of_lists.len() < limits::MAX_TREE_DEPTH
        {
            let mut first = last;
            while kind(first) == "list" {
                match first.named_child(0) {
                    Some(child) => first = child,
                    None => break,
                }
            }
            stages.pop();
            if kind(first) == "pipeline" {
                let mut c = first.walk();
                stages.extend(
                    first
                        .named_children(&mut c)
                        .filter(|n| kind(n) != "comment"),
                );
            } else {
                stages.push(first);
            }
            rest_of_lists.push(last);
        }
        if stages.iter().skip(1).any(|s| list_in_stage(*s).is_some()) {
            self.script.problems.push(Problem::MergedLine(
                limits::clip(text(node, self.src), 60).to_string(),
            ));
        }
        let mut previous: Option<Range<usize>> = None;
        let mut after_list = false;
        for (i, stage) in stages.into_iter().enumerate() {
            let stage_stdin = match &previous {
                Some(range) if i > 0 => Stdin::Pipe(range.clone()),
                _ => stdin.clone(),
            };
            if i == 0
                && let Some(list) = list_in_stage(stage)
            {
                // A fourth silent misparse of tree-sitter-bash: a
                // redirection on the last command of an and-or list before
                // a `|` (`cd .git/hooks && echo x 2>&1 | tee pre-commit`)
                // makes it read `{ cd … && echo x 2>&1; } | tee …`, a `cd`
                // in a pipeline stage that does not outlive it. bash runs
                // `cd … && { echo x 2>&1 | tee …; }`: the list's commands
                // but the last run here, the last one starts the pipeline.
                let last = self.walk_list_but_last(list, depth, &stage_stdin);
                self.conditional += 1;
                after_list = true;
                let start = self.script.commands.len();
                self.in_subshell(|w| w.walk_list_stage(stage, last, depth, &stage_stdin));
                previous = Some(start..self.script.commands.len());
                continue;
            }
            let start = self.script.commands.len();
            // Every stage of a pipeline runs in a subshell of its own.
            self.in_subshell(|w| w.walk(stage, depth + 1, &stage_stdin));
            previous = Some(start..self.script.commands.len());
        }
        if after_list {
            self.conditional -= 1;
        }
        // Inner lists come first in the text.
        for list in rest_of_lists.into_iter().rev() {
            self.walk_list_but_first(list, depth, stdin);
        }
    }

    /// Walks an and-or list's elements but its first (the leftmost, inside
    /// nested lists): all come after an operator, so may not run.
    fn walk_list_but_first(&mut self, list: Node, depth: usize, stdin: &Stdin) {
        let mut cursor = list.walk();
        let children: Vec<Node> = list.children(&mut cursor).collect();
        for (i, child) in children.into_iter().enumerate() {
            if i == 0 {
                if kind(child) == "list" {
                    self.walk_list_but_first(child, depth + 1, stdin);
                }
                continue;
            }
            self.conditionally(|w| w.walk(child, depth + 1, stdin));
        }
    }

    /// Walks an and-or list's elements but the last, as `walk_list`
    /// does; returns the last.
    fn walk_list_but_last<'t>(
        &mut self,
        list: Node<'t>,
        depth: usize,
        stdin: &Stdin,
    ) -> Option<Node<'t>> {
        let mut cursor = list.walk();
        let children: Vec<Node> = list.children(&mut cursor).collect();
        let (last, before) = children.split_last()?;
        let mut after_operator = false;
        for child in before {
            if matches!(kind(child), "&&" | "||") {
                after_operator = true;
            }
            if after_operator {
                self.conditionally(|w| w.walk(*child, depth + 1, stdin));
            } else {
                self.walk(*child, depth + 1, stdin);
            }
        }
        Some(*last)
    }

    /// The first stage of a pipeline tree-sitter read as a list: its last
    /// element, with the redirections written after it.
    fn walk_list_stage(&mut self, stage: Node, last: Option<Node>, depth: usize, stdin: &Stdin) {
        let Some(last) = last.filter(|l| l.is_named()) else {
            self.script.problems.push(Problem::MergedLine(
                limits::clip(text(stage, self.src), 60).to_string(),
            ));
            return;
        };
        if kind(stage) != "redirected_statement" {
            self.walk(last, depth + 1, stdin);
            return;
        }
        let mut redirects = Vec::new();
        let mut own_stdin = stdin.clone();
        let mut trailing: Vec<Node> = Vec::new();
        let body = stage.child_by_field_name("body");
        let mut cursor = stage.walk();
        let children: Vec<Node> = stage.children(&mut cursor).collect();
        for child in children {
            if Some(child) != body {
                self.collect_redirect(child, depth, &mut redirects, &mut own_stdin, &mut trailing);
            }
        }
        if kind(last) == "command" && trailing.is_empty() && self.stray_words.is_empty() {
            self.walk_command(last, depth + 1, &own_stdin, redirects);
        } else {
            // Another shape around it: walked, and not vouched for.
            self.stray_words.clear();
            self.walk(last, depth + 1, &own_stdin);
            for rest in trailing {
                self.walk(rest, depth + 1, &own_stdin);
            }
            self.script.problems.push(Problem::MergedLine(
                limits::clip(text(stage, self.src), 60).to_string(),
            ));
        }
    }

    /// A function definition: its name is in scope from here (for certain
    /// only where the definition surely runs), and its body is walked as
    /// code that may run at any later point: no variable is known inside,
    /// and what it assigns is never known again.
    fn walk_function(&mut self, node: Node, depth: usize) {
        if let Some(name) = node.child_by_field_name("name") {
            let name = text(name, self.src).to_string();
            if let Some(body) = node.child_by_field_name("body")
                && calls_itself_in_background(body, &name, self.src)
            {
                self.script.fork_bomb = true;
            }
            let certain = self.conditional == 0 && self.function_body == 0;
            let entry = self.functions.entry(name.clone()).or_insert(Callee::Either);
            if certain {
                *entry = Callee::Function;
                self.defined_at
                    .insert(name.clone(), self.script.commands.len());
            }
            self.script.functions.push(name);
        }
        let own_name = node
            .child_by_field_name("name")
            .map(|n| text(n, self.src).to_string())
            .unwrap_or_default();
        if let Some(body) = node.child_by_field_name("body") {
            let outer = std::mem::take(&mut self.vars);
            let mark = self.touched.len();
            let all = self.touched_all;
            self.function_body += 1;
            self.function_names.push(own_name);
            self.walk(body, depth + 1, &Stdin::Inherited);
            self.function_names.pop();
            self.function_body -= 1;
            self.vars = outer;
            let touched: Vec<String> = self.touched.get(mark..).unwrap_or(&[]).to_vec();
            for name in touched {
                self.volatile.insert(name.clone());
                self.forget(&name);
            }
            if self.touched_all != all {
                self.untracked = true;
                self.forget_all();
            }
        }
    }

    /// A loop: its body may run many times, so a variable it changes is
    /// unknown throughout it (`x=ls; for i in 1 2; do $x; x=rm; done` runs
    /// `rm` the second time). The outermost loop is walked once to learn
    /// what it changes, that walk is undone, those names are forgotten,
    /// and the loop is walked again for real (inner loops are covered by
    /// the outer one's first walk).
    fn walk_loop(&mut self, node: Node, depth: usize, stdin: &Stdin) {
        if self.loop_depth == 0 && !self.full {
            let saved = self.clone();
            self.loop_depth += 1;
            self.loop_variable(node);
            self.conditionally(|w| w.walk_children(node, depth, stdin));
            let touched: Vec<String> = self
                .touched
                .get(saved.touched.len()..)
                .unwrap_or(&[])
                .to_vec();
            let all = self.touched_all != saved.touched_all;
            let untracked = self.untracked;
            let volatile = std::mem::take(&mut self.volatile);
            let unsure: Vec<String> = touched
                .iter()
                .filter(|name| !self.numeric.contains(*name))
                .cloned()
                .collect();
            *self = saved;
            self.untracked |= untracked;
            self.volatile.extend(volatile);
            self.unsure.extend(unsure);
            for name in touched {
                self.forget(&name);
            }
            if all {
                self.forget_all();
            }
        }
        self.loop_depth += 1;
        self.loop_variable(node);
        if kind(node) == "c_style_for_statement" {
            // The header as one expression: `i` in `i<n` is the `i` that
            // `i=0` and `i++` set.
            let mut header = Vec::new();
            for field in ["initializer", "condition", "update"] {
                let mut cursor = node.walk();
                let parts: Vec<Node> = node.children_by_field_name(field, &mut cursor).collect();
                header.extend(parts.iter().map(|p| text(*p, self.src)));
            }
            self.arithmetic(&header.join(", "), false, 0);
        }
        self.conditionally(|w| w.walk_children(node, depth, stdin));
        self.loop_depth -= 1;
    }

    /// `for x in …` and `select x in …` set `x` each time round: a number
    /// for certain when every word is a literal number (`for i in 1 2 3`).
    fn loop_variable(&mut self, node: Node) {
        if let Some(variable) = node.child_by_field_name("variable") {
            let name = text(variable, self.src).to_string();
            let mut cursor = node.walk();
            let values: Vec<Node> = node.children_by_field_name("value", &mut cursor).collect();
            let numbers = !values.is_empty()
                && values.iter().all(|v| {
                    let word = word::decode(*v, self.src, &self.vars);
                    word.is_static() && is_number(&word.value) && !word.value.is_empty()
                });
            self.forget(&name);
            if numbers && !self.unsure.contains(&name) && !self.untracked {
                self.numeric.insert(name);
            }
        }
    }

    /// Once the whole line is walked: a command inside the body of `g`
    /// calls a function `f` for certain only if `f` ends up defined for
    /// certain in the line's own shell, is never unset, and no command
    /// before `f`'s definition names `g` (so `g` cannot run before `f`
    /// exists); any other name defined as a function anywhere in the line
    /// may be one.
    fn resolve_body_calls(&mut self) {
        for (index, enclosing) in std::mem::take(&mut self.body_calls) {
            let Some(name) = self
                .script
                .commands
                .get(index)
                .and_then(|c| c.words.first())
                .map(|w| w.value.clone())
            else {
                continue;
            };
            let certain = self.functions.get(&name) == Some(&Callee::Function)
                && !self.unset_names.contains(&name)
                && self.defined_at.get(&name).is_some_and(|&at| {
                    !self.script.commands[..at.min(self.script.commands.len())]
                        .iter()
                        .any(|c| c.words.iter().any(|w| w.value == enclosing || w.dynamic))
                });
            let callee = if certain {
                Callee::Function
            } else if self.script.functions.contains(&name) {
                Callee::Either
            } else {
                Callee::Program
            };
            if let Some(command) = self.script.commands.get_mut(index) {
                command.callee = callee;
            }
        }
    }

    fn walk_assignment(&mut self, node: Node, depth: usize) {
        let name = node
            .child_by_field_name("name")
            .map(|n| text(n, self.src).to_string());
        let value = node.child_by_field_name("value");
        // `arr=( a [[ b )`: bash rejects `[[` inside an array.
        if let Some(array) = value.filter(|v| kind(v) == "array") {
            let mut cursor = array.walk();
            if array
                .children(&mut cursor)
                .any(|c| text(c, self.src) == "[[")
            {
                self.script
                    .problems
                    .push(Problem::Syntax("`[[` inside an array".into()));
            }
        }
        if let Some(value) = value {
            // Commands inside the value (`x=$(rm -rf /)`) still run.
            self.walk_words_for_substitutions(value, depth + 1);
        }
        // And inside an array subscript (`a[$(rm -rf /)]=1`), which bash
        // also evaluates as arithmetic.
        let mut element = false;
        if let Some(target) = node
            .child_by_field_name("name")
            .filter(|n| kind(n) == "subscript")
        {
            self.walk_words_for_substitutions(target, depth + 1);
            self.subscript(target);
            element = true;
        }
        // `x+=y` appends; `a[i]=y` sets one element: the value is not `y`.
        let appending = node
            .child_by_field_name("name")
            .and_then(|n| self.src.get(n.end_byte()..))
            .is_some_and(|rest| rest.starts_with(b"+="));
        if let Some(name) = name {
            // Recorded as a command of its own, so that the settings stage
            // sees it (`PAGER='sh -c …'` affects what runs later).
            let decoded = value
                .map(|v| word::decode(v, self.src, &self.vars))
                .unwrap_or_default();
            self.push(SimpleCommand {
                assignments: vec![(name.clone(), decoded)],
                words: Vec::new(),
                redirects: Vec::new(),
                stdin: Stdin::Inherited,
                text: text(node, self.src).to_string(),
                span: node.byte_range(),
                scopes: Vec::new(),
                callee: Callee::Program,
            });
            let known = value
                .map(|v| word::decode(v, self.src, &self.vars))
                .unwrap_or_default();
            self.prompt(&name, &known);
            if element || appending {
                let base = name.split('[').next().unwrap_or(&name).to_string();
                if self.integers.contains(&base) {
                    self.arithmetic_word(&known, 0);
                }
                self.forget(&base);
            } else {
                self.assign(name, known);
            }
        }
    }

    /// A subscript (`a[i]`) bash evaluates as arithmetic, unless `a` is an
    /// associative array or the subscript is `@` or `*`.
    fn subscript(&mut self, node: Node) {
        let array = node
            .child_by_field_name("name")
            .map(|n| text(n, self.src))
            .unwrap_or("");
        if self.associative.contains(array) {
            return;
        }
        if let Some(index) = node.child_by_field_name("index") {
            let raw = text(index, self.src);
            if raw == "@" || raw == "*" {
                return;
            }
            let decoded = word::decode(index, self.src, &self.vars);
            self.arithmetic_word(&decoded, 0);
        }
    }

    /// Prompt strings bash expands as code: `PS4` under `set -x`, `PS0`,
    /// `PS1` and `PS2` in an interactive shell, and `PROMPT_COMMAND`, a
    /// script of its own. A known value is judged (a prompt as the words
    /// of `:`); one only known at run time is a [`Problem::Dynamic`].
    fn prompt(&mut self, name: &str, value: &Word) {
        let command = name == "PROMPT_COMMAND";
        if !command && !matches!(name, "PS0" | "PS1" | "PS2" | "PS4") {
            return;
        }
        if value.dynamic {
            self.dynamic(format!(
                "`{name}` is run as code and is only known at run time"
            ));
        } else if command {
            self.script.nested.push(value.value.clone());
        } else if value.value.contains(['$', '`']) {
            self.script.nested.push(format!(": {}", value.value));
        }
    }

    /// Records a [`Problem::Dynamic`] once.
    fn dynamic(&mut self, what: String) {
        let problem = Problem::Dynamic(what);
        if !self.script.problems.contains(&problem) {
            self.script.problems.push(problem);
        }
    }

    /// Checks a word bash evaluates as arithmetic (see [`Self::arithmetic`]):
    /// a known value is text never parsed as shell; an unknown one is
    /// checked as written.
    fn arithmetic_word(&mut self, word: &Word, depth: u8) {
        if word.is_static() {
            self.arithmetic(&word.value, true, depth);
        } else {
            self.arithmetic(&word.source, false, depth);
        }
    }

    /// Checks `expression`, text bash evaluates as arithmetic. A name in it
    /// stands for its value, which bash evaluates again, and an array
    /// subscript in that value runs its command substitutions:
    /// `x='a[$(rm -rf ~)]'; [[ $x -eq 1 ]]` runs `rm`. A value only known
    /// at run time, an array element, or a substitution (whose output bash
    /// evaluates again) is a [`Problem::Dynamic`]; a substitution in text
    /// that was never parsed as shell (`code`: a variable's value, a quoted
    /// operand) is parsed again as a script of its own. Names the
    /// expression assigns are forgotten.
    fn arithmetic(&mut self, expression: &str, code: bool, depth: u8) {
        if depth > 8 {
            self.dynamic("arithmetic nested more than 8 variables deep".into());
            return;
        }
        let (cleaned, substitutions) = blank_substitutions(expression);
        if !substitutions.is_empty() {
            if code {
                for inner in &substitutions {
                    self.script.nested.push(inner.clone());
                }
            }
            self.dynamic(format!(
                "`{}` is arithmetic over a command's output, which bash evaluates again",
                limits::clip(expression, 60)
            ));
        }
        let names = arithmetic_names(&cleaned);
        let assigned: HashSet<&str> = names
            .iter()
            .filter(|n| n.assigned)
            .map(|n| n.name.as_str())
            .collect();
        for name in &assigned {
            self.forget(name);
            if !self.unsure.contains(*name) && !self.untracked {
                self.numeric.insert(name.to_string());
            }
        }
        for name in names.iter().filter(|n| !assigned.contains(n.name.as_str())) {
            if name.element {
                self.dynamic(format!(
                    "the array element `{}[…]` is evaluated as arithmetic, and its value is only known at run time",
                    name.name
                ));
                continue;
            }
            match self.vars.get(&name.name).map(|w| w.value.clone()) {
                None if self.numeric.contains(&name.name) => {}
                Some(value) if is_number(&value) => {}
                Some(value) => self.arithmetic(&value, true, depth + 1),
                None => self.dynamic(format!(
                    "`{}` is evaluated as arithmetic, and its value is only known at run time",
                    name.name
                )),
            }
        }
    }

    /// Declarations (`export`, `local`, `declare`), `unset` and `[[ … ]]` are
    /// simple commands whose words may hold substitutions.
    fn walk_builtin_like(&mut self, node: Node, depth: usize, stdin: &Stdin) {
        let mut words = Vec::new();
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        let verb = match kind(node) {
            // `[ … ]` and `[[ … ]]` both: a test, closed (see engine's `[[` check).
            "test_command" => "[[".to_string(),
            _ => children
                .first()
                .map(|c| text(*c, self.src).to_string())
                .unwrap_or_default(),
        };
        words.push(Word::literal(&verb));
        if kind(node) == "declaration_command" {
            self.attributes(&verb, &children);
        }
        if kind(node) == "test_command" {
            let double = text(node, self.src).starts_with("[[");
            self.test_arithmetic(node, double);
        }
        for child in children
            .iter()
            .skip(if kind(node) == "test_command" { 0 } else { 1 })
        {
            self.walk_words_for_substitutions(*child, depth + 1);
            if kind(child) == "variable_assignment" {
                self.walk_assignment(*child, depth + 1);
            }
            if kind(child) == "variable_assignment" {
                // `export NAME=value`: the word bash sees, value unquoted.
                let name = child
                    .child_by_field_name("name")
                    .map(|n| text(n, self.src))
                    .unwrap_or("");
                let mut value = child
                    .child_by_field_name("value")
                    .map(|v| word::decode(v, self.src, &self.vars))
                    .unwrap_or_default();
                value.value = format!("{name}={}", value.value);
                value.source = text(*child, self.src).to_string();
                words.push(value);
            } else if child.is_named() && kind(node) != "test_command" {
                words.push(word::decode(*child, self.src, &self.vars));
            }
        }
        if kind(node) == "test_command" {
            words.push(Word::literal("]]"));
        }
        if kind(node) == "unset_command" {
            self.unset(words.get(1..).unwrap_or(&[]));
        }
        self.push(SimpleCommand {
            assignments: Vec::new(),
            words,
            redirects: Vec::new(),
            stdin: stdin.clone(),
            text: text(node, self.src).to_string(),
            span: node.byte_range(),
            scopes: Vec::new(),
            callee: Callee::Program,
        });
    }

    /// `declare`, `typeset`, `local`, `export`, `readonly` with options: a
    /// nameref (`-n`) makes every name an alias of another, so no variable
    /// is tracked after it; `-i` makes assignments arithmetic; `-l` and
    /// `-u` change what is stored; `-A` makes subscripts strings.
    fn attributes(&mut self, verb: &str, children: &[Node]) {
        let mut flags = String::new();
        let mut names = Vec::new();
        for child in children.iter().skip(1) {
            let raw = text(*child, self.src);
            if kind(*child) == "variable_assignment" {
                if let Some(name) = child.child_by_field_name("name") {
                    let name = text(name, self.src);
                    names.push(name.split('[').next().unwrap_or(name).to_string());
                }
            } else if raw.starts_with(['-', '+']) {
                flags.push_str(raw);
            } else if child.is_named() {
                names.push(raw.to_string());
            }
        }
        if flags.contains('n') && matches!(verb, "declare" | "typeset" | "local") {
            self.untracked = true;
            self.forget_all();
        }
        for name in names {
            if flags.contains('i') {
                self.integers.insert(name.clone());
            }
            if flags.contains('A') {
                self.associative.insert(name.clone());
            }
            // The last of `-l` and `-u` counts, as in bash.
            match flags.rfind(['l', 'u']).map(|i| &flags[i..=i]) {
                Some("l") => {
                    self.cased.insert(name.clone(), false);
                }
                Some("u") => {
                    self.cased.insert(name.clone(), true);
                }
                _ => {}
            }
        }
    }

    /// `unset`: a variable named is forgotten; a function named is gone
    /// for certain after `unset -f NAME` where it surely runs, and may be
    /// gone otherwise (plain `unset NAME` removes a function when no
    /// variable has the name).
    fn unset(&mut self, args: &[Word]) {
        let functions_only = args.iter().any(|w| w.value == "-f");
        let variables_only = args.iter().any(|w| w.value == "-v");
        let certain = self.conditional == 0 && self.function_body == 0;
        for arg in args.iter().filter(|w| !w.value.starts_with('-')) {
            // The walk marks a bare name node dynamic; only an expansion or
            // a substitution makes the name unknown.
            if arg.dynamic && arg.source.contains(['$', '`']) {
                self.forget_all();
                for callee in self.functions.values_mut() {
                    *callee = Callee::Either;
                }
                continue;
            }
            let name = arg
                .value
                .split('[')
                .next()
                .unwrap_or(&arg.value)
                .to_string();
            self.unset_names.insert(name.clone());
            if !functions_only {
                self.forget(&name);
            }
            if variables_only {
                continue;
            }
            if functions_only && certain {
                self.functions.remove(&name);
            } else if let Some(callee) = self.functions.get_mut(&name) {
                *callee = Callee::Either;
            }
        }
    }

    /// `[[ … ]]` (`double`): the operands of `-eq`, `-ne`, `-lt`, `-le`,
    /// `-gt`, `-ge` are arithmetic (`[ … ]` compares integers only). In
    /// both, the name after `-v` may hold a subscript, which bash
    /// evaluates.
    fn test_arithmetic(&mut self, node: Node, double: bool) {
        let mut stack = vec![node];
        let mut seen = 0usize;
        while let Some(n) = stack.pop() {
            seen += 1;
            if seen > 10_000 {
                self.dynamic("a test too large to read".into());
                return;
            }
            match kind(n) {
                "command_substitution" | "process_substitution" => continue,
                "binary_expression" => {
                    let operator = n
                        .child_by_field_name("operator")
                        .map(|o| text(o, self.src))
                        .unwrap_or("");
                    if double && matches!(operator, "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge") {
                        for side in ["left", "right"] {
                            if let Some(operand) = n.child_by_field_name(side) {
                                let word = word::decode(operand, self.src, &self.vars);
                                self.arithmetic_word(&word, 0);
                            }
                        }
                        continue;
                    }
                }
                "unary_expression" => {
                    let operator = n
                        .child_by_field_name("operator")
                        .map(|o| text(o, self.src))
                        .unwrap_or("");
                    if operator == "-v"
                        && let Some(operand) = last_named(n)
                    {
                        let word = word::decode(operand, self.src, &self.vars);
                        name_sink(&word, &mut self.script);
                        continue;
                    }
                }
                _ => {}
            }
            let mut cursor = n.walk();
            stack.extend(n.named_children(&mut cursor));
        }
    }

    /// Code inside a `${…}` expansion: an array subscript is arithmetic,
    /// `${!x}` reads the variable that `x` names (a subscript in that name
    /// is evaluated), and `${x@P}` expands `x` as a prompt.
    fn expansion_code(&mut self, node: Node) {
        let raw = text(node, self.src);
        let mut cursor = node.walk();
        let subscripts: Vec<Node> = node
            .named_children(&mut cursor)
            .filter(|c| kind(*c) == "subscript")
            .collect();
        for subscript in subscripts {
            self.subscript(subscript);
        }
        let inner = raw
            .strip_prefix("${")
            .and_then(|r| r.strip_suffix('}'))
            .unwrap_or("");
        // `${x:=y}` and `${x=y}` assign `x`.
        let name_end = inner
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(inner.len());
        let (name, operation) = inner.split_at(name_end);
        if is_name(name) && (operation.starts_with(":=") || operation.starts_with('=')) {
            // Forgotten once the command's words are read (in `push`): the
            // word itself still has the value worked out.
            self.assigned_in_words.push(name.to_string());
        }
        if let Some(name) = inner.strip_prefix('!')
            && is_name(name)
        {
            match self.vars.get(name).map(|w| w.value.clone()) {
                Some(value) => name_sink(&Word::literal(&value), &mut self.script),
                None => self.dynamic(format!(
                    "`${{!{name}}}` reads a variable named by a value only known at run time"
                )),
            }
        }
        if let Some(name) = inner.strip_suffix("@P")
            && is_name(name)
        {
            let value = self.vars.get(name).cloned().unwrap_or_else(|| Word {
                dynamic: true,
                source: raw.to_string(),
                ..Word::default()
            });
            self.prompt("PS1", &value);
        }
    }

    /// Forgets the variables a command sets from what only run time knows:
    /// `read`, `mapfile`, `printf -v`, `getopts`, `let`, `wait -p`, `cd`
    /// (`PWD`); `eval`, `source` and `.` may set any (and define or unset
    /// functions); after `trap` (a `DEBUG` trap runs before every command)
    /// none is tracked.
    fn forget_set_by(&mut self, words: &[Word]) {
        let mut head = 0;
        while words
            .get(head)
            .is_some_and(|w| matches!(w.value.as_str(), "command" | "builtin"))
        {
            head += 1;
        }
        let Some(verb) = words.get(head) else { return };
        if matches!(verb.value.as_str(), "eval" | "source" | "." | "trap") {
            // Their scripts may define or unset functions too.
            for callee in self.functions.values_mut() {
                *callee = Callee::Either;
            }
        }
        match verb.value.as_str() {
            "eval" | "source" | "." => self.forget_all(),
            "trap" => {
                self.untracked = true;
                self.forget_all();
            }
            "read" | "mapfile" | "readarray" | "printf" | "getopts" | "let" | "wait" | "cd"
            | "pushd" | "popd" => {
                for name in ["REPLY", "MAPFILE", "OPTARG", "OPTIND", "PWD", "OLDPWD"] {
                    self.forget(name);
                }
                for word in words.iter().skip(head + 1) {
                    if word.dynamic {
                        self.forget_all();
                        return;
                    }
                    for name in identifiers(&word.value) {
                        self.forget(&name);
                    }
                    // `printf -vNAME`, `read -aNAME`: a name glued to its option.
                    if let Some(glued) = word.value.strip_prefix('-').and_then(|w| w.get(1..)) {
                        for name in identifiers(glued) {
                            self.forget(&name);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// What a command's name calls here (see [`Callee`]). Inside a function
    /// body that depends on when the function runs: resolved at the end.
    fn callee_of(&mut self, head: Option<&Word>) -> Callee {
        let Some(head) = head.filter(|w| w.is_static()) else {
            return Callee::Program;
        };
        if let Some(enclosing) = self
            .function_names
            .last()
            .filter(|_| self.function_body > 0)
        {
            let enclosing = enclosing.clone();
            self.body_calls
                .push((self.script.commands.len(), enclosing));
            return Callee::Program;
        }
        self.functions
            .get(&head.value)
            .copied()
            .unwrap_or(Callee::Program)
    }

    /// Walks a word-like node only for the commands inside its substitutions.
    fn walk_words_for_substitutions(&mut self, node: Node, depth: usize) {
        if self.full {
            return;
        }
        if depth > limits::MAX_TREE_DEPTH {
            if !self.script.problems.contains(&Problem::TooDeep) {
                self.script.problems.push(Problem::TooDeep);
            }
            return;
        }
        match kind(node) {
            "arithmetic_expansion" => {
                let raw = text(node, self.src);
                let inner = raw
                    .strip_prefix("$((")
                    .and_then(|r| r.strip_suffix("))"))
                    .or_else(|| raw.strip_prefix("$[").and_then(|r| r.strip_suffix(']')))
                    .unwrap_or(raw);
                self.arithmetic(inner, false, 0);
                let mut cursor = node.walk();
                let children: Vec<Node> = node.children(&mut cursor).collect();
                for child in children {
                    self.walk_words_for_substitutions(child, depth + 1);
                }
            }
            "command_substitution" | "process_substitution" => {
                self.backquoted_bodies(node);
                self.in_subshell(|w| w.walk_children(node, depth, &Stdin::Inherited))
            }
            // A statement where bash expects a word (`ls ( rm x )`): bash
            // rejects the line; its commands are judged all the same.
            "subshell"
            | "compound_statement"
            | "command"
            | "pipeline"
            | "list"
            | "redirected_statement" => {
                self.script.problems.push(Problem::Syntax(format!(
                    "`{}` where bash expects a word",
                    limits::clip(text(node, self.src), 40)
                )));
                self.walk(node, depth, &Stdin::Inherited);
            }
            _ => {
                let expansion = kind(node) == "expansion";
                if expansion {
                    self.expansion_code(node);
                }
                let mut cursor = node.walk();
                let children: Vec<Node> = node.children(&mut cursor).collect();
                for child in children {
                    if expansion && kind(child) == "word" {
                        self.substitution_in_expansion_word(child);
                    } else {
                        self.walk_words_for_substitutions(child, depth + 1);
                    }
                }
            }
        }
    }

    /// tree-sitter-bash does not read a backquoted substitution as bash
    /// does. Bash ends it at the first unescaped backquote (`` `a``b` `` is
    /// two substitutions, which tree-sitter reads as one), and removes the
    /// backslash from `` \` ``, `\$` and `\\` before running the body
    /// (`` `echo \`rm x\`` `` runs `rm x`, which tree-sitter leaves as
    /// text). Each body, read bash's way, is parsed again on its own.
    fn backquoted_bodies(&mut self, node: Node) {
        let raw = text(node, self.src);
        if !raw.starts_with('`') || !(raw.contains('\\') || raw.matches('`').count() > 2) {
            return;
        }
        for body in split_backquoted(raw) {
            self.script.nested.push(body);
        }
    }

    /// tree-sitter-bash reads `${x:-`cmd`}` as a plain word: the
    /// substitution inside is parsed again on its own. (Found from the
    /// expansion down: `Node::parent` costs a walk from the root.)
    fn substitution_in_expansion_word(&mut self, node: Node) {
        let raw = text(node, self.src);
        if let Some(start) = raw.find(['`', '$']) {
            let inner = raw[start..].trim_matches('`');
            let inner = inner
                .strip_prefix("$(")
                .and_then(|i| i.strip_suffix(')'))
                .unwrap_or(inner);
            if raw.contains('`') || raw.contains("$(") {
                self.script.nested.push(inner.to_string());
            }
        }
    }

    fn walk_redirected(&mut self, node: Node, depth: usize, stdin: &Stdin) {
        let mut redirects = Vec::new();
        let mut own_stdin = stdin.clone();
        let mut trailing: Vec<Node> = Vec::new();
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        let body = node.child_by_field_name("body");
        // Put back the `-` tree-sitter dropped before a heredoc.
        if let Some(body) = body.filter(|b| kind(b) == "command")
            && let Some(heredoc) = children.iter().find(|c| kind(**c) == "heredoc_redirect")
            && let Some(operator) = heredoc.child(0).filter(|o| kind(o) == "<<")
            && (self
                .src
                .get(body.end_byte()..operator.start_byte())
                .is_some_and(|gap| gap.trim_ascii() == b"-")
                // `cat -<<X`: the operator token took the dash.
                || text(operator, self.src).starts_with('-'))
        {
            self.stray_words.push(Word::literal("-"));
        }
        for child in &children {
            if Some(*child) == body {
                continue;
            }
            self.collect_redirect(*child, depth, &mut redirects, &mut own_stdin, &mut trailing);
        }
        let start = self.script.commands.len();
        match body {
            Some(body) if kind(body) == "command" => {
                self.walk_command(body, depth + 1, &own_stdin, redirects);
            }
            Some(_) if !self.stray_words.is_empty() => {
                // Words after a compound command's redirection: bash rejects it.
                self.stray_words.clear();
                self.script
                    .problems
                    .push(Problem::Syntax("words after a compound command".into()));
                if let Some(body) = body {
                    self.walk(body, depth + 1, &own_stdin);
                }
            }
            Some(body) => {
                // A compound body (`{ …; } > out`, `while …; done < file`):
                // its commands share the stdin; the write targets belong to
                // the group, recorded on a synthetic entry so they are judged.
                self.walk(body, depth + 1, &own_stdin);
                if !redirects.is_empty() {
                    self.push(SimpleCommand {
                        assignments: Vec::new(),
                        words: Vec::new(),
                        redirects,
                        stdin: Stdin::Inherited,
                        text: text(node, self.src).to_string(),
                        span: node.byte_range(),
                        scopes: Vec::new(),
                        callee: Callee::Program,
                    });
                }
            }
            None => {
                // A bare redirection (`> file`, `: > file`) truncates its target.
                self.push(SimpleCommand {
                    assignments: Vec::new(),
                    words: Vec::new(),
                    redirects,
                    stdin: own_stdin,
                    text: text(node, self.src).to_string(),
                    span: node.byte_range(),
                    scopes: Vec::new(),
                    callee: Callee::Program,
                });
            }
        }
        // `cmd <<EOF | next` : tree-sitter puts the rest of the pipeline
        // inside the heredoc redirect; it is fed by the command above.
        let fed = start..self.script.commands.len();
        for rest in trailing {
            self.walk(rest, depth + 1, &Stdin::Pipe(fed.clone()));
        }
    }

    fn collect_redirect<'t>(
        &mut self,
        child: Node<'t>,
        depth: usize,
        redirects: &mut Vec<Redirect>,
        stdin: &mut Stdin,
        trailing: &mut Vec<Node<'t>>,
    ) {
        if self.in_bash_body(child) {
            return;
        }
        match kind(child) {
            "file_redirect" => {
                let mut op = child
                    .child_by_field_name("operator")
                    .or_else(|| first_anonymous(child))
                    .map(|o| text(o, self.src).to_string())
                    .unwrap_or_default();
                let mut cursor = child.walk();
                if op == "<"
                    && child
                        .children(&mut cursor)
                        .any(|c| is_read_write_gap(c, self.src))
                {
                    op = "<>".to_string();
                }
                let Some(dest) = child
                    .child_by_field_name("destination")
                    .or_else(|| last_named(child))
                else {
                    return;
                };
                // `ls < 2>&1`: the target tree-sitter found is the descriptor
                // of the next redirection, and bash finds no target at all.
                if kind(dest) == "number"
                    && self
                        .src
                        .get(dest.end_byte())
                        .is_some_and(|b| *b == b'>' || *b == b'<')
                {
                    self.script
                        .problems
                        .push(Problem::Syntax("a redirection without a target".into()));
                }
                // `cmd <` then a newline: bash wants the target on the line.
                let gap = self
                    .src
                    .get(child.start_byte()..dest.start_byte())
                    .unwrap_or(&[]);
                if gap.contains(&b'\n') {
                    self.script.problems.push(Problem::Syntax(
                        "a redirection with its target on the next line".into(),
                    ));
                }
                self.walk_words_for_substitutions(dest, depth + 1);
                let target = word::decode(dest, self.src, &self.vars);
                let mut cursor = child.walk();
                let extra: Vec<Node> = child
                    .children_by_field_name("destination", &mut cursor)
                    .filter(|d| *d != dest)
                    .collect();
                for word_node in extra {
                    self.walk_words_for_substitutions(word_node, depth + 1);
                    let word = word::decode(word_node, self.src, &self.vars);
                    self.stray_words.push(word);
                }
                if op == "<" {
                    *stdin = Stdin::File(target);
                } else if is_write_operator(&op) && !is_fd_duplication(&op, &target) {
                    redirects.push(Redirect { op, target });
                }
            }
            "herestring_redirect" => {
                if let Some(value) = last_named(child) {
                    let gap = self
                        .src
                        .get(child.start_byte()..value.start_byte())
                        .unwrap_or(&[]);
                    let descriptor = kind(value) == "number"
                        && self
                            .src
                            .get(value.end_byte())
                            .is_some_and(|b| *b == b'>' || *b == b'<');
                    if descriptor || gap.contains(&b'\n') {
                        self.script
                            .problems
                            .push(Problem::Syntax("a here-string without a word".into()));
                    }
                    self.walk_words_for_substitutions(value, depth + 1);
                    *stdin = Stdin::HereString(word::decode(value, self.src, &self.vars));
                }
            }
            "heredoc_redirect" => {
                let mut delimiter = String::new();
                let mut quoted = false;
                let mut body_text = String::new();
                let mut literal_body = true;
                let mut cursor = child.walk();
                let parts: Vec<Node> = child.children(&mut cursor).collect();
                // `<<-` strips leading tabs from the body and the end line.
                let strip_tabs = parts.iter().any(|p| kind(*p) == "<<-");
                let mut body_from = None;
                // A third silent misparse of tree-sitter-bash: a body whose
                // first line starts with `\` is read as a line continuation,
                // and that line becomes an argument of the redirection, out
                // of the body (`bash <<'EOF'\n\\rm -rf /\nEOF` had an
                // empty body). Any part that spans a newline before the body
                // is one.
                let body_start = parts
                    .iter()
                    .find(|p| kind(**p) == "heredoc_body")
                    .map_or(usize::MAX, |b| b.start_byte());
                if parts.iter().any(|p| {
                    p.is_named()
                        && !matches!(kind(p), "heredoc_start" | "heredoc_body" | "heredoc_end")
                        && p.start_byte() < body_start
                        && text(*p, self.src).contains('\n')
                }) {
                    self.script.problems.push(Problem::MergedLine(
                        "the heredoc's first line, read as an argument".into(),
                    ));
                }
                for part in parts {
                    match kind(part) {
                        "heredoc_start" => {
                            let delim = text(part, self.src);
                            quoted = delim.contains(['\'', '"', '\\']);
                            delimiter = delim.replace(['\'', '"', '\\'], "");
                            // `<< &`: bash wants a word, not an operator.
                            if delim.is_empty()
                                || delim.starts_with(['&', '|', ';', '(', ')', '<', '>'])
                                || delim.starts_with("$(")
                            {
                                self.script.problems.push(Problem::Syntax(format!(
                                    "`<< {delim}` has no delimiter word"
                                )));
                            }
                        }
                        "heredoc_body" => {
                            body_from = Some(heredoc_start(part, self.src));
                            body_text = heredoc_text(part, self.src);
                            if !quoted {
                                let mut c = part.walk();
                                let kids: Vec<Node> = part.named_children(&mut c).collect();
                                for k in kids {
                                    if kind(k) != "heredoc_content" {
                                        literal_body = false;
                                        self.walk_words_for_substitutions(k, depth + 1);
                                    }
                                }
                            }
                        }
                        "file_redirect" | "herestring_redirect" => {
                            let mut ignored = Stdin::Inherited;
                            self.collect_redirect(part, depth, redirects, &mut ignored, trailing);
                        }
                        "heredoc_end" => {
                            let end = text(part, self.src).trim();
                            if !delimiter.is_empty() && end != delimiter {
                                self.script.problems.push(Problem::Syntax(format!(
                                    "a heredoc opened with `{delimiter}` ends with `{}`",
                                    limits::clip(end, 30)
                                )));
                            } else if !delimiter.is_empty() {
                                // A sixth silent misparse of tree-sitter-bash:
                                // its scanner ends a heredoc at a body line
                                // that only starts like the delimiter
                                // (`    EOF = 1`), and reads the lines after
                                // it as commands. Bash reads on to the line
                                // that is the delimiter alone, so commands
                                // after that line were hidden, as body of a
                                // later heredoc tree-sitter opened in between.
                                // The end must be on the line where bash ends
                                // the body (that line is the delimiter alone).
                                let end_line = line_start(self.src, part.start_byte());
                                let from = body_from.unwrap_or(end_line);
                                let limit = text_end(child, self.src.len());
                                let bash =
                                    bash_heredoc(self.src, from, limit, &delimiter, strip_tabs);
                                if bash.end_line != Some(end_line) {
                                    let line = self.src[end_line..]
                                        .split(|b| *b == b'\n')
                                        .next()
                                        .unwrap_or(&[]);
                                    self.script.problems.push(Problem::HeredocEnd(
                                        limits::clip(&String::from_utf8_lossy(line), 60)
                                            .to_string(),
                                    ));
                                    self.bash_bodies.push(from..bash.past_end);
                                    body_text = bash.body;
                                    // A heredoc tree-sitter opened in the lines
                                    // it misread can end at the same line.
                                    if let Some(after) = bash.after.filter(|a| {
                                        !a.trim().is_empty()
                                            && !self.script.after_heredoc.contains(a)
                                    }) {
                                        self.script.after_heredoc.push(after);
                                    }
                                }
                            }
                        }
                        _ if part.is_named() => trailing.push(part),
                        _ => {}
                    }
                }
                // Substitutions in an unquoted body run (tree-sitter reads
                // no backquote there): each is parsed again on its own.
                if !quoted {
                    let (_, substitutions) = blank_substitutions(&body_text);
                    if !substitutions.is_empty() {
                        literal_body = false;
                    }
                    self.script.nested.extend(substitutions);
                }
                *stdin = Stdin::Heredoc {
                    body: body_text,
                    literal: quoted || literal_body,
                };
            }
            _ if child.is_named() => {
                // Not a redirect: walk it like any other node.
                let keep = stdin.clone();
                self.walk(child, depth + 1, &keep);
            }
            _ => {}
        }
    }

    fn walk_command(
        &mut self,
        node: Node,
        depth: usize,
        stdin: &Stdin,
        mut redirects: Vec<Redirect>,
    ) {
        let mut assignments = Vec::new();
        // Which assignments append (`x+=y`).
        let mut appending: Vec<usize> = Vec::new();
        let mut words = Vec::new();
        let mut own_stdin = stdin.clone();
        let mut trailing = Vec::new();
        // Arguments a redirection after this command took (see `stray_words`).
        let after_redirects = std::mem::take(&mut self.stray_words);
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        let mut merged_line = false;
        let mut previous_end: Option<usize> = None;
        // A `==` or `=~` token glued to the word after it (`=='x'`): the
        // start of that word.
        let mut glued: Option<Node> = None;
        for child in children {
            if self.in_bash_body(child) {
                continue;
            }
            if let Some(operator) = glued
                && !(child.is_named() && child.start_byte() == operator.end_byte())
            {
                // Nothing follows it after all: a word of its own.
                words.push(Word::literal(text(operator, self.src)));
                glued = None;
            }
            if let Some(end) = previous_end {
                // Guard for tree-sitter-bash#347: an unescaped newline
                // between two words of one command.
                let gap = self.src.get(end..child.start_byte()).unwrap_or(&[]);
                if has_bare_newline(gap) {
                    merged_line = true;
                }
            }
            previous_end = Some(child.end_byte());
            match kind(child) {
                "variable_assignment" => {
                    let name = child
                        .child_by_field_name("name")
                        .map(|n| text(n, self.src).to_string());
                    let value = child.child_by_field_name("value");
                    if let Some(v) = value {
                        self.walk_words_for_substitutions(v, depth + 1);
                    }
                    let decoded = value
                        .map(|v| word::decode(v, self.src, &self.vars))
                        .unwrap_or_default();
                    if child
                        .child_by_field_name("name")
                        .and_then(|n| self.src.get(n.end_byte()..))
                        .is_some_and(|rest| rest.starts_with(b"+="))
                    {
                        appending.push(assignments.len());
                    }
                    if let Some(name) = name {
                        assignments.push((name, decoded));
                    }
                }
                "file_redirect" | "heredoc_redirect" | "herestring_redirect" => {
                    self.collect_redirect(
                        child,
                        depth,
                        &mut redirects,
                        &mut own_stdin,
                        &mut trailing,
                    );
                    words.append(&mut self.stray_words);
                }
                "comment" => {}
                // `time (…)`: bash times a compound command; what it runs
                // is judged as commands, not as a word.
                "subshell" | "compound_statement"
                    if !words.is_empty()
                        && words
                            .iter()
                            .all(|w| matches!(w.source.as_str(), "time" | "-p")) =>
                {
                    self.walk(child, depth + 1, &own_stdin);
                }
                _ if child.is_named() => {
                    self.words_seen += 1;
                    if self.words_seen > limits::MAX_WORDS {
                        if !self.full {
                            self.script.problems.push(Problem::TooMany);
                            self.full = true;
                        }
                        return;
                    }
                    self.walk_words_for_substitutions(child, depth + 1);
                    let mut decoded = word::decode(child, self.src, &self.vars);
                    if let Some(operator) = glued.take() {
                        let prefix = text(operator, self.src);
                        decoded.value.insert_str(0, prefix);
                        decoded.source.insert_str(0, prefix);
                    }
                    // An unquoted `$x` whose value is known is split into
                    // words as bash does (`x="rm -rf"; $x /`).
                    let unquoted_expansion =
                        matches!(kind(child), "simple_expansion" | "expansion")
                            || (kind(child) == "command_name"
                                && child.named_child(0).is_some_and(|c| {
                                    matches!(kind(c), "simple_expansion" | "expansion")
                                }));
                    // With `IFS` set, bash splits on other characters.
                    if unquoted_expansion && self.ifs_changed {
                        decoded.dynamic = true;
                    }
                    // An unquoted expansion of an empty or blank value is
                    // no word at all (`x=; $x rm -rf ~` runs `rm`).
                    let vanishes = unquoted_expansion
                        && decoded.is_static()
                        && decoded.value.trim_matches([' ', '\t', '\n']).is_empty();
                    if vanishes {
                        continue;
                    }
                    if unquoted_expansion
                        && decoded.is_static()
                        && decoded.value.contains([' ', '\t', '\n'])
                    {
                        for part in decoded
                            .value
                            .split([' ', '\t', '\n'])
                            .filter(|p| !p.is_empty())
                        {
                            let mut piece = decoded.clone();
                            piece.value = part.to_string();
                            words.push(piece);
                        }
                    } else {
                        words.push(decoded);
                    }
                }
                // tree-sitter reads a `==` or `=~` argument as the test
                // operator token (`echo a == b`, and `=='x'` as two
                // pieces); to bash it is a word, or the start of one.
                "==" | "=~" => glued = Some(child),
                _ => {}
            }
        }
        if let Some(operator) = glued {
            words.push(Word::literal(text(operator, self.src)));
        }
        words.extend(after_redirects);
        if words.first().is_some_and(|w| w.value == "let") {
            for word in words.iter().skip(1) {
                self.arithmetic_word(word, 0);
            }
        }
        let callee = self.callee_of(words.first());
        if words
            .first()
            .is_some_and(|w| matches!(w.value.as_str(), "eval" | "trap"))
            && !self.functions.is_empty()
        {
            let mut in_scope: Vec<(String, Callee)> = self
                .functions
                .iter()
                .map(|(name, callee)| {
                    // Inside a function body, which functions exist when it
                    // runs is not known.
                    let callee = if self.function_body > 0 {
                        Callee::Either
                    } else {
                        *callee
                    };
                    (name.clone(), callee)
                })
                .collect();
            in_scope.sort();
            self.script
                .functions_at
                .push((self.script.commands.len(), in_scope));
        }
        self.forget_set_by(&words);
        let text_of = text(node, self.src);
        // A reserved word where a command name belongs (`then ls`, a stray
        // `fi`): bash rejects the line, tree-sitter reads a command.
        if let Some(first) = words.first()
            && RESERVED_WORDS.contains(&first.source.as_str())
        {
            self.script
                .problems
                .push(Problem::Syntax(format!("unexpected `{}`", first.source)));
        }
        // tree-sitter-bash has no `coproc`: it reads a command named so.
        // `coproc cmd args` parses fine; `coproc` alone, or followed by a
        // name and a compound command (`coproc NAME { …; }`), does not.
        let after_prefixes = words
            .iter()
            .skip_while(|w| matches!(w.source.as_str(), "time" | "-p" | "!"))
            .collect::<Vec<_>>();
        let coproc_misread = after_prefixes.first().is_some_and(|w| w.source == "coproc")
            && (after_prefixes.len() == 1
                || after_prefixes.iter().skip(1).any(|w| {
                    RESERVED_WORDS.contains(&w.source.as_str())
                        || matches!(
                            w.source.as_str(),
                            "{" | "if"
                                | "for"
                                | "while"
                                | "until"
                                | "case"
                                | "select"
                                | "[["
                                | "(("
                                | "coproc"
                                | "function"
                                | "time"
                                | "!"
                        )
                }));
        if coproc_misread {
            self.script
                .problems
                .push(Problem::Unsupported("`coproc` is not parsed".into()));
        }
        // `time` with nothing to time before an operator (`time &`,
        // `time | x`): bash rejects it.
        let only_time = !words.is_empty()
            && words
                .iter()
                .all(|w| matches!(w.source.as_str(), "time" | "-p"));
        let operator_follows = [
            node.next_sibling(),
            node.parent().and_then(|p| p.next_sibling()),
        ]
        .into_iter()
        .flatten()
        .any(|n| matches!(kind(n), "&" | "|" | "|&" | "&&" | "||"));
        if only_time && operator_follows {
            self.script
                .problems
                .push(Problem::Syntax("`time` with nothing to time".into()));
        }
        if merged_line {
            self.script
                .problems
                .push(Problem::MergedLine(limits::clip(text_of, 60).to_string()));
        }
        for (name, value) in &assignments {
            self.prompt(name, value);
        }
        if words.is_empty() {
            // Assignments alone (`A=1 B=2`) behave like `x=…` statements.
            for (i, (name, value)) in assignments.iter().enumerate() {
                if appending.contains(&i) {
                    self.forget(name);
                } else {
                    self.assign(name.clone(), value.clone());
                }
            }
        }
        let start = self.script.commands.len();
        self.push(SimpleCommand {
            assignments,
            words,
            redirects,
            stdin: own_stdin,
            text: text_of.to_string(),
            span: node.byte_range(),
            scopes: Vec::new(),
            callee,
        });
        let fed = start..self.script.commands.len();
        for rest in trailing {
            self.walk(rest, depth + 1, &Stdin::Pipe(fed.clone()));
        }
    }
}

/// The and-or list tree-sitter made a pipeline stage of (see
/// `walk_pipeline`): the stage itself, or the body of its redirections.
fn list_in_stage(stage: Node) -> Option<Node> {
    match kind(stage) {
        "list" => Some(stage),
        "redirected_statement" => stage
            .child_by_field_name("body")
            .filter(|body| kind(body) == "list"),
        _ => None,
    }
}

/// Whether `node` has an ancestor of kind `kind`.
fn inside(node: Node, wanted: &str) -> bool {
    let mut current = node.parent();
    while let Some(parent) = current {
        if kind(parent) == wanted {
            return true;
        }
        current = parent.parent();
    }
    false
}

/// Words bash reserves: never a command name when unquoted.
const RESERVED_WORDS: &[&str] = &[
    "do", "done", "elif", "else", "esac", "fi", "in", "then", "}", "]]",
];

fn first_anonymous(node: Node) -> Option<Node> {
    let mut cursor = node.walk();

    node.children(&mut cursor).find(|c| !c.is_named())
}

fn last_named(node: Node) -> Option<Node> {
    let count = node.named_child_count();
    if count == 0 {
        None
    } else {
        node.named_child((count - 1) as u32)
    }
}

fn is_write_operator(op: &str) -> bool {
    matches!(op, ">" | ">>" | "&>" | "&>>" | ">|" | "<>" | ">&")
}

/// `2>&1`, `>&2`: duplicating a descriptor writes no file.
fn is_fd_duplication(op: &str, target: &Word) -> bool {
    (op == ">&" || op == "<&")
        && (target.value.chars().all(|c| c.is_ascii_digit()) || target.value == "-")
        || (op == ">&" && target.value.ends_with('-'))
}

fn has_bare_newline(gap: &[u8]) -> bool {
    let mut previous = 0u8;
    for &b in gap {
        if b == b'\n' && previous != b'\\' {
            return true;
        }
        previous = b;
    }
    false
}

/// The body of a heredoc without its closing delimiter line.
/// A heredoc's body as bash reads it: every line after the line with the
/// `<<`. tree-sitter starts the body node at its first non-blank character,
/// leaving out leading blank lines and the first line's indentation.
fn heredoc_text(body: Node, src: &[u8]) -> String {
    let start = heredoc_start(body, src);
    std::str::from_utf8(src.get(start..body.end_byte()).unwrap_or(&[]))
        .unwrap_or("")
        .to_string()
}

/// Where a heredoc's body starts as bash reads it (see [`heredoc_text`]).
fn heredoc_start(body: Node, src: &[u8]) -> usize {
    let node_start = body.start_byte();
    let mut blank_start = node_start;
    while blank_start > 0 && matches!(src.get(blank_start - 1), Some(b' ' | b'\t' | b'\n')) {
        blank_start -= 1;
    }
    src.get(blank_start..node_start)
        .and_then(|blanks| blanks.iter().position(|b| *b == b'\n'))
        .map_or(node_start, |newline| blank_start + newline + 1)
}

/// The start of the line holding byte `at`.
fn line_start(src: &[u8], at: usize) -> usize {
    src.get(..at)
        .and_then(|before| before.iter().rposition(|b| *b == b'\n'))
        .map_or(0, |newline| newline + 1)
}

/// Where the text that holds `node` ends for bash's heredoc rules: inside
/// `$( )`, `` ` ` `` or `<( )`, bash reads the substitution's text first,
/// so a heredoc there ends at its closing character at the latest
/// (`$(cat <<EOF`, `hi`, `EOF)` is `hi`); elsewhere, the end of the text.
fn text_end(node: Node, len: usize) -> usize {
    let mut at = node.parent();
    while let Some(parent) = at {
        if matches!(
            kind(parent),
            "command_substitution" | "process_substitution"
        ) {
            return parent.end_byte().saturating_sub(1).min(len);
        }
        at = parent.parent();
    }
    len
}

/// A heredoc's body as bash reads it (see [`bash_heredoc`]).
struct BashHeredoc {
    /// The body.
    body: String,
    /// Where the end line starts; `None` when no line ends the body.
    end_line: Option<usize>,
    /// Where the body and its end line end.
    past_end: usize,
    /// The text after the end line.
    after: Option<String>,
}

/// A heredoc's body read as bash reads it, from byte `from` (the start of
/// its first line) to the line that is `delimiter` alone (after tabs, for
/// `<<-`), and the text after that line up to byte `limit` (see
/// [`text_end`]); with no such line, the body runs to `limit` and nothing
/// comes after it.
fn bash_heredoc(
    src: &[u8],
    from: usize,
    limit: usize,
    delimiter: &str,
    strip_tabs: bool,
) -> BashHeredoc {
    let rest = src.get(from..limit.max(from)).unwrap_or(&[]);
    let text = String::from_utf8_lossy(rest);
    match heredoc_end_line(&text, delimiter, strip_tabs) {
        Some((start, past)) => BashHeredoc {
            body: text[..start].to_string(),
            end_line: Some(from + start),
            past_end: from + past,
            after: Some(text[past..].to_string()),
        },
        None => BashHeredoc {
            body: text.into_owned(),
            end_line: None,
            past_end: from + rest.len(),
            after: None,
        },
    }
}

/// Bash's end of a heredoc body `text`: where the first line that is
/// `delimiter` alone starts (after tabs, for `<<-`), and where it ends,
/// past its newline. Shared by the walk and the fast path.
pub(crate) fn heredoc_end_line(
    text: &str,
    delimiter: &str,
    strip_tabs: bool,
) -> Option<(usize, usize)> {
    if delimiter.is_empty() {
        return None;
    }
    let bytes = text.as_bytes();
    text.match_indices(delimiter).find_map(|(at, _)| {
        let start = text[..at].rfind('\n').map_or(0, |newline| newline + 1);
        let end = at + delimiter.len();
        let alone = bytes[start..at].iter().all(|b| strip_tabs && *b == b'\t')
            && matches!(bytes.get(end), None | Some(b'\n'));
        alone.then(|| (start, (end + 1).min(text.len())))
    })
}

/// Whether a function body runs the function itself in the background or in
/// a pipeline with itself: the shape of a fork bomb.
/// `while true; do sleep 1 & done`, `until false; …`, `for ((;;)); …`: a
/// loop that never ends on its own and starts a background process each
/// time round, which fills the process table like a fork bomb.
fn endless_loop_in_background(node: Node, src: &[u8]) -> bool {
    let endless = match kind(node) {
        "while_statement" => {
            let until = node.child(0).is_some_and(|k| kind(k) == "until");
            node.child_by_field_name("condition").is_some_and(|c| {
                let condition = text(c, src).trim().trim_end_matches(';').trim();
                if until {
                    condition == "false"
                } else {
                    matches!(condition, "true" | ":")
                }
            })
        }
        "c_style_for_statement" => node.child_by_field_name("condition").is_none(),
        _ => false,
    };
    if !endless {
        return false;
    }
    let Some(body) = node.child_by_field_name("body") else {
        return false;
    };
    let mut stack = vec![body];
    let mut seen = 0usize;
    while let Some(n) = stack.pop() {
        seen += 1;
        if seen > 100_000 {
            return true;
        }
        if kind(n) == "&" {
            return true;
        }
        let mut cursor = n.walk();
        stack.extend(n.children(&mut cursor));
    }
    false
}

fn calls_itself_in_background(body: Node, name: &str, src: &[u8]) -> bool {
    let body_text = text(body, src);
    // Calls are commands named so (`echo :` or `command ls` is not one).
    let mut calls = 0usize;
    let mut stack = vec![body];
    let mut seen = 0usize;
    while let Some(node) = stack.pop() {
        seen += 1;
        if seen > 100_000 {
            // Too large to look through: assume the worst.
            return true;
        }
        if kind(node) == "command"
            && node
                .child_by_field_name("name")
                .is_some_and(|n| text(n, src) == name)
        {
            calls += 1;
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    let background = body_text.replace("&&", "").contains('&');
    let piped_to_itself = calls >= 2 && body_text.replace("||", "").contains('|');
    calls >= 1 && (background || piped_to_itself)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(script: &Script) -> Vec<Vec<String>> {
        script
            .commands
            .iter()
            .map(|c| c.words.iter().map(|w| w.value.clone()).collect())
            .collect()
    }

    #[test]
    fn grammar_loads() {
        let mut parser = Parser::new();
        assert!(
            parser
                .set_language(&tree_sitter_bash::LANGUAGE.into())
                .is_ok()
        );
    }

    #[test]
    fn collects_commands_everywhere() {
        let s = parse("cd src && cargo test 2>&1 | tail -50; echo $(rm -rf x) `ls` <(cat y)");
        let a = argv(&s);
        assert!(a.contains(&vec!["cargo".into(), "test".into()]));
        assert!(a.contains(&vec!["rm".into(), "-rf".into(), "x".into()]));
        assert!(a.contains(&vec!["ls".into()]));
        assert!(a.contains(&vec!["cat".into(), "y".into()]));
        assert!(s.problems.is_empty(), "{:?}", s.problems);
    }

    #[test]
    fn unquotes_like_bash() {
        for line in [
            "r''m -rf x",
            "\"rm\" -rf x",
            "\\rm -rf x",
            "$'\\x72m' -rf x",
            "r\\m -rf x",
        ] {
            let s = parse(line);
            assert_eq!(s.commands[0].words[0].value, "rm", "{line}");
        }
    }

    #[test]
    fn guards_known_misparses() {
        let s = parse("ls | sort | uniq\nrm -rf build && mkdir build");
        assert!(
            s.problems
                .iter()
                .any(|p| matches!(p, Problem::MergedLine(_))),
            "{:?}",
            s.problems
        );
        // The dropped `-` before a heredoc is put back where bash has it.
        for line in ["python3 - <<'PY'\nprint(1)\nPY", "cat -<<X\na\nX"] {
            let s = parse(line);
            assert!(s.problems.is_empty(), "{line}: {:?}", s.problems);
            assert_eq!(s.commands[0].words.last().unwrap().value, "-", "{line}");
        }
        // Elsewhere it is still a dropped token.
        let s = parse("x=1 - <<X\na\nX");
        assert!(
            s.problems
                .iter()
                .any(|p| matches!(p, Problem::DroppedText(_))),
            "{:?}",
            s.problems
        );
        let s = parse("for f in a b; do\n  echo \"$f\"\ndone");
        assert!(s.problems.is_empty(), "{:?}", s.problems);
    }

    #[test]
    fn heredoc_feeds_stdin_and_redirect_is_recorded() {
        let s = parse("cat <<'EOF' > a.py\nprint(1)\nEOF");
        let c = &s.commands[0];
        assert_eq!(c.redirects[0].target.value, "a.py");
        assert!(
            matches!(&c.stdin, Stdin::Heredoc { literal: true, body } if body.contains("print(1)"))
        );
    }

    /// The sixth misparse: tree-sitter ends a heredoc at `  EOF`; bash
    /// reads on to `EOF` alone. The walk keeps bash's body, flags the
    /// line, and hands what follows bash's end line back to be judged.
    #[test]
    fn a_heredoc_ends_where_bash_ends_it() {
        let s =
            parse_with_tree_sitter("cat <<'EOF' > a.txt\nx\n  EOF\ncat <<'B'\nEOF\nrm -rf ~\nB\n");
        assert!(
            s.problems
                .iter()
                .any(|p| matches!(p, Problem::HeredocEnd(line) if line == "  EOF")),
            "{:?}",
            s.problems
        );
        assert!(
            matches!(&s.commands[0].stdin, Stdin::Heredoc { body, .. } if body == "x\n  EOF\ncat <<'B'\n"),
            "{:?}",
            s.commands[0].stdin
        );
        assert_eq!(s.after_heredoc, vec!["rm -rf ~\nB\n".to_string()]);
        // What tree-sitter made of bash's body is not walked: the `cat
        // <<'B'` it found there is text.
        let texts: Vec<&str> = s.commands.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts.len(), 1, "{texts:?}");
        // Nor is a redirection it hung on the command from there.
        let hung = parse_with_tree_sitter("cat <<'EOF' > n\n  EOF > other.txt\nEOF\n");
        let targets: Vec<&str> = hung.commands[0]
            .redirects
            .iter()
            .map(|r| r.target.value.as_str())
            .collect();
        assert_eq!(targets, ["n"]);
        // `<<-` strips tabs, not spaces; a body with no end line runs to
        // the end of the text, and nothing comes after it.
        let tabs = parse_with_tree_sitter("cat <<-EOF\n\tx\n\tEOF\nls\n");
        assert!(tabs.problems.is_empty(), "{:?}", tabs.problems);
        // Inside `$( )` and backticks the heredoc ends at the closing
        // character at the latest, as bash reads it: no misplaced end.
        for line in [
            "x=$(cat <<EOF\nhi\nEOF)\nls\n",
            "echo `cat <<EOF\nhi\nEOF`\nls\n",
        ] {
            let s = parse_with_tree_sitter(line);
            assert!(s.problems.is_empty(), "{line:?}: {:?}", s.problems);
            assert!(s.commands.iter().any(|c| c.text == "ls"), "{line:?}");
        }
        let open = parse_with_tree_sitter("cat <<EOF\nEOF = 1\n");
        assert!(
            open.problems
                .iter()
                .any(|p| matches!(p, Problem::HeredocEnd(_)))
        );
        assert!(open.after_heredoc.is_empty());
        assert!(
            matches!(&open.commands[0].stdin, Stdin::Heredoc { body, .. } if body == "EOF = 1\n")
        );
    }

    /// tree-sitter reads a `==` or `=~` argument as an operator token;
    /// to bash it is a word, or the start of one (`=='x'` is `==x`).
    #[test]
    fn test_operators_in_arguments_are_words() {
        let words = |line: &str| -> Vec<String> {
            parse_with_tree_sitter(line).commands[0]
                .words
                .iter()
                .map(|w| w.value.clone())
                .collect()
        };
        assert_eq!(words("echo a == b"), ["echo", "a", "==", "b"]);
        assert_eq!(words("echo a =~ b"), ["echo", "a", "=~", "b"]);
        assert_eq!(words("a =='x' == =="), ["a", "==x", "==", "=="]);
    }

    #[test]
    fn pipe_records_producer() {
        let s = parse("curl -s x | sh");
        assert_eq!(s.commands[1].stdin, Stdin::Pipe(0..1));
    }

    /// Functions are in scope only where bash sees them.
    #[test]
    fn functions_resolve_where_bash_sees_them() {
        let callee = |line: &str| {
            parse(line)
                .commands
                .last()
                .map(|c| c.callee)
                .unwrap_or_default()
        };
        assert_eq!(callee("f() { :; }; f"), Callee::Function);
        assert_eq!(callee("f() { :; }; (f)"), Callee::Function);
        assert_eq!(callee("(f() { :; }); f"), Callee::Program);
        assert_eq!(callee("echo $(f() { :; }); f"), Callee::Program);
        assert_eq!(callee("f() { :; } & f"), Callee::Program);
        assert_eq!(callee("f() { :; } | cat; f"), Callee::Program);
        assert_eq!(callee("false && f() { :; }; f"), Callee::Either);
        assert_eq!(callee("if x; then f() { :; }; fi; f"), Callee::Either);
        assert_eq!(callee("f() { :; }; unset -f f; f"), Callee::Program);
        assert_eq!(callee("f() { :; }; unset f; f"), Callee::Either);
        assert_eq!(callee("f() { :; }; eval x; f"), Callee::Either);
        assert_eq!(callee("f() { :; }; command f"), Callee::Program);
    }

    /// A value only run time knows leaves the variable unknown.
    #[test]
    fn values_only_run_time_knows_are_forgotten() {
        for line in [
            "x=ls; read x; $x",
            "x=ls; printf -v x rm; $x",
            "x=ls; mapfile x; $x",
            "x=ls; for x in rm; do :; done; $x",
            "x=ls; f() { x=rm; }; f; $x",
            "f() { x=rm; }; x=ls; f; $x",
            "x=ls; for i in 1 2; do $x; x=rm; done",
            "x=r; x+=m; $x",
            "declare -n r=x; x=ls; r=rm; $x",
            "x=ls; eval x=rm; $x",
            "x=ls; ((x=1)); $x",
            "x=ls; let x=1; $x",
            "x=; : ${x:=rm}; $x",
        ] {
            let s = parse(line);
            let head = s
                .commands
                .iter()
                .find_map(|c| c.words.first().filter(|w| w.source == "$x"));
            assert!(head.is_some_and(|w| w.dynamic), "{line}: {head:?}");
        }
        // Straight-line assignments stay known; a subshell's do not leak.
        for line in ["x=rm; $x", "x=ls; x=rm; $x", "x=rm; (x=ls); $x"] {
            let s = parse(line);
            let head = s.commands.last().and_then(|c| c.words.first());
            assert_eq!(head.map(|w| w.value.as_str()), Some("rm"), "{line}");
        }
    }

    /// Arithmetic over a value with a substitution judges that command;
    /// over an unknown value it is a dynamic script.
    #[test]
    fn arithmetic_reads_values_as_code() {
        let s = parse("x='a[$(rm -rf /)]'; [[ $x -eq 1 ]]");
        assert!(s.nested.iter().any(|n| n == "rm -rf /"), "{:?}", s.nested);
        let s = parse("[[ $n -gt 1 ]]");
        assert!(
            s.problems.iter().any(|p| matches!(p, Problem::Dynamic(_))),
            "{:?}",
            s.problems
        );
        for line in [
            "n=3; (( n > 1 ))",
            "for ((i=0; i<3; i++)); do :; done",
            "[[ $# -eq 0 ]]",
        ] {
            let s = parse(line);
            assert!(s.problems.is_empty(), "{line}: {:?}", s.problems);
        }
    }

    #[test]
    fn literal_variables_resolve() {
        let s = parse("x=rm; $x -rf /");
        let last = s.commands.last().map(|c| c.words[0].value.clone());
        assert_eq!(last.as_deref(), Some("rm"));
    }
}

#[cfg(test)]
mod bounded_tests {
    use super::*;

    /// A parse stopped for reading too much must not leak into the next
    /// one: tree-sitter resumes a stopped parse unless the parser is reset.
    #[test]
    fn a_stopped_parse_leaves_the_parser_clean() {
        let heavy = format!("echo {}", ")".repeat(20_000));
        assert!(parse(&heavy).problems.contains(&Problem::TooComplex));
        let after = parse("ls -la");
        assert!(after.problems.is_empty(), "{:?}", after.problems);
        assert_eq!(after.commands.len(), 1);
        assert_eq!(after.commands[0].words[0].value, "ls");
    }
}
