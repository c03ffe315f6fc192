//! Settings that make an ordinary program run other code: environment
//! variables (`PAGER='sh -c …' git log`, `LD_PRELOAD=…`, `PATH=/tmp:$PATH`)
//! and git configuration given on the command line (`git -c core.pager=…`,
//! `git -c alias.x='!…'`). Takes a name and a value; returns why the
//! setting is dangerous, or `None` when it is harmless.

/// Variables that always load other code.
#[rustfmt::skip]
const ALWAYS: &[&str] = &[
    "BASH_ENV", "DYLD_INSERT_LIBRARIES", "ENV", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS",
    "LD_AUDIT", "LD_PRELOAD", "PROMPT_COMMAND",
];

/// Variables whose value is a command to run.
#[rustfmt::skip]
const COMMANDS: &[&str] = &[
    "BROWSER", "EDITOR", "GIT_ASKPASS", "GIT_EDITOR", "GIT_EXTERNAL_DIFF", "GIT_PAGER",
    "GIT_SEQUENCE_EDITOR", "GIT_SSH", "GIT_SSH_COMMAND", "LESSCLOSE", "LESSOPEN", "MANPAGER",
    "PAGER", "SSH_ASKPASS", "SUDO_ASKPASS", "SUDO_EDITOR", "SYSTEMD_PAGER", "VISUAL",
];

/// Variables that choose where programs and modules are loaded from.
#[rustfmt::skip]
const SEARCH_PATHS: &[&str] = &[
    "CLASSPATH", "LD_LIBRARY_PATH", "NODE_PATH", "PATH", "PERL5LIB", "PYTHONPATH", "RUBYLIB",
];

/// Programs that are harmless as a pager or an editor.
#[rustfmt::skip]
const HARMLESS_COMMANDS: &[&str] = &[
    "", ":", "bat", "cat", "delta", "emacs", "false", "less", "more", "most", "nano", "nvim",
    "true", "vi", "vim",
];

/// Git configuration keys whose value is a command git runs.
#[rustfmt::skip]
const GIT_COMMAND_KEYS: &[&str] = &[
    "core.askpass", "core.editor", "core.fsmonitor", "core.gitproxy", "core.hookspath",
    "core.pager", "core.sshcommand", "credential.helper", "diff.external", "gpg.program",
    "gpg.ssh.program", "gpg.x509.program", "sequence.editor", "uploadpack.packobjectshook",
];

/// Why setting the environment variable `name` to `value` makes programs
/// run other code, if it does.
pub fn environment(name: &str, value: &str) -> Option<(&'static str, String)> {
    if value.trim_start().starts_with("() {") {
        return Some((
            "setting.exec",
            format!(
                "{name} holds a shell function definition, which old shells run on start (shellshock)"
            ),
        ));
    }
    if matches!(name, "HISTFILE" | "HISTSIZE" | "HISTFILESIZE" | "SAVEHIST")
        && matches!(value, "/dev/null" | "0" | "")
    {
        return Some((
            "setting.history",
            format!("{name}={value} stops shell history being kept"),
        ));
    }
    if ALWAYS.contains(&name)
        || name.starts_with("GIT_CONFIG_KEY_")
        || name.starts_with("BASH_FUNC_")
    {
        return Some((
            "setting.exec",
            format!("setting {name} makes programs load other code"),
        ));
    }
    if COMMANDS.contains(&name) && !harmless_command(value) {
        return Some((
            "setting.exec",
            format!("{name}={value} makes programs run that command"),
        ));
    }
    if SEARCH_PATHS.contains(&name) && !value.split(':').all(|entry| safe_search_entry(name, entry))
    {
        return Some((
            "setting.exec",
            format!("{name}={value} loads programs or modules from outside the project"),
        ));
    }
    if name == "NODE_OPTIONS"
        && ["require", "import", "loader"]
            .iter()
            .any(|k| value.contains(k))
    {
        return Some((
            "setting.exec",
            format!("NODE_OPTIONS={value} loads other code into node"),
        ));
    }
    None
}

