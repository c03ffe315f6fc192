//! Where an interpreter's program comes from: code in an argument
//! (`python3 -c`, `node -e`, `deno eval`), stdin (`python3 -`, a heredoc, a
//! pipe), or a script file (`python fix.py`, `node build.js`). Takes the
//! interpreter's name as the lexicon knows it and its arguments; returns a
//! [`Route`]. Options that run other code first (`node -r mod`) are listed
//! so they are not mistaken for the program.

mod javascript;
mod python;

use super::Language;
use crate::shell::Word;
use javascript::{bun, deno, node};
use python::python_options_known;

/// The lane that reads a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// Python or JavaScript, by syntax tree.
    Code(Language),
    /// Perl, Ruby, PHP or Lua: a token scan (no grammar here).
    Scan(&'static str),
}

/// Where the program comes from.
#[derive(Debug)]
pub enum Route<'w> {
    /// Code written in the command line.
    Inline {
        /// Its lane.
        lane: Lane,
        /// The code.
        code: InlineCode<'w>,
    },
    /// Code read from stdin.
    Stdin {
        /// Its lane.
        lane: Lane,
    },
    /// A script file.
    File {
        /// Its lane.
        lane: Lane,
        /// The file.
        path: &'w Word,
    },
    /// `python -m MODULE`: a module of the project (`MODULE.py` or
    /// `MODULE/` in the working folder) is code to read; any other is
    /// judged by the lexicon (`-m pytest`, `-m json.tool`).
    Module {
        /// Its lane.
        lane: Lane,
        /// The module's dotted name.
        name: &'w str,
    },
    /// No program of its own (`--version`, a subcommand): the lexicon
    /// judges the command.
    Lexicon,
}

/// Code given in an argument: the whole word (`-c CODE`), or the part of
/// it after the option it is glued to (`-cCODE`, `--eval=CODE`). Where the
/// code starts is decided while the options are read, never guessed later
/// from the word's text (code may itself start with `-`).
#[derive(Debug, Clone, Copy)]
pub struct InlineCode<'w> {
    /// The word that holds the code.
    pub word: &'w Word,
    /// The byte at which the code starts in the word's value.
    start: usize,
}

impl<'w> InlineCode<'w> {
    /// The whole word is code.
    fn whole(word: &'w Word) -> Self {
        InlineCode { word, start: 0 }
    }

    /// The code starts at byte `start` of the word (after a glued option).
    fn glued(word: &'w Word, start: usize) -> Self {
        InlineCode { word, start }
    }

    /// The code's text.
    pub fn text(&self) -> &'w str {
        self.word.value.get(self.start..).unwrap_or("")
    }
}

/// A module or file an interpreter loads before its program (`ruby -r
/// x`, `perl -MFoo`, `node -r ./setup.js`, `lua -l m`): code that runs
/// first, judged on its own.
#[derive(Debug, Clone, Copy)]
pub struct Preload<'w> {
    /// The word that names it.
    pub word: &'w Word,
    /// Its name as given (`File::Path`, `./evil`, `dotenv/config`).
    pub name: &'w str,
}

impl Preload<'_> {
    /// The module's name without Perl's import list (`File::Path=rmtree`)
    /// or leading `-` (`-M-strict`, which unloads).
    pub fn module(&self) -> &str {
        let name = self.name.trim_start_matches('-');
        name.split(['=', ' ']).next().unwrap_or(name)
    }

    /// Whether it names a file rather than an installed module.
    pub fn is_path(&self) -> bool {
        self.name.starts_with(['.', '/', '~']) || self.name.contains("..")
    }
}

