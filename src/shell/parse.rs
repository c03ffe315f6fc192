//! The shell lane's parser: one command line in, its simple commands out.
//!
//! The entry points: [`parse`] (the fast path of `plain`, else the
//! tree-sitter walk of `walk`), [`parse_in`], [`parse_with_tree_sitter`]
//! and [`dump_tree`]. The walk itself lives in `walk`, the misparse guards
//! in `guard`, the types in `types`.
//!
//! Parses with tree-sitter-bash and walks the tree once, collecting every
//! simple command wherever it sits (lists, pipelines, subshells, groups,
//! `$( )`, backticks, `<( )`, function bodies, loops, `case`, heredoc
//! commands), each with its words decoded, its redirections, and what feeds
//! its stdin. Anything the walk cannot vouch for becomes a [`Problem`]:
//! parse errors, the two known silent misparses of tree-sitter-bash, and
//! nesting past the depth limit.

use super::close_fd;
use super::heredoc_mask;
use super::sinks::name_sinks;
use super::types::{Callee, Problem, Script};
use super::walk::walk_tree;
use super::word::text;
use crate::grammar::{Grammar, Overworked};
use tree_sitter::Node;

// The general tree-sitter helpers live in `crate::grammar`; the inline
// lanes still reach them by this path.
pub(crate) use crate::grammar::{first_error_node, parse_bounded};

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
        Some(Ok(tree)) => {
            let script = walk_tree(&tree, source, functions);
            if !heredoc_mask::failed(&script) {
                return script;
            }
            close_fd::reparse(&tree, source, functions)
                .or_else(|| heredoc_mask::reparse(source, functions))
                .unwrap_or(script)
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

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests;
