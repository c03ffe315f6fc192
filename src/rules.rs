//! The compiled policy data: the tables `build.rs` generates from `rules/`,
//! and the types they are made of. Lookups are binary searches over sorted
//! static slices: nothing is built at start-up.
#![deny(clippy::indexing_slicing)]

use crate::rule_id::Rule;
use crate::verdict::{Effect, Verdict};

/// Which operands of a command are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operands {
    /// None of them.
    None,
    /// Every operand (`rm`, `touch`, `tee`).
    All,
    /// The last operand (`cp`, `ln`).
    Last,
    /// The first operand.
    First,
    /// The working folder (`tar -x`, `unzip`).
    Cwd,
    /// The second operand, when there is one (`uniq IN OUT`, `xxd IN OUT`).
    Second,
    /// The second operand, a prefix of the files written; with none, the
    /// working folder (`split IN PREFIX`).
    Prefix,
}

/// What a flag does to the write targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagWrites {
    /// Leaves the command's own write mode.
    Unchanged,
    /// The flag's value is written (`sort -o FILE`).
    Value,
    /// Replaces the command's write mode.
    Operands(Operands),
}

/// A string of the lexicon: an offset into [`STRINGS`]. The lexicon holds no
/// pointers, so a position-independent binary has nothing to relocate in it
/// at start-up (with pointers, fixing up ~1 MiB of tables cost more than the
/// whole rest of a hook call).
#[derive(Clone, Copy, Debug)]
pub struct Text {
    start: u32,
    len: u32,
}

impl Text {
    /// The string.
    pub fn get(self) -> &'static str {
        STRINGS
            .get(self.start as usize..(self.start + self.len) as usize)
            .unwrap_or("")
    }
}

/// A list of strings: a range of [`TEXT_LISTS`].
#[derive(Clone, Copy, Debug)]
pub struct TextList {
    start: u32,
    len: u32,
}

impl TextList {
    /// The strings, in order.
    pub fn iter(self) -> impl Iterator<Item = &'static str> {
        TEXT_LISTS
            .get(self.start as usize..(self.start + self.len) as usize)
            .unwrap_or(&[])
            .iter()
            .map(|t| t.get())
    }

    /// Whether `word` is one of them.
    pub fn contains(self, word: &str) -> bool {
        self.iter().any(|item| item == word)
    }
}

/// A range of [`SPECS`] or [`FLAGS`].
#[derive(Clone, Copy, Debug)]
pub struct Range {
    start: u32,
    len: u32,
}

impl Range {
    fn of<T>(self, table: &'static [T]) -> &'static [T] {
        table
            .get(self.start as usize..(self.start + self.len) as usize)
            .unwrap_or(&[])
    }
}

/// A flag that changes a verb's class.
#[derive(Debug)]
pub struct FlagRule {
    /// Spellings: `--long`, `-x` (also inside clusters), `-word` (exact).
    pub spellings: TextList,
    /// The class the flag raises the command to.
    pub class: Effect,
    /// What it does to write targets.
    pub writes: FlagWrites,
    /// Its name in rule ids.
    pub id: Text,
    /// One line shown in reasons.
    pub note: Text,
    /// The flag makes the command only look (a dry run or a listing:
    /// `git clean -n`, `unzip -l`): its class replaces every other.
    pub lowers: bool,
    /// Its value is code the program runs (`tar -I CMD`).
    pub runs: Option<Runs>,
    /// The flag makes the command print secrets or credentials (`aws ssm
    /// get-parameter --with-decryption`): rule `cage.secrets.read`.
    pub secret: bool,
}

/// What a flag's value is, when the program runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runs {
    /// A shell command line (`tar -I CMD`, `man -P CMD`).
    Shell,
    /// Python code (`pylint --init-hook CODE`).
    Python,
    /// A cargo `KEY=VALUE` setting, whose runner, linker or wrapper is a
    /// command (`cargo --config 'target.x.runner="CMD"'`).
    CargoConfig,
}

/// One option spelling a spec knows (`rules/lexicon`: `opts`,
/// `value_opts`, `sub_opts` and the flags' spellings), in the spec's table
/// sorted by spelling.
#[derive(Debug)]
pub struct KnownOption {
    /// The spelling: `-x`, `--long`, `-word`, or `-NUM` (a dash and digits).
    pub spelling: Text,
    /// It takes a value (the rest of its word, or the next word).
    pub takes_value: bool,
    /// Index in [`FLAGS`] of the flag rule it spells, or `u32::MAX`.
    flag: u32,
}

