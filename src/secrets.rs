//! Secrets read into the model's context: files of credentials, by family
//! (private keys, cloud and tool credentials, `/etc/shadow`,
//! `/proc/*/environ` …), named by a command directly, through `cd`, a glob
//! or a recursive search over a folder that holds them, and commands that
//! print them (`env`, `kubectl get secrets`, `ps e`, `gh auth token`).
//! Takes a peeled verb, its arguments and where it runs; returns why the
//! command reads secrets. Also judges Claude Code's `Read` and `Grep`
//! requests. Writing those files is the path law's business, not this
//! module's.
#![deny(clippy::indexing_slicing)]

mod families;
mod variables;

pub use variables::{MAX_HELD_TRIES, through_variables};

use crate::feeds::{Fed, Listed};
use crate::law::glob::{Pattern, Quick, Tok, intersects};
use crate::paths::Location;
use crate::shell::Word;
use families::{HOME_SECRETS, NOT_SECRET, SECRET_FOLDERS, SYSTEM_SECRETS};
use std::borrow::Cow;
use std::path::Path;
use std::sync::OnceLock;

/// The compiled families: patterns matched at any depth (for a path a
/// command names) and the `NOT_SECRET` names. Built by build.rs from the
/// globs of [`families::Globs`] (the test `compiled_ahead_as_at_run_time`
/// holds them equal to compiling those at run time).
#[derive(Debug, PartialEq)]
struct Families {
    /// Every credential family, as `(pattern, quick form, a text every
    /// path it covers holds)`.
    anywhere: &'static [(Pattern, Option<Quick>, &'static str)],
    /// The families a glob is judged by without listing its folder: those
    /// under a folder of their own (`**/.aws`, `/etc/shadow`) and hidden
    /// names (`**/.env`), which bash's `*` never makes up.
    pinned: &'static [Pattern],
    /// The families of keys by name (`**/id_rsa*`, `**/*.pem`): any `*`
    /// could make one up, so a glob meets them only when its last part
    /// names a key (`*.pem`, `id_*`) or its folder holds one now.
    keys: &'static [Pattern],
    /// Folders of credentials at any depth.
    folders: &'static [Pattern],
    /// Names excepted.
    except: &'static [Pattern],
}

// FAMILIES, compiled by build.rs (`secret_families`).
include!(concat!(env!("OUT_DIR"), "/secret_families.rs"));

/// The families.
fn families() -> &'static Families {
    &FAMILIES
}

/// A path through `/proc/PID/root/` (the file system as that process sees
/// it, the same one here) without that prefix, repeatedly.
fn without_proc_root(path: &str) -> &str {
    let mut path = path;
    while let Some(rest) = path.strip_prefix("/proc/") {
        let Some((_, after)) = rest.split_once('/') else {
            break;
        };
        match after.strip_prefix("root/") {
            Some(inner) => path = &path[path.len() - inner.len() - 1..],
            None => break,
        }
    }
    path
}

/// Whether a literal path's last part is one of the `NOT_SECRET` names.
fn excepted(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    families().except.iter().any(|p| p.matches(name))
}

/// Whether a literal path (absolute, or as written: `~/.ssh/id_rsa`,
/// `app/.env`) names a file of credentials or something inside one.
/// Letters are compared ASCII case-insensitively (case-insensitive file
/// systems open `.ENV` as `.env`).
pub fn is_secret(path: &str) -> bool {
    let path = without_proc_root(path);
    if !maybe_secret(path) {
        return false;
    }
    let lower = path.to_ascii_lowercase();
    let hit = families()
        .anywhere
        .iter()
        .filter(|(_, _, needed)| lower.contains(needed))
        .any(|(pattern, quick, _)| match quick {
            Some(quick) => quick.covers(path),
            None => pattern.covers_path(path),
        });
    hit && !excepted(path)
}

/// The extensions of `NAMED_SECRETS` (for the first look below).
const KEY_EXTENSIONS: &[&str] = &[".pem", ".key", ".p12", ".pfx", ".ppk"];

/// A cheap first look: every family needs a part starting with `.` or
/// `id_`, a key's extension, or a system folder.
fn maybe_secret(path: &str) -> bool {
    let bytes = path.as_bytes();
    let lower_starts = |prefix: &str| {
        path.get(..prefix.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(prefix))
    };
    lower_starts("/etc/")
        || lower_starts("/proc/")
        || lower_starts("/run/")
        || lower_starts("/var/run/")
        || bytes.first() == Some(&b'.')
        || bytes.windows(2).any(|w| w == b"/.")
        || path.split('/').any(|segment| {
            let ends = |suffix: &str| {
                segment.len() >= suffix.len()
                    && segment
                        .get(segment.len() - suffix.len()..)
                        .is_some_and(|t| t.eq_ignore_ascii_case(suffix))
            };
            segment
                .get(..3)
                .is_some_and(|h| h.eq_ignore_ascii_case("id_"))
                || KEY_EXTENSIONS.iter().any(|e| ends(e))
        })
}

/// Whether a glob pattern (absolute, as bash expands it) could name a
/// file of credentials. `last` is the glob's last part as written.
fn glob_is_secret(pattern: &Pattern, last: &str) -> bool {
    let families = families();
    let meets =
        |family: &Pattern| intersects(family, pattern) || intersects(&family.beneath(), pattern);
    let lower = last.to_ascii_lowercase();
    let names_key = lower.starts_with("id_") || KEY_EXTENSIONS.iter().any(|e| lower.ends_with(e));
    let hit = families.pinned.iter().any(meets) || names_key && families.keys.iter().any(meets);
    let all_excepted = NOT_SECRET.iter().any(|e| {
        e.strip_prefix('*')
            .is_some_and(|suffix| last.ends_with(suffix) && !suffix.contains(['*', '?', '[']))
    });
    hit && !all_excepted
}

/// Entries of a folder looked at, at most, for what a glob matches now.
const MAX_LISTED: usize = 1000;

