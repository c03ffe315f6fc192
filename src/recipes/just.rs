//! justfiles ([`parse_justfile`]): recipes, their parameters, dependencies
//! and settings; [`just_plan`] gives the lines `just ARGS` runs, parameters
//! and `{{…}}` interpolations filled in where known.

use super::makefile::ends_with_continuation;
use super::{MAX_TARGETS, Plan, UNRESOLVED};
use std::collections::{HashMap, HashSet};

/// One recipe of a justfile.
#[derive(Debug, Clone)]
struct JustRecipe {
    name: String,
    params: Vec<(String, Option<String>, bool)>,
    deps: Vec<(String, Vec<String>)>,
    body: Vec<String>,
    line: usize,
}

/// A justfile as read.
#[derive(Debug, Default)]
pub struct Justfile {
    recipes: Vec<JustRecipe>,
    aliases: HashMap<String, String>,
    vars: HashMap<String, Option<String>>,
    /// Backtick commands in assignments: run when the file is evaluated.
    backticks: Vec<String>,
    unknown: Vec<String>,
}

/// A just string literal or backtick: (value, rest), `None` for anything else.
fn just_literal(text: &str) -> Option<(String, &str)> {
    let text = text.trim_start();
    for quote in ["'''", "\"\"\"", "'", "\""] {
        if let Some(rest) = text.strip_prefix(quote) {
            let end = rest.find(quote)?;
            let body = &rest[..end];
            if quote.starts_with('"') && body.contains('\\') {
                return None;
            }
            return Some((body.to_string(), &rest[end + quote.len()..]));
        }
    }
    None
}

/// Whether `s` is a just identifier.
fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Reads a justfile.
pub fn parse_justfile(text: &str) -> Justfile {
    let mut jf = Justfile::default();
    let lines: Vec<&str> = text.lines().collect();
    let mut n = 0;
    while let Some(&raw) = lines.get(n) {
        let number = n + 1;
        n += 1;
        let line = raw.trim_end();
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            jf.unknown.push(format!(
                "justfile:{number}: an indented line outside a recipe"
            ));
            continue;
        }
        for quoted in line.split('`').skip(1).step_by(2) {
            jf.backticks.push(quoted.to_string());
        }
        if line.starts_with('[') {
            let attribute = line.trim_matches(['[', ']']);
            if attribute.starts_with("script") || attribute.starts_with("extension") {
                jf.unknown.push(format!(
                    "justfile:{number}: [{attribute}] runs the recipe with another program"
                ));
            }
            continue;
        }
        let word = line.split_whitespace().next().unwrap_or("");
        match word {
            "set" => {
                let rest = line[3..].trim();
                let (name, value) = match rest.split_once(":=") {
                    Some((n, v)) => (n.trim(), v.trim()),
                    None => (rest, "true"),
                };
                match name {
                    "shell" | "script-interpreter" => {
                        let ok = value
                            .trim_matches(['[', ']'])
                            .split(',')
                            .map(|p| p.trim().trim_matches(['"', '\'']))
                            .enumerate()
                            .all(|(k, p)| {
                                if k == 0 {
                                    matches!(
                                        p,
                                        "sh" | "bash" | "/bin/sh" | "/bin/bash" | "zsh" | "dash"
                                    )
                                } else {
                                    p.starts_with('-') && !p.contains(['x', 'i', 's'])
                                }
                            });
                        if !ok {
                            jf.unknown
                                .push(format!("justfile:{number}: recipes run by {value}"));
                        }
                    }
                    "windows-shell"
                    | "windows-powershell"
                    | "export"
                    | "positional-arguments"
                    | "quiet"
                    | "unstable"
                    | "ignore-comments"
                    | "allow-duplicate-recipes"
                    | "allow-duplicate-variables"
                    | "no-exit-message"
                    | "dotenv-load"
                    | "dotenv-required"
                    | "dotenv-filename"
                    | "dotenv-path"
                    | "tempdir"
                    | "working-directory"
                    | "fallback"
                    | "lazy" => {}
                    _ => jf
                        .unknown
                        .push(format!("justfile:{number}: the setting `{name}`")),
                }
                continue;
            }
            "alias" => {
                if let Some((name, target)) = line[5..].split_once(":=") {
                    jf.aliases
                        .insert(name.trim().to_string(), target.trim().to_string());
                }
                continue;
            }
            "import" | "import?" | "mod" | "mod?" => {
                jf.unknown
                    .push(format!("justfile:{number}: `{word}` reads another file"));
                continue;
            }
            _ => {}
        }
        let body_line = line.strip_prefix("export ").unwrap_or(line);
        if let Some((name, value)) = body_line.split_once(":=")
            && is_ident(name.trim())
        {
            let value = match just_literal(value) {
                Some((v, rest)) if rest.trim().is_empty() => Some(v),
                _ => None,
            };
            jf.vars.insert(name.trim().to_string(), value);
            continue;
        }
        // A recipe header: `@name params: deps && deps`.
        let header = line.trim_start_matches('@');
        let Some(colon) = header.find(':').filter(|c| !header[*c..].starts_with(":=")) else {
            jf.unknown.push(format!(
                "justfile:{number}: a line this reader does not understand: `{}`",
                crate::limits::clip(line, 40)
            ));
            continue;
        };
        let mut head = header[..colon].split_whitespace();
        let name = head.next().unwrap_or("").to_string();
        if !is_ident(&name) {
            jf.unknown.push(format!(
                "justfile:{number}: a recipe header this reader does not understand"
            ));
            continue;
        }
        let mut params = Vec::new();
        for p in head {
            let p = p.trim_start_matches('$');
            let variadic = p.starts_with(['+', '*']);
            let p = p.trim_start_matches(['+', '*', '$']);
            let (pname, default) = match p.split_once('=') {
                Some((n, d)) => (
                    n.to_string(),
                    Some(just_literal(d).map_or_else(|| UNRESOLVED.to_string(), |(v, _)| v)),
                ),
                None => (p.to_string(), None),
            };
            params.push((pname, default, variadic));
        }
        let mut deps = Vec::new();
        let dep_text = header[colon + 1..].replace("&&", " ");
        let mut rest = dep_text.trim();
        while !rest.is_empty() {
            if let Some(inner) = rest.strip_prefix('(') {
                let end = inner.find(')').unwrap_or(inner.len());
                let mut words = inner[..end].split_whitespace();
                let dep = words.next().unwrap_or("").to_string();
                let args = words
                    .map(|a| just_literal(a).map_or_else(|| UNRESOLVED.to_string(), |(v, _)| v))
                    .collect();
                deps.push((dep, args));
                rest = inner.get(end + 1..).unwrap_or("").trim_start();
            } else {
                let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                deps.push((rest[..end].to_string(), Vec::new()));
                rest = rest[end..].trim_start();
            }
        }
        let mut body = Vec::new();
        while let Some(&l) = lines.get(n)
            && (l.starts_with([' ', '\t']) || l.trim().is_empty())
        {
            body.push(l.to_string());
            n += 1;
        }
        while body.last().is_some_and(|l| l.trim().is_empty()) {
            body.pop();
        }
        let indent = body
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0);
        let body = body
            .iter()
            .map(|l| l.get(indent..).unwrap_or("").to_string())
            .collect();
        jf.recipes.push(JustRecipe {
            name,
            params,
            deps,
            body,
            line: number,
        });
    }
    jf
}

