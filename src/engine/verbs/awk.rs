//! `awk`, `gawk`, `mawk`, `nawk`: the class the program gives.
//!
//! Takes the arguments after the verb; returns the effect the awk program
//! has (`system()`, a pipe to or from a command, `print > file`), found by
//! [`crate::programs::awk`], or `None` when it has none beyond reading.
//!
//! Evaluation order (after the lexicon has classified the command):
//! 1. the program is found (the first operand, or `-e`/`--source=` text)
//!    and scanned; the verb stage takes its class where stricter than the
//!    lexicon's (`lexicon.awk.system`, …);
//! 2. its literal parts (commands, written files, program files) are then
//!    judged by the generic `program_parts` step, which is not here.

use super::Handler;

/// `awk` and its kin: the class their program gives.
pub(super) const HANDLER: Handler = Handler {
    program: Some(crate::programs::awk),
    ..Handler::NONE
};
