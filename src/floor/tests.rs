//! Unit tests of the floor's helpers (braces, modes, process ids, …).

use super::git::forces_push;
use super::kill::{is_real_signal, pid_value};
use super::permissions::is_world_writable;
use super::places::expand_braces;
use super::*;

#[test]
fn braces_expand() {
    assert_eq!(expand_braces("/{etc,usr}"), vec!["/etc", "/usr"]);
    assert_eq!(expand_braces("a{1..3}"), vec!["a{1..3}"]);
}

#[test]
fn world_writable_modes() {
    for m in [
        "777", "0777", "o+w", "a+rwx", "+w", "ugo+rwx", "a=rwx", "666",
    ] {
        assert!(is_world_writable(m), "{m}");
    }
    for m in ["755", "644", "u+x", "g+w", "go-w"] {
        assert!(!is_world_writable(m), "{m}");
    }
}

#[test]
fn kill_pids_as_kill_reads_them() {
    assert_eq!(pid_value("-01"), Some(-1));
    assert_eq!(pid_value(" -1"), Some(-1));
    assert_eq!(pid_value("+1"), Some(1));
    assert_eq!(pid_value("-0x1"), None);
    assert_eq!(pid_value("%1"), None);
    assert!(!is_real_signal("0"));
    assert!(is_real_signal("TERM"));
}

#[test]
fn ssh_options_that_run_here() {
    let words = |list: &[&str]| list.iter().map(|a| Word::literal(a)).collect::<Vec<_>>();
    assert_eq!(
        ssh_local_commands("ssh", &words(&["-o", "ProxyCommand=nc %h %p", "host"])),
        vec!["nc %h %p"]
    );
    assert_eq!(
        ssh_local_commands("ssh", &words(&["host", "-oLocalCommand ls"])),
        vec!["ls"]
    );
    assert!(
        ssh_local_commands("ssh", &words(&["host", "echo", "-o", "ProxyCommand=x"])).is_empty()
    );
    assert_eq!(
        ssh_local_commands("scp", &words(&["-S", "./p", "a", "h:b"])),
        vec!["./p"]
    );
    assert!(ssh_local_commands("ssh", &words(&["-o", "ProxyCommand=none", "h"])).is_empty());
}

#[test]
fn settings_that_truncate_history() {
    assert_eq!(
        check_setting("HISTFILESIZE", "0"),
        Some(FloorRule::HistoryWipe)
    );
    assert_eq!(
        check_setting("HISTSIZE", "00"),
        Some(FloorRule::HistoryWipe)
    );
    assert_eq!(check_setting("HISTSIZE", "1000"), None);
    assert_eq!(check_setting("HISTFILESIZE", ""), None);
}

#[test]
fn force_push_settings() {
    assert!(forces_push("remote.origin.mirror", "true"));
    assert!(forces_push("Remote.X.Mirror", "YES"));
    assert!(forces_push(
        "remote.origin.push",
        "+refs/heads/*:refs/heads/*"
    ));
    assert!(!forces_push("remote.origin.mirror", "false"));
    assert!(!forces_push("remote.origin.url", "+x"));
}
