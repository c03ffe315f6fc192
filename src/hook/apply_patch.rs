//! The paths an `apply_patch` tool call writes, read from its patch text.
//!
//! Codex, OpenCode (for GPT-5 style models) and Copilot edit files with one
//! patch format:
//!
//! ```text
//! *** Begin Patch
//! *** Add File: docs/new.md
//! +the new file's lines, each after a `+`
//! *** Update File: src/main.rs
//! *** Move to: src/app.rs
//! @@ fn main
//! -old line
//! +new line
//! *** Delete File: obsolete.txt
//! *** End Patch
//! ```
//!
//! Takes the patch text; returns every file it touches, each with what the
//! patch leaves in it when that is known (an added file's lines). A file
//! that is updated or deleted is written; so are both ends of a move. Text
//! that does not read as such a patch is an error, so the call is blocked
//! rather than let through unread.

use crate::engine::EditContent;

/// One file a patch writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchTarget {
    /// The path as the patch names it (relative to the host's folder, or
    /// absolute).
    pub path: String,
    /// What the patch leaves in the file: an added file's whole text; `None`
    /// for an update, a deletion or a move's ends.
    pub content: Option<EditContent>,
}

/// The most files one patch may name; past it the patch is not read.
pub const MAX_TARGETS: usize = 1024;

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File: ";
const UPDATE: &str = "*** Update File: ";
const DELETE: &str = "*** Delete File: ";
const MOVE: &str = "*** Move to: ";
const END_OF_FILE: &str = "*** End of File";

/// Every file `text` writes, in the order the patch names them.
pub fn targets(text: &str) -> Result<Vec<PatchTarget>, String> {
    let mut lines = text.lines().map(|l| l.strip_suffix('\r').unwrap_or(l));
    // The first line that is not blank opens the patch (Codex also accepts
    // the patch wrapped in a heredoc: `apply_patch <<'EOF'`).
    let first = lines.by_ref().find(|l| !l.trim().is_empty());
    let first = first.map(str::trim);
    let opened = match first {
        Some(BEGIN) => true,
        Some(line) if line.starts_with("apply_patch") && line.contains("<<") => {
            matches!(lines.next().map(str::trim), Some(BEGIN))
        }
        _ => false,
    };
    if !opened {
        return Err(format!("the patch does not start with `{BEGIN}`"));
    }
    let mut found: Vec<PatchTarget> = Vec::new();
    // The added file whose lines are being read, as an index into `found`.
    let mut adding: Option<usize> = None;
    let mut closed = false;
    for line in lines {
        if closed {
            // After the end marker only the heredoc's terminator and blank
            // lines may follow.
            if line.trim().is_empty() || !line.starts_with("***") && !line.starts_with('+') {
                continue;
            }
            return Err("text after the patch's end".to_string());
        }
        if line.trim() == END {
            closed = true;
            continue;
        }
        if let Some(path) = line.strip_prefix(ADD) {
            push(&mut found, path, Some(String::new()))?;
            adding = Some(found.len() - 1);
            continue;
        }
        if let Some(path) = line
            .strip_prefix(UPDATE)
            .or_else(|| line.strip_prefix(DELETE))
            .or_else(|| line.strip_prefix(MOVE))
        {
            push(&mut found, path, None)?;
            adding = None;
            continue;
        }
        if line.starts_with("***") && line.trim() != END_OF_FILE {
            return Err(format!(
                "`{}` is not a line of the patch format",
                crate::limits::clip(line, 60)
            ));
        }
        if let Some(index) = adding {
            let Some(added) = line.strip_prefix('+') else {
                return Err("an added file's line does not start with `+`".to_string());
            };
            if let Some(PatchTarget {
                content: Some(EditContent::Whole(text)),
                ..
            }) = found.get_mut(index)
            {
                text.push_str(added);
                text.push('\n');
            }
        }
    }
    if !closed {
        return Err(format!("the patch does not end with `{END}`"));
    }
    Ok(found)
}

/// Adds the file named on a header line.
fn push(found: &mut Vec<PatchTarget>, path: &str, content: Option<String>) -> Result<(), String> {
    let path = path.trim();
    if path.is_empty() {
        return Err("a file header names no path".to_string());
    }
    if found.len() >= MAX_TARGETS {
        return Err(format!("the patch names more than {MAX_TARGETS} files"));
    }
    found.push(PatchTarget {
        path: path.to_string(),
        content: content.map(EditContent::Whole),
    });
    Ok(())
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<String> {
        targets(text)
            .unwrap_or_else(|e| panic!("{e}: {text:?}"))
            .into_iter()
            .map(|t| t.path)
            .collect()
    }

    #[test]
    fn every_header_names_a_target() {
        let patch = "*** Begin Patch\n*** Add File: a/new.txt\n+hello\n+world\n*** Update File: src/main.rs\n*** Move to: src/app.rs\n@@ fn main\n-old\n+new\n*** Delete File: gone.txt\n*** End Patch\n";
        assert_eq!(
            paths(patch),
            ["a/new.txt", "src/main.rs", "src/app.rs", "gone.txt"]
        );
        let all = targets(patch).unwrap_or_default();
        assert_eq!(
            all[0].content,
            Some(EditContent::Whole("hello\nworld\n".to_string()))
        );
        assert_eq!(all[1].content, None);
    }

    #[test]
    fn heredoc_form_and_crlf_are_read() {
        let patch = "apply_patch <<'EOF'\r\n*** Begin Patch\r\n*** Delete File: .env\r\n*** End Patch\r\nEOF\r\n";
        assert_eq!(paths(patch), [".env"]);
    }

    #[test]
    fn what_is_not_a_patch_is_an_error() {
        for bad in [
            "",
            "hello",
            "*** Begin Patch\n*** Add File: x\n+a\n",
            "*** Begin Patch\n*** Rename File: x\n*** End Patch\n",
            "*** Begin Patch\n*** Add File: x\nnot added\n*** End Patch\n",
            "*** Begin Patch\n*** Add File:   \n*** End Patch\n",
            "*** Begin Patch\n*** End Patch\n*** Add File: .env\n+X=1\n",
            "diff --git a/x b/x\n",
        ] {
            assert!(targets(bad).is_err(), "{bad:?} read as a patch");
        }
    }

    #[test]
    fn an_update_may_end_its_file_and_an_empty_patch_names_nothing() {
        let patch =
            "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End of File\n*** End Patch";
        assert_eq!(paths(patch), ["a"]);
        assert_eq!(
            paths("*** Begin Patch\n*** End Patch\n"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn too_many_files_is_an_error() {
        let mut patch = String::from("*** Begin Patch\n");
        for i in 0..=MAX_TARGETS {
            patch.push_str(&format!("*** Delete File: f{i}\n"));
        }
        patch.push_str("*** End Patch\n");
        assert!(targets(&patch).is_err());
    }
}
