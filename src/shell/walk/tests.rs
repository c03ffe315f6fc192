//! Unit tests of the walk's dispatch: every node kind of tree-sitter-bash
//! is read by an arm or passed through by name.

use super::{HANDLED, PASSED_THROUGH};

/// Lists every named kind of the grammar; one neither handled nor passed
/// through would make every line holding it SIGNED `parse.unsupported`,
/// so a grammar update that adds a kind fails here first.
#[test]
fn every_named_kind_of_the_grammar_is_named_by_the_walk() {
    let language: tree_sitter::Language = tree_sitter_bash::LANGUAGE.into();
    let mut named = 0usize;
    let mut unlisted = Vec::new();
    for id in 0..language.node_kind_count() {
        let Ok(id) = u16::try_from(id) else { continue };
        if !language.node_kind_is_named(id) {
            continue;
        }
        let Some(kind) = language.node_kind_for_id(id) else {
            continue;
        };
        named += 1;
        if !HANDLED.contains(&kind) && !PASSED_THROUGH.contains(&kind) {
            unlisted.push(kind);
        }
    }
    assert!(named > 50, "only {named} named kinds");
    assert!(
        unlisted.is_empty(),
        "kinds the walk does not name: {unlisted:?}"
    );
}

/// The two lists name kinds the grammar has (a typo would let a real kind
/// through unnoticed) and do not overlap.
#[test]
fn listed_kinds_exist_in_the_grammar() {
    let language: tree_sitter::Language = tree_sitter_bash::LANGUAGE.into();
    for kind in HANDLED.iter().chain(PASSED_THROUGH) {
        if *kind == "ERROR" {
            continue;
        }
        assert!(
            language.id_for_node_kind(kind, true) != 0,
            "`{kind}` is no named kind of tree-sitter-bash"
        );
    }
    for kind in HANDLED {
        assert!(!PASSED_THROUGH.contains(kind), "`{kind}` is in both lists");
    }
}
