//! The user's home folder: `$HOME` when it is set and not empty, else the
//! password database's entry for the real user id (`getpwuid_r`).
//!
//! Takes nothing; returns an absolute path or `None`. The release build is
//! static (see `.cargo/config.toml`), and static glibc answers
//! `getpwuid_r` through NSS: it reads `/etc/passwd` itself (the `files`
//! source is built in) and loads other sources' shared libraries only when
//! `/etc/nsswitch.conf` names them; where that fails the call returns an
//! error and the answer is `None`, never a guess. Tested in
//! `tests/suite/home.rs` against the binary as built.

use std::ffi::{CStr, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The largest buffer offered to `getpwuid_r` (an entry of the password
/// database past this is not read).
const MAX_ENTRY_BYTES: usize = 1 << 20;

/// The home folder (see the module's comment), looked up once per process:
/// the path law asks for it for every folder it climbs.
pub fn home_folder() -> Option<&'static Path> {
    static HOME: OnceLock<Option<PathBuf>> = OnceLock::new();
    HOME.get_or_init(|| match std::env::var_os("HOME") {
        Some(home) if !home.is_empty() => Some(PathBuf::from(home)),
        _ => password_database_home(),
    })
    .as_deref()
}

/// The home folder the password database gives the real user id, when it
/// has an entry with an absolute home.
pub fn password_database_home() -> Option<PathBuf> {
    // SAFETY: getuid cannot fail and touches no memory of ours.
    let uid = unsafe { libc::getuid() };
    let mut size = 1024usize;
    loop {
        let mut buffer = vec![0u8; size];
        // SAFETY: `passwd` is plain data that getpwuid_r fills in; the
        // buffer outlives every pointer it leaves in `passwd`, which are
        // read before it is dropped.
        let mut passwd: libc::passwd = unsafe { std::mem::zeroed() };
        let mut found: *mut libc::passwd = std::ptr::null_mut();
        let status = unsafe {
            libc::getpwuid_r(
                uid,
                &mut passwd,
                buffer.as_mut_ptr().cast(),
                buffer.len(),
                &mut found,
            )
        };
        if status == libc::ERANGE && size < MAX_ENTRY_BYTES {
            size *= 4;
            continue;
        }
        if status != 0 || found.is_null() || passwd.pw_dir.is_null() {
            return None;
        }
        // SAFETY: pw_dir points into `buffer`, NUL-terminated by libc.
        let dir = unsafe { CStr::from_ptr(passwd.pw_dir) };
        let dir = PathBuf::from(OsStr::from_bytes(dir.to_bytes()));
        return dir.is_absolute().then_some(dir);
    }
}
