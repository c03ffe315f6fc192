//! Hard limits on what one request may make portcullis do. Past each one
//! the request gets a `parse.*` verdict that is never FREE, in bounded time
//! and memory. The README lists them.
#![deny(clippy::indexing_slicing)]

/// Largest command accepted, in bytes (1 MiB). Longer is `parse.too-large`.
pub const MAX_COMMAND_BYTES: usize = 1 << 20;

/// Largest hook request read from stdin, in bytes (the command plus the
/// JSON around it).
pub const MAX_STDIN_BYTES: usize = 4 << 20;

/// Deepest syntax-tree nesting the walk follows (`$( $( … ) )`).
pub const MAX_TREE_DEPTH: usize = 256;

/// Most simple commands judged in one request.
pub const MAX_COMMANDS: usize = 10_000;

/// Most words (arguments, in every command) judged in one script. Each is
/// decoded, resolved and matched: past this the request is refused.
pub const MAX_WORDS: usize = 100_000;

/// Most blank-separated tokens in one script before it is refused without
/// parsing: tree-sitter-bash's tree takes ~250 bytes a token (100,000
/// tokens: 30 MiB at peak).
pub const MAX_TOKENS: usize = 100_000;

/// How many times, on average, a parser may read each 512-byte chunk of
/// the text (plus a margin of 256 reads) before it is stopped and the
/// line refused: ordinary commands need at most 11, some malformed ones
/// (64 KiB of unmatched `)`) tens of thousands, growing with the square of
/// their length.
pub const MAX_READS_PER_CHUNK: usize = 64;

/// Most `|` in one script before it is refused without parsing:
/// tree-sitter-bash's memory grows with the square of a pipeline's length
/// (3,000 stages took 128 MiB).
pub const MAX_PIPES: usize = 1_000;

/// Most command separators (`|`, `;`, `&`, newlines) in one request before
/// it is refused without parsing: far more than `MAX_COMMANDS` commands.
pub const MAX_SEPARATORS: usize = 20_000;

/// Deepest chain of wrappers and re-parsed scripts (`sudo bash -c "eval …"`).
pub const MAX_PEEL_DEPTH: usize = 16;

/// Most wrappers read two ways (`watch`, `xargs`: see `peel::Step::Either`)
/// in one request.
pub const MAX_OTHER_READINGS: usize = 16;

/// Most words, summed over those readings, read a second way in one
/// request: each reading peels its words again, so a line of thousands
/// of `xargs` would copy them all at every layer of every reading.
pub const MAX_OTHER_READING_WORDS: usize = 16 << 10;

/// Largest heredoc or `-c` script parsed again as shell, in bytes.
pub const MAX_SCRIPT_BYTES: usize = 256 << 10;

/// At most `max` bytes of `s`, cut at a character boundary.
pub fn clip(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while end > 0 && !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Brackets (`(`, `[`, `{`) open at once in Python or JavaScript code past
/// which it is not parsed: tree-sitter's error recovery on thousands of
/// unclosed calls took 650 MiB for 64 KiB of code. CPython itself refuses
/// more than 200 nested parentheses.
pub const MAX_CODE_NESTING: usize = 200;
