//! Closed option sets (issue 14, item 1): every verb and subcommand whose
//! class is free lists the options it accepts, and an option outside that
//! set is never FREE.
//!
//! 1. In `rules/lexicon/*.json`, every spec of a free class written out in
//!    `verbs` declares `opts` (`[]` when it takes none but its value
//!    options); a verb known by its class alone (`classes`) accepts none.
//! 2. For every free spec in the compiled lexicon, the command with an
//!    option no program has (`--portcullis-no-such-option`, and a one-letter
//!    `-%`) is not FREE; nor is it with a word that only becomes an option at
//!    run time, for a verb whose options can raise its class.

use portcullis::rules::{Spec, lexicon};
use portcullis::{Effect, Verdict, evaluate};
use serde_json::Value;
use std::path::Path;

use crate::common;

use common::Scratch;

const FREE_CLASSES: &[&str] = &["inspect", "build", "test", "format"];

/// `(path, spec)` for every spec of every lexicon file, subs included.
fn json_specs() -> Vec<(String, Value)> {
    fn walk(spec: &Value, path: &str, out: &mut Vec<(String, Value)>) {
        let names: Vec<String> = ["verb", "name"]
            .iter()
            .filter_map(|k| spec.get(*k).and_then(Value::as_str).map(String::from))
            .chain(
                ["verbs", "names"]
                    .iter()
                    .filter_map(|k| spec.get(*k).and_then(Value::as_array))
                    .flatten()
                    .filter_map(|v| v.as_str().map(String::from)),
            )
            .collect();
        let here = format!("{path} {}", names.join("|")).trim().to_string();
        out.push((here.clone(), spec.clone()));
        for sub in spec
            .get("subs")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            walk(sub, &here, out);
        }
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/lexicon");
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    for file in files {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let json: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for spec in json
            .get("verbs")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            walk(spec, &name, &mut out);
        }
    }
    out
}

#[test]
fn every_free_spec_declares_its_options() {
    let specs = json_specs();
    assert!(specs.len() > 1000, "only {} specs read", specs.len());
    let missing: Vec<&str> = specs
        .iter()
        .filter(|(_, spec)| {
            spec.get("class")
                .and_then(Value::as_str)
                .is_some_and(|c| FREE_CLASSES.contains(&c))
                && spec.get("opts").is_none()
        })
        .map(|(path, _)| path.as_str())
        .collect();
    assert!(
        missing.is_empty(),
        "{} free specs do not list their options:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

/// Every compiled spec with the words that reach it (`["git", "log"]`).
fn compiled_specs() -> Vec<(Vec<&'static str>, &'static Spec)> {
    fn walk(
        spec: &'static Spec,
        path: Vec<&'static str>,
        out: &mut Vec<(Vec<&'static str>, &'static Spec)>,
    ) {
        for sub in spec.subs() {
            let mut deeper = path.clone();
            deeper.push(sub.name());
            walk(sub, deeper, out);
        }
        out.push((path, spec));
    }
    let mut out = Vec::new();
    for verb in lexicon() {
        walk(verb, vec![verb.name()], &mut out);
    }
    out
}

/// Whether a spec is free by its class, and reads options at all.
fn is_free(spec: &Spec) -> bool {
    matches!(
        spec.class,
        Effect::Inspect | Effect::Build | Effect::Test | Effect::Format
    )
}

#[test]
fn an_option_outside_the_set_is_never_free() {
    let scratch = Scratch::new("options");
    let location = scratch.location();
    let mut checked = 0;
    let mut free = Vec::new();
    for (path, spec) in compiled_specs() {
        if !is_free(spec) || spec.unknown_is_operand {
            continue;
        }
        // A word of the path that is not a plain name (`[[`) is no command.
        if path.iter().any(|p| p.contains(['[', ']'])) {
            continue;
        }
        for option in ["--portcullis-no-such-option", "-%"] {
            let command = format!("{} {option} x", path.join(" "));
            checked += 1;
            let decision = evaluate(&command, &location);
            if decision.verdict() == Verdict::Free {
                free.push(format!("{command:?}: {}", decision.top.rule));
            }
        }
    }
    assert!(checked > 1000, "only {checked} commands checked");
    assert!(
        free.is_empty(),
        "{} of {checked} are FREE:\n{}",
        free.len(),
        free.join("\n")
    );
}

#[test]
fn a_run_time_word_in_option_position_is_not_free_where_options_matter() {
    let scratch = Scratch::new("options");
    let location = scratch.location();
    for command in [
        "tar -tf x.tar $OPTS",
        "tar -tf x.tar \"$(cat opts)\"",
        "tar -tf x.tar *",
        "git log $FLAGS",
    ] {
        let decision = evaluate(command, &location);
        assert_ne!(
            decision.verdict(),
            Verdict::Free,
            "{command}: {}",
            decision.top.rule
        );
    }
    // After `--` the same words are operands.
    for command in ["ls -- $DIR", "cat -- \"$f\""] {
        let decision = evaluate(command, &location);
        assert_eq!(
            decision.verdict(),
            Verdict::Free,
            "{command}: {}",
            decision.top.rule
        );
    }
}