/// Modules of each language's standard library that only define things
/// when loaded: preloading one runs no code of the project's choosing
/// (unless a `-I` folder of the command line may shadow it).
const KNOWN_PRELOADS: &[(&str, &[&str])] = &[
    (
        "perl",
        &[
            "strict",
            "warnings",
            "utf8",
            "feature",
            "integer",
            "bigint",
            "bignum",
            "constant",
            "open",
            "English",
            "Data::Dumper",
            "List::Util",
            "Scalar::Util",
            "POSIX",
            "JSON::PP",
            "File::Basename",
            "File::Spec",
            "File::Path",
            "File::Find",
            "File::Temp",
            "File::Copy",
            "Cwd",
            "Getopt::Long",
            "Time::HiRes",
            "Time::Local",
            "Encode",
            "MIME::Base64",
            "Digest::MD5",
            "Digest::SHA",
            "Storable",
            "Text::Wrap",
            "Term::ANSIColor",
            "IO::Handle",
            "charnames",
            "Math::BigInt",
        ],
    ),
    (
        "ruby",
        &[
            "json",
            "yaml",
            "psych",
            "set",
            "pp",
            "date",
            "time",
            "fileutils",
            "open3",
            "securerandom",
            "digest",
            "base64",
            "csv",
            "erb",
            "optparse",
            "shellwords",
            "pathname",
            "uri",
            "benchmark",
            "tempfile",
            "tmpdir",
            "stringio",
            "English",
            "bigdecimal",
            "ostruct",
            "logger",
            "etc",
            "prime",
            "matrix",
            "zlib",
        ],
    ),
    (
        "lua",
        &[
            "string",
            "table",
            "math",
            "os",
            "io",
            "utf8",
            "coroutine",
            "debug",
        ],
    ),
];

/// Whether `module` is a standard module of `language` known to run
/// nothing when loaded.
pub fn is_known_preload(language: &str, module: &str) -> bool {
    KNOWN_PRELOADS
        .iter()
        .any(|(lang, names)| *lang == language && names.contains(&module))
}

/// How one interpreter's command line is read.
struct Grammar {
    /// Options followed by code.
    code: &'static [&'static str],
    /// Options that take a value (skipped).
    value: &'static [&'static str],
    /// Options whose value can only be glued on (`perl -i.bak`, `-Mstrict`):
    /// they end a bundle without taking the next argument.
    glued: &'static [&'static str],
    /// Options after which no program of its own runs.
    lexicon: &'static [&'static str],
    /// Options whose value is code run before the program (`node -r
    /// ./setup.js`, `ruby -r ./x`, `lua -l mod`): listed as [`Preload`]s
    /// and judged on their own; the program is still read.
    preload: &'static [&'static str],
    /// Options whose glued value is a module loaded first (`perl -MFoo`).
    glued_preload: &'static [&'static str],
    /// Options followed by a module to run (`python -m MODULE`).
    module: &'static [&'static str],
    /// Options that also run what stdin gives once the program ends
    /// (`python -i`): stdin is a program too.
    interactive: &'static [&'static str],
    /// Short options may be bundled (`-uc CODE`, `-lne CODE`).
    bundles: bool,
    /// For a lane that can find code FREE, its closed set of options that
    /// take no value and change nothing about what runs: any option
    /// outside it and the lists above leaves the command to the lexicon
    /// (an unknown option may take the next word as its value, which would
    /// then be read as the program). `None`: the lane is never FREE (a
    /// token scan) or checks its options elsewhere (Python's).
    plain: Option<&'static [&'static str]>,
}

const PYTHON: Grammar = Grammar {
    code: &["-c"],
    value: &["-W", "-X", "--check-hash-based-pycs", "-Q"],
    glued: &[],
    lexicon: &["--version", "-V", "-h", "--help", "-?"],
    preload: &[],
    glued_preload: &[],
    module: &["-m"],
    interactive: &["-i"],
    bundles: true,
    plain: None,
};

const TS_NODE: Grammar = Grammar {
    code: &["-e", "--eval", "-p", "--print"],
    value: &[
        "-r",
        "--require",
        "-P",
        "--project",
        "-O",
        "--compiler-options",
        "-C",
        "--compiler",
        "--cwd",
        "--scope-dir",
    ],
    glued: &[],
    lexicon: &["-v", "--version", "-h", "--help", "watch"],
    preload: &["-r", "--require", "--import"],
    glued_preload: &[],
    module: &[],
    interactive: &[],
    bundles: false,
    plain: Some(&[
        "-T",
        "--transpile-only",
        "--type-check",
        "-H",
        "--cwd-mode",
        "--swc",
        "--esm",
        "--files",
        "--pretty",
        "--skip-project",
        "--skip-ignore",
        "--prefer-ts-exts",
        "--no-cache",
        "-q",
        "--quiet",
    ]),
};