/// Whether a glob whose wildcards are all in its last part matches a file
/// of credentials in its folder on disk now (`cat *` next to `server.key`).
/// A folder that does not exist matches nothing.
fn glob_lists_secret(pattern: &Pattern) -> bool {
    let prefix = pattern.literal_prefix();
    let Some((folder, _)) = prefix.rsplit_once('/') else {
        return false;
    };
    let folder = if folder.is_empty() { "/" } else { folder };
    let Ok(entries) = std::fs::read_dir(folder) else {
        return false;
    };
    entries.flatten().take(MAX_LISTED).any(|entry| {
        let path = entry.path();
        let path = path.to_string_lossy();
        pattern.matches(&path) && is_secret(&path)
    })
}

/// Whether a path names a folder of credentials itself (`~/.ssh`, not
/// `~/.ssh/config`).
pub fn is_secret_folder(path: &str) -> bool {
    let trimmed = path.trim_end_matches('/');
    // Every folder family is `**/` and a literal tail: a path it matches
    // ends with that tail (letters in any case), which is cheap to look
    // for first; the pattern then decides.
    let ends_with_tail = |tail: &str| {
        trimmed.len() >= tail.len()
            && trimmed
                .get(trimmed.len() - tail.len()..)
                .is_some_and(|end| end.eq_ignore_ascii_case(tail))
    };
    // The families are compiled only when a tail is there.
    SECRET_FOLDERS.iter().enumerate().any(|(at, written)| {
        written.strip_prefix("**/").is_none_or(&ends_with_tail)
            && families()
                .folders
                .get(at)
                .is_some_and(|folder| folder.matches(trimmed))
    })
}

/// Whether a folder searched recursively holds credentials: the home
/// folder or a folder above it, a folder above a credential file of the
/// home folder (`~/.config`, `~/.cargo`) or of the system (`/etc`,
/// `/proc`), or anything inside one. `root` is absolute (a glob as bash
/// expands it).
fn holds_secrets(root: &Pattern, home: Option<&Path>) -> bool {
    let below = root.beneath();
    let anchored = |family: &Anchor| {
        intersects(&family.family, root)
            || intersects(&family.family, &below)
            || intersects(&family.beneath, root)
    };
    if let Some(home) = home {
        let home = home.to_string_lossy();
        if with_home_anchors(home.trim_end_matches('/'), |anchors| {
            anchors.iter().any(anchored)
        }) {
            return true;
        }
    }
    system_anchors().iter().any(anchored)
}

/// A family of credentials and everything beneath it, compiled once.
struct Anchor {
    family: Pattern,
    beneath: Pattern,
}

impl Anchor {
    fn new(glob: &str) -> Anchor {
        let family = Pattern::glob(glob);
        let beneath = family.beneath();
        Anchor { family, beneath }
    }
}

/// `SYSTEM_SECRETS`, compiled once per process.
fn system_anchors() -> &'static [Anchor] {
    static ANCHORS: OnceLock<Vec<Anchor>> = OnceLock::new();
    ANCHORS.get_or_init(|| SYSTEM_SECRETS.iter().map(|p| Anchor::new(p)).collect())
}

/// Calls `f` with `HOME_SECRETS` under `home`, compiled once per thread for
/// the last home folder asked for (a run has one).
fn with_home_anchors<T>(home: &str, f: impl FnOnce(&[Anchor]) -> T) -> T {
    use std::cell::RefCell;
    thread_local! {
        static HOME_ANCHORS: RefCell<(String, Vec<Anchor>)> = const {
            RefCell::new((String::new(), Vec::new()))
        };
    }
    HOME_ANCHORS.with(|cell| {
        let mut cached = cell.borrow_mut();
        if cached.0 != home || cached.1.is_empty() {
            let anchors = HOME_SECRETS
                .iter()
                .map(|p| Anchor::new(&format!("{home}/{p}")))
                .collect();
            *cached = (home.to_string(), anchors);
        }
        f(&cached.1)
    })
}

/// The pattern of an absolute path (a glob as bash expands it) without a
/// trailing `/`: `/` is the empty pattern, beneath which is everything.
fn folder_pattern(path: &str, glob: bool) -> Pattern {
    let path = path.trim_end_matches('/');
    if glob {
        Pattern::shell_glob(path)
    } else {
        Pattern::literal(path)
    }
}

/// One path a command names, resolved: absolute when it can be known.
struct Named {
    /// As written.
    raw: String,
    /// The absolute path or glob, when known.
    text: Option<String>,
    /// Whether `text` is a glob (as bash expands it).
    glob: bool,
}

impl Named {
    /// The absolute path, when it is a plain path.
    fn literal(&self) -> Option<&str> {
        self.text.as_deref().filter(|_| !self.glob)
    }

    /// The absolute pattern, when known: compiled only when asked for
    /// (most words are plain paths, judged without one).
    fn pattern(&self) -> Option<Pattern> {
        self.text.as_deref().map(|t| folder_pattern(t, self.glob))
    }
}

/// Resolves a word as a path in `cwd` (brace expansions each).
fn resolve(word: &Word, location: &Location, cwd: Option<&Path>) -> Vec<Named> {
    crate::floor::targets_of(word, location, cwd)
        .into_iter()
        .map(|target| Named {
            raw: target.raw,
            text: target
                .path
                .as_ref()
                .map(|p| without_proc_root(&p.to_string_lossy()).to_string()),
            glob: target.glob,
        })
        .collect()
}

/// Whether a resolved path names credentials (a file, or a folder of
/// them).
fn names_secret(named: &Named) -> bool {
    if is_secret(&named.raw) || is_secret_folder(&named.raw) {
        return true;
    }
    if let Some(path) = named.literal() {
        return is_secret(path) || is_secret_folder(path);
    }
    if named.text.is_none() {
        return false;
    }
    // A glob too long to match cheaply could name anything, and so could
    // one past the request's budget of matches.
    if named.raw.len() > MAX_GLOB || !take_glob_match() {
        return true;
    }
    named.pattern().is_some_and(|pattern| {
        let last = named.raw.rsplit('/').next().unwrap_or(&named.raw);
        glob_is_secret(&pattern, last)
            || families().folders.iter().any(|f| intersects(f, &pattern))
            || glob_lists_secret(&pattern)
    })
}

