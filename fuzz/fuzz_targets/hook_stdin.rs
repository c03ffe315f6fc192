#![no_main]
//! Feeds any bytes to `portcullis::hook::respond` as a hook's stdin, for
//! Claude Code and for OpenCode. Checks: it returns (never panics, never
//! hangs), and a line it prints is one valid JSON object of the host's shape.
//!
//! The checks are `portcullis_fuzz::checks::hook_stdin`, which
//! `tests/suite/fuzz_regressions.rs` runs on `tests/data/fuzz/hook_stdin/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| portcullis_fuzz::checks::hook_stdin(data));
