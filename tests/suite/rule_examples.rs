//! Runs every example written beside a rule in `rules/` and checks coverage.
//!
//! An entry of `rules/wrappers.json`, of `protected` in `rules/law.json`, of
//! `python`/`javascript` in `rules/inline.json` and a lexicon verb,
//! subcommand (at any depth) or `flags` entry may carry `examples`: a list of
//! `{"command": …, "verdict": "FREE|SIGNED|BLOCKED|UNKNOWN", "rule": …}`,
//! `rule` being the deciding rule id or `-` for any. Each runs through
//! [`evaluate`] in an empty temporary working folder, as the corpus does.
//! Every wrapper, every protected path, every inline call with an effect
//! other than `none` and every lexicon verb with subcommands or flags (in
//! the verb, one of its flags or one of its subcommands) must carry at
//! least one, so coverage cannot regress.

use portcullis::evaluate;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

use crate::common;

use common::Scratch;

fn rules() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules")
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One example with the entry it stands beside, for messages.
struct Example {
    owner: String,
    command: String,
    verdict: String,
    rule: String,
}

/// An entry's examples, named after `owner`.
fn examples_of(owner: &str, entry: &Value) -> Vec<Example> {
    entry
        .get("examples")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|example| Example {
            owner: owner.to_string(),
            command: example["command"].as_str().unwrap_or_default().to_string(),
            verdict: example["verdict"].as_str().unwrap_or_default().to_string(),
            rule: example["rule"].as_str().unwrap_or_default().to_string(),
        })
        .collect()
}

fn entries<'a>(file: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    file[key].as_array().into_iter().flatten()
}

fn names(entry: &Value, key: &str) -> String {
    entry[key]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect::<Vec<_>>()
        .join("/")
}

/// A lexicon spec's name: `verb`, `verbs`, `name` or `names`.
fn spec_name(spec: &Value) -> String {
    ["verb", "name"]
        .iter()
        .find_map(|k| spec.get(*k).and_then(Value::as_str).map(str::to_string))
        .unwrap_or_else(|| {
            let verbs = names(spec, "verbs");
            if verbs.is_empty() {
                names(spec, "names")
            } else {
                verbs
            }
        })
}

/// A lexicon spec's examples, those of its flags and those of its
/// subcommands, depth first.
fn spec_examples(owner: &str, spec: &Value, out: &mut Vec<Example>) {
    let name = spec_name(spec);
    let owner = if owner.is_empty() {
        name
    } else {
        format!("{owner} {name}")
    };
    out.extend(examples_of(&owner, spec));
    for flag in entries(spec, "flags") {
        out.extend(examples_of(
            &format!("{owner} {}", names(flag, "flag")),
            flag,
        ));
    }
    for sub in entries(spec, "subs") {
        spec_examples(&owner, sub, out);
    }
}

/// Whether a lexicon spec, one of its flags or one of its subcommands at
/// any depth carries an example.
fn has_example(spec: &Value) -> bool {
    let own = |entry: &Value| {
        entry
            .get("examples")
            .and_then(Value::as_array)
            .is_some_and(|list| !list.is_empty())
    };
    own(spec) || entries(spec, "flags").any(own) || entries(spec, "subs").any(has_example)
}

/// The lexicon files, sorted.
fn lexicon_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(rules().join("lexicon"))
        .expect("rules/lexicon")
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
}

/// Every example under `rules/`.
fn all_examples() -> Vec<Example> {
    let dir = rules();
    let mut out = Vec::new();
    for wrapper in entries(&read_json(&dir.join("wrappers.json")), "wrappers") {
        out.extend(examples_of(
            &format!("wrapper {}", names(wrapper, "names")),
            wrapper,
        ));
    }
    for entry in entries(&read_json(&dir.join("law.json")), "protected") {
        out.extend(examples_of(entry["id"].as_str().unwrap_or_default(), entry));
    }
    let inline = read_json(&dir.join("inline.json"));
    for language in ["python", "javascript"] {
        for call in entries(&inline, language) {
            out.extend(examples_of(
                &format!("{language} {}", names(call, "calls")),
                call,
            ));
        }
    }
    out.extend(examples_of(
        "unknown programs",
        &read_json(&dir.join("unknown.json")),
    ));
    for file in lexicon_files() {
        for spec in entries(&read_json(&file), "verbs") {
            spec_examples("", spec, &mut out);
        }
    }
    out
}

#[test]
fn every_rule_example_gets_its_verdict() {
    let scratch = Scratch::new("rule-examples");
    let location = scratch.location();
    let examples = all_examples();
    let mut mismatches = Vec::new();
    for example in &examples {
        let decision = evaluate(&example.command, &location);
        let verdict = decision.verdict().to_string();
        let rule_ok = example.rule == "-" || decision.top.rule == example.rule;
        if verdict != example.verdict || !rule_ok {
            mismatches.push(format!(
                "{}\t{} {}\t{verdict} {}\t{:?}",
                example.owner, example.verdict, example.rule, decision.top.rule, example.command
            ));
        }
    }
    for m in &mismatches {
        eprintln!("{m}");
    }
    println!(
        "{} rule examples, {} mismatches",
        examples.len(),
        mismatches.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} of {} rule examples mismatch (entry, expected, got, command above)",
        mismatches.len(),
        examples.len()
    );
}

/// The entries of a family that carry no example.
fn bare_entries<'a>(
    family: impl Iterator<Item = &'a Value>,
    name: impl Fn(&Value) -> String,
) -> Vec<String> {
    family
        .filter(|entry| {
            entry
                .get("examples")
                .and_then(Value::as_array)
                .is_none_or(|list| list.is_empty())
        })
        .map(name)
        .collect()
}

#[test]
fn every_wrapper_has_an_example() {
    let file = read_json(&rules().join("wrappers.json"));
    let bare = bare_entries(entries(&file, "wrappers"), |w| names(w, "names"));
    assert!(bare.is_empty(), "wrappers with no example: {bare:?}");
}

#[test]
fn every_protected_path_has_an_example() {
    let file = read_json(&rules().join("law.json"));
    let bare = bare_entries(entries(&file, "protected"), |e| {
        e["id"].as_str().unwrap_or_default().to_string()
    });
    assert!(
        bare.is_empty(),
        "protected entries with no example: {bare:?}"
    );
}

#[test]
fn every_lexicon_verb_with_subcommands_or_flags_has_an_example() {
    let mut bare = Vec::new();
    for file in lexicon_files() {
        let name = file
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        for spec in entries(&read_json(&file), "verbs") {
            let rich = [spec.get("subs"), spec.get("flags")]
                .into_iter()
                .flatten()
                .filter_map(Value::as_array)
                .any(|list| !list.is_empty());
            if rich && !has_example(spec) {
                bare.push(format!("{name}: {}", spec_name(spec)));
            }
        }
    }
    assert!(
        bare.is_empty(),
        "lexicon verbs with subcommands or flags and no example (in the verb, a flag or a \
         subcommand): {bare:?}"
    );
}

#[test]
fn every_inline_call_with_an_effect_has_an_example() {
    let file = read_json(&rules().join("inline.json"));
    for language in ["python", "javascript"] {
        let effectful = entries(&file, language).filter(|c| c["effect"] != "none");
        let bare = bare_entries(effectful, |c| names(c, "calls"));
        assert!(
            bare.is_empty(),
            "{language} calls with no example: {bare:?}"
        );
    }
}
