//! The Claude Code plugin files: `hooks.json` and `.claude-plugin/plugin.json`
//! are valid and point at the launcher, and the launcher runs the real
//! binary, or blocks (exit 2) when no binary can be found.

use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn json(path: &str) -> Value {
    let text = std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn plugin_manifest_names_the_hooks_file() {
    let plugin = json(".claude-plugin/plugin.json");
    assert_eq!(plugin["name"], "portcullis");
    assert_eq!(plugin["hooks"], "./hooks.json");
    let hooks = json("hooks.json");
    let groups = hooks["hooks"]["PreToolUse"]
        .as_array()
        .expect("PreToolUse groups");
    // Claude Code reads the matcher as a regular expression over the tool
    // name: it must match the shell and every edit tool, exactly.
    let bash = groups
        .iter()
        .find(|g| {
            let alternatives: Vec<&str> = g["matcher"].as_str().unwrap_or("").split('|').collect();
            ["Bash", "Write", "Edit", "MultiEdit", "NotebookEdit", "Read"]
                .iter()
                .all(|tool| alternatives.contains(tool))
        })
        .expect("a matcher for Bash and the edit tools");
    let handler = &bash["hooks"][0];
    assert_eq!(handler["type"], "command");
    assert!(
        handler["timeout"]
            .as_u64()
            .is_some_and(|t| t > 0 && t <= 60)
    );
    let command = handler["command"].as_str().expect("command string");
    assert!(
        command.contains("${CLAUDE_PLUGIN_ROOT}/bin/portcullis-hook"),
        "{command}"
    );
    assert!(root().join("bin/portcullis-hook").exists());
}

fn run_launcher(plugin_root: &Path, path_env: &str) -> std::process::Output {
    let body = br#"{"tool_name":"Bash","tool_input":{"command":"git reset --hard"},"cwd":"/tmp"}"#;
    let mut child = Command::new("/bin/sh")
        .arg(root().join("bin/portcullis-hook"))
        .env("CLAUDE_PLUGIN_ROOT", plugin_root)
        .env("PATH", path_env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs the launcher");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(body);
    }
    child.wait_with_output().expect("launcher finishes")
}

#[test]
fn launcher_runs_the_binary_or_blocks() {
    let scratch = std::env::temp_dir().join(format!("portcullis-plugin-{}", std::process::id()));
    let release = scratch.join("target/release");
    std::fs::create_dir_all(&release).expect("scratch folder");
    let linked = release.join("portcullis");
    let _ = std::fs::remove_file(&linked);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_portcullis"), &linked)
        .expect("symlink the binary");
    let out = run_launcher(&scratch, "/usr/bin:/bin");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: Value = serde_json::from_slice(&out.stdout).expect("hook JSON");
    assert_eq!(value["hookSpecificOutput"]["permissionDecision"], "deny");

    std::fs::remove_file(&linked).expect("unlink");
    let out = run_launcher(&scratch, "/nonexistent");
    assert_eq!(out.status.code(), Some(2), "no binary: the launcher blocks");
    assert!(String::from_utf8_lossy(&out.stderr).contains("binary not found"));
    let _ = std::fs::remove_dir_all(&scratch);
}
