//! Programs that read their program from stdin (a makefile, an awk or sed
//! script, jobs to run): fed by the network or a decoder, it is code nobody
//! has read.

use super::words::{has_short, operands};
use super::{Invocation, push_once};
use crate::feeds::{self, Producer};
use crate::rules::FloorRule;
use crate::shell::{Stdin, Word};

/// Programs that read a program (a makefile, an awk or sed script, jobs
/// to run) from stdin: fed by the network or a decoder, it is code nobody
/// has read. Shells and the interpreters of [`feeds::INTERPRETERS`] are
/// judged by the engine.
pub(super) fn check_program_from_stdin(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let Some((script, command)) = inv.site else {
        return;
    };
    if matches!(command.stdin, Stdin::Inherited) && !matches!(inv.verb, "at" | "batch") {
        return;
    }
    if !reads_program_from_stdin(inv.verb, inv.args) {
        return;
    }
    match feeds::stdin_producer(script, command) {
        Producer::Network(_) => push_once(hits, FloorRule::PipeNetworkShell),
        // A crontab edited through a filter (`crontab -l | grep -v x |
        // crontab -`) is an edit, not hidden code.
        Producer::Opaque(_) if inv.verb != "crontab" => push_once(hits, FloorRule::PipeOpaqueShell),
        _ => {}
    }
}

/// Whether `verb ARGS` takes its program from stdin.
fn reads_program_from_stdin(verb: &str, args: &[Word]) -> bool {
    let stdin = |v: &str| v == "-" || feeds::is_stdin_device(v);
    let file_option = |shorts: &[&str], longs: &[&str]| {
        args.iter().enumerate().any(|(i, w)| {
            let v = w.value.as_str();
            let next = args.get(i + 1).map(|n| n.value.as_str());
            shorts.iter().any(|s| {
                v == *s && next.is_some_and(stdin)
                    || v.strip_prefix(s).is_some_and(|r| !r.is_empty() && stdin(r))
            }) || longs.iter().any(|l| {
                v == *l && next.is_some_and(stdin)
                    || v.strip_prefix(l)
                        .and_then(|r| r.strip_prefix('='))
                        .is_some_and(stdin)
            })
        })
    };
    match verb {
        "make" | "gmake" | "bmake" | "remake" => file_option(&["-f"], &["--file", "--makefile"]),
        "awk" | "gawk" | "mawk" | "nawk" | "busybox" => {
            file_option(&["-f"], &["--file", "--exec", "--include"])
                || file_option(&["-E", "-i"], &[])
        }
        "sed" | "gsed" => file_option(&["-f"], &["--file"]),
        "at" | "batch" => {
            !(has_short(args, 'f')
                || has_short(args, 'l')
                || has_short(args, 'r')
                || has_short(args, 'd')
                || has_short(args, 'c')
                || has_short(args, 'V'))
        }
        "crontab" => operands(args).last().is_none_or(|w| stdin(&w.value)),
        "gdb" => file_option(&["-x"], &["--command", "-command"]),
        "m4" | "tclsh" | "wish" | "expect" | "guile" | "jshell" | "irb" | "julia" | "gnuplot"
        | "osascript" | "pwsh" | "powershell" | "sqlite3" | "psql" | "mysql" | "mariadb" | "R"
        | "Rscript" | "ed" | "ex" | "dc" => {
            operands(args).len()
                <= usize::from(matches!(
                    verb,
                    "sqlite3" | "psql" | "mysql" | "mariadb" | "ed" | "ex"
                ))
                || operands(args).iter().any(|w| stdin(&w.value))
        }
        _ => false,
    }
}
