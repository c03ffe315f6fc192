//! Python's options before its program: whether every one is known to be
//! harmless (`-u`, `-B`, `-X dev`, a `-W` filter of a built-in category).
//! Takes the interpreter's arguments; returns a yes or no, and a no leaves
//! the command to the lexicon. The program itself is found by the route's
//! generic reader with the `PYTHON` grammar.

use crate::shell::Word;

/// Python's one-letter options that take no value and change nothing
/// the interpreter runs (`-u`, `-B`, `-I`, `-O`; `-i` is read apart).
const PYTHON_FLAGS: &str = "bBdEhiIOPqsSuvVx?";

/// `-X` settings that only tune the interpreter (`-X dev`,
/// `-X importtime`). `-X pycache_prefix=DIR` writes there: not listed.
#[rustfmt::skip]
const PYTHON_X_OPTIONS: &[&str] = &[
    "dev", "utf8", "importtime", "tracemalloc", "faulthandler", "showrefcount",
    "no_debug_ranges", "frozen_modules", "warn_default_encoding", "int_max_str_digits",
    "perf", "perf_jit", "cpu_count", "gil", "no_site",
];

/// Python's long options that take no value and run nothing.
const PYTHON_LONG: &[&str] = &[
    "--version",
    "--help",
    "--help-env",
    "--help-xoptions",
    "--help-all",
];

/// Whether every option before Python's program (up to `-c`, `-m`, `-`,
/// `--` or the script) is one portcullis knows to be harmless. An unknown
/// option, `-X pycache_prefix=…`, or a `-W` filter whose category names a
/// module (`-W ignore::evil.Warn` imports `evil`) makes the command the
/// lexicon's to judge.
pub(super) fn python_options_known(args: &[Word]) -> bool {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let a = word.value.as_str();
        if a == "-" || a == "--" || !a.starts_with('-') {
            return true;
        }
        if let Some(long) = a.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (long, None),
            };
            match name {
                "check-hash-based-pycs" => {
                    let value = value.or_else(|| words.next().map(|w| w.value.as_str()));
                    if !matches!(value, Some("default" | "always" | "never")) {
                        return false;
                    }
                }
                _ if value.is_none() && PYTHON_LONG.contains(&a) => {}
                _ => return false,
            }
            continue;
        }
        for (at, letter) in a.char_indices().skip(1) {
            let rest = &a[at + letter.len_utf8()..];
            match letter {
                'c' | 'm' => return true,
                'W' | 'X' => {
                    let value = if rest.is_empty() {
                        words.next().map(|w| w.value.as_str())
                    } else {
                        Some(rest)
                    };
                    let known = match (letter, value) {
                        ('W', Some(filter)) => python_warning_filter_known(filter),
                        ('X', Some(setting)) => PYTHON_X_OPTIONS
                            .contains(&setting.split_once('=').map_or(setting, |(k, _)| k)),
                        _ => false,
                    };
                    if !known {
                        return false;
                    }
                    break;
                }
                _ if PYTHON_FLAGS.contains(letter) => {}
                _ => return false,
            }
        }
    }
    true
}

/// Whether a `-W ACTION:MESSAGE:CATEGORY:MODULE:LINENO` filter only names
/// a built-in category: a dotted one is imported from its module.
fn python_warning_filter_known(filter: &str) -> bool {
    filter
        .split(':')
        .nth(2)
        .is_none_or(|category| !category.contains('.'))
}
