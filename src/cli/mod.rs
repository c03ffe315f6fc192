//! The command line, parsed with `lexopt`: which subcommand, with which
//! options, and the command to judge. Nothing here reads input or prints.
//!
//! Takes the arguments after the program's name; returns a [`Command`], or
//! a [`CliError`] for a usage error (exit 2). Every subcommand answers
//! `-h`/`--help`; an option's value may follow it (`--threads 2`) or be
//! joined to it (`--threads=2`); the words after `--` are never options.
//!
//! Why lexopt and not clap: start-up cost, as instructions of a whole run
//! under callgrind (`valgrind --tool=callgrind portcullis check -- ls`,
//! release build without LTO). portcullis with the hand-written parser
//! before: 743,498; with lexopt: 741,937. A program that only parses
//! `check -- ls` and prints it: by hand 300,370, lexopt 303,240 (+2,870),
//! clap 4.6 with derive and every subcommand declared 404,595 (+104,225,
//! which is 14% of a whole `check`), and its binary 525 KB larger (lexopt:
//! 11 KB).

pub mod help;
pub mod progress;

use lexopt::{Arg, Parser};
use portcullis::Verdict;
use portcullis::history::Format;
use portcullis::hook::{HookOptions, Host};
use portcullis::install::{Action, Request};
use std::ffi::OsString;
use std::path::PathBuf;

pub use help::USAGE;

/// A usage or input error: one line (and maybe the usage) on stderr, exit 2.
#[derive(Debug, PartialEq, Eq)]
pub struct CliError(pub String);

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    /// Print this help text on stdout, exit 0.
    Help(&'static str),
    /// Print the version, exit 0.
    Version,
    /// `hook`: answer one request on stdin.
    Hook {
        /// Whose request and output format (`None`: the request's shape
        /// names the host).
        host: Option<Host>,
        /// What FREE and UNKNOWN print.
        options: HookOptions,
    },
    /// `check`: judge one command.
    Check {
        /// One JSON object instead of the human line.
        json: bool,
        /// The folder to judge in (default: the current one).
        cwd: Option<PathBuf>,
        /// The host's permission mode to judge under.
        mode: portcullis::engine::PermissionMode,
        /// The command line to judge.
        command: String,
    },
    /// `explain`: judge one command and show each step.
    Explain {
        /// Print the syntax tree first.
        tree: bool,
        /// The folder to judge in (default: the current one).
        cwd: Option<PathBuf>,
        /// The host's permission mode to judge under.
        mode: portcullis::engine::PermissionMode,
        /// The command line to judge.
        command: String,
    },
    /// `replay`: judge every command of histories.
    Replay(Replay),
    /// `policy`: the path law of a repository.
    Policy {
        /// One JSON object instead of text.
        json: bool,
        /// The folder when `dir` is not given.
        cwd: Option<PathBuf>,
        /// The folder whose repository's law to show.
        dir: Option<PathBuf>,
    },
    /// `opencode-permissions`: the block for `opencode.json`.
    OpencodePermissions,
    /// `rules`: the catalogue, or (`verbs`) every verb of the lexicon.
    Rules {
        /// Every verb instead of the catalogue.
        verbs: bool,
    },
    /// `install` or `uninstall`: the hook entries into or out of the
    /// hosts' config files.
    Install(portcullis::install::Request),
    /// `doctor`: is every host's hook configured and running?
    Doctor {
        /// One JSON object instead of text.
        json: bool,
        /// The hosts named with `--host` (empty: every host found).
        hosts: Vec<Host>,
    },
}

/// The options of `replay`.
#[derive(Debug, PartialEq, Eq)]
pub struct Replay {
    /// The format every input is read as (`None`: detected for each).
    pub format: Option<Format>,
    /// One JSON row a command.
    pub json: bool,
    /// The summary as one JSON object.
    pub summary_json: bool,
    /// Exit 1 when a command reached this verdict.
    pub fail_on: Option<Verdict>,
    /// Worker threads (`None`: the cores, up to eight).
    pub threads: Option<usize>,
    /// The folder of records that name none.
    pub cwd: Option<PathBuf>,
    /// The host's permission mode every command is judged in.
    pub mode: portcullis::engine::PermissionMode,
    /// Files, folders and `-`, as given (at least one).
    pub sources: Vec<String>,
}

