//! The verbs that need more than the lexicon: one file a handler, each
//! saying what it takes, what it returns and its evaluation order.

mod cd;
mod elsewhere;
mod git;
mod source;
