//! Secrets read into the model's context: files of credentials (`.env`,
//! private SSH keys, `~/.aws/credentials` …) named by a command, and
//! commands that print them (`env`, `kubectl get secrets`, `ps e`). Takes a
//! peeled verb and its arguments; returns why the command reads secrets.
//! Writing those files is the path law's business, not this module's.

use crate::shell::Word;

/// Files that hold credentials, by name or by their place in a folder.
#[rustfmt::skip]
const SECRET_FILES: &[&str] = &[
    ".aws/credentials", ".config/gh/hosts.yml", ".docker/config.json", ".git-credentials",
    ".kube/config", ".netrc", ".npmrc", ".pgpass", ".pypirc",
];

/// Folders whose files are mostly credentials: reading them whole (`grep -r`,
/// `find … -exec cat`, `cp -r`, globs) reads the secrets.
const SECRET_FOLDERS: &[&str] = &[".aws", ".gnupg", ".ssh"];

/// Whether a path names a folder of credentials (or everything in one).
pub fn is_secret_folder(path: &str) -> bool {
    let trimmed = path
        .trim_end_matches('/')
        .trim_end_matches("/*")
        .trim_end_matches('/');
    let name = trimmed.rsplit('/').next().unwrap_or(trimmed);
    SECRET_FOLDERS.contains(&name)
}

/// `.env` variants that hold no secrets by convention.
const ENV_TEMPLATES: &[&str] = &[".env.dist", ".env.example", ".env.sample", ".env.template"];

/// Whether a path (as written, globs allowed) names a file of secrets:
/// `.env` and `.env.*` (not the templates), private SSH keys, and the
/// credential files of common tools. Reading one puts secrets into the
/// model's context.
pub fn is_secret(path: &str) -> bool {
    // Case-insensitive file systems open `.ENV` as `.env`: every comparison
    // ignores ASCII case (and allocates nothing: this runs on every operand).
    let name = path.rsplit('/').next().unwrap_or(path);
    let starts = |text: &str, prefix: &str| {
        text.get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
    };
    let ends = |text: &str, suffix: &str| {
        text.len() >= suffix.len()
            && text
                .get(text.len() - suffix.len()..)
                .is_some_and(|tail| tail.eq_ignore_ascii_case(suffix))
    };
    // Each needle starts with `.`: only the dots are tried (found by
    // memchr), as operands can be kilobytes of inline code.
    let contains = |text: &str, needle: &str| {
        text.match_indices('.').any(|(at, _)| {
            text.as_bytes()
                .get(at..at + needle.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
        })
    };
    let env_file = name.eq_ignore_ascii_case(".env") || starts(name, ".env.");
    if env_file && !ENV_TEMPLATES.iter().any(|t| name.eq_ignore_ascii_case(t)) {
        return true;
    }
    if starts(name, "id_") && !ends(name, ".pub") && contains(path, ".ssh/") {
        return true;
    }
    if contains(path, ".gnupg/private-keys") {
        return true;
    }
    SECRET_FILES.iter().any(|s| {
        path.eq_ignore_ascii_case(s)
            || ends(path, s) && path.as_bytes().get(path.len() - s.len() - 1) == Some(&b'/')
    })
}

/// Why `verb args` reads secrets, if it does.
pub fn secret_read<'a>(verb: &str, args: &'a [Word]) -> Option<String> {
    // Listing names is harmless; anything else that names a folder of
    // credentials reads what is inside.
    // Looking at names, sizes or existence reads no content; deleting,
    // moving or creating a file does not print it either (the path law
    // judges those as writes).
    let no_content = matches!(
        verb,
        "ls" | "stat"
            | "echo"
            | "printf"
            | "du"
            | "tree"
            | "file"
            | "cd"
            | "mkdir"
            | "test"
            | "["
            | "[["
            | "touch"
            | "rm"
            | "rmdir"
            | "unlink"
            | "shred"
            | "truncate"
            | "mv"
            | "ln"
            | "chmod"
            | "chown"
            | "chgrp"
            | "realpath"
            | "readlink"
            | "basename"
            | "dirname"
    );
    // `cp`, `install`: the last operand (or `-t DIR`) is written, not read.
    let operands: Vec<&Word> = args.iter().filter(|w| !w.value.starts_with('-')).collect();
    let read_operands: &[&Word] = match verb {
        "cp" | "install" | "rsync" | "scp"
            if !args.iter().any(|w| {
                w.value.starts_with("-t") || w.value.starts_with("--target-directory")
            }) =>
        {
            &operands[..operands.len().saturating_sub(1)]
        }
        _ => &operands,
    };
    // `git show HEAD:.env`, `dd if=.env`: the path after `:` or `if=`.
    let named = |w: &'a Word| -> &'a str {
        if let Some(path) = w.value.strip_prefix("if=") {
            return path;
        }
        if verb == "git"
            && let Some((_, path)) = w.value.split_once(':')
        {
            return path;
        }
        &w.value
    };
    let mut found = if no_content {
        None
    } else {
        read_operands
            .iter()
            .map(|w| named(w))
            .find(|p| is_secret(p) || is_secret_folder(p))
            .map(|p| format!("reads {p}, which holds secrets"))
    };
    // BSD-style `ps e` / `ps auxe` prints every process's environment.
    if found.is_none()
        && verb == "ps"
        && args.first().is_some_and(|w| {
            w.value.chars().all(|c| c.is_ascii_alphabetic()) && w.value.contains('e')
        })
    {
        found = Some("`ps e` prints the environment of every process".to_string());
    }
    if found.is_none() && verb == "kubectl" {
        let words: Vec<&str> = args.iter().map(|w| w.value.as_str()).collect();
        if let Some(at) = words.iter().position(|w| *w == "get" || *w == "describe")
            && words[at + 1..].iter().any(|w| w.starts_with("secret"))
        {
            found = Some("prints Kubernetes secrets".to_string());
        }
    }
    let only_flags = args.iter().all(|w| w.value.starts_with('-'));
    let dumps_environment = match verb {
        "printenv" | "env" | "set" => args.is_empty(),
        "export" | "declare" | "typeset" => {
            only_flags
                && args
                    .iter()
                    .all(|w| matches!(w.value.as_str(), "-p" | "-x" | "-px" | "-xp"))
        }
        _ => false,
    };
    if found.is_none() && dumps_environment {
        found = Some(format!(
            "`{verb}` prints every environment variable, secrets included"
        ));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets() {
        for p in [
            ".env",
            "app/.env.local",
            "~/.ssh/id_rsa",
            "$HOME/.ssh/id_ed25519",
            "/home/*/.aws/credentials",
            "~/.netrc",
        ] {
            assert!(is_secret(p), "{p}");
        }
        for p in [
            ".env.example",
            "~/.ssh/id_rsa.pub",
            "~/.ssh/config",
            "src/env.rs",
            "environment.yml",
        ] {
            assert!(!is_secret(p), "{p}");
        }
    }
}