/// Expands `{{expr}}` in a recipe line: (text, dynamic).
fn just_interpolate(jf: &Justfile, line: &str, params: &HashMap<String, String>) -> (String, bool) {
    let mut out = String::new();
    let mut dynamic = false;
    let mut rest = line;
    while let Some(start) = rest.find("{{") {
        if rest[start..].starts_with("{{{{") {
            out.push_str(&rest[..start + 2]);
            rest = &rest[start + 4..];
            continue;
        }
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find("}}") else {
            return (UNRESOLVED.into(), true);
        };
        let expr = rest[start + 2..start + end].trim();
        let value = if let Some(v) = params.get(expr) {
            Some(v.clone())
        } else if let Some(Some(v)) = jf.vars.get(expr) {
            Some(v.clone())
        } else {
            just_literal(expr)
                .filter(|(_, r)| r.trim().is_empty())
                .map(|(v, _)| v)
        };
        match value {
            Some(v) if !v.contains(UNRESOLVED) => out.push_str(&v),
            _ => {
                out.push_str(UNRESOLVED);
                dynamic = true;
            }
        }
        rest = &rest[start + end + 2..];
    }
    out.push_str(rest);
    (out, dynamic)
}

/// The recipe `name` (or the one it is an alias of); the last wins.
fn find_recipe<'j>(jf: &'j Justfile, name: &str) -> Option<&'j JustRecipe> {
    let name = jf.aliases.get(name).map_or(name, String::as_str);
    jf.recipes.iter().rev().find(|r| r.name == name)
}

/// just options that change nothing about which recipes run.
#[rustfmt::skip]
const JUST_FLAGS: &[&str] = &[
    "-q", "--quiet", "-v", "--verbose", "--yes", "--unstable", "--timestamp", "--no-deps",
    "--highlight", "--no-highlight", "--check", "-u", "--unsorted", "--explain", "--no-dotenv",
];

