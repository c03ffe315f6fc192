//! The shell lane: bash text in, simple commands with decoded words out.

pub mod parse;
pub mod plain;
pub mod word;

pub use parse::{Callee, Problem, Redirect, Script, SimpleCommand, Stdin, parse};
pub use word::Word;
