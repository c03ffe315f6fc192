//! Shared by the integration tests: the labelled corpus (`corpus/*.tsv`),
//! the place every case runs in (an empty temporary working folder, or the
//! fixed `/home/u/proj` for the few cases listed with their reasons in
//! `tests/data/fixed-folder.tsv`), and hostile files to fill a folder with.
#![allow(dead_code)]

use portcullis::{Location, Verdict};
use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, Once};

/// One labelled case.
pub struct Case {
    pub file: String,
    pub line: usize,
    pub verdict: Verdict,
    pub rule: Option<String>,
    pub command: String,
}

/// `\n` → newline, `\t` → tab, `\\` → backslash; other backslashes stay.
pub fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('n') => {
                    chars.next();
                    out.push('\n');
                }
                Some('t') => {
                    chars.next();
                    out.push('\t');
                }
                Some('\\') => {
                    chars.next();
                    out.push('\\');
                }
                _ => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Every case of every `corpus/*.tsv`, in file order.
pub fn load_cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.splitn(3, '\t');
            let (Some(verdict), Some(rule), Some(command)) =
                (parts.next(), parts.next(), parts.next())
            else {
                panic!(
                    "{name}:{}: expected VERDICT<TAB>RULE<TAB>COMMAND, got {line:?}",
                    i + 1
                );
            };
            let verdict = Verdict::parse(verdict)
                .unwrap_or_else(|| panic!("{name}:{}: unknown verdict {verdict:?}", i + 1));
            cases.push(Case {
                file: name.clone(),
                line: i + 1,
                verdict,
                rule: (rule != "-").then(|| rule.to_string()),
                command: unescape(command),
            });
        }
    }
    cases
}

/// The home folder every case runs with. Cases name it (`rm -rf ~`,
/// `/home/u/.bashrc`); nothing a test needs is read from it.
pub const HOME: &str = "/home/u";

/// The fixed working folder of the cases listed in
/// `tests/data/fixed-folder.tsv`, whose meaning is its place
/// (`rm -rf ..` is the home folder's removal only from here).
pub const FIXED_CWD: &str = "/home/u/proj";

/// A fresh folder under the system temp folder, removed with everything in
/// it when dropped. Its name is unique to the process and the call, so
/// tests running at once never share one.
pub struct Scratch {
    root: PathBuf,
}

impl Scratch {
    /// Creates `<temp>/portcullis-<name>-<pid>-<n>/` and its `proj/`.
    /// Fails the test when a folder above it holds a `.git` or a policy
    /// file: the law would read it, and the cases would not run in an
    /// empty place (set `TMPDIR` to a plain folder).
    pub fn new(name: &str) -> Scratch {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let temp = std::env::temp_dir();
        let temp = temp.canonicalize().unwrap_or(temp);
        let root = temp.join(format!("portcullis-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("proj"))
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", root.display()));
        let scratch = Scratch { root };
        if let Some(anchor) = scratch
            .root
            .ancestors()
            .skip(1)
            .find(|dir| portcullis::law::resolve::is_anchor(dir))
        {
            panic!(
                "{} holds a .git or a policy file, which the law would read for every case \
                 run below it; set TMPDIR to a plain folder",
                anchor.display()
            );
        }
        scratch
    }

    /// The folder itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The empty working folder `proj/` inside it.
    pub fn cwd(&self) -> PathBuf {
        self.root.join("proj")
    }

    /// Working folder [`Scratch::cwd`], home [`HOME`].
    pub fn location(&self) -> Location {
        Location {
            cwd: Some(self.cwd()),
            home: Some(HOME.into()),
        }
    }

    /// Writes `text` to `relative` (under the root), making its folders.
    pub fn write(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.root.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .unwrap_or_else(|e| panic!("cannot create {}: {e}", parent.display()));
        }
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// The fixed place of the listed cases: working folder [`FIXED_CWD`],
/// home [`HOME`].
pub fn fixed_location() -> Location {
    Location {
        cwd: Some(FIXED_CWD.into()),
        home: Some(HOME.into()),
    }
}

/// One entry of a list of `tests/data/`: a corpus command, and why it is
/// there.
pub struct Listed {
    pub line: usize,
    pub reason: String,
    pub command: String,
}

/// Every entry of `tests/data/NAME` (`REASON<TAB>COMMAND`, the command
/// escaped as in the corpus).
pub fn listed(name: &str) -> Vec<Listed> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let (reason, command) = l
                .split_once('\t')
                .unwrap_or_else(|| panic!("{name}:{}: expected REASON<TAB>COMMAND", i + 1));
            assert!(!reason.trim().is_empty(), "{name}:{}: no reason", i + 1);
            Listed {
                line: i + 1,
                reason: reason.to_string(),
                command: unescape(command),
            }
        })
        .collect()
}

