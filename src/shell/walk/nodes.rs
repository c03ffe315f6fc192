//! Small questions the walk asks of bash nodes and text: where a heredoc
//! body starts and ends as bash reads it, what an operator writes, the
//! shape of a fork bomb, backquoted bodies. Take nodes or text; return
//! answers. Touch nothing.

use crate::shell::parse::kind;
use crate::shell::word::{Word, text};
use tree_sitter::Node;

/// The bodies of consecutive backquoted substitutions in `raw` (which
/// starts with a backquote), each unescaped as bash does: `\` followed by
/// `` ` ``, `$` or `\` stands for that character; other backslashes stay.
pub(super) fn split_backquoted(raw: &str) -> Vec<String> {
    let mut bodies = Vec::new();
    let mut chars = raw.chars().peekable();
    while chars.next_if_eq(&'`').is_some() {
        let mut body = String::new();
        loop {
            match chars.next() {
                None | Some('`') => break,
                Some('\\') => match chars.peek() {
                    Some(&c @ ('`' | '$' | '\\')) => {
                        chars.next();
                        body.push(c);
                    }
                    _ => body.push('\\'),
                },
                Some(c) => body.push(c),
            }
        }
        bodies.push(body);
    }
    bodies
}

/// The and-or list tree-sitter made a pipeline stage of (see
/// `walk_pipeline`): the stage itself, or the body of its redirections.
pub(super) fn list_in_stage(stage: Node) -> Option<Node> {
    match kind(stage) {
        "list" => Some(stage),
        "redirected_statement" => stage
            .child_by_field_name("body")
            .filter(|body| kind(body) == "list"),
        _ => None,
    }
}

/// Whether `node` has an ancestor of kind `kind`.
pub(super) fn inside(node: Node, wanted: &str) -> bool {
    let mut current = node.parent();
    while let Some(parent) = current {
        if kind(parent) == wanted {
            return true;
        }
        current = parent.parent();
    }
    false
}

/// Words bash reserves: never a command name when unquoted.
pub(super) const RESERVED_WORDS: &[&str] = &[
    "do", "done", "elif", "else", "esac", "fi", "in", "then", "}", "]]",
];

pub(super) fn first_anonymous(node: Node) -> Option<Node> {
    let mut cursor = node.walk();

    node.children(&mut cursor).find(|c| !c.is_named())
}

pub(super) fn last_named(node: Node) -> Option<Node> {
    let count = node.named_child_count();
    if count == 0 {
        None
    } else {
        node.named_child((count - 1) as u32)
    }
}

pub(super) fn is_write_operator(op: &str) -> bool {
    matches!(op, ">" | ">>" | "&>" | "&>>" | ">|" | "<>" | ">&")
}

/// `2>&1`, `>&2`: duplicating a descriptor writes no file.
pub(super) fn is_fd_duplication(op: &str, target: &Word) -> bool {
    (op == ">&" || op == "<&")
        && (target.value.chars().all(|c| c.is_ascii_digit()) || target.value == "-")
        || (op == ">&" && target.value.ends_with('-'))
}

pub(super) fn has_bare_newline(gap: &[u8]) -> bool {
    let mut previous = 0u8;
    for &b in gap {
        if b == b'\n' && previous != b'\\' {
            return true;
        }
        previous = b;
    }
    false
}

/// The body of a heredoc without its closing delimiter line.
/// A heredoc's body as bash reads it: every line after the line with the
/// `<<`. tree-sitter starts the body node at its first non-blank character,
/// leaving out leading blank lines and the first line's indentation.
pub(super) fn heredoc_text(body: Node, src: &[u8]) -> String {
    let start = heredoc_start(body, src);
    std::str::from_utf8(src.get(start..body.end_byte()).unwrap_or(&[]))
        .unwrap_or("")
        .to_string()
}

/// Where a heredoc's body starts as bash reads it (see [`heredoc_text`]).
pub(crate) fn heredoc_start(body: Node, src: &[u8]) -> usize {
    let node_start = body.start_byte();
    let mut blank_start = node_start;
    while blank_start > 0 && matches!(src.get(blank_start - 1), Some(b' ' | b'\t' | b'\n')) {
        blank_start -= 1;
    }
    src.get(blank_start..node_start)
        .and_then(|blanks| blanks.iter().position(|b| *b == b'\n'))
        .map_or(node_start, |newline| blank_start + newline + 1)
}

/// The start of the line holding byte `at`.
pub(super) fn line_start(src: &[u8], at: usize) -> usize {
    src.get(..at)
        .and_then(|before| before.iter().rposition(|b| *b == b'\n'))
        .map_or(0, |newline| newline + 1)
}

