//! `make`: its command line ([`make_args`]: goals, `-f`, `-C`, variables
//! set on it, flags that change what runs) and the plan of a run
//! ([`make_plan`]): the recipe lines of each goal and its prerequisites, in
//! the order make runs them, expanded from a [`Makefile`] read by
//! `makefile`.

use super::makefile::{
    Auto, BUILTIN_RULES, Makefile, Rule, assignment, expand, expand_plain, pattern_stem,
    split_words, strip_prefixes,
};
use super::{MAX_TARGETS, Plan, UNRESOLVED};
use std::collections::HashSet;

/// What `make`'s arguments ask for.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct MakeArgs {
    /// `-C DIR`, in order (each relative to the one before).
    pub dirs: Vec<String>,
    /// `-f FILE` (`-` is stdin).
    pub files: Vec<String>,
    /// `--eval=TEXT` / `-E TEXT`: makefile text read first.
    pub evals: Vec<String>,
    /// `-I DIR`: where includes are also looked for.
    pub include_dirs: bool,
    /// Targets named.
    pub goals: Vec<String>,
    /// `NAME=value` on the command line: they override the makefile's.
    pub overrides: Vec<(String, String)>,
    /// Options this reader does not know.
    pub unknown: Vec<String>,
}

/// make options that take no value (GNU make 4.4 manual).
#[rustfmt::skip]
const MAKE_FLAGS: &[&str] = &[
    "-b", "-m", "-B", "-d", "-e", "-i", "-k", "-L", "-n", "-p", "-q", "-r", "-R", "-s", "-S", "-t",
    "-v", "-w", "--always-make", "--check-symlink-times", "--debug", "--dry-run",
    "--environment-overrides", "--ignore-errors", "--just-print", "--keep-going",
    "--no-builtin-rules", "--no-builtin-variables", "--no-keep-going", "--no-print-directory",
    "--no-silent", "--print-data-base", "--print-directory", "--question", "--quiet", "--recon",
    "--silent", "--stop", "--touch", "--trace", "--version", "--warn-undefined-variables", "-h",
    "--help",
];

/// make options that take a value, attached or in the next word; the
/// value changes nothing about which recipes run.
#[rustfmt::skip]
const MAKE_VALUE_OPTS: &[&str] = &[
    "-j", "--jobs", "-l", "--load-average", "--max-load", "-o", "--old-file", "--assume-old", "-W",
    "--what-if", "--new-file", "--assume-new", "-O", "--output-sync", "--debug",
    "--jobserver-style", "--shuffle",
];

/// Reads `make`'s arguments (words as the shell gives them).
pub fn make_args(args: &[String]) -> MakeArgs {
    let mut out = MakeArgs::default();
    let mut i = 0;
    let mut options = true;
    while let Some(a) = args.get(i) {
        let a = a.as_str();
        i += 1;
        if options && a == "--" {
            options = false;
            continue;
        }
        if options && a.starts_with("--") {
            let (name, value) = match a.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (a, None),
            };
            let takes = |i: &mut usize| -> Option<String> {
                value.clone().or_else(|| {
                    let v = args.get(*i).cloned();
                    *i += 1;
                    v
                })
            };
            match name {
                "--directory" => out.dirs.extend(takes(&mut i)),
                "--file" | "--makefile" => out.files.extend(takes(&mut i)),
                "--eval" => out.evals.extend(takes(&mut i)),
                "--include-dir" => {
                    takes(&mut i);
                    out.include_dirs = true;
                }
                _ if MAKE_FLAGS.contains(&name) && (value.is_none() || name == "--debug") => {}
                _ if MAKE_VALUE_OPTS.contains(&name) && value.is_some() => {}
                "--jobs" | "--load-average" | "--max-load" => {}
                _ if MAKE_VALUE_OPTS.contains(&name) => i += 1,
                _ => out.unknown.push(a.to_string()),
            }
            continue;
        }
        if options && a.len() > 1 && a.starts_with('-') {
            // Clustered short options: `-sC dir`, `-Cdir`, `-kj4`.
            let letters: Vec<char> = a[1..].chars().collect();
            let mut k = 0;
            while let Some((letter, after)) = letters.get(k..).and_then(<[_]>::split_first) {
                let flag = format!("-{letter}");
                let rest: String = after.iter().collect();
                let value = |i: &mut usize| -> Option<String> {
                    if rest.is_empty() {
                        let v = args.get(*i).cloned();
                        *i += 1;
                        v
                    } else {
                        Some(rest.clone())
                    }
                };
                match flag.as_str() {
                    "-C" => out.dirs.extend(value(&mut i)),
                    "-f" => out.files.extend(value(&mut i)),
                    "-E" => out.evals.extend(value(&mut i)),
                    "-I" => {
                        value(&mut i);
                        out.include_dirs = true;
                    }
                    // `-j` and `-l` take an optional number.
                    "-j" | "-l" => {
                        if rest.chars().all(|c| c.is_ascii_digit() || c == '.') {
                            break;
                        }
                        k += 1;
                        continue;
                    }
                    "-o" | "-W" | "-O" => {
                        if rest.is_empty() && !matches!(flag.as_str(), "-O") {
                            i += 1;
                        }
                        break;
                    }
                    _ if MAKE_FLAGS.contains(&flag.as_str()) => {
                        k += 1;
                        continue;
                    }
                    _ => out.unknown.push(flag.clone()),
                }
                break;
            }
            continue;
        }
        match assignment(a) {
            Some((name, _, value)) if !name.is_empty() && !name.contains(['$', ' ']) => {
                out.overrides.push((name.to_string(), value.to_string()))
            }
            _ => out.goals.push(a.to_string()),
        }
    }
    out
}

