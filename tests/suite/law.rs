//! The path law on real repositories: builds the fixtures of
//! `corpus/fixtures/repos*.txt` in a temporary folder and runs every case of
//! `corpus/fixtures/*.tsv` against them, in process and (for a sample)
//! through the `portcullis hook` binary.
//!
//! A case is `VERDICT<TAB>RULE-or-dash<TAB>WHERE<TAB>REQUEST`: WHERE is a
//! fixture name, optionally with a sub-folder (`gantry/src/billing`), the
//! request's working folder; REQUEST is a shell command, or `@Write PATH`
//! (also `@Edit`, `@MultiEdit`, `@NotebookEdit`, `@Read`) for an edit
//! tool's request on PATH (relative to the fixture's root, or absolute);
//! `@Write PATH\tCONTENT` gives the new content, `@Edit PATH\tOLD\tNEW`
//! one replacement (without them the content is unknown).
//! In REQUEST, `$FIXTURES` is the temporary folder holding every fixture.

use portcullis::engine::{EditContent, EditKind, Replacement, evaluate_edit_with};
use portcullis::law::Laws;
use portcullis::{Decision, Location, Verdict, evaluate};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use crate::common;

/// The files of `corpus/fixtures` whose names start with `prefix` and end
/// with `suffix`, in name order, each with its text.
fn corpus_files(prefix: &str, suffix: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/fixtures");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(prefix) && n.ends_with(suffix))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let text = corpus_file(&n);
            (n, text)
        })
        .collect()
}

fn corpus_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/fixtures")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Builds every fixture once per test process; returns the folder.
fn fixtures() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("portcullis-law-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("home")).unwrap();
        common::remove_at_exit(&dir);
        for (_, spec) in corpus_files("repos", ".txt") {
            build(&dir, &spec);
        }
        // Resolve links in the folder itself (macOS /tmp is a link).
        dir.canonicalize().unwrap()
    })
}

fn build(dir: &Path, spec: &str) {
    let mut root: Option<PathBuf> = None;
    let mut lines = spec.lines();
    while let Some(line) = lines.next() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (op, rest) = line.split_once(' ').unwrap_or((line, ""));
        if op == "===" {
            let r = dir.join(rest.trim());
            std::fs::create_dir_all(&r).unwrap();
            root = Some(r);
            continue;
        }
        let root = root
            .as_ref()
            .unwrap_or_else(|| panic!("`{line}` before any `=== NAME`"));
        match op {
            "git" => git_init(root),
            "hooks-path" => {
                let config = root.join(".git/config");
                let mut text = std::fs::read_to_string(&config).unwrap_or_default();
                text.push_str(&format!("[core]\n\thooksPath = {rest}\n"));
                std::fs::write(config, text).unwrap();
            }
            "dir" => std::fs::create_dir_all(root.join(rest)).unwrap(),
            "file" => {
                let mut body = String::new();
                for l in lines.by_ref() {
                    if l == "EOF" {
                        break;
                    }
                    body.push_str(l);
                    body.push('\n');
                }
                let path = root.join(rest);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, body).unwrap();
            }
            // `git-in PATH`: a repository of its own inside the fixture.
            "git-in" => {
                let inner = root.join(rest);
                std::fs::create_dir_all(&inner).unwrap();
                git_init(&inner);
            }
            // `hardlink PATH TARGET`: PATH is another name of TARGET's file.
            "hardlink" => {
                let (path, target) = rest.split_once(' ').unwrap();
                let path = root.join(path);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::hard_link(root.join(target), path).unwrap();
            }
            "link" => {
                let (path, target) = rest.split_once(' ').unwrap();
                let path = root.join(path);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::os::unix::fs::symlink(target, path).unwrap();
            }
            other => panic!("repos*.txt: unknown instruction `{other}`"),
        }
    }
}

/// `git init`, or, on a machine without git, the folders git would make
/// (all the law reads is `.git`, `.git/config` and `.git/hooks`).
fn git_init(root: &Path) {
    let made = Command::new("git")
        .args(["init", "-q"])
        .arg(root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!(
            "git is not installed: making {}/.git by hand",
            root.display()
        );
        std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
        std::fs::write(root.join(".git/config"), "[core]\n\tbare = false\n").unwrap();
    }
}

struct Case {
    file: String,
    line: usize,
    verdict: Verdict,
    rule: Option<String>,
    at: String,
    request: String,
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (file, text) in corpus_files("", ".tsv") {
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let cols: Vec<&str> = line.splitn(4, '\t').collect();
            let [verdict, rule, at, request] = cols[..] else {
                panic!(
                    "{file}:{}: expected 4 tab-separated columns: {line:?}",
                    i + 1
                )
            };
            cases.push(Case {
                file: file.clone(),
                line: i + 1,
                verdict: Verdict::parse(verdict)
                    .unwrap_or_else(|| panic!("{file}:{}: bad verdict {verdict}", i + 1)),
                rule: (rule != "-").then(|| rule.to_string()),
                at: at.to_string(),
                request: common::unescape(request)
                    .replace("$FIXTURES", &fixtures().to_string_lossy()),
            });
        }
    }
    cases
}

const TOOLS: &[(&str, EditKind)] = &[
    ("@Write ", EditKind::Write),
    ("@Edit ", EditKind::Write),
    ("@MultiEdit ", EditKind::Write),
    ("@NotebookEdit ", EditKind::Write),
    ("@Read ", EditKind::Read),
];

