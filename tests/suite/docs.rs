//! The documentation against the code it describes.
//!
//! `docs/rules.md` is generated from `rules/` by [`render_rules`], and
//! `docs/lexicon.md` (the lexicon's examples) by [`render_lexicon_examples`]:
//! these tests render them again and fail when a file on disk differs. After
//! changing a file under `rules/`, regenerate them with
//! `PORTCULLIS_BLESS=1 cargo test --release --test suite docs::`.
//!
//! The other tests keep the docs honest: every rule file is named in
//! `rules/README.md`, and every repository path the docs name exists.

use serde_json::Value;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// The generated catalogue stays small enough to read and to review.
const MAX_RULES_MD_BYTES: usize = 150 * 1024;

/// The generated page of lexicon examples stays under the repository's
/// limit for one file.
const MAX_LEXICON_MD_BYTES: usize = 200 * 1024;

/// How many names of a list of known pure calls `docs/rules.md` shows.
const PURE_SHOWN: usize = 8;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `*.json` files of a folder, sorted by name.
fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

// ---------------------------------------------------------------- markdown

/// Text on one line, safe in a table cell.
fn cell(text: &str) -> String {
    text.replace('\n', " ").replace('|', "\\|")
}

/// A code span on one line, safe in a table cell, whatever backticks it holds.
fn code(text: &str) -> String {
    if text.is_empty() {
        return "`\"\"` (empty)".to_string();
    }
    let text = cell(text);
    let mut fence = String::from("`");
    while text.contains(fence.as_str()) {
        fence.push('`');
    }
    if fence.len() > 1 || text.starts_with('`') || text.ends_with('`') {
        format!("{fence} {text} {fence}")
    } else {
        format!("`{text}`")
    }
}

/// A bare name in a long list (no code span, to keep the file small), with
/// the characters markdown would read as markup escaped.
fn bare(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '<' | '>' | '[' | ']' | '|' | '#'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The first sentence of a file's `about` (its section has the rest).
fn first_sentence(text: &str) -> &str {
    match text.find(". ") {
        Some(end) => &text[..=end],
        None => text,
    }
}

fn str_of<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The strings of an array (numbers and booleans as text).
fn strings(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| match item {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect(),
        Some(Value::String(s)) => vec![s.clone()],
        _ => Vec::new(),
    }
}

fn codes(items: &[String]) -> String {
    items.iter().map(|s| code(s)).collect::<Vec<_>>().join(", ")
}

fn bares(items: &[String]) -> String {
    items.iter().map(|s| bare(s)).collect::<Vec<_>>().join(", ")
}

/// A JSON scalar or list as short text, for fields shown as they are.
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => code(s),
        Value::Array(_) => codes(&strings(Some(value))),
        other => code(&other.to_string()),
    }
}

fn about(out: &mut String, value: &Value) {
    let text = str_of(value, "about");
    if !text.is_empty() {
        let _ = writeln!(out, "{}\n", text.replace('\n', " "));
    }
}

// ---------------------------------------------------------------- sections

