//! Two properties the verdicts must keep, whatever the command:
//!
//! 1. Wrapping never weakens: the verdict of `W cmd` is at least that of
//!    `cmd`, for every wrapper `W` in `rules/wrappers.json` and for the
//!    shells that re-parse a script (`bash -c`, `sh -c`, `eval`, `find
//!    -exec`).
//! 2. A FREE command added with `;` (before or after) never lowers a
//!    verdict.
//! 3. A harmless-looking environment prefix (`LANG=C cmd`, `FOO=1 cmd`)
//!    never lowers a verdict, and neither does a git global option
//!    inserted after `git` (`git --no-pager -c color.ui=never …`).
//!
//! Both are checked exhaustively over every single-line command of
//! `corpus/*.tsv`, and by proptest over generated commands (lexicon verbs
//! with risky and harmless arguments, wrappers nested up to three deep).

use portcullis::rules::{WRAPPERS, Wrapper, WrapperMode, lexicon};
use portcullis::{Location, Verdict, evaluate};
use proptest::prelude::*;

use crate::common;

use common::{Scratch, load_cases};

/// Commands that are FREE wherever they stand (checked below).
const FREE_COMMANDS: &[&str] = &[
    "ls",
    "pwd",
    "git status",
    "echo done",
    "true",
    "cat README.md",
    "grep -rn foo src/",
    "wc -l Cargo.toml",
];

/// Shell builtins and keywords: an argv wrapper (`sudo`, `nice`) cannot
/// run them, so `nice cd /` is a failed exec, not a `cd`.
const NOT_PROGRAMS: &[&str] = &[
    "cd",
    "pushd",
    "popd",
    "export",
    "unset",
    "set",
    "shopt",
    "source",
    ".",
    "alias",
    "unalias",
    "eval",
    "exec",
    "trap",
    "declare",
    "local",
    "readonly",
    "typeset",
    "let",
    "builtin",
    "command",
    "function",
    "if",
    "for",
    "while",
    "until",
    "case",
    "select",
    "time",
    "coproc",
    "!",
    "{",
    "(",
    "[[",
    "return",
    "exit",
    "break",
    "continue",
    "shift",
    "wait",
    "jobs",
    "fg",
    "bg",
    "disown",
    "umask",
    "ulimit",
    "hash",
    "history",
    "read",
    "mapfile",
    "readarray",
    "getopts",
    "enable",
    "complete",
    "compgen",
    "caller",
    "dirs",
    "suspend",
    "logout",
    "fc",
    "bind",
    "times",
];

/// Environment prefixes that look harmless (known names, and names
/// portcullis does not know).
const ENVIRONMENT_PREFIXES: &[&str] = &["LANG=C", "NO_COLOR=1", "CI=true", "FOO=1", "TERM=dumb"];

/// Git global options inserted right after `git`.
const GIT_GLOBALS: &[&str] = &[
    "--no-pager",
    "-P",
    "-C .",
    "-c color.ui=never",
    "--literal-pathspecs",
    "--attr-source HEAD",
    "--config-env=color.ui=HOME",
    "--no-optional-locks",
    "--bare",
];

/// `'…'`: `text` as one single-quoted shell word.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// One way to wrap a command, with its name for messages.
struct Form {
    name: String,
    /// Whether it takes any line (a shell re-parses it) or only one
    /// simple command that is a program (argv wrappers).
    whole_line: bool,
    wrap: Box<dyn Fn(&str) -> String>,
}

/// The prefix a wrapper needs before its inner command (`timeout 5`).
fn prefix(wrapper: &Wrapper) -> String {
    let operands = match wrapper.name {
        "timeout" => " 5",
        "chrt" => " 1",
        "taskset" => " 0x1",
        "flock" => " /tmp/lock",
        _ if wrapper.skip_operands > 0 => " x",
        _ => "",
    };
    format!("{}{operands}", wrapper.name)
}

fn forms() -> Vec<Form> {
    let mut forms = Vec::new();
    for wrapper in WRAPPERS {
        // `su user args` hands args to the user's shell, and `script file`
        // names its log: their commands come with `-c` (below).
        if matches!(wrapper.name, "su" | "script") {
            continue;
        }
        let head = prefix(wrapper);
        let name = head.clone();
        forms.push(Form {
            name,
            whole_line: false,
            wrap: match wrapper.mode {
                WrapperMode::Xargs => Box::new(move |c| format!("echo x | {head} {c}")),
                _ => Box::new(move |c| format!("{head} {c}")),
            },
        });
    }
    for shell in [
        "bash -c",
        "sh -c",
        "zsh -c",
        "eval",
        "bash -lc",
        "sudo bash -c",
        "su -c",
        "script -q -c",
        "flock /tmp/lock -c",
    ] {
        forms.push(Form {
            name: shell.into(),
            whole_line: true,
            wrap: Box::new(move |c| format!("{shell} {}", quote(c))),
        });
    }
    for assignment in ENVIRONMENT_PREFIXES {
        forms.push(Form {
            name: (*assignment).into(),
            whole_line: false,
            wrap: Box::new(move |c| format!("{assignment} {c}")),
        });
    }
    forms.push(Form {
        name: "find -exec".into(),
        whole_line: false,
        wrap: Box::new(|c| format!("find . -name x -exec {c} \\;")),
    });
    forms
}