/// A glob or recursive root longer than this is not matched: it is taken
/// to reach credentials (matching costs its length times each family's).
const MAX_GLOB: usize = 512;

/// Globs matched against the credential families in one request, at most.
/// One costs about 60 µs (two intersections with each family, and a look
/// at its folder), so 1 MiB of distinct globs (`cat a/*.1 a/*.2 …`) took
/// 6.3 s, past the 5 s some hosts give a hook before they run the command
/// anyway. Past the budget a glob is taken to reach credentials, as a
/// glob past [`MAX_GLOB`] is.
const MAX_GLOBS_MATCHED: usize = 4096;

thread_local! {
    /// Globs the request being judged on this thread may still match
    /// (see [`MAX_GLOBS_MATCHED`]); set again by [`start_request`].
    static GLOBS_LEFT: std::cell::Cell<usize> = const { std::cell::Cell::new(MAX_GLOBS_MATCHED) };
    /// Whether a glob of that request has been refused a match.
    static GLOBS_REFUSED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Gives the request about to be judged on this thread its full budget of
/// glob matches (the engine calls it once per request).
pub fn start_request() {
    GLOBS_LEFT.with(|left| left.set(MAX_GLOBS_MATCHED));
    GLOBS_REFUSED.with(|refused| refused.set(false));
}

/// Why reading `what` (a path or glob [`names_secret`] took) reads secrets.
fn holds_secrets_reason(what: &str) -> String {
    let glob = what.contains(['*', '?', '[']);
    if glob && GLOBS_REFUSED.with(std::cell::Cell::get) {
        format!(
            "reads {what}, a glob past the {MAX_GLOBS_MATCHED} this request may match against credentials, so it could name any"
        )
    } else {
        format!("reads {what}, which holds secrets")
    }
}

/// Takes one glob match from the request's budget; `false` when none is left.
fn take_glob_match() -> bool {
    let taken = GLOBS_LEFT.with(|left| {
        let now = left.get();
        left.set(now.saturating_sub(1));
        now > 0
    });
    if !taken {
        GLOBS_REFUSED.with(|refused| refused.set(true));
    }
    taken
}

/// Verbs that show no file's content: names, sizes, existence, or a
/// change the path law judges as a write; and verbs whose operands name
/// no file at all (processes, users, numbers, hosts), so that `kill
/// $(pgrep x)` and `pgrep x | xargs kill` are not judged as reading one.
#[rustfmt::skip]
const NO_CONTENT: &[&str] = &[
    "ls", "stat", "echo", "printf", "du", "tree", "file", "cd", "mkdir", "test", "[", "[[",
    "touch", "rm", "rmdir", "unlink", "shred", "truncate", "mv", "ln", "chmod", "chown",
    "chgrp", "realpath", "readlink", "basename", "dirname", "wc",
    "kill", "pkill", "killall", "renice", "id", "groups", "pstree", "expr", "seq", "sleep",
    "ping", "ping6", "dig", "host", "nslookup", "true", "false",
];

/// Verbs that search or pack every file under a folder they are given.
#[rustfmt::skip]
const RECURSIVE_READERS: &[&str] = &[
    "rg", "ag", "ack", "ack-grep", "ugrep", "ug", "pt", "sift", "rgrep", "tar", "bsdtar", "gtar",
    "zip", "7z", "7za", "7zz", "rar", "pax",
];

/// Verbs that read every file under a folder when given a recursion flag.
const RECURSIVE_WITH_FLAG: &[&str] = &[
    "grep", "egrep", "fgrep", "cp", "rsync", "scp", "diff", "gcp",
];

/// Whether `verb args` reads whole folders, not just files.
fn reads_recursively(verb: &str, args: &[Word]) -> bool {
    if RECURSIVE_READERS.contains(&verb) {
        return true;
    }
    if verb == "find" {
        // Names only, unless an action runs a command that shows content
        // (`-exec cat {} +`, not `-exec ls -ld {} +`).
        let mut words = args.iter().map(|w| w.value.as_str());
        while let Some(word) = words.next() {
            if matches!(word, "-exec" | "-execdir" | "-ok" | "-okdir")
                && words.next().is_none_or(|inner| {
                    let inner = inner.rsplit('/').next().unwrap_or(inner);
                    !NO_CONTENT.contains(&inner)
                })
            {
                return true;
            }
        }
        return false;
    }
    if verb == "git" {
        return args.iter().any(|w| w.value == "grep")
            && args.iter().any(|w| w.value == "--no-index");
    }
    if !RECURSIVE_WITH_FLAG.contains(&verb) {
        return false;
    }
    let archive = matches!(verb, "cp" | "gcp" | "rsync");
    let mut words = args.iter().map(|w| w.value.as_str()).peekable();
    while let Some(word) = words.next() {
        if word == "--" {
            break;
        }
        if let Some(long) = word.strip_prefix("--") {
            let hit = matches!(
                long,
                "recursive" | "dereference-recursive" | "directories=recurse"
            ) || archive && long == "archive";
            if hit {
                return true;
            }
            if long == "directories" && words.peek() == Some(&"recurse") {
                return true;
            }
        } else if let Some(cluster) = word.strip_prefix('-') {
            if cluster.contains(['r', 'R']) || archive && cluster.contains('a') {
                return true;
            }
            if cluster.ends_with('d') && words.peek() == Some(&"recurse") {
                return true;
            }
        }
    }
    false
}

/// Options of `git log` that show commits, names and counts, never a
/// file's content (`-p`, `-L`, `-S` and the rest are not here).
const LOG_NAMES_ONLY: &[&str] = &[
    "--oneline",
    "--stat",
    "--name-only",
    "--name-status",
    "--shortstat",
    "--numstat",
    "--summary",
    "--follow",
    "--all",
    "--graph",
    "--decorate",
    "--no-decorate",
    "--abbrev-commit",
    "--no-merges",
    "--merges",
    "--first-parent",
    "--reverse",
    "--since",
    "--until",
    "--after",
    "--before",
    "--author",
    "--committer",
    "--date",
    "--pretty",
    "--format",
    "-n",
    "--max-count",
    "--skip",
    "--grep",
    "-i",
    "--color",
    "--no-color",
    "--relative-date",
    "--no-pager",
    "-1",
];

/// `git log -- .env`, `git log --oneline .env`: the commits that touched a
/// path, no file content. Only with options of [`LOG_NAMES_ONLY`] (and
/// `-NUM`), and no `REV:PATH` word (which names a file's content).
fn git_log_without_content(args: &[Word]) -> bool {
    let mut words = args.iter().map(|w| w.value.as_str());
    loop {
        match words.next() {
            Some("-C" | "-c") => {
                words.next();
            }
            Some("--no-pager" | "-P" | "--no-optional-locks") => {}
            Some("log" | "shortlog") => break,
            _ => return false,
        }
    }
    words.all(|word| {
        if word == "--" {
            return true;
        }
        if let Some(digits) = word.strip_prefix('-')
            && !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
        {
            return true;
        }
        if word.starts_with('-') {
            let name = word.split_once('=').map_or(word, |(name, _)| name);
            return LOG_NAMES_ONLY.contains(&name);
        }
        !word.contains(':')
    })
}

/// Why `verb args` reads secrets, if it does. `location` and `cwd` resolve
/// the paths it names (`cd ~/.aws && cat credentials`).
pub fn secret_read<'a>(
    verb: &str,
    args: &'a [Word],
    listed: Option<&Listed>,
    location: &Location,
    cwd: Option<&Path>,
) -> Option<String> {
    // `$(< file)` is read by the shell itself, whatever the verb.
    for word in args {
        for file in shell_reads(&word.value) {
            // `find ~ | while read f; do echo "$(<$f)"; done`.
            if file.dynamic
                && let Some(why) = listed.and_then(|l| listed_secret(l, location, cwd))
            {
                return Some(why);
            }
            for path in resolve(&file, location, cwd) {
                if names_secret(&path) {
                    return Some(holds_secrets_reason(&file.value));
                }
            }
        }
    }
    if verb == ASSIGNMENT || verb == "git" && git_log_without_content(args) {
        return None;
    }
    let no_content = NO_CONTENT.contains(&verb);
    // `cp`, `install`: the last operand (or `-t DIR`) is written, not read.
    let operands: Vec<&Word> = args.iter().filter(|w| !w.value.starts_with('-')).collect();
    let read_operands: &[&Word] = match verb {
        "cp" | "install" | "rsync" | "scp"
            if !args.iter().any(|w| {
                w.value.starts_with("-t") || w.value.starts_with("--target-directory")
            }) =>
        {
            operands
                .split_last()
                .map(|(_, init)| init)
                .unwrap_or_default()
        }
        _ => &operands,
    };
    if !no_content {
        // `git show HEAD:.env`, `dd if=.env`, `--file=.env`: the path after
        // `:`, `if=` or `=`.
        // A word is copied only when the path is a part of it.
        let named = |w: &'a Word| -> Cow<'a, Word> {
            let (path, tilde) = if let Some(path) = w.value.strip_prefix("if=") {
                (path, path.starts_with('~'))
            } else if let Some(path) = file_url(&w.value) {
                // `aws … --filters file://.env` reads the file and sends
                // it (and prints it back in the error it makes).
                (path, path.starts_with('~'))
            } else if verb == "git"
                && let Some((_, path)) = w.value.split_once(':')
            {
                (path, false)
            } else {
                return Cow::Borrowed(w);
            };
            let mut inner = w.clone();
            inner.value = path.to_string();
            inner.tilde = tilde;
            Cow::Owned(inner)
        };
        let option_values = args.iter().filter_map(|w| {
            let (option, value) = w.value.split_once('=')?;
            (option.starts_with("--") && !value.is_empty()).then(|| {
                let mut inner = w.clone();
                let value = file_url(value).unwrap_or(value);
                inner.value = value.to_string();
                inner.tilde = value.starts_with('~');
                Cow::Owned(inner)
            })
        });
        // A file named by a command's output (`cat $(echo /etc/shadow)`) is
        // only known when the command runs: it could be any file. A search
        // verb's first operand is its pattern, and git's are revisions.
        let searches = matches!(
            verb,
            "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack" | "ugrep"
        );
        let skip = usize::from(searches);
        let declares = matches!(
            verb,
            "git" | "export" | "declare" | "typeset" | "local" | "readonly" | "alias"
        );
        let named_by_output = read_operands.iter().skip(skip).filter(|w| {
            // `<(sort a)` is a pipe the inner command writes (judged on
            // its own), not a file named by output.
            !declares
                && w.substitution
                && !w.value.starts_with("<(")
                && !w.value.starts_with(">(")
                && !is_assignment(&w.value)
                && !names_known_place(&w.value)
        });
        for word in named_by_output {
            // `grep x $(find src -name '*.py')`: the names a lister prints
            // lie under its folders; anything else may name any file.
            let why = match crate::feeds::substitution_names(word) {
                Some(fed) => output_secret(&fed, location, cwd),
                None => Some(String::new()),
            };
            match why {
                Some(why) if why.is_empty() => {
                    return Some(format!(
                        "reads {}, a file named only when the command runs, which could hold secrets",
                        crate::limits::clip(&word.value, 80)
                    ));
                }
                Some(why) => {
                    return Some(format!(
                        "{why}, named by {}",
                        crate::limits::clip(&word.value, 80)
                    ));
                }
                None => {}
            }
        }
        // `git log -L1,5:.env`: the file after the last `:`.
        let line_ranges = args.iter().filter(|_| verb == "git").filter_map(|w| {
            let (_, path) = w.value.strip_prefix("-L")?.rsplit_once(':')?;
            let mut inner = w.clone();
            inner.value = path.to_string();
            inner.tilde = false;
            Some(Cow::Owned(inner))
        });
        let words = read_operands
            .iter()
            .map(|w| named(w))
            .chain(option_values)
            .chain(line_ranges);
        for word in words {
            for path in resolve(&word, location, cwd) {
                if names_secret(&path) {
                    return Some(holds_secrets_reason(&word.value));
                }
            }
        }
        // `cat ~/.ssh/$KEY`, `xargs -I{} cat ~/.ssh/{}`: a name only run
        // time knows (it may hold `/`) may be any file under the folder
        // written before it. A search verb's pattern is no file.
        for word in read_operands.iter().skip(skip) {
            let Some(folder) = folder_before_unknown(word) else {
                continue;
            };
            if let Some(root) = under_secrets(&folder, location, cwd) {
                return Some(format!(
                    "reads {}, a file named only when the command runs, under {root}, which holds credentials",
                    crate::limits::clip(&word.value, 80)
                ));
            }
        }
        // `find ~ | xargs cat`, `find ~ | xargs sh -c 'cat "$1"' _`: the
        // names xargs hands on lie under the folders the lister was given.
        if let Some(listed) = listed
            && read_operands.iter().skip(skip).any(|w| w.dynamic)
            && let Some(why) = listed_secret(listed, location, cwd)
        {
            return Some(why);
        }
    }
    if reads_recursively(verb, args)
        && let Some(root) = recursive_root(verb, read_operands, location, cwd)
    {
        return Some(format!(
            "reads every file under {root}, credentials among them"
        ));
    }
    if verb == "ps" && ps_shows_environment(args) {
        return Some("`ps e` prints the environment of every process".to_string());
    }
    if verb == "kubectl" {
        let words: Vec<&str> = args.iter().map(|w| w.value.as_str()).collect();
        // Resource names are read in any case and listed with commas
        // (`Secret`, `pods,secrets`, `secrets/db`, `secret.v1`); `--raw`
        // reads any API path.
        let names_secrets = |w: &&str| {
            w.to_ascii_lowercase()
                .split([',', '/'])
                .any(|part| part.starts_with("secret"))
        };
        if let Some(at) = words.iter().position(|w| *w == "get" || *w == "describe")
            && words.iter().skip(at + 1).any(names_secrets)
        {
            return Some("prints Kubernetes secrets".to_string());
        }
        if words.contains(&"config")
            && words.contains(&"view")
            && words.iter().any(|w| *w == "--raw" || *w == "--flatten")
        {
            return Some("prints the Kubernetes configuration with its credentials".to_string());
        }
    }
    if let Some(command) = secret_command(verb, args) {
        return Some(format!("`{command}` prints credentials"));
    }
    if crate::programs::query_reads_environment(verb, args) {
        return Some(format!(
            "`{verb}` reads the environment (env, $ENV), secrets included"
        ));
    }
    let only_flags = args.iter().all(|w| w.value.starts_with('-'));
    let dumps_environment = match verb {
        "printenv" | "env" | "set" => args.is_empty(),
        "export" | "declare" | "typeset" => {
            only_flags
                && args
                    .iter()
                    .all(|w| matches!(w.value.as_str(), "-p" | "-x" | "-px" | "-xp"))
        }
        _ => false,
    };
    dumps_environment
        .then(|| format!("`{verb}` prints every environment variable, secrets included"))
}