impl KnownOption {
    /// The flag rule this spelling belongs to, if it changes the class.
    pub fn flag(&self) -> Option<&'static FlagRule> {
        FLAGS.get(self.flag as usize)
    }
}

/// A verb or subcommand of the lexicon.
#[derive(Debug)]
pub struct Spec {
    name: Text,
    /// Its effect class.
    pub class: Effect,
    /// Which operands it writes.
    pub writes: Operands,
    /// Options that take the next word as value.
    pub value_opts: TextList,
    flags: Range,
    /// Its subcommands: first the ones named exactly, sorted by name, then
    /// the patterns (`describe-*`, longest prefix first, then `*`).
    subs: Range,
    /// How many of `subs` are named exactly (the rest are patterns).
    exact_subs: u32,
    /// For a `*` subcommand: the only words it matches (none: any word).
    words: TextList,
    /// It prints secrets or credentials (`aws secretsmanager
    /// get-secret-value`): rule `cage.secrets.read`, whatever its class.
    pub secret: bool,
    /// Only a `sub_opts` option's value selects it (`git checkout -b
    /// NAME`), never an operand (`git checkout FILE`).
    pub via_option: bool,
    /// Options whose value names the subcommand (`python -m pytest`).
    pub sub_opts: TextList,
    /// `(over, class)`: with more than `over` operands the class becomes `class`.
    pub with_operands: Option<(u8, Effect)>,
    /// `key=value` operands whose value is written (`dd of=`).
    pub kv_writes: TextList,
    /// One-dash words are never clusters of one-letter options.
    pub no_clusters: bool,
    /// Every option it accepts, sorted by spelling (its closed option set).
    options: Range,
    /// Option families known by prefix, value attached (`-W`, `-std=`).
    pub option_prefixes: TextList,
    /// Option reading stops at the first word that is no known option, and
    /// that word is an operand (`echo -x` prints `-x`).
    pub unknown_is_operand: bool,
    /// `--` does not end the options (`find -- / -delete` still deletes).
    pub reads_past_dashdash: bool,
    /// It sends its arguments over the network (`dig`, `npm view`): free
    /// only when every argument is known before it runs.
    pub sends_arguments: bool,
    note: Text,
}