/// What `just`'s arguments ask for: (justfile option, lines to run or
/// listing only). Options that change the recipe source or run other
/// commands are reported in `unknown`.
pub fn just_plan(jf: &Justfile, args: &[String]) -> Plan {
    let mut plan = Plan::default();
    for why in &jf.unknown {
        plan.unknown(why.clone());
    }
    for command in &jf.backticks {
        plan.push(
            command.clone(),
            "a backtick just runs while reading the justfile",
            false,
        );
    }
    let mut positional: Vec<String> = Vec::new();
    let mut overrides: HashMap<String, String> = HashMap::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let a = a.as_str();
        i += 1;
        match a {
            "--set" => {
                if let (Some(n), Some(v)) = (args.get(i), args.get(i + 1)) {
                    overrides.insert(n.clone(), v.clone());
                }
                i += 2;
            }
            "--color" | "--dump-format" => i += 1,
            "-l" | "--list" | "--summary" | "--dump" | "--variables" | "--evaluate"
            | "--groups" | "--version" | "-h" | "--help" | "-n" | "--dry-run" => {
                // Nothing runs but the backticks.
                return plan;
            }
            _ if a.starts_with("--color=") => {}
            _ if JUST_FLAGS.contains(&a) => {}
            _ if a.starts_with('-') => plan.unknown(format!("the option {a}")),
            _ => positional.push(a.to_string()),
        }
    }
    let mut vars = jf.vars.clone();
    while let Some(first) = positional.first() {
        match first.split_once('=') {
            Some((n, v)) if is_ident(n) => {
                overrides.insert(n.to_string(), v.to_string());
                positional.remove(0);
            }
            _ => break,
        }
    }
    for (n, v) in overrides {
        vars.insert(n, Some(v));
    }
    let jf = Justfile {
        vars,
        recipes: jf.recipes.clone(),
        aliases: jf.aliases.clone(),
        backticks: Vec::new(),
        unknown: Vec::new(),
    };
    let mut calls: Vec<(String, Vec<String>)> = Vec::new();
    if positional.is_empty()
        && let Some(first) = jf.recipes.first()
    {
        calls.push((first.name.clone(), Vec::new()));
    }
    let mut k = 0;
    while let Some(name) = positional.get(k).cloned() {
        k += 1;
        let Some(recipe) = find_recipe(&jf, &name) else {
            // just refuses to run anything when a recipe is missing.
            return plan;
        };
        let mut taken = Vec::new();
        for (_, _, variadic) in &recipe.params {
            if *variadic {
                taken.extend(positional.iter().skip(k).cloned());
                k = positional.len();
            } else if let Some(value) = positional.get(k) {
                taken.push(value.clone());
                k += 1;
            }
        }
        calls.push((name, taken));
    }
    let mut seen: HashSet<(String, Vec<String>)> = HashSet::new();
    let mut budget = 0;
    // Depth-first: dependencies run before the recipe.
    fn visit(
        jf: &Justfile,
        call: (String, Vec<String>),
        seen: &mut HashSet<(String, Vec<String>)>,
        budget: &mut usize,
        plan: &mut Plan,
    ) {
        *budget += 1;
        if *budget > MAX_TARGETS {
            plan.unknown(format!("more than {MAX_TARGETS} recipes to follow"));
            return;
        }
        if !seen.insert(call.clone()) {
            return;
        }
        let Some(recipe) = find_recipe(jf, &call.0) else {
            plan.unknown(format!("the recipe {} is not in the justfile", call.0));
            return;
        };
        for dep in &recipe.deps {
            visit(jf, dep.clone(), seen, budget, plan);
        }
        let mut params = HashMap::new();
        for (k, (name, default, variadic)) in recipe.params.iter().enumerate() {
            let value = if *variadic {
                Some(call.1.get(k..).unwrap_or(&[]).join(" "))
            } else {
                call.1.get(k).cloned().or_else(|| default.clone())
            };
            params.insert(
                name.clone(),
                value.unwrap_or_else(|| UNRESOLVED.to_string()),
            );
        }
        let origin = format!("the recipe {} (justfile line {})", recipe.name, recipe.line);
        let shebang = recipe.body.first().filter(|l| l.starts_with("#!"));
        if let Some(shebang) = shebang {
            let interpreter = shebang.trim_start_matches("#!").trim();
            let shell = matches!(
                interpreter,
                "/bin/sh"
                    | "/bin/bash"
                    | "/usr/bin/env bash"
                    | "/usr/bin/env sh"
                    | "/bin/bash -e"
                    | "/usr/bin/env -S bash -e"
                    | "/usr/bin/env -S bash -eu"
                    | "/usr/bin/env -S bash -euo pipefail"
            );
            if !shell {
                plan.unknown(format!("{origin} is a script run by {interpreter}"));
                return;
            }
            let mut dynamic = false;
            let text: Vec<String> = recipe
                .body
                .iter()
                .skip(1)
                .map(|l| {
                    let (t, d) = just_interpolate(jf, l, &params);
                    dynamic |= d;
                    t
                })
                .collect();
            plan.push(text.join("\n"), &origin, dynamic);
            return;
        }
        let mut pending = String::new();
        for line in &recipe.body {
            if line.trim().is_empty() || (line.starts_with('#') && pending.is_empty()) {
                continue;
            }
            pending.push_str(line);
            if ends_with_continuation(&pending) {
                pending.push('\n');
                continue;
            }
            let (text, dynamic) = just_interpolate(jf, &pending, &params);
            let text = text.trim_start_matches(['@', '-']).to_string();
            plan.push(text, &origin, dynamic);
            pending.clear();
        }
    }
    for call in calls {
        visit(&jf, call, &mut seen, &mut budget, &mut plan);
    }
    plan
}
