#![no_main]
//! Byte 0 says how to grow the rest, a command, to 64 KiB (repeated as
//! lines, its last word as more arguments, one character repeated, or the
//! text before a point repeated and then the text after it); the grown
//! command goes to `portcullis::evaluate`. Checks the decision's invariants,
//! as `shell` does; libFuzzer's `-timeout` catches work that grows faster
//! than the command does (the hook has 10 s, a command may be 1 MiB).
//!
//! The checks are `portcullis_fuzz::checks::shell_amplified`, which
//! `tests/suite/fuzz_regressions.rs` runs on `tests/data/fuzz/shell_amplified/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| portcullis_fuzz::checks::shell_amplified(data));
