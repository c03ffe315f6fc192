//! Git floors: history and work-tree destruction (force pushes to the
//! shared branches, settings that make a push force, `reset --hard`,
//! `clean -fdx`, checkouts over the whole tree, …).

use super::Invocation;
use super::words::{git_value_letters, has_long, has_short, operands, options, short_letters};
use crate::rules::FloorRule;
use crate::shell::Word;

pub(super) fn check_git(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let args = inv.args;
    let globals = crate::git::read(args);
    if globals
        .settings
        .iter()
        .any(|s| s.key.eq_ignore_ascii_case("core.hookspath"))
    {
        hits.push(FloorRule::GitHooksPath);
    }
    // `--config-env=KEY=ENVVAR`: the value is only known at run time, so
    // it may be a `+` refspec.
    let forced_by_config = globals
        .settings
        .iter()
        .any(|s| forces_push(&s.key, s.value.as_deref().unwrap_or("+")));
    let Some(i) = globals.sub else { return };
    let Some(sub) = args.get(i) else { return };
    let rest = args.get(i + 1..).unwrap_or(&[]);
    let long = |name: &str| has_long(rest, name, true);
    let letters = short_letters(rest, git_value_letters(&sub.value));
    let short = |c: char| letters.contains(&c);
    match sub.value.as_str() {
        "reset" if long("--hard") => {
            hits.push(FloorRule::GitResetHard);
        }
        "clean" => {
            let force = short('f') || long("--force");
            let dry = short('n') || long("--dry-run");
            if force && !dry {
                hits.push(FloorRule::GitCleanForce);
            }
        }
        "checkout" => {
            let creates = short('b') || short('B') || long("--orphan");
            if !creates && (short('f') || long("--force") || pathspec_is_whole_tree(rest)) {
                hits.push(FloorRule::GitDiscard);
            }
        }
        "restore" => {
            let staged = short('S') || long("--staged");
            let worktree = short('W') || long("--worktree");
            if (!staged || worktree) && pathspec_is_whole_tree(rest) {
                hits.push(FloorRule::GitDiscard);
            }
        }
        "switch" if (long("--discard-changes") || short('f') || long("--force")) => {
            hits.push(FloorRule::GitDiscard);
        }
        "push" => {
            check_git_push(rest, hits);
            if forced_by_config && !hits.contains(&FloorRule::GitForcePush) {
                hits.push(FloorRule::GitForcePush);
            }
        }
        "branch" => {
            let force_delete = rest.iter().any(|w| w.value == "-D")
                || (short('D'))
                || ((short('d') || long("--delete")) && (short('f') || long("--force")));
            if force_delete {
                hits.push(FloorRule::GitBranchForceDelete);
            }
        }
        "stash"
            if rest
                .iter()
                .find(|w| !w.value.starts_with('-'))
                .is_some_and(|w| matches!(w.value.as_str(), "drop" | "clear")) =>
        {
            hits.push(FloorRule::GitStashDestroy);
        }
        "commit" if (long("--no-verify") || short('n')) => {
            hits.push(FloorRule::GitNoVerify);
        }
        "merge" | "rebase" | "am" | "cherry-pick" | "revert" | "pull" if long("--no-verify") => {
            hits.push(FloorRule::GitNoVerify);
        }
        "config" => {
            let reads = long("--get")
                || long("--get-all")
                || long("--get-regexp")
                || long("--list")
                || short('l');
            let names_hooks = rest
                .iter()
                .any(|w| w.value.eq_ignore_ascii_case("core.hookspath"));
            let sets_via_sub = rest
                .first()
                .is_some_and(|w| matches!(w.value.as_str(), "set" | "unset"));
            // `git config remote.origin.mirror true`: every later push
            // forces; so does a `+` refspec in remote.*.push.
            let values: Vec<&str> = operands(rest)
                .iter()
                .map(|w| w.value.as_str())
                .filter(|v| !matches!(*v, "set" | "--add"))
                .collect();
            if !reads
                && let [key, value, ..] = values.as_slice()
                && forces_push(key, value)
            {
                hits.push(FloorRule::GitForcePush);
            }
            if names_hooks && (!reads || sets_via_sub) {
                let only_key = operands(rest).len() == 1
                    && !long("--unset")
                    && !long("--unset-all")
                    && !sets_via_sub;
                if !only_key {
                    hits.push(FloorRule::GitHooksPath);
                }
            }
        }
        "filter-branch" | "filter-repo" => hits.push(FloorRule::GitHistoryRewrite),
        _ => {}
    }
}

