#![no_main]
//! Feeds any text as JavaScript to `inline::analyse`, and through the
//! shell as `node -e '<code>'` and `node - <<'EOF'`. Checks: it returns,
//! effects are well-formed, and a command whose code has an effect or does not
//! parse is at least SIGNED.
//!
//! The checks are `portcullis_fuzz::checks::inline_javascript`, which
//! `tests/suite/fuzz_regressions.rs` runs on `tests/data/fuzz/inline_javascript/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| portcullis_fuzz::checks::inline_javascript(data));
