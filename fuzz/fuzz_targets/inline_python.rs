#![no_main]
//! Feeds any text as Python to `inline::analyse`, and through the shell as
//! `python3 -c '<code>'` and `python3 - <<'EOF'`. Checks: it returns, effects
//! are well-formed, and a command whose code has an effect or does not parse
//! is at least SIGNED.
//!
//! The checks are `portcullis_fuzz::checks::inline_python`, which
//! `tests/suite/fuzz_regressions.rs` runs on `tests/data/fuzz/inline_python/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| portcullis_fuzz::checks::inline_python(data));
