//! The verb lexicon stage: one peeled argv in, its effect class out.
//!
//! Looks the verb up in the compiled lexicon (`rules/lexicon/*.json`),
//! descends into subcommands, applies the flags that change the class, and
//! names the operands the command writes. It judges nothing about *where*
//! those writes land: that is the floor's and the path law's job.
#![deny(clippy::indexing_slicing)]

use crate::options::{self, Value};
use crate::rule_id::{LexiconRule, RuleId};
use crate::rules::{self, FlagRule, FlagWrites, Operands, Spec};
use crate::shell::Word;
use crate::verdict::Effect;

/// A write the command makes, found by the lexicon.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Written {
    /// The argument at this index of the argv is written.
    Arg(usize),
    /// A `key=value` argument at this index; the value (after `=`) is written.
    KeyValue(usize),
    /// The value attached to the option word at this index, from this
    /// byte offset (`-oFILE`, `--output=FILE`).
    Attached(usize, usize),
    /// The working folder is written into.
    Cwd,
}

/// What the lexicon says about one argv.
#[derive(Clone, Debug)]
pub struct Classified {
    /// The class that decides the verdict.
    pub effect: Effect,
    /// `lexicon.<verb>[.<sub>…][.<flag>]`.
    pub rule: RuleId,
    /// The verb and subcommands matched (`["git", "push"]`), as named in
    /// `rules/` (a pattern by its pattern: `["aws", "*", "describe-*"]`).
    pub path: Vec<&'static str>,
    /// The same, as written where a pattern matched (`aws ec2
    /// describe-instances`), for reasons.
    pub command: String,
    /// The deepest spec matched.
    pub spec: &'static Spec,
    /// Note of the spec or of the flag that decided.
    pub note: &'static str,
    /// The flag that decided the class, as first spelled in `rules/`.
    pub flag: Option<&'static str>,
    /// Arguments written.
    pub writes: Vec<Written>,
    /// Indices of the operands (non-option words) at the deepest level.
    pub operands: Vec<usize>,
    /// Indices of option words outside the closed option sets of the verb
    /// and subcommands matched (`tar --foo`): such a command is not FREE.
    pub unknown_options: Vec<usize>,
    /// Indices of words in option position only known at run time (`$X`,
    /// `*`), for a verb with options that raise its class.
    pub maybe_options: Vec<usize>,
    /// Option values that are code the program runs (`tar -I CMD`), where
    /// they are (the same positions as writes) and what they are.
    pub scripts: Vec<(Written, rules::Runs)>,
    /// The command prints secrets or credentials (`secret` on its spec or
    /// on a flag used): the engine adds `cage.secrets.read`. The note of
    /// the spec or flag that says so.
    pub secret: Option<&'static str>,
}

/// Finds a verb's entry: exactly, then lower-cased (case-insensitive file
/// systems run `RM` as `rm`), then without a version suffix (`python3.11`,
/// `gcc-12`), then by its dotted prefix (`mkfs.ext4`).
pub fn lookup(verb: &str) -> Option<&'static Spec> {
    if let Some(spec) = rules::lexicon_entry(verb) {
        return Some(spec);
    }
    let lower = verb.to_ascii_lowercase();
    if lower != verb
        && let Some(spec) = rules::lexicon_entry(&lower)
    {
        return Some(spec);
    }
    let trimmed = lower.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let trimmed = trimmed.strip_suffix('-').unwrap_or(trimmed);
    if trimmed != lower
        && !trimmed.is_empty()
        && let Some(spec) = rules::lexicon_entry(trimmed)
    {
        return Some(spec);
    }
    if let Some((prefix, _)) = lower.split_once('.')
        && !prefix.is_empty()
    {
        return rules::lexicon_entry(prefix);
    }
    None
}

/// The class a lexicon rule id stands for: the class of the flag it names,
/// else of its deepest subcommand. `None` when the id names no entry or no
/// flag of it (an id the programs' readers made, `lexicon.awk.system`).
/// A pattern subcommand is named by its pattern (`lexicon.aws.*.describe-*`).
pub fn class_of(rule: &LexiconRule) -> Option<Effect> {
    let (verb, subs) = rule.path.split_first()?;
    let mut spec = rules::lexicon_entry(verb)?;
    for sub in subs {
        spec = spec.sub_named(sub)?;
    }
    match rule.flag {
        None => Some(spec.class),
        Some(flag) => spec
            .flags()
            .iter()
            .find(|f| f.id.get() == flag)
            .map(|f| f.class),
    }
}

