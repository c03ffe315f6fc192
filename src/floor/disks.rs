//! Disk floors: formatting, erasing and partitioning tools (`mkfs`,
//! `wipefs`, `sfdisk`, `sgdisk`, `parted`, …) run on a device; a regular
//! file (`mkfs.ext4 ./disk.img`) is not the floor's.

use super::words::{first_operand_in, has_long, has_short, only_help, operands, options};
use super::{Invocation, push_once};
use crate::paths::Place;
use crate::rules::FloorRule;
use crate::shell::Word;

/// Disk tools: formatting, erasing and partitioning. Formatting or
/// partitioning a regular file (`mkfs.ext4 ./disk.img`) is not the floor's.
pub(super) fn check_disk_tools(inv: &Invocation, hits: &mut Vec<FloorRule>) {
    let verb = inv.verb;
    let args = inv.args;
    if only_help(args) {
        return;
    }
    let format = match verb {
        v if v.starts_with("mkfs") => names_device(inv),
        "mke2fs" | "mkdosfs" | "mkntfs" | "mkexfatfs" | "mkswap" | "mkudffs" | "mkreiserfs"
        | "mkexfat" | "newfs" | "newfs_msdos" => names_device(inv),
        // `wipefs DEV` only lists the signatures; `-a`, `-o` or `--all`
        // erase them.
        "wipefs" => {
            (has_short(args, 'a')
                || has_short(args, 'o')
                || has_long(args, "--all", true)
                || has_long(args, "--offset", true))
                && names_device(inv)
        }
        "blkdiscard" | "sg_format" | "sg_sanitize" | "sg_unmap" => true,
        "nvme" => first_operand_in(
            args,
            &[
                "format",
                "sanitize",
                "write-zeroes",
                "write-uncor",
                "dsm",
                "write",
                "fw-commit",
            ],
        ),
        "hdparm" => options(args).any(|o| {
            [
                "--security-erase",
                "--security-erase-enhanced",
                "--trim-sector-ranges",
                "--trim-sector-ranges-stdin",
                "--write-sector",
                "--make-bad-sector",
                "--dco-restore",
                "--fwdownload",
            ]
            .iter()
            .any(|f| o.starts_with(f))
        }),
        "badblocks" => has_short(args, 'w'),
        "cryptsetup" => {
            args.iter().any(|a| {
                matches!(
                    a.value.to_ascii_lowercase().as_str(),
                    "luksformat" | "erase" | "lukserase" | "reencrypt"
                )
            }) && names_device(inv)
        }
        "flashrom" => {
            has_short(args, 'w')
                || has_short(args, 'E')
                || has_long(args, "--write", false)
                || has_long(args, "--erase", false)
        }
        _ => false,
    };
    if format {
        push_once(hits, FloorRule::DiskFormat);
        return;
    }
    let partition = match verb {
        "sfdisk" => sfdisk_writes(args) && names_device(inv),
        "sgdisk" => sgdisk_writes(args) && names_device(inv),
        "fdisk" | "gdisk" | "cfdisk" | "cgdisk" => {
            !(has_short(args, 'l')
                || has_short(args, 'x')
                || has_short(args, 's')
                || has_long(args, "--list", false)
                || has_long(args, "--list-details", false))
                && names_device(inv)
        }
        "parted" => parted_writes(args) && names_device(inv),
        "pvremove" | "vgremove" | "lvremove" => true,
        "zpool" => first_operand_in(args, &["destroy", "labelclear"]),
        "dmsetup" => first_operand_in(args, &["remove", "remove_all", "wipe_table", "clear"]),
        "mdadm" => has_long(args, "--zero-superblock", false),
        "nvme" => first_operand_in(args, &["delete-ns"]),
        _ => false,
    };
    if partition {
        push_once(hits, FloorRule::DiskPartition);
    }
}

/// An operand names a device (through links made earlier too), or a path
/// only known at run time that could be one.
fn names_device(inv: &Invocation) -> bool {
    let home = inv.location.home.as_deref();
    operands(inv.args).iter().any(|word| {
        let mut target = inv.location.resolve(word);
        if let Some(path) = &target.path
            && let Some(through) = inv.links.follow(path, true)
        {
            target.path = Some(through);
        }
        target.place(home) == Place::Device || target.path.is_none()
    })
}

/// `sfdisk DEV` writes the table read from stdin; `--delete` deletes;
/// listing and dry-run options do not write.
fn sfdisk_writes(args: &[Word]) -> bool {
    let lists = has_short(args, 'l')
        || has_short(args, 'd')
        || has_short(args, 'J')
        || has_short(args, 's')
        || has_short(args, 'V')
        || has_short(args, 'g')
        || has_short(args, 'F')
        || has_short(args, 'n')
        || [
            "--list",
            "--dump",
            "--json",
            "--show-size",
            "--verify",
            "--show-geometry",
            "--list-free",
            "--no-act",
            "--backup-pt-sectors",
            "--list-types",
        ]
        .iter()
        .any(|o| has_long(args, o, false));
    let part_query = options(args).any(|o| o.starts_with("--part-")) && operands(args).len() <= 2;
    has_long(args, "--delete", false) || !(lists || part_query)
}

/// sgdisk with any option besides its listing ones writes the table.
fn sgdisk_writes(args: &[Word]) -> bool {
    const READS: &str = "piLPbOVvh?";
    const READS_LONG: &[&str] = &[
        "--print",
        "--info",
        "--verify",
        "--list-types",
        "--pretend",
        "--backup",
        "--print-mbr",
        "--version",
        "--help",
    ];
    if has_short(args, 'P') || has_long(args, "--pretend", false) {
        return false;
    }
    options(args).any(|o| match o.strip_prefix("--") {
        Some(long) => {
            !READS_LONG.contains(&format!("--{}", long.split('=').next().unwrap_or(long)).as_str())
        }
        None => o[1..].chars().next().is_some_and(|c| !READS.contains(c)),
    })
}

/// parted run on a device: writes unless it only lists (`-l`, `print`).
fn parted_writes(args: &[Word]) -> bool {
    const READS: &[&str] = &[
        "print",
        "p",
        "unit",
        "help",
        "version",
        "align-check",
        "quit",
        "s",
        "b",
        "kb",
        "mb",
        "gb",
        "kib",
        "mib",
        "gib",
        "%",
        "free",
        "all",
        "min",
        "opt",
        "chs",
        "cyl",
        "compact",
    ];
    if has_short(args, 'l') || has_long(args, "--list", false) {
        return false;
    }
    let words: Vec<&Word> = operands(args)
        .into_iter()
        .filter(|w| !w.value.starts_with('/'))
        .collect();
    // No command: parted reads its commands from stdin.
    words.is_empty()
        || words.iter().any(|w| {
            let v = w.value.to_ascii_lowercase();
            !READS.contains(&v.as_str()) && !v.chars().all(|c| c.is_ascii_digit())
        })
}
