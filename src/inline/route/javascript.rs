//! The JavaScript runtimes' own command lines: `node` (read as node's
//! option parser reads it), `deno eval`/`deno run` and `bun`. Takes the
//! arguments after the runtime's name; returns the [`Route`] of the
//! program, and for node the modules it preloads (`-r`, `--import`). An
//! option outside the known ones leaves the command to the lexicon.
//! (`ts-node` and `tsx` are read by the route's generic reader.)

use super::{InlineCode, Lane, Preload, Route};
use crate::inline::Language;
use crate::shell::Word;

/// Options of node that take a value and change nothing node runs
/// (`--input-type module`, `--stack-size=2000`). A value never starts
/// with `-` (node then reports the option's argument missing).
#[rustfmt::skip]
const NODE_VALUE_OPTIONS: &[&str] = &[
    "--input-type", "-C", "--conditions", "--title", "--max-old-space-size",
    "--max-semi-space-size", "--stack-size", "--stack-trace-limit", "--unhandled-rejections",
    "--dns-result-order", "--disable-proto", "--experimental-default-type", "--inspect-port",
    "--icu-data-dir", "--secure-heap", "--secure-heap-min", "--allow-fs-read", "--allow-fs-write",
];

/// Options of node that take no value and change nothing node runs.
#[rustfmt::skip]
const NODE_FLAGS: &[&str] = &[
    "--no-warnings", "--no-deprecation", "--trace-warnings", "--trace-deprecation",
    "--throw-deprecation", "--pending-deprecation", "--trace-uncaught", "--trace-exit",
    "--trace-sigint", "--trace-sync-io", "--enable-source-maps", "--preserve-symlinks",
    "--preserve-symlinks-main", "--abort-on-uncaught-exception", "--no-addons",
    "--frozen-intrinsics", "--zero-fill-buffers", "--jitless", "--expose-gc", "--use-strict",
    "--no-global-search-paths", "--permission", "--experimental-permission",
    "--experimental-strip-types", "--no-experimental-strip-types",
    "--experimental-transform-types", "--experimental-detect-module",
    "--no-experimental-detect-module", "--experimental-require-module",
    "--no-experimental-require-module", "--experimental-vm-modules",
    "--experimental-import-meta-resolve", "--experimental-json-modules",
    "--experimental-wasm-modules", "--experimental-websocket", "--no-experimental-websocket",
    "--no-experimental-fetch", "--no-experimental-global-webcrypto",
    "--experimental-global-navigator", "--no-experimental-global-navigator",
    "--experimental-top-level-await", "--experimental-abortcontroller",
    "--experimental-eventsource", "--no-experimental-repl-await", "--force-context-aware",
    "--no-force-async-hooks-checks", "--no-extra-info-on-fatal-exception",
    "--interpreted-frames-native-stack", "--insecure-http-parser", "--no-network-family-autoselection",
];

/// Options of node after which no program of the command line runs (its
/// test runner, a package script, a check, the REPL): the lexicon judges.
#[rustfmt::skip]
const NODE_LEXICON: &[&str] = &[
    "--test", "-v", "--version", "-h", "--help", "-c", "--check", "--run", "-i", "--interactive",
    "--v8-options", "--completion-bash",
];

/// What node runs, read as node's own option parser reads its command
/// line: options end at the first word that is not one (or `--`); the last
/// `-e`/`--eval`/`-p CODE`/`--print CODE`/`-pe CODE` is the code; `-p`
/// before an option, `--print=…` and `-p` last only turn printing on (the
/// code then comes from a later `-e`, the script, or stdin); `--foo=bar` is
/// only for `--` options and `_` in a name is `-`. An option outside the
/// known ones (a preload such as `-r`/`--import`/`--loader`, an env or
/// config file, the inspector, a V8 flag) leaves the command to the
/// lexicon: it may run code nobody read.
pub(super) fn node<'w>(args: &'w [Word], preloads: &mut Vec<Preload<'w>>) -> Route<'w> {
    let js = Lane::Code(Language::JavaScript);
    let mut code: Option<InlineCode<'w>> = None;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let a = arg.value.as_str();
        if arg.dynamic && a.starts_with('$') {
            // A program (or an option) only known at run time: nobody can
            // read what it runs.
            return Route::File {
                lane: js,
                path: arg,
            };
        }
        if a.len() <= 1 || !a.starts_with('-') {
            break;
        }
        if a == "--" {
            i += 1;
            break;
        }
        let (name, glued) = match a.split_once('=') {
            Some((n, v)) if a.starts_with("--") => (n, Some(v)),
            _ => (a, None),
        };
        let name = name.get(..2).unwrap_or("").to_string()
            + &name.get(2..).unwrap_or("").replace('_', "-");
        let next = args.get(i + 1);
        let next_is_value = next.is_some_and(|n| !n.value.starts_with('-') && !n.value.is_empty());
        match name.as_str() {
            "-e" | "--eval" | "-pe" => match glued {
                Some(_) if name == "--eval" => {
                    code = Some(InlineCode::glued(arg, "--eval=".len()));
                    i += 1;
                }
                Some(_) => return Route::Lexicon,
                None => {
                    let Some(value) = next else {
                        return Route::Lexicon;
                    };
                    code = Some(InlineCode::whole(value));
                    i += 2;
                }
            },
            "-p" | "--print" => {
                if glued.is_none() && next_is_value {
                    if let Some(value) = next {
                        code = Some(InlineCode::whole(value));
                    }
                    i += 2;
                } else {
                    i += 1;
                }
            }
            "-r" | "--require" | "--import" | "--loader" | "--experimental-loader" => {
                match (glued, next) {
                    (Some(name), _) => {
                        preloads.push(Preload { word: arg, name });
                        i += 1;
                    }
                    (None, Some(word)) => {
                        preloads.push(Preload {
                            word,
                            name: &word.value,
                        });
                        i += 2;
                    }
                    (None, None) => return Route::Lexicon,
                }
            }
            n if NODE_LEXICON.contains(&n) => return Route::Lexicon,
            n if NODE_FLAGS.contains(&n) && glued.is_none() => i += 1,
            n if NODE_VALUE_OPTIONS.contains(&n) => {
                i += if glued.is_some() { 1 } else { 2 };
            }
            _ => return Route::Lexicon,
        }
    }
    if let Some(code) = code {
        return Route::Inline { lane: js, code };
    }
    match args.get(i) {
        Some(arg) if arg.value == "-" => Route::Stdin { lane: js },
        Some(path) => Route::File { lane: js, path },
        None => Route::Stdin { lane: js },
    }
}

