//! Policy files past a limit are read in the strictest way, and files just
//! under every limit are read as usual. For each kind of file the law
//! reads (`.cage.yaml`, gantry's `MANIFEST.yaml` and `MANIFEST.json`, the
//! active mission, the organisation policy pointer and its cached bundle,
//! `.veritas-kanban/workspace-trust.json`), a repository is built in a
//! temporary folder with the file at exactly `MAX_POLICY_BYTES` bytes,
//! `MAX_KEYS` keys and `MAX_ITEMS` list items, and with one byte, key or
//! item more. Past a limit, every write in the repository is BLOCKED with
//! the kind's `*.policy_too_large` rule and the file in the reason (the
//! trust file denies every request).

use portcullis::engine::{EditKind, evaluate_edit};
use portcullis::law::Laws;
use portcullis::law::document::{self, MAX_ITEMS, MAX_KEYS, Node};
use portcullis::law::policy::MAX_POLICY_BYTES;
use portcullis::{Decision, Location, Verdict, evaluate};
use std::path::{Path, PathBuf};

use crate::common;

const MAX_BYTES: usize = MAX_POLICY_BYTES as usize;
const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";

/// A fresh scratch repository (a `.git` folder is all the law needs).
fn repository(name: &str) -> PathBuf {
    let parent = std::env::temp_dir().join(format!("portcullis-limits-{}", std::process::id()));
    common::remove_at_exit(&parent);
    let dir = parent.join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    dir.canonicalize().unwrap()
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn judge(root: &Path, command: &str) -> Decision {
    let location = Location {
        cwd: Some(root.to_path_buf()),
        home: Some(root.join("home")),
    };
    evaluate(command, &location)
}

fn judge_write(root: &Path, rel: &str) -> Decision {
    let location = Location {
        cwd: Some(root.to_path_buf()),
        home: Some(root.join("home")),
    };
    let mut laws = Laws::new(Some(root));
    evaluate_edit(
        EditKind::Write,
        &root.join(rel).to_string_lossy(),
        &location,
        &mut laws,
    )
}

/// Keys and list items in a document.
fn counts(node: &Node) -> (usize, usize) {
    match node {
        Node::Null | Node::Text(..) => (0, 0),
        Node::List(items) => items
            .iter()
            .map(counts)
            .fold((0, items.len()), |a, b| (a.0 + b.0, a.1 + b.1)),
        Node::Map(entries) => entries
            .iter()
            .map(|(_, v)| counts(v))
            .fold((entries.len(), 0), |a, b| (a.0 + b.0, a.1 + b.1)),
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Form {
    Yaml,
    Json,
}

/// How far past the limits a generated file is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Size {
    /// Exactly at every limit.
    Under,
    /// One key more.
    Keys,
    /// One list item more.
    Items,
    /// One byte more.
    Bytes,
}

/// `base` (a valid document of `form` that ignores unknown keys) grown
/// with ignored keys and items to the limits, and padded to the size.
fn grown(base: &str, form: Form, size: Size) -> String {
    let doc = match form {
        Form::Yaml => document::yaml(base).unwrap(),
        Form::Json => document::json(base).unwrap(),
    };
    let (keys, items) = counts(&doc);
    // Two keys hold the filler.
    let mut n = MAX_KEYS - keys - 2;
    let mut m = MAX_ITEMS - items;
    match size {
        Size::Keys => n += 1,
        Size::Items => m += 1,
        _ => {}
    }
    let mut text = match form {
        Form::Yaml => {
            let mut t = base.to_string();
            t.push_str("x-filler:\n");
            for i in 0..n {
                t.push_str(&format!("  f{i}: 0\n"));
            }
            t.push_str("x-items:\n");
            t.push_str(&"  - 0\n".repeat(m));
            t
        }
        Form::Json => {
            let body = base.trim().strip_suffix('}').unwrap();
            let filler: Vec<String> = (0..n).map(|i| format!("\"f{i}\":0")).collect();
            format!(
                "{body},\"x-filler\":{{{}}},\"x-items\":[{}]}}",
                filler.join(","),
                vec!["0"; m].join(",")
            )
        }
    };
    pad(&mut text, form, size);
    text
}

/// Pads to exactly the byte limit (one more for `Size::Bytes`), with a
/// comment in YAML and spaces in JSON.
fn pad(text: &mut String, form: Form, size: Size) {
    let target = if size == Size::Bytes {
        MAX_BYTES + 1
    } else {
        MAX_BYTES
    };
    assert!(
        text.len() + 2 < target,
        "the document alone is {} bytes",
        text.len()
    );
    match form {
        Form::Yaml => {
            text.push('#');
            let fill = target - text.len() - 1;
            text.push_str(&"x".repeat(fill));
            text.push('\n');
        }
        Form::Json => {
            let fill = target - text.len();
            text.push_str(&" ".repeat(fill));
        }
    }
    assert_eq!(text.len(), target);
}

const MANIFEST_YAML: &str =
    "skills:\n  billing:\n    tmvc_roots: [src/]\n    forbidden_zones: [src/zone/]\n";
const MANIFEST_JSON: &str =
    r#"{"skills": {"billing": {"tmvc_roots": ["src/"], "forbidden_zones": ["src/zone/"]}}}"#;
const MISSION: &str =
    "msn_id: MSN-0001\nskill_key: billing\ncontract:\n  forbidden_zones: [src/contract-zone/]\n";
const POINTER: &str = r#"{"bundle_path": "ORG-POLICY.yaml", "pinned_commit": "0123456789abcdef0123456789abcdef01234567"}"#;
const BUNDLE: &str = "manifest_constraints:\n  forbidden_zones_add: [src/org-zone/]\n";

/// One kind of policy file: where it lives, its form, a valid base, the
/// other files its repository needs, a write its rules block (proving the
/// file was read), and the rule past a limit.
struct Kind {
    name: &'static str,
    file: String,
    form: Form,
    base: &'static str,
    others: Vec<(String, &'static str)>,
    read_probe: (&'static str, &'static str),
    too_large: &'static str,
}

fn kinds() -> Vec<Kind> {
    let bundle = format!(".gitagent/history/policy/{COMMIT}/ORG-POLICY.yaml");
    vec![
        Kind {
            name: "manifest-yaml",
            file: ".gitagent/foreman/MANIFEST.yaml".into(),
            form: Form::Yaml,
            base: MANIFEST_YAML,
            others: vec![],
            read_probe: ("src/zone/a.ts", "cage.manifest_forbidden_zone"),
            too_large: "gantry.policy_too_large",
        },
        Kind {
            name: "manifest-json",
            file: ".gitagent/foreman/MANIFEST.json".into(),
            form: Form::Json,
            base: MANIFEST_JSON,
            others: vec![],
            read_probe: ("src/zone/a.ts", "cage.manifest_forbidden_zone"),
            too_large: "gantry.policy_too_large",
        },
        Kind {
            name: "mission",
            file: ".gitagent/missions/MSN-0001.billing.yaml".into(),
            form: Form::Yaml,
            base: MISSION,
            others: vec![
                (".gitagent/foreman/MANIFEST.yaml".into(), MANIFEST_YAML),
                (
                    ".gitagent/missions/.active-mission".into(),
                    "MSN-0001.billing.yaml\n",
                ),
            ],
            read_probe: ("src/contract-zone/a.ts", "gantry.forbidden_zone"),
            too_large: "gantry.policy_too_large",
        },
        Kind {
            name: "org-pointer",
            file: ".gitagent/foreman/POLICY.pointer.json".into(),
            form: Form::Json,
            base: POINTER,
            others: vec![
                (".gitagent/foreman/MANIFEST.yaml".into(), MANIFEST_YAML),
                (bundle.clone(), BUNDLE),
            ],
            read_probe: ("src/org-zone/a.ts", "gantry.forbidden_zone"),
            too_large: "gantry.policy_too_large",
        },
        Kind {
            name: "org-bundle",
            file: bundle,
            form: Form::Yaml,
            base: BUNDLE,
            others: vec![
                (".gitagent/foreman/MANIFEST.yaml".into(), MANIFEST_YAML),
                (".gitagent/foreman/POLICY.pointer.json".into(), POINTER),
            ],
            read_probe: ("src/org-zone/a.ts", "gantry.forbidden_zone"),
            too_large: "gantry.policy_too_large",
        },
    ]
}

#[test]
fn gantry_files_at_and_past_every_limit() {
    for kind in kinds() {
        for size in [Size::Under, Size::Keys, Size::Items, Size::Bytes] {
            let root = repository(&format!("{}-{size:?}", kind.name));
            for (rel, text) in &kind.others {
                write(&root, rel, text);
            }
            write(&root, &kind.file, &grown(kind.base, kind.form, size));
            let what = format!("{} {size:?}", kind.name);
            let ordinary = judge(&root, "echo x > src/ok.txt");
            let edit = judge_write(&root, "src/ok.txt");
            if size == Size::Under {
                assert_eq!(
                    ordinary.verdict(),
                    Verdict::Signed,
                    "{what}: {:?}",
                    ordinary.top
                );
                assert_eq!(edit.verdict(), Verdict::Free, "{what}: {:?}", edit.top);
                let (path, rule) = kind.read_probe;
                let probe = judge_write(&root, path);
                assert_eq!(
                    probe.top.rule, rule,
                    "{what}: the file was not read: {:?}",
                    probe.top
                );
                continue;
            }
            for decision in [&ordinary, &edit] {
                assert_eq!(
                    decision.verdict(),
                    Verdict::Blocked,
                    "{what}: {:?}",
                    decision.top
                );
                assert_eq!(
                    decision.top.rule, kind.too_large,
                    "{what}: {:?}",
                    decision.top
                );
                assert!(
                    decision.top.reason.contains(&kind.file),
                    "{what}: the reason names no file: {}",
                    decision.top.reason
                );
            }
            // Reading stays FREE: only writes are blocked.
            assert_eq!(
                judge(&root, "cat src/ok.txt").verdict(),
                Verdict::Free,
                "{what}"
            );
        }
    }
}

#[test]
fn cage_file_at_and_past_every_limit() {
    for size in [Size::Under, Size::Keys, Size::Bytes] {
        let root = repository(&format!("cage-{size:?}"));
        // `protect` and one `path:` key per entry: 4,096 keys at the limit.
        let entries = MAX_KEYS - 1 + usize::from(size == Size::Keys);
        let mut text = "protect:\n".to_string();
        for i in 0..entries {
            text.push_str(&format!("  - path: f{i}\n"));
        }
        pad(&mut text, Form::Yaml, size);
        write(&root, ".cage.yaml", &text);
        let ordinary = judge(&root, "echo x > src/ok.txt");
        if size == Size::Under {
            assert_eq!(ordinary.verdict(), Verdict::Signed, "{:?}", ordinary.top);
            let probe = judge(&root, &format!("echo x > f{}", MAX_KEYS - 2));
            assert_eq!(probe.top.rule, "cage.cage_protect", "{:?}", probe.top);
            continue;
        }
        assert_eq!(ordinary.verdict(), Verdict::Blocked, "{size:?}");
        assert_eq!(ordinary.top.rule, "cage.policy_too_large", "{size:?}");
        assert!(ordinary.top.reason.contains(".cage.yaml"));
        assert_eq!(
            judge_write(&root, "src/ok.txt").top.rule,
            "cage.policy_too_large"
        );
    }
}

#[test]
fn trust_file_at_and_past_every_limit() {
    let base = r#"{"schemaVersion": "workspace-trust-policy/v1", "maximumTrust": "trusted"}"#;
    let keys = |n: usize| {
        let body: Vec<String> = (0..n).map(|i| format!("\"k{i}\":0")).collect();
        format!("{{{}}}", body.join(","))
    };
    for (name, text, denied_by) in [
        ("under", base.to_string(), None),
        ("bytes", base.to_string(), Some("trust.policy_too_large")),
        ("keys", keys(MAX_KEYS + 1), Some("trust.policy_too_large")),
        // At the key limit the file is read, and refused by its schema.
        ("schema", keys(MAX_KEYS), Some("trust.denied")),
    ] {
        let root = repository(&format!("trust-{name}"));
        let mut text = text;
        let size = if name == "bytes" {
            Size::Bytes
        } else {
            Size::Under
        };
        pad(&mut text, Form::Json, size);
        write(&root, ".veritas-kanban/workspace-trust.json", &text);
        let ls = judge(&root, "ls");
        match denied_by {
            None => assert_eq!(ls.verdict(), Verdict::Free, "{name}: {:?}", ls.top),
            Some(rule) => {
                assert_eq!(ls.verdict(), Verdict::Blocked, "{name}");
                assert_eq!(ls.top.rule, rule, "{name}: {:?}", ls.top);
                assert!(ls.top.reason.contains("workspace-trust.json"), "{name}");
            }
        }
    }
}