/// Parses the arguments after the program's name. Returns what they ask
/// for, or the usage error to report.
pub fn parse(args: Vec<OsString>) -> Result<Command, CliError> {
    let mut args = args.into_iter();
    let Some(first) = args.next() else {
        return Err(CliError(format!("no command given\n{USAGE}")));
    };
    let name = first.to_string_lossy();
    let rest = Parser::from_args(args);
    match name.as_ref() {
        "hook" => parse_hook(rest),
        "check" => parse_judge(rest, "check", help::CHECK),
        "explain" => parse_judge(rest, "explain", help::EXPLAIN),
        "replay" => parse_replay(rest),
        "policy" => parse_policy(rest),
        "opencode-permissions" => parse_opencode_permissions(rest),
        "rules" => parse_rules(rest),
        "install" => parse_install(rest, Action::Install),
        "uninstall" => parse_install(rest, Action::Uninstall),
        "doctor" => parse_doctor(rest),
        "-h" | "--help" | "help" => parse_help(rest),
        "-V" | "--version" => Ok(Command::Version),
        other => Err(CliError(format!("unknown command `{other}`\n{USAGE}"))),
    }
}

/// An argument as it was written: `--name`, `-c` or the word.
fn shown(arg: &Arg) -> String {
    match arg {
        Arg::Long(name) => format!("--{name}"),
        Arg::Short(c) => format!("-{c}"),
        Arg::Value(word) => word.to_string_lossy().into_owned(),
    }
}

/// The usage error for an option the subcommand does not take.
fn unknown(arg: &Arg) -> CliError {
    CliError(format!("unknown option `{}`\n{USAGE}", shown(arg)))
}

/// The next argument, or `None` at the end; `Err` for a value joined to an
/// option that takes none (`--json=yes`).
fn next(parser: &mut Parser) -> Result<Option<Arg<'_>>, CliError> {
    parser.next().map_err(|e| match e {
        lexopt::Error::UnexpectedValue { option, value } => CliError(format!(
            "{option} takes no value, got `{}`",
            value.to_string_lossy()
        )),
        other => CliError(other.to_string()),
    })
}

/// The value of option `option` (the next word, or what follows `=`).
fn value(parser: &mut Parser, option: &str) -> Result<String, CliError> {
    parser
        .value()
        .map(|v| v.to_string_lossy().into_owned())
        .map_err(|_| CliError(format!("{option} needs a value")))
}

/// `help [SUBCOMMAND]`: the usage of every command, or one's help.
fn parse_help(mut parser: Parser) -> Result<Command, CliError> {
    match next(&mut parser)? {
        Some(Arg::Value(name)) => {
            let name = name.to_string_lossy();
            help::of(&name)
                .map(Command::Help)
                .ok_or_else(|| CliError(format!("unknown command `{name}`\n{USAGE}")))
        }
        _ => Ok(Command::Help(USAGE)),
    }
}

/// `hook [--host H] [--free F] [--unknown U]`.
fn parse_hook(mut parser: Parser) -> Result<Command, CliError> {
    let mut options = HookOptions::default();
    let mut host = None;
    let bad =
        |flag: &str, value: &str| CliError(format!("bad hook option `{flag} {value}`\n{USAGE}"));
    while let Some(arg) = next(&mut parser)? {
        match arg {
            Arg::Short('h') | Arg::Long("help") => return Ok(Command::Help(help::HOOK)),
            Arg::Long(flag @ ("host" | "free" | "unknown")) => {
                let flag = format!("--{flag}");
                // A missing value is reported as the bad option it is.
                let value = value(&mut parser, &flag).unwrap_or_default();
                match (flag.as_str(), value.as_str()) {
                    ("--host", name) if Host::named(name).is_some() => host = Host::named(name),
                    ("--free", "allow") => options.free_allows = true,
                    ("--free", "defer") => options.free_allows = false,
                    ("--unknown", "defer") => options.unknown_asks = false,
                    ("--unknown", "ask") => options.unknown_asks = true,
                    (flag, value) => return Err(bad(flag, value)),
                }
            }
            Arg::Value(word) => return Err(bad(&word.to_string_lossy(), "")),
            other => return Err(unknown(&other)),
        }
    }
    Ok(Command::Hook { host, options })
}

