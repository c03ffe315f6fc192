//! Power floors: `systemctl poweroff` and the like, power targets and
//! units, `loginctl` power and ending every session of a user, and D-Bus
//! calls of the power methods.

use super::words::has_long;
use super::{Invocation, push_once};
use crate::rules::FloorRule;
use crate::shell::Word;

/// systemd units that stop or restart the machine, or every process.
#[rustfmt::skip]
const POWER_UNITS: &[&str] = &[
    "-.slice", "ctrl-alt-del.target", "emergency.target", "halt.target", "init.scope",
    "kexec.target", "poweroff.target", "reboot.target", "rescue.target", "soft-reboot.target",
    "systemd-halt.service", "systemd-kexec.service", "systemd-poweroff.service",
    "systemd-reboot.service", "systemd-soft-reboot.service",
];

/// `systemctl poweroff`, `systemctl isolate reboot.target`, `systemctl
/// start poweroff.target`, `systemctl -i halt`.
pub(super) fn check_systemctl(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    const VALUES: &[&str] = &[
        "-H",
        "-M",
        "-n",
        "-o",
        "-p",
        "-s",
        "-t",
        "--boot-loader-entry",
        "--boot-loader-menu",
        "--host",
        "--job-mode",
        "--kill-whom",
        "--kill-value",
        "--lines",
        "--machine",
        "--message",
        "--output",
        "--preset-mode",
        "--property",
        "--reboot-argument",
        "--root",
        "--signal",
        "--state",
        "--timestamp",
        "--type",
        "--what",
        "--when",
        "--image",
        "--drop-in",
        "--kill-who",
    ];
    let mut words = Vec::new();
    let mut i = 0;
    while let Some(word) = inv.args.get(i) {
        let v = word.value.as_str();
        if VALUES.contains(&v) {
            i += 2;
            continue;
        }
        if !v.starts_with('-') || v == "-.slice" {
            words.push(v);
        }
        i += 1;
    }
    let Some((sub, units)) = words.split_first() else {
        return;
    };
    let power_now = matches!(
        *sub,
        "poweroff" | "reboot" | "halt" | "kexec" | "soft-reboot" | "rescue" | "emergency"
    );
    let starts = matches!(
        *sub,
        "start"
            | "isolate"
            | "restart"
            | "try-restart"
            | "reload-or-restart"
            | "try-reload-or-restart"
            | "stop"
            | "kill"
            | "reenable"
            | "enable"
            | "condrestart"
            | "force-reload"
    );
    let power_unit = units.iter().any(|u| {
        let unit = u.to_ascii_lowercase();
        POWER_UNITS.contains(&unit.as_str())
            // `isolate reboot` means reboot.target.
            || *sub == "isolate"
                && POWER_UNITS.contains(&format!("{unit}.target").as_str())
    });
    let enable_only = matches!(*sub, "enable" | "reenable") && !has_long(inv.args, "--now", false);
    if power_now || starts && power_unit && !enable_only {
        push_once(hits, FloorRule::SystemPower);
    }
}

/// `loginctl poweroff` and the like, and ending every session of a user.
pub(super) fn check_loginctl(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let sub = inv.args.iter().find(|a| !a.value.starts_with('-'));
    match sub.map(|w| w.value.as_str()) {
        Some("poweroff" | "reboot" | "halt" | "kexec" | "soft-reboot") => {
            push_once(hits, FloorRule::SystemPower)
        }
        Some("terminate-user" | "kill-user" | "terminate-seat") => {
            push_once(hits, FloorRule::KillAll)
        }
        _ => {}
    }
}

/// A D-Bus call of logind's or systemd's power methods (`PowerOff`,
/// `Reboot`, …) or of `StartUnit` on a power target.
pub(super) fn calls_power_method(args: &[Word]) -> bool {
    const METHODS: &[&str] = &[
        "halt",
        "haltwithflags",
        "kexec",
        "kexecwithflags",
        "poweroff",
        "poweroffwithflags",
        "reboot",
        "rebootwithflags",
        "schedulesshutdown",
        "scheduleshutdown",
        "softreboot",
        "softrebootwithflags",
    ];
    const STARTERS: &[&str] = &[
        "startunit",
        "startunitreplace",
        "restartunit",
        "startunitwithflags",
    ];
    let last = |w: &Word| {
        w.value
            .rsplit(['.', ' ', '='])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase()
    };
    let method = args.iter().any(|w| METHODS.contains(&last(w).as_str()));
    let start = args.iter().any(|w| STARTERS.contains(&last(w).as_str()));
    let unit = args.iter().any(|w| {
        let v = w.value.to_ascii_lowercase();
        let v = v.strip_prefix("string:").unwrap_or(&v);
        POWER_UNITS.contains(&v.trim_matches(['\'', '"']))
    });
    method || start && unit
}
