//! The integration tests, one binary: each module was a file of tests/
//! of its own. Built as one target so `cargo test --release` links one
//! fat-LTO test program instead of thirty (the link, not the tests, was
//! most of CI's time). Run one module with
//! `cargo test --release --test suite NAME::`.

mod apply_patch;
mod cli;
mod common;
mod corpus;
mod docs;
mod fuzz_regressions;
mod gitctl;
mod golden;
mod home;
mod hook_strict;
mod hostile;
mod hosts;
mod install;
mod lanes_on_disk;
mod law;
mod limits;
mod monotonic;
mod options;
mod permission_mode;
mod plain_parse;
mod plan_mode;
mod plugin;
mod policy_budget;
mod policy_limits;
mod replay;
mod robustness;
mod rule_examples;
mod rule_listing;
mod scripts_on_disk;
mod shared_corpora;
mod static_build;
