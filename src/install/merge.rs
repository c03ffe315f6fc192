//! Adding portcullis's entries to a host's config tree, and taking exactly
//! them out again. Our entries are told by their command: a handler whose
//! command (or `exec`) is a program named `portcullis` run as `hook`.
//! Nothing else in the file is touched.

use super::hosts::{Shape, Spec};
use super::json::{self, Json};
use std::path::Path;

/// The table entry `template` with `BIN` replaced by `bin`: the bare path
/// in a string that is exactly `BIN`, the path quoted for the shell at the
/// start of a command line.
pub fn instantiate(template: &str, bin: &Path) -> Json {
    let bin = bin.to_string_lossy();
    let quoted = shlex::try_quote(&bin).map_or_else(|_| bin.to_string(), |q| q.into_owned());
    fill(json::parse_template(template), &bin, &quoted)
}

fn fill(value: Json, bare: &str, quoted: &str) -> Json {
    match value {
        Json::String(s) if s == "BIN" => Json::String(bare.to_string()),
        Json::String(s) => match s.strip_prefix("BIN ") {
            Some(rest) => Json::String(format!("{quoted} {rest}")),
            None => Json::String(s),
        },
        Json::Array(items) => {
            Json::Array(items.into_iter().map(|v| fill(v, bare, quoted)).collect())
        }
        Json::Object(pairs) => Json::Object(
            pairs
                .into_iter()
                .map(|(k, v)| (k, fill(v, bare, quoted)))
                .collect(),
        ),
        other => other,
    }
}

/// The program a handler runs: its `exec` (Copilot), or the first word of
/// its `command`; with the words after it.
pub fn handler_program(handler: &Json) -> Option<(String, Vec<String>)> {
    if let Some(exec) = handler.get("exec").and_then(Json::as_str) {
        let args = handler
            .get("args")
            .and_then(Json::as_array)
            .unwrap_or_default()
            .iter()
            .filter_map(|a| a.as_str().map(str::to_string))
            .collect();
        return Some((exec.to_string(), args));
    }
    let command = handler.get("command").and_then(Json::as_str)?;
    let mut words = shlex::split(command)?.into_iter();
    let program = words.next()?;
    Some((program, words.collect()))
}

/// True when `handler` runs portcullis as a hook: a program named
/// `portcullis`, or named as `bin` (the running binary, whatever its name),
/// whose first argument is `hook`.
pub fn is_our_handler(handler: &Json, bin: &Path) -> bool {
    handler_program(handler).is_some_and(|(program, args)| {
        let name = Path::new(&program).file_name();
        (name.and_then(|n| n.to_str()) == Some("portcullis")
            || Path::new(&program) == bin
            || name.is_some() && name == bin.file_name())
            && args.first().map(String::as_str) == Some("hook")
    })
}

/// True when `item` of an event's array is ours (see [`is_our_handler`]):
/// for grouped hosts a group whose only handler is ours, for flat hosts our
/// handler.
pub fn is_ours(item: &Json, shape: Shape, bin: &Path) -> bool {
    match shape {
        Shape::Grouped => item
            .get("hooks")
            .and_then(Json::as_array)
            .is_some_and(|hooks| hooks.len() == 1 && hooks.iter().all(|h| is_our_handler(h, bin))),
        Shape::Flat => is_our_handler(item, bin),
        Shape::Plugin => false,
    }
}

/// The tree a missing file starts as.
pub fn empty_root(shape: Shape) -> Json {
    match shape {
        Shape::Flat => Json::Object(vec![("version".into(), Json::Number(1.into()))]),
        _ => Json::Object(Vec::new()),
    }
}

/// Puts `spec`'s entries for `bin` into `root`: an entry already there as
/// wanted stays; an older one of ours (another path) is replaced where it
/// stands; a missing one is appended. `Err` when the file's shape does not
/// allow it (the reason).
pub fn add(root: &mut Json, spec: &Spec, bin: &Path) -> Result<(), String> {
    if !matches!(root, Json::Object(_)) {
        return Err("its top level is not a JSON object".into());
    }
    let Some(hooks @ Json::Object(_)) = root.entry("hooks", Json::Object(Vec::new())) else {
        return Err("its `hooks` is not a JSON object".into());
    };
    for (event, template) in spec.entries {
        let want = instantiate(template, bin);
        let Some(Json::Array(items)) = hooks.entry(event, Json::Array(Vec::new())) else {
            return Err(format!("its `hooks.{event}` is not an array"));
        };
        let ours: Vec<usize> = (0..items.len())
            .filter(|&i| is_ours(&items[i], spec.shape, bin))
            .collect();
        match ours.split_first() {
            None => items.push(want),
            Some((&first, rest)) => {
                items[first] = want;
                for &i in rest.iter().rev() {
                    items.remove(i);
                }
            }
        }
    }
    Ok(())
}