impl Spec {
    /// The verb or subcommand name.
    pub fn name(&self) -> &'static str {
        self.name.get()
    }

    /// One line shown in reasons.
    pub fn note(&self) -> &'static str {
        self.note.get()
    }

    /// Flags that change the class.
    pub fn flags(&self) -> &'static [FlagRule] {
        self.flags.of(&FLAGS)
    }

    /// Its closed option set, sorted by spelling.
    pub fn options(&self) -> &'static [KnownOption] {
        self.options.of(&OPTIONS)
    }

    /// The option spelled exactly `spelling`.
    pub fn option(&self, spelling: &str) -> Option<&'static KnownOption> {
        let options = self.options();
        options
            .binary_search_by(|o| o.spelling.get().cmp(spelling))
            .ok()
            .and_then(|i| options.get(i))
    }

    /// The options whose spelling starts with `prefix` (contiguous, as the
    /// table is sorted).
    pub fn options_starting(&self, prefix: &str) -> &'static [KnownOption] {
        let options = self.options();
        let start = options.partition_point(|o| o.spelling.get() < prefix);
        let rest = options.get(start..).unwrap_or_default();
        let len = rest
            .iter()
            .take_while(|o| o.spelling.get().starts_with(prefix))
            .count();
        rest.get(..len).unwrap_or_default()
    }

    /// Subcommands: those named exactly, sorted by name, then the
    /// patterns, in the order they are tried.
    pub fn subs(&self) -> &'static [Spec] {
        self.subs.of(&SPECS)
    }

    /// Whether this subcommand is a pattern: `*` (any word, or any of its
    /// `words`) or a prefix ending in `*` (`describe-*`).
    pub fn is_pattern(&self) -> bool {
        self.name().ends_with('*')
    }

    /// For a `*` subcommand, the only words it matches (empty: any).
    pub fn words(&self) -> impl Iterator<Item = &'static str> {
        self.words.iter()
    }

    /// Whether this pattern subcommand matches `word`: `*` any word (or
    /// one of its `words`), `prefix*` a word longer than the prefix that
    /// starts with it; either only a word of letters, digits, `-`, `_`,
    /// `.` and `/` that starts with neither `-` nor `/`.
    /// A subcommand named exactly matches nothing here.
    fn matches(&self, word: &str) -> bool {
        // Only a word that could be a command's or a branch's name:
        // letters, digits, `-`, `_`, `.` and `/`, not starting with `-`
        // (never a URL, an absolute path or a `key=value`).
        if word.starts_with(['-', '/'])
            || !word
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/'))
        {
            return false;
        }
        let name = self.name();
        match name.strip_suffix('*') {
            Some("") => self.words.len == 0 || self.words.contains(word),
            Some(prefix) => word.len() > prefix.len() && word.starts_with(prefix),
            None => false,
        }
    }

    /// The subcommand called exactly `name`, if any.
    fn exact_sub(&self, name: &str) -> Option<&'static Spec> {
        let names = self.subs.of(&SPEC_NAMES);
        names
            .get(..self.exact_subs as usize)
            .unwrap_or_default()
            .binary_search(&name)
            .ok()
            .and_then(|i| self.subs().get(i))
    }

    /// The subcommand the word `name` selects: the one named exactly,
    /// else, when the word is known before the command runs (`literal`),
    /// the first pattern that matches it. A word only known at run time
    /// (`$svc`, a glob) never meets a pattern: it could be any word, or
    /// several.
    ///
    /// `by_option`: the word is a `sub_opts` option's value; a subcommand
    /// marked `via_option` is selected only so.
    pub fn sub_for(&self, name: &str, literal: bool, by_option: bool) -> Option<&'static Spec> {
        let allowed = |sub: &&'static Spec| by_option || !sub.via_option;
        if let Some(found) = self.exact_sub(name).filter(allowed) {
            return Some(found);
        }
        if !literal {
            return None;
        }
        self.subs()
            .get(self.exact_subs as usize..)
            .unwrap_or_default()
            .iter()
            .filter(allowed)
            .find(|sub| sub.matches(name))
    }

    /// The subcommand an operand called `name` selects, if any: exactly,
    /// else by pattern.
    pub fn sub(&self, name: &str) -> Option<&'static Spec> {
        self.sub_for(name, true, false)
    }

    /// The subcommand whose own name is `name`, pattern or not (`*`,
    /// `describe-*`): how a rule id, which names the pattern, finds its
    /// entry.
    pub fn sub_named(&self, name: &str) -> Option<&'static Spec> {
        self.exact_sub(name).or_else(|| {
            self.subs()
                .get(self.exact_subs as usize..)
                .unwrap_or_default()
                .iter()
                .find(|sub| sub.name() == name)
        })
    }
}

/// The verbs of the lexicon, sorted by name.
pub fn lexicon() -> &'static [Spec] {
    &SPECS[..LEXICON_LEN]
}

/// How a wrapper's inner command is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WrapperMode {
    /// The words after the wrapper's options are the inner command.
    Argv,
    /// The operands are joined with spaces and run by a shell (`watch`).
    Join,
    /// The next word is the inner command's name (`busybox rm`).
    Applet,
    /// Like `Argv`, but stdin supplies more operands (`xargs`).
    Xargs,
}

/// A command that runs another command.
#[derive(Debug)]
pub struct Wrapper {
    /// Its name.
    pub name: &'static str,
    /// Its own class: a floor under the inner command's.
    pub class: Effect,
    /// Options that take a value.
    pub value_opts: &'static [&'static str],
    /// Options whose value is the folder the inner command runs in.
    pub cwd_opts: &'static [&'static str],
    /// Options whose value is a shell script.
    pub script_opts: &'static [&'static str],
    /// Options whose value is split into the inner command's words (`env -S`).
    pub split_opts: &'static [&'static str],
    /// Options that only look a command up (`command -v`).
    pub lookup_opts: &'static [&'static str],
    /// Words that end the inner command (`parallel … ::: args`).
    pub stop_words: &'static [&'static str],
    /// Options naming the string that stdin replaces (`xargs -I{}`,
    /// `xargs -i`, whose default is `{}`).
    pub replace_opts: &'static [&'static str],
    /// Operands skipped before the inner command (`timeout 10 cmd`).
    pub skip_operands: u8,
    /// `NAME=value` words are skipped (`env`).
    pub skip_assignments: bool,
    /// `-N` numeric options are skipped (`nice -10`).
    pub numeric_opts: bool,
    /// The inner command comes only from a script option (`su -c`).
    pub only_script: bool,
    /// How the inner command is found.
    pub mode: WrapperMode,
    /// The class when there is no inner command.
    pub alone: Effect,
    /// The class when the inner command is not in the lexicon (`npx pkg`
    /// fetches and runs code), instead of UNKNOWN.
    pub unknown: Option<Effect>,
    /// One line shown in reasons.
    pub note: &'static str,
}

