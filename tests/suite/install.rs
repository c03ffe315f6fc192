//! `portcullis install`, `uninstall` and `doctor` in scratch homes, as a
//! user runs them: every folder is a temp dir, and the child's HOME,
//! XDG_CONFIG_HOME, CODEX_HOME, GEMINI_CLI_HOME, COPILOT_HOME and PATH are
//! set, so nothing of the real machine is read or written. The hook
//! entries point at a copy of the binary inside the scratch folder, so a
//! test can break them by removing it.

use serde_json::Value;
use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// One scratch machine: a home, a project folder (the current folder of
/// every run) and a copy of the binary.
struct Scratch {
    root: PathBuf,
    home: PathBuf,
    proj: PathBuf,
    bin: PathBuf,
    extra_env: Vec<(String, String)>,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let root = std::env::temp_dir().join(format!("pc-install-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let home = root.join("home");
        let proj = root.join("proj");
        let bindir = root.join("bin");
        for dir in [&home, &proj, &bindir] {
            fs::create_dir_all(dir).unwrap();
        }
        let bin = bindir.join("portcullis");
        fs::copy(env!("CARGO_BIN_EXE_portcullis"), &bin).unwrap();
        let root = root.canonicalize().unwrap();
        Scratch {
            home: root.join("home"),
            proj: root.join("proj"),
            bin: root.join("bin/portcullis"),
            root,
            extra_env: Vec::new(),
        }
    }

    /// Runs the scratch binary with `args` in the project folder.
    fn run(&self, args: &[&str]) -> Output {
        self.run_with_stdin(args, b"")
    }

    fn run_with_stdin(&self, args: &[&str], stdin: &[u8]) -> Output {
        let mut c = Command::new(&self.bin);
        c.args(args)
            .current_dir(&self.proj)
            .env_clear()
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("CODEX_HOME", self.home.join(".codex"))
            .env("GEMINI_CLI_HOME", &self.home)
            .env("COPILOT_HOME", self.home.join(".copilot"))
            .env("PATH", "/usr/bin:/bin")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in &self.extra_env {
            c.env(k, v);
        }
        let mut child = spawn(&mut c);
        if let Some(mut input) = child.stdin.take() {
            let _ = input.write_all(stdin);
        }
        child.wait_with_output().unwrap()
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.home.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, text).unwrap();
        path
    }

    fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.home.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    fn exists(&self, rel: &str) -> bool {
        fs::symlink_metadata(self.home.join(rel)).is_ok()
    }

