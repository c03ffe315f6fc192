//! A second reading for a line where tree-sitter-bash misreads a closed
//! descriptor followed by words.
//!
//! `<&-` and `>&-` (`2>&-`) close a descriptor and take no word: bash reads
//! the words after them as the command's, so `sudo <&- rm -rf ~` runs
//! `rm -rf ~` with stdin closed. tree-sitter-bash takes one word after the
//! operator as its target and fails on the next: `-rf ~` lands in an ERROR,
//! and the command it belongs to is lost (the line was only a parse error,
//! SIGNED, where the floor blocks it).
//!
//! When the first reading fails and the tree holds such an operator as a
//! token (never text inside quotes, a heredoc body or a comment), [`reparse`]
//! parses the line with each one written as a duplication of the same
//! length: `<&-` as `<&0`, `>&-` as `>&1`, the operator `<&` or `>&` and a
//! one-byte target. tree-sitter reads the words after a duplication's
//! target as more targets, which the walk gives back to the command. The
//! tree is walked over the original text, so the walk sees `<&` with the
//! target `-`: a descriptor closed, nothing written. The reading is kept
//! only when it is clean and each rewritten byte is read as exactly that
//! target.
//!
//! Takes the line; returns the script, or `None` when there is nothing to
//! rewrite or the second reading is not clean (the first reading's
//! problems then stand).

use super::heredoc_mask::failed;
use super::parse::kind;
use super::types::{Callee, Problem, Script};
use super::walk::walk_tree;
use crate::grammar::{Grammar, parse_bounded};
use tree_sitter::{Node, Tree};

/// The script of `source` read with its closing operators written as
/// duplications, when that reading is clean (see the module doc). `first`
/// is the tree of the reading that failed.
pub(super) fn reparse(
    first: &Tree,
    source: &str,
    functions: &[(String, Callee)],
) -> Option<Script> {
    let dashes = closing_dashes(first.root_node(), source.as_bytes());
    if dashes.is_empty() {
        return None;
    }
    let mut rewritten = source.as_bytes().to_vec();
    for &(at, digit) in &dashes {
        *rewritten.get_mut(at)? = digit;
    }
    // Only an ASCII `-` became an ASCII digit: still UTF-8.
    let rewritten = String::from_utf8(rewritten).ok()?;
    let tree = Grammar::Bash.with_parser(|parser| parse_bounded(parser, &rewritten).ok())??;
    let root = tree.root_node();
    if crate::grammar::first_error_node(root).is_some()
        || !dashes
            .iter()
            .all(|&(at, _)| read_as_target(root, rewritten.as_bytes(), at))
    {
        return None;
    }
    let script = walk_tree(&tree, source, functions);
    (!failed(&script) && !script.problems.contains(&Problem::TooComplex)).then_some(script)
}

/// The byte offsets of the `-` of every `<&-` and `>&-` token in the tree,
/// each with the digit that makes it a duplication (`0` after `<&`, `1`
/// after `>&`).
fn closing_dashes(root: Node, src: &[u8]) -> Vec<(usize, u8)> {
    let mut found = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        let digit = match kind(node) {
            "<&-" => Some(b'0'),
            ">&-" => Some(b'1'),
            _ => None,
        };
        if let Some(digit) = digit {
            let dash = node.end_byte().saturating_sub(1);
            if !node.is_named() && src.get(dash) == Some(&b'-') {
                found.push((dash, digit));
            }
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
    }
    found
}

/// Whether the byte at `at` is, in the tree, a whole target of a file
/// redirection right after its `<&` or `>&` operator.
fn read_as_target(root: Node, src: &[u8], at: usize) -> bool {
    let Some(target) = root.descendant_for_byte_range(at, at + 1) else {
        return false;
    };
    let whole = target.start_byte() == at && target.end_byte() == at + 1;
    let operator = target.prev_sibling().filter(|op| {
        op.end_byte() == at && matches!(src.get(op.start_byte()..at), Some(b"<&" | b">&"))
    });
    whole && operator.is_some() && target.parent().is_some_and(|p| kind(p) == "file_redirect")
}