/// The lines `make GOALS` runs with this Makefile: the recipes of the
/// goals (the default goal when none), their prerequisites first, and of
/// the makefiles make remakes; commands run while reading the file too.
pub fn make_plan(mf: &Makefile, goals: &[String], makefile_names: &[String]) -> Plan {
    let mut plan = Plan::default();
    for why in &mf.unknown {
        plan.unknown(why.clone());
    }
    for command in &mf.parse_time {
        let (text, dynamic) = expand(mf, command, &Auto::default(), 0);
        plan.push(
            text,
            "a command make runs while reading the makefile",
            dynamic,
        );
    }
    let mut stack: Vec<String> = Vec::new();
    // Makefiles with a rule are remade before anything else.
    for name in mf.includes.iter().chain(makefile_names) {
        if mf
            .rules
            .iter()
            .any(|r| !r.pattern && r.targets.contains(name))
        {
            stack.push(name.clone());
        }
    }
    if goals.is_empty() {
        let default = mf
            .vars
            .get(".DEFAULT_GOAL")
            .filter(|v| v.known)
            .map(|v| expand_plain(mf, &v.value).trim().to_string())
            .filter(|g| !g.is_empty())
            .or_else(|| mf.first_target.clone());
        if let Some(goal) = default {
            stack.push(goal);
        }
    } else {
        stack.extend(goals.iter().rev().cloned());
    }
    // Depth first, prerequisites before the target that needs them.
    let mut stack: Vec<(String, bool)> = stack.into_iter().map(|t| (t, false)).collect();
    let mut seen: HashSet<String> = HashSet::new();
    while let Some((target, ready)) = stack.pop() {
        let (prereqs, recipes) = target_rules(mf, &target);
        if ready {
            emit(mf, &target, recipes, &mut plan);
            continue;
        }
        if !seen.insert(target.clone()) {
            continue;
        }
        if seen.len() > MAX_TARGETS {
            plan.unknown(format!("more than {MAX_TARGETS} targets to follow"));
            break;
        }
        if target.contains(UNRESOLVED) {
            plan.unknown("a target only known when make runs");
            continue;
        }
        stack.push((target, true));
        for prereq in prereqs.into_iter().rev() {
            stack.push((prereq, false));
        }
    }
    plan
}

/// The prerequisites of `target` and the rules whose recipes make it
/// (with the stem of a pattern rule).
fn target_rules<'m>(mf: &'m Makefile, target: &str) -> (Vec<String>, Vec<(&'m Rule, String)>) {
    let explicit: Vec<&Rule> = mf
        .rules
        .iter()
        .filter(|r| !r.pattern && r.targets.iter().any(|t| t == target))
        .collect();
    let mut prereqs: Vec<String> = explicit.iter().flat_map(|r| r.prereqs.clone()).collect();
    let mut recipes: Vec<(&Rule, String)> = explicit
        .iter()
        .filter(|r| !r.recipe.is_empty())
        .map(|r| (*r, String::new()))
        .collect();
    if recipes.is_empty() {
        for rule in mf.rules.iter().filter(|r| r.pattern) {
            if let Some(stem) = rule.targets.iter().find_map(|p| pattern_stem(p, target)) {
                prereqs.extend(rule.prereqs.iter().map(|p| p.replacen('%', &stem, 1)));
                if !rule.recipe.is_empty() {
                    recipes.push((rule, stem));
                }
            }
        }
    }
    if recipes.is_empty()
        && !target.starts_with('.')
        && let Some(rule) = mf
            .rules
            .iter()
            .find(|r| r.targets.iter().any(|t| t == ".DEFAULT"))
    {
        recipes.push((rule, String::new()));
    }
    (prereqs, recipes)
}

/// Adds the lines that make `target` to the plan: its recipes, else make's
/// built-in rules when the Makefile changed a variable they use.
fn emit(mf: &Makefile, target: &str, recipes: Vec<(&Rule, String)>, plan: &mut Plan) {
    if recipes.is_empty() && mf.builtin_set && !target.starts_with('.') {
        let stem = target.rsplit_once('.').map_or(target, |(s, _)| s);
        let auto = Auto {
            target: target.to_string(),
            prereqs: Vec::new(),
            stem: stem.to_string(),
            active: true,
        };
        for line in BUILTIN_RULES {
            let (text, dynamic) = expand(mf, line, &auto, 0);
            plan.push(text, &format!("make's built-in rule for {target}"), dynamic);
        }
    }
    for (rule, stem) in recipes {
        let prereqs: Vec<String> = rule
            .prereqs
            .iter()
            .map(|p| p.replacen('%', &stem, 1))
            .collect();
        let auto = Auto {
            target: target.to_string(),
            prereqs: split_words(&expand_plain(mf, &prereqs.join(" "))),
            stem: stem.clone(),
            active: true,
        };
        let origin = format!("the recipe of {target} (line {})", rule.line);
        let mut script: Vec<String> = Vec::new();
        let mut script_dynamic = false;
        for line in &rule.recipe {
            let (text, dynamic) = expand(mf, line, &auto, 0);
            let text = strip_prefixes(&text).to_string();
            if mf.oneshell {
                script.push(text);
                script_dynamic |= dynamic;
            } else if !text.trim().is_empty() {
                plan.push(text, &origin, dynamic);
            }
        }
        if mf.oneshell && !script.is_empty() {
            plan.push(script.join("\n"), &origin, script_dynamic);
        }
    }
}
