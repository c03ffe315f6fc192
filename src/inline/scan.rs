//! The token scan for interpreters without a grammar here: Perl, Ruby, PHP
//! and Lua. It can only raise a verdict, never lower one: these programs
//! stay exec (SIGNED) in the lexicon, and the scan adds what it recognises:
//! calls that spawn, delete, write or eval, and the literal shell lines
//! handed to `system`, `exec`, backticks and their kin, which go back to
//! the shell lane (so `perl -e 'system("rm -rf /")'` meets the floor).
//!
//! Takes the program text and the language; returns [`super::Found`]
//! effects.

use super::literal::{self, Arg};
use super::{Found, Handoff, one_line};
use crate::rules::CodeEffect;
use crate::shell::Word;

/// How a call hands its arguments on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The first argument is a shell line, whatever follows
    /// (`popen("…", "r")`, `proc_open`, `os.execute`).
    Line,
    /// One argument is a shell line, more are an argv (`system("rm",
    /// "-rf", $d)`): Perl's and Ruby's `system`, `exec`, `spawn`, `Open3`.
    Command,
    /// The arguments are a program and its argv (`pcntl_exec`).
    Program,
    /// Deletes the paths its arguments name, as this command would.
    Delete(&'static str),
    /// Opens a pipe to a command when its mode or path says so (Perl's
    /// `open(F, "-|", "cmd")`, `open(F, "cmd |")`, Ruby's `open("|cmd")`).
    PipeOpen,
}

/// Calls with effects the scan reads arguments of, per language: the
/// names, the receivers they may be called on (`Kernel.system`,
/// `CORE::system`, `File::Path::rmtree`; `*` is any receiver), and whether
/// the bare name counts.
struct Call {
    language: &'static str,
    names: &'static [&'static str],
    receivers: &'static [&'static str],
    bare: bool,
    kind: Kind,
}

const PERL_CORE: &[&str] = &["CORE", "GLOBAL", "main"];

