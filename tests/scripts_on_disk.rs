//! Script files run by path are read from disk when they lie under the
//! request's folder and are at most 256 KiB: the real binary, a real
//! temporary project folder, real files.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh project folder under the system temp folder, removed on drop.
struct Project {
    root: PathBuf,
}

impl Project {
    fn new(name: &str) -> Project {
        let root =
            std::env::temp_dir().join(format!("portcullis-scripts-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("proj")).expect("create project folder");
        Project { root }
    }

    fn cwd(&self) -> PathBuf {
        self.root.join("proj")
    }

    fn write(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.root.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create folder");
        }
        std::fs::write(&path, text).expect("write script");
        path
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// `portcullis check --json --cwd DIR -- COMMAND`: (verdict, rule).
fn check(cwd: &Path, command: &str) -> (String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_portcullis"))
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

#[test]
fn python_and_node_scripts_are_read() {
    let p = Project::new("read");
    p.write("proj/show.py", "import json\nprint(json.dumps({'a': 1}))\n");
    p.write("proj/clean.py", "import shutil\nshutil.rmtree('/')\n");
    p.write("proj/tools/edit.py", "open('out.txt', 'w').write('x')\n");
    p.write(
        "proj/build.js",
        "const fs = require('fs');\nconsole.log(fs.readdirSync('.'));\n",
    );
    p.write(
        "proj/push.js",
        "require('child_process').execSync('git push --force');\n",
    );
    let cwd = p.cwd();
    assert_eq!(
        check(&cwd, "python3 show.py"),
        ("FREE".into(), "inline.python.pure".into())
    );
    assert_eq!(
        check(&cwd, "python3 clean.py"),
        ("BLOCKED".into(), "floor.rm.root".into())
    );
    assert_eq!(
        check(&cwd, "python tools/edit.py --flag"),
        ("SIGNED".into(), "inline.python.write".into())
    );
    assert_eq!(
        check(&cwd, "node build.js"),
        ("FREE".into(), "inline.js.pure".into())
    );
    assert_eq!(
        check(&cwd, "node push.js"),
        ("BLOCKED".into(), "floor.git.force-push".into())
    );
    // `cd` within the line moves where the script is looked for.
    assert_eq!(
        check(&cwd, "cd tools && python3 edit.py"),
        ("SIGNED".into(), "inline.python.write".into())
    );
}

#[test]
fn scripts_run_by_their_own_path_pick_a_lane() {
    let p = Project::new("shebang");
    p.write(
        "proj/fix",
        "#!/usr/bin/env python3\nimport os\nos.system('rm -rf ~')\n",
    );
    p.write("proj/run.sh", "#!/bin/sh\necho hi\ngit reset --hard\n");
    p.write("proj/list.py", "print(sorted([3, 1]))\n");
    p.write("proj/data.bin", "\u{1}\u{2}");
    let cwd = p.cwd();
    assert_eq!(
        check(&cwd, "./fix"),
        ("BLOCKED".into(), "floor.rm.home".into())
    );
    assert_eq!(
        check(&cwd, "./run.sh"),
        ("BLOCKED".into(), "floor.git.reset-hard".into())
    );
    assert_eq!(
        check(&cwd, "bash run.sh"),
        ("BLOCKED".into(), "floor.git.reset-hard".into())
    );
    assert_eq!(
        check(&cwd, "./list.py"),
        ("FREE".into(), "inline.python.pure".into())
    );
    // A file of no known kind stays a program nobody has read.
    assert_eq!(
        check(&cwd, "./data.bin"),
        ("SIGNED".into(), "verb.exec".into())
    );
}

#[test]
fn unreadable_scripts_are_signed() {
    let p = Project::new("unreadable");
    p.write("outside.py", "print(1)\n");
    p.write("proj/big.py", &"x = 1\n".repeat(50_000));
    let cwd = p.cwd();
    // Outside the request's folder, missing, too large, or a symlink out.
    for command in [
        "python3 ../outside.py",
        "python3 missing.py",
        "python3 big.py",
        "python3 $SCRIPT",
    ] {
        assert_eq!(
            check(&cwd, command),
            ("SIGNED".into(), "inline.unreadable-script".into()),
            "{command}"
        );
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(p.root.join("outside.py"), cwd.join("link.py"))
            .expect("symlink");
        assert_eq!(
            check(&cwd, "python3 link.py"),
            ("SIGNED".into(), "inline.unreadable-script".into())
        );
    }
}

#[test]
fn a_heredoc_written_in_the_line_wins_over_the_disk() {
    let p = Project::new("heredoc");
    p.write("proj/fix.py", "print('old')\n");
    let cwd = p.cwd();
    let line = "cat > fix.py <<'EOF'\nimport shutil\nshutil.rmtree('/usr')\nEOF\npython3 fix.py";
    assert_eq!(
        check(&cwd, line),
        ("BLOCKED".into(), "floor.rm.system".into())
    );
    // Appended to: only part of it is known.
    let line = "cat >> fix.py <<'EOF'\nprint(2)\nEOF\npython3 fix.py";
    assert_eq!(
        check(&cwd, line),
        ("SIGNED".into(), "write.redirect".into())
    );
}

#[test]
fn python_m_with_a_module_of_the_project_reads_it() {
    let p = Project::new("module");
    let cwd = p.cwd();
    // Python finds `mod.py` in the working folder before any installed
    // module: its code is judged.
    p.write("proj/evil.py", "import shutil\nshutil.rmtree('/usr')\n");
    assert_eq!(
        check(&cwd, "python3 -m evil"),
        ("BLOCKED".into(), "floor.rm.system".into())
    );
    p.write("proj/tidy.py", "print('tidy')\n");
    assert_eq!(
        check(&cwd, "python3 -m tidy"),
        ("FREE".into(), "inline.python.pure".into())
    );
    // A folder of the project shadows an installed module too (`pytest/`),
    // and its code is spread over files: SIGNED, unread.
    p.write("proj/pytest/__main__.py", "print('not pytest')\n");
    assert_eq!(
        check(&cwd, "python3 -m pytest"),
        ("SIGNED".into(), "inline.unreadable-script".into())
    );
    assert_eq!(
        check(&cwd, "python3 -m tidy.sub"),
        ("SIGNED".into(), "inline.unreadable-script".into())
    );
    // Modules not in the project keep their lexicon class.
    assert_eq!(
        check(&cwd, "python3 -m json.tool x.json"),
        ("FREE".into(), "lexicon.python3.json.tool".into())
    );
}