const PERL: Grammar = Grammar {
    code: &["-e", "-E"],
    value: &["-I"],
    glued: &["-M", "-m", "-x", "-0", "-F", "-i", "-C", "-d", "-D"],
    lexicon: &["-v", "-V", "--version", "-h", "--help", "-c"],
    preload: &[],
    glued_preload: &["-M", "-m"],
    module: &[],
    interactive: &[],
    bundles: true,
    plain: None,
};

const RUBY: Grammar = Grammar {
    code: &["-e"],
    value: &["-I", "-r", "-C", "-E"],
    glued: &["-F", "-i", "-x", "-0", "-W", "-K", "-T"],
    lexicon: &["-v", "--version", "-h", "--help", "-c", "-y"],
    preload: &["-r"],
    glued_preload: &[],
    module: &[],
    interactive: &[],
    bundles: true,
    plain: None,
};

const PHP: Grammar = Grammar {
    code: &["-r", "-B", "-R", "-E", "-F"],
    value: &["-c", "-d", "-z", "-t", "-S"],
    glued: &[],
    lexicon: &[
        "-v",
        "--version",
        "-h",
        "--help",
        "-l",
        "-m",
        "-i",
        "--ini",
        "-S",
    ],
    preload: &[],
    glued_preload: &[],
    module: &[],
    interactive: &[],
    bundles: false,
    plain: None,
};

const LUA: Grammar = Grammar {
    code: &["-e"],
    value: &["-l"],
    glued: &[],
    lexicon: &["-v", "--version", "-h"],
    preload: &["-l"],
    glued_preload: &[],
    module: &[],
    interactive: &[],
    bundles: false,
    plain: None,
};

/// The route of `interpreter` (as the lexicon names it) run with `args`.
pub fn route<'w>(interpreter: &str, args: &'w [Word]) -> Route<'w> {
    route_with_preloads(interpreter, args).0
}

/// The route of `interpreter` run with `args`, and what it loads before
/// its program.
pub fn route_with_preloads<'w>(
    interpreter: &str,
    args: &'w [Word],
) -> (Route<'w>, Vec<Preload<'w>>) {
    let mut preloads = Vec::new();
    let route = program_route(interpreter, args, &mut preloads);
    (route, preloads)
}

fn program_route<'w>(
    interpreter: &str,
    args: &'w [Word],
    preloads: &mut Vec<Preload<'w>>,
) -> Route<'w> {
    let js = Lane::Code(Language::JavaScript);
    match interpreter {
        "python" | "python2" | "python3" | "pypy" | "pypy3" => {
            if python_options_known(args) {
                read(&PYTHON, Lane::Code(Language::Python), args, preloads)
            } else {
                Route::Lexicon
            }
        }
        "node" | "nodejs" => node(args, preloads),
        "ts-node" | "tsx" | "ts-node-esm" | "esno" => read(&TS_NODE, js, args, preloads),
        "deno" => deno(args),
        "bun" => bun(args),
        "perl" => read(&PERL, Lane::Scan("perl"), args, preloads),
        "ruby" | "jruby" => read(&RUBY, Lane::Scan("ruby"), args, preloads),
        "php" => read(&PHP, Lane::Scan("php"), args, preloads),
        "lua" | "luajit" => read(&LUA, Lane::Scan("lua"), args, preloads),
        _ => Route::Lexicon,
    }
}

/// The interpreters [`route`] knows.
pub fn is_interpreter(name: &str) -> bool {
    !matches!(route(name, &[]), Route::Lexicon) || matches!(name, "deno" | "bun")
}

