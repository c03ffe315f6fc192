//! Runs every labelled case in `corpus/*.tsv` and every floor rule's own
//! hit/miss examples, and prints a table of mismatches.
//!
//! A case is `VERDICT<TAB>RULE-or-dash<TAB>COMMAND`; in COMMAND `\n` is a
//! newline, `\t` a tab and `\\` one backslash. Cases run with the working
//! folder `/home/u/proj` and the home folder `/home/u`.

use portcullis::rules::FLOOR_RULES;
use portcullis::{Verdict, evaluate};
use std::collections::BTreeSet;

mod common;

use common::{load_cases, location};

#[test]
fn every_corpus_case_gets_its_verdict() {
    let cases = load_cases();
    let location = location();
    let mut mismatches = Vec::new();
    for case in &cases {
        let decision = evaluate(&case.command, &location);
        let verdict_ok = decision.verdict() == case.verdict;
        let rule_ok = case.rule.as_ref().is_none_or(|r| decision.top.rule == *r);
        if !(verdict_ok && rule_ok) {
            mismatches.push(format!(
                "{}:{}\t{} {}\t{} {}\t{:?}",
                case.file,
                case.line,
                case.verdict,
                case.rule.as_deref().unwrap_or("-"),
                decision.verdict(),
                decision.top.rule,
                case.command
            ));
        }
    }
    if !mismatches.is_empty() {
        eprintln!("file:line\texpected\tgot\tcommand");
        for m in &mismatches {
            eprintln!("{m}");
        }
    }
    println!(
        "{} corpus cases, {} mismatches",
        cases.len(),
        mismatches.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} of {} corpus cases mismatch (table above)",
        mismatches.len(),
        cases.len()
    );
}

#[test]
fn corpus_is_large_enough_and_covers_every_floor_rule() {
    let cases = load_cases();
    assert!(
        cases.len() >= 800,
        "the corpus has {} cases; the issue asks for at least 800",
        cases.len()
    );
    // A floor rule counts when a BLOCKED case's decision holds it, as the
    // top rule or beside a path-law rule that names the same write
    // (`.claude/settings.json` is `trust.executable` first).
    let location = location();
    let hit: BTreeSet<String> = cases
        .iter()
        .filter(|c| c.verdict == Verdict::Blocked)
        .flat_map(|c| evaluate(&c.command, &location).findings)
        .filter(|f| f.verdict == Verdict::Blocked)
        .map(|f| f.rule.to_string())
        .collect();
    let missing: Vec<&str> = FLOOR_RULES
        .iter()
        .map(|r| r.id)
        .filter(|id| !hit.contains(*id))
        .collect();
    assert!(
        missing.is_empty(),
        "floor rules with no BLOCKED corpus case: {missing:?}"
    );
}

#[test]
fn floor_rule_examples_hit_and_miss() {
    let location = location();
    for rule in FLOOR_RULES {
        let hit = evaluate(rule.hit, &location);
        assert!(
            hit.verdict() == Verdict::Blocked
                && hit
                    .findings
                    .iter()
                    .any(|f| f.rule == rule.id && f.verdict == Verdict::Blocked),
            "{}: its hit example `{}` is not blocked by it",
            rule.id,
            rule.hit
        );
        let miss = evaluate(rule.miss, &location);
        assert!(
            miss.findings.iter().all(|f| f.rule != rule.id) && miss.verdict() != Verdict::Blocked,
            "{}: its near miss `{}` is {} {}",
            rule.id,
            rule.miss,
            miss.verdict(),
            miss.top.rule
        );
    }
}

/// `corpus/adversarial.tsv`: at least 300 ways to run a floor command that
/// a naive matcher misses, each never FREE, each followed by its near-miss
/// FREE twin (comments may sit between them).
#[test]
fn adversarial_cases_come_with_free_twins() {
    let cases: Vec<_> = load_cases()
        .into_iter()
        .filter(|c| c.file == "adversarial.tsv")
        .collect();
    assert!(
        cases.len() % 2 == 0,
        "adversarial.tsv has an odd number of cases"
    );
    for pair in cases.chunks(2) {
        let (attack, twin) = (&pair[0], &pair[1]);
        assert_ne!(
            attack.verdict,
            Verdict::Free,
            "adversarial.tsv:{}: an adversarial case must not be expected FREE",
            attack.line
        );
        assert_eq!(
            twin.verdict,
            Verdict::Free,
            "adversarial.tsv:{}: the case after line {} must be its FREE twin",
            twin.line,
            attack.line
        );
    }
    let attacks = cases.len() / 2;
    println!("{attacks} adversarial cases, each with its FREE twin");
    assert!(
        attacks >= 300,
        "{attacks} adversarial cases; the issue asks for at least 300"
    );
}
