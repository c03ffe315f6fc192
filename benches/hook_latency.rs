//! Whole-process latency and memory of one hook call, beside an empty Rust
//! program's start measured in the same run, interleaved so that machine
//! noise hits both alike; optionally beside the peers a user would pick
//! instead, on the same requests (each in its own loop with the empty
//! program, so that a slow peer does not disturb portcullis's runs).
//!
//! `cargo bench --bench hook_latency`. Environment:
//!
//! - `PORTCULLIS_BENCH_RUNS`: runs per case for portcullis and the empty
//!   program (default 400);
//! - `PORTCULLIS_PEER_<NAME>=command…`: a peer guard to measure on the same
//!   requests, run as Claude Code would run it (the request on stdin), for
//!   example `PORTCULLIS_PEER_DCG=/tmp/peers/cargo/bin/dcg` or
//!   `PORTCULLIS_PEER_CC_SAFETY_NET='/tmp/peers/npm/node_modules/.bin/cc-safety-net hook --coding-cli'`;
//! - `PORTCULLIS_BENCH_PEER_RUNS`: runs per case for each peer, each peer
//!   in a loop of its own interleaved with the empty program (default the
//!   smaller of 60 and the runs);
//! - `PORTCULLIS_CORPORA`: the folder of the agent sessions for the
//!   in-process line (default `../shared/corpora`).
//!
//! Prints Markdown tables: median and p95 wall time per case, the ratio of
//! medians to the empty program, the peak resident memory of the hook
//! process (from `wait4`) and the decision it printed; a PASS/FAIL line for
//! the 12 MiB bound on shell-only commands; and the in-process rate over the
//! agent sessions. Every process runs with the same scratch `HOME`
//! (`target/bench-home`, made anew each run), so that peers that keep state
//! there (allow-once codes, decision logs) start clean and touch nothing of
//! the user's.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Peak resident memory allowed for one hook call on a shell-only command.
const MEMORY_BOUND_KIB: i64 = 12 * 1024;

struct Sample {
    wall: Duration,
    max_rss_kib: i64,
}

/// A program the bench starts once per run: portcullis, the empty program
/// or a peer.
struct Tool {
    name: String,
    program: PathBuf,
    args: Vec<String>,
}

struct Case {
    name: String,
    /// Shell only: no Python or JavaScript lane, so the memory bound holds.
    shell_only: bool,
    cwd: PathBuf,
    body: Vec<u8>,
}

/// What one tool did on one case.
struct Measured {
    median: Duration,
    p95: Duration,
    peak_kib: i64,
    decision: String,
    /// The empty program, in the same loop.
    empty_median: Duration,
    empty_p95: Duration,
    empty_peak_kib: i64,
}

/// `runs` calls of `tool` on `case`, each right after a start of the empty
/// program.
fn interleaved(env: &Env, empty: &Tool, tool: &Tool, case: &Case, runs: usize) -> Measured {
    let (mut walls, mut empty_walls) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    let (mut peak_kib, mut empty_peak_kib) = (0, 0);
    for _ in 0..runs {
        let sample = spawn_measured(env, empty, case);
        empty_peak_kib = empty_peak_kib.max(sample.max_rss_kib);
        empty_walls.push(sample.wall);
        let sample = spawn_measured(env, tool, case);
        peak_kib = peak_kib.max(sample.max_rss_kib);
        walls.push(sample.wall);
    }
    walls.sort();
    empty_walls.sort();
    Measured {
        median: percentile(&walls, 0.5),
        p95: percentile(&walls, 0.95),
        peak_kib,
        decision: decision(env, tool, case),
        empty_median: percentile(&empty_walls, 0.5),
        empty_p95: percentile(&empty_walls, 0.95),
        empty_peak_kib,
    }
}

struct Env {
    vars: Vec<(String, PathBuf)>,
}

