//! Makefile text read as make reads it ([`parse_makefile`]): logical lines,
//! rules, variables (`=`, `:=`, `?=`, `+=`, `define`), `include` (at most 4
//! deep), make's built-in rules and values, and the expansion of `$(…)`
//! references and automatic variables. What only the running make knows
//! (`$(eval …)`, `$(shell …)` output) is left unresolved, never guessed.

use super::{MAX_EXPANSION_DEPTH, MAX_LINE_BYTES, UNRESOLVED};
use std::collections::HashMap;

/// `NAME op value` with op one of `=`, `:=`, `::=`, `:::=`, `?=`, `+=`,
/// `!=`: (name, op, value), when the first `=` or `:` outside `$( )`
/// makes it an assignment.
pub(super) fn assignment(line: &str) -> Option<(&str, &str, &str)> {
    let bytes = line.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'$' if matches!(bytes.get(i + 1), Some(b'(' | b'{')) => {
                depth += 1;
                i += 2;
                continue;
            }
            b')' | b'}' if depth > 0 => depth -= 1,
            b'=' if depth == 0 => {
                let mut start = i;
                while let Some(prev) = start.checked_sub(1)
                    && matches!(bytes.get(prev), Some(b':' | b'?' | b'+' | b'!'))
                {
                    start = prev;
                }
                // `a::=` and `a:::=` but not `a!:=`.
                let op = &line[start..=i];
                if !matches!(op, "=" | ":=" | "::=" | ":::=" | "?=" | "+=" | "!=") {
                    return None;
                }
                return Some((line[..start].trim(), op, line[i + 1..].trim_start()));
            }
            b':' if depth == 0 => {
                let rest = &line[i..];
                if rest.starts_with(":=") || rest.starts_with("::=") || rest.starts_with(":::=") {
                    i += 1;
                    continue;
                }
                return None;
            }
            b';' | b'#' if depth == 0 => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// One rule of a Makefile.
#[derive(Debug, Clone)]
pub(super) struct Rule {
    pub(super) targets: Vec<String>,
    pub(super) prereqs: Vec<String>,
    pub(super) recipe: Vec<String>,
    /// `%` in a target: a pattern rule.
    pub(super) pattern: bool,
    pub(super) line: usize,
}

/// One variable: its raw text (expanded where it is used), or unknown.
#[derive(Debug, Clone)]
pub(super) struct Var {
    pub(super) value: String,
    pub(super) known: bool,
}

/// A Makefile as read: rules, variables, and what cannot be followed.
#[derive(Debug, Default)]
pub struct Makefile {
    pub(super) rules: Vec<Rule>,
    pub(super) vars: HashMap<String, Var>,
    pub(super) first_target: Option<String>,
    /// Commands run while the file is read (`X != cmd`, `$(shell cmd)`).
    pub(super) parse_time: Vec<String>,
    /// Files it includes (remade first when a rule names them).
    pub(super) includes: Vec<String>,
    pub(super) oneshell: bool,
    pub(super) unknown: Vec<String>,
    /// Variables used by make's built-in rules that the file sets.
    pub(super) builtin_set: bool,
}

/// Variables that make's built-in rules use (GNU make 4.4 `make -p`).
#[rustfmt::skip]
const BUILTIN_RULE_VARS: &[&str] = &[
    "AR", "ARFLAGS", "AS", "ASFLAGS", "CC", "CFLAGS", "CO", "COFLAGS", "CPP", "CPPFLAGS",
    "CTANGLE", "CWEAVE", "CXX", "CXXFLAGS", "FC", "FFLAGS", "GET", "GFLAGS", "LDFLAGS", "LDLIBS",
    "LEX", "LFLAGS", "LINT", "LINTFLAGS", "LOADLIBES", "M2C", "MAKEINFO", "OUTPUT_OPTION", "PC",
    "PFLAGS", "RFLAGS", "TANGLE", "TARGET_ARCH", "TEX", "TEXI2DVI", "WEAVE", "YACC", "YFLAGS",
    "RM", "CO", "SHELL",
];

/// The built-in variables' values (GNU make 4.4).
const BUILTIN_VALUES: &[(&str, &str)] = &[
    ("AR", "ar"),
    ("ARFLAGS", "rv"),
    ("AS", "as"),
    ("CC", "cc"),
    ("CPP", "$(CC) -E"),
    ("CXX", "g++"),
    ("FC", "f77"),
    ("LEX", "lex"),
    ("MAKE", "make"),
    ("OUTPUT_OPTION", "-o $@"),
    ("RM", "rm -f"),
    ("SHELL", "/bin/sh"),
    ("YACC", "yacc"),
    ("CURDIR", "."),
];

/// Built-in rules that build a target with no rule of its own, written
/// as make writes them (`make -p`): judged when the Makefile changes a
/// variable they use.
#[rustfmt::skip]
pub(super) const BUILTIN_RULES: &[&str] = &[
    "$(CC) $(CFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c $(OUTPUT_OPTION) $*.c",
    "$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c $(OUTPUT_OPTION) $*.cc",
    "$(CC) $(LDFLAGS) $(TARGET_ARCH) $*.o $(LOADLIBES) $(LDLIBS) -o $@",
    "$(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH) $*.c $(LOADLIBES) $(LDLIBS) -o $@",
    "$(AS) $(ASFLAGS) $(TARGET_MACH) $*.s -o $@", "$(CPP) $(CPPFLAGS) $*.S > $*.s",
    "$(YACC) $(YFLAGS) $*.y", "$(LEX) $(LFLAGS) -t $*.l > $@",
    "$(FC) $(FFLAGS) $(TARGET_ARCH) -c $(OUTPUT_OPTION) $*.f", "$(AR) $(ARFLAGS) $@ $*.o",
    "$(RM) $@",
];

/// Shells whose recipes the shell lane reads as they run.
fn is_posix_shell(value: &str) -> bool {
    matches!(
        value.trim(),
        "/bin/sh" | "/bin/bash" | "/usr/bin/bash" | "/usr/bin/sh" | "sh" | "bash" | "/bin/dash"
    ) || value.trim() == "/usr/bin/env bash"
}

/// Splits a Makefile into logical lines: (first line number, text, recipe?).
fn logical_lines(text: &str) -> Vec<(usize, String, bool)> {
    let mut out: Vec<(usize, String, bool)> = Vec::new();
    let physical: Vec<&str> = text.split('\n').collect();
    let mut n = 0;
    while let Some(&first) = physical.get(n) {
        let start = n;
        let first = first.strip_suffix('\r').unwrap_or(first);
        let recipe = first.starts_with('\t');
        let mut line = first.to_string();
        n += 1;
        while ends_with_continuation(&line)
            && let Some(&next) = physical.get(n)
        {
            let next = next.strip_suffix('\r').unwrap_or(next);
            n += 1;
            if recipe {
                // The shell sees backslash-newline; make drops one tab.
                line.push('\n');
                line.push_str(next.strip_prefix('\t').unwrap_or(next));
            } else {
                line.pop();
                let trimmed = line.trim_end().len();
                line.truncate(trimmed);
                line.push(' ');
                line.push_str(next.trim_start());
            }
        }
        out.push((start + 1, line, recipe));
    }
    out
}

/// An odd number of trailing backslashes.
pub(super) fn ends_with_continuation(line: &str) -> bool {
    line.bytes().rev().take_while(|b| *b == b'\\').count() % 2 == 1
}

/// Cuts a `#` comment (not `\#`) off a non-recipe line.
fn strip_comment(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'#') => {
                out.push('#');
                chars.next();
            }
            '#' => break,
            _ => out.push(c),
        }
    }
    out
}

