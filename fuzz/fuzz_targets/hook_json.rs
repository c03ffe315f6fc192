#![no_main]
//! Feeds well-formed PreToolUse requests built from the bytes (Bash
//! commands, edit tools with any path, both hosts, every option, several
//! working folders) to `hook::respond`. Checks: the request is read, the
//! output is valid JSON with permissionDecision allow/ask/deny, and it is
//! exactly what the same call's decision maps to.
//!
//! The checks are `portcullis_fuzz::checks::hook_json`, which
//! `tests/suite/fuzz_regressions.rs` runs on `tests/data/fuzz/hook_json/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| portcullis_fuzz::checks::hook_json(data));
