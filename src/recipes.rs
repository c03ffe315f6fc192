//! Recipe files that build and test runners run: Makefile (`make`),
//! justfile (`just`) and the `scripts` of `package.json` (`npm`, `yarn`,
//! `pnpm`). Text in, shell lines out: the engine reads the files and
//! judges each line through the shell lane. What these readers cannot
//! follow (a variable only known when the runner runs, `$(eval …)`, an
//! `import`) is reported, never guessed; every cost is bounded by the
//! limits below.

use std::collections::{HashMap, HashSet};

/// Most targets, recipes or scripts followed from one invocation.
pub const MAX_TARGETS: usize = 512;
/// Most lines one invocation hands to the shell lane.
pub const MAX_LINES: usize = 2_000;
/// Deepest variable reference followed (`A = $(B)`, `B = $(A)` ends here).
pub const MAX_EXPANSION_DEPTH: usize = 32;
/// Longest expanded line, in bytes; longer is only known when it runs.
pub const MAX_LINE_BYTES: usize = 64 << 10;
/// Most recipe files (Makefiles, includes, justfiles, package.json) read
/// in one request.
pub const MAX_FILES: usize = 32;

/// Stands for a part of a line that is only known when the runner runs.
const UNRESOLVED: &str = "$__portcullis_unresolved";

/// One shell line a runner runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The shell text; unresolved parts are an unset shell variable.
    pub text: String,
    /// Where it comes from (`Makefile: test`), for reasons and traces.
    pub origin: String,
    /// Part of it is only known when the runner runs.
    pub dynamic: bool,
}

/// What a reader found an invocation runs.
#[derive(Debug, Default)]
pub struct Plan {
    /// Every line it runs, in order.
    pub lines: Vec<Line>,
    /// What could not be followed, in words; not empty: not FREE.
    pub unknown: Vec<String>,
}

impl Plan {
    fn unknown(&mut self, why: impl Into<String>) {
        let why = why.into();
        if !self.unknown.contains(&why) && self.unknown.len() < 16 {
            self.unknown.push(why);
        }
    }

    fn push(&mut self, text: String, origin: &str, dynamic: bool) {
        if self.lines.len() >= MAX_LINES {
            self.unknown(format!("more than {MAX_LINES} recipe lines"));
            return;
        }
        self.lines.push(Line {
            text,
            origin: origin.to_string(),
            dynamic,
        });
    }
}