fn read<'w>(
    grammar: &Grammar,
    lane: Lane,
    args: &'w [Word],
    preloads: &mut Vec<Preload<'w>>,
) -> Route<'w> {
    let mut interactive = false;
    let route = read_program(grammar, lane, args, &mut interactive, preloads);
    match route {
        // `python -i -c CODE`, `python -i x.py`: stdin runs after the
        // program, and the lane reads one program: the lexicon judges it.
        Route::Inline { .. } | Route::File { .. } | Route::Module { .. } if interactive => {
            Route::Lexicon
        }
        route => route,
    }
}

/// Whether option word `a` (before the program) asks for an interactive
/// session after the program (`-i`, `-ui`); a bundle is read up to the
/// first letter that takes a value.
fn is_interactive(grammar: &Grammar, a: &str) -> bool {
    if grammar.interactive.contains(&a) {
        return true;
    }
    if !grammar.bundles || a.starts_with("--") {
        return false;
    }
    for letter in a.chars().skip(1) {
        let option = format!("-{letter}");
        if grammar.interactive.contains(&option.as_str()) {
            return true;
        }
        if grammar.code.contains(&option.as_str())
            || grammar.value.contains(&option.as_str())
            || grammar.module.contains(&option.as_str())
            || grammar.glued.contains(&option.as_str())
        {
            return false;
        }
    }
    false
}

