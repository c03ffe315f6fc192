//! Runs every labelled case in `corpus/*.tsv` and every floor rule's own
//! hit/miss examples, and prints a table of mismatches.
//!
//! A case is `VERDICT<TAB>RULE-or-dash<TAB>COMMAND`; in COMMAND `\n` is a
//! newline, `\t` a tab and `\\` one backslash. Cases run with the working
//! folder `/home/u/proj` and the home folder `/home/u`.

use portcullis::rules::FLOOR_RULES;
use portcullis::{Location, Verdict, evaluate};
use std::collections::BTreeSet;
use std::path::Path;

struct Case {
    file: String,
    line: usize,
    verdict: Verdict,
    rule: Option<String>,
    command: String,
}

fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('n') => {
                    chars.next();
                    out.push('\n');
                }
                Some('t') => {
                    chars.next();
                    out.push('\t');
                }
                Some('\\') => {
                    chars.next();
                    out.push('\\');
                }
                _ => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn load_cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.splitn(3, '\t');
            let (Some(verdict), Some(rule), Some(command)) =
                (parts.next(), parts.next(), parts.next())
            else {
                panic!(
                    "{name}:{}: expected VERDICT<TAB>RULE<TAB>COMMAND, got {line:?}",
                    i + 1
                );
            };
            let verdict = Verdict::parse(verdict)
                .unwrap_or_else(|| panic!("{name}:{}: unknown verdict {verdict:?}", i + 1));
            cases.push(Case {
                file: name.clone(),
                line: i + 1,
                verdict,
                rule: (rule != "-").then(|| rule.to_string()),
                command: unescape(command),
            });
        }
    }
    cases
}

fn location() -> Location {
    Location {
        cwd: Some("/home/u/proj".into()),
        home: Some("/home/u".into()),
    }
}

#[test]
fn every_corpus_case_gets_its_verdict() {
    let cases = load_cases();
    let location = location();
    let mut mismatches = Vec::new();
    for case in &cases {
        let decision = evaluate(&case.command, &location);
        let verdict_ok = decision.verdict() == case.verdict;
        let rule_ok = case.rule.as_ref().is_none_or(|r| *r == decision.top.rule);
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
    let hit: BTreeSet<&str> = cases
        .iter()
        .filter(|c| c.verdict == Verdict::Blocked)
        .filter_map(|c| c.rule.as_deref())
        .collect();
    let missing: Vec<&str> = FLOOR_RULES
        .iter()
        .map(|r| r.id)
        .filter(|id| !hit.contains(id))
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
        assert_eq!(
            (hit.verdict(), hit.top.rule.as_str()),
            (Verdict::Blocked, rule.id),
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
