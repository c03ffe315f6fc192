//! A second reading for a line whose quoted heredoc broke tree-sitter-bash.
//!
//! The body of a heredoc with a quoted delimiter (`<<'EOF'`, `<<"EOF"`,
//! `<<\EOF`) is text bash never reads as shell, yet tree-sitter-bash fails
//! on some of it (a first body line starting with a backslash, as in
//! `\documentclass` or `\**x`, becomes an argument of the command). When the
//! first parse fails, [`reparse`] fills each such body with a letter of the
//! same length, parses that, and keeps the tree only if it agrees exactly:
//! every filled span is the whole body of a heredoc whose quoted delimiter
//! is the one found, ending at its delimiter line, and nothing else fails.
//! The tree is then walked over the original text, so the lanes read the
//! real body. No byte outside a body is changed, so a command bash runs
//! can only be hidden by a span tree-sitter itself reads as a quoted body.
//!
//! Takes the line; returns the script, or `None` when there is nothing to
//! fill or the trees disagree (the first reading's problems then stand).

use super::parse::kind;
use super::types::{Callee, Problem, Script};
use super::walk::walk_tree;
use crate::grammar::{Grammar, parse_bounded};
use std::ops::Range;
use tree_sitter::Node;

/// One quoted heredoc found in the text: its unquoted delimiter and the
/// bytes of its body (from the line after the operator's line to the start
/// of the delimiter line).
#[derive(Debug, PartialEq, Eq)]
struct Body {
    delimiter: String,
    span: Range<usize>,
}

/// Whether a script's problems are the kind this reading can mend.
pub(super) fn failed(script: &Script) -> bool {
    script.problems.iter().any(|p| {
        matches!(
            p,
            Problem::Syntax(_) | Problem::MergedLine(_) | Problem::DroppedText(_)
        )
    })
}

/// The script of `source` read with its quoted heredoc bodies filled, when
/// that reading is clean and agrees (see the module doc).
pub(super) fn reparse(source: &str, functions: &[(String, Callee)]) -> Option<Script> {
    let bodies = quoted_bodies(source)?;
    let masked = fill(source, &bodies);
    let tree = Grammar::Bash.with_parser(|parser| parse_bounded(parser, &masked).ok())??;
    if !agrees(tree.root_node(), masked.as_bytes(), &bodies) {
        return None;
    }
    let script = walk_tree(&tree, source, functions);
    (!failed(&script) && !script.problems.contains(&Problem::TooComplex)).then_some(script)
}

/// The quoted heredocs of `source`, in order; `None` when there is none,
/// when one has no delimiter line, or when a line holds two heredoc
/// operators (their bodies follow each other, and this scan does not try).
fn quoted_bodies(source: &str) -> Option<Vec<Body>> {
    let bytes = source.as_bytes();
    let mut bodies = Vec::new();
    let mut at = 0;
    let mut last_operator_line: Option<usize> = None;
    while let Some(found) = find(bytes, at, b"<<") {
        let mut i = found + 2;
        if bytes.get(i) == Some(&b'<') {
            // A here-string `<<<`: skip all its angle brackets.
            while bytes.get(i) == Some(&b'<') {
                i += 1;
            }
            at = i;
            continue;
        }
        let line_end = find(bytes, found, b"\n").unwrap_or(bytes.len());
        if last_operator_line == Some(line_end) {
            return None;
        }
        last_operator_line = Some(line_end);
        let tabs = bytes.get(i) == Some(&b'-');
        if tabs {
            i += 1;
        }
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        let Some((delimiter, after)) = quoted_delimiter(bytes, i) else {
            at = i;
            continue;
        };
        if !matches!(
            bytes.get(after),
            None | Some(b' ' | b'\t' | b'\n' | b';' | b'|' | b'&' | b'<' | b'>' | b')')
        ) {
            at = after;
            continue;
        }
        let start = line_end + 1;
        let end = delimiter_line(bytes, start, &delimiter, tabs)?;
        bodies.push(Body {
            delimiter,
            span: start..end,
        });
        at = end;
    }
    (!bodies.is_empty()).then_some(bodies)
}

/// A quoted delimiter at `i` (`'EOF'`, `"EOF"`, `\EOF`): its text without
/// the quotes and the byte after it.
fn quoted_delimiter(bytes: &[u8], i: usize) -> Option<(String, usize)> {
    let word = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.');
    let (text, after) = match bytes.get(i)? {
        quote @ (b'\'' | b'"') => {
            let rest = bytes.get(i + 1..)?;
            let len = rest.iter().position(|b| b == quote)?;
            let text = rest.get(..len)?;
            (text, i + 1 + len + 1)
        }
        b'\\' => {
            let rest = bytes.get(i + 1..)?;
            let len = rest.iter().take_while(|b| word(b)).count();
            (rest.get(..len)?, i + 1 + len)
        }
        _ => return None,
    };
    if text.is_empty() || !text.iter().all(word) {
        return None;
    }
    Some((String::from_utf8(text.to_vec()).ok()?, after))
}