/// The program of a command line; sets `interactive` when an option read
/// before it asks for a session after it (`-i`).
fn read_program<'w>(
    grammar: &Grammar,
    lane: Lane,
    args: &'w [Word],
    interactive: &mut bool,
    preloads: &mut Vec<Preload<'w>>,
) -> Route<'w> {
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let a = arg.value.as_str();
        if a.len() > 1 && a.starts_with('-') && is_interactive(grammar, a) {
            *interactive = true;
        }
        if arg.dynamic && a.starts_with('$') {
            // A program (or an option such as `-c`) only known at run time:
            // nobody can read what it runs.
            return Route::File { lane, path: arg };
        }
        if a == "-" {
            return Route::Stdin { lane };
        }
        if a == "--" {
            return match args.get(i + 1) {
                Some(path) => Route::File { lane, path },
                None => Route::Stdin { lane },
            };
        }
        if !a.starts_with('-') || a.len() == 1 {
            return Route::File { lane, path: arg };
        }
        if grammar.lexicon.contains(&a) {
            return Route::Lexicon;
        }
        if grammar.module.contains(&a) {
            return match args.get(i + 1) {
                Some(module) => Route::Module {
                    lane,
                    name: &module.value,
                },
                None => Route::Lexicon,
            };
        }
        if grammar.code.contains(&a) {
            return match args.get(i + 1) {
                Some(code) => Route::Inline {
                    lane,
                    code: InlineCode::whole(code),
                },
                None => Route::Lexicon,
            };
        }
        // `--eval=CODE` (in a bundle, `-c=1` is the code `=1`)
        if let Some((opt, _)) = a.split_once('=')
            && grammar.code.contains(&opt)
            && (opt.starts_with("--") || !grammar.bundles)
        {
            return Route::Inline {
                lane,
                code: InlineCode::glued(arg, opt.len() + 1),
            };
        }
        // `-r ./setup.js`, `--require=./setup.js`, `-lmod` (no bundles)
        if grammar.preload.contains(&a) {
            if let Some(word) = args.get(i + 1) {
                preloads.push(Preload {
                    word,
                    name: &word.value,
                });
            }
            i += 2;
            continue;
        }
        if let Some((opt, name)) = a.split_once('=')
            && grammar.preload.contains(&opt)
        {
            preloads.push(Preload { word: arg, name });
            i += 1;
            continue;
        }
        if !grammar.bundles
            && let Some(opt) = grammar
                .preload
                .iter()
                .find(|p| p.len() == 2 && a.starts_with(**p))
        {
            preloads.push(Preload {
                word: arg,
                name: &a[opt.len()..],
            });
            i += 1;
            continue;
        }
        if grammar.value.contains(&a) {
            i += 2;
            continue;
        }
        if let Some(plain) = grammar.plain {
            let glued_value = a
                .split_once('=')
                .is_some_and(|(opt, _)| opt.starts_with("--") && grammar.value.contains(&opt));
            if glued_value {
                i += 1;
                continue;
            }
            if !plain.contains(&a) {
                return Route::Lexicon;
            }
        }
        if grammar.bundles && !a.starts_with("--") {
            // `-uc CODE`, `-lne CODE`, `-mjson.tool`: the first letter that
            // takes a value ends the bundle.
            for (at, letter) in a.char_indices().skip(1) {
                let option = format!("-{letter}");
                let after = at + letter.len_utf8();
                let rest_empty = after == a.len();
                if grammar.code.contains(&option.as_str()) {
                    return if rest_empty {
                        match args.get(i + 1) {
                            Some(code) => Route::Inline {
                                lane,
                                code: InlineCode::whole(code),
                            },
                            None => Route::Lexicon,
                        }
                    } else {
                        // `-cprint(1)`: the code is glued on.
                        Route::Inline {
                            lane,
                            code: InlineCode::glued(arg, after),
                        }
                    };
                }
                if grammar.module.contains(&option.as_str()) {
                    return if rest_empty {
                        match args.get(i + 1) {
                            Some(module) => Route::Module {
                                lane,
                                name: &module.value,
                            },
                            None => Route::Lexicon,
                        }
                    } else {
                        // `-mjson.tool`
                        Route::Module {
                            lane,
                            name: a.get(after..).unwrap_or(""),
                        }
                    };
                }
                if grammar.glued_preload.contains(&option.as_str()) {
                    preloads.push(Preload {
                        word: arg,
                        name: a.get(after..).unwrap_or(""),
                    });
                    break;
                }
                if grammar.glued.contains(&option.as_str()) {
                    break;
                }
                if grammar.lexicon.contains(&option.as_str()) {
                    return Route::Lexicon;
                }
                if grammar.preload.contains(&option.as_str()) {
                    // `ruby -rjson`, `ruby -r json`.
                    let name = if rest_empty {
                        i += 1;
                        args.get(i).map(|w| (w, w.value.as_str()))
                    } else {
                        Some((arg, a.get(after..).unwrap_or("")))
                    };
                    if let Some((word, name)) = name {
                        preloads.push(Preload { word, name });
                    }
                    break;
                }
                if grammar.value.contains(&option.as_str()) {
                    if rest_empty {
                        i += 1;
                    }
                    break;
                }
            }
        }
        i += 1;
    }
    Route::Stdin { lane }
}

/// The lane for a script run by its own path (`./fix.py`), from its
/// `#!` line, else its extension; `None` for a shell script or an unknown
/// kind. The bool is true for a shell script.
pub fn lane_of_script(path: &str, first_line: &str) -> Option<Result<Lane, ()>> {
    let shebang = first_line.strip_prefix("#!").map(|s| {
        let mut words = s.split_whitespace();
        let first = words.next().unwrap_or("");
        let program = if first.ends_with("/env") {
            words.find(|w| !w.starts_with('-')).unwrap_or("")
        } else {
            first
        };
        program.rsplit('/').next().unwrap_or("").to_string()
    });
    let name = match shebang {
        Some(program) => program,
        None => {
            let ext = path.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
            match ext {
                "py" => "python".into(),
                "js" | "mjs" | "cjs" => "node".into(),
                "sh" | "bash" => "sh".into(),
                "pl" => "perl".into(),
                "rb" => "ruby".into(),
                _ => return None,
            }
        }
    };
    let trimmed = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    if crate::rules::is_shell(&name) || crate::rules::is_shell(trimmed) {
        return Some(Err(()));
    }
    let empty: [Word; 0] = [];
    match route(trimmed, &empty) {
        Route::Stdin { lane } => Some(Ok(lane)),
        _ => None,
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests;
