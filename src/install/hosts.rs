//! THE table of hook entries: for every host, the file `install` writes,
//! its shape, and the entries, with `BIN` standing for the binary's path.
//! install, uninstall, doctor and the README test all read this table.

use crate::hook::Host;
use std::path::{Path, PathBuf};

/// How a host's config file holds its hooks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `hooks.<Event>` is an array of groups `{"matcher", "hooks": [handler]}`
    /// (Claude Code, Codex, Gemini CLI, Qwen Code).
    Grouped,
    /// `{"version": 1, "hooks": {"<event>": [handler]}}` (Copilot CLI, Cursor).
    Flat,
    /// A plugin file written whole (OpenCode).
    Plugin,
}

/// One host's row of the table.
#[derive(Debug)]
pub struct Spec {
    /// The host, as `--host` names it.
    pub host: Host,
    /// Its name for people.
    pub title: &'static str,
    /// How its file holds hooks.
    pub shape: Shape,
    /// `(event, entry)`: the JSON each event's array gets, `BIN` standing
    /// for the binary (a string `"BIN"` is the bare path; a string starting
    /// `"BIN "` is a shell command, the path quoted for the shell).
    pub entries: &'static [(&'static str, &'static str)],
    /// The programs whose presence on PATH means the host is installed.
    pub programs: &'static [&'static str],
    /// The only top-level keys the host accepts (`None`: any).
    pub top_level: Option<&'static [&'static str]>,
}

/// The OpenCode plugin, as the binary writes it.
pub const OPENCODE_PLUGIN: &str = include_str!("../../integrations/opencode/portcullis.js");