/// An entry's `examples`, each as its command, verdict and rule, or nothing.
fn examples(entry: &Value) -> String {
    entry
        .get("examples")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|example| {
            let rule = str_of(example, "rule");
            let rule = if rule == "-" {
                String::new()
            } else {
                format!(" {}", code(rule))
            };
            format!(
                "{} → {}{rule}",
                code(str_of(example, "command")),
                str_of(example, "verdict")
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn render_floor(out: &mut String, floor: &Value) {
    out.push_str("## The blocked floor: `rules/floor.json`\n\n");
    about(out, floor);
    out.push_str(
        "Every rule is BLOCKED and no configuration lowers it (`src/floor/`).\n\n\
         | rule | reason | hit | near miss | remediation |\n|---|---|---|---|---|\n",
    );
    for rule in floor["rules"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            code(str_of(rule, "id")),
            cell(str_of(rule, "reason")),
            code(str_of(rule, "hit")),
            code(str_of(rule, "miss")),
            cell(str_of(rule, "remediation")),
        );
    }
    out.push('\n');
}

fn render_law(out: &mut String, law: &Value) {
    out.push_str("## The path law's built-in rules: `rules/law.json`\n\n");
    about(out, law);
    out.push_str("### Protected paths (`protected`)\n\n");
    for rule in law["protected"].as_array().into_iter().flatten() {
        let mut verdict = str_of(rule, "verdict").to_string();
        if verdict.is_empty() {
            verdict = "per policy".to_string();
        }
        let frozen = str_of(rule, "frozen");
        if !frozen.is_empty() {
            let _ = write!(verdict, "; frozen: {frozen}");
        }
        let _ = writeln!(
            out,
            "- **{}** ({verdict}): {} ({}).",
            code(str_of(rule, "id")),
            cell(str_of(rule, "what")),
            cell(str_of(rule, "source")),
        );
        let _ = writeln!(out, "  Paths: {}.", codes(&strings(rule.get("paths"))));
        let except = strings(rule.get("except"));
        if !except.is_empty() {
            let _ = writeln!(out, "  Except: {}.", codes(&except));
        }
        if let Value::Object(fields) = rule {
            for (key, value) in fields {
                if !matches!(
                    key.as_str(),
                    "id" | "what"
                        | "source"
                        | "verdict"
                        | "frozen"
                        | "paths"
                        | "except"
                        | "remediation"
                        | "examples"
                ) {
                    let _ = writeln!(out, "  `{key}`: {}.", shown(value));
                }
            }
        }
        let remediation = str_of(rule, "remediation");
        if !remediation.is_empty() {
            let _ = writeln!(out, "  Instead: {}", cell(remediation));
        }
        let examples = examples(rule);
        if !examples.is_empty() {
            let _ = writeln!(out, "  Examples: {examples}.");
        }
    }
    out.push('\n');
    if let Some(Value::Object(frozen)) = law.get("frozen_commands") {
        out.push_str("### What a dependency freeze blocks (`frozen_commands`)\n\n");
        about(out, &law["frozen_commands"]);
        for (key, value) in frozen {
            if key != "about" {
                let _ = writeln!(out, "- {}: {}", code(key), codes(&strings(Some(value))));
            }
        }
        out.push('\n');
    }
    if let Some(secrets) = law.get("secret_commands") {
        out.push_str("### Commands that print credentials (`secret_commands`)\n\n");
        about(out, secrets);
        let _ = writeln!(out, "{}\n", codes(&strings(secrets.get("commands"))));
    }
    if let Some(reads) = law.get("network_reads") {
        out.push_str("### Inspection that reads the network (`network_reads`)\n\n");
        about(out, reads);
        let _ = writeln!(out, "{}\n", codes(&strings(reads.get("commands"))));
    }
}

fn render_wrappers(out: &mut String, wrappers: &Value) {
    out.push_str("## Wrappers: `rules/wrappers.json`\n\n");
    about(out, wrappers);
    out.push_str(
        "Peeled by `src/peel.rs`; rule id `wrapper.<name>` when the wrapper itself decides.\n\n\
         | wrapper | class | alone | how the command is found | note | examples |\n\
         |---|---|---|---|---|---|\n",
    );
    for wrapper in wrappers["wrappers"].as_array().into_iter().flatten() {
        let mut how = Vec::new();
        if let Value::Object(fields) = wrapper {
            for (key, value) in fields {
                if matches!(
                    key.as_str(),
                    "names" | "class" | "alone" | "note" | "examples"
                ) {
                    continue;
                }
                match value {
                    Value::Array(items) => how.push(format!("{key} ({})", items.len())),
                    Value::Bool(true) => how.push(key.clone()),
                    Value::Bool(false) | Value::Null => {}
                    other => how.push(format!("{key} {}", shown(other))),
                }
            }
        }
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            codes(&strings(wrapper.get("names"))),
            str_of(wrapper, "class"),
            str_of(wrapper, "alone"),
            cell(&how.join(", ")),
            cell(str_of(wrapper, "note")),
            examples(wrapper),
        );
    }
    out.push('\n');
    if let Some(shells) = wrappers.get("shells") {
        out.push_str("### Shells (`shells`)\n\n");
        about(out, shells);
        let _ = writeln!(
            out,
            "Names: {}. Options with a value: {}.\n",
            codes(&strings(shells.get("names"))),
            codes(&strings(shells.get("value_opts"))),
        );
    }
}

/// A file whose fields are lists of names: one line a list.
fn render_lists(out: &mut String, title: &str, value: &Value, note: &str) {
    let _ = writeln!(out, "## {title}\n");
    about(out, value);
    if !note.is_empty() {
        let _ = writeln!(out, "{note}\n");
    }
    if let Value::Object(fields) = value {
        for (key, field) in fields {
            match field {
                Value::Array(items) if items.iter().all(Value::is_string) => {
                    let names = strings(Some(field));
                    let _ = writeln!(out, "- {} ({}): {}", code(key), names.len(), codes(&names));
                }
                Value::Array(items) => {
                    let _ = writeln!(out, "- {}:", code(key));
                    for item in items {
                        let _ = writeln!(out, "  - {}", object_line(item));
                    }
                }
                Value::Object(map) => {
                    let pairs: Vec<String> = map
                        .iter()
                        .map(|(k, v)| format!("{} → {}", code(k), shown(v)))
                        .collect();
                    let _ = writeln!(out, "- {}: {}", code(key), pairs.join(", "));
                }
                Value::String(_) if key == "about" => {}
                other => {
                    let _ = writeln!(out, "- {}: {}", code(key), shown(other));
                }
            }
        }
    }
    out.push('\n');
}

/// An object as `key: value; key: value`.
fn object_line(item: &Value) -> String {
    match item {
        Value::Object(fields) => fields
            .iter()
            .map(|(key, value)| format!("{key}: {}", shown(value)))
            .collect::<Vec<_>>()
            .join("; "),
        other => shown(other),
    }
}

fn render_rewrites(out: &mut String, rewrites: &Value) {
    out.push_str("## Formatters and fixers: `rules/rewrites.json`\n\n");
    about(out, rewrites);
    out.push_str(
        "| command | files it rewrites | with no operand | other fields |\n|---|---|---|---|\n",
    );
    for formatter in rewrites["formatters"].as_array().into_iter().flatten() {
        let mut rest = Vec::new();
        if let Value::Object(fields) = formatter {
            for (key, value) in fields {
                if !matches!(key.as_str(), "command" | "files" | "bare") {
                    rest.push(format!("{key}: {}", shown(value)));
                }
            }
        }
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            code(str_of(formatter, "command")),
            codes(&strings(formatter.get("files"))),
            str_of(formatter, "bare"),
            cell(&rest.join("; ")),
        );
    }
    out.push('\n');
}

