//! The policy files of one repository share one reading budget
//! (`law::policy::MAX_POLICY_TOTAL_BYTES`, `MAX_POLICY_KEYS`,
//! `MAX_POLICY_ITEMS`): each file may be just under its own limits, but the
//! file that crosses what the others left is past the limit, read in the
//! strictest way, and its `*.policy_too_large` reason names it and says how
//! much was left. Files read in order: `.cage.yaml`, gantry's manifests,
//! mission and organisation policy, then the trust file.

use portcullis::law::document::MAX_KEYS;
use portcullis::law::policy::{MAX_POLICY_BYTES, MAX_POLICY_KEYS, MAX_POLICY_TOTAL_BYTES};
use portcullis::{Decision, Location, Verdict, evaluate};
use std::path::PathBuf;

/// A scratch repository in its own temporary folder, removed on drop.
struct Repo(PathBuf);

impl Repo {
    fn new(name: &str) -> Repo {
        let dir =
            std::env::temp_dir().join(format!("portcullis-budget-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(".git")).unwrap();
        std::fs::create_dir_all(dir.join("src")).unwrap();
        Repo(dir.canonicalize().unwrap())
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn judge(&self, command: &str) -> Decision {
        let location = Location {
            cwd: Some(self.0.clone()),
            home: Some(self.0.join("home")),
        };
        evaluate(command, &location)
    }
}

impl Drop for Repo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// YAML `text` padded with a comment to exactly `size` bytes.
fn padded_yaml(text: &str, size: usize) -> String {
    let mut text = text.to_string();
    assert!(text.len() + 3 < size);
    text.push('#');
    let fill = size - text.len() - 1;
    text.push_str(&"x".repeat(fill));
    text.push('\n');
    assert_eq!(text.len(), size);
    text
}

/// JSON `text` padded with spaces to exactly `size` bytes.
fn padded_json(text: &str, size: usize) -> String {
    assert!(text.len() < size);
    format!("{text}{}", " ".repeat(size - text.len()))
}

const MANIFEST: &str =
    "skills:\n  billing:\n    tmvc_roots: [src/]\n    forbidden_zones: [src/zone/]\n";
const TRUST: &str = r#"{"schemaVersion": "workspace-trust-policy/v1", "maximumTrust": "trusted"}"#;

#[test]
fn policy_files_together_past_the_shared_byte_budget() {
    let file = MAX_POLICY_BYTES as usize;
    let total = MAX_POLICY_TOTAL_BYTES as usize;
    assert!(2 * file <= total, "two full files fit the shared budget");
    // Two files at their own limit use the whole budget; the trust file
    // read last finds nothing left.
    let full = Repo::new("bytes-full");
    full.write(".cage.yaml", &padded_yaml("protect: []\n", file));
    full.write(
        ".gitagent/foreman/MANIFEST.yaml",
        &padded_yaml(MANIFEST, file),
    );
    full.write(".veritas-kanban/workspace-trust.json", TRUST);
    let ls = full.judge("ls");
    assert_eq!(ls.verdict(), Verdict::Blocked, "{:?}", ls.top);
    assert_eq!(ls.top.rule, "trust.policy_too_large", "{:?}", ls.top);
    assert!(
        ls.top.reason.contains("workspace-trust.json"),
        "{}",
        ls.top.reason
    );
    assert!(
        ls.top
            .reason
            .contains("0 bytes the repository's other policy files left"),
        "the reason says how much was left: {}",
        ls.top.reason
    );

    // The near miss: the same files with room for the trust file are read
    // as usual (the manifest's zone holds, the trust file lets `ls` run).
    let room = Repo::new("bytes-room");
    room.write(".cage.yaml", &padded_yaml("protect: []\n", file));
    room.write(
        ".gitagent/foreman/MANIFEST.yaml",
        &padded_yaml(MANIFEST, total - file - TRUST.len()),
    );
    room.write(".veritas-kanban/workspace-trust.json", TRUST);
    assert_eq!(room.judge("ls").verdict(), Verdict::Free);
    let zone = room.judge("echo x > src/zone/a.ts");
    assert_eq!(zone.verdict(), Verdict::Blocked, "{:?}", zone.top);
    assert_eq!(zone.top.rule, "cage.manifest_forbidden_zone");

    // One byte more and the trust file is past the limit.
    let over = Repo::new("bytes-over");
    over.write(".cage.yaml", &padded_yaml("protect: []\n", file));
    over.write(
        ".gitagent/foreman/MANIFEST.yaml",
        &padded_yaml(MANIFEST, total - file - TRUST.len()),
    );
    over.write(
        ".veritas-kanban/workspace-trust.json",
        &padded_json(TRUST, TRUST.len() + 1),
    );
    let ls = over.judge("ls");
    assert_eq!(ls.top.rule, "trust.policy_too_large", "{:?}", ls.top);
    assert!(
        ls.top
            .reason
            .contains(&format!("over the {} bytes", TRUST.len()))
    );
}

#[test]
fn policy_files_together_past_the_shared_key_budget() {
    const { assert!(MAX_POLICY_KEYS < 2 * MAX_KEYS) };
    // A `.cage.yaml` and a manifest that together use the whole shared key
    // budget but for the trust file's two keys leave room for it; one key
    // more and the trust file crosses it.
    let cage_keys = |n: usize| {
        let mut text = "x-filler:\n".to_string();
        for i in 0..n {
            text.push_str(&format!("  k{i}: 0\n"));
        }
        text
    };
    let manifest_keys = |n: usize| {
        let mut text = MANIFEST.to_string();
        text.push_str("x-filler:\n");
        for i in 0..n {
            text.push_str(&format!("  k{i}: 0\n"));
        }
        text
    };
    // The manifest's own keys: skills, billing, tmvc_roots,
    // forbidden_zones, x-filler.
    // The rest is more than one file may hold: the manifest holds it.
    let manifest_fill = MAX_POLICY_KEYS - MAX_KEYS;
    for (name, trust_fits) in [("keys-room", true), ("keys-over", false)] {
        let repo = Repo::new(name);
        // The cage's `x-filler` and its keys, the manifest's, the trust
        // file's two.
        let cage_fill = MAX_POLICY_KEYS - 1 - (5 + manifest_fill) - 2 + usize::from(!trust_fits);
        assert!(cage_fill < MAX_KEYS);
        repo.write(".cage.yaml", &cage_keys(cage_fill));
        repo.write(
            ".gitagent/foreman/MANIFEST.yaml",
            &manifest_keys(manifest_fill),
        );
        repo.write(".veritas-kanban/workspace-trust.json", TRUST);
        let ls = repo.judge("ls");
        if trust_fits {
            assert_eq!(ls.verdict(), Verdict::Free, "{name}: {:?}", ls.top);
        } else {
            assert_eq!(
                ls.top.rule, "trust.policy_too_large",
                "{name}: {:?}",
                ls.top
            );
            assert!(
                ls.top.reason.contains("left of the shared limit"),
                "{name}: {}",
                ls.top.reason
            );
        }
    }
}

#[test]
fn a_file_past_the_budget_does_not_hide_the_others_law() {
    // The cage's protect rule, read first, holds even when a later file is
    // past the shared budget.
    let file = MAX_POLICY_BYTES as usize;
    let repo = Repo::new("order");
    repo.write(
        ".cage.yaml",
        &padded_yaml("protect:\n  - path: src/keep.txt\n", file),
    );
    repo.write(
        ".gitagent/foreman/MANIFEST.yaml",
        &padded_yaml(MANIFEST, file),
    );
    repo.write(".gitagent/foreman/MANIFEST.json", "{}");
    let keep = repo.judge("echo x > src/keep.txt");
    assert_eq!(keep.verdict(), Verdict::Blocked, "{:?}", keep.top);
    let other = repo.judge("echo x > src/other.txt");
    assert_eq!(other.verdict(), Verdict::Blocked, "{:?}", other.top);
    assert_eq!(other.top.rule, "gantry.policy_too_large", "{:?}", other.top);
}