impl Env {
    fn scratch(home: &Path) -> Env {
        let _ = std::fs::remove_dir_all(home);
        std::fs::create_dir_all(home).expect("scratch HOME");
        let vars = [
            ("HOME", ""),
            ("XDG_CONFIG_HOME", ".config"),
            ("XDG_DATA_HOME", ".local/share"),
            ("XDG_STATE_HOME", ".local/state"),
            ("XDG_CACHE_HOME", ".cache"),
        ]
        .into_iter()
        .map(|(k, sub)| (k.to_string(), home.join(sub)))
        .collect();
        Env { vars }
    }

    fn command(&self, tool: &Tool, cwd: &Path) -> Command {
        let mut command = Command::new(&tool.program);
        command.args(&tool.args).current_dir(cwd);
        for (k, v) in &self.vars {
            command.env(k, v);
        }
        command
    }
}

// The child is reaped by wait4, which also reports its peak memory.
#[allow(clippy::zombie_processes)]
fn spawn_measured(env: &Env, tool: &Tool, case: &Case) -> Sample {
    let start = Instant::now();
    let mut child = env
        .command(tool, &case.cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", tool.program.display()));
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(&case.body);
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

/// The decision a hook printed for a case, in Claude Code's terms: the
/// `permissionDecision` of its JSON (or a legacy `decision`), `none` when
/// it printed nothing (Claude Code's own rules decide), and the exit code
/// when it is not 0 (2 blocks).
fn decision(env: &Env, tool: &Tool, case: &Case) -> String {
    let child = env
        .command(tool, &case.cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        return "cannot start".into();
    };
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(&case.body);
    }
    let Ok(output) = child.wait_with_output() else {
        return "no exit status".into();
    };
    let text = String::from_utf8_lossy(&output.stdout);
    let from_json = |v: serde_json::Value| {
        let field = |p: &str| v.pointer(p).and_then(|d| d.as_str()).map(str::to_string);
        let word = field("/hookSpecificOutput/permissionDecision")
            .or_else(|| field("/decision"))
            .or_else(|| (v.get("continue") == Some(&false.into())).then(|| "stop".into()))
            .unwrap_or_else(|| "JSON without a decision".into());
        let why = field("/hookSpecificOutput/ruleId")
            .or_else(|| field("/ruleId"))
            .or_else(|| {
                field("/hookSpecificOutput/permissionDecisionReason")
                    .or_else(|| field("/reason"))
                    .map(|r| short_reason(&r))
            });
        match why {
            Some(why) if !why.is_empty() => format!("{word} ({why})"),
            _ => word,
        }
    };
    let mut label = if text.trim().is_empty() {
        "none".to_string()
    } else if let Ok(v) = serde_json::from_str(text.trim()) {
        from_json(v)
    } else {
        text.lines()
            .find_map(|l| serde_json::from_str(l.trim()).ok())
            .map(from_json)
            .unwrap_or_else(|| "text".into())
    };
    match output.status.code() {
        Some(0) => {}
        Some(2) => label = format!("{label}, exit 2 (blocks)"),
        Some(code) => label = format!("{label}, exit {code}"),
        None => label = format!("{label}, killed"),
    }
    label
}

/// A reason in a few words: the rule id in it (a word like
/// `floor.rm.home`), else its `Reason:` line or its first line, cut short.
fn short_reason(reason: &str) -> String {
    let rule = reason.split_whitespace().find_map(|w| {
        let w = w.trim_end_matches([':', ',', ';']);
        let rule_like = w.len() > 3
            && w.contains('.')
            && !w.starts_with('.')
            && !w.ends_with('.')
            && w.chars().all(|c| {
                c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '-' | '_')
            });
        rule_like.then(|| w.to_string())
    });
    let text = rule.unwrap_or_else(|| {
        let line = reason
            .lines()
            .find_map(|l| l.trim().strip_prefix("Reason:"))
            .or_else(|| reason.lines().next())
            .unwrap_or("")
            .trim();
        match line.char_indices().nth(48) {
            Some((cut, _)) => format!("{}…", &line[..cut]),
            None => line.to_string(),
        }
    });
    text.replace('|', "\\|")
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

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn mib(kib: i64) -> f64 {
    kib as f64 / 1024.0
}

fn request_in(command: &str, cwd: &Path) -> Vec<u8> {
    serde_json::json!({
        "session_id": "bench", "cwd": cwd, "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command}
    })
    .to_string()
    .into_bytes()
}

/// `bash -c '<command>'`, quoted so that bash runs `command` as written.
fn bash_c(command: &str) -> String {
    format!("bash -c '{}'", command.replace('\'', r"'\''"))
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

/// Pads `text` to exactly `size` bytes: a YAML comment, or JSON spaces.
fn padded(mut text: String, size: usize, yaml: bool) -> String {
    assert!(text.len() + 2 < size, "{} bytes before padding", text.len());
    if yaml {
        text.push('#');
        let fill = size - text.len() - 1;
        text.push_str(&"x".repeat(fill));
        text.push('\n');
    } else {
        let fill = size - text.len();
        text.push_str(&" ".repeat(fill));
    }
    text
}

/// A repository whose every policy file is just under its own limits in
/// `law::policy` and `law::document` (32 KiB, 1,024 keys, 1,024 list
/// items), each as costly to judge by as its schema allows (a thousand
/// protect globs and forbidden zones; MANIFEST.yaml and MANIFEST.json both,
/// the same document); together they cross the repository's shared budget
/// (64 KiB, 2,048 keys, 2,048 items) at the third file, which is then past
/// the limit: the most reading one repository's policy can cost. And one
/// whose `.cage.yaml` is one byte over (read no further).
fn limit_repositories(target: &Path) -> (PathBuf, PathBuf) {
    use portcullis::law::document::{MAX_ITEMS, MAX_KEYS};
    use portcullis::law::policy::MAX_POLICY_BYTES;
    let size = MAX_POLICY_BYTES as usize;
    let under = target.join("bench-repo-limits");
    let over = target.join("bench-repo-over-limit");
    let commit = "0123456789abcdef0123456789abcdef01234567";
    // `protect` and a `glob:` key per entry.
    let mut cage = "protect:\n".to_string();
    for i in 0..MAX_KEYS - 1 {
        cage.push_str(&format!("  - glob: \"lib/g{i}/**\"\n"));
    }
    // `skills`, then a name and `forbidden_zones` per skill (JSON is YAML).
    let skills: Vec<String> = (0..(MAX_KEYS - 1) / 2)
        .map(|i| format!("\"s{i}\": {{\"forbidden_zones\": [\"lib/z{i}/\"]}}"))
        .collect();
    let manifest = format!("{{\"skills\": {{{}}}}}", skills.join(", "));
    let zones = |n: usize| -> String { (0..n).map(|i| format!("    - lib/m{i}/\n")).collect() };
    let mission = format!(
        "msn_id: MSN-0001\nskill_key: s0\ncontract:\n  forbidden_zones:\n{}",
        zones(MAX_ITEMS)
    );
    let bundle = format!(
        "manifest_constraints:\n  forbidden_zones_add:\n{}",
        zones(MAX_ITEMS)
    );
    let pointer =
        format!("{{\"bundle_path\": \"ORG-POLICY.yaml\", \"pinned_commit\": \"{commit}\"}}");
    let trust = "{\"schemaVersion\": \"workspace-trust-policy/v1\", \"maximumTrust\": \"trusted\"}"
        .to_string();
    let files: Vec<(String, String)> = vec![
        (".cage.yaml".into(), padded(cage, size, true)),
        (
            ".gitagent/foreman/MANIFEST.yaml".into(),
            padded(manifest.clone(), size, false),
        ),
        (
            ".gitagent/foreman/MANIFEST.json".into(),
            padded(manifest, size, false),
        ),
        (
            ".gitagent/missions/.active-mission".into(),
            "MSN-0001.s0.yaml\n".into(),
        ),
        (
            ".gitagent/missions/MSN-0001.s0.yaml".into(),
            padded(mission, size, true),
        ),
        (
            ".gitagent/foreman/POLICY.pointer.json".into(),
            padded(pointer, size, false),
        ),
        (
            format!(".gitagent/history/policy/{commit}/ORG-POLICY.yaml"),
            padded(bundle, size, true),
        ),
        (
            ".veritas-kanban/workspace-trust.json".into(),
            padded(trust, size, false),
        ),
    ];
    let over_files = vec![(
        ".cage.yaml".to_string(),
        padded("protect: []\n".into(), size + 1, true),
    )];
    for (repo, files) in [(&under, files), (&over, over_files)] {
        std::fs::create_dir_all(repo.join(".git")).expect("bench repository");
        std::fs::create_dir_all(repo.join("src/billing/invoices")).expect("bench repository");
        for (path, text) in files {
            let path = repo.join(path);
            std::fs::create_dir_all(path.parent().unwrap_or(repo)).expect("bench repository");
            std::fs::write(&path, text).expect("bench repository file");
        }
    }
    (under, over)
}

/// 50 lines an agent might pipe to python: walk the tree, read files,
/// count, print (no write, no subprocess). `benches/startup.sh` sends the
/// same file.
const AGENT_PYTHON: &str = include_str!("startup_heredoc.py");

/// 50 lines an agent might pipe to node: walk the tree, read files, compare
/// imports with package.json, print (no write, no child process).
const AGENT_NODE: &str = r##"const fs = require('fs');
const path = require('path');
const root = process.cwd();
const skip = new Set(['node_modules', '.git', 'dist', 'coverage']);

function walk(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      walk(full, out);
    } else if (/\.(js|ts|tsx|mjs)$/.test(entry.name)) {
      out.push(full);
    }
  }
  return out;
}

function importsOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  const found = [];
  const re = /(?:import\s[^'"]*from\s*|require\()\s*['"]([^'"]+)['"]/g;
  let match;
  while ((match = re.exec(text)) !== null) {
    found.push(match[1]);
  }
  return found;
}

const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const declared = new Set([
  ...Object.keys(pkg.dependencies || {}),
  ...Object.keys(pkg.devDependencies || {}),
]);
const used = new Map();
for (const file of walk(root)) {
  for (const spec of importsOf(file)) {
    if (spec.startsWith('.') || spec.startsWith('node:')) continue;
    const parts = spec.split('/');
    const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
    used.set(name, (used.get(name) || 0) + 1);
  }
}
const missing = [...used.keys()].filter((name) => !declared.has(name)).sort();
const unused = [...declared].filter((name) => !used.has(name)).sort();
console.log(`${used.size} packages imported, ${declared.size} declared`);
console.log('missing from package.json:', missing.join(', ') || '(none)');
console.log('declared but unused:', unused.join(', ') || '(none)');
const top = [...used.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10);
for (const [name, count] of top) console.log(String(count).padStart(5), name);
"##;

fn cases(target: &Path) -> (Vec<Case>, PathBuf, PathBuf) {
    let tmp = PathBuf::from("/tmp");
    let (bare_repo, policy_repo) = policy_repositories(target);
    let write = "echo total > src/billing/invoices/total.txt";
    let nested = (0..4).fold("git status && ls -la src".to_string(), |c, _| bash_c(&c));
    let shell = |name: &str, command: &str| (name.to_string(), true, command.to_string());
    let lane = |name: &str, command: String| (name.to_string(), false, command);
    let mut cases: Vec<Case> = [
        shell("plain inspect (`git status`)", "git status"),
        shell("plain inspect (`ls -la src`)", "ls -la src"),
        shell(
            "long pipeline (12 stages)",
            "cat src/main.rs | grep -v '^ *//' | sed -e 's/[[:space:]]\\+/ /g' | tr 'A-Z' 'a-z' \
             | cut -c1-120 | grep -o '[a-z_]\\+' | sort | uniq -c | sort -rn | head -40 \
             | awk '{print $2, $1}' | nl",
        ),
        shell("floor hit (`rm -rf ~`)", "rm -rf ~"),
        shell("`bash -c` nested four deep", &nested),
        lane(
            "`python3 -c` (four statements)",
            "python3 -c 'import json, sys; data = json.load(open(\"package.json\")); \
             names = sorted(data.get(\"dependencies\", {})); print(len(names)); \
             print(\"\\n\".join(names))'"
                .to_string(),
        ),
        lane(
            "50-line heredoc to python (`python3 <<'EOF'`)",
            format!("python3 <<'EOF'\n{AGENT_PYTHON}EOF"),
        ),
        lane(
            "50-line heredoc to node (`node <<'EOF'`)",
            format!("node <<'EOF'\n{AGENT_NODE}EOF"),
        ),
    ]
    .into_iter()
    .map(|(name, shell_only, command)| Case {
        name,
        shell_only,
        body: request_in(&command, &tmp),
        cwd: tmp.clone(),
    })
    .collect();
    let (limits_repo, over_repo) = limit_repositories(target);
    for (name, repo) in [
        ("a write, repository without policy files", &bare_repo),
        ("the same write, policy-heavy repository", &policy_repo),
        (
            "the same write, every policy file just under its limits (policy/)",
            &limits_repo,
        ),
        (
            "the same write, `.cage.yaml` one byte over its limit (policy/)",
            &over_repo,
        ),
    ] {
        cases.push(Case {
            name: name.to_string(),
            shell_only: true,
            body: request_in(write, repo),
            cwd: repo.clone(),
        });
    }
    (cases, bare_repo, policy_repo)
}