/// Where each corpus case runs.
///
/// - `fixed` (`tests/data/fixed-folder.tsv`): at [`FIXED_CWD`], whose place
///   is the case's meaning;
/// - `moved` (`tests/data/moved-folder.tsv`): cases that name a file in
///   [`FIXED_CWD`] by its full path and whose label says it is absent: in
///   the empty temporary working folder, the path moved there;
/// - every other case: in the empty temporary working folder, as written.
pub struct Places {
    pub fixed: Vec<Listed>,
    pub moved: Vec<Listed>,
}

impl Places {
    /// Both lists.
    pub fn load() -> Places {
        Places {
            fixed: listed("fixed-folder.tsv"),
            moved: listed("moved-folder.tsv"),
        }
    }

    /// Whether `command` runs at [`FIXED_CWD`].
    pub fn is_fixed(&self, command: &str) -> bool {
        self.fixed.iter().any(|f| f.command == command)
    }

    /// Whether `command` is moved into the temporary working folder.
    pub fn is_moved(&self, command: &str) -> bool {
        self.moved.iter().any(|f| f.command == command)
    }

    /// The command as it runs and its place, for a case judged in
    /// `scratch`.
    pub fn of(&self, case: &Case, scratch: &Scratch) -> (String, Location) {
        if self.is_fixed(&case.command) {
            (case.command.clone(), fixed_location())
        } else if self.is_moved(&case.command) {
            (moved(&case.command, &scratch.cwd()), scratch.location())
        } else {
            (case.command.clone(), scratch.location())
        }
    }
}

/// `command` with [`FIXED_CWD`] replaced by `cwd`.
pub fn moved(command: &str, cwd: &Path) -> String {
    command.replace(FIXED_CWD, &cwd.to_string_lossy())
}

/// Hostile content for a file named `name`: what runs it deletes the home
/// folder, in the file's own language.
pub fn hostile_text(name: &str) -> &'static str {
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    match ext {
        "py" => "import os, shutil\nos.system('rm -rf ~')\nshutil.rmtree('/')\n",
        "js" | "mjs" | "cjs" | "ts" | "tsx" => {
            "require('child_process').execSync('rm -rf ~');\nrequire('fs').rmSync('/', { recursive: true });\n"
        }
        "rb" => "system('rm -rf ~')\n",
        "pl" => "system('rm -rf ~');\n",
        "php" => "<?php system('rm -rf ~');\n",
        "lua" => "os.execute('rm -rf ~')\n",
        "json" => {
            "{\"scripts\": {\"test\": \"rm -rf ~\", \"build\": \"rm -rf ~\", \"start\": \"rm -rf ~\", \"lint\": \"rm -rf ~\"}}\n"
        }
        "toml" => "[tool.x]\ncmd = 'rm -rf ~'\n",
        _ => "#!/bin/sh\nrm -rf ~\nrm -rf /\n",
    }
}

/// Names every hostile working folder holds, beside the scripts the
/// corpus names: modules Python imports before the standard library,
/// build files, package scripts, shell setup files.
pub const HOSTILE_NAMES: &[&str] = &[
    "json.py",
    "types.py",
    "os.py",
    "sys.py",
    "re.py",
    "shutil.py",
    "subprocess.py",
    "pathlib.py",
    "mypkg.py",
    "mypkg/__init__.py",
    "conftest.py",
    "setup.py",
    "sitecustomize.py",
    "usercustomize.py",
    "Makefile",
    "makefile",
    "GNUmakefile",
    "justfile",
    "package.json",
    "pyproject.toml",
    "Cargo.toml",
    "build.rs",
    ".envrc",
    "env.sh",
    "run.sh",
    "configure",
    "gradlew",
    "mvnw",
    ".venv/bin/activate",
    "venv/bin/activate",
    "bin/tool",
    "node_modules/.bin/jest",
    "node_modules/.bin/tsc",
    "index.js",
    "main.py",
    "app.py",
    "manage.py",
];

/// Fills `folder` with hostile files: every name in [`HOSTILE_NAMES`] and
/// every relative script name a corpus command mentions (`fix.py`,
/// `./run.sh`, `scripts/x.js`), each executable. Returns how many.
pub fn fill_hostile(folder: &Path, cases: &[Case]) -> usize {
    let mut names: BTreeSet<String> = HOSTILE_NAMES.iter().map(|n| n.to_string()).collect();
    for case in cases {
        for word in case.command.split(|c: char| {
            c.is_whitespace()
                || matches!(
                    c,
                    '\'' | '"' | ';' | '&' | '|' | '(' | ')' | '`' | '<' | '>' | '='
                )
        }) {
            let word = word.strip_prefix("./").unwrap_or(word);
            let scriptish = [
                ".py", ".sh", ".bash", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php", ".lua",
            ]
            .iter()
            .any(|e| word.ends_with(e) && word.len() > e.len());
            let plain = word
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/'));
            if scriptish && plain && !word.starts_with('/') && !word.split('/').any(|p| p == "..") {
                names.insert(word.to_string());
            }
        }
    }
    let mut written = 0;
    for name in &names {
        let path = folder.join(name);
        if let Some(parent) = path.parent()
            && std::fs::create_dir_all(parent).is_err()
        {
            continue;
        }
        if path.is_dir() || std::fs::write(&path, hostile_text(name)).is_err() {
            continue;
        }
        let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755));
        written += 1;
    }
    written
}

