//! Every rule id the engine emits is listed by `portcullis rules`.
//!
//! Rule ids are a type (`portcullis::rule_id`): a fixed rule is a variant of
//! one table that the listing prints whole, and an id built from data (a
//! lexicon path, a wrapper, an inline lane's effect) has a row of its
//! family. This runs every labelled corpus case and every floor rule's own
//! examples, collects the id of every finding (not only the deciding one),
//! and checks that each has its row in the listing and names something the
//! rules hold (a verb of the lexicon, a wrapper of `rules/wrappers.json`).

use portcullis::catalogue::{listing, row_of};
use portcullis::rule_id::{Rule, RuleId};
use portcullis::rules::FLOOR_RULES;
use portcullis::{Location, evaluate};
use std::collections::{BTreeMap, BTreeSet};

use crate::common;

use common::{Places, Scratch, load_cases};

/// The ids of every finding of every corpus case and floor example, each
/// with the first command that emitted it.
fn emitted() -> BTreeMap<String, (RuleId, String)> {
    let places = Places::load();
    let scratch = Scratch::new("rule-listing");
    let mut runs: Vec<(String, Location)> = load_cases()
        .iter()
        .map(|case| places.of(case, &scratch))
        .collect();
    for rule in FLOOR_RULES {
        for example in [rule.hit, rule.miss] {
            runs.push((example.to_string(), scratch.location()));
        }
    }
    let mut ids = BTreeMap::new();
    for (command, location) in &runs {
        for finding in evaluate(command, location).findings {
            ids.entry(finding.rule.to_string())
                .or_insert_with(|| (finding.rule.clone(), command.clone()));
        }
    }
    ids
}

#[test]
fn every_emitted_id_is_listed() {
    let text = listing();
    let rows: BTreeSet<&str> = text
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    let ids = emitted();
    let mut unlisted = Vec::new();
    for (shown, (id, command)) in &ids {
        match row_of(id) {
            Some(row) if rows.contains(row.as_str()) => {}
            Some(row) => unlisted.push(format!("{shown}: row {row} missing ({command:?})")),
            None => unlisted.push(format!(
                "{shown}: names nothing the rules hold ({command:?})"
            )),
        }
    }
    assert!(
        unlisted.is_empty(),
        "unlisted ids:\n{}",
        unlisted.join("\n")
    );
    // The corpus reaches every family; a run that found few ids did not
    // run what it should.
    let families: BTreeSet<String> = ids
        .keys()
        .map(|id| id.split('.').next().unwrap_or("").to_string())
        .collect();
    for family in [
        "floor", "lexicon", "wrapper", "inline", "parse", "write", "setting", "cage", "trust",
    ] {
        assert!(families.contains(family), "no {family}.* id emitted");
    }
    assert!(ids.len() > 300, "only {} distinct ids emitted", ids.len());
}

#[test]
fn every_fixed_and_floor_rule_has_a_row() {
    let text = listing();
    for rule in Rule::ALL {
        let row = row_of(&RuleId::from(*rule)).unwrap_or_default();
        assert_eq!(row, rule.id());
        assert!(
            text.contains(&format!("\n{:<32} {}\n", rule.id(), rule.meaning())),
            "{rule} is not listed with its meaning"
        );
    }
    for rule in FLOOR_RULES {
        assert_eq!(
            row_of(&RuleId::from(rule.rule)).as_deref(),
            Some(rule.id),
            "{}",
            rule.id
        );
        assert!(text.contains(&format!("\n{:<32} ", rule.id)), "{}", rule.id);
    }
}

#[test]
fn ids_naming_nothing_the_rules_hold_are_not_listed() {
    assert_eq!(row_of(&RuleId::lexicon(&["no-such-verb-here"], None)), None);
    assert_eq!(row_of(&RuleId::Wrapper("no-such-wrapper")), None);
    assert_eq!(
        row_of(&RuleId::Inline(
            "cobol",
            portcullis::rule_id::InlineRule::Pure
        )),
        None
    );
    assert!(row_of(&RuleId::lexicon(&["git", "push"], None)).is_some());
    assert!(row_of(&RuleId::Wrapper("sudo")).is_some());
}