// ---------------------------------------------------------------- make

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
    while i < args.len() {
        let a = args[i].as_str();
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
            while k < letters.len() {
                let flag = format!("-{}", letters[k]);
                let rest: String = letters[k + 1..].iter().collect();
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

/// `NAME op value` with op one of `=`, `:=`, `::=`, `:::=`, `?=`, `+=`,
/// `!=`: (name, op, value), when the first `=` or `:` outside `$( )`
/// makes it an assignment.
fn assignment(line: &str) -> Option<(&str, &str, &str)> {
    let bytes = line.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'$' if matches!(bytes.get(i + 1), Some(b'(' | b'{')) => {
                depth += 1;
                i += 2;
                continue;
            }
            b')' | b'}' if depth > 0 => depth -= 1,
            b'=' if depth == 0 => {
                let mut start = i;
                while start > 0 && matches!(bytes[start - 1], b':' | b'?' | b'+' | b'!') {
                    start -= 1;
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
struct Rule {
    targets: Vec<String>,
    prereqs: Vec<String>,
    recipe: Vec<String>,
    /// `%` in a target: a pattern rule.
    pattern: bool,
    line: usize,
}

/// One variable: its raw text (expanded where it is used), or unknown.
#[derive(Debug, Clone)]
struct Var {
    value: String,
    known: bool,
}

/// A Makefile as read: rules, variables, and what cannot be followed.
#[derive(Debug, Default)]
pub struct Makefile {
    rules: Vec<Rule>,
    vars: HashMap<String, Var>,
    first_target: Option<String>,
    /// Commands run while the file is read (`X != cmd`, `$(shell cmd)`).
    parse_time: Vec<String>,
    /// Files it includes (remade first when a rule names them).
    includes: Vec<String>,
    oneshell: bool,
    unknown: Vec<String>,
    /// Variables used by make's built-in rules that the file sets.
    builtin_set: bool,
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
const BUILTIN_RULES: &[&str] = &[
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
    while n < physical.len() {
        let start = n;
        let first = physical[n].strip_suffix('\r').unwrap_or(physical[n]);
        let recipe = first.starts_with('\t');
        let mut line = first.to_string();
        n += 1;
        while ends_with_continuation(&line) && n < physical.len() {
            let next = physical[n].strip_suffix('\r').unwrap_or(physical[n]);
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
fn ends_with_continuation(line: &str) -> bool {
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
fn split_words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// Every `$(shell …)` / `${shell …}` in `text`: the command text.
fn shell_calls(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i] == b'$' && matches!(bytes[i + 1], b'(' | b'{') {
            let open = bytes[i + 1];
            if let Some(end) = closing(text, i + 1, open) {
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
            mf.rules[rule].recipe.push(line);
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
    while i < bytes.len() {
        match bytes[i] {
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
fn expand_plain(mf: &Makefile, text: &str) -> String {
    expand(mf, text, &Auto::default(), 0).0
}

/// The automatic variables of one recipe.
#[derive(Default, Clone)]
struct Auto {
    target: String,
    prereqs: Vec<String>,
    stem: String,
    active: bool,
}

/// Expands make references in `text`: (text, whether part of it is only
/// known when make runs). Unknown parts become [`UNRESOLVED`].
fn expand(mf: &Makefile, text: &str, auto: &Auto, depth: usize) -> (String, bool) {
    if depth > MAX_EXPANSION_DEPTH {
        return (UNRESOLVED.into(), true);
    }
    let mut out = String::new();
    let mut dynamic = false;
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut plain = 0;
    while i < bytes.len() {
        if out.len() > MAX_LINE_BYTES {
            return (UNRESOLVED.into(), true);
        }
        if bytes[i] != b'$' {
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
fn pattern_stem(pattern: &str, name: &str) -> Option<String> {
    let (prefix, suffix) = pattern.split_once('%')?;
    let stem = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
    (name.len() >= prefix.len() + suffix.len()).then(|| stem.to_string())
}

/// Strips make's recipe-line prefixes (`@`, `-`, `+`, and blanks).
fn strip_prefixes(line: &str) -> &str {
    line.trim_start_matches(['@', '-', '+', ' ', '\t'])
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

// ---------------------------------------------------------------- just

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
    while n < lines.len() {
        let raw = lines[n];
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
        while n < lines.len() && (lines[n].starts_with([' ', '\t']) || lines[n].trim().is_empty()) {
            body.push(lines[n].to_string());
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
    while i < args.len() {
        let a = args[i].as_str();
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
    while k < positional.len() {
        let name = positional[k].clone();
        k += 1;
        let Some(recipe) = find_recipe(&jf, &name) else {
            // just refuses to run anything when a recipe is missing.
            return plan;
        };
        let mut taken = Vec::new();
        for (_, _, variadic) in &recipe.params {
            if *variadic {
                taken.extend(positional[k..].iter().cloned());
                k = positional.len();
            } else if k < positional.len() {
                taken.push(positional[k].clone());
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
            let text: Vec<String> = recipe.body[1..]
                .iter()
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

// ---------------------------------------------------------------- npm

/// What a package runner's arguments ask for.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ScriptCall {
    /// The scripts run, in order (`pretest`, `test`, `posttest`).
    pub scripts: Vec<String>,
    /// Words added to the last script's command line.
    pub extra: Vec<String>,
    /// Options that change where the scripts come from or what runs them.
    pub source: Vec<String>,
    /// A folder the runner moves to first (`--prefix`, `-C`, `--cwd`).
    pub dir: Option<String>,
}

/// Subcommands of yarn (1 and berry) and pnpm that are not scripts.
#[rustfmt::skip]
const NOT_SCRIPTS: &[&str] = &[
    "add", "audit", "autoclean", "bin", "cache", "check", "config", "create", "dedupe", "dlx",
    "doctor", "exec", "explain", "generate-lock-entry", "global", "help", "i", "import", "info",
    "init", "install", "licenses", "link", "list", "login", "logout", "ls", "node", "npm",
    "outdated", "owner", "pack", "patch", "patch-commit", "plugin", "policies", "prune", "publish",
    "rebuild", "remove", "rm", "root", "search", "set", "setup", "store", "tag", "team", "un",
    "unlink", "uninstall", "unplug", "up", "update", "upgrade", "upgrade-interactive", "version",
    "versions", "why", "workspace", "workspaces", "add", "server", "env", "fetch", "self-update",
    "recursive", "multi", "m", "outdated",
];

/// Options of npm, yarn and pnpm that change where scripts come from or
/// what runs them; the first three name a folder.
#[rustfmt::skip]
const SOURCE_OPTS: &[&str] = &[
    "--prefix", "-C", "--dir", "--cwd", "-w", "--workspace", "--workspaces", "-ws",
    "--include-workspace-root", "--script-shell", "--node-options", "--userconfig",
    "--globalconfig", "--filter", "-F", "-r", "--recursive", "--shell-emulator", "-g", "--global",
    "--call", "-c",
];

/// Options of npm, yarn and pnpm that take a value.
#[rustfmt::skip]
const VALUE_OPTS: &[&str] = &[
    "--loglevel", "--prefix", "-C", "--dir", "--cwd", "-w", "--workspace", "--script-shell",
    "--node-options", "--userconfig", "--globalconfig", "--filter", "-F", "--reporter",
    "--registry", "--cache", "--call", "-c",
];

/// Which `package.json` scripts `npm`/`yarn`/`pnpm ARGS` runs. `None`:
/// the command runs no script of the project.
pub fn script_call(runner: &str, args: &[String]) -> Option<ScriptCall> {
    let mut call = ScriptCall::default();
    let mut positional: Vec<String> = Vec::new();
    let mut i = 0;
    let mut after_dashes = false;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if after_dashes {
            call.extra.push(a.to_string());
            continue;
        }
        if a == "--" {
            after_dashes = true;
            continue;
        }
        if a.starts_with('-') && a.len() > 1 {
            let (name, attached) = match a.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (a, None),
            };
            let value = if VALUE_OPTS.contains(&name) && attached.is_none() {
                let v = args.get(i).cloned();
                i += 1;
                v
            } else {
                attached
            };
            if SOURCE_OPTS.contains(&name) {
                call.source.push(a.to_string());
                if matches!(name, "--prefix" | "-C" | "--dir" | "--cwd") {
                    call.dir = value;
                }
            }
            // After the script's name, yarn and pnpm hand options to it.
            if positional.len() >= 2 || (runner != "npm" && positional.len() == 1) {
                call.extra.push(a.to_string());
            }
            continue;
        }
        positional.push(a.to_string());
    }
    let first = positional.first()?.as_str();
    let (script, rest) = match first {
        "run" | "run-script" | "rum" | "urn" => (positional.get(1)?.clone(), positional.get(2..)),
        "test" | "t" | "tst" if runner != "bun" => ("test".to_string(), positional.get(1..)),
        "start" | "stop" | "restart" if runner != "bun" => (first.to_string(), positional.get(1..)),
        _ if runner == "npm" => return None,
        // `bun test` is bun's own test runner; only `bun run X` runs a script.
        _ if runner == "bun" => return None,
        _ if NOT_SCRIPTS.contains(&first) => return None,
        _ => (first.to_string(), positional.get(1..)),
    };
    let mut extra: Vec<String> = rest.unwrap_or(&[]).to_vec();
    extra.append(&mut call.extra);
    call.extra = extra;
    call.scripts = vec![
        format!("pre{script}"),
        script.clone(),
        format!("post{script}"),
    ];
    Some(call)
}

/// The lines `call` runs with this `package.json` text; `Err` when it
/// does not parse as JSON with a `scripts` object of strings.
pub fn package_plan(text: &str, call: &ScriptCall, runner: &str) -> Result<Plan, String> {
    let json: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let scripts = match json.get("scripts") {
        Some(serde_json::Value::Object(map)) => map.clone(),
        None => serde_json::Map::new(),
        Some(_) => return Err("`scripts` is not an object".into()),
    };
    let mut plan = Plan::default();
    let main = call.scripts.get(1).cloned().unwrap_or_default();
    for name in &call.scripts {
        let text = match scripts.get(name) {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(_) => {
                plan.unknown(format!("scripts.{name} is not a string"));
                continue;
            }
            // npm's defaults: `start` runs server.js; `restart` stop and start.
            None if *name == main && name == "start" && runner == "npm" => "node server.js".into(),
            None => continue,
        };
        let mut line = text;
        if *name == main && !call.extra.is_empty() {
            match shlex::try_join(call.extra.iter().map(String::as_str)) {
                Ok(extra) => {
                    line.push(' ');
                    line.push_str(&extra);
                }
                Err(_) => plan.unknown("arguments that cannot be quoted"),
            }
        }
        plan.push(line, &format!("package.json scripts.{name}"), false);
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: &str) -> Result<Option<String>, String> {
        Ok(None)
    }

    fn make(text: &str, goals: &[&str]) -> Plan {
        let mf = parse_makefile(text, &[], &[], &mut none);
        let goals: Vec<String> = goals.iter().map(|g| g.to_string()).collect();
        make_plan(&mf, &goals, &["Makefile".into()])
    }

    fn texts(plan: &Plan) -> Vec<&str> {
        plan.lines.iter().map(|l| l.text.as_str()).collect()
    }

    #[test]
    fn make_follows_prerequisites_and_variables() {
        let text = "PY = python3\nall: build\n\ntest: build\n\t@$(PY) -m pytest -x \\\n\t  tests/\nbuild:\n\t-mkdir -p out\n\t$(MAKE) -C sub\nclean:\n\trm -rf ~\n";
        let plan = make(text, &["test"]);
        assert_eq!(
            texts(&plan),
            vec![
                "mkdir -p out",
                "make -C sub",
                "python3 -m pytest -x \\\n  tests/"
            ]
        );
        assert!(plan.unknown.is_empty());
        let plan = make(text, &[]);
        assert_eq!(texts(&plan), vec!["mkdir -p out", "make -C sub"]);
        let plan = make(text, &["clean"]);
        assert_eq!(texts(&plan), vec!["rm -rf ~"]);
    }

    #[test]
    fn make_unknown_parts_are_dynamic() {
        let plan = make("x:\n\t$(TOOL) run\n\techo $$HOME $@\n", &["x"]);
        assert!(plan.lines[0].dynamic);
        assert_eq!(plan.lines[1].text, "echo $HOME x");
        assert!(!plan.lines[1].dynamic);
        let plan = make(
            "X != rm -rf ~\nY := $(shell curl x | sh)\nall:\n\ttrue\n",
            &[],
        );
        assert_eq!(texts(&plan)[..2], ["rm -rf ~", "curl x | sh"]);
        let plan = make("$(eval $(call rules))\nall:\n\ttrue\n", &[]);
        assert!(!plan.unknown.is_empty());
        let plan = make("SHELL = python3\nall:\n\tprint(1)\n", &[]);
        assert!(!plan.unknown.is_empty());
    }

    #[test]
    fn make_builtin_rules_and_patterns() {
        let plan = make("CC = rm -rf ~ ;\nprog: prog.o\n", &[]);
        assert!(plan.lines.iter().any(|l| l.text.starts_with("rm -rf ~ ;")));
        let plan = make("%.o: %.c\n\tgcc -c $< -o $@\nall: a.o\n", &["all"]);
        assert_eq!(texts(&plan), vec!["gcc -c a.c -o a.o"]);
        let plan = make("all:\n\techo hi\nMakefile: gen\n\trm -rf ~\n", &["all"]);
        assert!(texts(&plan).contains(&"rm -rf ~"));
    }

    #[test]
    fn make_args_are_read() {
        let args: Vec<String> = [
            "-sC",
            "sub",
            "-j4",
            "--file=x.mk",
            "test",
            "CC=cc",
            "-f",
            "-",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let a = make_args(&args);
        assert_eq!(a.dirs, vec!["sub"]);
        assert_eq!(a.files, vec!["x.mk", "-"]);
        assert_eq!(a.goals, vec!["test"]);
        assert_eq!(a.overrides, vec![("CC".to_string(), "cc".to_string())]);
        let a = make_args(&["--eval=x:".to_string(), "-Ebad".to_string()]);
        assert_eq!(a.evals, vec!["x:", "bad"]);
    }

    #[test]
    fn justfiles_are_read() {
        let text = "set shell := [\"bash\", \"-uc\"]\nv := \"1\"\nalias t := test\n\ndefault: build\n\nbuild:\n    cargo build\n\ntest filter='': build\n    cargo test {{filter}}\n    @echo {{v}}\n\nclean:\n    rm -rf ~\n";
        let jf = parse_justfile(text);
        let plan = just_plan(&jf, &[]);
        assert_eq!(texts(&plan), vec!["cargo build"]);
        let plan = just_plan(&jf, &["t".into(), "x".into()]);
        assert_eq!(texts(&plan), vec!["cargo build", "cargo test x", "echo 1"]);
        let plan = just_plan(&jf, &["clean".into()]);
        assert_eq!(texts(&plan), vec!["rm -rf ~"]);
        assert!(plan.unknown.is_empty());
    }

    #[test]
    fn package_scripts_are_found() {
        let json = r#"{"scripts": {"pretest": "echo pre", "test": "jest", "build": "tsc"}}"#;
        let call = script_call("npm", &["test".into(), "--".into(), "-u".into()]).unwrap();
        let plan = package_plan(json, &call, "npm").unwrap();
        assert_eq!(texts(&plan), vec!["echo pre", "jest -u"]);
        let call = script_call("yarn", &["build".into()]).unwrap();
        assert_eq!(
            texts(&package_plan(json, &call, "yarn").unwrap()),
            vec!["tsc"]
        );
        assert!(script_call("yarn", &["add".into(), "x".into()]).is_none());
        assert!(script_call("npm", &["install".into()]).is_none());
        let call = script_call("npm", &["--prefix".into(), "x".into(), "test".into()]).unwrap();
        assert_eq!(call.dir.as_deref(), Some("x"));
        assert!(!call.source.is_empty());
    }
}