/// The path of a `file://PATH` or `fileb://PATH` value (the AWS CLI reads
/// such a parameter from the file).
fn file_url(value: &str) -> Option<&str> {
    value
        .strip_prefix("file://")
        .or_else(|| value.strip_prefix("fileb://"))
        .filter(|path| !path.is_empty())
}

/// Whether a word is `NAME=value`.
fn is_assignment(value: &str) -> bool {
    value.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// Substitutions whose output is a program's or the project's place, not
/// a file of the command's choosing.
#[rustfmt::skip]
const KNOWN_PLACES: &[&str] = &[
    "pwd", "git rev-parse --show-toplevel", "git rev-parse --git-dir",
    "git rev-parse --git-common-dir",
];

/// Whether every `$( )` in a word prints a known place (`$(pwd)`, `$(which
/// pytest)`, `$(command -v node)`) and the word has no backticks.
fn names_known_place(value: &str) -> bool {
    if value.contains('`') {
        return false;
    }
    let mut rest = value;
    let mut any = false;
    while let Some(at) = rest.find("$(") {
        let inner = &rest[at + 2..];
        let Some(end) = inner.find(')') else {
            return false;
        };
        let command = inner[..end].trim();
        let program = ["which ", "command -v ", "type -P ", "type -p "]
            .iter()
            .find_map(|p| command.strip_prefix(p))
            .is_some_and(|name| {
                let name = name.trim();
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c))
            });
        if !(program || KNOWN_PLACES.contains(&command)) {
            return false;
        }
        any = true;
        rest = &inner[end + 1..];
    }
    any
}