/// Where the text that holds `node` ends for bash's heredoc rules: inside
/// `$( )`, `` ` ` `` or `<( )`, bash reads the substitution's text first,
/// so a heredoc there ends at its closing character at the latest
/// (`$(cat <<EOF`, `hi`, `EOF)` is `hi`); elsewhere, the end of the text.
pub(super) fn text_end(node: Node, len: usize) -> usize {
    let mut at = node.parent();
    while let Some(parent) = at {
        if matches!(
            kind(parent),
            "command_substitution" | "process_substitution"
        ) {
            return parent.end_byte().saturating_sub(1).min(len);
        }
        at = parent.parent();
    }
    len
}

/// A heredoc's body as bash reads it (see [`bash_heredoc`]).
pub(super) struct BashHeredoc {
    /// The body.
    pub(super) body: String,
    /// Where the end line starts; `None` when no line ends the body.
    pub(super) end_line: Option<usize>,
    /// Where the body and its end line end.
    pub(super) past_end: usize,
    /// The text after the end line.
    pub(super) after: Option<String>,
}

/// A heredoc's body read as bash reads it, from byte `from` (the start of
/// its first line) to the line that is `delimiter` alone (after tabs, for
/// `<<-`), and the text after that line up to byte `limit` (see
/// [`text_end`]); with no such line, the body runs to `limit` and nothing
/// comes after it.
pub(super) fn bash_heredoc(
    src: &[u8],
    from: usize,
    limit: usize,
    delimiter: &str,
    strip_tabs: bool,
) -> BashHeredoc {
    let rest = src.get(from..limit.max(from)).unwrap_or(&[]);
    let text = String::from_utf8_lossy(rest);
    match heredoc_end_line(&text, delimiter, strip_tabs) {
        Some((start, past)) => BashHeredoc {
            body: text[..start].to_string(),
            end_line: Some(from + start),
            past_end: from + past,
            after: Some(text[past..].to_string()),
        },
        None => BashHeredoc {
            body: text.into_owned(),
            end_line: None,
            past_end: from + rest.len(),
            after: None,
        },
    }
}

/// Bash's end of a heredoc body `text`: where the first line that is
/// `delimiter` alone starts (after tabs, for `<<-`), and where it ends,
/// past its newline. Shared by the walk and the fast path.
pub(crate) fn heredoc_end_line(
    text: &str,
    delimiter: &str,
    strip_tabs: bool,
) -> Option<(usize, usize)> {
    if delimiter.is_empty() {
        return None;
    }
    let bytes = text.as_bytes();
    text.match_indices(delimiter).find_map(|(at, _)| {
        let start = text[..at].rfind('\n').map_or(0, |newline| newline + 1);
        let end = at + delimiter.len();
        let alone = bytes
            .get(start..at)
            .is_some_and(|indent| indent.iter().all(|b| strip_tabs && *b == b'\t'))
            && matches!(bytes.get(end), None | Some(b'\n'));
        alone.then(|| (start, (end + 1).min(text.len())))
    })
}

/// Whether a function body runs the function itself in the background or in
/// a pipeline with itself: the shape of a fork bomb.
/// `while true; do sleep 1 & done`, `until false; …`, `for ((;;)); …`: a
/// loop that never ends on its own and starts a background process each
/// time round, which fills the process table like a fork bomb.
pub(super) fn endless_loop_in_background(node: Node, src: &[u8]) -> bool {
    let endless = match kind(node) {
        "while_statement" => {
            let until = node.child(0).is_some_and(|k| kind(k) == "until");
            node.child_by_field_name("condition").is_some_and(|c| {
                let condition = text(c, src).trim().trim_end_matches(';').trim();
                if until {
                    condition == "false"
                } else {
                    matches!(condition, "true" | ":")
                }
            })
        }
        "c_style_for_statement" => node.child_by_field_name("condition").is_none(),
        _ => false,
    };
    if !endless {
        return false;
    }
    let Some(body) = node.child_by_field_name("body") else {
        return false;
    };
    let mut stack = vec![body];
    let mut seen = 0usize;
    while let Some(n) = stack.pop() {
        seen += 1;
        if seen > 100_000 {
            return true;
        }
        if kind(n) == "&" {
            return true;
        }
        let mut cursor = n.walk();
        stack.extend(n.children(&mut cursor));
    }
    false
}

pub(super) fn calls_itself_in_background(body: Node, name: &str, src: &[u8]) -> bool {
    let body_text = text(body, src);
    // Calls are commands named so (`echo :` or `command ls` is not one).
    let mut calls = 0usize;
    let mut stack = vec![body];
    let mut seen = 0usize;
    while let Some(node) = stack.pop() {
        seen += 1;
        if seen > 100_000 {
            // Too large to look through: assume the worst.
            return true;
        }
        if kind(node) == "command"
            && node
                .child_by_field_name("name")
                .is_some_and(|n| text(n, src) == name)
        {
            calls += 1;
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    let background = body_text.replace("&&", "").contains('&');
    let piped_to_itself = calls >= 2 && body_text.replace("||", "").contains('|');
    calls >= 1 && (background || piped_to_itself)
}
