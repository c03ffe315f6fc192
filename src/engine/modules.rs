//! Python's module path starts in the code's own folder: the working
//! folder for `python -c`, `-m` and code on stdin. A `json.py` there runs
//! for `python3 -c 'import json'`, and a `types.py` or `site.py` runs
//! before the code's first line, since Python imports its own modules as
//! it starts. So code that is pure by itself is only FREE when no file in
//! that folder stands in for one of Python's own modules
//! (`rules/inline.json` `python_shadowed`) or for a module the code names.
//!
//! Takes the code and the folder; adds `inline.python.local-module`
//! (SIGNED) to the run. Reads one folder listing, at most
//! [`MAX_ENTRIES`] entries (past that, the folder is taken to hold one).

use super::Run;
use crate::rule_id::Rule;
use crate::verdict::Verdict;
use std::path::Path;

/// Folder entries looked at, at most.
const MAX_ENTRIES: usize = 4096;

impl Run<'_> {
    /// The finding when `folder` holds a module that Python code `text`
    /// would import from there instead of its own.
    pub(super) fn python_local_modules(
        &mut self,
        text: &str,
        folder: Option<&Path>,
        part: &str,
        depth: usize,
    ) {
        let Some(folder) = folder else { return };
        let Some(module) = shadowing_module(text, folder) else {
            return;
        };
        let reason = format!(
            "{} holds `{module}`, which Python imports from there before its own modules (the code's folder is first on its module path)",
            folder.display()
        );
        self.note(depth, || format!("python lane: {reason}"));
        self.find(
            Verdict::Signed,
            Rule::InlinePythonLocalModule,
            reason,
            "Run the code from a folder that holds no Python file of that name, or rename that file; code that imports it runs it.",
            part,
        );
    }
}

/// The first entry of `folder` that Python would import as a module named
/// in `text` or as one of its own: `NAME.py`, `NAME.pyc`, `NAME.*.so`, or
/// a package `NAME/__init__.py`. A folder that cannot be listed holds none; one with
/// more than [`MAX_ENTRIES`] entries is taken to hold one.
fn shadowing_module(text: &str, folder: &Path) -> Option<String> {
    let entries = std::fs::read_dir(folder).ok()?;
    for (seen, entry) in entries.enumerate() {
        if seen >= MAX_ENTRIES {
            return Some(format!("more than {MAX_ENTRIES} entries"));
        }
        let Ok(entry) = entry else { continue };
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let (module, package) = match name.split_once('.') {
            Some((stem, ext)) if ext == "py" || ext == "pyc" || ext.ends_with("so") => {
                (stem, false)
            }
            None => (name, true),
            _ => continue,
        };
        if module.is_empty() {
            continue;
        }
        let own = crate::rules::PYTHON_SHADOWED.binary_search(&module).is_ok();
        if !(own || names(text, module)) {
            continue;
        }
        // A folder is a package only with its `__init__.py` (one without
        // is a namespace portion, which any regular module found later
        // on the path outranks).
        if package && std::fs::symlink_metadata(folder.join(name).join("__init__.py")).is_err() {
            continue;
        }
        // The script itself (`python3 -m tidy` runs `tidy.py`, whose code
        // is `text`): the code judged is the code that runs.
        if !package && is_the_code(&entry, text) {
            continue;
        }
        return Some(name.to_string());
    }
    None
}

/// Whether the file of `entry` holds exactly `text` (its size is looked at
/// first; only a file of the same size is read).
fn is_the_code(entry: &std::fs::DirEntry, text: &str) -> bool {
    entry.metadata().is_ok_and(|m| m.len() == text.len() as u64)
        && std::fs::read(entry.path()).is_ok_and(|bytes| bytes == text.as_bytes())
}

/// Whether `text` holds `name` as a whole word (an import, an
/// `importlib.import_module("name")`): more than imports, never fewer.
fn names(text: &str, name: &str) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = text.as_bytes();
    text.match_indices(name).any(|(at, _)| {
        let before = at.checked_sub(1).and_then(|i| bytes.get(i));
        let after = bytes.get(at + name.len());
        !before.is_some_and(|&b| word(b)) && !after.is_some_and(|&b| word(b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_only() {
        assert!(names("import helper\n", "helper"));
        assert!(names("from helper.x import y", "helper"));
        assert!(!names("import helpers", "helper"));
        assert!(!names("my_helper()", "helper"));
    }

    #[test]
    fn a_stand_in_or_a_named_module_is_found() {
        let dir = std::env::temp_dir().join(format!("portcullis-modules-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        std::fs::write(dir.join("helper.py"), "").unwrap();
        assert_eq!(shadowing_module("print(1)", &dir), None);
        std::fs::write(dir.join("tidy.py"), "print('tidy')\n").unwrap();
        assert_eq!(
            shadowing_module("print('tidy')\n", &dir),
            None,
            "the script itself"
        );
        std::fs::remove_file(dir.join("tidy.py")).unwrap();
        assert_eq!(
            shadowing_module("import helper", &dir).as_deref(),
            Some("helper.py")
        );
        std::fs::write(dir.join("types.py"), "").unwrap();
        assert_eq!(
            shadowing_module("print(1)", &dir).as_deref(),
            Some("types.py")
        );
        std::fs::remove_file(dir.join("types.py")).unwrap();
        std::fs::create_dir_all(dir.join("json")).unwrap();
        assert_eq!(
            shadowing_module("import json", &dir),
            None,
            "a namespace folder"
        );
        std::fs::write(dir.join("json/__init__.py"), "").unwrap();
        assert_eq!(shadowing_module("print(1)", &dir).as_deref(), Some("json"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