/// `check|explain [--json|--tree] [--cwd DIR] [--] WORD…`.
fn parse_judge(mut parser: Parser, name: &str, help: &'static str) -> Result<Command, CliError> {
    let mut flag = false;
    let mut cwd = None;
    let mut mode = portcullis::engine::PermissionMode::Default;
    let mut words = Vec::new();
    while let Some(arg) = next(&mut parser)? {
        match arg {
            Arg::Short('h') | Arg::Long("help") => return Ok(Command::Help(help)),
            Arg::Long("json") if name == "check" => flag = true,
            Arg::Long("tree") if name == "explain" => flag = true,
            Arg::Long("cwd") => cwd = Some(PathBuf::from(value(&mut parser, "--cwd")?)),
            Arg::Long("mode") => mode = parse_mode(&value(&mut parser, "--mode")?)?,
            Arg::Value(word) => words.push(word.to_string_lossy().into_owned()),
            other => return Err(unknown(&other)),
        }
    }
    let command = command_line(&words)?;
    Ok(if name == "check" {
        Command::Check {
            json: flag,
            cwd,
            mode,
            command,
        }
    } else {
        Command::Explain {
            tree: flag,
            cwd,
            mode,
            command,
        }
    })
}

/// The command line the words of `check` and `explain` stand for: one word
/// is a whole command line (`check -- 'ls | wc'`); several are one argv,
/// quoted so that the line runs exactly those words (`check -- bash -c
/// "rm -rf /"` judges `bash -c 'rm -rf /'`). `Err` for no words.
pub fn command_line(words: &[String]) -> Result<String, CliError> {
    match words {
        [] => Err(CliError(format!("no command to check\n{USAGE}"))),
        [line] => Ok(line.clone()),
        words => shlex::try_join(words.iter().map(String::as_str))
            .map_err(|e| CliError(format!("cannot quote the command: {e}"))),
    }
}

/// `--mode MODE`: a permission mode as hosts name it.
fn parse_mode(text: &str) -> Result<portcullis::engine::PermissionMode, CliError> {
    use portcullis::engine::PermissionMode;
    match text {
        "default" => Ok(PermissionMode::Default),
        "acceptEdits" => Ok(PermissionMode::AcceptEdits),
        "plan" => Ok(PermissionMode::Plan),
        other => Err(CliError(format!(
            "--mode takes default, acceptEdits or plan, not `{other}`"
        ))),
    }
}

/// `replay [--format F] [--json] [--summary-json] [--fail-on V]
/// [--threads N] [--cwd DIR] [--mode MODE] SOURCE…`.
fn parse_replay(mut parser: Parser) -> Result<Command, CliError> {
    let mut replay = Replay {
        format: None,
        json: false,
        summary_json: false,
        fail_on: None,
        threads: None,
        cwd: None,
        mode: portcullis::engine::PermissionMode::Default,
        sources: Vec::new(),
    };
    let mut format = "auto".to_string();
    while let Some(arg) = next(&mut parser)? {
        match arg {
            Arg::Short('h') | Arg::Long("help") => return Ok(Command::Help(help::REPLAY)),
            Arg::Long("json") => replay.json = true,
            Arg::Long("summary-json") => replay.summary_json = true,
            Arg::Long("format") => format = value(&mut parser, "--format")?,
            Arg::Long("cwd") => replay.cwd = Some(PathBuf::from(value(&mut parser, "--cwd")?)),
            Arg::Long("mode") => replay.mode = parse_mode(&value(&mut parser, "--mode")?)?,
            Arg::Long("threads") => {
                let n = value(&mut parser, "--threads")?;
                let threads = n.parse().ok().filter(|n| *n >= 1).ok_or_else(|| {
                    CliError(format!("--threads takes a number of at least 1, not `{n}`"))
                })?;
                replay.threads = Some(threads);
            }
            Arg::Long("fail-on") => {
                replay.fail_on = match value(&mut parser, "--fail-on")?.as_str() {
                    "SIGNED" | "signed" => Some(Verdict::Signed),
                    "BLOCKED" | "blocked" => Some(Verdict::Blocked),
                    other => {
                        return Err(CliError(format!(
                            "--fail-on takes SIGNED or BLOCKED, not `{other}`"
                        )));
                    }
                }
            }
            Arg::Value(source) => replay.sources.push(source.to_string_lossy().into_owned()),
            other => return Err(unknown(&other)),
        }
    }
    if format != "auto" {
        replay.format = Some(Format::named(&format).ok_or_else(|| {
            CliError(format!(
                "replay format `{format}` is not known; use auto, lines, jsonl, sessions, bash, zsh, fish or claude"
            ))
        })?);
    }
    if replay.sources.is_empty() {
        return Err(CliError(format!(
            "replay takes FILE…, a folder or -\n{USAGE}"
        )));
    }
    Ok(Command::Replay(replay))
}

