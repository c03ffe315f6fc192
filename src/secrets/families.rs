//! The credential families as glob text, and how they are grouped: read
//! by `src/secrets.rs` and by build.rs, which compiles the groups into
//! `Families` (so no hook call compiles them). Nothing here but data and
//! the functions that group it; only `std`.
// The grouping is used by build.rs and by the test that checks its work,
// not by the binary itself.
#![cfg_attr(not(test), allow(dead_code))]

/// Credential files kept under a home folder, home-relative, in the law's
/// glob dialect (each also covers everything beneath it). They are found
/// at any depth too (`/root/.aws`, `/home/*/.ssh/id_rsa`, a copy of a home
/// folder), and a recursive read of the home folder or a folder above one
/// of them reads them.
#[rustfmt::skip]
pub const HOME_SECRETS: &[&str] = &[
    ".aws", ".azure", ".config/gcloud", ".kube/config", ".docker/config.json",
    ".netrc", ".npmrc", ".pypirc", ".pgpass", ".cargo/credentials*", ".git-credentials",
    ".config/git/credentials", ".config/gh/hosts.yml", ".config/hub", ".claude/.credentials.json",
    ".gem/credentials", ".vault-token", ".terraform.d/credentials.tfrc.json",
    ".ssh/id_*", ".gnupg/private-keys-v1.d", ".gnupg/secring.gpg",
];

/// System files of credentials (absolute).
#[rustfmt::skip]
pub const SYSTEM_SECRETS: &[&str] = &[
    "/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/sudoers",
    "/etc/sudoers.d", "/etc/master.passwd", "/etc/security/opasswd", "/etc/ssh/ssh_host_*_key",
    "/proc/*/environ", "/proc/*/task/*/environ", "/run/secrets", "/var/run/secrets",
];

/// Files of credentials by name, in any folder: `.env` files and private
/// keys. A bare `id_*` outside `.ssh` counts only for the key types ssh
/// names (`id_rsa_github` yes, `id_map.rs` no); `key.txt` is not a key
/// format and stays readable.
#[rustfmt::skip]
pub const NAMED_SECRETS: &[&str] = &[
    "**/.env", "**/.env.*", "**/id_rsa*", "**/id_dsa*", "**/id_ecdsa*", "**/id_ed25519*",
    "**/id_xmss*", "**/*.pem", "**/*.key", "**/*.p12", "**/*.pfx", "**/*.ppk",
];

/// Names that hold no secrets by convention, though a family above names
/// them: `.env` templates and public keys. A glob is excepted only when
/// its last part ends with a `*.x` suffix here (`~/.ssh/*.pub`).
#[rustfmt::skip]
pub const NOT_SECRET: &[&str] = &[
    ".env.dist", ".env.example", ".env.sample", ".env.template", "*.pub",
];

/// Folders of credentials: naming one to any command that reads content
/// (`find ~/.ssh -exec cat`, `cp -r ~/.aws x`, `cat ~/.ssh/*`) reads them.
pub const SECRET_FOLDERS: &[&str] = &[
    "**/.aws",
    "**/.azure",
    "**/.config/gcloud",
    "**/.docker",
    "**/.gnupg",
    "**/.kube",
    "**/.ssh",
];

/// The longest run of plain characters in a family's glob, lowercased,
/// without a `/` at either end (`**/` may match nothing, so `**/.env.*`
/// covers `.env.local`): every path the family covers holds it, letters
/// in any case. `*`, `?` and `\\` end a run; a glob with a class or braces
/// (none of the families has one) needs nothing.
pub fn needed_text(glob: &str) -> String {
    if glob.contains(['[', '{']) {
        return String::new();
    }
    glob.split(['*', '?', '\\'])
        .map(|run| run.trim_matches('/'))
        .max_by_key(|run| run.len())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// The glob texts of each group of `Families`, in order.
pub struct Globs {
    /// Every family, matched at any depth: `(glob, text it needs)`.
    pub anywhere: Vec<(String, String)>,
    pub pinned: Vec<String>,
    pub keys: Vec<String>,
    pub folders: Vec<String>,
    pub except: Vec<String>,
}

/// The families grouped as `Families` holds them.
pub fn globs() -> Globs {
    let home = HOME_SECRETS.iter().map(|p| format!("**/{p}"));
    let rest = SYSTEM_SECRETS
        .iter()
        .chain(NAMED_SECRETS)
        .map(|p| p.to_string());
    let anywhere = home
        .chain(rest)
        .map(|p| {
            let needed = needed_text(&p);
            (p, needed)
        })
        .collect();
    let is_key = |p: &str| !p.starts_with("**/.");
    let pinned = HOME_SECRETS
        .iter()
        .map(|p| format!("**/{p}"))
        .chain(
            SYSTEM_SECRETS
                .iter()
                .chain(NAMED_SECRETS.iter().filter(|p| !is_key(p)))
                .map(|p| p.to_string()),
        )
        .collect();
    let keys = NAMED_SECRETS
        .iter()
        .filter(|p| is_key(p))
        .map(|p| p.to_string())
        .collect();
    let owned = |list: &[&str]| list.iter().map(|p| p.to_string()).collect();
    Globs {
        anywhere,
        pinned,
        keys,
        folders: owned(SECRET_FOLDERS),
        except: owned(NOT_SECRET),
    }
}