/// Calls with which a program given on the command line opens a file by
/// a name it computes (Python, Node, Perl, Ruby, awk).
#[rustfmt::skip]
const OPENS_FILES: &[&str] = &[
    "open(", "open ", "read_text", "read_bytes", "fileinput", "readFile", "createReadStream",
    "File.read", "IO.read", "getline", "slurp", "<$",
];

/// Interpreters whose code, given on the command line, may read the names
/// its stdin holds and open them.
#[rustfmt::skip]
const NAME_READERS: &[&str] = &[
    "awk", "bun", "deno", "gawk", "mawk", "nawk", "node", "nodejs", "perl", "php", "pypy",
    "pypy3", "python", "python2", "python3", "ruby",
];

/// Whether `verb args` is an interpreter whose code, given on the
/// command line, opens files by names it computes: what it is fed on
/// stdin is then judged by [`stdin_names_opened`].
pub fn opens_computed_names(verb: &str, args: &[Word]) -> bool {
    NAME_READERS.contains(&verb)
        && args
            .iter()
            .any(|w| OPENS_FILES.iter().any(|call| w.value.contains(call)))
}

/// Why `verb`, an interpreter that [`opens_computed_names`], may read
/// secrets named on its stdin (`echo
/// ~/.ssh/id_rsa | python3 -c 'print(open(input()).read())'`, `find ~ |
/// awk '{getline l < $0}'`): an interpreter whose code opens files by
/// computed names, fed names of credentials or names a lister prints
/// under a folder that holds them. Names the line does not bound are not
/// judged here (`cat list | python3 -c …` reads data more often than
/// names).
pub fn stdin_names_opened(
    verb: &str,
    fed: &Fed,
    location: &Location,
    cwd: Option<&Path>,
) -> Option<String> {
    for word in &fed.words {
        for path in resolve(word, location, cwd) {
            if names_secret(&path) {
                return Some(format!(
                    "`{verb}` opens files named on its stdin, which names {}, a file of secrets",
                    crate::limits::clip(&word.value, 80)
                ));
            }
        }
    }
    let roots = Listed {
        roots: fed.listed.roots.clone(),
        unbounded: None,
    };
    listed_secret(&roots, location, cwd)
        .map(|why| format!("`{verb}` opens files named on its stdin: it {why}"))
}

