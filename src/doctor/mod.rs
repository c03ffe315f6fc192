//! `portcullis doctor`: is the hook really guarding each host?
//!
//! Takes the environment (where each host keeps its files), the running
//! binary and the hosts to check (empty: every host whose config folder or
//! program is found); returns a [`Report`] of checks, each problem with its
//! fix, printable as text or as one JSON object. It reads files and runs
//! the configured hook command on two probe requests; it writes nothing.

pub mod checks;
mod gates;
pub mod selftest;

use crate::hook::Host;
use crate::install::hosts::Env;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// How one check came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// It holds.
    Ok,
    /// Worth knowing; the hook still guards.
    Note,
    /// The hook does not guard as it should; the check carries the fix.
    Problem,
}

/// One check of one host.
#[derive(Clone, Debug)]
pub struct Check {
    /// What was checked: `configured`, `entry`, `binary`, `version`,
    /// `self-test`, `trust`, `disabled`, `shadow`, `config`.
    pub name: &'static str,
    /// Its outcome.
    pub status: Status,
    /// What was found.
    pub detail: String,
    /// For a problem: the command or snippet that fixes it.
    pub fix: Option<String>,
}

/// The checks of one host.
#[derive(Clone, Debug)]
pub struct HostReport {
    /// The host.
    pub host: Host,
    /// Its checks, in the order they ran.
    pub checks: Vec<Check>,
}

/// The whole report.
#[derive(Clone, Debug)]
pub struct Report {
    /// The running binary.
    pub binary: PathBuf,
    /// Each host checked.
    pub hosts: Vec<HostReport>,
}

/// Checks `hosts` (empty: every host found, user or project).
pub fn run(env: &Env, bin: &Path, hosts: &[Host]) -> Report {
    let hosts: Vec<Host> = if hosts.is_empty() {
        Host::ALL
            .into_iter()
            .filter(|&h| env.finds(h, false) || env.finds(h, true))
            .collect()
    } else {
        hosts.to_vec()
    };
    Report {
        binary: bin.to_path_buf(),
        hosts: hosts
            .into_iter()
            .map(|host| HostReport {
                host,
                checks: checks::host(env, bin, host),
            })
            .collect(),
    }
}

impl Report {
    /// True when at least one host was checked and no check is a problem.
    pub fn ok(&self) -> bool {
        !self.hosts.is_empty()
            && self
                .hosts
                .iter()
                .all(|h| h.checks.iter().all(|c| c.status != Status::Problem))
    }

    /// The number of problems.
    pub fn problems(&self) -> usize {
        self.hosts
            .iter()
            .flat_map(|h| &h.checks)
            .filter(|c| c.status == Status::Problem)
            .count()
    }

    /// The report for people: a block per host, a summary line.
    pub fn text(&self) -> String {
        let mut out = format!(
            "portcullis {} at {}\n",
            env!("CARGO_PKG_VERSION"),
            self.binary.display()
        );
        if self.hosts.is_empty() {
            out.push_str("no host found: install one, or name it with --host\n");
        }
        for h in &self.hosts {
            let title = crate::install::hosts::spec(h.host).title;
            out.push_str(&format!("\n{} ({title})\n", h.host.name()));
            for c in &h.checks {
                let mark = match c.status {
                    Status::Ok => "ok     ",
                    Status::Note => "note   ",
                    Status::Problem => "PROBLEM",
                };
                out.push_str(&format!("  {mark} {}: {}\n", c.name, c.detail));
                if let Some(fix) = &c.fix {
                    for (i, line) in fix.lines().enumerate() {
                        let lead = if i == 0 { "fix:" } else { "    " };
                        out.push_str(&format!("          {lead} {line}\n"));
                    }
                }
            }
        }
        let n = self.problems();
        out.push_str(&match (n, self.ok()) {
            (_, true) => {
                "\nall good: every hook checked is configured, trusted and answering\n".to_string()
            }
            (0, false) => "\nnothing checked\n".to_string(),
            (1, _) => "\n1 problem\n".to_string(),
            (n, _) => format!("\n{n} problems\n"),
        });
        out
    }

    /// The same report as one JSON object: `ok`, `version`, `binary`,
    /// `problems`, and `hosts`: `[{host, title, ok, checks: [{check,
    /// status, detail, fix?}]}]`.
    pub fn json(&self) -> Value {
        let hosts: Vec<Value> = self
            .hosts
            .iter()
            .map(|h| {
                let checks: Vec<Value> = h
                    .checks
                    .iter()
                    .map(|c| {
                        let mut v = json!({
                            "check": c.name,
                            "status": match c.status {
                                Status::Ok => "ok",
                                Status::Note => "note",
                                Status::Problem => "problem",
                            },
                            "detail": c.detail,
                        });
                        if let (Some(fix), Some(map)) = (&c.fix, v.as_object_mut()) {
                            map.insert("fix".into(), Value::String(fix.clone()));
                        }
                        v
                    })
                    .collect();
                json!({
                    "host": h.host.name(),
                    "title": crate::install::hosts::spec(h.host).title,
                    "ok": h.checks.iter().all(|c| c.status != Status::Problem),
                    "checks": checks,
                })
            })
            .collect();
        json!({
            "ok": self.ok(),
            "version": env!("CARGO_PKG_VERSION"),
            "binary": self.binary.to_string_lossy(),
            "problems": self.problems(),
            "hosts": hosts,
        })
    }
}

impl Check {
    /// A check that holds.
    pub fn ok(name: &'static str, detail: String) -> Check {
        Check {
            name,
            status: Status::Ok,
            detail,
            fix: None,
        }
    }
    /// Something worth knowing that does not stop the hook.
    pub fn note(name: &'static str, detail: String) -> Check {
        Check {
            name,
            status: Status::Note,
            detail,
            fix: None,
        }
    }
    /// A problem, with its fix.
    pub fn problem(name: &'static str, detail: String, fix: String) -> Check {
        Check {
            name,
            status: Status::Problem,
            detail,
            fix: Some(fix),
        }
    }
}