/// Peers named by `PORTCULLIS_PEER_<NAME>=command…`, in name order.
fn peers() -> Vec<Tool> {
    let mut peers: Vec<Tool> = std::env::vars()
        .filter_map(|(key, value)| {
            let name = key.strip_prefix("PORTCULLIS_PEER_")?;
            let mut words = shlex::split(&value).filter(|w| !w.is_empty())?;
            let program = PathBuf::from(words.remove(0));
            Some(Tool {
                name: name.to_lowercase().replace('_', "-"),
                program,
                args: words,
            })
        })
        .collect();
    peers.sort_by(|a, b| a.name.cmp(&b.name));
    peers
}

/// `program --version`, when it answers that on stdout with exit 0.
fn version(env: &Env, tool: &Tool) -> Option<String> {
    let version = Tool {
        name: String::new(),
        program: tool.program.clone(),
        args: vec!["--version".into()],
    };
    let output = env
        .command(&version, Path::new("/tmp"))
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    let first = text.lines().next()?.trim();
    (output.status.success() && !first.is_empty()).then(|| first.to_string())
}

/// Throughput of the in-process evaluator on one core over the agent
/// sessions, the laws of the working folder read once (as replay does).
fn in_process_line() -> String {
    use portcullis::engine::evaluate_in;
    use portcullis::law::Laws;
    let dir = std::env::var_os("PORTCULLIS_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora"));
    let path = dir.join("agent-mini-swe-agent-gemini3-swebv.sessions.jsonl");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return format!(
            "in-process: skipped ({} not found; set PORTCULLIS_CORPORA)",
            path.display()
        );
    };
    let commands: Vec<String> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v.get("cmd").and_then(|c| c.as_str()).map(str::to_string))
        .collect();
    if commands.is_empty() {
        return format!("in-process: skipped (no commands in {})", path.display());
    }
    let location = portcullis::Location {
        cwd: Some("/testbed".into()),
        home: Some("/root".into()),
    };
    let mut laws = Laws::new(location.cwd.as_deref());
    let start = Instant::now();
    let mut done = 0usize;
    while done == 0 || start.elapsed().as_secs_f64() < 1.0 {
        for command in &commands {
            std::hint::black_box(evaluate_in(command, &location, &mut laws));
        }
        done += commands.len();
    }
    let rate = done as f64 / start.elapsed().as_secs_f64();
    format!(
        "in-process: {rate:.0} commands/s on one core over the agent sessions \
         ({} commands, heredocs and inline code included; `engine::evaluate_in`, \
         the working folder's laws read once)",
        commands.len()
    )
}

