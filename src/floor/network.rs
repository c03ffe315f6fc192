//! Network tools that run a program here: `nc -e`, `ncat --exec`, socat's
//! `EXEC:` against a network address (a shell for whoever is at the other
//! end), and the commands ssh, scp, sftp and rsync run on this machine
//! (`ProxyCommand`, `-S`, `-e`), returned as shell text to judge.

use super::words::{options, short_letters};
use super::{Invocation, push_once};
use crate::rules::FloorRule;
use crate::shell::Word;

/// `nc -e /bin/sh`, `ncat --exec`, `nc -c CMD`: the connection runs a
/// program, a shell for whoever is at the other end.
pub(super) fn check_netcat(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let letters = short_letters(inv.args, "ecpswqiIOTxXb");
    let long_exec = options(inv.args).any(|o| {
        let name = o.split('=').next().unwrap_or(o);
        ["--exec", "--sh-exec", "--lua-exec"]
            .iter()
            .any(|full| name.len() > 4 && full.starts_with(name))
    });
    // `-c` is `--sh-exec` in ncat and traditional nc, but "send CRLF" in
    // some others: a command follows it only in the first.
    let c_runs = inv.args.iter().enumerate().any(|(i, w)| {
        w.value == "-c"
            && (inv.verb == "ncat"
                || inv
                    .args
                    .get(i + 1)
                    .is_some_and(|n| n.value.contains(['/', ' '])))
    });
    if letters.contains(&'e') || long_exec || c_runs {
        push_once(hits, FloorRule::NetRemoteShell);
    }
}

/// `socat TCP:h:p EXEC:/bin/sh`: one address runs a program, the other is
/// the network.
pub(super) fn check_socat(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    const RUNS: &[&str] = &["exec", "system", "shell"];
    const NETWORK: &[&str] = &[
        "tcp",
        "tcp4",
        "tcp6",
        "tcp-connect",
        "tcp4-connect",
        "tcp6-connect",
        "udp-connect",
        "openssl-connect",
        "tcp-l",
        "tcp-listen",
        "tcp4-listen",
        "tcp6-listen",
        "udp",
        "udp4",
        "udp6",
        "udp-l",
        "udp-listen",
        "udp4-listen",
        "udp6-listen",
        "openssl",
        "openssl-listen",
        "ssl",
        "ssl-l",
        "sctp",
        "sctp-listen",
        "sctp-connect",
        "socks",
        "socks4",
        "socks4a",
        "socks5",
        "socks5-connect",
        "socks5-listen",
        "proxy",
        "proxy-connect",
        "vsock",
        "vsock-connect",
        "vsock-listen",
        "dccp",
        "dccp-connect",
        "dccp-listen",
        "udp-sendto",
        "udp-recvfrom",
        "udp-recv",
        "udp-datagram",
    ];
    let kind = |w: &Word| {
        w.value
            .split([':', ','])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase()
    };
    let addresses: Vec<&Word> = inv
        .args
        .iter()
        .filter(|w| !w.value.starts_with('-') || w.value.len() == 1)
        .collect();
    let runs = addresses.iter().any(|w| RUNS.contains(&kind(w).as_str()));
    let network = addresses
        .iter()
        .any(|w| NETWORK.contains(&kind(w).as_str()));
    if runs && network {
        push_once(hits, FloorRule::NetRemoteShell);
    }
}

/// SSH options whose value is a command run on this machine
/// (`ProxyCommand`, `LocalCommand`, `KnownHostsCommand`), and `scp -S`/
/// `sftp -S PROGRAM`. Returns each command as shell text to judge.
pub fn ssh_local_commands(verb: &str, args: &[Word]) -> Vec<String> {
    const RUN_LOCALLY: &[&str] = &["proxycommand", "localcommand", "knownhostscommand"];
    if verb == "rsync" {
        return rsync_remote_shell(args).into_iter().collect();
    }
    let values = match verb {
        "ssh" | "autossh" => "BbcDEeFIiJLlmOoPpQRSWw",
        "scp" => "cDFiJloPSX",
        "sftp" => "BbcDFiJloPRSsX",
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    let mut i = 0;
    let mut operands_seen = 0;
    while let Some(word) = args.get(i) {
        let v = word.value.as_str();
        if v == "--" {
            break;
        }
        if !v.starts_with('-') || v.len() < 2 {
            // ssh reads options after the host too, up to the command.
            operands_seen += 1;
            if verb == "ssh" && operands_seen > 1 {
                break;
            }
            i += 1;
            continue;
        }
        let mut taken = false;
        for (pos, c) in v[1..].char_indices() {
            if !values.contains(c) {
                continue;
            }
            let attached = &v[1 + pos + 1..];
            let value = if attached.is_empty() {
                taken = true;
                args.get(i + 1).map(|w| w.value.as_str())
            } else {
                Some(attached)
            };
            if let Some(value) = value {
                if c == 'o' {
                    let (key, rest) = value
                        .split_once(|ch: char| ch == '=' || ch.is_whitespace())
                        .unwrap_or((value, ""));
                    let command =
                        rest.trim_start_matches(|ch: char| ch == '=' || ch.is_whitespace());
                    if RUN_LOCALLY.contains(&key.to_ascii_lowercase().as_str())
                        && !command.eq_ignore_ascii_case("none")
                        && !command.is_empty()
                    {
                        out.push(command.to_string());
                    }
                } else if c == 'S' && verb != "ssh" {
                    out.push(value.to_string());
                }
            }
            break;
        }
        i += if taken { 2 } else { 1 };
    }
    out
}

/// `rsync -e CMD` / `--rsh=CMD`: the remote shell rsync runs here.
fn rsync_remote_shell(args: &[Word]) -> Option<String> {
    args.iter().enumerate().find_map(|(i, w)| {
        let v = w.value.as_str();
        if v == "-e" || v == "--rsh" {
            return args.get(i + 1).map(|n| n.value.clone());
        }
        v.strip_prefix("--rsh=")
            .or_else(|| {
                v.strip_prefix("-e")
                    .filter(|r| !r.is_empty() && !v.starts_with("--"))
            })
            .map(str::to_string)
    })
}
