//! Settings that change what runs: environment variables set or exported
//! for a command (`PAGER=…`, `GIT_SSH_COMMAND=…`), `git -c` settings and
//! the scripts they name, cargo's `--config`, and secrets read into the
//! model's context.
//!
//! Takes the setting's name, value and scope; adds findings and
//! re-enters the shell lane with the commands a setting runs.

use super::Run;
use crate::floor;
use crate::rule_id::Rule;
use crate::settings::Scope;
use crate::shell::{Held, Script, Stdin, Word};
use crate::verdict::Verdict;
use std::path::PathBuf;

impl Run<'_> {
    /// Secrets read into the model's context: files of credentials named as
    /// operands, `kubectl get secrets`, and dumps of the whole environment.
    pub(super) fn secret_reads(
        &mut self,
        verb: &str,
        args: &[Word],
        script: &Script,
        part: &str,
        depth: usize,
        cwd: Option<&std::path::Path>,
    ) {
        let listed = self.listed.as_deref();
        let found = crate::secrets::secret_read(verb, args, listed, self.location, cwd)
            .or_else(|| through_variables(verb, args, listed, script, self.location, cwd));
        if let Some(why) = found {
            self.note(depth, || format!("secrets: {why}"));
            self.find(
                Verdict::Signed,
                Rule::CageSecretsRead,
                format!("{why}; they would enter the model's context"),
                "Ask the person for the one value you need, or read a template such as .env.example.",
                part,
            );
        }
    }

    /// An environment variable set for a command (or exported): some make
    /// programs run other code.
    pub(super) fn setting(
        &mut self,
        name: &str,
        value: &Word,
        scope: Scope,
        part: &str,
        depth: usize,
    ) {
        if let Some(rule) = floor::check_setting(name, &value.value) {
            self.floor(rule, part, depth);
        }
        if let Some((rule, why)) = crate::settings::environment(name, &value.value, scope) {
            self.note(depth, || format!("setting: {why}"));
            self.find(Verdict::Signed, rule, why, SETTING_REMEDIATION, part);
            // The command it holds runs: judged as a script of its own
            // (`GIT_PAGER='rm -rf ~' git log`).
            if crate::settings::holds_command(name) && value.is_static() {
                let cwd = self.location.cwd.clone();
                self.script(&value.value, depth + 1, cwd);
            }
        }
    }

    /// `git -c key=value` and `--config-env key=VAR`: keys whose value is a
    /// command; an alias starting with `!` is a shell script, judged as one.
    pub(super) fn git_settings(
        &mut self,
        globals: &crate::git::Globals,
        part: &str,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        for setting in &globals.settings {
            let key = setting.key.as_str();
            let alias = key.to_ascii_lowercase().starts_with("alias.");
            let Some(value) = setting.value.as_deref() else {
                // The value is only known when git runs: any key that can
                // name a command is a command of unknown text.
                if crate::settings::git_config(key, "!").is_some() || alias {
                    self.find(
                        Verdict::Signed,
                        Rule::SettingExec,
                        format!("git --config-env sets {key} from the environment, so the command it names is only known when git runs"),
                        SETTING_REMEDIATION,
                        part,
                    );
                }
                continue;
            };
            if let Some((rule, why)) = crate::settings::git_config(key, value) {
                self.note(depth, || format!("setting: {why}"));
                self.find(Verdict::Signed, rule, why, SETTING_REMEDIATION, part);
                // A key whose value is a command (`core.pager`,
                // `core.sshCommand`): that command is judged too.
                if !alias {
                    self.script(value, depth + 1, cwd.clone());
                }
            }
            if alias {
                match value.strip_prefix('!') {
                    // `!cmd`: a shell script.
                    Some(script) => self.script(script, depth + 1, cwd.clone()),
                    // Otherwise a git command line (`alias.x='stash clear'`).
                    None => self.script(&format!("git {value}"), depth + 1, cwd.clone()),
                }
            }
        }
    }

    /// Commands git runs for a subcommand: `rebase --exec CMD` / `-x CMD`,
    /// `bisect run CMD ARGS…`, `submodule foreach CMD`. Each is judged as a
    /// script of its own (the lexicon already makes the call SIGNED).
    pub(super) fn git_scripts(
        &mut self,
        args: &[Word],
        globals: &crate::git::Globals,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        let Some(i) = globals.sub else {
            return;
        };
        let sub = args[i].value.as_str();
        let rest = args.get(i + 1..).unwrap_or(&[]);
        let mut scripts: Vec<String> = Vec::new();
        match sub {
            "rebase" => {
                let mut j = 0;
                while j < rest.len() {
                    let v = rest[j].value.as_str();
                    if v == "--exec" || v == "-x" {
                        if let Some(cmd) = rest.get(j + 1) {
                            scripts.push(cmd.value.clone());
                        }
                        j += 2;
                        continue;
                    }
                    if let Some(cmd) = v.strip_prefix("--exec=") {
                        scripts.push(cmd.to_string());
                    } else if let Some(cmd) = v.strip_prefix("-x").filter(|c| !c.is_empty()) {
                        scripts.push(cmd.to_string());
                    }
                    j += 1;
                }
            }
            "bisect" if rest.first().is_some_and(|w| w.value == "run") => {
                let words: Vec<String> = rest[1..].iter().map(|w| w.value.clone()).collect();
                if let Ok(line) = shlex::try_join(words.iter().map(String::as_str)) {
                    scripts.push(line);
                }
            }
            "submodule" => {
                let mut words = rest.iter().filter(|w| !w.value.starts_with('-'));
                if words.next().is_some_and(|w| w.value == "foreach")
                    && let Some(cmd) = words.next()
                {
                    scripts.push(cmd.value.clone());
                }
            }
            _ => {}
        }
        for script in scripts {
            self.note(depth, || format!("git {sub} runs: {script}"));
            self.script(&script, depth + 1, cwd.clone());
        }
    }
}