fn judge(case: &Case) -> Decision {
    let cwd = fixtures().join(&case.at);
    let location = Location {
        cwd: Some(cwd.clone()),
        home: Some(fixtures().join("home")),
    };
    for (prefix, kind) in TOOLS {
        if let Some(rest) = case.request.strip_prefix(prefix) {
            let mut parts = rest.split('\t');
            let path = parts.next().unwrap_or("");
            let content = match (parts.next(), parts.next()) {
                (Some(text), None) => Some(EditContent::Whole(text.to_string())),
                (Some(old), Some(new)) => Some(EditContent::Replace(vec![Replacement {
                    old: old.to_string(),
                    new: new.to_string(),
                    all: false,
                }])),
                _ => None,
            };
            let fixture_root = fixtures().join(case.at.split('/').next().unwrap_or(""));
            let absolute = fixture_root.join(path);
            let mut laws = Laws::new(Some(&cwd));
            return evaluate_edit_with(
                *kind,
                &absolute.to_string_lossy(),
                content.as_ref(),
                &location,
                &mut laws,
            );
        }
    }
    evaluate(&case.request, &location)
}

#[test]
fn every_fixture_case_gets_its_verdict() {
    let cases = cases();
    assert!(cases.len() >= 150, "only {} fixture cases", cases.len());
    let mut mismatches = Vec::new();
    for case in &cases {
        let decision = judge(case);
        let rule_ok = case.rule.as_ref().is_none_or(|r| decision.top.rule == *r);
        if decision.verdict() != case.verdict || !rule_ok {
            mismatches.push(format!(
                "{}:{}\t{} {}\t{} {}\t{}\t{:?}\t{}",
                case.file,
                case.line,
                case.verdict,
                case.rule.as_deref().unwrap_or("-"),
                decision.verdict(),
                decision.top.rule,
                case.at,
                case.request,
                decision.top.reason
            ));
        }
    }
    for m in &mismatches {
        eprintln!("{m}");
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} fixture cases mismatch",
        mismatches.len(),
        cases.len()
    );
}

/// Every rule id the issue names is exercised by at least one case.
#[test]
fn every_law_rule_has_a_case() {
    let cases = cases();
    for rule in [
        "cage.ci_config",
        "cage.secrets",
        "cage.secrets.read",
        "cage.git_control",
        "cage.cage_config",
        "cage.manifest_forbidden_zone",
        "cage.lockfile",
        "cage.dependency_manifest",
        "cage.cage_protect",
        "cage.out_of_scope",
        "gantry.forbidden_zone",
        "gantry.outside_roots",
        "gantry.policy_file",
        "gantry.mission_contract",
        "trust.executable",
        "trust.model_influencing",
        "trust.restricted",
        "trust.denied",
    ] {
        assert!(
            cases.iter().any(|c| c.rule.as_deref() == Some(rule)),
            "no fixture case pins {rule}"
        );
    }
}

/// `portcullis hook ARGS` on `request`; exit code and stdout.
fn hook_with(args: &[&str], request: &serde_json::Value) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_portcullis"))
        .arg("hook")
        .args(args)
        .env("HOME", fixtures().join("home"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(request.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn hook(request: &serde_json::Value) -> (i32, String) {
    hook_with(&[], request)
}

/// The edit tools through the real hook: a write the law allows prints
/// nothing (the host decides as usual), a protected one is denied or asked.
#[test]
fn edit_tools_through_the_hook() {
    let root = fixtures().join("gantry");
    let cwd = root.to_string_lossy().into_owned();
    let at = |p: &str| root.join(p).to_string_lossy().into_owned();
    for (tool, key, path, expect) in [
        ("Write", "file_path", at("src/billing/invoices/a.ts"), None),
        (
            "Edit",
            "file_path",
            at(".gitagent/foreman/MANIFEST.yaml"),
            Some("deny"),
        ),
        (
            "MultiEdit",
            "file_path",
            at("src/auth/login.ts"),
            Some("deny"),
        ),
        (
            "NotebookEdit",
            "notebook_path",
            at("src/billing/notes.ipynb"),
            Some("ask"),
        ),
        (
            "Write",
            "file_path",
            at(".github/workflows/ci.yml"),
            Some("deny"),
        ),
        ("Write", "file_path", at("CLAUDE.md"), Some("ask")),
        ("Read", "file_path", at(".env"), Some("ask")),
        ("Read", "file_path", at("src/billing/invoices/a.ts"), None),
    ] {
        let request = serde_json::json!({
            "session_id": "s",
            "hook_event_name": "PreToolUse",
            "cwd": cwd,
            "tool_name": tool,
            "tool_input": { key: path, "content": "x" },
        });
        let (code, stdout) = hook(&request);
        assert_eq!(code, 0, "{tool} {path}: {stdout}");
        match expect {
            None => assert!(
                stdout.trim().is_empty(),
                "{tool} {path}: expected no output, got {stdout}"
            ),
            Some(permission) => {
                let value: serde_json::Value = serde_json::from_str(stdout.trim())
                    .unwrap_or_else(|e| panic!("{tool} {path}: {e}: {stdout}"));
                assert_eq!(
                    value["hookSpecificOutput"]["permissionDecision"], permission,
                    "{tool} {path}: {stdout}"
                );
            }
        }
    }
    // A request without a path is not a request portcullis can judge.
    let (code, _) =
        hook(&serde_json::json!({"tool_name": "Write", "tool_input": {"content": "x"}}));
    assert_eq!(code, 2);
}

/// OpenCode's edit tools carry `filePath`.
#[test]
fn opencode_edit_tools() {
    let root = fixtures().join("plain");
    let request = serde_json::json!({
        "tool": "write",
        "args": { "filePath": root.join(".env").to_string_lossy() },
        "cwd": root.to_string_lossy(),
    });
    let (code, stdout) = hook_with(&["--host", "opencode"], &request);
    assert_eq!(code, 0);
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(value["verdict"], "BLOCKED");
    assert_eq!(value["rule"], "cage.secrets");
}