/// Whether [`secret_read`] reads what `verb`'s operands name as files
/// whose content it shows (not `ls`, `kill`, a variable's value).
pub fn reads_content(verb: &str) -> bool {
    verb != ASSIGNMENT && !NO_CONTENT.contains(&verb)
}

/// The verb [`secret_read`] is given for a variable's value (`x=$(< f)`):
/// only what the shell itself reads is judged.
pub const ASSIGNMENT: &str = "=";

/// The files a word reads through `$(< file)` (bash reads the file as the
/// substitution's output), as words.
fn shell_reads(value: &str) -> Vec<Word> {
    let mut files = Vec::new();
    let mut rest = value;
    while let Some(at) = rest.find("$(") {
        rest = &rest[at + 2..];
        let inner = rest.trim_start();
        let Some(after) = inner.strip_prefix('<') else {
            continue;
        };
        if after.starts_with(['<', '(']) {
            continue;
        }
        let after = after.trim_start();
        let end = after.find([')', ' ', '\t', '\n']).unwrap_or(after.len());
        let file = after[..end].trim_matches(['"', '\'']);
        if !file.is_empty() {
            let mut word = Word::literal(file);
            word.tilde = file.starts_with('~');
            word.dynamic = file.contains('$');
            files.push(word);
        }
    }
    files
}

/// The folder written before the part of a dynamic word only run time
/// knows (`~/.ssh/` of `~/.ssh/$KEY` or `~/.ssh/{}`), as a word of its
/// own; `None` for a word known whole or with no folder before the unknown.
fn folder_before_unknown(word: &Word) -> Option<Word> {
    // `/proc/$$/…` is the shell's own process, read by name above.
    let own_process = crate::paths::OWN_PROCESS
        .iter()
        .any(|p| word.value.starts_with(p));
    if !word.dynamic || word.substitution || own_process {
        return None;
    }
    // `$HOME/.ssh/$KEY`: the home folder is known.
    let value = ["$HOME/", "${HOME}/"]
        .iter()
        .find_map(|home| word.value.strip_prefix(home))
        .map_or_else(|| word.value.clone(), |rest| format!("~/{rest}"));
    let unknown_at = value.find(['$', '`', '{'])?;
    let prefix = value.get(..unknown_at)?;
    // No `/` before it (`cat $K` after `cd ~/.ssh`): the working folder.
    let folder = prefix
        .rfind('/')
        .map_or(Some("."), |at| prefix.get(..=at))?;
    let mut root = Word::literal(folder);
    root.tilde = folder.starts_with('~');
    root.glob = folder.contains(['*', '?', '[']);
    Some(root)
}

/// Why a program given the names in `listed` may read secrets: they lie
/// under a folder that holds credentials, or may name any file.
fn listed_secret(listed: &Listed, location: &Location, cwd: Option<&Path>) -> Option<String> {
    if let Some(root) = listed
        .roots
        .iter()
        .find_map(|root| under_secrets(root, location, cwd))
    {
        return Some(format!(
            "reads the files listed under {root}, credentials among them"
        ));
    }
    listed.unbounded.as_ref().map(|stage| {
        format!("reads files named by {stage} only when the command runs, which could hold secrets")
    })
}

/// Why reading the names a substitution prints may read secrets (`Some`
/// of an empty reason: they may name any file); `None` where they name
/// none.
fn output_secret(fed: &Fed, location: &Location, cwd: Option<&Path>) -> Option<String> {
    for word in &fed.words {
        for path in resolve(word, location, cwd) {
            if names_secret(&path) {
                return Some(holds_secrets_reason(&word.value));
            }
        }
        if let Some(root) =
            folder_before_unknown(word).and_then(|f| under_secrets(&f, location, cwd))
        {
            return Some(format!(
                "reads a file under {root}, which holds credentials"
            ));
        }
    }
    if fed.listed.unbounded.is_some() {
        return Some(String::new());
    }
    listed_secret(&fed.listed, location, cwd)
}

/// `folder` as written, if any file under it may be a secret: it holds
/// credentials (`~`, `/etc`) or is a secret place itself (`~/.ssh`).
fn under_secrets(folder: &Word, location: &Location, cwd: Option<&Path>) -> Option<String> {
    recursive_root("cat", &[folder], location, cwd).or_else(|| {
        resolve(folder, location, cwd)
            .iter()
            .any(names_secret)
            .then(|| folder.value.clone())
    })
}

