//! Holds portcullis to the targets on real commands nobody here
//! wrote: parse coverage, blocked and free shares on agent sessions, and
//! lexicon coverage of every verb seen 3 times or more.
//!
//! The commands are the shared corpora (`$PORTCULLIS_SHARED/corpora`, else
//! `shared/corpora` one to three folders above the checkout) when present,
//! else the small sample of them in `tests/data/corpora-sample/`, so these
//! tests always check something. `PORTCULLIS_SHARED` set to a folder
//! without `corpora/` fails them; set empty, it picks the sample.

use portcullis::{Location, Verdict, evaluate};
use std::collections::BTreeMap;
use std::path::Path;

use crate::common;

use common::{Scratch, shared_corpora as corpora};

fn lines(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    String::from_utf8_lossy(&bytes)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// The agents ran in `/testbed`, home `/root`; here the working folder is
/// an empty temporary one (the commands that `cd /testbed` still go there).
fn location(scratch: &Scratch) -> Location {
    Location {
        cwd: Some(scratch.cwd()),
        home: Some("/root".into()),
    }
}

#[test]
fn agent_lines_parse_cleanly() {
    let corpora = corpora();
    let dir = &corpora.dir;
    let commands = lines(&dir.join("agent-mini-swe-agent-gemini3-swebv.txt"));
    let scratch = Scratch::new("shared-parse");
    let location = location(&scratch);
    let unclean: Vec<&String> = commands
        .iter()
        .filter(|c| {
            evaluate(c, &location)
                .findings
                .iter()
                .any(|f| f.rule.family() == portcullis::rule_id::Family::Parse)
        })
        .collect();
    let share = 1.0 - unclean.len() as f64 / commands.len() as f64;
    println!(
        "agent lines parsing cleanly: {:.3}% of {}",
        share * 100.0,
        commands.len()
    );
    assert!(
        share >= 0.995,
        "{:.3}% parse cleanly; first failures: {:?}",
        share * 100.0,
        &unclean[..unclean.len().min(10)]
    );
}

/// Shares of FREE and BLOCKED over `commands`, printed under `name`, and
/// the first BLOCKED ones.
fn shares(name: &str, commands: &[String]) -> (f64, f64, Vec<String>) {
    let scratch = Scratch::new("shared-shares");
    let location = location(&scratch);
    let mut counts = [0usize; 4];
    let mut blocked = Vec::new();
    for command in commands {
        let decision = evaluate(command, &location);
        counts[decision.verdict() as usize] += 1;
        if decision.verdict() == Verdict::Blocked && blocked.len() < 20 {
            blocked.push(format!(
                "{} {}",
                decision.top.rule,
                command.lines().next().unwrap_or("")
            ));
        }
    }
    let total = counts.iter().sum::<usize>().max(1) as f64;
    let free = counts[Verdict::Free as usize] as f64 / total;
    let blocked_share = counts[Verdict::Blocked as usize] as f64 / total;
    println!(
        "{name}: {total} commands, FREE {:.1}%, BLOCKED {:.2}%",
        free * 100.0,
        blocked_share * 100.0
    );
    (free, blocked_share, blocked)
}

#[test]
fn agent_commands_are_mostly_free_and_rarely_blocked() {
    let corpora = corpora();
    let dir = &corpora.dir;
    // One command a line, as the agent typed them.
    let (free, blocked_share, blocked) = shares(
        "agent lines",
        &lines(&dir.join("agent-mini-swe-agent-gemini3-swebv.txt")),
    );
    // The target on the whole corpora (61.7% measured); the
    // sample's own share is 58.6%.
    let least = corpora.pick(0.60, 0.55);
    assert!(free >= least, "only {:.1}% FREE", free * 100.0);
    assert!(
        blocked_share <= 0.005,
        "{:.2}% BLOCKED: {blocked:?}",
        blocked_share * 100.0
    );

    // Whole sessions, multi-line commands included (heredocs that write
    // files, scripts the agent wrote and then runs: those are SIGNED until
    // the inline-code lane reads them).
    let sessions: Vec<String> =
        lines(&dir.join("agent-mini-swe-agent-gemini3-swebv.sessions.jsonl"))
            .iter()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|v| v["cmd"].as_str().map(str::to_string))
            .collect();
    let (free, blocked_share, blocked) = shares("agent sessions", &sessions);
    assert!(
        blocked_share <= 0.005,
        "{:.2}% BLOCKED: {blocked:?}",
        blocked_share * 100.0
    );
    assert!(free >= 0.50, "sessions: only {:.1}% FREE", free * 100.0);
}

/// Issue 3's target: the multi-line agent commands (heredoc scripts,
/// `python -c` programs) are BLOCKED at most 0.5% of the time, and the real
/// binary exits 0 on every one of them.
#[test]
fn multi_line_agent_commands_through_the_inline_lanes() {
    let corpora = corpora();
    let dir = &corpora.dir;
    let path = dir.join("agent-mini-swe-agent-gemini3-swebv.jsonl");
    let scratch = Scratch::new("shared-multi");
    let commands: Vec<String> = lines(&path)
        .iter()
        .filter_map(|l| serde_json::from_str::<String>(l).ok())
        .collect();
    let least = corpora.pick(3000, 20);
    assert!(commands.len() > least, "{} commands", commands.len());
    let (_, blocked_share, blocked) = shares("agent multi-line", &commands);
    assert!(
        blocked_share <= 0.005,
        "{:.2}% BLOCKED: {blocked:?}",
        blocked_share * 100.0
    );
    let lanes = commands
        .iter()
        .map(|c| evaluate(c, &location(&scratch)))
        .filter(|d| {
            d.findings
                .iter()
                .any(|f| f.rule.family() == portcullis::rule_id::Family::Inline)
        })
        .count();
    // The sample's 26 commands hold 1 that reaches a lane.
    let least = corpora.pick(50, 1);
    assert!(
        lanes >= least,
        "only {lanes} commands reached an inline lane"
    );
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_portcullis"))
        .args(["replay", "--format", "jsonl", "--json", "--cwd"])
        .arg(scratch.cwd())
        .arg(&path)
        .output()
        .expect("run portcullis replay");
    assert!(output.status.success(), "replay exited {:?}", output.status);
    let rows = String::from_utf8_lossy(&output.stdout).lines().count();
    assert_eq!(rows, commands.len(), "one verdict per command");
}

/// Placeholder names of tldr pages (`tests/data/tldr-placeholders.txt`).
fn tldr_placeholders() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tldr-placeholders.txt");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_frequent_verb_is_in_the_lexicon() {
    let corpora = corpora();
    let dir = &corpora.dir;
    let placeholders = tldr_placeholders();
    for file in ["agent-mini-swe-agent-gemini3-swebv.txt", "tldr.txt"] {
        let mut seen: BTreeMap<String, (usize, bool)> = BTreeMap::new();
        for command in lines(&dir.join(file)) {
            for (verb, known) in portcullis::engine::verbs(&command) {
                seen.entry(verb).or_insert((0, known)).0 += 1;
            }
        }
        let missing: Vec<String> = seen
            .iter()
            .filter(|(v, (n, known))| *n >= 3 && !known && !placeholders.contains(v))
            .map(|(v, (n, _))| format!("{v} ({n})"))
            .collect();
        assert!(
            missing.is_empty(),
            "{file}: verbs seen 3+ times but not in rules/lexicon: {missing:?}"
        );
    }
}