/// What to do instead of a setting that runs code.
const SETTING_REMEDIATION: &str = "Run the command without that setting (or with a plain value such as PAGER=cat), so what runs can be checked.";

/// The command a cargo `--config KEY=VALUE` setting makes cargo run, when
/// the key names one (`target.<triple>.runner`, `.linker`,
/// `build.rustc-wrapper`, `build.rustc`, …): the TOML string, or the words
/// of a TOML array of strings, as a shell line.
pub(super) fn cargo_config_command(setting: &str) -> Option<String> {
    let (key, value) = setting.split_once('=')?;
    let key = key.trim().to_ascii_lowercase();
    let names_a_command = [
        "runner",
        "linker",
        "rustc-wrapper",
        "rustc-workspace-wrapper",
        "rustc",
        "rustdoc",
    ]
    .iter()
    .any(|k| key == *k || key.strip_suffix(k).is_some_and(|head| head.ends_with('.')));
    if !names_a_command {
        return None;
    }
    let unquote = |s: &str| {
        let s = s.trim();
        s.strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .or_else(|| s.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')))
            .unwrap_or(s)
            .to_string()
    };
    let value = value.trim();
    match value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        // An array is the program and its arguments, each one word.
        Some(items) => {
            let words: Vec<String> = items.split(',').map(unquote).collect();
            shlex::try_join(words.iter().map(String::as_str)).ok()
        }
        None => Some(unquote(value)),
    }
}

/// The most values of variables [`through_variables`] tries for one
/// command; past it, the command is judged as reading any file.
const MAX_HELD_TRIES: usize = 64;

/// How many variables deep a value is followed (`g=$f` after `for f in
/// …`).
const MAX_HELD_DEPTH: usize = 3;

/// Why `verb args` reads secrets through a variable whose value only run
/// time knows but the line shows (`for f in ~/.ssh/*; do cat $f; done`,
/// `x=$(find ~ -type f); cat $x`, `find ~ | while read f; do cat "$f";
/// done`, `f() { cat "$1"; }; f ~/.ssh/id_rsa`): each value it may hold is
/// put in its place and judged.
fn through_variables(
    verb: &str,
    args: &[Word],
    listed: Option<&crate::feeds::Listed>,
    script: &Script,
    location: &crate::paths::Location,
    cwd: Option<&std::path::Path>,
) -> Option<String> {
    if script.held.is_empty() || !crate::secrets::reads_content(verb) {
        return None;
    }
    let mut tries = 0;
    let judge = Judge {
        verb,
        listed,
        script,
        location,
        cwd,
    };
    judge.values(args, &[], &mut tries)
}

/// What [`through_variables`] judges with.
struct Judge<'a> {
    verb: &'a str,
    listed: Option<&'a crate::feeds::Listed>,
    script: &'a Script,
    location: &'a crate::paths::Location,
    cwd: Option<&'a std::path::Path>,
}

