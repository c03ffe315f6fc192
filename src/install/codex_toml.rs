//! What Codex's `config.toml` says about hooks, read with `toml_edit` (the
//! format-preserving parser): hooks kept inline in its `[hooks]` table,
//! and the review state `[hooks.state."<source>:<event>:<group>:<handler>"]
//! trusted_hash` that decides whether Codex runs a hook at all.
//!
//! install does not edit `config.toml`: it writes `hooks.json` (the form
//! Codex documents first) and reports inline hooks that run portcullis
//! too, so a person decides which to keep. Reading only.

use super::files;
use std::path::{Path, PathBuf};
use toml_edit::{DocumentMut, Item};

/// The `[hooks]` table of a `config.toml`.
#[derive(Debug, Default)]
pub struct Inline {
    /// The file.
    pub path: PathBuf,
    /// True when a `[[hooks.<Event>]]` handler there runs portcullis.
    pub ours: bool,
    /// The keys of `hooks.state` that carry a `trusted_hash`.
    pub trusted: Vec<String>,
    /// The events with inline hooks there (`PreToolUse`, …).
    pub events: Vec<String>,
}

/// Reads `path`. `Ok(None)` when the file or its `[hooks]` table is
/// missing; `Err` (a message naming the file) when it is unreadable or not
/// TOML.
pub fn inline_hooks(path: &Path) -> Result<Option<Inline>, String> {
    let shown = path.display();
    let Some(text) = files::read(path).map_err(|e| format!("{shown}: {e}"))? else {
        return Ok(None);
    };
    let doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        format!("{shown}: not valid TOML ({})", first_line(&e.to_string()))
    })?;
    let Some(hooks) = doc.get("hooks").and_then(Item::as_table_like) else {
        return Ok(None);
    };
    let mut inline = Inline {
        path: path.to_path_buf(),
        ..Inline::default()
    };
    for (key, item) in hooks.iter() {
        if key == "state" {
            if let Some(state) = item.as_table_like() {
                for (k, v) in state.iter() {
                    if v.as_table_like()
                        .and_then(|t| t.get("trusted_hash"))
                        .is_some()
                    {
                        inline.trusted.push(k.to_string());
                    }
                }
            }
            continue;
        }
        // `[[hooks.PreToolUse]]` groups, each with `[[hooks.PreToolUse.hooks]]`.
        inline.events.push(key.to_string());
        inline.ours |= item.to_string().contains("hook --host codex")
            || item.as_array_of_tables().is_some_and(|groups| {
                groups
                    .iter()
                    .any(|g| g.to_string().contains("hook --host codex"))
            });
    }
    Ok(Some(inline))
}

/// True when `config.toml` at `path` marks `project` trusted
/// (`[projects."<path>"] trust_level = "trusted"`), which Codex needs
/// before it loads a project's `.codex/` layer at all.
pub fn project_trusted(path: &Path, project: &Path) -> bool {
    let Ok(Some(text)) = files::read(path) else {
        return false;
    };
    let Ok(doc) = text.parse::<DocumentMut>() else {
        return false;
    };
    let key = project.to_string_lossy();
    doc.get("projects")
        .and_then(Item::as_table_like)
        .and_then(|t| t.get(&key))
        .and_then(Item::as_table_like)
        .and_then(|t| t.get("trust_level"))
        .and_then(Item::as_str)
        == Some("trusted")
}

fn first_line(text: &str) -> &str {
    text.lines().find(|l| !l.trim().is_empty()).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_hooks_and_trust_state_are_read() {
        let dir = std::env::temp_dir().join(format!("pc-codex-toml-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("config.toml");
        std::fs::write(
            &path,
            "# mine\nmodel = \"gpt-5\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"/bin/portcullis hook --host codex || exit 2\"\n\n[hooks.state.\"/h/.codex/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:00\"\n",
        )
        .unwrap();
        let inline = inline_hooks(&path).unwrap().unwrap();
        assert!(inline.ours);
        assert_eq!(inline.events, ["PreToolUse"]);
        assert_eq!(inline.trusted, ["/h/.codex/hooks.json:pre_tool_use:0:0"]);
        std::fs::write(&path, "model = \"x\"\n").unwrap();
        assert!(inline_hooks(&path).unwrap().is_none());
        std::fs::write(&path, "model = \n").unwrap();
        assert!(inline_hooks(&path).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
