//! Settings that make an ordinary program run other code: environment
//! variables (`PAGER='sh -c …' git log`, `LD_PRELOAD=…`, `PATH=/tmp:$PATH`)
//! and git configuration given on the command line (`git -c core.pager=…`,
//! `git -c alias.x='!…'`). Takes a name and a value; returns why the
//! setting is not free, or `None` when it is known to be harmless. The
//! names are data (`rules/environment.json`): a closed list of harmless
//! ones, and the kinds that run code; every other name asks.
#![deny(clippy::indexing_slicing)]

use crate::rule_id::Rule;
use crate::rules::{
    ENV_COMMANDS, ENV_EXEC, ENV_HARMLESS, ENV_HARMLESS_COMMANDS, ENV_HISTORY, ENV_SEARCH_PATHS,
    NameSet,
};

/// Git configuration keys whose value is a command git runs.
#[rustfmt::skip]
const GIT_COMMAND_KEYS: &[&str] = &[
    "core.askpass", "core.editor", "core.fsmonitor", "core.gitproxy", "core.hookspath",
    "core.pager", "core.sshcommand", "credential.helper", "diff.external", "gpg.program",
    "gpg.ssh.program", "gpg.x509.program", "sequence.editor", "uploadpack.packobjectshook",
];

/// How a variable is set: for the programs started after it (a prefix
/// `X=v cmd`, `export`, `env`, `declare -x`, any assignment after `set -a`),
/// or as a shell variable (`x=v` alone), which reaches programs only when
/// the variable is already exported: the names programs are known to read
/// (`HOME`, `PAGER`, `PATH`) are judged either way; other names only when
/// exported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Given to the programs started after it.
    Exported,
    /// A shell variable, unless the name was already exported.
    Shell,
}

/// Whether `name` matches `pattern` (one `*` at most, standing for any run
/// of characters).
fn matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            name.len() >= head.len() + tail.len() && name.starts_with(head) && name.ends_with(tail)
        }
    }
}

fn listed(set: &NameSet, name: &str) -> bool {
    set.exact.binary_search(&name).is_ok() || set.patterns.iter().any(|p| matches(p, name))
}

/// Why setting the environment variable `name` to `value` is not free, if
/// it is not: it makes programs run other code (`setting.exec`), stops
/// history (`setting.history`), or is a name portcullis cannot vouch for
/// (`setting.unknown`). `None` for a harmless name, or a shell variable.
pub fn environment(name: &str, value: &str, scope: Scope) -> Option<(Rule, String)> {
    if value.trim_start().starts_with("() {") {
        return Some((
            Rule::SettingExec,
            format!(
                "{name} holds a shell function definition, which old shells run on start (shellshock)"
            ),
        ));
    }
    if listed(&ENV_HISTORY, name) {
        return matches!(value, "/dev/null" | "0" | "").then(|| {
            (
                Rule::SettingHistory,
                format!("{name}={value} stops shell history being kept"),
            )
        });
    }
    if listed(&ENV_EXEC, name) {
        return Some((
            Rule::SettingExec,
            format!("setting {name} makes programs load or run other code"),
        ));
    }
    if listed(&ENV_COMMANDS, name) {
        return (!harmless_command(value)).then(|| {
            (
                Rule::SettingExec,
                format!("{name}={value} makes programs run that command"),
            )
        });
    }
    if listed(&ENV_SEARCH_PATHS, name) {
        return (!value.split(':').all(|entry| safe_search_entry(name, entry))).then(|| {
            (
                Rule::SettingExec,
                format!("{name}={value} loads programs or modules from a folder that is neither the system's nor the user's own (for PATH, a relative folder runs the project's files by bare name)"),
            )
        });
    }
    if listed(&ENV_HARMLESS, name) {
        return None;
    }
    // Set alone, a name no list knows is a shell variable (`i=0`, `DIR=src`):
    // the names programs are known to read are judged above either way.
    if scope == Scope::Shell {
        return None;
    }
    Some((
        Rule::SettingUnknown,
        format!(
            "{name} is not among the environment variables portcullis knows to be harmless; a setting can make a program run other code"
        ),
    ))
}