const CALLS: &[Call] = &[
    Call {
        language: "perl",
        names: &["system", "exec"],
        receivers: PERL_CORE,
        bare: true,
        kind: Kind::Command,
    },
    Call {
        language: "perl",
        names: &["readpipe"],
        receivers: PERL_CORE,
        bare: true,
        kind: Kind::Line,
    },
    Call {
        language: "perl",
        names: &["open"],
        receivers: PERL_CORE,
        bare: true,
        kind: Kind::PipeOpen,
    },
    Call {
        language: "perl",
        names: &["rmtree", "remove_tree"],
        receivers: &["Path"],
        bare: true,
        kind: Kind::Delete("rm -rf"),
    },
    Call {
        language: "perl",
        names: &["unlink"],
        receivers: PERL_CORE,
        bare: true,
        kind: Kind::Delete("rm"),
    },
    Call {
        language: "perl",
        names: &["rmdir"],
        receivers: PERL_CORE,
        bare: true,
        kind: Kind::Delete("rmdir"),
    },
    Call {
        language: "ruby",
        names: &["system", "exec", "spawn"],
        receivers: &["Kernel", "Process", "Object", "self", "PTY"],
        bare: true,
        kind: Kind::Command,
    },
    Call {
        language: "ruby",
        names: &[
            "capture2",
            "capture2e",
            "capture3",
            "popen2",
            "popen2e",
            "popen3",
            "pipeline",
            "pipeline_r",
            "pipeline_w",
            "pipeline_rw",
            "pipeline_start",
        ],
        receivers: &["Open3"],
        bare: true,
        kind: Kind::Command,
    },
    Call {
        language: "ruby",
        names: &["popen"],
        receivers: &["IO"],
        bare: false,
        kind: Kind::Line,
    },
    Call {
        language: "ruby",
        names: &["open"],
        receivers: &["Kernel", "URI"],
        bare: true,
        kind: Kind::PipeOpen,
    },
    Call {
        language: "ruby",
        names: &[
            "read",
            "readlines",
            "foreach",
            "write",
            "binread",
            "binwrite",
        ],
        receivers: &["IO"],
        bare: false,
        kind: Kind::PipeOpen,
    },
    Call {
        language: "ruby",
        names: &[
            "rm_rf",
            "rm_r",
            "rmtree",
            "remove_dir",
            "remove_entry",
            "remove_entry_secure",
        ],
        receivers: &["FileUtils", "*"],
        bare: true,
        kind: Kind::Delete("rm -rf"),
    },
    Call {
        language: "ruby",
        names: &["rm", "rm_f", "remove", "remove_file", "safe_unlink"],
        receivers: &["FileUtils"],
        bare: false,
        kind: Kind::Delete("rm"),
    },
    Call {
        language: "ruby",
        names: &["delete", "unlink"],
        receivers: &["File"],
        bare: false,
        kind: Kind::Delete("rm"),
    },
    Call {
        language: "ruby",
        names: &["rmdir", "delete", "unlink"],
        receivers: &["Dir", "FileUtils"],
        bare: false,
        kind: Kind::Delete("rmdir"),
    },
    Call {
        language: "php",
        names: &[
            "system",
            "exec",
            "shell_exec",
            "passthru",
            "popen",
            "proc_open",
        ],
        receivers: &[],
        bare: true,
        kind: Kind::Line,
    },
    Call {
        language: "php",
        names: &["pcntl_exec"],
        receivers: &[],
        bare: true,
        kind: Kind::Program,
    },
    Call {
        language: "php",
        names: &["unlink"],
        receivers: &[],
        bare: true,
        kind: Kind::Delete("rm"),
    },
    Call {
        language: "php",
        names: &["rmdir"],
        receivers: &[],
        bare: true,
        kind: Kind::Delete("rmdir"),
    },
    Call {
        language: "lua",
        names: &["execute"],
        receivers: &["os"],
        bare: false,
        kind: Kind::Line,
    },
    Call {
        language: "lua",
        names: &["popen"],
        receivers: &["io"],
        bare: false,
        kind: Kind::Line,
    },
    Call {
        language: "lua",
        names: &["remove"],
        receivers: &["os"],
        bare: false,
        kind: Kind::Delete("rm"),
    },
];

/// Quote-like operators that run their body in a shell (`qx{…}`, `%x(…)`).
const QUOTE_SHELL: &[(&str, &str)] = &[("perl", "qx"), ("ruby", "%x")];

/// Tokens that delete, write or evaluate, per language.
const TOKENS: &[(&str, CodeEffect, &[&str])] = &[
    (
        "perl",
        CodeEffect::Write,
        &[
            "open",
            "rename",
            "chmod",
            "chown",
            "mkdir",
            "make_path",
            "copy",
            "move",
            "symlink",
            "truncate",
        ],
    ),
    ("perl", CodeEffect::Dynamic, &["eval"]),
    (
        "perl",
        CodeEffect::Network,
        &["IO::Socket", "LWP", "HTTP::Tiny", "Net::", "Socket"],
    ),
    (
        "ruby",
        CodeEffect::Write,
        &[
            "File.write",
            "File.open",
            "IO.write",
            "File.rename",
            "FileUtils.mv",
            "FileUtils.cp",
            "FileUtils.mkdir",
            "FileUtils.touch",
            "File.chmod",
            "FileUtils.chmod",
        ],
    ),
    (
        "ruby",
        CodeEffect::Dynamic,
        &["eval", "instance_eval", "class_eval", "send"],
    ),
    (
        "ruby",
        CodeEffect::Network,
        &["Net::HTTP", "open-uri", "TCPSocket", "URI.open", "Socket"],
    ),
    (
        "php",
        CodeEffect::Write,
        &[
            "file_put_contents",
            "fopen",
            "fwrite",
            "rename",
            "copy",
            "mkdir",
            "chmod",
            "chown",
            "touch",
            "symlink",
        ],
    ),
    (
        "php",
        CodeEffect::Dynamic,
        &["eval", "assert", "create_function", "include", "require"],
    ),
    (
        "php",
        CodeEffect::Network,
        &[
            "curl_exec",
            "fsockopen",
            "file_get_contents(\"http",
            "file_get_contents('http",
            "stream_socket_client",
        ],
    ),
    ("lua", CodeEffect::Write, &["io.open", "os.rename"]),
    (
        "lua",
        CodeEffect::Dynamic,
        &["loadstring", "load", "dofile", "loadfile"],
    ),
    ("lua", CodeEffect::Network, &["socket."]),
];

