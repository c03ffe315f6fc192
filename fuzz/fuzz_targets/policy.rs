#![no_main]
//! Byte 0 picks `.cage.yaml` (`law::policy::cage`), workspace trust
//! (`policy::trust`), `law::document::yaml` / `json`, or a whole repository of
//! policy files (fields split at 0xFF) read by `Policy::load` in a scratch git
//! repository, with commands and edit-tool calls judged there. Checks: it
//! returns, the cage adds only inside the repository, documents have unique
//! keys and bounded depth, unreadable files are read strictly, decisions hold
//! their invariants.
//!
//! The checks are `portcullis_fuzz::checks::policy`, which
//! `tests/suite/fuzz_regressions.rs` runs on `tests/data/fuzz/policy/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| portcullis_fuzz::checks::policy(data));