/// One built-in protected path rule of the path law (`rules/law.json`).
#[derive(Debug)]
pub struct ProtectedRule {
    /// Its rule (`cage.secrets`, `trust.executable`).
    pub rule: Rule,
    /// What the paths are, for reasons ("a secrets file").
    pub what: &'static str,
    /// Where the rule comes from, for `portcullis policy`.
    pub source: &'static str,
    /// The verdict of a write, always; `None`: only when frozen.
    pub verdict: Option<Verdict>,
    /// The verdict of a write when dependencies are frozen.
    pub frozen: Option<Verdict>,
    /// Root-relative globs; each also covers everything beneath it.
    pub paths: &'static [&'static str],
    /// Globs the rule leaves out (`.env.example`, `vendor/`).
    pub except: &'static [&'static str],
    /// What to do instead.
    pub remediation: &'static str,
}

/// Options that make a command run in another folder (`make -C DIR`,
/// `cargo --manifest-path DIR/Cargo.toml`), from `rules/law.json`.
#[derive(Debug)]
pub struct FolderOption {
    /// The verb, as the lexicon names it.
    pub verb: &'static str,
    /// Options whose value is the folder.
    pub folder: &'static [&'static str],
    /// Options whose value is a file in the folder.
    pub file: &'static [&'static str],
}

/// A command a dependency freeze blocks.
#[derive(Debug)]
pub struct FrozenCommand {
    /// `cage.dependency_manifest` or `cage.lockfile`.
    pub rule: Rule,
    /// The verb and its first words that are not options.
    pub words: &'static [&'static str],
    /// What may follow those words.
    pub rest: FrozenRest,
    /// Options of which one must be given (`ncu -u`); empty: none needed.
    pub options: &'static [&'static str],
}

/// What may follow a frozen command's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrozenRest {
    /// Nothing: `npm install` alone.
    Nothing,
    /// At least one more word, a package: `npm install lodash`.
    Package,
    /// Anything: `cargo update -p serde`.
    Any,
}

/// Id, reason, remediation and examples of one floor rule.
#[derive(Debug)]
pub struct FloorRuleInfo {
    /// The rule.
    pub rule: FloorRule,
    /// Its stable id.
    pub id: &'static str,
    /// Why it is blocked.
    pub reason: &'static str,
    /// What the agent should do instead.
    pub remediation: &'static str,
    /// A command it blocks.
    pub hit: &'static str,
    /// A similar command it does not block.
    pub miss: &'static str,
}

/// What a call found in Python or JavaScript code does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CodeEffect {
    /// Nothing to judge (exempts a name from a `module.*` entry).
    None,
    /// Writes, moves, copies or changes files.
    Write,
    /// Deletes files.
    Delete,
    /// Starts another program.
    Spawn,
    /// Reaches the network.
    Network,
    /// Runs code built or loaded at run time.
    Dynamic,
    /// Signals or changes other processes.
    Process,
    /// A call the lane cannot resolve to a known pure function.
    Unresolved,
}

impl CodeEffect {
    /// Every effect a finding can carry (all but `None`), in the order the
    /// rule listing shows them.
    pub const FOUND: [CodeEffect; 7] = [
        CodeEffect::Write,
        CodeEffect::Delete,
        CodeEffect::Spawn,
        CodeEffect::Network,
        CodeEffect::Dynamic,
        CodeEffect::Process,
        CodeEffect::Unresolved,
    ];

    /// The effect's name, as in rule ids (`inline.python.delete`).
    pub fn as_str(self) -> &'static str {
        match self {
            CodeEffect::None => "none",
            CodeEffect::Write => "write",
            CodeEffect::Delete => "delete",
            CodeEffect::Spawn => "spawn",
            CodeEffect::Network => "network",
            CodeEffect::Dynamic => "dynamic",
            CodeEffect::Process => "process",
            CodeEffect::Unresolved => "unresolved",
        }
    }

    /// What the effect does, and what to do instead.
    pub fn text(self) -> (&'static str, &'static str) {
        CODE_EFFECT_TEXT
            .iter()
            .find(|t| t.effect == self)
            .map(|t| (t.does, t.remediation))
            .unwrap_or(("has an effect", "Let a person review this code."))
    }
}

