//! The shell lane: bash text in, simple commands with decoded words out.

pub mod parse;
pub mod plain;
pub mod types;
pub mod word;

pub use parse::parse;
pub use types::{Callee, Problem, Redirect, Script, SimpleCommand, Stdin};
pub use word::Word;
