#![no_main]
//! Byte 0 picks a `history::Format` (every variant), the rest is a history
//! file for `history::read` and `history::detect`. Checks: reading returns Ok
//! and every record is well-formed (line in range, reasons given, one-line
//! commands, timestamps in range).
//!
//! The checks are `portcullis_fuzz::checks::history`, which
//! `tests/suite/fuzz_regressions.rs` runs on `tests/data/fuzz/history/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| portcullis_fuzz::checks::history(data));
