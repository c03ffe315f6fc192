//! The shell lane: bash text in, simple commands with decoded words out.
#![deny(clippy::indexing_slicing)]

mod close_fd;
mod guard;
pub mod held;
mod heredoc_mask;
pub mod parse;
pub mod plain;
mod sinks;
pub mod types;
mod walk;
pub mod word;

pub use parse::parse;
pub use types::{Callee, Held, Problem, Redirect, Script, SimpleCommand, Stdin};
pub use word::Word;
