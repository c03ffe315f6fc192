//! The misparse guards: checks over a whole bash tree for what tree-sitter
//! got wrong without saying so (a token dropped between leaves, a `#` glued
//! to a word read as a comment) and the errors bash would not see (`<>`).
//! Takes the tree and the source; adds [`Problem`]s. Touches nothing else.

use crate::grammar::first_error_node;
use crate::limits;
use crate::shell::parse::kind;
use crate::shell::types::Problem;
use crate::shell::word::text;
use tree_sitter::Node;

/// tree-sitter-bash does not know the read-write redirection `<>` (`exec
/// 3<> file`): it reads `<` and an ERROR `>`. That pair is bash, not an
/// error; the walk reads it back as `<>`, a write.
pub(super) fn is_read_write_gap(node: Node, src: &[u8]) -> bool {
    node.is_error()
        && text(node, src) == ">"
        && node.parent().is_some_and(|p| kind(p) == "file_redirect")
        && node
            .prev_sibling()
            .is_some_and(|prev| text(prev, src) == "<" && prev.end_byte() == node.start_byte())
}

/// Whether every error in the tree is such a `<>` (a bounded walk over
/// the nodes that contain errors).
pub(super) fn only_read_write_redirects(root: Node, src: &[u8]) -> bool {
    let mut stack = vec![root];
    let mut seen = 0usize;
    while let Some(node) = stack.pop() {
        seen += 1;
        if seen > 100_000 {
            return false;
        }
        if node.is_missing() || node.is_error() && !is_read_write_gap(node, src) {
            return false;
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor).filter(|c| c.has_error()));
    }
    true
}

/// The text of the first ERROR or MISSING node.
pub(super) fn first_error(root: Node, src: &[u8]) -> String {
    match first_error_node(root) {
        Some(node) if node.is_missing() => format!("missing `{}`", kind(node)),
        Some(node) => format!("cannot parse near `{}`", limits::clip(text(node, src), 60)),
        None => "syntax error".into(),
    }
}

/// tree-sitter-bash drops a lone `-` written just before a heredoc or a
/// numbered redirection (`python3 - <<'EOF'`, the usual way to run a script
/// from stdin; `grep x - 2>/dev/null`): whether such a `-` stands between
/// `body`, the body of a `redirected_statement`, and `redirect`, the
/// redirection after it. The walker puts it back on the body's last command
/// (see `walk_redirected`); the guard lets that gap be. Other bodies (a
/// group, a loop) are not vouched for: there the gap stays a dropped token.
pub(super) fn dash_dropped_before(body: Node, redirect: Node, src: &[u8]) -> bool {
    src.get(body.end_byte()..redirect.start_byte())
        .is_some_and(|gap| gap.trim_ascii() == b"-")
        && matches!(kind(body), "command" | "pipeline" | "list")
        && matches!(
            kind(redirect),
            "heredoc_redirect" | "file_redirect" | "herestring_redirect"
        )
}

/// Whether `leaf`, the first token after an uncovered gap from `gap_start`,
/// starts a redirection with a dropped `-` before it.
fn is_dropped_dash(leaf: Node, src: &[u8], gap_start: usize) -> bool {
    // The gap first: `parent` walks down from the root, so it is asked
    // only of the rare leaf after a lone `-`.
    src.get(gap_start..leaf.start_byte())
        .is_some_and(|gap| gap.trim_ascii() == b"-")
        && leaf.parent().is_some_and(|redirect| {
            redirect.start_byte() == leaf.start_byte()
                && redirect
                    .parent()
                    .is_some_and(|p| kind(p) == "redirected_statement")
                && redirect.prev_sibling().is_some_and(|body| {
                    body.end_byte() == gap_start && dash_dropped_before(body, redirect, src)
                })
        })
}

/// Guard for the second known misparse: any non-blank source byte that no
/// leaf covers (tree-sitter dropped a token, as with `cmd - <<'EOF'`).
pub(super) fn guard_dropped_text(root: Node, src: &[u8], problems: &mut Vec<Problem>) {
    let mut covered_to = 0usize;
    let mut cursor = root.walk();
    let mut visited = false;
    let check = |from: usize, to: usize, problems: &mut Vec<Problem>| -> bool {
        let gap = src
            .get(from.min(src.len())..to.min(src.len()))
            .unwrap_or_default();
        // Blanks, `;` and backslash-newline continuations may fall between
        // leaves; anything else (an escaped space `\ ` included) is a token.
        let dropped = gap.iter().enumerate().any(|(i, b)| match b {
            b'\\' => !matches!(src.get(from + i + 1), Some(b'\n' | b'\r')),
            b';' => false,
            b => !b.is_ascii_whitespace(),
        });
        if dropped {
            let shown = String::from_utf8_lossy(gap).trim().to_string();
            problems.push(Problem::DroppedText(limits::clip(&shown, 40).to_string()));
        }
        dropped
    };
    loop {
        if !visited {
            let node = cursor.node();
            if node.child_count() == 0
                || kind(node) == "heredoc_body"
                || kind(node) == "heredoc_content"
            {
                if node.start_byte() > covered_to
                    && !is_dropped_dash(node, src, covered_to)
                    && check(covered_to, node.start_byte(), problems)
                {
                    return;
                }
                // A `#` glued to the word before it (`a\ #b`) is part of that
                // word for bash; tree-sitter starts a comment there.
                let glued = kind(node) == "comment"
                    && node.start_byte() > 0
                    && src
                        .get(node.start_byte() - 1)
                        .is_some_and(|b| !b.is_ascii_whitespace() && !b";&|()`".contains(b));
                if glued {
                    problems.push(Problem::Syntax(
                        "`#` inside a word, read by tree-sitter as a comment".into(),
                    ));
                    return;
                }
                covered_to = covered_to.max(node.end_byte());
                visited = true;
            } else if !cursor.goto_first_child() {
                visited = true;
            }
        } else if cursor.goto_next_sibling() {
            visited = false;
        } else if !cursor.goto_parent() {
            break;
        }
    }
    // Comments are leaves, so trailing text past the last leaf was dropped.
    if covered_to < src.len() {
        check(covered_to, src.len(), problems);
    }
}
