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
    serde_json::json!({
        "session_id": "bench", "cwd": "/tmp", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command}
    })
    .to_string()
    .into_bytes()
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
    let cases: Vec<(&str, String)> = vec![
        ("plain inspect", "git status".into()),
        ("long pipeline", "cd repo && cargo test 2>&1 | grep -E 'FAILED|panicked' | sort | uniq -c | sort -rn | head -30".into()),
        ("floor hit", "sudo rm -rf / --no-preserve-root".into()),
        ("bash -c nesting", "bash -c \"sh -c 'bash -c \\\"git status && ls -la\\\"'\"".into()),
        ("python -c", "python3 -c 'import json,sys; print(json.load(sys.stdin)[\"name\"])' < package.json".into()),
        ("50-line heredoc to python", heredoc_py),
        ("50-line agent python (lane)", agent_py),
        ("50-line agent node (lane)", agent_js),
    ];
    println!("hook latency: {runs} runs per case, interleaved with the empty program");
    println!(
        "| case | empty median | empty p95 | portcullis median | portcullis p95 | ratio (median) | peak RSS |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut medians = Vec::new();
    for (name, command) in &cases {
        let body = request(command);
        let mut empty = Vec::with_capacity(runs);
        let mut ours = Vec::with_capacity(runs);
        let mut peak = 0;
        for _ in 0..runs {
            empty.push(spawn_measured(&noop, &[], &body).wall);
            let sample = spawn_measured(&portcullis, &["hook"], &body);
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
}