/// The prose of one effect.
pub struct EffectText {
    /// The effect.
    pub effect: CodeEffect,
    /// What it does ("deletes files").
    pub does: &'static str,
    /// What the agent should do instead.
    pub remediation: &'static str,
}

/// An argument of a call that names a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathArg {
    /// The object the method is called on (`Path(p).unlink()`).
    Receiver,
    /// The positional argument at this index.
    Arg(u8),
}

/// How a spawning call hands its command over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShellArg {
    /// This argument is a shell line (`os.system(s)`).
    Line(u8),
    /// A list here is argv, a string a shell line (`subprocess.run`).
    Command(u8),
    /// This argument is the argv list (`os.execv(path, argv)`).
    ArgvList(u8),
    /// The arguments from this index on are the argv (`os.execl`).
    ArgvFrom(u8),
    /// JavaScript `spawn(program, [args], {shell})`.
    Spawn,
}

/// A call with an effect, in one language's table.
pub struct CodeCall {
    /// Canonical dotted name (`shutil.rmtree`, `module.*`, `*.method`).
    pub name: &'static str,
    /// What it does.
    pub effect: CodeEffect,
    /// Which arguments name files.
    pub paths: &'static [PathArg],
    /// The shell command it amounts to, for the floor (`rm -rf`), or "".
    pub equivalent: &'static str,
    /// The argument holding an open mode: the call writes only with a
    /// writing mode.
    pub mode: Option<u8>,
    /// The argument holding `{recursive: true}`.
    pub recursive: Option<u8>,
    /// How a spawn hands over its command.
    pub shell: Option<ShellArg>,
    /// The argument that is code in the same language.
    pub code: Option<u8>,
    /// A function (not a string) in the code argument is no effect
    /// (`setTimeout(fn, 10)`).
    pub callback_ok: bool,
}

/// The languages of the inline-code lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeLanguage {
    /// Python.
    Python,
    /// JavaScript (and TypeScript, read as JavaScript).
    JavaScript,
}

/// The table entry for a canonical call name: the exact name, else the
/// nearest `module.*`, else (for a method call) `*.method`.
pub fn code_call(language: CodeLanguage, name: &str, is_method: bool) -> Option<&'static CodeCall> {
    let table: &'static [CodeCall] = match language {
        CodeLanguage::Python => &PYTHON_CALLS,
        CodeLanguage::JavaScript => &JAVASCRIPT_CALLS,
    };
    let find = |key: &str| {
        table
            .binary_search_by(|c| c.name.cmp(key))
            .ok()
            .and_then(|i| table.get(i))
    };
    if let Some(found) = find(name) {
        return Some(found);
    }
    let mut prefix = name;
    while let Some((head, _)) = prefix.rsplit_once('.') {
        if let Some(found) = find(&format!("{head}.*")) {
            return Some(found);
        }
        prefix = head;
    }
    if is_method && let Some((_, method)) = name.rsplit_once('.') {
        return find(&format!("*.{method}"));
    }
    None
}

/// A set of environment variable names from `rules/environment.json`: the
/// exact names, sorted (build.rs sorts them), and the patterns with one
/// `*` (any run of characters).
#[derive(Debug)]
pub struct NameSet {
    /// Names without a `*`, sorted.
    pub exact: &'static [&'static str],
    /// Names with one `*`.
    pub patterns: &'static [&'static str],
}

include!(concat!(env!("OUT_DIR"), "/rules.rs"));

impl FloorRule {
    /// The catalogue entry of this rule.
    pub fn info(self) -> &'static FloorRuleInfo {
        // Every variant is generated from a row of FLOOR_RULES, so the search
        // always succeeds; the fallback keeps this total without a panic
        // (FLOOR_RULES is a sized array, so its index 0 is checked when compiling).
        FLOOR_RULES
            .iter()
            .find(|r| r.rule == self)
            .unwrap_or(&FLOOR_RULES[0])
    }
}

/// The lexicon entry of a verb, exactly as named.
pub fn lexicon_entry(verb: &str) -> Option<&'static Spec> {
    SPEC_NAMES[..LEXICON_LEN]
        .binary_search(&verb)
        .ok()
        .and_then(|i| lexicon().get(i))
}

/// The wrapper called `name`, if it is one.
pub fn wrapper(name: &str) -> Option<&'static Wrapper> {
    WRAPPERS
        .binary_search_by(|w| w.name.cmp(name))
        .ok()
        .and_then(|i| WRAPPERS.get(i))
}

