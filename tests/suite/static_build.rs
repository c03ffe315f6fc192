//! The binary is linked as its build says: static and not position
//! independent where `.cargo/config.toml` asks for it (`+crt-static` and
//! `relocation-model=static` on x86_64 and aarch64 Linux with glibc), an
//! ordinary dynamic program where the flags were replaced (`RUSTFLAGS=`).
//! Read from the ELF headers of the binary cargo built for these tests.

/// The type of an ELF file and the program header types it has.
struct Elf {
    file_type: u16,
    segments: Vec<u32>,
}

const ET_EXEC: u16 = 2;
const PT_DYNAMIC: u32 = 2;
const PT_INTERP: u32 = 3;

fn read_elf(bytes: &[u8]) -> Elf {
    assert!(
        bytes.len() > 64 && &bytes[..4] == b"\x7fELF",
        "not an ELF file"
    );
    assert_eq!(bytes[4], 2, "a 64-bit ELF file");
    assert_eq!(bytes[5], 1, "little-endian");
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let phoff = u64_at(32) as usize;
    let (phentsize, phnum) = (u16_at(54) as usize, u16_at(56) as usize);
    let segments = (0..phnum).map(|i| u32_at(phoff + i * phentsize)).collect();
    Elf {
        file_type: u16_at(16),
        segments,
    }
}

#[test]
#[cfg(all(
    target_os = "linux",
    target_env = "gnu",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
fn the_binary_is_linked_as_built() {
    let bytes = std::fs::read(env!("CARGO_BIN_EXE_portcullis")).expect("read the binary");
    let elf = read_elf(&bytes);
    if cfg!(target_feature = "crt-static") {
        assert_eq!(
            elf.file_type, ET_EXEC,
            "static builds are not PIE (ET_EXEC)"
        );
        assert!(
            !elf.segments.contains(&PT_INTERP) && !elf.segments.contains(&PT_DYNAMIC),
            "a static build has no dynamic loader and no dynamic section"
        );
    } else {
        // RUSTFLAGS replaced the config's flags: the documented fallback.
        assert!(
            elf.segments.contains(&PT_INTERP),
            "a build without +crt-static is dynamically linked"
        );
    }
}

#[test]
fn the_config_asks_for_the_static_build() {
    let config =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.cargo/config.toml"))
            .expect(".cargo/config.toml");
    for section in [
        "[target.x86_64-unknown-linux-gnu]",
        "[target.aarch64-unknown-linux-gnu]",
    ] {
        let body = config
            .split(section)
            .nth(1)
            .unwrap_or_else(|| panic!("{section} is missing"));
        let body = body.split("\n[").next().unwrap_or("");
        assert!(
            body.contains("target-feature=+crt-static") && body.contains("relocation-model=static"),
            "{section} asks for +crt-static and relocation-model=static"
        );
    }
    assert!(
        config.contains("target = \"host-tuple\""),
        "the host is an explicit target, so build scripts and proc-macros stay dynamic"
    );
}

/// `link/hot-symbols.txt` (build.rs hands it to lld) names functions as
/// the linker knows them: mangled symbols, one a line. A demangled list
/// (`std::env::var`) or an empty one would link fine and order nothing,
/// so the check is here, not in the link.
#[test]
fn the_hot_symbol_list_is_usable_by_the_linker() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/link/hot-symbols.txt");
    let text = std::fs::read_to_string(path).expect("link/hot-symbols.txt");
    let names: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(names.len() >= 200, "only {} names", names.len());
    for name in &names {
        assert!(
            !name.is_empty() && !name.contains([' ', '(', '<']) && !name.contains("::"),
            "not a symbol name as lld reads it: {name:?}"
        );
    }
    let ours = names
        .iter()
        .filter(|n| n.starts_with("_ZN10portcullis") || n.contains("10portcullis"))
        .count();
    assert!(ours >= 100, "only {ours} of portcullis's own functions");
    let unique: std::collections::BTreeSet<&&str> = names.iter().collect();
    assert_eq!(unique.len(), names.len(), "a name is listed twice");
}
