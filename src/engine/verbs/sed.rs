//! `sed` (and `gsed`): the class the script gives, and the operand that is
//! the script rather than a file.
//!
//! Takes the arguments after the verb (the words, for the operand) and
//! the lexicon's classification; returns the script's effect (`w`, `e`,
//! `s///e`, `s///w`), found by [`crate::programs::sed`], and the index of
//! the script operand.
//!
//! Evaluation order (after the lexicon has classified the command):
//! 1. the script is scanned; the verb stage takes its class where stricter
//!    than the lexicon's (`lexicon.sed.writes`, …);
//! 2. its literal parts are judged by the generic `program_parts` step;
//! 3. with the write targets: `sed -i SCRIPT FILE…` without `-e` or `-f`
//!    has its script as the first operand, which is not a file written.
//!    Only a spec named `sed` is read so; `gsed`'s first operand stays a
//!    write target, as before.

use super::Handler;
use crate::lexicon::Classified;
use crate::shell::Word;

/// `sed`: the class its script gives, and the operand that is the script.
pub(super) const HANDLER: Handler = Handler {
    program: Some(crate::programs::sed),
    script_operand: Some(script_operand),
    ..Handler::NONE
};

/// `gsed`: the class its script gives.
pub(super) const GSED: Handler = Handler {
    program: Some(crate::programs::sed),
    ..Handler::NONE
};

/// `sed -i SCRIPT FILE…`: without `-e` or `-f` the first operand is the
/// script, not a file; its index.
fn script_operand(classified: &Classified, words: &[Word]) -> Option<usize> {
    let given_apart = words.iter().any(|w| {
        matches!(w.value.as_str(), "-e" | "--expression" | "-f" | "--file")
            || w.value.starts_with("--expression=")
            || w.value.starts_with("--file=")
    });
    if classified.spec.name() != "sed" || given_apart {
        return None;
    }
    classified.operands.first().copied()
}