/// Classifies `argv` (argv\[0\] is the verb as the lexicon knows it).
/// `None` when the verb is not in the lexicon.
pub fn classify(verb: &str, argv: &[Word]) -> Option<Classified> {
    let top = lookup(verb)?;
    let mut spec = top;
    let mut path = vec![top.name()];
    let mut command = top.name().to_string();
    let mut start = 1;
    let mut unknown_options = Vec::new();
    let mut maybe_options = Vec::new();
    // The options read at every level: a global option's flag (`git
    // --git-dir=…`) counts as the subcommand's own.
    let mut uses = Vec::new();
    // Descend into subcommands; the options before each belong to the
    // level they are read at.
    while !spec.subs().is_empty() {
        let (place, before) = options::subcommand_name(spec, argv, start);
        let Some(found) = place.and_then(|((i, offset, next), by_option)| {
            let word = argv.get(i)?;
            let name = word.value.get(offset..)?;
            let sub = spec.sub_for(name, word.is_static(), by_option)?;
            // How the reason names it: a pattern by the word that matched,
            // a name given as an option's value with its option
            // (`checkout -b feature`, `checkout -bfeature`).
            let said = match (sub.is_pattern(), by_option) {
                (false, _) => (None, sub.name()),
                (true, false) => (None, name),
                (true, true) if offset > 0 => (None, word.value.as_str()),
                (true, true) => (i.checked_sub(1).and_then(|o| argv.get(o)), name),
            };
            Some((sub, said, next))
        }) else {
            break;
        };
        let (sub, (option, said), next) = found;
        unknown_options.extend(before.unknown);
        uses.extend(before.uses);
        spec = sub;
        path.push(sub.name());
        if let Some(option) = option {
            command.push(' ');
            command.push_str(&option.value);
        }
        command.push(' ');
        command.push_str(said);
        start = next;
    }
    let reading = options::read(spec, argv, start);
    uses.extend(reading.uses.iter().copied());
    // Unknown options of the levels above stay unknown whatever follows.
    let unknown_above = unknown_options.len();
    unknown_options.extend(reading.unknown.iter().copied());
    maybe_options.extend(reading.maybe_options.iter().copied());
    let mut effect = spec.class;
    let mut decided_by: Option<&'static FlagRule> = None;
    let mut lowered_by: Option<&'static FlagRule> = None;
    let mut writes_mode = spec.writes;
    let mut writes = Vec::new();
    let mut scripts = Vec::new();
    let mut secret = spec.secret.then(|| spec.note());
    for used in &uses {
        let Some(flag) = used.known.and_then(|k| k.flag()) else {
            continue;
        };
        if flag.secret && secret.is_none() {
            secret = Some(flag.note.get());
        }
        if flag.lowers {
            lowered_by = Some(flag);
            continue;
        }
        if flag.class.rank() > effect.rank() {
            effect = flag.class;
            decided_by = Some(flag);
        }
        if let Some(runs) = flag.runs {
            match used.value {
                Some(Value::Attached(at)) => {
                    scripts.push((Written::Attached(used.index, at), runs))
                }
                Some(Value::Next(at)) => scripts.push((Written::Arg(at), runs)),
                None => {}
            }
        }
        match flag.writes {
            FlagWrites::Unchanged => {}
            FlagWrites::Operands(mode) => writes_mode = mode,
            FlagWrites::Value => match used.value {
                Some(Value::Attached(at)) => writes.push(Written::Attached(used.index, at)),
                Some(Value::Next(at)) => writes.push(Written::Arg(at)),
                None => {}
            },
        }
    }
    let operands = reading.operands;
    if let Some((over, class)) = spec.with_operands
        && operands.len() > over as usize
        && class.rank() > effect.rank()
    {
        effect = class;
    }
    // A dry run or a listing (`git clean -n`, `unzip -l`) only looks,
    // whatever else is on the line; so does asking for help or the version.
    if let Some(flag) = lowered_by {
        effect = flag.class;
        decided_by = Some(flag);
        writes_mode = Operands::None;
        writes.clear();
    }
    // A lone `-v` is the version only where no subcommand or flag of the
    // spec gives it a meaning of its own (`docker compose down -v`
    // deletes the volumes).
    let lone_v_is_version = path.len() == 1 && decided_by.is_none();
    if is_help_or_version(argv.get(start..).unwrap_or(&[]), lone_v_is_version) {
        effect = Effect::Inspect;
        decided_by = None;
        writes_mode = Operands::None;
        writes.clear();
        // The help and version words themselves are in no option set.
        unknown_options.truncate(unknown_above);
        maybe_options.clear();
        secret = None;
    }
    match writes_mode {
        Operands::None => {}
        Operands::All => writes.extend(operands.iter().map(|&i| Written::Arg(i))),
        Operands::Last => {
            if let Some(&last) = operands.last() {
                writes.push(Written::Arg(last));
            }
        }
        Operands::First => {
            if let Some(&first) = operands.first() {
                writes.push(Written::Arg(first));
            }
        }
        Operands::Cwd => writes.push(Written::Cwd),
        Operands::Second => writes.extend(operands.get(1).map(|&i| Written::Arg(i))),
        Operands::Prefix => match operands.get(1) {
            Some(&i) => writes.push(Written::Arg(i)),
            None => writes.push(Written::Cwd),
        },
    }
    for &i in &operands {
        if let Some((key, _)) = argv.get(i).and_then(|w| w.value.split_once('='))
            && spec.kv_writes.contains(key)
        {
            writes.push(Written::KeyValue(i));
        }
    }
    // Only a verb with options that change its class can be steered by a
    // word that becomes an option at run time.
    if !spec
        .flags()
        .iter()
        .any(|f| f.class.rank() > Effect::Format.rank())
    {
        maybe_options.clear();
    }
    let rule = RuleId::lexicon(&path, decided_by.map(|f| f.id.get()));
    // The verb's own note describes the verb, not the flag that decided.
    let note = decided_by.map_or(spec.note(), |flag| flag.note.get());
    let flag = decided_by.and_then(|f| f.spellings.iter().next());
    Some(Classified {
        effect,
        rule,
        path,
        command,
        spec,
        note,
        flag,
        writes,
        operands,
        unknown_options,
        maybe_options,
        scripts,
        secret,
    })
}