/// A git setting that makes `git push` force: `remote.NAME.mirror` on,
/// or a `+` refspec in `remote.NAME.push`.
pub(super) fn forces_push(key: &str, value: &str) -> bool {
    let key = key.to_ascii_lowercase();
    let Some(rest) = key.strip_prefix("remote.") else {
        return false;
    };
    let truthy = matches!(
        value.to_ascii_lowercase().as_str(),
        "true" | "yes" | "on" | "1" | "" | "+"
    );
    rest.ends_with(".mirror") && truthy || rest.ends_with(".push") && value.starts_with('+')
}

/// Branch names treated as the shared default branch.
const DEFAULT_BRANCHES: &[&str] = &["main", "master", "trunk", "develop", "HEAD"];

fn check_git_push(rest: &[Word], hits: &mut Vec<FloorRule>) {
    let long = |name: &str| has_long(rest, name, true);
    if long("--no-verify") {
        hits.push(FloorRule::GitNoVerify);
    }
    let refspecs: Vec<&str> = operands(rest)
        .iter()
        .skip(1)
        .map(|w| w.value.as_str())
        .collect();
    let exact_force = rest.iter().any(|w| {
        let v = w.value.as_str();
        v == "--force"
            || v.starts_with("--force=")
            || (!v.starts_with("--") && v.starts_with('-') && v[1..].contains('f'))
    });
    let plus_refspec = refspecs.iter().any(|r| r.starts_with('+'));
    // `--force-w` is git's abbreviation of `--force-with-lease`.
    let lease = options(rest).any(|o| {
        let name = o.split('=').next().unwrap_or(o);
        (name.len() > "--force-".len()
            && ("--force-with-lease".starts_with(name) || "--force-if-includes".starts_with(name)))
            || o.starts_with("--force-with-lease")
            || o.starts_with("--force-if-includes")
    });
    let abbreviated_force = !lease && long("--force");
    if exact_force || plus_refspec || abbreviated_force || long("--mirror") {
        hits.push(FloorRule::GitForcePush);
    } else if lease {
        // Documented choice: --force-with-lease refuses to overwrite work it
        // has not seen, so it is SIGNED (a publish), unless a refspec names
        // a default branch, which is shared by everyone: then BLOCKED.
        let to_default = refspecs.iter().any(|r| {
            let dst = r
                .rsplit(':')
                .next()
                .unwrap_or(r)
                .trim_start_matches("refs/heads/");
            DEFAULT_BRANCHES.contains(&dst)
        });
        if to_default {
            hits.push(FloorRule::GitForcePush);
        }
    }
    if long("--delete")
        || has_short(rest, 'd')
        || long("--prune")
        || refspecs.iter().any(|r| r.starts_with(':') && r.len() > 1)
    {
        hits.push(FloorRule::GitPushDelete);
    }
}

/// A pathspec that covers the whole work tree (or the current folder).
fn pathspec_is_whole_tree(rest: &[Word]) -> bool {
    operands(rest).iter().any(|w| {
        w.glob && w.value == "*"
            || matches!(
                w.value.as_str(),
                "." | "./" | ":/" | ":/." | ":/*" | ":(top)" | ".." | "../" | "*" | ":"
            )
    })
}