/// `policy [--json] [--cwd DIR] [DIR]`.
fn parse_policy(mut parser: Parser) -> Result<Command, CliError> {
    let mut json = false;
    let mut cwd = None;
    let mut dirs: Vec<OsString> = Vec::new();
    while let Some(arg) = next(&mut parser)? {
        match arg {
            Arg::Short('h') | Arg::Long("help") => return Ok(Command::Help(help::POLICY)),
            Arg::Long("json") => json = true,
            Arg::Long("cwd") => cwd = Some(PathBuf::from(value(&mut parser, "--cwd")?)),
            Arg::Value(dir) => dirs.push(dir),
            other => return Err(unknown(&other)),
        }
    }
    let mut dirs = dirs.into_iter();
    let dir = dirs.next().map(PathBuf::from);
    if let Some(extra) = dirs.next() {
        return Err(CliError(format!(
            "policy takes one DIR, got also `{}`",
            extra.to_string_lossy()
        )));
    }
    Ok(Command::Policy { json, cwd, dir })
}

/// `opencode-permissions`: no arguments but `--help`.
fn parse_opencode_permissions(mut parser: Parser) -> Result<Command, CliError> {
    match next(&mut parser)? {
        None => Ok(Command::OpencodePermissions),
        Some(Arg::Short('h') | Arg::Long("help")) => Ok(Command::Help(help::OPENCODE_PERMISSIONS)),
        Some(extra) => Err(CliError(format!(
            "opencode-permissions takes no arguments, got `{}`",
            shown(&extra)
        ))),
    }
}

/// `rules [--verbs]`.
fn parse_rules(mut parser: Parser) -> Result<Command, CliError> {
    let mut verbs = false;
    while let Some(arg) = next(&mut parser)? {
        match arg {
            Arg::Short('h') | Arg::Long("help") => return Ok(Command::Help(help::RULES)),
            Arg::Long("verbs") => verbs = true,
            extra => {
                return Err(CliError(format!(
                    "rules takes only --verbs, got `{}`",
                    shown(&extra)
                )));
            }
        }
    }
    Ok(Command::Rules { verbs })
}

/// The host `--host` names; `Err` for a name that is none.
fn host_value(parser: &mut Parser) -> Result<Host, CliError> {
    let name = value(parser, "--host")?;
    Host::named(&name).ok_or_else(|| {
        CliError(format!(
            "unknown host `{name}`; use claude, opencode, codex, gemini, copilot, cursor or qwen"
        ))
    })
}

/// `install|uninstall [--host NAME]... [--project] [--dry-run]`.
fn parse_install(mut parser: Parser, action: Action) -> Result<Command, CliError> {
    let mut request = Request {
        action,
        hosts: Vec::new(),
        project: false,
        dry_run: false,
    };
    while let Some(arg) = next(&mut parser)? {
        match arg {
            Arg::Short('h') | Arg::Long("help") => {
                return Ok(Command::Help(match action {
                    Action::Install => help::INSTALL,
                    Action::Uninstall => help::UNINSTALL,
                }));
            }
            Arg::Long("host") => {
                let host = host_value(&mut parser)?;
                if !request.hosts.contains(&host) {
                    request.hosts.push(host);
                }
            }
            Arg::Long("project") => request.project = true,
            Arg::Long("dry-run") => request.dry_run = true,
            other => return Err(unknown(&other)),
        }
    }
    Ok(Command::Install(request))
}

