//! The fuzz targets' checks, one function per target.
//!
//! The code lives in `checks.rs`, which `tests/suite/fuzz_regressions.rs`
//! includes too, so every reproducer under `tests/data/fuzz/<target>/`
//! runs through exactly the checks the fuzzer made.

pub mod checks;
