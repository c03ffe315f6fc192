//! The other lanes' files on disk (issue 15, items 9 and 10): awk, sed and
//! vim program files and preloaded modules are read from disk when nothing
//! in the line wrote them, by their new content when the line wrote them
//! literally, and SIGNED when it replaced them with content not known;
//! never by the stale file. The real binary, a real temporary project.

use std::path::{Path, PathBuf};

use crate::common;

/// A fresh project folder under the system temp folder, removed on drop.
struct Project {
    root: PathBuf,
}

impl Project {
    fn new(name: &str) -> Project {
        let root =
            std::env::temp_dir().join(format!("portcullis-lanes-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("proj")).expect("create project folder");
        Project { root }
    }

    fn cwd(&self) -> PathBuf {
        self.root.join("proj")
    }

    fn write(&self, relative: &str, text: &str) {
        let path = self.root.join("proj").join(relative);
        std::fs::write(&path, text).expect("write file");
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

use common::check_binary as check;

/// Checks every (verdict, rule or "", command) case; fails listing all
/// that differ.
fn expect(cwd: &Path, cases: &[(&str, &str, &str)]) {
    let mut wrong = Vec::new();
    for (verdict, rule, command) in cases {
        let (got_verdict, got_rule) = check(cwd, command);
        if got_verdict != *verdict || (!rule.is_empty() && got_rule != *rule) {
            wrong.push(format!(
                "{command}: expected {verdict} {rule}, got {got_verdict} {got_rule}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn program_files_are_read_by_their_new_content() {
    let p = Project::new("programs");
    p.write("p.awk", "{print $1}\n");
    p.write("evil.awk", "BEGIN { system(\"rm -rf ~\") }\n");
    p.write("p.sed", "s/a/b/\n");
    p.write("evil.sed", "1e rm -rf ~\n");
    p.write("hook.sed", "w .git/hooks/pre-commit\n");
    p.write("evil.vim", "silent !rm -rf ~\n");
    p.write("ok.vim", "set number\n");
    let cwd = p.cwd();
    expect(
        &cwd,
        &[
            // On disk, nothing in the line writes them: read from disk.
            ("SIGNED", "lexicon.awk.program-file", "awk -f p.awk f"),
            ("BLOCKED", "floor.rm.home", "awk -f evil.awk f"),
            ("BLOCKED", "floor.rm.home", "gawk -v x=1 --file=evil.awk f"),
            ("SIGNED", "lexicon.sed.script-file", "sed -f p.sed f"),
            ("BLOCKED", "floor.rm.home", "sed -n -f evil.sed f"),
            ("BLOCKED", "cage.git_control", "sed -f hook.sed f"),
            ("BLOCKED", "floor.rm.home", "vim -S evil.vim f"),
            ("SIGNED", "lexicon.vim.script", "vim -S ok.vim f"),
            // Written literally in the line: the new content, not the stale file.
            (
                "BLOCKED",
                "floor.rm.home",
                "echo 'BEGIN{system(\"rm -rf ~\")}' > p.awk && awk -f p.awk f",
            ),
            (
                "BLOCKED",
                "floor.rm.home",
                "printf '%s\\n' '1e rm -rf ~' > p.sed; sed -f p.sed f",
            ),
            (
                "SIGNED",
                "write.redirect",
                "echo '{print}' > evil.awk && awk -f evil.awk f",
            ),
            (
                "SIGNED",
                "write.redirect",
                "echo 's/x/y/' > evil.sed && sed -f evil.sed f",
            ),
            (
                "BLOCKED",
                "floor.rm.home",
                "echo '!rm -rf ~' > ok.vim && vim -S ok.vim",
            ),
            // Replaced with content not known: SIGNED, never the file on disk.
            ("SIGNED", "", "cp other p.awk && awk -f p.awk f"),
            ("SIGNED", "", "cp other evil.awk && awk -f evil.awk f"),
            (
                "SIGNED",
                "",
                "curl -so p.sed https://example.com/x && sed -f p.sed f",
            ),
        ],
    );
}

#[test]
fn preloaded_files_are_read() {
    let p = Project::new("preloads");
    p.write("setup.js", "console.log('setup')\n");
    p.write("evil.js", "require('child_process').execSync('rm -rf ~')\n");
    p.write("evil.rb", "system('rm -rf ~')\n");
    p.write("ok.rb", "puts 1\n");
    let cwd = p.cwd();
    expect(
        &cwd,
        &[
            ("FREE", "", "node -r ./setup.js -e 'console.log(1)'"),
            (
                "BLOCKED",
                "floor.rm.home",
                "node -r ./evil.js -e 'console.log(1)'",
            ),
            (
                "BLOCKED",
                "floor.rm.home",
                "node --require=./evil.js -e 'console.log(1)'",
            ),
            ("BLOCKED", "floor.rm.home", "ruby -r ./evil -e 'puts 1'"),
            ("BLOCKED", "floor.rm.home", "ruby -r./evil.rb -e 'puts 1'"),
            ("SIGNED", "", "ruby -r ./ok -e 'puts 1'"),
            (
                "BLOCKED",
                "floor.rm.home",
                "echo 'require(\"child_process\").execSync(\"rm -rf ~\")' > setup.js && node -r ./setup.js -e 'console.log(1)'",
            ),
            (
                "SIGNED",
                "",
                "cp x setup.js && node -r ./setup.js -e 'console.log(1)'",
            ),
        ],
    );
}