/// Whether `args` only ask for help or the version (`--help`, `-V`; a
/// lone `-v` when `lone_v_is_version`).
fn is_help_or_version(args: &[Word], lone_v_is_version: bool) -> bool {
    let alone_v = lone_v_is_version && matches!(args, [only] if only.value == "-v");
    alone_v
        || !args.is_empty()
            && args.iter().all(|w| {
                matches!(
                    w.value.as_str(),
                    "--help" | "-h" | "--version" | "-V" | "-version" | "help"
                )
            })
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Word> {
        line.split_whitespace().map(Word::literal).collect()
    }

    fn class(line: &str) -> (Effect, String) {
        let argv = words(line);
        let c = classify(&argv[0].value, &argv).expect("known verb");
        (c.effect, c.rule.to_string())
    }

    #[test]
    fn lookup_fallbacks() {
        assert!(lookup("python3.11").is_some());
        assert!(lookup("mkfs.ext4").is_some());
        assert!(lookup("no-such-verb-xyz").is_none());
    }

    #[test]
    fn flags_raise_the_class() {
        assert_eq!(class("sed -n 1,5p f").0, Effect::Inspect);
        assert_eq!(class("sed -i s/a/b/ f").0, Effect::Mutate);
        assert_eq!(class("sed -ni s/a/b/ f").0, Effect::Mutate);
        assert_eq!(class("find . -name x").0, Effect::Inspect);
        assert_eq!(class("find . -delete").0, Effect::Destroy);
        assert_eq!(class("sort -o out in").0, Effect::Mutate);
    }

    #[test]
    fn subcommands_descend() {
        assert_eq!(class("git status").0, Effect::Inspect);
        assert_eq!(class("git -C sub status").0, Effect::Inspect);
        assert_eq!(class("git push origin main").0, Effect::Publish);
        assert_eq!(class("cargo test --release").0, Effect::Test);
        assert_eq!(class("python -m pytest -x").0, Effect::Test);
    }

    #[test]
    fn writes_are_named() {
        let argv = words("cp a b c");
        let c = classify("cp", &argv).expect("cp");
        assert_eq!(c.writes, vec![Written::Arg(3)]);
        let argv = words("sort -o out in");
        let c = classify("sort", &argv).expect("sort");
        assert!(c.writes.contains(&Written::Arg(2)));
        let argv = words("dd if=/dev/zero of=/dev/sda");
        let c = classify("dd", &argv).expect("dd");
        assert_eq!(c.writes, vec![Written::KeyValue(2)]);
    }
}