fn render_inline(out: &mut String, inline: &Value) {
    out.push_str("## Inline code: `rules/inline.json`\n\n");
    about(out, inline);
    out.push_str(
        "Read by `src/inline/`. Rule ids `inline.<python|js>.<effect>`; effect `none` is a known \
         pure call (`inline.python.pure`, `inline.js.pure`; the long lists of them are cut after \
         their first names here, `rules/inline.json` has them all). `*.name` is a method on any \
         receiver, `module.*` every name under a module.\n\n\
         | effect | what it does | remediation |\n|---|---|---|\n",
    );
    if let Some(Value::Object(effects)) = inline.get("effects") {
        for (name, effect) in effects {
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                code(name),
                cell(str_of(effect, "does")),
                cell(str_of(effect, "remediation")),
            );
        }
    }
    out.push('\n');
    for language in ["python", "javascript"] {
        let _ = writeln!(out, "### {language}\n");
        for entry in inline[language].as_array().into_iter().flatten() {
            let mut extra = Vec::new();
            if let Value::Object(fields) = entry {
                for (key, value) in fields {
                    if !matches!(key.as_str(), "calls" | "effect" | "examples") {
                        extra.push(format!("{key} {}", shown(value)));
                    }
                }
            }
            let extra = if extra.is_empty() {
                String::new()
            } else {
                format!(" ({})", extra.join("; "))
            };
            let mut calls = strings(entry.get("calls"));
            let effect = str_of(entry, "effect");
            let all = calls.len();
            // The known pure calls are long lists: their first names say
            // what a list is about; `rules/inline.json` has them all.
            if effect == "none" && all > PURE_SHOWN {
                calls.truncate(PURE_SHOWN);
                calls.push(format!("… ({all} in all)"));
            }
            let examples = examples(entry);
            let examples = if examples.is_empty() {
                String::new()
            } else {
                format!(". Examples: {examples}")
            };
            let _ = writeln!(out, "- **{effect}**{extra}: {}{examples}", bares(&calls));
        }
        out.push('\n');
    }
}