/// Every host's row, in the order `--host` lists them.
#[rustfmt::skip]
pub const SPECS: &[Spec] = &[
    Spec {
        host: Host::Claude, title: "Claude Code", shape: Shape::Grouped,
        entries: &[("PreToolUse", r#"{"matcher":"Bash|Write|Edit|MultiEdit|NotebookEdit|Read|Grep","hooks":[{"type":"command","command":"BIN hook --host claude || exit 2","timeout":10}]}"#)],
        programs: &["claude"], top_level: None,
    },
    Spec {
        host: Host::OpenCode, title: "OpenCode", shape: Shape::Plugin,
        entries: &[], programs: &["opencode"], top_level: None,
    },
    Spec {
        host: Host::Codex, title: "Codex", shape: Shape::Grouped,
        entries: &[
            ("PreToolUse", r#"{"matcher":"Bash|apply_patch","hooks":[{"type":"command","command":"BIN hook --host codex || exit 2","timeout":10,"statusMessage":"portcullis"}]}"#),
            ("PermissionRequest", r#"{"matcher":"Bash","hooks":[{"type":"command","command":"BIN hook --host codex || exit 2","timeout":10}]}"#),
        ],
        programs: &["codex"], top_level: Some(&["hooks", "description"]),
    },
    Spec {
        host: Host::Gemini, title: "Gemini CLI", shape: Shape::Grouped,
        entries: &[("BeforeTool", r#"{"matcher":"^(run_shell_command|write_file|replace)$","hooks":[{"name":"portcullis","type":"command","command":"BIN hook --host gemini || exit 2","timeout":10000}]}"#)],
        programs: &["gemini"], top_level: None,
    },
    Spec {
        host: Host::Copilot, title: "Copilot CLI", shape: Shape::Flat,
        entries: &[("preToolUse", r#"{"type":"command","matcher":"bash|powershell|create|edit|apply_patch|str_replace_editor","exec":"BIN","args":["hook","--host","copilot"],"timeoutSec":10}"#)],
        programs: &["copilot"], top_level: None,
    },
    Spec {
        host: Host::Cursor, title: "Cursor", shape: Shape::Flat,
        entries: &[
            ("beforeShellExecution", r#"{"command":"BIN hook --host cursor","timeout":10,"failClosed":true}"#),
            ("preToolUse", r#"{"command":"BIN hook --host cursor","matcher":"Write|Delete","timeout":10,"failClosed":true}"#),
        ],
        programs: &["cursor-agent", "cursor"], top_level: None,
    },
    Spec {
        host: Host::Qwen, title: "Qwen Code", shape: Shape::Grouped,
        entries: &[("PreToolUse", r#"{"matcher":"run_shell_command|write_file|edit","hooks":[{"type":"command","command":"BIN hook --host qwen || exit 2","name":"portcullis","timeout":10000}]}"#)],
        programs: &["qwen"], top_level: None,
    },
];

/// The row of `host`.
pub fn spec(host: Host) -> &'static Spec {
    // Every host has a row (a unit test checks it); Claude's is the first.
    SPECS.iter().find(|s| s.host == host).unwrap_or(&SPECS[0])
}

/// The environment that decides where each host keeps its files; taken
/// from the process's environment by `from_env`, set by hand in tests.
#[derive(Clone, Debug, Default)]
pub struct Env {
    /// `HOME`.
    pub home: Option<PathBuf>,
    /// `XDG_CONFIG_HOME` (OpenCode).
    pub xdg_config_home: Option<PathBuf>,
    /// `CODEX_HOME`.
    pub codex_home: Option<PathBuf>,
    /// `GEMINI_CLI_HOME` (replaces the home folder for Gemini CLI).
    pub gemini_cli_home: Option<PathBuf>,
    /// `COPILOT_HOME`.
    pub copilot_home: Option<PathBuf>,
    /// The folders of `PATH`.
    pub path: Vec<PathBuf>,
    /// The current folder: the project, for `--project` and trust checks.
    pub cwd: Option<PathBuf>,
    /// `PORTCULLIS_BIN`: the binary the OpenCode plugin runs.
    pub portcullis_bin: Option<PathBuf>,
    /// `GEMINI_CLI_TRUST_WORKSPACE`: `true` trusts every folder for Gemini CLI.
    pub gemini_trust_workspace: Option<String>,
}

impl Env {
    /// The environment of this process.
    pub fn from_env() -> Env {
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        Env {
            home: crate::home::home_folder().map(PathBuf::from),
            xdg_config_home: var("XDG_CONFIG_HOME"),
            codex_home: var("CODEX_HOME"),
            gemini_cli_home: var("GEMINI_CLI_HOME"),
            copilot_home: var("COPILOT_HOME"),
            path: std::env::var_os("PATH")
                .map(|p| std::env::split_paths(&p).collect())
                .unwrap_or_default(),
            cwd: std::env::current_dir().ok(),
            portcullis_bin: var("PORTCULLIS_BIN"),
            gemini_trust_workspace: std::env::var("GEMINI_CLI_TRUST_WORKSPACE").ok(),
        }
    }

    /// The folder holding `host`'s user-level config (`~/.claude`,
    /// `$CODEX_HOME`, …), whose presence means the host is used.
    pub fn user_dir(&self, host: Host) -> Option<PathBuf> {
        let home = self.home.as_deref();
        Some(match host {
            Host::Claude => home?.join(".claude"),
            Host::OpenCode => match &self.xdg_config_home {
                Some(xdg) => xdg.join("opencode"),
                None => home?.join(".config/opencode"),
            },
            Host::Codex => match &self.codex_home {
                Some(dir) => dir.clone(),
                None => home?.join(".codex"),
            },
            Host::Gemini => self.gemini_cli_home.as_deref().or(home)?.join(".gemini"),
            Host::Copilot => match &self.copilot_home {
                Some(dir) => dir.clone(),
                None => home?.join(".copilot"),
            },
            Host::Cursor => home?.join(".cursor"),
            Host::Qwen => home?.join(".qwen"),
        })
    }

    /// The folder holding `host`'s project config, under the current folder.
    pub fn project_dir(&self, host: Host) -> Option<PathBuf> {
        let cwd = self.cwd.as_deref()?;
        Some(cwd.join(match host {
            Host::Claude => ".claude",
            Host::OpenCode => ".opencode",
            Host::Codex => ".codex",
            Host::Gemini => ".gemini",
            Host::Copilot => ".github/hooks",
            Host::Cursor => ".cursor",
            Host::Qwen => ".qwen",
        }))
    }

    /// The file `install` writes for `host`: the user's, or the project's.
    pub fn config_file(&self, host: Host, project: bool) -> Option<PathBuf> {
        let name = match host {
            Host::Claude | Host::Gemini | Host::Qwen => "settings.json",
            Host::Codex | Host::Cursor => "hooks.json",
            Host::OpenCode => "plugins/portcullis.js",
            Host::Copilot if project => "portcullis.json",
            Host::Copilot => "hooks/portcullis.json",
        };
        let dir = if project {
            self.project_dir(host)?
        } else {
            self.user_dir(host)?
        };
        Some(dir.join(name))
    }

    /// The first executable file called `name` in `PATH`.
    pub fn which(&self, name: &str) -> Option<PathBuf> {
        self.path
            .iter()
            .map(|dir| dir.join(name))
            .find(|p| is_executable(p))
    }

    /// True when `host`'s config folder (user or project) or one of its
    /// programs is there.
    pub fn finds(&self, host: Host, project: bool) -> bool {
        let dir = if project {
            self.project_dir(host)
        } else {
            self.user_dir(host)
        };
        dir.is_some_and(|d| d.is_dir())
            || spec(host).programs.iter().any(|p| self.which(p).is_some())
    }
}

/// True when `path` is a regular file (after links) with an execute bit.
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::json::{Json, parse};

    #[test]
    fn every_host_has_one_row_and_every_entry_parses() {
        for host in Host::ALL {
            assert_eq!(
                SPECS.iter().filter(|s| s.host == host).count(),
                1,
                "{host:?}"
            );
        }
        for spec in SPECS {
            for (event, entry) in spec.entries {
                let value = parse(entry).unwrap_or(Json::Null);
                assert!(matches!(value, Json::Object(_)), "{event}: {entry}");
                assert!(entry.contains("BIN"), "{event}");
            }
        }
    }
}
