//! The three tree-sitter grammars (bash, Python, JavaScript), loaded once
//! per process, with the two things every walk asks of them over and over:
//!
//! - a node's kind name, from a table indexed by kind id (tree-sitter's
//!   `Node::kind` finds the C string, measures it and checks its UTF-8 on
//!   every call, and the walks ask it several times a node);
//! - a parser per thread (creating one and setting its language costs more
//!   than parsing a short line).
//!
//! Takes nodes; returns names and parse trees. Touches nothing else.

use std::cell::RefCell;
use std::sync::LazyLock;
use tree_sitter::{Language, Node, Parser};

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

static LANGUAGES: LazyLock<[Language; 3]> = LazyLock::new(|| {
    [
        tree_sitter_bash::LANGUAGE.into(),
        tree_sitter_python::LANGUAGE.into(),
        tree_sitter_javascript::LANGUAGE.into(),
    ]
});

static KINDS: LazyLock<[Vec<&'static str>; 3]> = LazyLock::new(|| {
    let languages: &'static [Language; 3] = &LANGUAGES;
    languages.each_ref().map(|language| {
        (0..language.node_kind_count())
            .map(|id| {
                u16::try_from(id)
                    .ok()
                    .and_then(|id| language.node_kind_for_id(id))
                    .unwrap_or("")
            })
            .collect()
    })
});

thread_local! {
    static PARSERS: RefCell<[Option<Parser>; 3]> = const { RefCell::new([None, None, None]) };
}

impl Grammar {
    /// The grammar's language.
    pub(crate) fn language(self) -> &'static Language {
        &LANGUAGES[self as usize]
    }

    /// The kind name of `node`, a node of this grammar's trees: the same
    /// text as `node.kind()`, without the lookup.
    pub(crate) fn kind(self, node: Node) -> &'static str {
        // The two built-in ids tree-sitter names itself (ts_node_type).
        match node.kind_id() {
            u16::MAX => "ERROR",
            0xFFFE => "_ERROR",
            id => KINDS[self as usize]
                .get(usize::from(id))
                .copied()
                .unwrap_or(""),
        }
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
                let slot = &mut parsers[self as usize];
                if slot.is_none() {
                    *slot = fresh();
                }
                slot.as_mut().map(f)
            }
            Err(_) => fresh().as_mut().map(f),
        })
    }
}

#[cfg(test)]
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