impl Judge<'_> {
    fn read(&self, args: &[Word], listed: Option<&crate::feeds::Listed>) -> Option<String> {
        crate::secrets::secret_read(self.verb, args, listed, self.location, self.cwd)
    }

    /// The values the variables of `args`'s dynamic words may hold, each
    /// put in its place and judged; `through` are the variables already
    /// put in (`g=$f`: `$g`'s value is `$f`), not put in again.
    fn values(&self, args: &[Word], through: &[&str], tries: &mut usize) -> Option<String> {
        for (at, word) in args.iter().enumerate().filter(|(_, w)| w.dynamic) {
            let names = referenced_names(&word.source);
            for name in names.iter().filter(|n| !through.contains(&n.as_str())) {
                let held = self.script.held.iter().filter(|(n, _)| n == name);
                for (_, held) in held {
                    let (values, read_listed) = self.held_values(held);
                    *tries += values.len() + usize::from(read_listed.is_some());
                    if *tries > MAX_HELD_TRIES {
                        return Some(format!(
                            "reads {}, which may be any of more than {MAX_HELD_TRIES} values the line gives ${name}",
                            crate::limits::clip(&word.source, 60)
                        ));
                    }
                    let through_name = |why: String| format!("{why} (through ${name})");
                    for value in &values {
                        let mut given = args.to_vec();
                        if let Some(slot) = given.get_mut(at) {
                            *slot = put_value(word, name, value);
                        }
                        if let Some(why) = self.read(&given, self.listed) {
                            return Some(through_name(why));
                        }
                        // `g=$f`: the value is a variable of its own.
                        let deeper: Vec<&str> =
                            through.iter().copied().chain([name.as_str()]).collect();
                        if deeper.len() < MAX_HELD_DEPTH
                            && given.get(at).is_some_and(|w| w.dynamic)
                            && let Some(why) = self.values(&given, &deeper, tries)
                        {
                            return Some(through_name(why));
                        }
                    }
                    if let Some(read_listed) = read_listed.filter(|l| !l.is_empty())
                        && let Some(why) = self.read(args, Some(&read_listed))
                    {
                        return Some(through_name(why));
                    }
                }
            }
        }
        None
    }

    /// The words one held value may be, and where the names a `read`
    /// reads lie.
    fn held_values(&self, held: &Held) -> (Vec<Word>, Option<crate::feeds::Listed>) {
        let index = match held {
            Held::Word(value) => return (vec![value.clone()], None),
            Held::Read(index) => *index,
        };
        let Some(command) = self.script.commands.get(index) else {
            // Past the command limit: not known.
            let unknown = crate::feeds::Listed::unbounded("a command past the limit".into());
            return (Vec::new(), Some(unknown));
        };
        match crate::feeds::stdin_operands(self.script, command) {
            Some(fed) => (fed.words, Some(fed.listed)),
            None => match &command.stdin {
                Stdin::File(file) if !crate::feeds::is_stdin_word(file) => {
                    let from = format!("the file {}", crate::limits::clip(&file.value, 60));
                    (Vec::new(), Some(crate::feeds::Listed::unbounded(from)))
                }
                // The hook's own stdin, as `cat $X` is judged.
                _ => (Vec::new(), None),
            },
        }
    }
}

/// The names of the variables a word's source expands: `$f`, `${f}`,
/// `${f:-x}`, `${a[@]}`, and the positional `$1`, `$@`, `$*`.
fn referenced_names(source: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find('$') {
        rest = rest.get(at + 1..).unwrap_or("");
        let after = rest.strip_prefix('{').unwrap_or(rest);
        let name = match after.chars().next() {
            Some(c @ ('@' | '*' | '1'..='9')) => c.to_string(),
            _ => {
                let end = after
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                let name = after.get(..end).unwrap_or("");
                if name.starts_with(|c: char| c.is_ascii_digit()) {
                    continue;
                }
                name.to_string()
            }
        };
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// `word` with the expansion of `name` replaced by `value`: `value`
/// itself where the word is only that expansion (`"$f"`), else the word
/// with its text put in. What an expansion with an operator (`${f%.pub}`,
/// `${a[0]}`) makes of the value is not worked out: it stays, only known
/// at run time, under the value's folder.
fn put_value(word: &Word, name: &str, value: &Word) -> Word {
    let whole = word.source.trim_matches('"');
    if whole == format!("${name}") || whole == format!("${{{name}}}") {
        return value.clone();
    }
    let mut put = word.clone();
    put.value = replace_expansions(&word.value, name, &value.value);
    put.source = replace_expansions(&word.source, name, &value.value);
    put.tilde = word.value.starts_with('$') && value.tilde;
    put.dynamic = value.dynamic || put.value.contains('$');
    put.glob |= value.glob;
    put.substitution |= value.substitution;
    put
}

/// `text` with each `$name` and `${name}` replaced by `value`, and each
/// `${name…}` put under `value`'s folder.
fn replace_expansions(text: &str, name: &str, value: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let after = from.get(1..).unwrap_or("");
        if let Some(braced) = after.strip_prefix('{')
            && let Some(tail) = braced.strip_prefix(name)
            && !tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            && let Some(end) = tail.find('}')
        {
            if end == 0 {
                out.push_str(value);
            } else {
                // `${f%.pub}`: some text made of the value, under its folder.
                let folder = value
                    .rfind('/')
                    .map_or("", |at| value.get(..=at).unwrap_or(""));
                out.push_str(folder);
                out.push_str(from.get(..2 + name.len() + end + 1).unwrap_or(""));
            }
            rest = tail.get(end + 1..).unwrap_or("");
        } else if let Some(tail) = after.strip_prefix(name)
            && !tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        {
            out.push_str(value);
            rest = tail;
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}
