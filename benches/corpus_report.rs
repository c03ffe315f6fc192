//! Measures portcullis on real commands nobody here wrote
//! (`../shared/corpora/`): parse coverage, verdict shares, FREE lines that
//! `bash -n` rejects, in-process throughput, and the verbs seen 3 times or
//! more that the lexicon does not know (the README keeps this output).
//!
//! `cargo bench --bench corpus_report`. Set `PORTCULLIS_CORPORA` to another
//! folder; without the corpora it says so and exits 0.

use portcullis::engine::evaluate_in;
use portcullis::law::Laws;
use portcullis::{Location, Verdict};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn corpora() -> Option<PathBuf> {
    let dir = std::env::var_os("PORTCULLIS_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora"));
    dir.is_dir().then_some(dir)
}

fn lines(path: &Path) -> Vec<String> {
    let text = std::fs::read(path).unwrap_or_default();
    String::from_utf8_lossy(&text)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// Commands of a `.jsonl` file of JSON strings.
fn json_lines(path: &Path) -> Vec<String> {
    lines(path)
        .iter()
        .filter_map(|l| serde_json::from_str::<String>(l).ok())
        .collect()
}

fn bash_n_rejects(command: &str) -> bool {
    Command::new("bash")
        .args(["-O", "extglob", "-n", "-c", command])
        .stderr(std::process::Stdio::null())
        .status()
        .map(|s| !s.success())
        .unwrap_or(false)
}

fn main() {
    let Some(dir) = corpora() else {
        println!(
            "corpus_report: ../shared/corpora not found (set PORTCULLIS_CORPORA); nothing measured"
        );
        return;
    };
    let location = Location {
        cwd: Some("/testbed".into()),
        home: Some("/root".into()),
    };
    let sets: Vec<(&str, Vec<String>)> = vec![
        (
            "agent (gemini3 swebv, lines)",
            lines(&dir.join("agent-mini-swe-agent-gemini3-swebv.txt")),
        ),
        (
            "agent (gemini3 swebv, multi-line)",
            json_lines(&dir.join("agent-mini-swe-agent-gemini3-swebv.jsonl")),
        ),
        (
            "agent (swe-agent demos)",
            lines(&dir.join("agent-swe-agent-demos.txt")),
        ),
        ("nl2bash", lines(&dir.join("nl2bash.txt"))),
        ("tldr", lines(&dir.join("tldr.txt"))),
    ];
    let check_bash = std::env::var("PORTCULLIS_SKIP_BASH_N").is_err();
    println!(
        "| corpus | commands | parse clean | FREE | UNKNOWN | SIGNED | BLOCKED | FREE but bash -n rejects |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    // As replay does: the path law of the working folder is read once.
    let mut laws = Laws::new(location.cwd.as_deref());
    for (name, commands) in &sets {
        let mut counts = [0usize; 4];
        let mut clean = 0;
        let mut free_rejected = 0;
        for command in commands {
            let decision = evaluate_in(command, &location, &mut laws);
            counts[decision.verdict() as usize] += 1;
            if !decision
                .findings
                .iter()
                .any(|f| f.rule.family() == portcullis::rule_id::Family::Parse)
            {
                clean += 1;
            }
            if check_bash && decision.verdict() == Verdict::Free && bash_n_rejects(command) {
                free_rejected += 1;
                eprintln!("FREE but bash -n rejects: {command}");
            }
        }
        let n = commands.len().max(1) as f64;
        let pct = |x: usize| 100.0 * x as f64 / n;
        println!(
            "| {name} | {} | {:.2}% | {:.1}% | {:.1}% | {:.1}% | {:.2}% | {free_rejected} |",
            commands.len(),
            pct(clean),
            pct(counts[0]),
            pct(counts[1]),
            pct(counts[2]),
            pct(counts[3]),
        );
    }

    // Throughput: one core, in process, repeated for at least a second.
    let agent = &sets[0].1;
    let start = Instant::now();
    let mut done = 0usize;
    while start.elapsed().as_secs_f64() < 1.0 || done < agent.len() {
        for command in agent {
            std::hint::black_box(evaluate_in(command, &location, &mut laws));
        }
        done += agent.len();
    }
    let rate = done as f64 / start.elapsed().as_secs_f64();
    println!("\nthroughput: {rate:.0} commands/s on one core over the agent lines ({done} judged)");

    // Replay as `portcullis replay` runs it (history reader, chunks, the
    // writer), over the whole agent sessions in the order they ran, on one
    // worker and on every core.
    let sessions = dir.join("agent-mini-swe-agent-gemini3-swebv.sessions.jsonl");
    if sessions.exists() {
        let source = vec![sessions.to_string_lossy().into_owned()];
        let open = |path: &str| -> std::io::Result<portcullis::replay::Opened> {
            let file = std::fs::File::open(path)?;
            Ok((
                portcullis::history::Format::Jsonl,
                Box::new(std::io::BufReader::new(file)),
            ))
        };
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        // One core in earnest: the process pinned to one CPU, so the
        // reader, the worker and the writer share it; then one worker and
        // every worker unpinned.
        for (workers, pinned) in [(1, true), (1, false), (cores, false)] {
            let restore = if pinned { pin_to_one_cpu() } else { None };
            if pinned && restore.is_none() {
                println!("replay pinned to one CPU: sched_setaffinity failed; not measured");
                continue;
            }
            let start = Instant::now();
            let mut rounds = 0;
            let mut commands = 0;
            while rounds == 0 || start.elapsed().as_secs_f64() < 1.0 {
                let summary = portcullis::replay::run(
                    &source,
                    open,
                    &portcullis::replay::Context {
                        location: location.clone(),
                        mode: portcullis::engine::PermissionMode::Default,
                    },
                    false,
                    workers,
                    &mut std::io::sink(),
                    |_| {},
                )
                .expect("replay the sessions");
                commands += summary.total();
                rounds += 1;
            }
            let rate = commands as f64 / start.elapsed().as_secs_f64();
            if let Some(mask) = restore {
                unpin(&mask);
            }
            println!(
                "replay of the agent sessions ({} commands): {rate:.0} commands/s with {workers} worker(s){}",
                commands / rounds,
                if pinned {
                    ", all threads on one CPU"
                } else {
                    ""
                }
            );
        }

        // The floor under that figure: tree-sitter-bash alone parsing every
        // command once (no walk, no judgement), on one core.
        let mut commands = Vec::new();
        if let Ok(text) =
            std::fs::read_to_string(dir.join("agent-mini-swe-agent-gemini3-swebv.sessions.jsonl"))
        {
            for line in text.lines() {
                if let Ok(value) = serde_json::from_str::<serde_json::Value>(line)
                    && let Some(cmd) = value.get("cmd").and_then(|c| c.as_str())
                {
                    commands.push(cmd.to_string());
                }
            }
        }
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_bash::LANGUAGE.into())
            .expect("bash grammar");
        let start = Instant::now();
        let mut parsed = 0usize;
        while parsed == 0 || start.elapsed().as_secs_f64() < 1.0 {
            for command in &commands {
                std::hint::black_box(parser.parse(command, None));
            }
            parsed += commands.len();
        }
        let rate = parsed as f64 / start.elapsed().as_secs_f64();
        println!(
            "tree-sitter-bash parse alone over the same commands: {rate:.0} commands/s on one core"
        );
    }

    // Lexicon coverage: verbs seen 3+ times that the lexicon does not know
    // (tldr placeholder names, listed in tests/data, are not programs).
    let placeholders: Vec<String> = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tldr-placeholders.txt"),
    )
    .unwrap_or_default()
    .lines()
    .filter(|l| !l.starts_with('#') && !l.is_empty())
    .map(str::to_string)
    .collect();
    for (name, file) in [
        ("agent", "agent-mini-swe-agent-gemini3-swebv.txt"),
        ("tldr", "tldr.txt"),
    ] {
        let mut seen: BTreeMap<String, (usize, bool)> = BTreeMap::new();
        for command in lines(&dir.join(file)) {
            for (verb, known) in portcullis::engine::verbs(&command) {
                let entry = seen.entry(verb).or_insert((0, known));
                entry.0 += 1;
            }
        }
        let frequent: Vec<_> = seen.iter().filter(|(_, (n, _))| *n >= 3).collect();
        let missing: Vec<_> = frequent
            .iter()
            .filter(|(v, (_, known))| !known && !placeholders.contains(v))
            .map(|(v, (n, _))| format!("{v} ({n})"))
            .collect();
        println!(
            "verbs in {name}: {} distinct, {} seen 3+ times, {} of those unknown to the lexicon{}{}",
            seen.len(),
            frequent.len(),
            missing.len(),
            if missing.is_empty() { "" } else { ": " },
            missing.join(", ")
        );
    }
}

/// Pins this thread (and the threads it starts) to the first CPU it may
/// run on; returns the mask to restore.
fn pin_to_one_cpu() -> Option<libc::cpu_set_t> {
    // SAFETY: cpu_set_t is plain data; the calls get its exact size.
    unsafe {
        let mut old: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        if libc::sched_getaffinity(0, size, &mut old) != 0 {
            return None;
        }
        let cpu = (0..libc::CPU_SETSIZE as usize).find(|&c| libc::CPU_ISSET(c, &old))?;
        let mut one: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut one);
        (libc::sched_setaffinity(0, size, &one) == 0).then_some(old)
    }
}

/// Restores the mask `pin_to_one_cpu` replaced.
fn unpin(mask: &libc::cpu_set_t) {
    // SAFETY: as above.
    unsafe {
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), mask);
    }
}