/// Whether the environment variable `name` holds a command line that
/// programs run (`PAGER`, `GIT_SSH_COMMAND`, `EDITOR`).
pub fn holds_command(name: &str) -> bool {
    COMMANDS.contains(&name)
}

/// Why `git -c key=value` makes git run other code, if it does.
pub fn git_config(key: &str, value: &str) -> Option<(&'static str, String)> {
    let key = key.to_ascii_lowercase();
    let runs_command = GIT_COMMAND_KEYS.contains(&key.as_str())
        || key.starts_with("pager.")
        || key.starts_with("alias.") && value.starts_with('!')
        || key.starts_with("filter.")
        || key.starts_with("diff.") && (key.ends_with(".command") || key.ends_with(".textconv"))
        || key.starts_with("difftool.") && key.ends_with(".cmd")
        || key.starts_with("mergetool.") && key.ends_with(".cmd")
        || key.starts_with("merge.") && key.ends_with(".driver")
        || key.starts_with("credential.") && key.ends_with(".helper");
    let harmless = matches!(
        key.as_str(),
        "core.pager" | "core.editor" | "sequence.editor"
    ) && harmless_command(value)
        || key == "core.fsmonitor" && matches!(value, "false" | "")
        || key.starts_with("pager.")
            && (harmless_command(value) || matches!(value, "false" | "true"));
    (runs_command && !harmless).then(|| {
        (
            "setting.exec",
            format!("git -c {key}={value} makes git run a command"),
        )
    })
}

fn harmless_command(value: &str) -> bool {
    let first = value.split_whitespace().next().unwrap_or("");
    let program = first.rsplit('/').next().unwrap_or(first);
    HARMLESS_COMMANDS.contains(&program) && !value.contains(['|', ';', '&', '`', '$'])
}

/// A search-path entry that stays in the project, the user's own folders or
/// the system's, or refers to the variable's previous value.
fn safe_search_entry(name: &str, entry: &str) -> bool {
    let self_reference = entry == format!("${name}") || entry == format!("${{{name}}}");
    let relative_inside =
        !entry.starts_with('/') && !entry.starts_with('$') && !entry.split('/').any(|p| p == "..");
    let home = entry.starts_with('~') || entry.starts_with("$HOME") || entry.starts_with("${HOME}");
    // The working folder: the project.
    let here = matches!(entry, "$(pwd)" | "`pwd`" | "$PWD" | "${PWD}" | "\"$(pwd)\"");
    let system = [
        "/usr/",
        "/bin",
        "/sbin",
        "/opt/homebrew/",
        "/snap/bin",
        "/nix/",
    ]
    .iter()
    .any(|p| entry == p.trim_end_matches('/') || entry.starts_with(p));
    entry.is_empty() || self_reference || relative_inside || home || here || system
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_variables() {
        assert!(environment("PAGER", "sh -c id").is_some());
        assert!(environment("PAGER", "cat").is_none());
        assert!(environment("GIT_PAGER", "less -R").is_none());
        assert!(environment("LD_PRELOAD", "/tmp/x.so").is_some());
        assert!(environment("PYTHONPATH", ".").is_none());
        assert!(environment("PYTHONPATH", "src:tests").is_none());
        assert!(environment("PYTHONPATH", "/tmp").is_some());
        assert!(environment("PYTHONPATH", "$PYTHONPATH:$(pwd)").is_none());
        assert!(environment("PATH", "$HOME/.cargo/bin:$PATH").is_none());
        assert!(environment("PATH", "/tmp/evil:$PATH").is_some());
        assert!(environment("RUST_LOG", "debug").is_none());
        assert!(environment("GIT_EDITOR", "true").is_none());
    }

    #[test]
    fn git_config_keys() {
        assert!(git_config("core.pager", "sh -c id").is_some());
        assert!(git_config("core.pager", "cat").is_none());
        assert!(git_config("diff.external", "./x").is_some());
        assert!(git_config("alias.x", "!rm -rf /").is_some());
        assert!(git_config("alias.st", "status").is_none());
        assert!(git_config("user.name", "x").is_none());
        assert!(git_config("core.sshCommand", "ssh -i k").is_some());
    }
}
