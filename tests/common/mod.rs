//! Shared by the integration tests: the labelled corpus (`corpus/*.tsv`)
//! and the location every case runs in.
#![allow(dead_code)]

use portcullis::{Location, Verdict};
use std::path::Path;

/// One labelled case.
pub struct Case {
    pub file: String,
    pub line: usize,
    pub verdict: Verdict,
    pub rule: Option<String>,
    pub command: String,
}

/// `\n` → newline, `\t` → tab, `\\` → backslash; other backslashes stay.
pub fn unescape(raw: &str) -> String {
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

/// Every case of every `corpus/*.tsv`, in file order.
pub fn load_cases() -> Vec<Case> {
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

/// Working folder `/home/u/proj`, home `/home/u`.
pub fn location() -> Location {
    Location {
        cwd: Some("/home/u/proj".into()),
        home: Some("/home/u".into()),
    }
}

/// `portcullis check --json --cwd DIR -- COMMAND` run as a process (home
/// `/home/u`): (verdict, rule).
pub fn check_binary(cwd: &Path, command: &str) -> (String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_portcullis"))
        .env("HOME", "/home/u")
        .args(["check", "--json", "--cwd"])
        .arg(cwd)
        .args(["--", command])
        .output()
        .expect("run portcullis");
    let value: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("check --json prints one object");
    (
        value["verdict"].as_str().unwrap_or("").to_string(),
        value["rule"].as_str().unwrap_or("").to_string(),
    )
}