/// Scans `code` written in `language` (`perl`, `ruby`, `php`, `lua`).
pub fn scan(language: &str, code: &str) -> Vec<Found> {
    let mut found = Vec::new();
    // PHP's function names are case-insensitive (`SyStEm`); lowering ASCII
    // keeps every byte where it is.
    let names = if language == "php" {
        code.to_ascii_lowercase()
    } else {
        code.to_string()
    };
    for call in CALLS.iter().filter(|c| c.language == language) {
        for name in call.names {
            for (at, args_at) in call_positions(&names, name, call) {
                let args = call_arguments_of(language, call.kind, &code[args_at..]);
                let site = &code[at..];
                match call.kind {
                    Kind::Delete(equivalent) => {
                        let mut here = effect(CodeEffect::Delete, site, code, at, None);
                        here.equivalent = equivalent;
                        here.paths = args
                            .iter()
                            .filter(|a| !a.is_keyword_option() && !is_options_hash(a))
                            .flat_map(|a| match a {
                                // `FileUtils.rm_rf([a, b])`: each path.
                                Arg::Other(source) if source.starts_with('[') => {
                                    literal::arguments(language, &source[1..])
                                        .iter()
                                        .map(Arg::word)
                                        .collect::<Vec<_>>()
                                }
                                other => vec![other.word()],
                            })
                            .collect();
                        found.push(here);
                    }
                    Kind::PipeOpen => {
                        if let Some(handoff) = pipe_open(language, &args) {
                            found.push(effect(CodeEffect::Spawn, site, code, at, Some(handoff)));
                        }
                    }
                    kind => {
                        let handoff = shell_handoff(language, kind, &args, site);
                        found.push(effect(CodeEffect::Spawn, site, code, at, Some(handoff)));
                    }
                }
            }
        }
    }
    for (lang, op) in QUOTE_SHELL {
        if *lang != language {
            continue;
        }
        for at in token_positions(code, op) {
            let after = &code[at + op.len()..];
            let handoff = match quote_like(language, after) {
                Some(line) => Handoff::Line(line),
                None => Handoff::Unknown(one_line(clip_at(&code[at..], 80))),
            };
            found.push(effect(
                CodeEffect::Spawn,
                &code[at..],
                code,
                at,
                Some(handoff),
            ));
        }
    }
    // Backticks run a shell in Perl, Ruby and PHP.
    if language != "lua" {
        backticks(language, code, &mut found);
    }
    for (lang, kind, tokens) in TOKENS {
        if *lang != language {
            continue;
        }
        for token in *tokens {
            if let Some(at) = token_positions(code, token).into_iter().next() {
                // Perl's `open(F, "<x")` and `open F, "x"` read; a `>` or `|`
                // in the mode writes or spawns.
                if *token == "open" && language == "perl" && !code[at..].contains(['>', '|']) {
                    continue;
                }
                if *token == "File.open" && !clip_at(&code[at..], 60).contains(['w', 'a']) {
                    continue;
                }
                if *token == "fopen" && !clip_at(&code[at..], 60).contains(['w', 'a', 'x', '+']) {
                    continue;
                }
                let mut found_here = effect(*kind, &code[at..], code, at, None);
                if matches!(kind, CodeEffect::Write | CodeEffect::Delete) {
                    let after = &code[at + token.len()..];
                    found_here.paths = written_path(language, token, after).into_iter().collect();
                }
                found.push(found_here);
            }
        }
    }
    found
}

