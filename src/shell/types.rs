//! The shell lane's shared types: what a parse returns ([`Script`]), each
//! simple command in it ([`SimpleCommand`]), where its stdin comes from
//! ([`Stdin`]), its output redirections ([`Redirect`]), what its name calls
//! ([`Callee`]), and what makes a parse untrustworthy ([`Problem`]).
//!
//! Data only: takes nothing, touches nothing.

use super::word::Word;
use std::ops::Range;

/// Where a command's standard input comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stdin {
    /// Nothing redirected: the terminal, or whatever the caller gave.
    Inherited,
    /// The previous pipeline stage: the commands at these indices.
    Pipe(Range<usize>),
    /// `< file`.
    File(Word),
    /// A heredoc body; `literal` when the delimiter was quoted or the body
    /// has no expansion.
    Heredoc {
        /// The body text.
        body: String,
        /// No expansion or substitution happens in it.
        literal: bool,
    },
    /// `<<< word`.
    HereString(Word),
}

/// One output redirection (`>`, `>>`, `&>`, `>|`, `<>`, `2>` …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redirect {
    /// The operator as written.
    pub op: String,
    /// The target.
    pub target: Word,
}

/// One simple command as bash would run it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimpleCommand {
    /// `VAR=value` assignments before the name.
    pub assignments: Vec<(String, Word)>,
    /// The command name and its arguments.
    pub words: Vec<Word>,
    /// Redirections that write a file.
    pub redirects: Vec<Redirect>,
    /// What feeds stdin.
    pub stdin: Stdin,
    /// The command as written.
    pub text: String,
    /// Byte range in the parsed text.
    pub span: Range<usize>,
    /// The subshells it runs in, outermost first (`( … )`, `$( … )`, a
    /// pipeline stage): a `cd` there does not outlive them.
    pub scopes: Vec<u32>,
    /// What its name calls where bash runs it: a program, a function
    /// defined earlier in the line, or either (see [`Callee`]).
    pub callee: Callee,
}

/// What a command's name calls, as bash resolves it at that point of the
/// line: functions are in scope only after an unconditional definition in
/// the same shell (not in a subshell, `$( )`, a pipeline stage, a
/// background job, a branch or loop that may not run, nor undone by
/// `unset`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Callee {
    /// No function of that name is in scope: the program runs.
    #[default]
    Program,
    /// A function defined earlier in the same shell, for certain.
    Function,
    /// A function that may or may not be in scope: judged both ways.
    Either,
}

/// Something that makes the parse untrustworthy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// tree-sitter reported an ERROR or MISSING node here.
    Syntax(String),
    /// A newline inside one command's words: tree-sitter-bash#347 merged the
    /// next line's command into this one's arguments.
    MergedLine(String),
    /// tree-sitter ended a heredoc at a body line that only starts like
    /// its delimiter (`    EOF = 1`), where bash reads on to the line that
    /// is the delimiter alone. The walk keeps bash's body and judges the
    /// lines after bash's end line again (in `after_heredoc`).
    HeredocEnd(String),
    /// Source text outside every leaf: a token tree-sitter dropped.
    DroppedText(String),
    /// Nesting deeper than the walk follows.
    TooDeep,
    /// The parser was stopped: the line made it read the text over and
    /// over (see `parse_bounded`).
    TooComplex,
    /// More simple commands than the limit.
    TooMany,
    /// A construct the walk does not understand.
    Unsupported(String),
    /// Text bash reads again as code where only run time knows it: a
    /// variable of unknown value in an arithmetic context (`[[ $x -eq 1 ]]`,
    /// `$(( x ))`), a name with a subscript, a prompt string.
    Dynamic(String),
}

/// The result of parsing one command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Script {
    /// Every simple command, in source order.
    pub commands: Vec<SimpleCommand>,
    /// Everything that makes the parse untrustworthy.
    pub problems: Vec<Problem>,
    /// Names of functions defined in the line.
    pub functions: Vec<String>,
    /// For each `eval` or `trap` command (by index in `commands`), the
    /// functions in scope there: its script runs in this shell and sees
    /// them.
    pub functions_at: Vec<(usize, Vec<(String, Callee)>)>,
    /// Function bodies that call themselves in the background (`:(){ :|:& };:`).
    pub fork_bomb: bool,
    /// Command substitutions tree-sitter left as plain text (a backtick
    /// inside `${x:-`…`}`): to be parsed again as scripts of their own.
    pub nested: Vec<String>,
    /// The lines bash runs after a heredoc whose end tree-sitter misplaced
    /// ([`Problem::HeredocEnd`]): to be parsed again as a script of its own.
    pub after_heredoc: Vec<String>,
    /// What variables whose value only run time knows may hold, where the
    /// line shows it, by name (at most [`MAX_HELD`]; kept whatever the
    /// scope, so a check that reads them can only judge more).
    pub held: Vec<(String, Held)>,
    /// A name only run time picks is expanded somewhere in the line (a
    /// nameref, `${!x}`): any variable's value may stand for any other's.
    pub any_variable: bool,
}

impl Script {
    /// Records a value `name` may take at run time (at most [`MAX_HELD`]).
    pub fn hold(&mut self, name: &str, value: Held) {
        if self.held.len() < MAX_HELD {
            self.held.push((name.to_string(), value));
        }
    }

    /// Records the words a script or function is given as the values its
    /// positional parameters may take (`$1` … `$9`, `$@`, `$*`).
    pub fn hold_positional(&mut self, arguments: &[Word]) {
        for (at, word) in arguments.iter().enumerate().take(9) {
            self.hold(&(at + 1).to_string(), Held::Word(word.clone()));
        }
        for word in arguments {
            self.hold("@", Held::Word(word.clone()));
            self.hold("*", Held::Word(word.clone()));
        }
        if !arguments.is_empty() {
            self.hold("@", Held::Words(arguments.to_vec()));
            self.hold("*", Held::Words(arguments.to_vec()));
        }
    }
}

/// The most [`Script::held`] entries a line records.
pub const MAX_HELD: usize = 256;

/// One value a variable may take at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Held {
    /// A word it is given: one of `for NAME in …`'s, or the value of
    /// `NAME=$(…)` (or of an assignment in a branch).
    Word(Word),
    /// A line `read NAME` (or `mapfile`) reads from its stdin: the
    /// command, by index in [`Script::commands`].
    Read(usize),
    /// All the words at once, in order, as `"$@"` and `"${a[@]}"` expand:
    /// the arguments of one call, the elements of one array.
    Words(Vec<Word>),
}
