#![no_main]
//! Byte 0 picks perl, ruby, php or lua; the rest is code for
//! `inline::scan::scan` and for `perl -e` / `ruby -e` / `php -r` / `lua -e
//! '<code>'`. Checks: it returns, effects are well-formed, and a command whose
//! code the scan finds an effect in is at least SIGNED.
//!
//! The checks are `portcullis_fuzz::checks::inline_scan`, which
//! `tests/suite/fuzz_regressions.rs` runs on `tests/data/fuzz/inline_scan/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| portcullis_fuzz::checks::inline_scan(data));