/// The path a write or delete call names, when it is a literal: the first
/// argument (`File.write('x', …)`, `unlink('x')`), or for Perl's `open`
/// the path after a writing mode (`open(my $f, ">", "x")`, `open(F,
/// ">>x")`). A path built at run time is not returned (the call's own
/// finding stays).
fn written_path(language: &str, token: &str, after: &str) -> Option<Word> {
    let args = call_arguments(after);
    if language == "perl" && token == "open" {
        let writes = |mode: &str| {
            let mode = mode.trim_start();
            mode.starts_with('>') || mode.starts_with("+<")
        };
        return match args.as_slice() {
            [_, Some(mode), Some(path), ..] if writes(mode) => Some(Word::literal(path)),
            [_, Some(joined)] if writes(joined) => {
                let path = joined
                    .trim_start()
                    .trim_start_matches(['+', '<', '>'])
                    .trim();
                (!path.is_empty()).then(|| Word::literal(path))
            }
            _ => None,
        };
    }
    args.first().cloned().flatten().map(|p| Word::literal(&p))
}

/// The arguments of a call, up to four: each a literal string (`Some`), or
/// anything else (`None`). Stops at the closing parenthesis, `;` or a
/// newline.
fn call_arguments(after: &str) -> Vec<Option<String>> {
    let text = after.trim_start();
    let text = text.strip_prefix('(').unwrap_or(text);
    let mut args = Vec::new();
    let mut chars = text.char_indices().peekable();
    while args.len() < 4 {
        while chars.peek().is_some_and(|(_, c)| *c == ' ' || *c == '\t') {
            chars.next();
        }
        let Some(&(_, c)) = chars.peek() else { break };
        if matches!(c, ')' | ';' | '\n') {
            break;
        }
        if c == '"' || c == '\'' {
            chars.next();
            let mut body = String::new();
            let mut closed = false;
            for (_, d) in chars.by_ref() {
                if d == c {
                    closed = true;
                    break;
                }
                body.push(d);
            }
            let interpolates = c == '"' && body.contains(['$', '@', '#', '\\']);
            args.push((closed && !interpolates).then_some(body));
        } else {
            let mut depth = 0;
            while let Some(&(_, d)) = chars.peek() {
                match d {
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' if depth > 0 => depth -= 1,
                    ',' | ')' | ';' | '\n' if depth == 0 => break,
                    _ => {}
                }
                chars.next();
            }
            args.push(None);
        }
        while chars.peek().is_some_and(|(_, c)| *c == ' ' || *c == '\t') {
            chars.next();
        }
        match chars.peek() {
            Some((_, ',')) => {
                chars.next();
            }
            _ => break,
        }
    }
    args
}

fn effect(kind: CodeEffect, from: &str, code: &str, at: usize, handoff: Option<Handoff>) -> Found {
    Found {
        effect: kind,
        call: one_line(clip_at(from, 80)),
        line: code[..at].matches('\n').count() + 1,
        paths: Vec::new(),
        equivalent: "",
        mode: None,
        handoff,
    }
}

fn clip_at(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let line_end = text[..end].find('\n').unwrap_or(end);
    &text[..line_end]
}

/// Where `token` occurs as a whole word (not inside another name) used as
/// a call: followed by `(`, a string, a variable or a block, not by `/`,
/// `=` or `.` (a regex, an assignment, a method of something else).
fn token_positions(code: &str, token: &str) -> Vec<usize> {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let word_token = token.chars().last().is_some_and(is_name);
    code.match_indices(token)
        .map(|(at, _)| at)
        .filter(|&at| {
            let before = code[..at].chars().next_back();
            let rest = &code[at + token.len()..];
            let after = rest.chars().next();
            if before.is_some_and(|c| is_name(c) || matches!(c, '$' | '@' | '%' | '.' | '/' | ':'))
                && !token.contains("::")
            {
                return false;
            }
            if !word_token {
                return true;
            }
            if after.is_some_and(is_name) {
                return false;
            }
            // `qx{…}`, `qx/…/`, `%x(…)`: any delimiter.
            if matches!(token, "qx" | "%x") {
                return after.is_some_and(|c| c.is_ascii_punctuation());
            }
            let next = rest.trim_start().chars().next();
            let spaced = rest.starts_with([' ', '\t']);
            match next {
                Some('(' | '"' | '\'' | '$' | '@' | '{' | '`') => true,
                Some(c) if is_name(c) => spaced,
                _ => false,
            }
        })
        .take(32)
        .collect()
}