/// The subcommand names of a spec, grouped by class in order of appearance.
fn subs_by_class(spec: &Value) -> Vec<(String, Vec<String>)> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for sub in spec["subs"].as_array().into_iter().flatten() {
        let class = str_of(sub, "class").to_string();
        let mut names = strings(sub.get("names"));
        if names.is_empty() {
            names = strings(sub.get("name"));
        }
        match groups.iter_mut().find(|(c, _)| *c == class) {
            Some((_, list)) => list.extend(names),
            None => groups.push((class, names)),
        }
    }
    groups
}

/// Every sub below a spec, at any depth.
fn nested_subs(spec: &Value) -> usize {
    spec["subs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|sub| {
            let names = strings(sub.get("names")).len().max(1);
            names * (1 + nested_subs(sub))
        })
        .sum()
}

fn render_spec(out: &mut String, spec: &Value) {
    let mut names = strings(spec.get("verbs"));
    if names.is_empty() {
        names = strings(spec.get("verb"));
    }
    let names: Vec<String> = names.iter().map(|n| bare(n)).collect();
    let _ = write!(out, "- {}: {}", names.join(", "), str_of(spec, "class"));
    let writes = str_of(spec, "writes");
    if !writes.is_empty() && writes != "none" {
        let _ = write!(out, ", writes {writes}");
    }
    let groups = subs_by_class(spec);
    if !groups.is_empty() {
        let top: usize = groups.iter().map(|(_, names)| names.len()).sum();
        let all = nested_subs(spec);
        let deeper = if all > top {
            format!(", {all} at every depth")
        } else {
            String::new()
        };
        let groups: Vec<String> = groups
            .iter()
            .map(|(class, names)| format!("{class} {}", names.len()))
            .collect();
        let _ = write!(out, "; {top} subcommands ({}{deeper})", groups.join(", "));
    }
    let flags: Vec<String> = spec["flags"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|flag| {
            let spellings = strings(flag.get("flag"));
            let id = match str_of(flag, "id") {
                "" => spellings
                    .first()
                    .map(|s| s.trim_start_matches('-').to_string())
                    .unwrap_or_default(),
                id => id.to_string(),
            };
            let lowers = if flag.get("lowers") == Some(&Value::Bool(true)) {
                " lowers"
            } else {
                ""
            };
            format!("{} {}{lowers}", bare(&id), str_of(flag, "class"))
        })
        .collect();
    if !flags.is_empty() {
        let _ = write!(out, "; flags: {}", flags.join(", "));
    }
    // The examples, at every level, are on their own page (docs/lexicon.md).
    out.push('\n');
}

fn render_lexicon(out: &mut String, dir: &Path) {
    out.push_str(
        "## The verb lexicon: `rules/lexicon/*.json`\n\n\
         One line a verb: its class, what it writes when not `none`, how many subcommands it has \
         (the first level, counted by class, and at every depth) and its flags (the name in rule \
         ids, the class it raises to; `lowers`: a dry run or a listing). Rule ids: `lexicon.<verb>`, \
         `lexicon.<verb>.<sub>`, `lexicon.<verb>.<sub>.<flag>`. The full spec (option sets, \
         write modes, notes) is in the file named above each list; `portcullis rules --verbs` \
         prints every verb with its class, verdict and file. The examples written beside the \
         verbs, their subcommands and their flags are in [lexicon.md](lexicon.md).\n\n",
    );
    let mut total = 0;
    let mut sections = String::new();
    for path in json_files(dir) {
        let file = read_json(&path);
        let mut count = 0;
        let mut body = String::new();
        if let Some(Value::Object(classes)) = file.get("classes") {
            body.push_str("Known by their class alone:\n\n");
            for (class, verbs) in classes {
                let mut verbs = strings(Some(verbs));
                verbs.sort();
                count += verbs.len();
                let _ = writeln!(body, "- {class} ({}): {}", verbs.len(), bares(&verbs));
            }
            body.push('\n');
        }
        let specs = file["verbs"].as_array().cloned().unwrap_or_default();
        if !specs.is_empty() {
            body.push_str("With subcommands, flags or write modes:\n\n");
            for spec in &specs {
                count += strings(spec.get("verbs")).len().max(1);
                render_spec(&mut body, spec);
            }
            body.push('\n');
        }
        total += count;
        let noun = if count == 1 { "verb" } else { "verbs" };
        let _ = writeln!(
            sections,
            "### `rules/lexicon/{}` ({count} {noun})\n\n{}\n\n{body}",
            file_name(&path),
            str_of(&file, "about").replace('\n', " "),
        );
    }
    let _ = writeln!(out, "{total} verbs in all.\n");
    out.push_str(&sections);
}

