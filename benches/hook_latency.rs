//! Whole-process latency and memory of one hook call, beside an empty Rust
//! program's start measured in the same run, interleaved so that machine
//! noise hits both alike.
//!
//! `cargo bench --bench hook_latency` (set `PORTCULLIS_BENCH_RUNS` to change
//! the number of runs per case, default 400). Prints a table: median and p95
//! wall time per case, the ratio of medians to the empty program, and the
//! peak resident memory of the hook process (from `wait4`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Sample {
    wall: Duration,
    max_rss_kib: i64,
}

// The child is reaped by wait4, which also reports its peak memory.
#[allow(clippy::zombie_processes)]
fn spawn_measured(program: &Path, args: &[&str], stdin: &[u8]) -> Sample {
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin);
    }
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain old data, written by wait4 for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is a child of this process that has not been waited for.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = start.elapsed();
    assert_eq!(waited, pid, "wait4 failed");
    Sample {
        wall,
        max_rss_kib: usage.ru_maxrss,
    }
}

fn build_noop(target: &Path) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/noop.rs");
    let out = target.join("bench-noop");
    let status = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args([
            "-C",
            "opt-level=3",
            "-C",
            "strip=symbols",
            "-C",
            "codegen-units=1",
            "-o",
        ])
        .arg(&out)
        .arg(&source)
        .status()
        .expect("rustc runs");
    assert!(status.success(), "could not build the empty program");
    out
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn request(command: &str) -> Vec<u8> {
    request_in(command, Path::new("/tmp"))
}

fn request_in(command: &str, cwd: &Path) -> Vec<u8> {
    serde_json::json!({
        "session_id": "bench", "cwd": cwd, "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command}
    })
    .to_string()
    .into_bytes()
}

/// Two repositories under `target/`: one with nothing but `.git`, one with
/// every policy file the path law reads (`.cage.yaml` with protect,
/// allow_only and a freeze, a gantry manifest with three skills, an active
/// mission with a contract, a workspace-trust file, a `core.hooksPath`).
fn policy_repositories(target: &Path) -> (PathBuf, PathBuf) {
    let bare = target.join("bench-repo-bare");
    let heavy = target.join("bench-repo-policy");
    let files: &[(&str, &str)] = &[
        (".git/config", "[core]\n\thooksPath = .githooks\n"),
        (".gitignore", "target/\nnode_modules\n*.log\n"),
        (
            ".cage.yaml",
            "protect:\n  - path: test\n  - glob: \"**/*.tf\"\n  - path: docs/api.md\n    mode: report\nallow_only:\n  - \"src/**\"\ndependencies: revert\n",
        ),
        (
            ".gitagent/foreman/MANIFEST.yaml",
            "schema_version: \"0.5.0\"\nskills:\n  billing:\n    trust_threshold: Tier-2\n    tmvc_roots: [src/billing/]\n    forbidden_zones: [.gitagent/foreman/, src/auth/]\n  ui:\n    trust_threshold: Tier-1\n    tmvc_roots: [src/components/, src/styles/]\n    forbidden_zones: [.gitagent/, src/auth/, src/core/, src/db/schema/]\n  substrate:\n    trust_threshold: Tier-3\n    tmvc_roots: []\n    forbidden_zones: []\npath_risks: {}\nrisk_keywords: [refactor, migrate]\n",
        ),
        (
            ".gitagent/missions/.active-mission",
            "MSN-0001.billing.yaml\n",
        ),
        (
            ".gitagent/missions/MSN-0001.billing.yaml",
            "msn_id: MSN-0001\nskill_key: billing\ngate_command: npm test\ncontract:\n  tmvc_roots: [src/billing/invoices/]\n  forbidden_zones: [src/billing/legacy/]\n",
        ),
        (
            ".veritas-kanban/workspace-trust.json",
            "{\"schemaVersion\": \"workspace-trust-policy/v1\", \"maximumTrust\": \"trusted\"}\n",
        ),
    ];
    for (repo, files) in [(&bare, &files[..1]), (&heavy, files)] {
        for (path, text) in files {
            let path = repo.join(path);
            std::fs::create_dir_all(path.parent().unwrap_or(repo)).expect("bench repository");
            std::fs::write(&path, text).expect("bench repository file");
        }
        std::fs::create_dir_all(repo.join("src/billing/invoices")).expect("bench repository");
    }
    (bare, heavy)
}

