#![no_main]
//! Feeds any text as a command line to `portcullis::evaluate` (in
//! /home/u/proj, home /home/u), and to `explain` on one input in four. Checks
//! the decision's invariants: a rule id and reason, the verdict is the
//! strictest finding's, anything not FREE has a remediation; explain agrees;
//! the fast path for plain lines reads what tree-sitter reads.
//!
//! The checks are `portcullis_fuzz::checks::shell`, which
//! `tests/suite/fuzz_regressions.rs` runs on `tests/data/fuzz/shell/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| portcullis_fuzz::checks::shell(data));