/// The 1-minute load average (Linux), to judge how noisy a run was.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}

fn env_number(key: &str) -> Option<usize> {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
}

fn main() {
    let began = Instant::now();
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_portcullis"));
    let target = binary
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let env = Env::scratch(&target.join("bench-home"));
    let empty = Tool {
        name: "empty program".into(),
        program: build_noop(&target),
        args: vec![],
    };
    let portcullis = Tool {
        name: "portcullis".into(),
        program: binary,
        args: vec!["hook".into()],
    };
    let runs = env_number("PORTCULLIS_BENCH_RUNS").unwrap_or(400);
    let peer_runs = env_number("PORTCULLIS_BENCH_PEER_RUNS")
        .unwrap_or(60)
        .min(runs);
    let peers = peers();
    let (cases, bare_repo, policy_repo) = cases(&target);

    println!(
        "hook latency: {runs} runs per case, interleaved with the empty program; \
         peers {peer_runs} runs per case, each in a loop of its own with the empty program; \
         {} cores, load average {} at the start",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        load()
    );
    for peer in &peers {
        let version = version(&env, peer)
            .map(|v| format!(" (`--version`: {v})"))
            .unwrap_or_default();
        println!(
            "peer {}: `{}{}{}`{version}",
            peer.name,
            peer.program.display(),
            if peer.args.is_empty() { "" } else { " " },
            peer.args.join(" ")
        );
    }
    if peers.is_empty() {
        println!("no peers (set PORTCULLIS_PEER_<NAME>=command… to measure one beside portcullis)");
    }
    println!();

    // results[case][tool]: portcullis first, then the peers. Each tool runs
    // in a loop of its own, interleaved with the empty program, so that a
    // slow peer (node starting, 50 MiB to map and free) never sits between
    // two of portcullis's runs; each ratio is to the empty program of its
    // own loop.
    let mut results: Vec<Vec<Measured>> = Vec::new();
    for case in &cases {
        let mut row = vec![interleaved(&env, &empty, &portcullis, case, runs)];
        for peer in &peers {
            row.push(interleaved(&env, &empty, peer, case, peer_runs));
        }
        results.push(row);
    }
    let empties: Vec<(Duration, Duration, i64)> = results
        .iter()
        .map(|r| (r[0].empty_median, r[0].empty_p95, r[0].empty_peak_kib))
        .collect();

    println!(
        "| case | empty program median | p95 | portcullis median | p95 | ratio (medians) | peak RSS | decision |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for ((case, ours), (em, ep, _)) in cases.iter().zip(&results).zip(&empties) {
        let ours = &ours[0];
        println!(
            "| {} | {:.3} ms | {:.3} ms | {:.3} ms | {:.3} ms | {:.2}x | {:.1} MiB | {} |",
            case.name,
            ms(*em),
            ms(*ep),
            ms(ours.median),
            ms(ours.p95),
            ours.median.as_secs_f64() / em.as_secs_f64(),
            mib(ours.peak_kib),
            ours.decision
        );
    }
    let empty_peak = empties.iter().map(|e| e.2).max().unwrap_or(0);
    println!(
        "\nempty program peak RSS: {:.1} MiB. decision `none`: the hook printed nothing, \
         so Claude Code's own permission rules decide.",
        mib(empty_peak)
    );

    // The memory bound, over the shell-only cases.
    let bound = |tool: usize| {
        cases
            .iter()
            .zip(&results)
            .filter(|(case, _)| case.shell_only)
            .map(|(case, r)| (r[tool].peak_kib, case.name.as_str()))
            .max()
            .unwrap_or((0, ""))
    };
    let (peak, worst) = bound(0);
    println!(
        "memory bound (peak RSS of one hook call <= {:.0} MiB on shell-only commands): {} \
         (largest {:.1} MiB, {worst})",
        mib(MEMORY_BOUND_KIB),
        if peak <= MEMORY_BOUND_KIB {
            "PASS"
        } else {
            "FAIL"
        },
        mib(peak)
    );
    for (i, peer) in peers.iter().enumerate() {
        let (peak, worst) = bound(i + 1);
        println!(
            "  for comparison, {}: largest {:.1} MiB on shell-only commands ({worst}), {} the same bound",
            peer.name,
            mib(peak),
            if peak <= MEMORY_BOUND_KIB {
                "within"
            } else {
                "over"
            }
        );
    }

    // What an inline lane adds to a whole hook call, over `git status`: the
    // difference of their ratios to the empty program (each measured
    // against the empty program in its own loop, so that load drifting
    // between the two loops cancels), times the empty program's typical
    // start (the median of the cases' medians).
    let mut empty_medians: Vec<Duration> = empties.iter().map(|e| e.0).collect();
    empty_medians.sort();
    let typical = percentile(&empty_medians, 0.5).as_secs_f64();
    let ratio = |i: usize| results[i][0].median.as_secs_f64() / empties[i].0.as_secs_f64();
    for (i, case) in cases.iter().enumerate().filter(|(_, c)| !c.shell_only) {
        println!(
            "{}: adds {:.3} ms over `git status` ({:.2}x against {:.2}x, times the empty program's {:.3} ms)",
            case.name,
            (ratio(i) - ratio(0)) * typical * 1e3,
            ratio(i),
            ratio(0),
            typical * 1e3
        );
    }

    if !peers.is_empty() {
        println!(
            "\nside by side ({runs} runs of portcullis, {peer_runs} of each peer, per case; \
             each ratio is to the empty program's median in that tool's own loop):\n"
        );
        println!(
            "| case | guard | empty program median (same loop) | median | p95 | ratio (medians) | peak RSS | decision |"
        );
        println!("|---|---|---|---|---|---|---|---|");
        let names: Vec<&str> = std::iter::once("portcullis")
            .chain(peers.iter().map(|p| p.name.as_str()))
            .collect();
        for (case, r) in cases.iter().zip(&results) {
            for (name, m) in names.iter().zip(r) {
                println!(
                    "| {} | {name} | {:.3} ms | {:.3} ms | {:.3} ms | {:.2}x | {:.1} MiB | {} |",
                    case.name,
                    ms(m.empty_median),
                    ms(m.median),
                    ms(m.p95),
                    m.median.as_secs_f64() / m.empty_median.as_secs_f64(),
                    mib(m.peak_kib),
                    m.decision
                );
            }
        }
    }

    // What reading every policy file adds: the same write in a repository
    // with all of them and in one with none, the two interleaved so that
    // machine noise hits both alike.
    let write_case = |repo: &Path| Case {
        name: String::new(),
        shell_only: true,
        body: request_in("echo total > src/billing/invoices/total.txt", repo),
        cwd: repo.to_path_buf(),
    };
    let (bare_case, heavy_case) = (write_case(&bare_repo), write_case(&policy_repo));
    let (mut bare, mut heavy) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    for _ in 0..runs {
        bare.push(spawn_measured(&env, &portcullis, &bare_case).wall);
        heavy.push(spawn_measured(&env, &portcullis, &heavy_case).wall);
    }
    bare.sort();
    heavy.sort();
    println!(
        "\npolicy loading (all files present, interleaved): adds {:.3} ms at the median, \
         {:.3} ms at p95, over a repository without policy",
        ms(percentile(&heavy, 0.5)) - ms(percentile(&bare, 0.5)),
        ms(percentile(&heavy, 0.95)) - ms(percentile(&bare, 0.95))
    );
    println!("{}", in_process_line());
    println!(
        "(more on the corpora, and replay on every core: `cargo bench --bench corpus_report`)"
    );
    println!(
        "bench took {:.0} s; load average {} at the end",
        began.elapsed().as_secs_f64(),
        load()
    );
}