/// The body of a quote-like operator (`qx(…)`, `qx{…}`, `%x[…]`), with
/// the home folder interpolated as `$HOME`; `None` when it interpolates
/// anything else (`qx'…'` interpolates nothing).
fn quote_like(language: &str, after: &str) -> Option<String> {
    let open = after.chars().next()?;
    if !open.is_ascii_punctuation() {
        return None;
    }
    let close = match open {
        '(' => ')',
        '{' => '}',
        '[' => ']',
        '<' => '>',
        c => c,
    };
    let rest = &after[open.len_utf8()..];
    let end = rest.find(close)?;
    let body = &rest[..end];
    if open == '\'' {
        return Some(body.to_string());
    }
    literal::double_quoted(language, body)
}

/// Backtick commands (`` `…` ``), and Ruby's `` Kernel.`("…") ``: each a
/// spawn whose line is handed over when known.
fn backticks(language: &str, code: &str, found: &mut Vec<Found>) {
    let mut from = 0;
    let mut count = 0;
    while let Some(offset) = code[from..].find('`') {
        let start = from + offset;
        count += 1;
        if count > 64 {
            break;
        }
        let rest = &code[start + 1..];
        if language == "ruby" && rest.starts_with('(') {
            // The backtick method called by name.
            let args = literal::arguments(language, rest);
            let handoff = shell_handoff(language, Kind::Line, &args, &code[start..]);
            found.push(effect(
                CodeEffect::Spawn,
                &code[start..],
                code,
                start,
                Some(handoff),
            ));
            from = start + 1;
            continue;
        }
        let Some(len) = rest.find('`') else {
            // An unclosed backtick: a command nobody can read.
            found.push(effect(
                CodeEffect::Spawn,
                &code[start..],
                code,
                start,
                Some(Handoff::Unknown(one_line(clip_at(&code[start..], 80)))),
            ));
            break;
        };
        let inner = &rest[..len];
        let handoff = match literal::double_quoted(language, inner) {
            Some(line) => Handoff::Line(line),
            None => Handoff::Unknown(one_line(inner)),
        };
        found.push(effect(
            CodeEffect::Spawn,
            &code[start..],
            code,
            start,
            Some(handoff),
        ));
        from = start + len + 2;
    }
}

/// The arguments of a call; Perl's indirect program (`system { "rm" }
/// "ls", "-rf", …`) comes first, as a `{…}` argument.
fn call_arguments_of(language: &str, kind: Kind, after: &str) -> Vec<Arg> {
    let text = after.trim_start();
    if language == "perl"
        && kind == Kind::Command
        && let Some(body) = text.strip_prefix('{')
        && let Some(end) = body.find('}')
    {
        let mut args = vec![Arg::Other(format!("{{{}}}", &body[..end]))];
        args.extend(literal::arguments(language, &body[end + 1..]));
        return args;
    }
    literal::arguments(language, after)
}

