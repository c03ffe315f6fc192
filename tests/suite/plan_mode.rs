//! Claude Code's plan mode is read-only: the hook answers `allow` there only
//! for what merely looks (the lexicon's `inspect` class, inline code that
//! only computes), and prints nothing for a FREE build, test or format, so
//! that plan mode refuses it as it would without the hook. Other modes and
//! stricter verdicts are unchanged.

use crate::common;

use common::Scratch;
use common::claude_decision as decision;

#[test]
fn plan_mode_allows_only_what_looks() {
    let scratch = Scratch::new("plan-mode");
    let cwd = scratch.cwd().display().to_string();
    let allow = Some("allow".to_string());
    for command in [
        "ls -la",
        "git status",
        "git log --oneline | head -5",
        "grep -rn TODO src",
        "python3 -c 'print(1 + 1)'",
    ] {
        assert_eq!(decision(&cwd, "plan", command), allow, "{command}");
    }
    for command in [
        "cargo build",
        "cargo test",
        "cargo fmt",
        "ls && cargo test",
        "make",
    ] {
        assert_eq!(
            decision(&cwd, "plan", command),
            None,
            "{command}: left to plan mode"
        );
        assert_eq!(
            decision(&cwd, "default", command),
            allow,
            "{command}: FREE outside plan mode"
        );
    }
    assert_eq!(
        decision(&cwd, "plan", "git reset --hard").as_deref(),
        Some("deny")
    );
    assert_eq!(
        decision(&cwd, "plan", "git push origin main").as_deref(),
        Some("ask")
    );
}