/// Words of a target or prerequisite list.
pub(super) fn split_words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// Every `$(shell …)` / `${shell …}` in `text`: the command text.
fn shell_calls(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(&[dollar, open]) = bytes.get(i..i + 2) {
        if dollar == b'$'
            && matches!(open, b'(' | b'{')
            && let Some(end) = closing(text, i + 1, open)
        {
            let inner = &text[i + 2..end];
            if let Some(command) = inner
                .strip_prefix("shell")
                .filter(|r| r.starts_with([' ', '\t']))
            {
                out.push(command.trim().to_string());
            }
            // Nested calls are found by going on inside.
            i += 2;
            continue;
        }
        i += 1;
    }
    out
}

/// The index of the bracket closing the one at `open_at` (`(` or `{`),
/// counting nested brackets of the same kind.
fn closing(text: &str, open_at: usize, open: u8) -> Option<usize> {
    let close = if open == b'(' { b')' } else { b'}' };
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    for (k, b) in bytes.iter().enumerate().skip(open_at) {
        if *b == open {
            depth += 1;
        } else if *b == close {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    None
}

/// Reads a Makefile. `include` asks `read` for an included file's text
/// (by its name as written, variables expanded); `None` when it cannot be
/// read. `evals` (from `--eval`) are read first.
pub fn parse_makefile(
    text: &str,
    evals: &[String],
    overrides: &[(String, String)],
    read: &mut dyn FnMut(&str) -> Result<Option<String>, String>,
) -> Makefile {
    let mut mf = Makefile::default();
    for (name, value) in BUILTIN_VALUES {
        mf.vars.insert(
            name.to_string(),
            Var {
                value: value.to_string(),
                known: true,
            },
        );
    }
    for eval in evals {
        parse_into(&mut mf, eval, "--eval", overrides, read, 0);
    }
    parse_into(&mut mf, text, "the makefile", overrides, read, 0);
    // Functions that make rules, write files or run code while the file is
    // read, wherever they stand (`X := $(file >run.sh,…)`).
    for function in ["eval", "file", "guile", "value"] {
        for open in ["$(", "${"] {
            let call = format!("{open}{function} ");
            if text.contains(&call) || evals.iter().any(|e| e.contains(&call)) {
                mf.unknown.push(format!(
                    "`{open}{function} …)` makes rules, files or code when make runs"
                ));
            }
        }
    }
    for (name, value) in overrides {
        if BUILTIN_RULE_VARS.contains(&name.as_str()) {
            mf.builtin_set = true;
        }
        mf.vars.insert(
            name.clone(),
            Var {
                value: value.clone(),
                known: true,
            },
        );
    }
    mf
}

/// Most nested includes followed.
const MAX_INCLUDE_DEPTH: usize = 4;

/// Reads `text` into `mf` (one file, or an included one at `depth`).
fn parse_into(
    mf: &mut Makefile,
    text: &str,
    file: &str,
    overrides: &[(String, String)],
    read: &mut dyn FnMut(&str) -> Result<Option<String>, String>,
    depth: usize,
) {
    let mut current: Option<usize> = None;
    let mut conditional = 0usize;
    let mut define: Option<(String, Vec<String>, usize)> = None;
    for (number, raw, recipe) in logical_lines(text) {
        if let Some((name, body, nested)) = &mut define {
            let head = raw.trim_start();
            if head.starts_with("define ") || head == "define" {
                *nested += 1;
            } else if head.trim_end() == "endef" || head.starts_with("endef ") {
                if *nested == 0 {
                    let value = body.join("\n");
                    let name = name.clone();
                    define = None;
                    set_var(mf, &name, "=", &value, conditional > 0, overrides);
                    continue;
                }
                *nested -= 1;
            }
            body.push(raw);
            continue;
        }
        if recipe && let Some(rule) = current {
            let line = raw[1..].to_string();
            mf.parse_time.extend(shell_calls(&line));
            if line.contains("$(eval") || line.contains("${eval") {
                mf.unknown.push(format!(
                    "{file}:{number}: `$(eval …)` in a recipe makes rules when it runs"
                ));
            }
            if let Some(rule) = mf.rules.get_mut(rule) {
                rule.recipe.push(line);
            }
            continue;
        }
        let line = strip_comment(&raw);
        let head = line.trim();
        if head.is_empty() {
            continue;
        }
        mf.parse_time.extend(shell_calls(head));
        current = None;
        let word = head.split_whitespace().next().unwrap_or("");
        match word {
            "ifeq" | "ifneq" | "ifdef" | "ifndef" => {
                conditional += 1;
                continue;
            }
            "else" => continue,
            "endif" => {
                conditional = conditional.saturating_sub(1);
                continue;
            }
            "define" => {
                let rest = head["define".len()..].trim();
                let name = rest
                    .trim_end_matches(['=', ':', '?', '+', '!'])
                    .trim()
                    .to_string();
                define = Some((name, Vec::new(), 0));
                continue;
            }
            "include" | "-include" | "sinclude" => {
                let optional = word != "include";
                let names = head[word.len()..].trim().to_string();
                include(mf, &names, optional, file, number, overrides, read, depth);
                continue;
            }
            "vpath" | "unexport" => continue,
            "load" | "-load" => {
                mf.unknown
                    .push(format!("{file}:{number}: `load` runs a compiled plugin"));
                continue;
            }
            _ => {}
        }
        let mut body = head;
        for prefix in ["export ", "override ", "private "] {
            if let Some(rest) = body.strip_prefix(prefix) {
                body = rest.trim_start();
            }
        }
        if let Some((name, op, value)) = assignment(body) {
            if name.contains('$') {
                match expand_name(mf, name) {
                    Some(name) => set_var(mf, &name, op, value, conditional > 0, overrides),
                    None => mf.unknown.push(format!(
                        "{file}:{number}: a variable whose name is only known when make runs"
                    )),
                }
            } else {
                set_var(mf, name, op, value, conditional > 0, overrides);
            }
            continue;
        }
        if body.starts_with("$(") || body.starts_with("${") {
            mf.unknown.push(format!(
                "{file}:{number}: `{}` makes rules or variables when make runs",
                crate::limits::clip(body, 40)
            ));
            continue;
        }
        if head.starts_with("export") || head.starts_with("override") {
            continue;
        }
        match rule_line(body) {
            Some((targets, prereqs, inline, target_var)) => {
                if let Some(var) = target_var {
                    // `target: VAR = value`: the variable is not one value.
                    if let Some((name, _, _)) = assignment(&var) {
                        let name = name.to_string();
                        set_var(mf, &name, "=", "", true, overrides);
                    }
                    continue;
                }
                let targets = split_words(&expand_plain(mf, &targets));
                if targets.iter().any(|t| t == ".ONESHELL") {
                    mf.oneshell = true;
                }
                if targets.iter().any(|t| t == ".RECIPEPREFIX") {
                    mf.unknown.push(format!("{file}:{number}: .RECIPEPREFIX"));
                }
                let pattern = targets.iter().any(|t| t.contains('%'));
                if mf.first_target.is_none()
                    && !pattern
                    && let Some(first) = targets
                        .iter()
                        .find(|t| !t.starts_with('.') || t.contains('/'))
                {
                    mf.first_target = Some(first.clone());
                }
                let mut recipe = Vec::new();
                if let Some(inline) = inline {
                    mf.parse_time.extend(shell_calls(&inline));
                    recipe.push(inline);
                }
                mf.rules.push(Rule {
                    targets,
                    prereqs: split_words(&prereqs.replace('|', " ")),
                    recipe,
                    pattern,
                    line: number,
                });
                current = Some(mf.rules.len() - 1);
            }
            None => mf.unknown.push(format!(
                "{file}:{number}: a line this reader does not understand: `{}`",
                crate::limits::clip(body, 40)
            )),
        }
    }
    if define.is_some() {
        mf.unknown
            .push(format!("{file}: a `define` without `endef`"));
    }
}

/// `include NAMES`: each file read and parsed in place.
#[allow(clippy::too_many_arguments)]
fn include(
    mf: &mut Makefile,
    names: &str,
    _optional: bool,
    file: &str,
    number: usize,
    overrides: &[(String, String)],
    read: &mut dyn FnMut(&str) -> Result<Option<String>, String>,
    depth: usize,
) {
    let (expanded, dynamic) = expand(mf, names, &Auto::default(), 0);
    if dynamic || expanded.contains(['*', '?', '[']) {
        mf.unknown.push(format!(
            "{file}:{number}: includes a file only known when make runs"
        ));
        return;
    }
    for name in split_words(&expanded) {
        mf.includes.push(name.clone());
        if depth >= MAX_INCLUDE_DEPTH {
            mf.unknown.push(format!(
                "includes nested more than {MAX_INCLUDE_DEPTH} deep"
            ));
            continue;
        }
        match read(&name) {
            Ok(Some(text)) => parse_into(mf, &text, &name, overrides, read, depth + 1),
            // Make remakes a missing include from its rule, else fails
            // (`include`) or goes on (`-include`).
            Ok(None) => {}
            Err(why) => mf.unknown.push(format!(
                "{file}:{number}: includes {name}, which cannot be read: {why}"
            )),
        }
    }
}

/// A rule line: (targets, prerequisites, inline recipe, target-specific
/// assignment).
fn rule_line(line: &str) -> Option<(String, String, Option<String>, Option<String>)> {
    let colon = top_level_find(line, b':')?;
    let targets = line[..colon].trim().to_string();
    let mut rest = &line[colon + 1..];
    // `::` (double-colon) and `&:` (grouped) rules.
    rest = rest.strip_prefix(':').unwrap_or(rest);
    let targets = targets.trim_end_matches('&').trim().to_string();
    let (prereqs, inline) = match top_level_find(rest, b';') {
        Some(semi) => (
            rest[..semi].to_string(),
            Some(rest[semi + 1..].trim_start().to_string()),
        ),
        None => (rest.to_string(), None),
    };
    if inline.is_none() && assignment(prereqs.trim()).is_some() {
        return Some((
            targets,
            String::new(),
            None,
            Some(prereqs.trim().to_string()),
        ));
    }
    // A static pattern rule: `targets: pattern: prereq-patterns`.
    let prereqs = match top_level_find(&prereqs, b':') {
        Some(second) => prereqs[second + 1..].to_string(),
        None => prereqs,
    };
    Some((targets, prereqs, inline, None))
}

/// The first `byte` outside `$( )` / `${ }`.
fn top_level_find(line: &str, byte: u8) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'$' if matches!(bytes.get(i + 1), Some(b'(' | b'{')) => {
                depth += 1;
                i += 2;
                continue;
            }
            b'$' if bytes.get(i + 1) == Some(&b'$') => {
                i += 2;
                continue;
            }
            b')' | b'}' if depth > 0 => depth -= 1,
            b if b == byte && depth == 0 => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Records one assignment. `conditional`: under `ifeq` and the like, so
/// which value holds is only known when make runs.
fn set_var(
    mf: &mut Makefile,
    name: &str,
    op: &str,
    value: &str,
    conditional: bool,
    overrides: &[(String, String)],
) {
    if overrides.iter().any(|(n, _)| n == name) {
        return;
    }
    if BUILTIN_RULE_VARS.contains(&name) {
        mf.builtin_set = true;
    }
    if name == ".RECIPEPREFIX" {
        mf.unknown.push(".RECIPEPREFIX is set".into());
    }
    if name == "SHELL" && !is_posix_shell(value) {
        mf.unknown.push(format!(
            "recipes run by SHELL = {}",
            crate::limits::clip(value, 40)
        ));
    }
    if name == ".SHELLFLAGS" && !matches!(value.trim(), "-c" | "-ec" | "-e -c" | "-eu -c" | "-euc")
    {
        mf.unknown
            .push(format!(".SHELLFLAGS = {}", crate::limits::clip(value, 40)));
    }
    if op == "!=" {
        mf.parse_time.push(value.to_string());
    }
    let known = !conditional && op != "!=";
    let entry = mf.vars.entry(name.to_string()).or_insert(Var {
        value: String::new(),
        known: true,
    });
    match op {
        "+=" => {
            if !entry.value.is_empty() {
                entry.value.push(' ');
            }
            entry.value.push_str(value);
            entry.known &= known;
        }
        "?=" if !BUILTIN_VALUES.iter().any(|(n, _)| *n == name)
            && entry.known
            && !entry.value.is_empty() => {}
        _ => {
            entry.value = value.to_string();
            entry.known = known;
        }
    }
    // `?=` of a variable the environment may hold: only known when make runs.
    if op == "?=" {
        entry.known = false;
    }
}

/// A variable name written with references (`$(X)_FLAGS`), expanded.
fn expand_name(mf: &Makefile, name: &str) -> Option<String> {
    let (out, dynamic) = expand(mf, name, &Auto::default(), 0);
    (!dynamic).then(|| out.trim().to_string())
}

/// Expands references for targets and prerequisites (unknown parts kept).
pub(super) fn expand_plain(mf: &Makefile, text: &str) -> String {
    expand(mf, text, &Auto::default(), 0).0
}

/// The automatic variables of one recipe.
#[derive(Default, Clone)]
pub(super) struct Auto {
    pub(super) target: String,
    pub(super) prereqs: Vec<String>,
    pub(super) stem: String,
    pub(super) active: bool,
}

/// Expands make references in `text`: (text, whether part of it is only
/// known when make runs). Unknown parts become [`UNRESOLVED`].
pub(super) fn expand(mf: &Makefile, text: &str, auto: &Auto, depth: usize) -> (String, bool) {
    if depth > MAX_EXPANSION_DEPTH {
        return (UNRESOLVED.into(), true);
    }
    let mut out = String::new();
    let mut dynamic = false;
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut plain = 0;
    while let Some(&b) = bytes.get(i) {
        if out.len() > MAX_LINE_BYTES {
            return (UNRESOLVED.into(), true);
        }
        if b != b'$' {
            i += 1;
            continue;
        }
        out.push_str(&text[plain..i]);
        let Some(&next) = bytes.get(i + 1) else {
            plain = i + 1;
            break;
        };
        let (reference, end) = match next {
            b'$' => {
                out.push('$');
                i += 2;
                plain = i;
                continue;
            }
            b'(' | b'{' => match closing(text, i + 1, next) {
                Some(close) => (&text[i + 2..close], close + 1),
                None => {
                    dynamic = true;
                    out.push_str(UNRESOLVED);
                    plain = bytes.len();
                    break;
                }
            },
            _ => {
                let len = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                (&text[i + 1..i + 1 + len], i + 1 + len)
            }
        };
        let (value, unknown) = reference_value(mf, reference, auto, depth);
        out.push_str(&value);
        dynamic |= unknown;
        i = end;
        plain = end;
    }
    if plain < text.len() {
        out.push_str(&text[plain..]);
    }
    (out, dynamic)
}

/// The value of one reference (`CC`, `@`, `shell date`, `X:.c=.o`).
fn reference_value(mf: &Makefile, reference: &str, auto: &Auto, depth: usize) -> (String, bool) {
    // A function call: `$(name args)`.
    if let Some((name, _)) = reference.split_once([' ', '\t'])
        && !name.contains(['$', ':', '='])
    {
        return (UNRESOLVED.into(), true);
    }
    // `$(X:.c=.o)`: a substitution reference.
    let (name, subst) = match top_level_find(reference, b':') {
        Some(colon) => (&reference[..colon], Some(&reference[colon + 1..])),
        None => (reference, None),
    };
    let (name, name_dynamic) = if name.contains('$') {
        let (n, d) = expand(mf, name, auto, depth + 1);
        (n, d)
    } else {
        (name.to_string(), false)
    };
    if name_dynamic {
        return (UNRESOLVED.into(), true);
    }
    let (value, dynamic) = match automatic(&name, auto) {
        Some(v) => (v, !auto.active),
        None => match mf.vars.get(&name) {
            Some(var) if var.known => expand(mf, &var.value, auto, depth + 1),
            // Unset: the environment may hold it.
            _ => (UNRESOLVED.into(), true),
        },
    };
    if dynamic {
        return (UNRESOLVED.into(), true);
    }
    match subst {
        None => (value, false),
        Some(rule) => match rule.split_once('=') {
            Some((from, to)) if !from.contains(['%', '$']) && !to.contains(['%', '$']) => (
                value
                    .split_whitespace()
                    .map(|w| match w.strip_suffix(from) {
                        Some(stem) => format!("{stem}{to}"),
                        None => w.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
                false,
            ),
            _ => (UNRESOLVED.into(), true),
        },
    }
}

/// `$@`, `$<`, `$^`, `$+`, `$?`, `$*`, `$|` and their `D`/`F` forms.
fn automatic(name: &str, auto: &Auto) -> Option<String> {
    let mut chars = name.chars();
    let first = chars.next()?;
    let part = chars.as_str();
    let value = match first {
        '@' => auto.target.clone(),
        '<' => auto.prereqs.first().cloned().unwrap_or_default(),
        '^' | '+' | '?' | '|' => auto.prereqs.join(" "),
        '*' => auto.stem.clone(),
        '%' => String::new(),
        _ => return None,
    };
    match part {
        "" => Some(value),
        "D" => Some(
            value
                .split_whitespace()
                .map(|w| match w.rsplit_once('/') {
                    Some((d, _)) => d.to_string(),
                    None => ".".to_string(),
                })
                .collect::<Vec<_>>()
                .join(" "),
        ),
        "F" => Some(
            value
                .split_whitespace()
                .map(|w| w.rsplit_once('/').map_or(w, |(_, f)| f).to_string())
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => None,
    }
}

/// Whether `pattern` (one `%`) matches `name`: the stem.
pub(super) fn pattern_stem(pattern: &str, name: &str) -> Option<String> {
    let (prefix, suffix) = pattern.split_once('%')?;
    let stem = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
    (name.len() >= prefix.len() + suffix.len()).then(|| stem.to_string())
}

/// Strips make's recipe-line prefixes (`@`, `-`, `+`, and blanks).
pub(super) fn strip_prefixes(line: &str) -> &str {
    line.trim_start_matches(['@', '-', '+', ' ', '\t'])
}
