//! Git control, whole (issue 15 item 2), and git's pathspecs and patches
//! (item 7), checked against the real git: each route is first judged by
//! portcullis (it must be BLOCKED), then run with the real git in a scratch
//! repository (a temporary folder, `HOME` a temporary folder,
//! `GIT_CONFIG_NOSYSTEM=1`) with a harmless hook that only touches a marker
//! file in that folder, and the test asserts that the hook runs: the route
//! is real. Where git is absent, the test says so on stderr, builds the
//! folders git would have made by hand, and still checks portcullis.

use portcullis::engine::{EditKind, evaluate_edit};
use portcullis::law::Laws;
use portcullis::{Decision, Location, Verdict, evaluate};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A scratch folder for one test: `root` (repositories), `home`.
struct Scratch {
    root: PathBuf,
    home: PathBuf,
    git: bool,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// Whether the real git can be run here.
fn git_present() -> bool {
    Command::new("git")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A fresh scratch folder named after the test.
fn scratch(name: &str) -> Scratch {
    let root =
        std::env::temp_dir().join(format!("portcullis-gitctl-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("home")).unwrap();
    let root = root.canonicalize().unwrap();
    let git = git_present();
    if !git {
        eprintln!(
            "{name}: git is not installed: the route is not run; the folders git would make are made by hand and portcullis is still checked"
        );
    }
    Scratch {
        home: root.join("home"),
        root,
        git,
    }
}

impl Scratch {
    /// Runs the real git in `cwd`, isolated from the machine's and the
    /// user's configuration; returns whether it succeeded.
    fn git(&self, cwd: &Path, args: &[&str]) -> bool {
        let out = Command::new("git")
            .args(args)
            .current_dir(cwd)
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE")
            .env_remove("GIT_COMMON_DIR")
            .env_remove("GIT_TEMPLATE_DIR")
            .env_remove("GIT_CONFIG_GLOBAL")
            .env_remove("GIT_CONFIG")
            .env_remove("GIT_CONFIG_PARAMETERS")
            .env_remove("GIT_CONFIG_COUNT")
            .stdin(Stdio::null())
            .output();
        match out {
            Ok(out) if out.status.success() => true,
            Ok(out) => {
                eprintln!(
                    "git {} (in {}): {}",
                    args.join(" "),
                    cwd.display(),
                    String::from_utf8_lossy(&out.stderr).trim()
                );
                false
            }
            Err(e) => {
                eprintln!("git {}: {e}", args.join(" "));
                false
            }
        }
    }

    /// The marker file a hook touches.
    fn marker(&self) -> PathBuf {
        self.root.join("marker")
    }

    /// A hook script that touches the marker (and does nothing else).
    fn hook_text(&self) -> String {
        format!("#!/bin/sh\ntouch '{}'\n", self.marker().display())
    }

    /// Writes an executable hook at `path`.
    fn hook(&self, path: &Path) {
        write(path, &self.hook_text());
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// A repository at `root/name` with one commit (by hand without git).
    fn repo(&self, name: &str) -> PathBuf {
        let dir = self.root.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        write(&dir.join("README.md"), "hello\n");
        if self.git {
            assert!(self.git(&dir, &["init", "-q", "-b", "main"]));
            assert!(self.git(&dir, &["add", "-A"]));
            assert!(self.git(&dir, &["commit", "-q", "-m", "init"]));
        } else {
            std::fs::create_dir_all(dir.join(".git/hooks")).unwrap();
            std::fs::create_dir_all(dir.join(".git/info")).unwrap();
            write(&dir.join(".git/config"), "[core]\n\tbare = false\n");
        }
        dir
    }

    /// Whether a commit in `repo` runs a hook that touches the marker.
    fn commit_runs_hook(&self, repo: &Path) -> bool {
        let _ = std::fs::remove_file(self.marker());
        self.git(repo, &["commit", "-q", "--allow-empty", "-m", "probe"]);
        self.marker().exists()
    }

    /// portcullis's decision on `command` run in `cwd`.
    fn judge(&self, cwd: &Path, command: &str) -> Decision {
        let location = Location {
            cwd: Some(cwd.to_path_buf()),
            home: Some(self.home.clone()),
        };
        evaluate(command, &location)
    }

    /// Asserts that portcullis blocks `command` in `cwd` as git control.
    fn blocked(&self, cwd: &Path, command: &str, rule: &str) {
        let decision = self.judge(cwd, command);
        assert_eq!(
            (decision.verdict(), decision.top.rule.to_string().as_str()),
            (Verdict::Blocked, rule),
            "{command} (in {}): {}",
            cwd.display(),
            decision.top.reason
        );
    }

    /// Asserts that portcullis blocks an edit tool's write of `path`.
    fn edit_blocked(&self, cwd: &Path, path: &Path) {
        let location = Location {
            cwd: Some(cwd.to_path_buf()),
            home: Some(self.home.clone()),
        };
        let mut laws = Laws::new(Some(cwd));
        let decision = evaluate_edit(
            EditKind::Write,
            &path.to_string_lossy(),
            &location,
            &mut laws,
        );
        assert_eq!(
            (decision.verdict(), decision.top.rule.to_string().as_str()),
            (Verdict::Blocked, "cage.git_control"),
            "@Write {}: {}",
            path.display(),
            decision.top.reason
        );
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Copies a folder (files and folders only).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A copy of `repo`'s git folder with a hook in it: a common folder an
/// attacker could point at.
fn evil_common(s: &Scratch, repo: &Path) -> PathBuf {
    let evil = s.root.join("evil-common");
    copy_tree(&repo.join(".git"), &evil);
    s.hook(&evil.join("hooks/pre-commit"));
    evil
}

const GIT_CONTROL: &str = "cage.git_control";

#[test]
fn commondir_of_the_repository() {
    let s = scratch("commondir");
    let repo = s.repo("r");
    s.blocked(&repo, "echo /tmp/evil > .git/commondir", GIT_CONTROL);
    s.edit_blocked(&repo, &repo.join(".git/commondir"));
    if s.git {
        assert!(!s.commit_runs_hook(&repo));
        let evil = evil_common(&s, &repo);
        write(
            &repo.join(".git/commondir"),
            &format!("{}\n", evil.display()),
        );
        assert!(s.commit_runs_hook(&repo), "a hook of the common folder ran");
    }
}

#[test]
fn linked_work_tree_gitdir_file_commondir_and_config_worktree() {
    let s = scratch("worktree");
    let repo = s.repo("r");
    let wt = s.root.join("wt");
    if s.git {
        assert!(s.git(&repo, &["worktree", "add", "-q", "-b", "feature", "../wt"]));
    } else {
        write(
            &wt.join(".git"),
            &format!("gitdir: {}/.git/worktrees/wt\n", repo.display()),
        );
        write(&repo.join(".git/worktrees/wt/commondir"), "../..\n");
    }
    let admin = repo.join(".git/worktrees/wt");
    s.blocked(&wt, "echo 'gitdir: /tmp/evil' > .git", GIT_CONTROL);
    s.edit_blocked(&wt, &wt.join(".git"));
    s.blocked(
        &wt,
        &format!("echo /tmp/evil > {}/commondir", admin.display()),
        GIT_CONTROL,
    );
    s.blocked(
        &wt,
        &format!("echo '[core]' > {}/config.worktree", admin.display()),
        GIT_CONTROL,
    );
    s.blocked(
        &repo,
        "echo /tmp/evil > .git/worktrees/wt/commondir",
        GIT_CONTROL,
    );
    s.edit_blocked(&wt, &admin.join("config.worktree"));
    s.edit_blocked(&wt, &repo.join(".git/hooks/pre-commit"));
    // The near miss: a work tree beside the repository.
    let near = s.judge(&repo, "git worktree add ../wt2 feature2");
    assert_eq!(near.verdict(), Verdict::Signed, "{}", near.top.reason);
    if !s.git {
        return;
    }
    assert!(!s.commit_runs_hook(&wt));
    // config.worktree (with the extension the person enabled) sets the hooks.
    assert!(s.git(&repo, &["config", "extensions.worktreeConfig", "true"]));
    let hooks = s.root.join("evil-hooks");
    s.hook(&hooks.join("pre-commit"));
    write(
        &admin.join("config.worktree"),
        &format!("[core]\n\thooksPath = {}\n", hooks.display()),
    );
    assert!(s.commit_runs_hook(&wt), "config.worktree chose the hooks");
    std::fs::remove_file(admin.join("config.worktree")).unwrap();
    assert!(!s.commit_runs_hook(&wt));
    // The work tree's commondir names the folder its hooks come from.
    let evil = evil_common(&s, &repo);
    let saved = std::fs::read_to_string(admin.join("commondir")).unwrap();
    write(&admin.join("commondir"), &format!("{}\n", evil.display()));
    assert!(
        s.commit_runs_hook(&wt),
        "the work tree's commondir chose the hooks"
    );
    write(&admin.join("commondir"), &saved);
    // The .git file of the work tree names its whole git folder.
    let other = s.repo("other");
    s.hook(&other.join(".git/hooks/pre-commit"));
    write(
        &wt.join(".git"),
        &format!("gitdir: {}/.git\n", other.display()),
    );
    assert!(
        s.commit_runs_hook(&wt),
        "the .git file chose the repository"
    );
}

#[test]
fn info_exclude_is_read_by_git() {
    let s = scratch("info");
    let repo = s.repo("r");
    s.blocked(&repo, "echo secret.txt >> .git/info/exclude", GIT_CONTROL);
    s.edit_blocked(&repo, &repo.join(".git/info/exclude"));
    let near = s.judge(&repo, "cat .git/info/exclude");
    assert_eq!(near.verdict(), Verdict::Free);
    if s.git {
        write(&repo.join("secret.txt"), "x\n");
        assert!(!s.git(&repo, &["check-ignore", "-q", "secret.txt"]));
        write(&repo.join(".git/info/exclude"), "secret.txt\n");
        assert!(
            s.git(&repo, &["check-ignore", "-q", "secret.txt"]),
            "git reads info/exclude"
        );
    }
}

#[test]
fn submodule_git_folder_and_gitdir_file() {
    let s = scratch("submodule");
    let lib = s.repo("lib");
    let repo = s.repo("r");
    let sub = repo.join("sub");
    if s.git {
        assert!(s.git(
            &repo,
            &[
                "-c",
                "protocol.file.allow=always",
                "submodule",
                "add",
                "-q",
                &lib.to_string_lossy(),
                "sub"
            ]
        ));
        assert!(s.git(&repo, &["commit", "-q", "-m", "sub"]));
    } else {
        write(&sub.join(".git"), "gitdir: ../.git/modules/sub\n");
        write(&repo.join(".git/modules/sub/config"), "[core]\n");
        std::fs::create_dir_all(repo.join(".git/modules/sub/hooks")).unwrap();
    }
    s.blocked(
        &repo,
        "echo x > .git/modules/sub/hooks/pre-commit",
        GIT_CONTROL,
    );
    s.blocked(
        &repo,
        "echo '[core]' >> .git/modules/sub/config",
        GIT_CONTROL,
    );
    s.blocked(&repo, "echo x > .git/modules/sub/info/exclude", GIT_CONTROL);
    s.blocked(
        &sub,
        "echo x > ../.git/modules/sub/hooks/pre-commit",
        GIT_CONTROL,
    );
    s.blocked(&sub, "echo 'gitdir: /tmp/evil' > .git", GIT_CONTROL);
    s.blocked(&repo, "echo 'gitdir: /tmp/evil' > sub/.git", GIT_CONTROL);
    s.edit_blocked(&repo, &repo.join(".git/modules/sub/hooks/pre-commit"));
    s.edit_blocked(&sub, &sub.join(".git"));
    if !s.git {
        return;
    }
    assert!(!s.commit_runs_hook(&sub));
    s.hook(&repo.join(".git/modules/sub/hooks/pre-commit"));
    assert!(s.commit_runs_hook(&sub), "the submodule's own hooks ran");
    std::fs::remove_file(repo.join(".git/modules/sub/hooks/pre-commit")).unwrap();
    let other = s.repo("other");
    s.hook(&other.join(".git/hooks/pre-commit"));
    write(
        &sub.join(".git"),
        &format!("gitdir: {}/.git\n", other.display()),
    );
    assert!(
        s.commit_runs_hook(&sub),
        "the submodule's .git file chose the repository"
    );
}

#[test]
fn init_and_clone_with_a_template() {
    let s = scratch("template");
    let repo = s.repo("r");
    let template = s.root.join("tpl");
    s.hook(&template.join("hooks/pre-commit"));
    let t = template.display().to_string();
    s.blocked(&repo, &format!("git init --template={t} ../n"), GIT_CONTROL);
    s.blocked(&repo, &format!("git init --template {t} ../n"), GIT_CONTROL);
    s.blocked(
        &repo,
        &format!("git clone --template={t} . ../c"),
        GIT_CONTROL,
    );
    let hooks = s.root.join("hooks");
    s.hook(&hooks.join("pre-commit"));
    let h = hooks.display().to_string();
    s.blocked(
        &repo,
        &format!("git clone -c core.hooksPath={h} . ../c2"),
        GIT_CONTROL,
    );
    let near = s.judge(&repo, "git init ../plain");
    assert_eq!(near.verdict(), Verdict::Signed, "{}", near.top.reason);
    if !s.git {
        return;
    }
    let n = s.root.join("n");
    assert!(s.git(&s.root, &["init", "-q", &format!("--template={t}"), "n"]));
    assert!(
        s.commit_runs_hook(&n),
        "git init --template installed the hook"
    );
    assert!(s.git(
        &s.root,
        &["clone", "-q", &format!("--template={t}"), "r", "c"]
    ));
    assert!(
        s.commit_runs_hook(&s.root.join("c")),
        "git clone --template installed the hook"
    );
    assert!(s.git(
        &s.root,
        &[
            "clone",
            "-q",
            "-c",
            &format!("core.hooksPath={h}"),
            "r",
            "c2"
        ]
    ));
    assert!(
        s.commit_runs_hook(&s.root.join("c2")),
        "git clone -c core.hooksPath chose the hooks"
    );
    // --separate-git-dir makes `.git` a file pointing at a folder the
    // agent chose; its hooks then run.
    let moved = s.root.join("moved");
    s.blocked(
        &repo,
        &format!("git init --separate-git-dir={}", moved.display()),
        GIT_CONTROL,
    );
    assert!(s.git(
        &repo,
        &[
            "init",
            "-q",
            &format!("--separate-git-dir={}", moved.display())
        ]
    ));
    assert!(repo.join(".git").is_file());
    s.hook(&moved.join("hooks/pre-commit"));
    assert!(
        s.commit_runs_hook(&repo),
        "the separate git folder's hooks ran"
    );
    assert!(s.git(&s.root, &["init", "-q", "plain"]));
    assert!(!s.commit_runs_hook(&s.root.join("plain")));
}

#[test]
fn checkout_index_and_read_tree_prefixes() {
    let s = scratch("prefix");
    let repo = s.repo("r");
    s.blocked(
        &repo,
        "git checkout-index --prefix=.git/hooks/ pre-commit",
        GIT_CONTROL,
    );
    s.blocked(&repo, "git checkout-index -a --prefix=.git/ho", GIT_CONTROL);
    s.blocked(
        &repo,
        "git read-tree --prefix=.git/hooks/ -u HEAD",
        GIT_CONTROL,
    );
    let near = s.judge(&repo, "git checkout-index -a --prefix=build/export/");
    assert_eq!(near.verdict(), Verdict::Signed, "{}", near.top.reason);
    if s.git {
        s.hook(&repo.join("pre-commit"));
        assert!(s.git(&repo, &["add", "pre-commit"]));
        assert!(s.git(&repo, &["commit", "-q", "-m", "tracked hook"]));
        assert!(!s.commit_runs_hook(&repo));
        assert!(s.git(
            &repo,
            &["checkout-index", "--prefix=.git/hooks/", "pre-commit"]
        ));
        assert!(
            s.commit_runs_hook(&repo),
            "checkout-index --prefix wrote the hook"
        );
        // read-tree refuses `.git` inside a path; its route is the hooks
        // folder core.hooksPath names.
        assert!(!s.git(
            &repo,
            &["read-tree", "--prefix=.git/hooks/x/", "-u", "HEAD"]
        ));
    }
    // core.hooksPath names a folder in the work tree: read-tree and
    // worktree add write there.
    let hooked = s.repo("hooked");
    if s.git {
        assert!(s.git(&hooked, &["config", "core.hooksPath", ".githooks"]));
    } else {
        write(
            &hooked.join(".git/config"),
            "[core]\n\thooksPath = .githooks\n",
        );
    }
    s.blocked(
        &hooked,
        "git read-tree --prefix=.githooks/ -u HEAD:t",
        GIT_CONTROL,
    );
    s.blocked(&hooked, "git worktree add .githooks evil", GIT_CONTROL);
    let near = s.judge(&hooked, "git read-tree --prefix=vendor/lib/ -u HEAD:t");
    assert_eq!(near.verdict(), Verdict::Signed, "{}", near.top.reason);
    if !s.git {
        return;
    }
    s.hook(&hooked.join("t/pre-commit"));
    assert!(s.git(&hooked, &["add", "t"]));
    assert!(s.git(&hooked, &["commit", "-q", "-m", "t"]));
    assert!(!s.commit_runs_hook(&hooked));
    assert!(s.git(
        &hooked,
        &["read-tree", "--prefix=.githooks/", "-u", "HEAD:t"]
    ));
    assert!(
        s.commit_runs_hook(&hooked),
        "read-tree --prefix wrote the hooks folder"
    );
    // The probe commit took the staged hook along: go back before it.
    assert!(s.git(&hooked, &["reset", "-q", "--hard", "HEAD~1"]));
    let _ = std::fs::remove_dir_all(hooked.join(".githooks"));
    assert!(!s.commit_runs_hook(&hooked));
    // A branch whose root holds the hook, checked out into the hooks folder.
    assert!(s.git(&hooked, &["checkout", "-q", "--orphan", "evil"]));
    assert!(s.git(&hooked, &["rm", "-q", "-rf", "--cached", "."]));
    let tmp = s.root.join("t-pre-commit");
    s.hook(&tmp);
    std::fs::copy(&tmp, hooked.join("pre-commit")).unwrap();
    assert!(s.git(&hooked, &["add", "pre-commit"]));
    assert!(s.git(&hooked, &["commit", "-q", "--no-verify", "-m", "evil"]));
    assert!(s.git(&hooked, &["checkout", "-q", "-f", "main"]));
    let _ = std::fs::remove_file(hooked.join("pre-commit"));
    assert!(s.git(&hooked, &["worktree", "add", "-q", ".githooks", "evil"]));
    assert!(
        s.commit_runs_hook(&hooked),
        "worktree add wrote the hooks folder"
    );
}

#[test]
fn config_file_option_and_includes() {
    let s = scratch("config");
    let repo = s.repo("r");
    let hooks = s.root.join("hooks");
    s.hook(&hooks.join("pre-commit"));
    let h = hooks.display().to_string();
    s.blocked(
        &repo,
        &format!("git config --file .git/config core.hooksPath {h}"),
        GIT_CONTROL,
    );
    s.blocked(
        &repo,
        "git config -f .git/config core.fsmonitor x",
        GIT_CONTROL,
    );
    s.blocked(
        &repo,
        "git config --file=.git/config alias.x y",
        GIT_CONTROL,
    );
    s.blocked(&repo, "git config include.path ../evil.cfg", GIT_CONTROL);
    for (command, verdict) in [
        ("git config --get user.name", Verdict::Free),
        ("git config -f .git/config --get user.name", Verdict::Free),
        ("cat .git/config", Verdict::Free),
        ("git config user.email me@example.com", Verdict::Signed),
        ("git config -f tools.ini a.b c", Verdict::Signed),
    ] {
        let d = s.judge(&repo, command);
        assert_eq!(d.verdict(), verdict, "{command}: {}", d.top.reason);
    }
    if !s.git {
        return;
    }
    assert!(!s.commit_runs_hook(&repo));
    assert!(s.git(
        &repo,
        &["config", "--file", ".git/config", "core.hooksPath", &h]
    ));
    assert!(
        s.commit_runs_hook(&repo),
        "config --file .git/config chose the hooks"
    );
    assert!(s.git(&repo, &["config", "--unset", "core.hooksPath"]));
    assert!(!s.commit_runs_hook(&repo));
    write(
        &s.root.join("evil.cfg"),
        &format!("[core]\n\thooksPath = {h}\n"),
    );
    assert!(s.git(&repo, &["config", "include.path", "../../evil.cfg"]));
    assert!(
        s.commit_runs_hook(&repo),
        "include.path made git read another config"
    );
}

/// `core.hooksPath` set in a file git includes (whatever the include's
/// condition) or in `config.worktree`: the folder it names is git control,
/// and so is the included file; the real git runs a hook from each.
#[test]
fn hooks_path_from_includes_and_config_worktree() {
    let s = scratch("hookspath-includes");
    let repo = s.repo("r");
    let included = s.root.join("inc-hooks");
    let worktree = s.root.join("wt-hooks");
    s.hook(&included.join("pre-commit"));
    s.hook(&worktree.join("pre-commit"));
    write(
        &s.root.join("extra.cfg"),
        &format!("[core]\n\thooksPath = {}\n", included.display()),
    );
    let config = std::fs::read_to_string(repo.join(".git/config")).unwrap();
    write(
        &repo.join(".git/config"),
        &format!(
            "{config}[includeIf \"gitdir:{}/\"]\n\tpath = ../../extra.cfg\n",
            repo.display()
        ),
    );
    for command in [
        "echo x > ../inc-hooks/pre-commit".to_string(),
        "echo x > ../extra.cfg".to_string(),
        format!("cp /tmp/x {}/", included.display()),
    ] {
        s.blocked(&repo, &command, GIT_CONTROL);
    }
    let near = s.judge(&repo, "echo x > ../other-hooks/pre-commit");
    assert_eq!(near.verdict(), Verdict::Signed, "{}", near.top.reason);
    if s.git {
        assert!(s.commit_runs_hook(&repo), "the included hooksPath is git's");
    }
    // config.worktree, read by git under extensions.worktreeConfig.
    write(&repo.join(".git/config"), &config);
    write(
        &repo.join(".git/config.worktree"),
        &format!("[core]\n\thooksPath = {}\n", worktree.display()),
    );
    s.blocked(&repo, "echo x > ../wt-hooks/pre-commit", GIT_CONTROL);
    if s.git {
        assert!(s.git(&repo, &["config", "extensions.worktreeConfig", "true"]));
        assert!(
            s.commit_runs_hook(&repo),
            "config.worktree's hooksPath is git's"
        );
    }
}

#[test]
fn pathspec_magic_and_patches_with_the_real_git() {
    let s = scratch("pathspec");
    let repo = s.repo("r");
    write(&repo.join(".github/workflows/ci.yml"), "on: push\n");
    std::fs::create_dir_all(repo.join("src")).unwrap();
    write(&repo.join("src/main.rs"), "fn main() {}\n");
    write(
        &repo.join("quoted.patch"),
        "diff --git \"a/.e\\156v\" \"b/.e\\156v\"\nnew file mode 100644\nindex 0000000..e69de29\n",
    );
    let ci = "git checkout evil -- ':(icase).GITHUB/WORKFLOWS/ci.yml'";
    s.blocked(&repo, ci, "cage.ci_config");
    s.blocked(
        &repo.join("src"),
        "git checkout evil -- ':!x'",
        "cage.ci_config",
    );
    s.blocked(
        &repo.join("src"),
        "git checkout evil -- ':/.github/workflows/ci.yml'",
        "cage.ci_config",
    );
    s.blocked(&repo, "git apply quoted.patch", "cage.secrets");
    let near = s.judge(&repo, "git checkout evil -- ':(literal)src/main.rs'");
    assert_eq!(near.verdict(), Verdict::Signed, "{}", near.top.reason);
    if !s.git {
        return;
    }
    assert!(s.git(&repo, &["add", "-A", ".github", "src"]));
    assert!(s.git(&repo, &["commit", "-q", "-m", "ci"]));
    assert!(s.git(&repo, &["checkout", "-q", "-b", "evil"]));
    write(&repo.join(".github/workflows/ci.yml"), "EVIL\n");
    assert!(s.git(&repo, &["commit", "-q", "-am", "evil"]));
    assert!(s.git(&repo, &["checkout", "-q", "main"]));
    let ci_yml = || std::fs::read_to_string(repo.join(".github/workflows/ci.yml")).unwrap();
    assert!(s.git(
        &repo,
        &["checkout", "evil", "--", ":(icase).GITHUB/WORKFLOWS/ci.yml"]
    ));
    assert_eq!(ci_yml(), "EVIL\n", "icase magic rewrote ci.yml");
    assert!(s.git(&repo, &["checkout", "-q", "main", "--", "."]));
    assert!(s.git(&repo.join("src"), &["checkout", "evil", "--", ":!x"]));
    assert_eq!(
        ci_yml(),
        "EVIL\n",
        "an exclusion alone restores the whole tree"
    );
    assert!(s.git(&repo, &["checkout", "-q", "main", "--", "."]));
    assert!(s.git(
        &repo.join("src"),
        &["checkout", "evil", "--", ":/.github/workflows/ci.yml"]
    ));
    assert_eq!(ci_yml(), "EVIL\n", ":/ names the path from the root");
    assert!(s.git(&repo, &["apply", "quoted.patch"]));
    assert!(
        repo.join(".env").exists(),
        "a header-only, C-quoted diff creates .env"
    );
}