/// Whether `command` is one simple command whose first word is a program
/// (what an argv wrapper can run).
fn is_one_program(command: &str) -> bool {
    let script = portcullis::shell::parse::parse(command);
    let [only] = script.commands.as_slice() else {
        return false;
    };
    script.problems.is_empty()
        && script.functions.is_empty()
        && only.assignments.is_empty()
        && only.redirects.is_empty()
        && only.span == (0..command.trim_end().len())
        && only
            .words
            .first()
            .is_some_and(|w| w.is_static() && !NOT_PROGRAMS.contains(&w.value.as_str()))
}

/// Checks both properties for one command; returns the violations.
fn check(command: &str, forms: &[Form], location: &Location) -> Vec<String> {
    let mut violations = Vec::new();
    let base = evaluate(command, location).verdict();
    let one_program = is_one_program(command);
    for form in forms {
        if !form.whole_line && !one_program {
            continue;
        }
        let wrapped = (form.wrap)(command);
        let got = evaluate(&wrapped, location).verdict();
        if got < base {
            violations.push(format!(
                "{}: {base} for {command:?} but {got} for {wrapped:?}",
                form.name
            ));
        }
    }
    if one_program && let Some(rest) = command.strip_prefix("git ") {
        for global in GIT_GLOBALS {
            let inserted = format!("git {global} {rest}");
            let got = evaluate(&inserted, location).verdict();
            if got < base {
                violations.push(format!(
                    "git {global}: {base} for {command:?} but {got} for {inserted:?}"
                ));
            }
        }
    }
    for free in FREE_COMMANDS {
        for joined in [format!("{command}; {free}"), format!("{free}; {command}")] {
            let got = evaluate(&joined, location).verdict();
            if got < base {
                violations.push(format!(
                    "`;` {free}: {base} for {command:?} but {got} for {joined:?}"
                ));
            }
        }
    }
    violations
}

#[test]
fn the_free_commands_are_free() {
    let scratch = Scratch::new("monotonic");
    let location = scratch.location();
    for free in FREE_COMMANDS {
        assert_eq!(evaluate(free, &location).verdict(), Verdict::Free, "{free}");
    }
}

#[test]
fn wrapping_or_adding_free_commands_never_weakens_a_corpus_verdict() {
    let scratch = Scratch::new("monotonic");
    let location = scratch.location();
    let forms = forms();
    let mut checked = 0usize;
    let mut violations = Vec::new();
    for case in load_cases() {
        if case.command.contains('\n') || case.command.len() > 400 {
            continue;
        }
        checked += 1;
        violations.extend(
            check(&case.command, &forms, &location)
                .into_iter()
                .map(|v| format!("{}:{}: {v}", case.file, case.line)),
        );
    }
    println!(
        "{checked} corpus commands, {} forms, {} violations",
        forms.len(),
        violations.len()
    );
    for v in violations.iter().take(100000) {
        eprintln!("{v}");
    }
    assert!(
        checked > 2000,
        "only {checked} corpus commands were checked"
    );
    assert!(
        violations.is_empty(),
        "{} violations (above)",
        violations.len()
    );
}

/// Arguments that make a verb risky or leave it harmless.
const ARGUMENTS: &[&str] = &[
    "-rf",
    "-f",
    "-r",
    "-i",
    "--force",
    "--hard",
    "-n",
    "--dry-run",
    "/",
    "~",
    "~/",
    "/etc/passwd",
    ".env",
    ".git/hooks/pre-commit",
    ".github/workflows/ci.yml",
    "src/main.rs",
    "README.md",
    "origin",
    "main",
    "HEAD~1",
    "-la",
    "--version",
    "--help",
    "x.txt",
    "/tmp/x",
    "*",
    "-delete",
    "--global",
    "install",
    "push",
    "reset",
    "-c",
    "ls",
    "-e",
    "print(1)",
    "http://example.com/x",
    "-o",
    "out.txt",
    "-d",
    ".",
    "..",
    "-v",
];

fn generated_command() -> impl Strategy<Value = String> {
    let verbs: Vec<&'static str> = lexicon().iter().map(|s| s.name()).collect();
    (
        proptest::sample::select(verbs),
        proptest::collection::vec(proptest::sample::select(ARGUMENTS), 0..5),
    )
        .prop_map(|(verb, args)| {
            let mut command = verb.to_string();
            for arg in args {
                command.push(' ');
                command.push_str(arg);
            }
            command
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn wrapping_never_weakens_a_generated_command(
        command in generated_command(),
        chain in proptest::collection::vec(0usize..1000, 1..4),
    ) {
        let scratch = Scratch::new("monotonic");
        let location = scratch.location();
        let forms = forms();
        // One wrapper: both properties.
        let violations = check(&command, &forms, &location);
        prop_assert!(violations.is_empty(), "{violations:#?}");
        // A chain of argv wrappers and shells, each step checked.
        let mut current = command;
        for pick in chain {
            let form = &forms[pick % forms.len()];
            if !form.whole_line && !is_one_program(&current) {
                continue;
            }
            let before = evaluate(&current, &location).verdict();
            let wrapped = (form.wrap)(&current);
            let after = evaluate(&wrapped, &location).verdict();
            prop_assert!(
                after >= before,
                "{}: {before} for {current:?} but {after} for {wrapped:?}",
                form.name
            );
            current = wrapped;
        }
    }
}