/// `doctor [--json] [--host NAME]...`.
fn parse_doctor(mut parser: Parser) -> Result<Command, CliError> {
    let mut json = false;
    let mut hosts = Vec::new();
    while let Some(arg) = next(&mut parser)? {
        match arg {
            Arg::Short('h') | Arg::Long("help") => return Ok(Command::Help(help::DOCTOR)),
            Arg::Long("json") => json = true,
            Arg::Long("host") => {
                let host = host_value(&mut parser)?;
                if !hosts.contains(&host) {
                    hosts.push(host);
                }
            }
            other => return Err(unknown(&other)),
        }
    }
    Ok(Command::Doctor { json, hosts })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Result<Command, CliError> {
        parse(args.iter().map(OsString::from).collect())
    }

    fn checked(args: &[&str]) -> String {
        match parsed(args) {
            Ok(Command::Check { command, .. }) => command,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn words_after_the_double_dash_are_one_argv() {
        assert_eq!(
            checked(&["check", "--", "bash", "-c", "rm -rf /"]),
            "bash -c 'rm -rf /'"
        );
        assert_eq!(checked(&["check", "--", "ls | wc"]), "ls | wc");
        assert_eq!(checked(&["check", "git", "status"]), "git status");
        assert_eq!(checked(&["check", "--", "--help"]), "--help");
        assert_eq!(checked(&["check", "--", "echo", "it's"]), r#"echo "it's""#);
    }

    #[test]
    fn values_follow_or_join_their_option() {
        for args in [
            &["replay", "--threads=2", "--format=lines", "-"][..],
            &["replay", "--threads", "2", "--format", "lines", "-"][..],
        ] {
            let Ok(Command::Replay(replay)) = parsed(args) else {
                panic!("{args:?}");
            };
            assert_eq!(replay.threads, Some(2));
            assert_eq!(replay.format, Some(Format::Lines));
            assert_eq!(replay.sources, ["-"]);
            assert_eq!(replay.mode, portcullis::engine::PermissionMode::Default);
        }
        for args in [
            &["replay", "--mode=acceptEdits", "-"][..],
            &["replay", "--mode", "acceptEdits", "-"][..],
        ] {
            let Ok(Command::Replay(replay)) = parsed(args) else {
                panic!("{args:?}");
            };
            assert_eq!(replay.mode, portcullis::engine::PermissionMode::AcceptEdits);
        }
        assert_eq!(
            parsed(&["hook", "--host=opencode", "--free=defer"]),
            Ok(Command::Hook {
                host: Some(Host::OpenCode),
                options: HookOptions {
                    free_allows: false,
                    ..HookOptions::default()
                }
            })
        );
        let Ok(Command::Check { cwd, .. }) = parsed(&["check", "--cwd=/tmp", "--", "ls"]) else {
            panic!("--cwd=");
        };
        assert_eq!(cwd, Some(PathBuf::from("/tmp")));
    }

    #[test]
    fn every_subcommand_has_help() {
        for name in [
            "hook",
            "check",
            "explain",
            "replay",
            "policy",
            "opencode-permissions",
            "rules",
            "install",
            "uninstall",
            "doctor",
        ] {
            for flag in ["--help", "-h"] {
                let Ok(Command::Help(text)) = parsed(&[name, flag]) else {
                    panic!("{name} {flag}");
                };
                assert!(text.starts_with(&format!("usage: portcullis {name}")));
            }
            assert_eq!(
                parsed(&["help", name]),
                Ok(Command::Help(help::of(name).unwrap_or("")))
            );
        }
        assert_eq!(parsed(&["--help"]), Ok(Command::Help(USAGE)));
    }

    #[test]
    fn usage_errors() {
        for args in [
            &[][..],
            &["frob"],
            &["check"],
            &["check", "--bogus", "--", "ls"],
            &["check", "--json=yes", "--", "ls"],
            &["check", "--tree", "--", "ls"],
            &["check", "--cwd"],
            &["replay", "--threads=0", "-"],
            &["replay", "--threads", "-"],
            &["replay", "--format", "csv", "-"],
            &["replay", "--fail-on", "FREE", "-"],
            &["replay", "--mode", "acceptedits", "-"],
            &["replay", "--mode"],
            &["replay"],
            &["hook", "--host", "x"],
            &["hook", "--host"],
            &["hook", "x"],
            &["hook", "--bogus"],
            &["policy", "a", "b"],
            &["rules", "x"],
            &["opencode-permissions", "x"],
            &["install", "--host", "vim"],
            &["install", "--host"],
            &["install", "claude"],
            &["uninstall", "--dry-run=1"],
            &["doctor", "--fix"],
            &["help", "frob"],
        ] {
            assert!(parsed(args).is_err(), "{args:?}");
        }
    }
}
