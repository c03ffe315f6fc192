//! Reading and writing one config file safely: bounded reads, no writes
//! through a symbolic link, a backup before the first change (never
//! overwritten), and atomic replacement (a temp file in the same folder,
//! then rename) that keeps the file's mode.

use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// A config file larger than this is refused (no host's is near it).
pub const MAX_CONFIG_BYTES: u64 = 4 * 1024 * 1024;

/// The suffix of the backup `install` and `uninstall` leave beside a file.
pub const BACKUP_SUFFIX: &str = ".portcullis-backup";

/// Reads `path`. `Ok(None)` when it does not exist; `Err` (the reason, for
/// a message naming the file) when it is a symbolic link, not a regular
/// file, larger than [`MAX_CONFIG_BYTES`], unreadable or not UTF-8.
pub fn read(path: &Path) -> Result<Option<String>, String> {
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read it: {e}")),
    };
    if meta.file_type().is_symlink() {
        return Err("it is a symbolic link; portcullis does not write through links (edit the file it points to by hand, or replace the link with a file)".into());
    }
    if !meta.is_file() {
        return Err("it is not a regular file".into());
    }
    if meta.len() > MAX_CONFIG_BYTES {
        return Err(format!(
            "it is larger than {} MiB",
            MAX_CONFIG_BYTES / 1024 / 1024
        ));
    }
    let mut bytes = Vec::new();
    fs::File::open(path)
        .and_then(|f| f.take(MAX_CONFIG_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read it: {e}"))?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err("it grew past the size limit while being read".into());
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| "it is not UTF-8 text".into())
}

/// Checks that the folders leading to `path` are no symbolic links we
/// would write through and no files. `Err` names the reason.
pub fn check_parents(path: &Path) -> Result<(), String> {
    let mut dir = path.parent();
    while let Some(d) = dir {
        if let Ok(meta) = fs::symlink_metadata(d) {
            if !meta.is_dir() && !meta.file_type().is_symlink() {
                return Err(format!("{} is not a folder", d.display()));
            }
            // An existing folder (or a link to one, as a home folder often
            // is) ends the walk: what is above it is not ours to judge.
            return Ok(());
        }
        dir = d.parent();
    }
    Ok(())
}

/// The backup path of `path`: `FILE.portcullis-backup`.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(BACKUP_SUFFIX);
    PathBuf::from(name)
}

/// Replaces `path` with `text`: first a backup of the current file when
/// there is one and no backup yet, then a temp file in the same folder,
/// synced, given the old file's mode, renamed over `path`. Creates missing
/// folders. `Err` is the reason.
pub fn write(path: &Path, text: &str) -> Result<(), String> {
    check_parents(path)?;
    let dir = path.parent().ok_or("it has no folder")?;
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let old_mode = fs::symlink_metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o7777);
    if old_mode.is_some() {
        let backup = backup_path(path);
        if fs::symlink_metadata(&backup).is_err() {
            fs::copy(path, &backup)
                .map_err(|e| format!("cannot back it up to {}: {e}", backup.display()))?;
        }
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.portcullis-{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        file.write_all(text.as_bytes())?;
        if let Some(mode) = old_mode {
            file.set_permissions(fs::Permissions::from_mode(mode))?;
        }
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&temp);
        return Err(format!("cannot write it: {e}"));
    }
    Ok(())
}

/// Removes `path` (a file install created and uninstall emptied).
pub fn remove(path: &Path) -> Result<(), String> {
    fs::remove_file(path).map_err(|e| format!("cannot remove it: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_and_folders_are_refused_and_a_missing_file_is_none() {
        let dir = std::env::temp_dir().join(format!("pc-files-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        assert_eq!(read(&dir.join("none.json")), Ok(None));
        assert!(read(&dir).is_err());
        fs::write(dir.join("real.json"), "{}").unwrap();
        std::os::unix::fs::symlink(dir.join("real.json"), dir.join("link.json")).unwrap();
        assert!(
            read(&dir.join("link.json"))
                .unwrap_err()
                .contains("symbolic link")
        );
        write(&dir.join("real.json"), "{\"a\":1}\n").unwrap();
        write(&dir.join("real.json"), "{\"a\":2}\n").unwrap();
        assert_eq!(
            fs::read_to_string(backup_path(&dir.join("real.json"))).unwrap(),
            "{}"
        );
        let _ = fs::remove_dir_all(&dir);
    }
}
