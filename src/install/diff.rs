//! The unified diff `install` and `uninstall` print for each change.

use similar::TextDiff;
use std::path::Path;

/// The unified diff from `before` to `after` of `path` (`None`: no file),
/// with three lines of context, headed `--- a/PATH` / `+++ b/PATH`
/// (`/dev/null` for a side that has no file).
pub fn unified(path: &Path, before: Option<&str>, after: Option<&str>) -> String {
    let name = path.display().to_string();
    let old_header = if before.is_some() {
        name.clone()
    } else {
        "/dev/null".into()
    };
    let new_header = if after.is_some() {
        name
    } else {
        "/dev/null".into()
    };
    TextDiff::from_lines(before.unwrap_or(""), after.unwrap_or(""))
        .unified_diff()
        .context_radius(3)
        .header(&old_header, &new_header)
        .missing_newline_hint(true)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_is_all_additions() {
        let diff = unified(Path::new("/h/x.json"), None, Some("{\n}\n"));
        assert!(
            diff.starts_with("--- /dev/null\n+++ /h/x.json\n@@ -0,0 +1,2 @@\n+{\n+}\n"),
            "{diff}"
        );
        let diff = unified(Path::new("/h/x.json"), Some("a\nb\n"), Some("a\nc\n"));
        assert!(diff.contains("-b\n+c\n"), "{diff}");
    }
}