fn main() {
    let portcullis = PathBuf::from(env!("CARGO_BIN_EXE_portcullis"));
    let target = portcullis
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let noop = build_noop(&target);
    let runs: usize = std::env::var("PORTCULLIS_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let heredoc_py = format!(
        "python3 - <<'PY'\n{}PY",
        (0..50)
            .map(|i| format!("x{i} = sum(range({i}))\n"))
            .collect::<String>()
    );
    // 50 lines an agent might write: imports, aliases, reads, a write, a
    // subprocess whose argv goes back to the shell lane.
    let agent_py = format!(
        "python3 - <<'PY'\nimport os, json, subprocess as sp\nfrom pathlib import Path\n{}data = json.load(open('package.json'))\nPath('out.txt').write_text(str(data))\nprint(sp.run(['git', 'status'], capture_output=True).stdout)\nPY",
        (0..45)
            .map(|i| format!("v{i} = [os.path.join('src', str(n)) for n in range({i})]\n"))
            .collect::<String>()
    );
    let agent_js = format!(
        "node - <<'JS'\nconst fs = require('fs');\nconst {{ execSync: run }} = require('child_process');\n{}fs.writeFileSync('out.json', JSON.stringify(v1));\nconsole.log(run('git status').toString());\nJS",
        (0..46)
            .map(|i| format!("const v{i} = [1, 2, 3].map((x) => x * {i}).filter(Boolean);\n"))
            .collect::<String>()
    );
    let (bare_repo, policy_repo) = policy_repositories(&target);
    let write = "echo total > src/billing/invoices/total.txt";
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("plain inspect", "git status".into()),
        ("long pipeline", "cd repo && cargo test 2>&1 | grep -E 'FAILED|panicked' | sort | uniq -c | sort -rn | head -30".into()),
        ("floor hit", "sudo rm -rf / --no-preserve-root".into()),
        ("bash -c nesting", "bash -c \"sh -c 'bash -c \\\"git status && ls -la\\\"'\"".into()),
        ("python -c", "python3 -c 'import json,sys; print(json.load(sys.stdin)[\"name\"])' < package.json".into()),
        ("50-line heredoc to python", heredoc_py),
        ("50-line agent python (lane)", agent_py),
        ("50-line agent node (lane)", agent_js),
    ]
    .into_iter()
    .map(|(name, command): (&str, String)| (name, request(&command)))
    .chain([
        ("write, repository without policy", request_in(write, &bare_repo)),
        ("write, policy-heavy repository", request_in(write, &policy_repo)),
    ])
    .collect();
    println!("hook latency: {runs} runs per case, interleaved with the empty program");
    println!(
        "| case | empty median | empty p95 | portcullis median | portcullis p95 | ratio (median) | peak RSS |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut medians = Vec::new();
    for (name, body) in &cases {
        let mut empty = Vec::with_capacity(runs);
        let mut ours = Vec::with_capacity(runs);
        let mut peak = 0;
        for _ in 0..runs {
            empty.push(spawn_measured(&noop, &[], body).wall);
            let sample = spawn_measured(&portcullis, &["hook"], body);
            peak = peak.max(sample.max_rss_kib);
            ours.push(sample.wall);
        }
        empty.sort();
        ours.sort();
        let (em, ep) = (percentile(&empty, 0.5), percentile(&empty, 0.95));
        let (om, op) = (percentile(&ours, 0.5), percentile(&ours, 0.95));
        medians.push((*name, om));
        println!(
            "| {name} | {:.3} ms | {:.3} ms | {:.3} ms | {:.3} ms | {:.2}x | {:.1} MiB |",
            em.as_secs_f64() * 1e3,
            ep.as_secs_f64() * 1e3,
            om.as_secs_f64() * 1e3,
            op.as_secs_f64() * 1e3,
            om.as_secs_f64() / em.as_secs_f64(),
            peak as f64 / 1024.0
        );
    }
    // What an inline lane adds to a whole hook call: its median minus the
    // median of a plain shell command measured in the same run.
    if let Some((_, plain)) = medians.first() {
        for (name, median) in medians
            .iter()
            .filter(|(n, _)| n.contains("python") || n.contains("node"))
        {
            let added = median.as_secs_f64() - plain.as_secs_f64();
            println!("{name}: adds {:.3} ms over `git status`", added * 1e3);
        }
    }
    // What reading every policy file adds: the same write in a repository
    // with all of them and in one with none, the two interleaved so that
    // machine noise hits both alike.
    let bare_body = request_in(write, &bare_repo);
    let heavy_body = request_in(write, &policy_repo);
    let (mut bare, mut heavy) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    for _ in 0..runs {
        bare.push(spawn_measured(&portcullis, &["hook"], &bare_body).wall);
        heavy.push(spawn_measured(&portcullis, &["hook"], &heavy_body).wall);
    }
    bare.sort();
    heavy.sort();
    println!(
        "policy loading (all files present, interleaved): adds {:.3} ms at the median, {:.3} ms at p95, over a repository without policy",
        (percentile(&heavy, 0.5).as_secs_f64() - percentile(&bare, 0.5).as_secs_f64()) * 1e3,
        (percentile(&heavy, 0.95).as_secs_f64() - percentile(&bare, 0.95).as_secs_f64()) * 1e3
    );
}