/// The folder a recursive reader searches that holds credentials, as
/// written, if any. The first operand of a search verb is its pattern
/// (unless `-e`/`-f` gives it); with no folder, the working folder.
fn recursive_root(
    verb: &str,
    operands: &[&Word],
    location: &Location,
    cwd: Option<&Path>,
) -> Option<String> {
    let searches = matches!(
        verb,
        "grep"
            | "egrep"
            | "fgrep"
            | "rgrep"
            | "rg"
            | "ag"
            | "ack"
            | "ack-grep"
            | "ugrep"
            | "ug"
            | "pt"
            | "sift"
            | "git"
    );
    let skip = usize::from(searches);
    let roots: Vec<&Word> = operands.iter().skip(skip).copied().collect();
    let here = Word::literal(".");
    let roots = if roots.is_empty() && searches {
        vec![&here]
    } else {
        roots
    };
    for word in roots {
        if word.value.len() > MAX_GLOB {
            return Some(crate::limits::clip(&word.value, 80).to_string());
        }
        for named in resolve(word, location, cwd) {
            let pattern = named.pattern();
            let holds = pattern
                .as_ref()
                .is_some_and(|p| holds_secrets(p, location.home.as_deref()));
            // A root only run time knows (`grep -r x $DIR`) may be any
            // folder; `~` in any spelling is one that holds secrets.
            let at_home = ["~", "$HOME", "${HOME"]
                .iter()
                .any(|h| named.raw.starts_with(h));
            if holds || pattern.is_none() && at_home {
                return Some(word.value.clone());
            }
        }
    }
    None
}

/// Whether `ps` is asked for every process's environment: BSD `e` (`ps
/// eww`, `ps auxe`, `ps aux e`) or `-E`.
fn ps_shows_environment(args: &[Word]) -> bool {
    /// Options of `ps` whose value is the next word.
    const TAKES_VALUE: &[&str] = &[
        "-C",
        "-G",
        "-U",
        "-g",
        "-p",
        "-s",
        "-t",
        "-u",
        "-o",
        "-O",
        "-q",
        "-k",
        "--sort",
        "--pid",
        "--ppid",
        "--user",
        "--User",
        "--group",
        "--Group",
        "--tty",
        "--sid",
        "--format",
        "--cols",
        "--columns",
        "--rows",
        "--lines",
        "--width",
    ];
    let mut words = args.iter().map(|w| w.value.as_str());
    while let Some(word) = words.next() {
        if TAKES_VALUE.contains(&word) {
            words.next();
            continue;
        }
        if let Some(cluster) = word.strip_prefix('-') {
            if !cluster.starts_with('-') && cluster.contains('E') {
                return true;
            }
            continue;
        }
        if word.chars().all(|c| c.is_ascii_alphabetic()) && word.contains('e') {
            return true;
        }
    }
    false
}

/// The entry of `rules/law.json` `secret_commands` that `verb args` is,
/// if any: its verb, then its words in order among the words that are not
/// options, where a word between them or before them must follow an
/// option (it may be that option's value: `gcloud --project p auth
/// print-access-token`, `gcloud auth --verbosity debug
/// print-access-token`), and one of the options of a last word of options.
fn secret_command(verb: &str, args: &[Word]) -> Option<String> {
    let is_option = |w: &Word| w.value.starts_with('-');
    let mut words: Option<Vec<(&str, bool)>> = None;
    crate::rules::SECRET_COMMANDS.iter().find_map(|entry| {
        let (first, rest) = entry.split_first()?;
        if *first != verb {
            return None;
        }
        let (options, named) = match rest.split_last() {
            Some((last, named)) if last.starts_with('-') => (Some(*last), named),
            _ => (None, rest),
        };
        // The words that are not options, each with whether it directly
        // follows an option that may take it as its value (made once).
        let words = words.get_or_insert_with(|| {
            args.iter()
                .enumerate()
                .filter(|(_, w)| !is_option(w))
                .map(|(at, w)| {
                    let after_option = at
                        .checked_sub(1)
                        .and_then(|before| args.get(before))
                        .is_some_and(|b| is_option(b) && !b.value.contains('='));
                    (w.value.as_str(), after_option)
                })
                .collect()
        });
        if !names_in_order(words, named) {
            return None;
        }
        let shown = entry.get(..1 + named.len()).unwrap_or_default().join(" ");
        let Some(options) = options else {
            return Some(shown);
        };
        let given = options
            .split('|')
            .find(|option| args.iter().any(|w| gives_option(&w.value, option)))?;
        Some(format!("{shown} {given}"))
    })
}

/// Whether `named` stands in `words` in order, every word before or
/// between them one that follows an option (`(word, follows_option)`).
/// Kept as the set of how many of `named` are matched so far (a word that
/// follows an option may be a value to skip or the next name).
fn names_in_order(words: &[(&str, bool)], named: &[&str]) -> bool {
    if named.is_empty() || named.len() >= 64 {
        return false;
    }
    let done = 1u64 << named.len();
    let mut reached: u64 = 1;
    for (word, follows_option) in words {
        if reached & done != 0 {
            return true;
        }
        let mut next = 0u64;
        for (matched, name) in named.iter().enumerate() {
            if reached & (1 << matched) != 0 {
                if word == name {
                    next |= 1 << (matched + 1);
                }
                if *follows_option {
                    next |= 1 << matched;
                }
            }
        }
        reached = next;
        if reached == 0 {
            return false;
        }
    }
    reached & done != 0
}

/// Whether the word `word` gives the option `option`: a long option as
/// itself or with a value after `=` (`--show-token=true`), a one-letter
/// option anywhere in a cluster of one-letter options (`-th HOST`,
/// `-t=true`). Generous where parsers differ (`-ht` may be `-h t`): a word
/// that may give it does.
fn gives_option(word: &str, option: &str) -> bool {
    if let Some(long) = option.strip_prefix("--") {
        return word.strip_prefix("--").is_some_and(|w| {
            w == long || w.strip_prefix(long).is_some_and(|r| r.starts_with('='))
        });
    }
    let Some(letter) = option.strip_prefix('-') else {
        return false;
    };
    let cluster = match word.strip_prefix('-') {
        Some(rest) if !rest.starts_with('-') => rest,
        _ => return false,
    };
    let letters = cluster.split('=').next().unwrap_or(cluster);
    letter.chars().count() == 1 && letters.contains(letter)
}