/// `portcullis check --json --cwd DIR -- COMMAND` run as a process (home
/// `/home/u`): (verdict, rule).
pub fn check_binary(cwd: &Path, command: &str) -> (String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_portcullis"))
        .env("HOME", "/home/u")
        .args(["check", "--json", "--cwd"])
        .arg(cwd)
        .args(["--", command])
        .output()
        .expect("run portcullis");
    let value: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("check --json prints one object");
    (
        value["verdict"].as_str().unwrap_or("").to_string(),
        value["rule"].as_str().unwrap_or("").to_string(),
    )
}

/// Runs `command` with `stdin` as its whole input; a child that exits
/// before reading it all (a size limit) is not a failure of the writer.
pub fn run_with_stdin(command: &mut std::process::Command, stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the command");
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin);
    }
    child.wait_with_output().expect("wait for the command")
}

/// `portcullis hook ARGS` (home [`HOME`]) with the JSON `body` on stdin.
pub fn hook(args: &[&str], body: &serde_json::Value) -> std::process::Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_portcullis"));
    command.arg("hook").args(args).env("HOME", HOME);
    run_with_stdin(&mut command, body.to_string().as_bytes())
}

/// Claude Code's permission decision for a Bash `command` run in `cwd`
/// with `permission_mode` `mode`, through the hook; `None` for no output.
pub fn claude_decision(cwd: &str, mode: &str, command: &str) -> Option<String> {
    let body = serde_json::json!({
        "session_id": "s",
        "cwd": cwd,
        "permission_mode": mode,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_1"
    });
    let out = hook(&[], &body);
    assert!(out.status.success(), "{command}: {:?}", out.status);
    if out.stdout.is_empty() {
        return None;
    }
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("hook JSON");
    value["hookSpecificOutput"]["permissionDecision"]
        .as_str()
        .map(str::to_string)
}

/// Folders to remove when the test process exits: for fixtures built once
/// per process (a `static`, which is never dropped).
pub fn remove_at_exit(path: &Path) {
    static FOLDERS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    static REGISTER: Once = Once::new();
    extern "C" fn remove_all() {
        if let Ok(folders) = FOLDERS.lock() {
            for folder in folders.iter() {
                let _ = std::fs::remove_dir_all(folder);
            }
        }
    }
    if let Ok(mut folders) = FOLDERS.lock() {
        folders.push(path.to_path_buf());
    }
    REGISTER.call_once(|| {
        // SAFETY: registers a plain function, run once at process exit.
        unsafe {
            libc::atexit(remove_all);
        }
    });
}

/// Where the shared corpora's commands come from.
pub struct Corpora {
    pub dir: PathBuf,
    /// The whole shared corpora (else the sample).
    pub full: bool,
}

impl Corpora {
    /// `full` when the whole corpora are read, else `sample`.
    pub fn pick<T>(&self, full: T, sample: T) -> T {
        if self.full { full } else { sample }
    }
}

/// The shared corpora: `$PORTCULLIS_SHARED/corpora`, else `shared/corpora`
/// one to three folders above the checkout, else the sample in
/// `tests/data/corpora-sample/`. `PORTCULLIS_SHARED` set to a folder
/// without `corpora/` fails the test; set empty, it picks the sample.
pub fn shared_corpora() -> Corpora {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sample = manifest.join("tests/data/corpora-sample");
    if let Some(shared) = std::env::var_os("PORTCULLIS_SHARED") {
        if shared.is_empty() {
            return Corpora {
                dir: sample,
                full: false,
            };
        }
        let dir = PathBuf::from(shared).join("corpora");
        assert!(
            dir.is_dir(),
            "PORTCULLIS_SHARED is set but {} is not a folder",
            dir.display()
        );
        return Corpora { dir, full: true };
    }
    let shared = ["..", "../..", "../../.."]
        .iter()
        .map(|up| manifest.join(up).join("shared/corpora"))
        .find(|dir| dir.is_dir());
    match shared {
        Some(dir) => Corpora { dir, full: true },
        None => {
            println!(
                "shared corpora not found (set PORTCULLIS_SHARED); using the sample in {}",
                sample.display()
            );
            Corpora {
                dir: sample,
                full: false,
            }
        }
    }
}

/// The name libtest knows a test by, for `--exact` when a test runs this
/// binary again: `module` is the caller's `module_path!()` (`suite::limits`),
/// whose crate part test names do not carry (`limits::measuring_helper`).
pub fn test_name(module: &str, test: &str) -> String {
    match module.split_once("::") {
        Some((_, path)) => format!("{path}::{test}"),
        None => test.to_string(),
    }
}