pub(super) fn deno<'w>(args: &'w [Word]) -> Route<'w> {
    let js = Lane::Code(Language::JavaScript);
    // The subcommand, then its code or script, each after options that
    // change nothing about what runs; any other option (`--preload FILE`,
    // `--config FILE`, one portcullis does not know) may take the next
    // word as its value, so the command is left to the lexicon.
    let Some((sub, rest)) = after_plain_options(args).and_then(<[Word]>::split_first) else {
        return Route::Lexicon;
    };
    let Some(operand) = after_plain_options(rest).and_then(<[Word]>::first) else {
        return Route::Lexicon;
    };
    match sub.value.as_str() {
        "eval" => Route::Inline {
            lane: js,
            code: InlineCode::whole(operand),
        },
        "run" if is_script_path(&operand.value) => Route::File {
            lane: js,
            path: operand,
        },
        _ => Route::Lexicon,
    }
}

/// The words after the leading options, when every one of them is a deno
/// option known to change nothing about what runs (permissions, quiet,
/// type checking); `None` when one is not.
fn after_plain_options(words: &[Word]) -> Option<&[Word]> {
    let plain = |a: &str| {
        matches!(
            a,
            "-q" | "--quiet"
                | "-A"
                | "--allow-all"
                | "--no-prompt"
                | "--check"
                | "--no-check"
                | "--unstable"
                | "-p"
                | "--print"
        ) || ["--allow-", "--deny-", "--unstable-"]
            .iter()
            .any(|prefix| a.starts_with(prefix))
    };
    let at = words
        .iter()
        .position(|w| !w.value.starts_with('-'))
        .unwrap_or(words.len());
    let (options, rest) = words.split_at_checked(at)?;
    options.iter().all(|w| plain(&w.value)).then_some(rest)
}

/// bun's options before its program that take no value and change
/// nothing about what runs.
const BUN_PLAIN_OPTIONS: &[&str] = &["--silent", "--smol", "--bun", "-b", "--no-install"];

pub(super) fn bun<'w>(args: &'w [Word]) -> Route<'w> {
    let js = Lane::Code(Language::JavaScript);
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        match arg.value.as_str() {
            "-e" | "--eval" | "-p" | "--print" => {
                return match args.get(i + 1) {
                    Some(code) => Route::Inline {
                        lane: js,
                        code: InlineCode::whole(code),
                    },
                    None => Route::Lexicon,
                };
            }
            "run" => {
                return match args.get(i + 1) {
                    Some(path) if is_script_path(&path.value) => Route::File { lane: js, path },
                    _ => Route::Lexicon,
                };
            }
            // Only options known to change nothing about what runs are
            // passed over; any other (`--preload FILE`, `-r FILE`, an
            // option portcullis does not know) leaves bun to the lexicon.
            a if BUN_PLAIN_OPTIONS.contains(&a) => i += 1,
            a if a.starts_with('-') => return Route::Lexicon,
            _ if is_script_path(&arg.value) => {
                return Route::File {
                    lane: js,
                    path: arg,
                };
            }
            _ => return Route::Lexicon,
        }
    }
    Route::Lexicon
}

/// A path that names a JavaScript or TypeScript file (`bun x.ts`), not a
/// package script (`bun run build`).
fn is_script_path(path: &str) -> bool {
    [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"]
        .iter()
        .any(|ext| path.ends_with(ext))
}
