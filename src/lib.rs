//! portcullis decides, before an AI coding agent runs a tool call, whether
//! it may run: FREE, SIGNED, BLOCKED or UNKNOWN, each with a rule id, a
//! reason and a remediation.
//!
//! The pipeline, one module per stage:
//!
//! ```text
//! hook JSON ─▶ hook (host adapter) ─▶ engine
//!                                      ├─ shell: parse with tree-sitter-bash → simple commands
//!                                      ├─ peel: wrappers (sudo, env, xargs, bash -c …)
//!                                      ├─ floor: the blocked floor (always on)
//!                                      ├─ lexicon: verb → effect class → verdict
//!                                      │    (programs: awk/sed programs; settings:
//!                                      │    PAGER, git -c; secrets: .env, keys)
//!                                      ├─ feeds: what an interpreter reads (curl | sh)
//!                                      ├─ inline: Python / JavaScript code by syntax tree
//!                                      │    (perl, ruby, php, lua: token scan); shell
//!                                      │    lines it hands over re-enter the pipeline
//!                                      └─ paths: write targets resolved and placed
//!            ◀─ render: Claude Code JSON, text, JSONL ◀─ Decision (strictest finding)
//! ```
//!
//! Policy data lives in `rules/` and is compiled in by `build.rs`.
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod catalogue;
pub mod doctor;
pub mod engine;
pub mod feeds;
pub mod floor;
pub mod git;
mod grammar;
pub mod history;
pub mod home;
pub mod hook;
pub mod inline;
pub mod install;
pub mod law;
pub mod lexicon;
pub mod limits;
pub mod opencode;
pub mod options;
pub mod paths;
pub mod peel;
pub mod programs;
pub mod recipes;
pub mod render;
pub mod replay;
pub mod rule_id;
pub mod rules;
pub mod secrets;
pub mod settings;
pub mod shell;
pub mod signal_stack;
pub mod sql;
pub mod strict_json;
pub mod unknown;
pub mod verdict;

pub use engine::{evaluate, explain};
pub use paths::Location;
pub use rule_id::RuleId;
pub use verdict::{Decision, Effect, Finding, Verdict};