    /// Trusts the project folder for Gemini CLI and Codex's hook review,
    /// as a person would in those hosts.
    fn trust_all(&self) {
        self.write(
            ".gemini/trustedFolders.json",
            &format!("{{\"{}\": \"TRUST_FOLDER\"}}", self.proj.display()),
        );
        let hooks = self.home.join(".codex/hooks.json");
        let config = format!(
            "# my codex settings\nmodel = \"gpt-5\" # keep\n\n[hooks.state.\"{}:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:0000\"\n",
            hooks.display()
        );
        self.write(".codex/config.toml", &config);
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

/// Spawns `c`, retrying while the binary is busy: a test thread copying
/// its binary can leave the file open for writing in a child another
/// thread forks at that moment (ETXTBSY until that child execs).
fn spawn(c: &mut Command) -> std::process::Child {
    for _ in 0..100 {
        match c.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => return other.unwrap(),
        }
    }
    c.spawn().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The file each host's user-level install writes, under the home.
const USER_FILES: &[(&str, &str)] = &[
    ("claude", ".claude/settings.json"),
    ("opencode", ".config/opencode/plugins/portcullis.js"),
    ("codex", ".codex/hooks.json"),
    ("gemini", ".gemini/settings.json"),
    ("copilot", ".copilot/hooks/portcullis.json"),
    ("cursor", ".cursor/hooks.json"),
    ("qwen", ".qwen/settings.json"),
];

/// Existing configs with other keys and the user's own hooks, in their
/// own formatting.
const FIXTURES: &[(&str, &str)] = &[
    (
        "claude",
        "{\n    \"model\": \"opus\",\n    \"permissions\": {\"allow\": [\"Bash(ls:*)\"]},\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"my-linter --check\"}]}\n        ],\n        \"Stop\": []\n    }\n}\n",
    ),
    (
        "codex",
        "{\n  \"description\": \"mine\",\n  \"hooks\": {\n    \"PostToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"log-it\"}]}]\n  }\n}\n",
    ),
    (
        "gemini",
        "{\n  \"theme\": \"dark\",\n  \"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}},\n  \"hooks\": {\"BeforeTool\": [{\"matcher\": \"write_file\", \"hooks\": [{\"name\": \"fmt\", \"type\": \"command\", \"command\": \"fmt-check\"}]}]}\n}\n",
    ),
    (
        "copilot",
        "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"type\": \"command\", \"bash\": \"audit.sh\"}]}}\n",
    ),
    (
        "cursor",
        "{\n\t\"version\": 1,\n\t\"hooks\": {\n\t\t\"afterFileEdit\": [{\"command\": \"prettier\"}]\n\t}\n}\n",
    ),
    (
        "qwen",
        "{\n  \"model\": {\"name\": \"qwen3\"},\n  \"hooks\": {\"PreToolUse\": [{\"matcher\": \"edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"mine\", \"name\": \"mine\"}]}]}\n}\n",
    ),
];

fn user_file(host: &str) -> &'static str {
    USER_FILES.iter().find(|(h, _)| *h == host).unwrap().1
}

#[test]
fn each_host_from_existing_config_install_twice_doctor_break_uninstall() {
    for (host, original) in FIXTURES {
        let s = Scratch::new(&format!("cycle-{host}"));
        s.trust_all();
        let file = user_file(host);
        s.write(file, original);
        let codex_config = s.read(".codex/config.toml");

        let out = s.run(&["install", "--host", host]);
        assert_eq!(out.status.code(), Some(0), "{host}: {}", stderr(&out));
        let installed = s.read(file);
        let bin = s.bin.display().to_string();
        assert!(installed.contains(&bin), "{host}: {installed}");
        assert!(stdout(&out).contains("+++ "), "{host}: a diff is printed");
        assert_eq!(
            &s.read(&format!("{file}.portcullis-backup")),
            original,
            "{host}"
        );
        let tree: Value = serde_json::from_str(&installed).unwrap();
        let before: Value = serde_json::from_str(original).unwrap();
        // Every key of the original is still there, the user's hooks too.
        for (key, value) in before.as_object().unwrap() {
            if key != "hooks" {
                assert_eq!(tree.get(key), Some(value), "{host}: {key}");
            }
        }
        for mine in [
            "my-linter --check",
            "log-it",
            "fmt-check",
            "audit.sh",
            "prettier",
            "\"mine\"",
        ] {
            if original.contains(mine) {
                assert!(installed.contains(mine), "{host}: {mine} lost");
            }
        }
        if *host == "codex" {
            let keys: Vec<&String> = tree.as_object().unwrap().keys().collect();
            assert!(
                keys.iter().all(|k| *k == "hooks" || *k == "description"),
                "{keys:?}"
            );
        }

        let again = s.run(&["install", "--host", host]);
        assert_eq!(again.status.code(), Some(0), "{host}");
        assert!(
            stdout(&again).contains("nothing to change"),
            "{host}: {}",
            stdout(&again)
        );
        assert_eq!(
            s.read(file),
            installed,
            "{host}: a second install changes nothing"
        );

        let doctor = s.run(&["doctor", "--host", host]);
        assert_eq!(doctor.status.code(), Some(0), "{host}: {}", stdout(&doctor));
        assert!(
            stdout(&doctor).contains("self-test: `rm -rf ~` is BLOCKED"),
            "{host}"
        );

        // Break it: the binary the hook names is gone.
        fs::rename(&s.bin, s.root.join("bin/moved")).unwrap();
        let mut moved = Command::new(s.root.join("bin/moved"));
        moved
            .args(["doctor", "--host", host])
            .current_dir(&s.proj)
            .env_clear()
            .env("HOME", &s.home)
            .env("CODEX_HOME", s.home.join(".codex"))
            .env("GEMINI_CLI_HOME", &s.home)
            .env("COPILOT_HOME", s.home.join(".copilot"))
            .env("PATH", "/usr/bin:/bin")
            .stdout(Stdio::piped());
        let broken = spawn(&mut moved).wait_with_output().unwrap();
        let text = stdout(&broken);
        assert_eq!(broken.status.code(), Some(1), "{host}: {text}");
        assert!(text.contains("does not exist"), "{host}: {text}");
        assert!(
            text.contains(&format!("fix: portcullis install --host {host}")),
            "{host}: {text}"
        );
        fs::rename(s.root.join("bin/moved"), &s.bin).unwrap();

        let out = s.run(&["uninstall", "--host", host]);
        assert_eq!(out.status.code(), Some(0), "{host}: {}", stderr(&out));
        assert_eq!(
            &s.read(file),
            original,
            "{host}: uninstall gives the original bytes back"
        );
        assert_eq!(
            s.read(".codex/config.toml"),
            codex_config,
            "{host}: config.toml untouched"
        );
        let out = s.run(&["uninstall", "--host", host]);
        assert!(stdout(&out).contains("nothing to change"), "{host}");
    }
}

#[test]
fn every_host_from_nothing_is_created_checked_and_removed() {
    let s = Scratch::new("fresh");
    s.trust_all();
    let mut s = s;
    s.extra_env
        .push(("PORTCULLIS_BIN".into(), s.bin.display().to_string()));
    for dir in [
        ".claude",
        ".config/opencode",
        ".codex",
        ".gemini",
        ".copilot",
        ".cursor",
        ".qwen",
    ] {
        fs::create_dir_all(s.home.join(dir)).unwrap();
    }
    // No --host: every host whose folder is there.
    let out = s.run(&["install"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for (host, file) in USER_FILES {
        assert!(s.exists(file), "{host}: {file}");
        assert!(
            !s.exists(&format!("{file}.portcullis-backup")),
            "{host}: nothing to back up"
        );
    }
    let text = s.read(user_file("copilot"));
    assert!(
        text.starts_with("{\n  \"version\": 1,\n  \"hooks\": {\n    \"preToolUse\": ["),
        "{text}"
    );
    let cursor = s.read(user_file("cursor"));
    assert_eq!(
        cursor.matches("\"failClosed\": true").count(),
        2,
        "{cursor}"
    );

    let doctor = s.run(&["doctor", "--json"]);
    let report: Value = serde_json::from_str(&stdout(&doctor)).unwrap();
    assert_eq!(report["ok"], true, "{report:#}");
    assert_eq!(doctor.status.code(), Some(0));
    assert_eq!(report["hosts"].as_array().unwrap().len(), 7);

    let out = s.run(&["uninstall"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for (host, file) in USER_FILES {
        assert!(!s.exists(file), "{host}: a file install created goes again");
    }
    // config.toml is the user's, with its comments, untouched.
    assert!(
        s.read(".codex/config.toml")
            .starts_with("# my codex settings\n")
    );
}

#[test]
fn links_and_broken_files_are_refused_and_other_hosts_proceed() {
    let s = Scratch::new("refuse");
    let real = s.write("dotfiles/settings.json", "{\"model\": \"x\"}\n");
    fs::create_dir_all(s.home.join(".claude")).unwrap();
    std::os::unix::fs::symlink(&real, s.home.join(".claude/settings.json")).unwrap();
    s.write(".gemini/settings.json", "{ \"theme\": ");
    s.write(".codex/hooks.json", "{\"version\": 1, \"hooks\": {}}\n");
    let out = s.run(&[
        "install", "--host", "claude", "--host", "gemini", "--host", "codex", "--host", "qwen",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(".claude/settings.json: refused: it is a symbolic link"),
        "{err}"
    );
    assert!(
        err.contains(".gemini/settings.json: refused: it is not valid JSON"),
        "{err}"
    );
    assert!(
        err.contains("top-level key `version` makes Codex ignore the whole file"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&real).unwrap(), "{\"model\": \"x\"}\n");
    assert_eq!(s.read(".gemini/settings.json"), "{ \"theme\": ");
    assert_eq!(
        s.read(".codex/hooks.json"),
        "{\"version\": 1, \"hooks\": {}}\n"
    );
    assert!(!s.exists(".gemini/settings.json.portcullis-backup"));
    // Qwen proceeds.
    assert!(
        s.read(".qwen/settings.json")
            .contains("hook --host qwen || exit 2")
    );
    // A file too large is refused too.
    s.write(".cursor/hooks.json", &" ".repeat(5 * 1024 * 1024));
    let out = s.run(&["install", "--host", "cursor"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("larger than 4 MiB"),
        "{}",
        stderr(&out)
    );
    // doctor names the unreadable file.
    let out = s.run(&["doctor", "--host", "gemini"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("not valid JSON"), "{}", stdout(&out));
}

#[test]
fn dry_run_prints_the_diff_and_writes_nothing() {
    let s = Scratch::new("dry");
    let original = "{\"model\": \"opus\"}\n";
    s.write(".claude/settings.json", original);
    let out = s.run(&["install", "--host", "claude", "--dry-run"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("-{\"model\": \"opus\"}\n"), "{text}");
    assert!(
        text.contains(
            "+        \"matcher\": \"Bash|Write|Edit|MultiEdit|NotebookEdit|Read|Grep\","
        ),
        "{text}"
    );
    assert!(text.contains("dry run: nothing written"), "{text}");
    assert_eq!(s.read(".claude/settings.json"), original);
    assert!(!s.exists(".claude/settings.json.portcullis-backup"));
}

#[test]
fn the_backup_is_made_once_and_never_overwritten() {
    let s = Scratch::new("backup");
    let original = "{\"a\": 1}\n";
    s.write(".qwen/settings.json", original);
    assert_eq!(s.run(&["install", "--host", "qwen"]).status.code(), Some(0));
    assert_eq!(
        s.run(&["uninstall", "--host", "qwen"]).status.code(),
        Some(0)
    );
    s.write(".qwen/settings.json", "{\"a\": 2}\n");
    assert_eq!(s.run(&["install", "--host", "qwen"]).status.code(), Some(0));
    assert_eq!(s.read(".qwen/settings.json.portcullis-backup"), original);
    // The user's later change survives uninstall.
    assert_eq!(
        s.run(&["uninstall", "--host", "qwen"]).status.code(),
        Some(0)
    );
    let tree: Value = serde_json::from_str(&s.read(".qwen/settings.json")).unwrap();
    assert_eq!(tree, serde_json::json!({"a": 2}));
}

#[test]
fn the_file_mode_is_kept() {
    let s = Scratch::new("mode");
    let path = s.write(".gemini/settings.json", "{}\n");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    assert_eq!(
        s.run(&["install", "--host", "gemini"]).status.code(),
        Some(0)
    );
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

#[test]
fn an_old_hand_written_entry_is_replaced_in_place_and_doctor_flags_it_first() {
    let s = Scratch::new("old-entry");
    s.trust_all();
    let hand = "{\"hooks\": {\"BeforeTool\": [{\"matcher\": \"^(run_shell_command)$\", \"hooks\": [{\"name\": \"portcullis\", \"type\": \"command\", \"command\": \"portcullis hook --host gemini\", \"timeout\": 5000}]}, {\"matcher\": \"x\", \"hooks\": [{\"type\": \"command\", \"command\": \"other\"}]}]}}\n";
    s.write(".gemini/settings.json", hand);
    let out = s.run(&["doctor", "--host", "gemini"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("differs from the entry install writes"),
        "{text}"
    );
    assert!(text.contains("|| exit 2"), "{text}");
    assert_eq!(
        s.run(&["install", "--host", "gemini"]).status.code(),
        Some(0)
    );
    let tree: Value = serde_json::from_str(&s.read(".gemini/settings.json")).unwrap();
    let groups = tree["hooks"]["BeforeTool"].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0]["hooks"][0]["timeout"], 10000);
    assert_eq!(groups[1]["hooks"][0]["command"], "other");
    let out = s.run(&["doctor", "--host", "gemini"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn doctor_reports_trust_gates_with_their_fix() {
    let s = Scratch::new("trust");
    assert_eq!(
        s.run(&["install", "--host", "gemini", "--host", "codex"])
            .status
            .code(),
        Some(0)
    );
    let out = s.run(&["doctor", "--host", "gemini", "--host", "codex"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(&format!("\"{}\": \"TRUST_FOLDER\"", s.proj.display())),
        "{text}"
    );
    assert!(text.contains("--dangerously-bypass-hook-trust"), "{text}");
    assert!(text.contains("2 problems"), "{text}");
    // Trusted, then Gemini's hooks turned off.
    s.trust_all();
    assert_eq!(
        s.run(&["doctor", "--host", "gemini", "--host", "codex"])
            .status
            .code(),
        Some(0)
    );
    let settings = s.read(".gemini/settings.json");
    s.write(
        ".gemini/settings.json",
        &settings.replacen(
            '{',
            "{\"hooksConfig\": {\"disabled\": [\"portcullis\"]},",
            1,
        ),
    );
    let out = s.run(&["doctor", "--host", "gemini"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("hooksConfig.disabled"),
        "{}",
        stdout(&out)
    );
    // TRUST_PARENT on a child trusts its parent; the longest rule wins.
    s.write(".gemini/settings.json", &settings);
    s.write(
        ".gemini/trustedFolders.json",
        &format!("{{\"{}\": \"TRUST_PARENT\"}}", s.proj.join("x").display()),
    );
    let out = s.run(&["doctor", "--host", "gemini"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    s.write(
        ".gemini/trustedFolders.json",
        &format!(
            "{{\"{}\": \"TRUST_FOLDER\", \"{}\": \"DO_NOT_TRUST\"}}",
            s.root.display(),
            s.proj.display()
        ),
    );
    let out = s.run(&["doctor", "--host", "gemini"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("marked DO_NOT_TRUST"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn copilot_project_hooks_need_folder_trust() {
    let s = Scratch::new("copilot-project");
    let out = s.run(&["install", "--host", "copilot", "--project"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(s.proj.join(".github/hooks/portcullis.json").is_file());
    let out = s.run(&["doctor", "--host", "copilot"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("not a trusted folder"),
        "{}",
        stdout(&out)
    );
    s.write(
        ".copilot/settings.json",
        &format!("{{\"trustedFolders\": [\"{}\"]}}", s.proj.display()),
    );
    let out = s.run(&["doctor", "--host", "copilot"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = s.run(&["uninstall", "--host", "copilot", "--project"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(!s.proj.join(".github/hooks/portcullis.json").exists());
}

#[test]
fn doctor_catches_a_wrong_version_and_a_hook_that_answers_nothing() {
    let s = Scratch::new("fake");
    let fake = s.root.join("bin/fake/portcullis");
    fs::create_dir_all(fake.parent().unwrap()).unwrap();
    fs::write(
        &fake,
        "#!/bin/sh\ncase \"$1\" in --version) echo 'portcullis 0.0.1';; *) cat >/dev/null;; esac\n",
    )
    .unwrap();
    fs::set_permissions(&fake, fs::Permissions::from_mode(0o755)).unwrap();
    let entry = format!(
        "{{\"hooks\": {{\"PreToolUse\": [{{\"matcher\": \"run_shell_command|write_file|edit\", \"hooks\": [{{\"type\": \"command\", \"command\": \"{} hook --host qwen || exit 2\", \"name\": \"portcullis\", \"timeout\": 10000}}]}}]}}}}\n",
        fake.display()
    );
    s.write(".qwen/settings.json", &entry);
    let out = s.run(&["doctor", "--host", "qwen"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("says `portcullis 0.0.1`"), "{text}");
    assert!(
        text.contains(
            "`rm -rf ~` should be BLOCKED but Qwen Code reads the answer as the host lets it run"
        ),
        "{text}"
    );
    // A not-executable binary.
    fs::set_permissions(&fake, fs::Permissions::from_mode(0o644)).unwrap();
    let text = stdout(&s.run(&["doctor", "--host", "qwen"]));
    assert!(text.contains("is not executable"), "{text}");
}

#[test]
fn doctor_says_when_the_opencode_plugin_cannot_find_the_binary() {
    let s = Scratch::new("opencode");
    assert_eq!(
        s.run(&["install", "--host", "opencode"]).status.code(),
        Some(0)
    );
    let out = s.run(&["doctor", "--host", "opencode"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("neither resolves"), "{text}");
    assert!(
        text.contains(&format!("export PORTCULLIS_BIN={}", s.bin.display())),
        "{text}"
    );
}

#[test]
fn doctor_notes_claude_hooks_beside_ours_and_a_disabling_setting() {
    let s = Scratch::new("claude-shadow");
    s.write(
        ".claude/settings.json",
        "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"approve-all\"}]}]}}\n",
    );
    assert_eq!(
        s.run(&["install", "--host", "claude"]).status.code(),
        Some(0)
    );
    let out = s.run(&["doctor", "--host", "claude"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains(
            "another PreToolUse hook runs beside portcullis (matcher `Bash`: approve-all)"
        ),
        "{text}"
    );
    fs::create_dir_all(s.proj.join(".claude")).unwrap();
    fs::write(
        s.proj.join(".claude/settings.local.json"),
        "{\"disableAllHooks\": true}",
    )
    .unwrap();
    let out = s.run(&["doctor", "--host", "claude", "--json"]);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(report["ok"], false);
    let checks = report["hosts"][0]["checks"].as_array().unwrap();
    let problem = checks.iter().find(|c| c["status"] == "problem").unwrap();
    assert_eq!(problem["check"], "disabled");
    assert!(problem["fix"].as_str().unwrap().contains("disableAllHooks"));
}

#[test]
fn codex_inline_hooks_in_config_toml_are_reported_not_edited() {
    let s = Scratch::new("codex-toml");
    let toml = format!(
        "# keep me\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"{} hook --host codex || exit 2\"\n",
        s.bin.display()
    );
    s.write(".codex/config.toml", &toml);
    let out = s.run(&["install", "--host", "codex"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).contains("also runs portcullis from its [hooks] table"),
        "{}",
        stdout(&out)
    );
    assert_eq!(s.read(".codex/config.toml"), toml);
}

#[test]
fn no_host_found_is_an_error_and_bad_hosts_are_usage_errors() {
    let s = Scratch::new("none");
    let out = s.run(&["install"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no host found"), "{}", stderr(&out));
    let out = s.run(&["doctor"]);
    assert_eq!(out.status.code(), Some(1));
    let out = s.run(&["install", "--host", "vim"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown host `vim`"));
}

#[test]
fn an_agent_running_install_or_uninstall_through_the_hook_is_blocked() {
    let s = Scratch::new("self");
    for (command, decision) in [
        ("portcullis uninstall", "deny"),
        ("portcullis install --host claude", "deny"),
        (&*format!("{} uninstall", s.bin.display()), "deny"),
        ("env portcullis uninstall --host codex", "deny"),
        ("bash -c 'portcullis uninstall'", "deny"),
        ("portcullis doctor", "allow"),
    ] {
        let request = serde_json::json!({
            "session_id": "s", "transcript_path": "", "cwd": s.proj, "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}
        });
        let out = s.run_with_stdin(
            &["hook", "--host", "claude"],
            request.to_string().as_bytes(),
        );
        let answer: Value = serde_json::from_str(&stdout(&out)).unwrap();
        let output = &answer["hookSpecificOutput"];
        assert_eq!(
            output["permissionDecision"], decision,
            "{command}: {answer}"
        );
        if decision == "deny" {
            let reason = output["permissionDecisionReason"].as_str().unwrap();
            assert!(reason.contains("floor.guard.settings"), "{reason}");
            assert!(reason.contains("ask the person to run"), "{reason}");
        }
    }
    // A renamed binary knows its own name.
    let renamed = s.root.join("bin/pcx");
    fs::copy(&s.bin, &renamed).unwrap();
    let request = serde_json::json!({
        "session_id": "s", "transcript_path": "", "cwd": s.proj, "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": format!("{} uninstall", renamed.display())}
    });
    let mut c = Command::new(&renamed);
    c.args(["hook", "--host", "claude"])
        .env("HOME", &s.home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut child = spawn(&mut c);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(request.to_string().as_bytes())
        .unwrap();
    let answer: Value = serde_json::from_slice(&child.wait_with_output().unwrap().stdout).unwrap();
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{answer}"
    );
}

#[test]
fn doctor_writes_nothing() {
    let s = Scratch::new("readonly");
    s.trust_all();
    assert_eq!(
        s.run(&["install", "--host", "claude", "--host", "cursor"])
            .status
            .code(),
        Some(0)
    );
    let listing = |dir: &Path| {
        let mut out = Vec::new();
        for entry in ignore::WalkBuilder::new(dir)
            .hidden(false)
            .build()
            .flatten()
        {
            let meta = entry.path().symlink_metadata().unwrap();
            out.push((entry.path().to_path_buf(), meta.len(), meta.modified().ok()));
        }
        out
    };
    let before = listing(&s.root);
    let out = s.run(&["doctor", "--host", "claude", "--host", "cursor"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(listing(&s.root), before);
}

/// Every `(key, value)` pair of a JSON tree, depth first.
fn pairs<'a>(value: &'a Value, out: &mut Vec<(&'a str, &'a Value)>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                out.push((k, v));
                pairs(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| pairs(v, out)),
        _ => {}
    }
}

/// The README's JSON snippets that hold a portcullis hook entry are the
/// table's entries, with `portcullis` for the binary's path. (TOML
/// snippets are not checked.)
#[test]
fn readme_hook_snippets_are_the_table_entries() {
    use portcullis::install::{hosts::SPECS, json, merge};
    let readme = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let mut checked = 0;
    for block in readme.split("```json\n").skip(1) {
        let Some((code, _)) = block.split_once("```") else {
            continue;
        };
        let Ok(value) = serde_json::from_str::<Value>(code) else {
            continue;
        };
        let mut all = Vec::new();
        pairs(&value, &mut all);
        for spec in SPECS {
            let host = format!("\"--host\",\"{}\"", spec.host.name());
            let shell = format!("hook --host {}", spec.host.name());
            for (event, template) in spec.entries {
                let want: Value = serde_json::from_str(&json::compact(&merge::instantiate(
                    template,
                    Path::new("portcullis"),
                )))
                .unwrap();
                for (key, items) in &all {
                    if key != event {
                        continue;
                    }
                    for item in items.as_array().into_iter().flatten() {
                        let text = item.to_string();
                        let ours = text.contains("portcullis")
                            && (text.contains(&host) || text.contains(&shell));
                        if ours {
                            assert_eq!(item, &want, "README {event} entry of {}", spec.title);
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked >= 1, "no README snippet checked");
}

/// Files of every odd shape: install and uninstall refuse or cope, never
/// panic, and never write a file they refuse.
#[test]
fn odd_shapes_are_refused_with_a_reason_never_a_panic() {
    let s = Scratch::new("shapes");
    for text in [
        "[]",
        "\"x\"",
        "null",
        "{\"hooks\": []}",
        "{\"hooks\": {\"PreToolUse\": {}}}",
        "{\"hooks\": {\"PreToolUse\": [1, \"x\", null, {\"hooks\": 3}]}}",
        "{\"a\": 1, \"a\": 2}",
        "\u{feff}{}",
        "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"command\": \"'unclosed\"}]}]}}",
    ] {
        s.write(".qwen/settings.json", text);
        for action in ["install", "uninstall"] {
            let out = s.run(&[action, "--host", "qwen"]);
            let err = stderr(&out);
            assert!(
                !err.contains("panicked") && !err.contains("internal error"),
                "{text}: {err}"
            );
            match out.status.code() {
                Some(0) => {}
                Some(1) => {
                    assert!(err.contains("refused: "), "{text}: {err}");
                    assert_eq!(
                        s.read(".qwen/settings.json"),
                        text,
                        "{text}: refused yet written"
                    );
                }
                other => panic!("{text}: {action} exit {other:?}"),
            }
        }
        let out = s.run(&["doctor", "--host", "qwen"]);
        assert_eq!(out.status.code(), Some(1), "{text}");
    }
}

/// A binary that is not called `portcullis` (a build copied somewhere
/// under another name) still knows its own entries: install twice adds
/// one, doctor finds it, uninstall removes it.
#[test]
fn a_renamed_binary_finds_its_own_entries() {
    let mut s = Scratch::new("renamed");
    let renamed = s.root.join("bin/pc-build");
    fs::rename(&s.bin, &renamed).unwrap();
    s.bin = renamed;
    s.trust_all();
    for host in ["claude", "copilot", "cursor"] {
        assert_eq!(s.run(&["install", "--host", host]).status.code(), Some(0));
        let once = s.read(user_file(host));
        let again = s.run(&["install", "--host", host]);
        assert!(
            stdout(&again).contains("nothing to change"),
            "{host}: {}",
            stdout(&again)
        );
        assert_eq!(s.read(user_file(host)), once);
        let out = s.run(&["doctor", "--host", host]);
        assert_eq!(out.status.code(), Some(0), "{host}: {}", stdout(&out));
        assert_eq!(s.run(&["uninstall", "--host", host]).status.code(), Some(0));
        assert!(!s.exists(user_file(host)), "{host}");
    }
}

/// Claude Code with the portcullis plugin enabled instead of a settings
/// hook: doctor notes the plugin rather than calling the host unguarded.
#[test]
fn doctor_notes_the_claude_code_plugin() {
    let s = Scratch::new("plugin");
    s.write(
        ".claude/settings.json",
        "{\"enabledPlugins\": {\"portcullis@portcullis\": true}}\n",
    );
    let out = s.run(&["doctor", "--host", "claude"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("enables the portcullis Claude Code plugin"),
        "{text}"
    );
    s.write(
        ".claude/settings.json",
        "{\"enabledPlugins\": {\"portcullis@portcullis\": false}}\n",
    );
    assert_eq!(
        s.run(&["doctor", "--host", "claude"]).status.code(),
        Some(1)
    );
}
