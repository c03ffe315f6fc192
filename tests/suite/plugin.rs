//! The Claude Code plugin files: `hooks.json`, `.claude-plugin/plugin.json`
//! and `.claude-plugin/marketplace.json` are valid and point at the
//! launcher, and the launcher runs the real binary, or blocks (exit 2) when
//! no binary can be found. The README's settings snippet blocks too when
//! the binary is missing.

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
            [
                "Bash",
                "Write",
                "Edit",
                "MultiEdit",
                "NotebookEdit",
                "Read",
                "Grep",
            ]
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

/// `sh ARGS` with `PATH` set to `path_env` and a `git reset --hard`
/// request on stdin, as Claude Code runs a hook command.
fn run_sh(args: &[&str], path_env: &str, plugin_root: Option<&Path>) -> std::process::Output {
    let body = br#"{"tool_name":"Bash","tool_input":{"command":"git reset --hard"},"cwd":"/tmp"}"#;
    let mut sh = Command::new("/bin/sh");
    sh.args(args).env("PATH", path_env);
    if let Some(root) = plugin_root {
        sh.env("CLAUDE_PLUGIN_ROOT", root);
    }
    let mut child = sh
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(body);
    }
    child.wait_with_output().expect("sh finishes")
}

/// The hook ran and denied the request.
fn assert_denied(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: Value = serde_json::from_slice(&out.stdout).expect("hook JSON");
    assert_eq!(value["hookSpecificOutput"]["permissionDecision"], "deny");
}

fn run_launcher(plugin_root: &Path, path_env: &str) -> std::process::Output {
    let launcher = root().join("bin/portcullis-hook");
    run_sh(
        &[&launcher.display().to_string()],
        path_env,
        Some(plugin_root),
    )
}

#[test]
fn launcher_runs_the_binary_or_blocks() {
    let scratch = std::env::temp_dir().join(format!("portcullis-plugin-{}", std::process::id()));
    // Where `cargo build --release` leaves it (the host as an explicit
    // target, .cargo/config.toml), and the plain layout of a build that
    // replaced the config.
    for layout in ["target/x86_64-unknown-linux-gnu/release", "target/release"] {
        let release = scratch.join(layout);
        std::fs::create_dir_all(&release).expect("scratch folder");
        let linked = release.join("portcullis");
        let _ = std::fs::remove_file(&linked);
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_portcullis"), &linked)
            .expect("symlink the binary");
        let out = run_launcher(&scratch, "/nonexistent");
        assert_denied(&out);
        std::fs::remove_file(&linked).expect("unlink");
    }

    let out = run_launcher(&scratch, "/nonexistent");
    assert_eq!(out.status.code(), Some(2), "no binary: the launcher blocks");
    assert!(String::from_utf8_lossy(&out.stderr).contains("binary not found"));
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn plugin_has_an_author_and_its_marketplace_lists_it() {
    let plugin = json(".claude-plugin/plugin.json");
    assert!(
        plugin["author"]["name"]
            .as_str()
            .is_some_and(|n| !n.is_empty()),
        "claude plugin validate --strict wants an author"
    );
    let market = json(".claude-plugin/marketplace.json");
    assert!(market["name"].as_str().is_some_and(|n| !n.is_empty()));
    assert!(
        market["owner"]["name"]
            .as_str()
            .is_some_and(|n| !n.is_empty())
    );
    let entries = market["plugins"].as_array().expect("plugins");
    assert_eq!(entries.len(), 1);
    let entry = &entries[0];
    assert_eq!(entry["name"], plugin["name"]);
    assert_eq!(entry["version"], plugin["version"]);
    // The marketplace is the repository itself: the plugin's source is its
    // root, where `.claude-plugin/plugin.json` and `hooks.json` sit.
    assert_eq!(entry["source"], "./");
    assert_eq!(
        plugin["version"].as_str(),
        Some(env!("CARGO_PKG_VERSION")),
        "the plugin's version follows the crate's"
    );
}

/// The hook command of the README's settings snippet for Claude Code.
fn readme_settings_command() -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let start = readme
        .find("Without the plugin, install the binary")
        .expect("the settings section");
    let block = readme[start..]
        .split("```json")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a JSON block after it");
    let settings: Value = serde_json::from_str(block).expect("the snippet is JSON");
    settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .expect("a command")
        .to_string()
}

fn run_settings_command(command: &str, path_env: &str) -> std::process::Output {
    // Claude Code runs a hook command with `sh -c`.
    run_sh(&["-c", command], path_env, None)
}

#[test]
fn readme_settings_snippet_fails_closed() {
    let command = readme_settings_command();
    let scratch = std::env::temp_dir().join(format!("portcullis-settings-{}", std::process::id()));
    let bin = scratch.join("bin");
    std::fs::create_dir_all(&bin).expect("scratch folder");
    // No binary on PATH: the command must exit 2, the one code Claude Code
    // treats as a block (127 would let the command run).
    let out = run_settings_command(&command, &scratch.join("empty").display().to_string());
    assert_eq!(
        out.status.code(),
        Some(2),
        "{command}: a missing binary blocks"
    );
    // A binary that crashes: exit 2 as well.
    let crash = bin.join("portcullis");
    std::fs::write(&crash, "#!/bin/sh\nexit 101\n").expect("a crashing stand-in");
    std::fs::set_permissions(&crash, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("make it executable");
    let out = run_settings_command(&command, &format!("{}:/usr/bin:/bin", bin.display()));
    assert_eq!(out.status.code(), Some(2), "{command}: a crash blocks");
    // The real binary: it answers, and the answer is a denial.
    std::fs::remove_file(&crash).expect("unlink");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_portcullis"), &crash).expect("symlink");
    let out = run_settings_command(&command, &format!("{}:/usr/bin:/bin", bin.display()));
    assert_denied(&out);
    let _ = std::fs::remove_dir_all(&scratch);
}
