//! What feeds an interpreter its program: text written in the command line
//! (a heredoc, `echo '…' |`), a file, the network (`curl … |`), a decoder
//! (`base64 -d |`), or something only known at run time. Takes a command's
//! stdin or a word's substitutions and returns a [`Producer`]; the engine
//! turns the network and decoders into floor findings.

use crate::limits;
use crate::peel::{self, Step};
use crate::shell::{self, Script, SimpleCommand, Stdin, Word};

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
        Stdin::File(_) => Producer::File,
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
                        let text: Vec<&str> = words[1..]
                            .iter()
                            .map(|w| w.value.as_str())
                            .skip_while(|w| verb == "echo" && w.starts_with('-'))
                            .collect();
                        literal.push_str(&text.join(" "));
                        literal.push('\n');
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
    found
}