/// Why a `Read` of `path` (absolute when the request's folder is known)
/// reads secrets, if it does; links on disk are followed.
pub fn file_read(path: &str) -> Option<String> {
    let real = crate::law::resolve::resolve_links(Path::new(path));
    let real = real.to_string_lossy();
    (is_secret(path) || is_secret(&real)).then(|| format!("reads {path}, which holds secrets"))
}

/// Why a `Grep` over `root` (absolute, a file or a folder), limited to
/// files named by `glob`, reads secrets, if it does.
pub fn search_read(root: &str, glob: Option<&str>, home: Option<&Path>) -> Option<String> {
    let pattern = folder_pattern(root, false);
    if is_secret(root) || is_secret_folder(root) || holds_secrets(&pattern, home) {
        return Some(format!("searches {root}, which holds credentials"));
    }
    if let Some(glob) = glob.filter(|g| !g.is_empty()) {
        // Judged by the names it lets through: as if the files were
        // directly under the root, its wildcards skipping hidden names.
        let mut files = Pattern::literal(root.trim_end_matches('/'));
        files.push_literal("/");
        files.append(&Pattern::shell_glob(glob));
        let last = glob.rsplit('/').next().unwrap_or(glob);
        if glob_is_secret(&files, last) {
            return Some(format!(
                "searches files named {glob} under {root}, which hold secrets"
            ));
        }
    }
    None
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn names_in_order_past_option_values_only() {
        let auth_token = ["auth", "token"];
        // (word, follows an option)
        assert!(names_in_order(
            &[("auth", false), ("token", false)],
            &auth_token
        ));
        assert!(names_in_order(
            &[("o/r", true), ("auth", false), ("token", false)],
            &auth_token
        ));
        assert!(names_in_order(
            &[("auth", false), ("x", true), ("token", false)],
            &auth_token
        ));
        assert!(names_in_order(
            &[("auth", true), ("auth", false), ("token", false)],
            &auth_token
        ));
        assert!(!names_in_order(
            &[("search", false), ("auth", false), ("token", false)],
            &auth_token
        ));
        assert!(!names_in_order(
            &[("auth", false), ("x", false), ("token", false)],
            &auth_token
        ));
        assert!(!names_in_order(&[("auth", false)], &auth_token));
        assert!(!names_in_order(&[("auth", false)], &[]));
    }

    #[test]
    fn options_given_in_any_spelling() {
        for (word, option) in [
            ("--show-token", "--show-token"),
            ("--show-token=true", "--show-token"),
            ("-t", "-t"),
            ("-th", "-t"),
            ("-ht", "-t"),
            ("-t=true", "-t"),
        ] {
            assert!(gives_option(word, option), "{word} gives {option}");
        }
        for (word, option) in [
            ("--show-tokens", "--show-token"),
            ("--t", "-t"),
            ("-h", "-t"),
            ("t", "-t"),
            ("-h=t", "-t"),
            ("--show-token", "-t"),
        ] {
            assert!(!gives_option(word, option), "{word} does not give {option}");
        }
    }

    #[test]
    fn secrets() {
        for p in [
            ".env",
            "app/.env.local",
            "~/.ssh/id_rsa",
            "$HOME/.ssh/id_ed25519",
            "/home/*/.aws/credentials",
            "~/.netrc",
            "/etc/shadow",
            "/proc/self/environ",
            "/proc/1/root/etc/shadow",
            "/home/u/.aws/config",
            "id_rsa",
            "server.pem",
            "/home/u/.cargo/credentials.toml",
        ] {
            assert!(is_secret(p), "{p}");
        }
        for p in [
            ".env.example",
            "~/.ssh/id_rsa.pub",
            "~/.ssh/config",
            "src/env.rs",
            "environment.yml",
            "key.txt",
            "src/id_map.rs",
            "/etc/passwd",
            "/proc/self/status",
            "/home/u/.cargo/registry/src/x.rs",
        ] {
            assert!(!is_secret(p), "{p}");
        }
    }

    #[test]
    fn holders() {
        let home = Some(Path::new("/home/u"));
        for p in [
            "/",
            "/home",
            "/home/u",
            "/home/u/.config",
            "/etc",
            "/proc",
            "/proc/1",
            "/home/u/.aws/sso",
        ] {
            assert!(holds_secrets(&folder_pattern(p, false), home), "{p}");
        }
        for p in [
            "/home/u/proj",
            "/home/u/proj/src",
            "/etc/nginx",
            "/home/u/.cargo/registry",
            "/tmp",
        ] {
            assert!(!holds_secrets(&folder_pattern(p, false), home), "{p}");
        }
    }

    #[test]
    fn proc_root() {
        assert_eq!(
            without_proc_root("/proc/self/root/etc/shadow"),
            "/etc/shadow"
        );
        assert_eq!(without_proc_root("/proc/1/root/proc/2/root/x"), "/x");
        assert_eq!(
            without_proc_root("/proc/self/environ"),
            "/proc/self/environ"
        );
    }
}

#[cfg(test)]
mod compiled_ahead {
    use super::*;

    /// The families build.rs compiled are what compiling
    /// [`families::globs`] at run time gives.
    #[test]
    fn compiled_ahead_as_at_run_time() {
        let globs = families::globs();
        let compile =
            |list: &[String]| -> Vec<Pattern> { list.iter().map(|p| Pattern::glob(p)).collect() };
        let anywhere: Vec<(Pattern, Option<Quick>, &str)> = globs
            .anywhere
            .iter()
            .map(|(p, needed)| {
                let pattern = Pattern::glob(p);
                let quick = pattern.quick();
                (pattern, quick, needed.as_str())
            })
            .collect();
        let f = families();
        assert_eq!(f.anywhere, anywhere.as_slice());
        assert_eq!(f.pinned, compile(&globs.pinned).as_slice());
        assert_eq!(f.keys, compile(&globs.keys).as_slice());
        assert_eq!(f.folders, compile(&globs.folders).as_slice());
        assert_eq!(f.except, compile(&globs.except).as_slice());
        assert!(f.anywhere.len() > 30 && !f.keys.is_empty());
    }
}