/// The examples of a lexicon spec, of its flags and of its subcommands,
/// depth first (the order of `tests/suite/rule_examples.rs`).
fn spec_examples<'a>(spec: &'a Value, out: &mut Vec<&'a Value>) {
    let own = |entry: &'a Value| entry["examples"].as_array().into_iter().flatten();
    out.extend(own(spec));
    for flag in spec["flags"].as_array().into_iter().flatten() {
        out.extend(own(flag));
    }
    for sub in spec["subs"].as_array().into_iter().flatten() {
        spec_examples(sub, out);
    }
}

/// `docs/lexicon.md`: every example written in `rules/lexicon/*.json`, one
/// table row each, grouped by file and verb.
fn render_lexicon_examples(dir: &Path) -> String {
    let mut out = String::from(
        "# The lexicon's examples\n\n\
         <!-- Generated from rules/lexicon/ by tests/suite/docs.rs. Do not edit by hand: after \
         changing rules/, run PORTCULLIS_BLESS=1 cargo test --release --test suite docs:: -->\n\n\
         Every example written beside a verb, a subcommand or a flag in `rules/lexicon/*.json`, \
         with the verdict and the deciding rule it gets. `tests/suite/rule_examples.rs` runs each \
         through the engine in an empty folder, and fails when a verb with subcommands or flags \
         has none. The verbs, their classes and flags are in [rules.md](rules.md); the format \
         of the files is in `rules/README.md`.\n",
    );
    for path in json_files(dir) {
        let file = read_json(&path);
        let mut rows = String::new();
        let mut count = 0;
        for spec in file["verbs"].as_array().into_iter().flatten() {
            let mut examples = Vec::new();
            spec_examples(spec, &mut examples);
            let mut verb = strings(spec.get("verbs"));
            if verb.is_empty() {
                verb = strings(spec.get("verb"));
            }
            let mut first = bares(&verb);
            for example in examples {
                let rule = match str_of(example, "rule") {
                    "-" => "any".to_string(),
                    rule => code(rule),
                };
                let _ = writeln!(
                    rows,
                    "| {first} | {} | {} | {rule} |",
                    code(str_of(example, "command")),
                    str_of(example, "verdict")
                );
                first.clear();
                count += 1;
            }
        }
        if count > 0 {
            let _ = write!(
                out,
                "\n## `rules/lexicon/{}` ({count} examples)\n\n\
                 | verb | command | verdict | rule |\n|---|---|---|---|\n{rows}",
                file_name(&path)
            );
        }
    }
    out
}

/// Writes `rendered` to `docs/<name>` under `PORTCULLIS_BLESS=1`, else fails
/// when the file there differs from it.
fn check_generated(name: &str, rendered: &str) {
    let target = root().join("docs").join(name);
    if std::env::var_os("PORTCULLIS_BLESS").is_some_and(|v| v == "1") {
        fs::write(&target, rendered).unwrap_or_else(|e| panic!("{}: {e}", target.display()));
        eprintln!("wrote {} ({} bytes)", target.display(), rendered.len());
        return;
    }
    let current = fs::read_to_string(&target).unwrap_or_default();
    if current != rendered {
        let line = current
            .lines()
            .zip(rendered.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| current.lines().count().min(rendered.lines().count()))
            + 1;
        panic!(
            "docs/{name} is stale: it differs from what rules/ renders, first at line {line}.\n\
             Regenerate it with: PORTCULLIS_BLESS=1 cargo test --release --test suite docs::\n\
             and commit docs/{name} with the change to rules/."
        );
    }
}