/// Whether the environment variable `name` holds a command line that
/// programs run (`PAGER`, `GIT_SSH_COMMAND`, `EDITOR`).
pub fn holds_command(name: &str) -> bool {
    listed(&ENV_COMMANDS, name)
}

/// Why `git -c key=value` makes git run other code, if it does.
pub fn git_config(key: &str, value: &str) -> Option<(Rule, String)> {
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
            Rule::SettingExec,
            format!("git -c {key}={value} makes git run a command"),
        )
    })
}

fn harmless_command(value: &str) -> bool {
    let first = value.split_whitespace().next().unwrap_or("");
    let program = first.rsplit('/').next().unwrap_or(first);
    ENV_HARMLESS_COMMANDS.contains(&program) && !value.contains(['|', ';', '&', '`', '$'])
}

/// A search-path entry that stays in the project, the user's own folders or
/// the system's, or refers to the variable's previous value. For `PATH` a
/// relative entry is not safe: a program named by a bare word would then be
/// a file of the project's (or of wherever the command runs).
fn safe_search_entry(name: &str, entry: &str) -> bool {
    let self_reference = entry == format!("${name}") || entry == format!("${{{name}}}");
    let relative_inside = name != "PATH"
        && !entry.starts_with('/')
        && !entry.starts_with('$')
        && !entry.split('/').any(|p| p == "..");
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
    (entry.is_empty() && name != "PATH")
        || self_reference
        || relative_inside
        || home
        || here
        || system
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn environment_variables() {
        let env =
            |name, value| environment(name, value, Scope::Exported).map(|(rule, _)| rule.id());
        assert_eq!(env("PAGER", "sh -c id"), Some("setting.exec"));
        assert_eq!(env("PAGER", "cat"), None);
        assert_eq!(env("GIT_PAGER", "less -R"), None);
        assert_eq!(env("AWS_PAGER", "sh -c id"), Some("setting.exec"));
        assert_eq!(env("LD_PRELOAD", "/tmp/x.so"), Some("setting.exec"));
        assert_eq!(env("LD_BIND_NOW", "1"), Some("setting.exec"));
        assert_eq!(env("PYTHONPATH", "."), None);
        assert_eq!(env("PYTHONPATH", "src:tests"), None);
        assert_eq!(env("PYTHONPATH", "/tmp"), Some("setting.exec"));
        assert_eq!(env("PYTHONPATH", "$PYTHONPATH:$(pwd)"), None);
        assert_eq!(env("PATH", "$HOME/.cargo/bin:$PATH"), None);
        assert_eq!(env("PATH", "/tmp/evil:$PATH"), Some("setting.exec"));
        assert_eq!(env("PATH", "bin:$PATH"), Some("setting.exec"));
        assert_eq!(env("PATH", ":$PATH"), Some("setting.exec"));
        assert_eq!(env("RUST_LOG", "debug"), None);
        assert_eq!(env("LC_ALL", "C"), None);
        assert_eq!(env("GIT_EDITOR", "true"), None);
        assert_eq!(
            env("GIT_CONFIG_GLOBAL", "/tmp/evil.cfg"),
            Some("setting.exec")
        );
        assert_eq!(
            env("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER", "sh"),
            Some("setting.exec")
        );
        assert_eq!(env("HOME", "/tmp/h"), Some("setting.exec"));
        assert_eq!(env("SOMETHING_NEW", "1"), Some("setting.unknown"));
        assert_eq!(env("lower", "1"), Some("setting.unknown"));
        assert_eq!(environment("lower", "1", Scope::Shell), None);
        assert_eq!(environment("UPPER", "1", Scope::Shell), None);
        assert!(environment("PAGER", "sh -c id", Scope::Shell).is_some());
        assert!(environment("HOME", "/", Scope::Shell).is_some());
        assert!(matches("CARGO_TARGET_*_RUNNER", "CARGO_TARGET_X_RUNNER"));
        assert!(!matches("CARGO_TARGET_*_RUNNER", "CARGO_TARGET_RUNNER"));
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