/// The start of the first line at or after `from` that is `delimiter`
/// alone (after leading tabs for `<<-`).
fn delimiter_line(bytes: &[u8], from: usize, delimiter: &str, tabs: bool) -> Option<usize> {
    let mut line = from;
    while line <= bytes.len() {
        let end = find(bytes, line, b"\n").unwrap_or(bytes.len());
        let mut text = bytes.get(line..end)?;
        if tabs {
            while let Some(rest) = text.strip_prefix(b"\t") {
                text = rest;
            }
        }
        if text == delimiter.as_bytes() {
            return Some(line);
        }
        if end == bytes.len() {
            return None;
        }
        line = end + 1;
    }
    None
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// `source` with every byte of each body but its newlines replaced by a
/// letter no delimiter line can be made of.
fn fill(source: &str, bodies: &[Body]) -> String {
    let mut bytes = source.as_bytes().to_vec();
    for body in bodies {
        let letter = if body.delimiter.bytes().all(|b| b == b'x') {
            b'y'
        } else {
            b'x'
        };
        if let Some(span) = bytes.get_mut(body.span.clone()) {
            for b in span.iter_mut().filter(|b| **b != b'\n') {
                *b = letter;
            }
        }
    }
    // Only ASCII replaced whole bytes, so the text is still UTF-8.
    String::from_utf8(bytes).unwrap_or_default()
}

/// Whether the filled text's tree reads each body as the whole body of a
/// quoted heredoc with its delimiter, and holds no error.
fn agrees(root: Node, masked: &[u8], bodies: &[Body]) -> bool {
    if crate::grammar::first_error_node(root).is_some() {
        return false;
    }
    let mut matched = vec![false; bodies.len()];
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if kind(node) == "heredoc_redirect" {
            let Some(at) = bodies.iter().position(|b| redirect_is(node, masked, b)) else {
                // A heredoc the scan did not find (an unquoted one) must lie
                // outside every filled span.
                if bodies
                    .iter()
                    .any(|b| node.end_byte() > b.span.start && node.start_byte() < b.span.end)
                {
                    return false;
                }
                continue;
            };
            match matched.get_mut(at) {
                Some(seen) if !*seen => *seen = true,
                _ => return false,
            }
            continue;
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
    }
    matched.iter().all(|m| *m)
}

/// Whether `redirect` is exactly `body`: a quoted start naming its
/// delimiter, a body node inside its span reaching its first line, and an
/// end node on its delimiter line.
fn redirect_is(redirect: Node, masked: &[u8], body: &Body) -> bool {
    let mut start = None;
    let mut text = None;
    let mut end = None;
    let mut cursor = redirect.walk();
    for child in redirect.children(&mut cursor) {
        match kind(child) {
            "heredoc_start" => start = Some(child),
            "heredoc_body" => text = Some(child),
            "heredoc_end" => end = Some(child),
            _ => {}
        }
    }
    let (Some(start), Some(text), Some(end)) = (start, text, end) else {
        return false;
    };
    let start_text = masked.get(start.byte_range()).unwrap_or_default();
    let quoted = [
        format!("'{}'", body.delimiter),
        format!("\"{}\"", body.delimiter),
        format!("\\{}", body.delimiter),
    ];
    let end_text = masked.get(end.byte_range()).unwrap_or_default();
    let line_start = end.start_byte() - leading_tabs(masked, end.start_byte());
    quoted.iter().any(|q| q.as_bytes() == start_text)
        && end_text == body.delimiter.as_bytes()
        && line_start == body.span.end
        && text.start_byte() >= body.span.start
        && text.end_byte() <= body.span.end
        && super::walk::heredoc_body_start(text, masked) == body.span.start
}

/// How many tabs stand right before byte `at` on its line.
fn leading_tabs(bytes: &[u8], at: usize) -> usize {
    bytes
        .get(..at)
        .unwrap_or_default()
        .iter()
        .rev()
        .take_while(|b| **b == b'\t')
        .count()
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_body_of_each_quoted_heredoc() {
        let line = "node - <<'EOF'\n\\**x\nEOF\ncat <<\"A\" | wc\nbody\nA";
        let bodies = quoted_bodies(line).unwrap();
        assert_eq!(bodies.len(), 2);
        assert_eq!(&line[bodies[0].span.clone()], "\\**x\n");
        assert_eq!(&line[bodies[1].span.clone()], "body\n");
    }

    #[test]
    fn leaves_unquoted_heredocs_and_here_strings_alone() {
        assert_eq!(quoted_bodies("cat <<EOF\n$(rm -rf ~)\nEOF"), None);
        assert_eq!(quoted_bodies("cat <<<'EOF'\nls\nEOF"), None);
    }

    #[test]
    fn gives_up_on_two_operators_in_one_line_or_no_end() {
        assert_eq!(quoted_bodies("cat <<A <<'B'\n$(x)\nA\ny\nB"), None);
        assert_eq!(quoted_bodies("cat <<'EOF'\nnever ends"), None);
    }

    #[test]
    fn a_dash_operator_ends_at_a_tabbed_delimiter() {
        let line = "cat <<-'E'\n\\a\n\tE";
        let bodies = quoted_bodies(line).unwrap();
        assert_eq!(&line[bodies[0].span.clone()], "\\a\n");
    }

    #[test]
    fn the_real_body_reaches_the_walk() {
        let line = "node - <<'EOF'\n\\**require(\"child_process\")\nEOF";
        let script = reparse(line, &[]).unwrap();
        assert!(script.problems.is_empty(), "{:?}", script.problems);
        assert_eq!(script.commands.len(), 1);
    }

    #[test]
    fn a_span_bash_runs_is_not_taken_for_a_body() {
        // The `<<'EOF'` is inside a string: the lines after it are
        // commands, and the filled reading must not be kept.
        assert_eq!(reparse("echo \"<<'EOF'\" (\nrm -rf ~\nEOF", &[]), None);
        assert_eq!(reparse("echo '<<\\EOF' (\nrm -rf ~\nEOF", &[]), None);
        // Filled, these parse cleanly, but as commands, not as a body.
        assert_eq!(reparse("echo \"<<'EOF' \"\nrm -rf ~\nEOF", &[]), None);
        assert_eq!(reparse("cat <<A\n<<'B' x\nA\nrm -rf ~\nB", &[]), None);
    }
}