/// `docs/rules.md`, rendered from the files under `rules/`.
fn render_rules(rules: &Path) -> String {
    let mut out = String::new();
    out.push_str(
        "# The rule catalogue\n\n\
         <!-- Generated from rules/ by tests/suite/docs.rs. Do not edit by hand: after changing \
         rules/, run PORTCULLIS_BLESS=1 cargo test --release --test suite docs:: -->\n\n\
         Everything portcullis knows as data, rendered from the JSON files under `rules/` \
         (compiled into the binary by `build.rs`; their format is in `rules/README.md`). This \
         file is generated by `tests/suite/docs.rs`, and `cargo test --release` fails when it is \
         stale: after changing a rule file, run `PORTCULLIS_BLESS=1 cargo test --release --test \
         suite docs::`. Rule ids the code makes without data (`parse.*`, `write.*`, `verb.*`, \
         `setting.*`, `unknown.verb`, …) are listed by `portcullis rules`.\n\n\
         | file | what it holds |\n|---|---|\n",
    );
    let files = json_files(rules);
    for path in &files {
        let file = read_json(path);
        let _ = writeln!(
            out,
            "| `rules/{}` | {} |",
            file_name(path),
            cell(first_sentence(str_of(&file, "about")))
        );
    }
    for path in json_files(&rules.join("lexicon")) {
        let file = read_json(&path);
        let _ = writeln!(
            out,
            "| `rules/lexicon/{}` | {} |",
            file_name(&path),
            cell(first_sentence(str_of(&file, "about")))
        );
    }
    out.push('\n');
    let load = |name: &str| read_json(&rules.join(name));
    render_floor(&mut out, &load("floor.json"));
    render_law(&mut out, &load("law.json"));
    render_wrappers(&mut out, &load("wrappers.json"));
    render_lists(
        &mut out,
        "Environment variables: `rules/environment.json`",
        &load("environment.json"),
        "Read by `src/settings.rs`: a name on no list is SIGNED `setting.unknown`; the kinds \
         that run code are SIGNED `setting.exec`.",
    );
    render_lists(
        &mut out,
        "Scripts and package runners: `rules/scripts.json`",
        &load("scripts.json"),
        "",
    );
    render_rewrites(&mut out, &load("rewrites.json"));
    render_lists(
        &mut out,
        "Programs the lexicon does not know: `rules/unknown.json`",
        &load("unknown.json"),
        "Read by `src/unknown.rs`: an unknown program with one of these words is SIGNED \
         `unknown.destructive`, else UNKNOWN `unknown.verb`.",
    );
    render_lists(
        &mut out,
        "The host's permission mode: `rules/modes.json`",
        &load("modes.json"),
        "Read by `src/engine/mode.rs`.",
    );
    render_inline(&mut out, &load("inline.json"));
    render_lexicon(&mut out, &rules.join("lexicon"));
    // Every rule file is rendered by a section above: a new one must get its own.
    let known = [
        "environment.json",
        "floor.json",
        "inline.json",
        "law.json",
        "modes.json",
        "rewrites.json",
        "scripts.json",
        "unknown.json",
        "wrappers.json",
    ];
    for path in &files {
        let name = file_name(path);
        assert!(
            known.contains(&name.as_str()),
            "rules/{name} is new: give it a section in tests/suite/docs.rs (render_rules)"
        );
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

// ---------------------------------------------------------------- tests

#[test]
fn rules_md_is_generated_from_rules() {
    check_generated("rules.md", &render_rules(&root().join("rules")));
}

#[test]
fn lexicon_md_is_generated_from_rules() {
    check_generated(
        "lexicon.md",
        &render_lexicon_examples(&root().join("rules/lexicon")),
    );
}

#[test]
fn lexicon_md_stays_small() {
    let rendered = render_lexicon_examples(&root().join("rules/lexicon"));
    assert!(
        rendered.len() < MAX_LEXICON_MD_BYTES,
        "docs/lexicon.md would be {} bytes, over {MAX_LEXICON_MD_BYTES}: show fewer examples \
         or shorter rows in tests/suite/docs.rs",
        rendered.len()
    );
}

#[test]
fn rules_md_stays_small() {
    let rendered = render_rules(&root().join("rules"));
    assert!(
        rendered.len() < MAX_RULES_MD_BYTES,
        "docs/rules.md would be {} bytes, over {MAX_RULES_MD_BYTES}: summarise more in tests/suite/docs.rs",
        rendered.len()
    );
}

#[test]
fn rules_readme_names_every_rule_file() {
    let root = root();
    let readme = fs::read_to_string(root.join("rules/README.md")).expect("rules/README.md");
    let mut missing = Vec::new();
    for path in json_files(&root.join("rules")) {
        let name = file_name(&path);
        if !readme.contains(&format!("`{name}`")) {
            missing.push(format!("rules/{name}"));
        }
    }
    for path in json_files(&root.join("rules/lexicon")) {
        let name = file_name(&path);
        if !readme.contains(&format!("`lexicon/{name}`")) && !readme.contains(&format!("`{name}`"))
        {
            missing.push(format!("rules/lexicon/{name}"));
        }
    }
    assert!(
        missing.is_empty(),
        "rules/README.md does not name {}",
        missing.join(", ")
    );
}

/// Paths the docs name that are examples in a user's project, not files here.
const NOT_OURS: &[&str] = &["bin/dev", "bin/rails", "bin/rake", "bin/test", "src/auth"];

/// The repository paths a markdown file names in code spans
/// (`src/…`, `rules/…`, `tests/…`, …), cut before any placeholder or glob.
fn named_paths(text: &str) -> Vec<String> {
    const TOP: &[&str] = &[
        "src/",
        "rules/",
        "tests/",
        "corpus/",
        "benches/",
        "fuzz/",
        "integrations/",
        "bin/",
        "docs/",
        ".ci/",
        ".claude-plugin/",
    ];
    let mut paths = Vec::new();
    for (index, span) in text.split('`').enumerate() {
        if index % 2 == 0 {
            continue;
        }
        let span = span.trim();
        if !TOP.iter().any(|top| span.starts_with(top)) || span.contains(' ') {
            continue;
        }
        if NOT_OURS
            .iter()
            .any(|example| span.trim_end_matches('/') == *example)
        {
            continue;
        }
        let cut = span
            .find(['*', '<', '{', '…', '$'])
            .map_or(span, |at| &span[..at]);
        let cut = cut.split(':').next().unwrap_or(cut);
        let cut = if cut.len() < span.len() {
            // A glob or placeholder: the folder before it must exist.
            cut.rsplit_once('/').map_or(cut, |(dir, _)| dir)
        } else {
            cut
        };
        paths.push(cut.trim_end_matches('/').to_string());
    }
    paths
}

/// The targets of a markdown file's relative links (`[x](page.md#part)`),
/// without their anchors.
fn relative_links(text: &str) -> Vec<String> {
    let mut links = Vec::new();
    for (at, _) in text.match_indices("](") {
        let rest = &text[at + 2..];
        let Some(end) = rest.find(')') else { continue };
        let target = &rest[..end];
        if target.contains("://") || target.starts_with('#') || target.contains(' ') {
            continue;
        }
        let target = target.split('#').next().unwrap_or(target);
        if !target.is_empty() {
            links.push(target.to_string());
        }
    }
    links
}

#[test]
fn docs_name_only_paths_that_exist() {
    let root = root();
    let mut pages = vec![root.join("README.md"), root.join("rules/README.md")];
    if let Ok(entries) = fs::read_dir(root.join("docs")) {
        let mut docs: Vec<PathBuf> = entries
            .map(|entry| entry.expect("a folder entry").path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
            // The generated pages name the user's paths that rules/ holds.
            .filter(|path| !path.ends_with("rules.md") && !path.ends_with("lexicon.md"))
            .collect();
        docs.sort();
        pages.extend(docs);
    }
    let mut missing = Vec::new();
    for page in &pages {
        let text = fs::read_to_string(page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
        for link in relative_links(&text) {
            let dir = page.parent().unwrap_or(&root);
            if !dir.join(&link).exists() {
                missing.push(format!(
                    "{}: link to {link}",
                    page.strip_prefix(&root).unwrap_or(page).display()
                ));
            }
        }
        for path in named_paths(&text) {
            if !root.join(&path).exists() {
                missing.push(format!(
                    "{}: `{path}`",
                    page.strip_prefix(&root).unwrap_or(page).display()
                ));
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "the docs name paths that do not exist:\n  {}",
        missing.join("\n  ")
    );
}

#[test]
fn paths_and_links_are_read_from_markdown() {
    let text = "`src/none.rs`, `rules/lexicon/*.json`, `tests/data/fuzz/<target>/`, \
                `src/auth/`, `ls src/`, [a](docs/x.md#y), [b](https://e.org), [c](#z)";
    assert_eq!(
        named_paths(text),
        ["src/none.rs", "rules/lexicon", "tests/data/fuzz"]
    );
    assert_eq!(relative_links(text), ["docs/x.md"]);
}

#[test]
fn code_spans_are_fenced_around_backticks() {
    assert_eq!(code("ls"), "`ls`");
    assert_eq!(code("a`b"), "`` a`b ``");
    assert_eq!(code("a|b"), "`a\\|b`");
    assert_eq!(bare("a_b*"), "a\\_b\\*");
    assert_eq!(object_line(&serde_json::json!({"k": true})), "k: `true`");
}
