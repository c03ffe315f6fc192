//! Recipe files that build and test runners run: Makefile (`make`),
//! justfile (`just`) and the `scripts` of `package.json` (`npm`, `yarn`,
//! `pnpm`). Text in, shell lines out: the engine reads the files and
//! judges each line through the shell lane. What these readers cannot
//! follow (a variable only known when the runner runs, `$(eval …)`, an
//! `import`) is reported, never guessed; every cost is bounded by the
//! limits below.
//!
//! This file holds the limits and the [`Plan`] every reader returns;
//! `make` and `makefile` read Makefiles, `just` justfiles, `package_json`
//! the scripts of `package.json`.
#![deny(clippy::indexing_slicing)]

mod just;
mod make;
mod makefile;
mod package_json;
#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests;

pub use just::{Justfile, just_plan, parse_justfile};
pub use make::{MakeArgs, make_args, make_plan};
pub use makefile::{Makefile, parse_makefile};
pub use package_json::{ScriptCall, package_plan, script_call};

/// Most targets, recipes or scripts followed from one invocation.
pub const MAX_TARGETS: usize = 512;
/// Most lines one invocation hands to the shell lane.
pub const MAX_LINES: usize = 2_000;
/// Deepest variable reference followed (`A = $(B)`, `B = $(A)` ends here).
pub const MAX_EXPANSION_DEPTH: usize = 32;
/// Longest expanded line, in bytes; longer is only known when it runs.
pub const MAX_LINE_BYTES: usize = 64 << 10;
/// Most recipe files (Makefiles, includes, justfiles, package.json) read
/// in one request.
pub const MAX_FILES: usize = 32;

/// Stands for a part of a line that is only known when the runner runs.
const UNRESOLVED: &str = "$__portcullis_unresolved";

/// One shell line a runner runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The shell text; unresolved parts are an unset shell variable.
    pub text: String,
    /// Where it comes from (`Makefile: test`), for reasons and traces.
    pub origin: String,
    /// Part of it is only known when the runner runs.
    pub dynamic: bool,
}

/// What a reader found an invocation runs.
#[derive(Debug, Default)]
pub struct Plan {
    /// Every line it runs, in order.
    pub lines: Vec<Line>,
    /// What could not be followed, in words; not empty: not FREE.
    pub unknown: Vec<String>,
}

impl Plan {
    fn unknown(&mut self, why: impl Into<String>) {
        let why = why.into();
        if !self.unknown.contains(&why) && self.unknown.len() < 16 {
            self.unknown.push(why);
        }
    }

    fn push(&mut self, text: String, origin: &str, dynamic: bool) {
        if self.lines.len() >= MAX_LINES {
            self.unknown(format!("more than {MAX_LINES} recipe lines"));
            return;
        }
        self.lines.push(Line {
            text,
            origin: origin.to_string(),
            dynamic,
        });
    }
}
