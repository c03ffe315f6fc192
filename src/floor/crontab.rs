//! The crontab floor: `crontab -r`, and a crontab replaced by an empty
//! file or an empty pipeline, which deletes every job as surely.

use super::words::{has_short, operands};
use super::{Invocation, push_once};
use crate::feeds::{self, Producer};
use crate::rules::FloorRule;
use crate::shell::{SimpleCommand, Stdin, Word};

/// `crontab -r`, and a crontab replaced by an empty file, which deletes
/// every job as surely (`crontab /dev/null`, `echo | crontab -`).
pub(super) fn check_crontab(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    if has_short(inv.args, 'r') {
        push_once(hits, FloorRule::CronRemove);
        return;
    }
    let ops: Vec<&Word> = operands(inv.args);
    let lists = has_short(inv.args, 'l') || has_short(inv.args, 'e') || has_short(inv.args, 'T');
    if lists {
        return;
    }
    let from_stdin = match ops.last() {
        None => true,
        Some(w) if w.value == "-" || crate::feeds::is_stdin_device(&w.value) => true,
        Some(w) => {
            if is_empty_file(&w.value) {
                push_once(hits, FloorRule::CronRemove);
            }
            false
        }
    };
    if from_stdin && let Some((script, command)) = inv.site {
        let empty = match &command.stdin {
            Stdin::File(f) => is_empty_file(&f.value),
            Stdin::Pipe(range) => {
                script
                    .commands
                    .get(range.clone())
                    .unwrap_or(&[])
                    .iter()
                    .all(prints_nothing)
                    || matches!(feeds::stdin_producer(script, command), Producer::Literal(t) if is_blank_crontab(&t))
            }
            _ => {
                matches!(feeds::stdin_producer(script, command), Producer::Literal(t) if is_blank_crontab(&t))
            }
        };
        if empty {
            push_once(hits, FloorRule::CronRemove);
        }
    }
}

/// Files that are always empty when read.
fn is_empty_file(path: &str) -> bool {
    matches!(path, "/dev/null" | "/dev/zero" | "/dev/full")
}

/// Crontab text with no job: blank lines and comments only.
fn is_blank_crontab(text: &str) -> bool {
    text.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || l.starts_with('#')
    })
}

/// A pipeline stage that prints nothing: `:`, `true`, `false`, `echo -n`,
/// `printf ''`, `cat /dev/null`.
fn prints_nothing(command: &SimpleCommand) -> bool {
    let (verb, words) = feeds::producer_verb(&command.words);
    let args: Vec<&str> = words.iter().skip(1).map(|w| w.value.as_str()).collect();
    match verb.as_str() {
        ":" | "true" | "false" => true,
        "cat" => !args.is_empty() && args.iter().all(|a| is_empty_file(a)),
        "echo" | "printf" if words.iter().all(|w| !w.dynamic) => {
            let out = if verb == "echo" {
                feeds::echo_output(&args)
            } else {
                feeds::printf_output(&args)
            };
            out.is_some_and(|t| is_blank_crontab(&t))
        }
        _ => false,
    }
}