/// Takes `spec`'s entries (those of portcullis or of `bin`) out of `root`. An event's array, and `hooks`,
/// are removed when they are left empty and `original` (the file before
/// install changed it; `None` when install created it) did not have them.
/// Returns true when the file itself should go: install created it and
/// nothing is left but what a new file starts with. `Err`: the file's shape
/// is not one we can change (the reason).
pub fn remove(
    root: &mut Json,
    spec: &Spec,
    original: Option<&Json>,
    bin: &Path,
) -> Result<bool, String> {
    if !matches!(root, Json::Object(_)) {
        return Err("its top level is not a JSON object".into());
    }
    let had = |path: &[&str]| {
        original.is_some_and(|mut v| {
            path.iter().all(|key| match v.get(key) {
                Some(next) => {
                    v = next;
                    true
                }
                None => false,
            })
        })
    };
    if let Some(hooks) = root.get_mut("hooks") {
        if !matches!(hooks, Json::Object(_)) {
            return Err("its `hooks` is not a JSON object".into());
        }
        for (event, _) in spec.entries {
            if let Some(Json::Array(items)) = hooks.get_mut(event) {
                items.retain(|item| !is_ours(item, spec.shape, bin));
                if items.is_empty() && !had(&["hooks", event]) {
                    hooks.remove(event);
                }
            }
        }
        if hooks.is_empty_container() && !had(&["hooks"]) {
            root.remove("hooks");
        }
    }
    Ok(original.is_none() && (*root == empty_root(spec.shape) || root.is_empty_container()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hook::Host;
    use crate::install::hosts::spec;

    #[test]
    fn the_path_is_quoted_for_the_shell_only_in_commands() {
        let bin = Path::new("/opt/my tools/portcullis");
        let claude = instantiate(spec(Host::Claude).entries[0].1, bin);
        let handler = &claude.get("hooks").unwrap().as_array().unwrap()[0];
        assert_eq!(
            handler.get("command").and_then(Json::as_str),
            Some("'/opt/my tools/portcullis' hook --host claude || exit 2")
        );
        assert!(is_our_handler(handler, Path::new("/x/other")));
        let copilot = instantiate(spec(Host::Copilot).entries[0].1, bin);
        assert_eq!(
            copilot.get("exec").and_then(Json::as_str),
            Some("/opt/my tools/portcullis")
        );
        assert!(is_ours(&copilot, Shape::Flat, Path::new("/x/other")));
    }

    #[test]
    fn others_hooks_are_not_ours() {
        for text in [
            r#"{"hooks":[{"type":"command","command":"my-linter --fix"}]}"#,
            r#"{"hooks":[{"type":"command","command":"portcullis check -- ls"}]}"#,
            r#"{"hooks":[{"command":"portcullis hook"},{"command":"other"}]}"#,
            r#"{"hooks":"x"}"#,
        ] {
            assert!(
                !is_ours(
                    &json::parse(text).unwrap(),
                    Shape::Grouped,
                    Path::new("/x/pc")
                ),
                "{text}"
            );
        }
    }

    #[test]
    fn a_renamed_binary_is_recognised_by_its_own_name() {
        let bin = Path::new("/opt/pc-build");
        let entry = instantiate(spec(Host::Qwen).entries[0].1, bin);
        assert!(is_ours(&entry, Shape::Grouped, bin));
        assert!(is_ours(
            &entry,
            Shape::Grouped,
            Path::new("/elsewhere/pc-build")
        ));
        assert!(!is_ours(&entry, Shape::Grouped, Path::new("/opt/other")));
        let mut root = empty_root(Shape::Grouped);
        add(&mut root, spec(Host::Qwen), bin).unwrap();
        add(&mut root, spec(Host::Qwen), bin).unwrap();
        let groups = root.get("hooks").unwrap().get("PreToolUse").unwrap();
        assert_eq!(groups.as_array().unwrap().len(), 1);
    }

    #[test]
    fn add_twice_is_once_and_remove_restores() {
        let text = r#"{"model":"x","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"mine"}]}]}}"#;
        let original = json::parse(text).unwrap();
        let mut root = original.clone();
        let spec = spec(Host::Claude);
        add(&mut root, spec, Path::new("/old/portcullis")).unwrap();
        add(&mut root, spec, Path::new("/bin/portcullis")).unwrap();
        let once = root.clone();
        add(&mut root, spec, Path::new("/bin/portcullis")).unwrap();
        assert_eq!(root, once);
        let items = root.get("hooks").unwrap().get("PreToolUse").unwrap();
        assert_eq!(items.as_array().unwrap().len(), 2);
        assert_eq!(
            remove(
                &mut root,
                spec,
                Some(&original),
                Path::new("/bin/portcullis")
            ),
            Ok(false)
        );
        assert_eq!(root, original);
        let mut created = empty_root(Shape::Grouped);
        add(&mut created, spec, Path::new("/bin/portcullis")).unwrap();
        assert_eq!(
            remove(&mut created, spec, None, Path::new("/bin/portcullis")),
            Ok(true)
        );
        let mut bad = json::parse("[1]").unwrap();
        assert!(add(&mut bad, spec, Path::new("/p")).is_err());
    }
}
