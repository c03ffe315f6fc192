//! The context a command is judged in: where it sits, how deep, in which
//! folder, and what the wrappers peeled around it said. One [`Ctx`] travels
//! down the verb stage and the lanes it calls, instead of long lists of
//! `(site, depth, cwd)` arguments and fields of [`Run`](super::Run) set in
//! one method and read in another.

use super::Site;
use crate::rules::Wrapper;
use crate::verdict::Effect;
use std::path::{Path, PathBuf};

/// The wrappers peeled around a verb: the strictest class among them and
/// the wrapper that has it (`sudo`, `nohup`).
#[derive(Clone, Copy)]
pub(super) struct Wrapping {
    pub class: Effect,
    pub wrapper: Option<&'static str>,
}

impl Wrapping {
    /// No wrapper: nothing of their own to add.
    pub const NONE: Wrapping = Wrapping {
        class: Effect::Inspect,
        wrapper: None,
    };
}

/// Where and how one command is judged.
#[derive(Clone)]
pub(super) struct Ctx<'s> {
    /// The simple command and the script it sits in.
    pub site: &'s Site<'s>,
    /// How deep in scripts run by scripts (indents the trace; limits
    /// nesting).
    pub depth: usize,
    /// The shell's folder when the command starts (what `cd` changes).
    pub shell_cwd: Option<&'s Path>,
    /// This command's own folder: the shell's, changed by wrappers (`env
    /// -C`) and by `git -C`; unknown when `None`.
    pub cwd: Option<PathBuf>,
    /// The wrappers peeled around the verb.
    pub wrapping: Wrapping,
    /// The runner peeled around the verb (`npx`), whose class applies when
    /// the verb is not in the lexicon.
    pub runner: Option<&'static Wrapper>,
    /// The verb was reached through a wrapper: it names a program, not a
    /// function.
    pub wrapped: bool,
}

impl<'s> Ctx<'s> {
    /// A command at `site`, `depth` deep, run in `cwd`, with no wrapper
    /// around it.
    pub fn new(site: &'s Site<'s>, depth: usize, cwd: Option<PathBuf>) -> Ctx<'s> {
        Ctx {
            site,
            depth,
            shell_cwd: None,
            cwd,
            wrapping: Wrapping::NONE,
            runner: None,
            wrapped: false,
        }
    }

    /// The command's text, as findings quote it.
    pub fn part(&self) -> &'s str {
        self.site.command.text.as_str()
    }

    /// The command's own folder, borrowed.
    pub fn cwd(&self) -> Option<&Path> {
        self.cwd.as_deref()
    }
}