/// What a call that runs a command hands over, from its arguments.
fn shell_handoff(language: &str, kind: Kind, args: &[Arg], site: &str) -> Handoff {
    let unknown = || Handoff::Unknown(one_line(clip_at(site, 80)));
    let mut args: Vec<Arg> = args
        .iter()
        .filter(|a| !a.is_keyword_option())
        .cloned()
        .collect();
    // Ruby's environment hash before the command (`system({"A" => "1"},
    // "ls")`), Perl's indirect program (`system { "rm" } "ls", "-rf"`).
    let block = match args.first() {
        Some(Arg::Other(source)) if source.starts_with('{') => Some(source.clone()),
        _ => None,
    };
    if let Some(source) = block {
        args.remove(0);
        if language == "perl" {
            let inner = source.trim_start_matches('{');
            match (
                literal::arguments(language, inner).as_slice(),
                args.first_mut(),
            ) {
                ([program @ Arg::Text(_)], Some(first)) => *first = program.clone(),
                _ => return unknown(),
            }
        }
    }
    match (kind, args.as_slice()) {
        (_, []) => unknown(),
        (Kind::Line, [first, ..]) | (Kind::Command, [first]) => match first {
            Arg::Text(line) => Handoff::Line(line.clone()),
            Arg::Other(_) => unknown(),
        },
        (Kind::Program, [program, rest @ ..]) => {
            let mut words = vec![program.word()];
            for arg in rest {
                match arg {
                    // `pcntl_exec("/bin/rm", ["-rf", "/"])`.
                    Arg::Other(source) if source.starts_with('[') => {
                        words.extend(
                            literal::arguments(language, &source[1..])
                                .iter()
                                .map(Arg::word),
                        );
                    }
                    other => words.push(other.word()),
                }
            }
            Handoff::Argv(words)
        }
        (_, many) => Handoff::Argv(many.iter().map(Arg::word).collect()),
    }
}

/// The command a pipe-opening call runs, if its mode or path opens a
/// pipe: Perl's `open(F, "-|", "cmd", …)`, `open(F, "cmd |")`, `open(F,
/// "| cmd")`; Ruby's `open("| cmd")`, `IO.read("|cmd")`.
fn pipe_open(language: &str, args: &[Arg]) -> Option<Handoff> {
    let piped = |text: &str| -> Option<String> {
        let t = text.trim();
        if let Some(line) = t.strip_prefix('|') {
            return Some(line.to_string());
        }
        t.strip_suffix('|').map(str::to_string)
    };
    match language {
        "perl" => match args {
            [_, Arg::Text(mode), rest @ ..] if matches!(mode.trim(), "-|" | "|-") => {
                Some(shell_handoff(language, Kind::Command, rest, "open"))
            }
            [_, Arg::Other(mode), ..] if mode.contains('|') => {
                Some(Handoff::Unknown(one_line(clip_at(mode, 80))))
            }
            [_, Arg::Text(joined)] => piped(joined).map(Handoff::Line),
            _ => None,
        },
        _ => match args.first() {
            Some(Arg::Text(path)) => path
                .trim_start()
                .strip_prefix('|')
                .map(|line| Handoff::Line(line.to_string())),
            _ => None,
        },
    }
}

/// Whether an argument is a Perl options hash (`remove_tree($d, {…})`).
fn is_options_hash(arg: &Arg) -> bool {
    matches!(arg, Arg::Other(source) if source.starts_with('{'))
}

/// Where `name` is called as `call` allows: bare, or on one of its
/// receivers (`Kernel.system`, `CORE::system`, `File::Path::rmtree`), or
/// (Ruby) by symbol through `send(:system, …)`. Returns the name's byte
/// and where its arguments start; at most 32.
fn call_positions(code: &str, name: &str, call: &Call) -> Vec<(usize, usize)> {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for (at, _) in code.match_indices(name) {
        if out.len() >= 32 {
            break;
        }
        let before = &code[..at];
        let rest = &code[at + name.len()..];
        if rest.chars().next().is_some_and(is_name) {
            continue;
        }
        let args_at = at + name.len();
        match before.chars().next_back() {
            // `:system` (a Ruby symbol) handed to `send`: its arguments
            // follow the comma.
            Some(':')
                if call.language == "ruby"
                    && !before.ends_with("::")
                    && rest.trim_start().starts_with(',') =>
            {
                let comma = rest.find(',').unwrap_or(0);
                out.push((at, args_at + comma + 1));
                continue;
            }
            Some('.' | ':') => {
                let qualifier = before.trim_end_matches(['.', ':']).trim_end();
                let receiver: String = qualifier
                    .chars()
                    .rev()
                    .take_while(|c| is_name(*c))
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                let known =
                    call.receivers.contains(&"*") || call.receivers.contains(&receiver.as_str());
                if !known || before.ends_with("->") {
                    continue;
                }
            }
            Some(c) if is_name(c) || matches!(c, '$' | '@' | '%' | '>') => continue,
            _ if !call.bare => continue,
            _ => {}
        }
        if looks_called(rest, call.language) {
            out.push((at, args_at));
        }
    }
    out
}

