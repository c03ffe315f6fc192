//! The three tree-sitter grammars (bash, Python, JavaScript), loaded once
//! per process, with the two things every walk asks of them over and over:
//!
//! - a node's kind name, from a table indexed by kind id (tree-sitter's
//!   `Node::kind` finds the C string, measures it and checks its UTF-8 on
//!   every call, and the walks ask it several times a node);
//! - a parser per thread (creating one and setting its language costs more
//!   than parsing a short line).
//!
//! Also the general helpers every lane uses: [`parse_bounded`] (a parse
//! stopped when tree-sitter reads the text over and over) and
//! [`first_error_node`].
//!
//! Takes nodes; returns names and parse trees. Touches nothing else.
#![deny(clippy::indexing_slicing)]

use crate::limits;
use std::cell::RefCell;
use std::sync::{LazyLock, OnceLock};
use tree_sitter::{Language, Node, Parser, Tree};

/// One of the grammars portcullis reads code with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Grammar {
    /// tree-sitter-bash: the shell lane.
    Bash = 0,
    /// tree-sitter-python: the Python lane.
    Python = 1,
    /// tree-sitter-javascript: the JavaScript lane.
    JavaScript = 2,
}

/// Each grammar's language, made on first use: a run that reads only shell
/// never touches the Python or JavaScript tables.
static LANGUAGES: [LazyLock<Language>; 3] = [
    LazyLock::new(|| tree_sitter_bash::LANGUAGE.into()),
    LazyLock::new(|| tree_sitter_python::LANGUAGE.into()),
    LazyLock::new(|| tree_sitter_javascript::LANGUAGE.into()),
];

/// Each grammar's node kind names by id, each read from the grammar's
/// tables the first time a node of that kind is met (reading every name at
/// once cost a hook call 40 k instructions, a quarter of an `ls -la`; a
/// command meets a few dozen kinds).
static KINDS: [LazyLock<Box<[OnceLock<&'static str>]>>; 3] = [
    LazyLock::new(|| kind_slots(Grammar::Bash)),
    LazyLock::new(|| kind_slots(Grammar::Python)),
    LazyLock::new(|| kind_slots(Grammar::JavaScript)),
];

/// One empty slot for each node kind of `grammar`.
fn kind_slots(grammar: Grammar) -> Box<[OnceLock<&'static str>]> {
    (0..grammar.language().node_kind_count())
        .map(|_| OnceLock::new())
        .collect()
}

thread_local! {
    static PARSERS: RefCell<[Option<Parser>; 3]> = const { RefCell::new([None, None, None]) };
}

impl Grammar {
    /// This grammar's entry of a table with one entry a grammar, in the
    /// order of the variants.
    fn of<T>(self, table: &[T; 3]) -> &T {
        let [bash, python, javascript] = table;
        match self {
            Grammar::Bash => bash,
            Grammar::Python => python,
            Grammar::JavaScript => javascript,
        }
    }

    /// [`Grammar::of`], for a table to change.
    fn of_mut<T>(self, table: &mut [T; 3]) -> &mut T {
        let [bash, python, javascript] = table;
        match self {
            Grammar::Bash => bash,
            Grammar::Python => python,
            Grammar::JavaScript => javascript,
        }
    }

    /// The grammar's language.
    pub(crate) fn language(self) -> &'static Language {
        let language: &'static LazyLock<Language> = self.of(&LANGUAGES);
        language
    }

    /// The kind name of `node`, a node of this grammar's trees: the same
    /// text as `node.kind()`, without the lookup.
    pub(crate) fn kind(self, node: Node) -> &'static str {
        // The two built-in ids tree-sitter names itself (ts_node_type).
        match node.kind_id() {
            u16::MAX => "ERROR",
            0xFFFE => "_ERROR",
            id => match self.of(&KINDS).get(usize::from(id)) {
                Some(slot) => match slot.get() {
                    Some(name) => name,
                    None => self.first_kind_name(slot, id),
                },
                None => "",
            },
        }
    }

    /// The kind name of id `id`, read from the grammar into its empty slot.
    #[cold]
    #[inline(never)]
    fn first_kind_name(self, slot: &OnceLock<&'static str>, id: u16) -> &'static str {
        slot.get_or_init(|| self.language().node_kind_for_id(id).unwrap_or(""))
    }

    /// Runs `f` with this thread's parser for the grammar, created on first
    /// use; `None` when the grammar does not load. A parser already in use
    /// further up the stack is not shared: `f` gets a new one.
    pub(crate) fn with_parser<R>(self, f: impl FnOnce(&mut Parser) -> R) -> Option<R> {
        let fresh = || {
            let mut parser = Parser::new();
            parser.set_language(self.language()).ok().map(|()| parser)
        };
        PARSERS.with(|cell| match cell.try_borrow_mut() {
            Ok(mut parsers) => {
                let slot = self.of_mut(&mut parsers);
                if slot.is_none() {
                    *slot = fresh();
                }
                slot.as_mut().map(f)
            }
            Err(_) => fresh().as_mut().map(f),
        })
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

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    /// The table gives what `Node::kind` gives, for every node of trees
    /// that include errors and missing nodes.
    #[test]
    fn kind_names_match_tree_sitter() {
        let samples = [
            (
                Grammar::Bash,
                "a=1 b | c && (d $(e) <<X) >f\nx\nX\nif ]; then",
            ),
            (Grammar::Python, "import os\nos.system(f'{x}')\ndef f(:"),
            (Grammar::JavaScript, "require('fs').rm(`${x}`, {r: 1}); ({"),
        ];
        for (grammar, code) in samples {
            let tree = grammar
                .with_parser(|p| p.parse(code, None))
                .flatten()
                .expect("a tree");
            let mut cursor = tree.walk();
            let mut seen = 0;
            'walk: loop {
                let node = cursor.node();
                assert_eq!(grammar.kind(node), node.kind(), "{grammar:?} {code}");
                seen += 1;
                if cursor.goto_first_child() {
                    continue;
                }
                while !cursor.goto_next_sibling() {
                    if !cursor.goto_parent() {
                        break 'walk;
                    }
                }
            }
            assert!(seen > 10, "{grammar:?}: only {seen} nodes");
            assert!(
                tree.root_node().has_error(),
                "{grammar:?}: the sample has an error"
            );
        }
    }

    /// A parser in use is not handed out twice.
    #[test]
    fn nested_use_gets_its_own_parser() {
        let inner = Grammar::Python.with_parser(|outer| {
            let inner = Grammar::Python
                .with_parser(|p| p.parse("x = 1", None))
                .flatten();
            (outer.parse("y = 2", None), inner)
        });
        let (outer, inner) = inner.expect("parsers");
        assert!(outer.is_some() && inner.is_some());
    }
}
