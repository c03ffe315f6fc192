//! The verbs that need more than the lexicon: one file a handler, each
//! saying what it takes, what it returns and its evaluation order.

pub(super) mod awk;
mod cd;
mod elsewhere;
mod git;
pub(super) mod sed;
mod source;
