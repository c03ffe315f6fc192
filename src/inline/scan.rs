//! The token scan for interpreters without a grammar here: Perl, Ruby, PHP
//! and Lua. It can only raise a verdict, never lower one: these programs
//! stay exec (SIGNED) in the lexicon, and the scan adds what it recognises:
//! calls that spawn, delete, write or eval, and the literal shell lines
//! handed to `system`, `exec`, backticks and their kin, which go back to
//! the shell lane (so `perl -e 'system("rm -rf /")'` meets the floor).
//!
//! Takes the program text and the language; returns [`super::Found`]
//! effects.

use super::{Found, Handoff, one_line};
use crate::rules::CodeEffect;
use crate::shell::Word;

/// Call names that hand a string to a shell, per language.
const SHELL_CALLS: &[(&str, &[&str])] = &[
    ("perl", &["system", "exec", "qx", "readpipe"]),
    (
        "ruby",
        &[
            "system",
            "exec",
            "spawn",
            "IO.popen",
            "Open3.capture2",
            "Open3.capture3",
            "Open3.popen3",
            "%x",
        ],
    ),
    (
        "php",
        &[
            "system",
            "exec",
            "shell_exec",
            "passthru",
            "popen",
            "proc_open",
            "pcntl_exec",
        ],
    ),
    ("lua", &["os.execute", "io.popen"]),
];

/// Tokens that delete, write or evaluate, per language.
const TOKENS: &[(&str, CodeEffect, &[&str])] = &[
    (
        "perl",
        CodeEffect::Delete,
        &["unlink", "rmtree", "remove_tree", "rmdir"],
    ),
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
        CodeEffect::Delete,
        &[
            "File.delete",
            "File.unlink",
            "FileUtils.rm",
            "FileUtils.rm_r",
            "FileUtils.rm_rf",
            "FileUtils.remove",
            "Dir.rmdir",
            "FileUtils.rmdir",
        ],
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
    ("php", CodeEffect::Delete, &["unlink", "rmdir"]),
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
    ("lua", CodeEffect::Delete, &["os.remove"]),
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
    for (lang, calls) in SHELL_CALLS {
        if *lang != language {
            continue;
        }
        for call in *calls {
            for at in token_positions(code, call) {
                let after = &code[at + call.len()..];
                let quoted = if matches!(*call, "qx" | "%x") {
                    quote_like(after)
                } else {
                    first_string(after)
                };
                let handoff = match quoted {
                    Some(line) => Handoff::Line(line),
                    None => match string_list(after) {
                        Some(argv) => {
                            Handoff::Argv(argv.iter().map(|a| Word::literal(a)).collect())
                        }
                        None => Handoff::Unknown(one_line(clip_at(&code[at..], 80))),
                    },
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
    }
    // Backticks run a shell in Perl, Ruby and PHP.
    if language != "lua" {
        let mut rest = code;
        let mut offset = 0;
        while let Some(start) = rest.find('`') {
            let Some(len) = rest[start + 1..].find('`') else {
                break;
            };
            let inner = &rest[start + 1..start + 1 + len];
            let handoff = if inner.contains(['$', '@', '#']) {
                Handoff::Unknown(one_line(inner))
            } else {
                Handoff::Line(inner.to_string())
            };
            found.push(effect(
                CodeEffect::Spawn,
                &rest[start..],
                code,
                offset + start,
                Some(handoff),
            ));
            offset += start + len + 2;
            rest = &rest[start + len + 2..];
        }
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

/// The body of a quote-like operator (`qx(…)`, `qx{…}`, `%x[…]`), when it
/// interpolates nothing.
fn quote_like(after: &str) -> Option<String> {
    let open = after.chars().next()?;
    let close = match open {
        '(' => ')',
        '{' => '}',
        '[' => ']',
        '<' => '>',
        c if c.is_ascii_punctuation() => c,
        _ => return None,
    };
    let body: String = after[open.len_utf8()..]
        .chars()
        .take_while(|c| *c != close)
        .collect();
    let closed = after[open.len_utf8() + body.len()..].starts_with(close);
    (closed && !body.contains(['$', '@', '#'])).then_some(body)
}

/// A list of plain string literals (`("rm", "-rf", "/")`): the argv of
/// `system`'s list form. `None` when any item is not a plain literal.
fn string_list(after: &str) -> Option<Vec<String>> {
    let mut rest = after
        .trim_start()
        .strip_prefix('(')
        .unwrap_or(after)
        .trim_start();
    let mut items = Vec::new();
    loop {
        let quote = rest.chars().next()?;
        if quote != '"' && quote != '\'' {
            return None;
        }
        let body: String = rest[1..].chars().take_while(|c| *c != quote).collect();
        if !rest[1 + body.len()..].starts_with(quote)
            || quote == '"' && body.contains(['$', '@', '#', '\\'])
        {
            return None;
        }
        items.push(body.clone());
        rest = rest[2 + body.len()..].trim_start();
        match rest.chars().next() {
            Some(',') => rest = rest[1..].trim_start(),
            _ => return (items.len() > 1).then_some(items),
        }
        if items.len() > 256 {
            return None;
        }
    }
}

/// The first string literal right after a call name: `("…")`, ` '…'`,
/// `q{…}`, `{…}` (Perl `qx{}`). `None` when the argument is not a plain
/// literal (an interpolated variable, a list, a function call).
fn first_string(after: &str) -> Option<String> {
    let t = after.trim_start().trim_start_matches('(').trim_start();
    let mut chars = t.chars();
    let open = chars.next()?;
    let close = match open {
        '"' | '\'' => open,
        '{' => '}',
        '/' | '|' | '!' => open,
        _ => return None,
    };
    let body: String = chars.take_while(|c| *c != close).collect();
    if !t[open.len_utf8() + body.len()..].starts_with(close) {
        return None;
    }
    // Double quotes interpolate in Perl, Ruby (`#{}`) and PHP.
    if open != '\'' && body.contains(['$', '@', '#']) {
        return None;
    }
    let rest = t[open.len_utf8() + body.len() + 1..].trim_start();
    // `system("rm", "-rf", $x)`: a list, not one line.
    if rest.starts_with(',') {
        return None;
    }
    Some(body)
}

#[cfg(test)]
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
        assert!(matches!(&f[0].handoff, Some(Handoff::Unknown(_))));
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