/// Whether the text after a name makes it a call: `(`, a string, a
/// variable, a block, or (spaced) another word; not `=`, `/` or `.`.
fn looks_called(rest: &str, language: &str) -> bool {
    let next = rest.trim_start_matches([' ', '\t']).chars().next();
    let spaced = rest.starts_with([' ', '\t']);
    match next {
        Some('(' | '"' | '\'' | '$' | '@' | '{' | '`') => true,
        Some('%' | '[') => spaced || language == "lua",
        Some(':') => spaced && language == "ruby",
        Some(c) if c.is_ascii_alphanumeric() || c == '_' => spaced,
        _ => false,
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn written_paths_are_found() {
        let path = |lang: &str, code: &str| {
            scan(lang, code)
                .into_iter()
                .flat_map(|f| f.paths)
                .map(|w| w.value)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            path("perl", r#"open(my $f, ">", ".env") or die;"#),
            vec![".env"]
        );
        assert_eq!(path("perl", r#"open(F, ">>log.txt");"#), vec!["log.txt"]);
        assert!(path("perl", r#"open(F, "<in.txt"); open(G, ">", $out);"#).is_empty());
        assert_eq!(
            path("ruby", "File.write('.mcp.json', '{}')"),
            vec![".mcp.json"]
        );
        assert_eq!(
            path("php", "file_put_contents(\".env\", $x);"),
            vec![".env"]
        );
        assert!(path("php", "file_put_contents(\"$dir/x\", 1);").is_empty());
    }

    #[test]
    fn shell_lines_are_handed_over() {
        let f = scan("perl", "system(\"rm -rf /\")");
        assert!(matches!(&f[0].handoff, Some(Handoff::Line(l)) if l == "rm -rf /"));
        let f = scan("ruby", "puts `git push --force`");
        assert!(matches!(&f[0].handoff, Some(Handoff::Line(l)) if l == "git push --force"));
        let f = scan("php", "shell_exec('ls')");
        assert!(matches!(&f[0].handoff, Some(Handoff::Line(l)) if l == "ls"));
        let f = scan("perl", "system(\"rm\", \"-rf\", $d)");
        assert!(matches!(&f[0].handoff, Some(Handoff::Argv(a)) if a.len() == 3 && a[2].dynamic));
        let f = scan("perl", "system(\"rm\", \"-rf\", \"/\")");
        assert!(matches!(&f[0].handoff, Some(Handoff::Argv(a)) if a.len() == 3));
        let f = scan("perl", "qx(rm -rf /)");
        assert!(matches!(&f[0].handoff, Some(Handoff::Line(l)) if l == "rm -rf /"));
        let f = scan("ruby", "%x{git push --force}");
        assert!(matches!(&f[0].handoff, Some(Handoff::Line(l)) if l == "git push --force"));
    }

    #[test]
    fn plain_programs_find_nothing() {
        assert!(scan("perl", "print \"hi\\n\"; my @a = (1, 2);").is_empty());
        assert!(scan("perl", "while (<>) { print if /system/ }").is_empty());
        assert!(scan("ruby", "puts [1,2].map { |x| x * 2 }").is_empty());
    }
}
