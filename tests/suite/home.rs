//! The home folder as the built binary finds it: `$HOME`, else the password
//! database (`getpwuid_r`), which a static glibc answers too. Observed
//! through `portcullis doctor`, which names the user's Claude Code settings
//! file under the home folder.

use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pc-home-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// `portcullis doctor --host claude` in `cwd` with only `PATH` and, when
/// given, `HOME` set; its standard output.
fn doctor(cwd: &Path, home: Option<&str>) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_portcullis"));
    command
        .args(["doctor", "--host", "claude"])
        .current_dir(cwd)
        .env_clear()
        .env("PATH", "/usr/bin:/bin");
    if let Some(home) = home {
        command.env("HOME", home);
    }
    let out = command.output().expect("run portcullis doctor");
    assert!(
        out.status.code().is_some(),
        "doctor ended by a signal: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The home folder `/etc/passwd` gives this process's real user id, read
/// here without libc, so the binary's answer is checked against another
/// reading.
fn passwd_home() -> Option<String> {
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() }.to_string();
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        (fields.len() >= 7 && fields[2] == uid && fields[5].starts_with('/'))
            .then(|| fields[5].to_string())
    })
}

#[test]
fn home_comes_from_the_environment_first() {
    let cwd = scratch("env");
    let home = cwd.join("the-home");
    std::fs::create_dir_all(&home).expect("home folder");
    let out = doctor(&cwd, Some(&home.display().to_string()));
    assert!(
        out.contains(&format!("{}/.claude/settings.json", home.display())),
        "doctor should look in $HOME: {out}"
    );
    let _ = std::fs::remove_dir_all(&cwd);
}

#[test]
fn without_home_the_password_database_answers() {
    let cwd = scratch("passwd");
    for home in [None, Some("")] {
        let out = doctor(&cwd, home);
        match passwd_home() {
            Some(expected) => assert!(
                out.contains(&format!("{expected}/.claude/settings.json")),
                "HOME={home:?}: doctor should look in {expected}, the password database's home: {out}"
            ),
            // No entry for this user: no home folder is made up.
            None => assert!(
                !out.contains("/.claude/settings.json or"),
                "HOME={home:?}: no home folder is known, none may be named: {out}"
            ),
        }
    }
    let _ = std::fs::remove_dir_all(&cwd);
}