/// A runner that fetches a package and runs its program (`npx`, `uvx`).
#[derive(Debug)]
pub struct PackageRunner {
    /// Its name.
    pub name: &'static str,
    /// Options whose value is a package to fetch (`npx -p`, `uvx --from`).
    pub package_opts: &'static [&'static str],
    /// Options that change where packages come from (`--registry`).
    pub source_opts: &'static [&'static str],
}

/// The package runner called `name`, if it is one (`rules/scripts.json`).
pub fn package_runner(name: &str) -> Option<&'static PackageRunner> {
    PACKAGE_RUNNERS
        .binary_search_by(|r| r.name.cmp(name))
        .ok()
        .and_then(|i| PACKAGE_RUNNERS.get(i))
}

/// Whether a script path (`./tests/runtests.py`) is a project test runner.
pub fn is_test_script(path: &str) -> bool {
    let path = path.trim_start_matches("./");
    TEST_SCRIPTS.iter().any(|entry| {
        path.strip_suffix(entry)
            .is_some_and(|before| before.is_empty() || before.ends_with('/'))
    })
}

/// A formatter or fixer that rewrites files in place (`rules/rewrites.json`).
#[derive(Debug)]
pub struct Formatter {
    /// Its lexicon path (`["ruff", "format"]`).
    pub command: &'static [&'static str],
    /// Name patterns of the files it rewrites (`*.py`).
    pub files: &'static [&'static str],
    /// What it rewrites when it names nothing.
    pub bare: Bare,
    /// Options that make it rewrite when its class alone does not
    /// (`ruff check --fix`, `rubocop -a`).
    pub fixes: &'static [&'static str],
    /// Options that make it only report (`--check`).
    pub unless: &'static [&'static str],
}

/// What a formatter rewrites when it names no file or folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bare {
    /// The working folder and everything beneath it.
    Tree,
    /// The working folder's own files.
    Folder,
    /// The tree of the outermost folder, from the working folder up to
    /// the repository's root, that holds this file (`Cargo.toml`).
    Package(&'static str),
    /// Nothing: it reads stdin.
    Nothing,
}

/// The formatter entry for a lexicon path, if it has one; the path may
/// start with the runner that runs it (`python -m black`, `bundle exec
/// rubocop`).
pub fn formatter(path: &[&str]) -> Option<&'static Formatter> {
    (0..path.len().min(3))
        .filter_map(|skip| path.get(skip..))
        .find_map(|rest| FORMATTERS.iter().find(|f| f.command == rest))
}

/// The verb a project runner run by path is read as (`bin/rails` is
/// rails, `./gradlew` is gradlew), if `path` names one.
pub fn project_runner(path: &str) -> Option<&'static str> {
    let path = path.trim_start_matches("./");
    PROJECT_RUNNERS
        .iter()
        .find(|(runner, _)| *runner == path)
        .map(|(_, verb)| *verb)
}

/// Whether `name` is a shell (`sh`, `bash`, …).
pub fn is_shell(name: &str) -> bool {
    SHELLS.binary_search(&name).is_ok()
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_unique() {
        assert!(lexicon().windows(2).all(|w| w[0].name() < w[1].name()));
        assert!(SPECS.iter().map(Spec::name).eq(SPEC_NAMES.iter().copied()));
        assert!(WRAPPERS.windows(2).all(|w| w[0].name < w[1].name));
        assert!(SHELLS.windows(2).all(|w| w[0] < w[1]));
        fn subs_sorted(spec: &Spec) -> bool {
            let exact = &spec.subs()[..spec.exact_subs as usize];
            let patterns = &spec.subs()[spec.exact_subs as usize..];
            exact.windows(2).all(|w| w[0].name() < w[1].name())
                && exact.iter().all(|s| !s.is_pattern())
                && patterns.iter().all(Spec::is_pattern)
                && spec.subs().iter().all(subs_sorted)
        }
        assert!(lexicon().iter().all(subs_sorted));
        assert_eq!(lexicon().len(), LEXICON_SOURCES.len());
    }

    #[test]
    fn no_verb_is_both_wrapper_and_lexicon_entry() {
        for w in WRAPPERS {
            assert!(
                lexicon_entry(w.name).is_none(),
                "{} is a wrapper and a lexicon verb",
                w.name
            );
        }
        for s in SHELLS {
            assert!(
                lexicon_entry(s).is_none(),
                "{s} is a shell and a lexicon verb"
            );
        }
    }

    #[test]
    fn floor_info_round_trips() {
        for info in FLOOR_RULES {
            assert_eq!(info.rule.info().id, info.id);
        }
    }
}
