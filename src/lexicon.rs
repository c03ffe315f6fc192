//! The verb lexicon stage: one peeled argv in, its effect class out.
//!
//! Looks the verb up in the compiled lexicon (`rules/lexicon/*.json`),
//! descends into subcommands, applies the flags that change the class, and
//! names the operands the command writes. It judges nothing about *where*
//! those writes land: that is the floor's and the path law's job.

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
    /// The working folder is written into.
    Cwd,
}

/// What the lexicon says about one argv.
#[derive(Clone, Debug)]
pub struct Classified {
    /// The class that decides the verdict.
    pub effect: Effect,
    /// `lexicon.<verb>[.<sub>…][.<flag>]`.
    pub rule: String,
    /// The verb and subcommands matched (`["git", "push"]`).
    pub path: Vec<&'static str>,
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

/// Classifies `argv` (argv\[0\] is the verb as the lexicon knows it).
/// `None` when the verb is not in the lexicon.
pub fn classify(verb: &str, argv: &[Word]) -> Option<Classified> {
    let top = lookup(verb)?;
    let mut spec = top;
    let mut path = vec![top.name()];
    let mut start = 1;
    // Descend into subcommands.
    loop {
        if spec.subs().is_empty() {
            break;
        }
        match find_sub(spec, argv, start) {
            Some((sub, next)) => {
                spec = sub;
                path.push(sub.name());
                start = next;
            }
            None => break,
        }
    }
    let mut effect = spec.class;
    let mut decided_by: Option<&'static FlagRule> = None;
    let mut lowered_by: Option<&'static FlagRule> = None;
    let mut writes_mode = spec.writes;
    let mut writes = Vec::new();
    let mut operands = Vec::new();
    let mut i = start;
    let mut options_done = false;
    while i < argv.len() {
        let word = &argv[i].value;
        if options_done || !is_option(word) {
            operands.push(i);
            i += 1;
            continue;
        }
        if word == "--" {
            options_done = true;
            i += 1;
            continue;
        }
        let mut takes_value = takes_separate_value(spec, word);
        for flag in spec.flags() {
            if let Some(attached) = flag_matches(spec, flag, word) {
                if flag.lowers {
                    lowered_by = Some(flag);
                    continue;
                }
                if flag.class.rank() > effect.rank() {
                    effect = flag.class;
                    decided_by = Some(flag);
                }
                match flag.writes {
                    FlagWrites::Unchanged => {}
                    FlagWrites::Operands(mode) => writes_mode = mode,
                    FlagWrites::Value => {
                        if attached {
                            writes.push(Written::Arg(i));
                        } else if i + 1 < argv.len() {
                            writes.push(Written::Arg(i + 1));
                            takes_value = true;
                        }
                    }
                }
            }
        }
        i += if takes_value { 2 } else { 1 };
    }
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
    if is_help_or_version(&argv[start.min(argv.len())..]) {
        effect = Effect::Inspect;
        decided_by = None;
        writes_mode = Operands::None;
        writes.clear();
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
    }
    for &i in &operands {
        if let Some((key, _)) = argv[i].value.split_once('=')
            && spec.kv_writes.contains(key)
        {
            writes.push(Written::KeyValue(i));
        }
    }
    let mut rule = format!("lexicon.{}", path.join("."));
    let mut note = spec.note();
    if let Some(flag) = decided_by {
        rule.push('.');
        rule.push_str(flag.id.get());
        // The verb's own note describes the verb, not the flag that decided.
        note = flag.note.get();
    }
    let flag = decided_by.and_then(|f| f.spellings.iter().next());
    Some(Classified {
        effect,
        rule,
        path,
        spec,
        note,
        flag,
        writes,
        operands,
    })
}

/// An option word: starts with `-` and is more than `-` alone.
fn is_option(word: &str) -> bool {
    word.len() > 1 && word.starts_with('-')
}

/// The subcommand named by the first operand (or by a `sub_opts` value),
/// with the index after it.
fn find_sub(spec: &'static Spec, argv: &[Word], start: usize) -> Option<(&'static Spec, usize)> {
    let mut i = start;
    while i < argv.len() {
        let word = argv[i].value.as_str();
        if word == "--" {
            return None;
        }
        if spec.sub_opts.contains(word) {
            let name = argv.get(i + 1)?.value.as_str();
            return spec.sub(name).map(|s| (s, i + 2));
        }
        if let Some(opt) = spec
            .sub_opts
            .iter()
            .find(|o| o.len() == 2 && word.starts_with(*o) && word.len() > 2)
        {
            return spec.sub(&word[opt.len()..]).map(|s| (s, i + 1));
        }
        // Options, `+toolchain` (cargo) and `NAME=value` (make) come before
        // the subcommand.
        if is_option(word) || word.starts_with('+') || crate::peel::is_assignment(word) {
            i += if takes_separate_value(spec, word) {
                2
            } else {
                1
            };
            continue;
        }
        return spec.sub(word).map(|s| (s, i + 1));
    }
    None
}

/// Whether this option consumes the next word as its value.
fn takes_separate_value(spec: &Spec, word: &str) -> bool {
    if word.contains('=') {
        return false;
    }
    if spec.value_opts.contains(word) {
        return true;
    }
    // A cluster ending in a value option (`tar -xzf FILE`, `grep -rne PAT`).
    if !spec.no_clusters
        && !word.starts_with("--")
        && word.len() > 2
        && let Some(last) = word.chars().last()
    {
        let short = format!("-{last}");
        let all_letters = word[1..].chars().all(|c| c.is_ascii_alphabetic());
        return all_letters && spec.value_opts.contains(&short);
    }
    false
}

/// Whether `flag` matches the option `word`; `Some(true)` when the value is
/// attached to the word itself (`-ofile`, `--output=file`).
fn flag_matches(spec: &Spec, flag: &FlagRule, word: &str) -> Option<bool> {
    for spelling in flag.spellings.iter() {
        if let Some(long) = spelling.strip_prefix("--") {
            let (name, attached) = match word.strip_prefix("--") {
                Some(rest) => match rest.split_once('=') {
                    Some((n, _)) => (n, true),
                    None => (rest, false),
                },
                None => continue,
            };
            if name == long || (spec.abbrev && name.len() >= 2 && long.starts_with(name)) {
                return Some(attached);
            }
        } else if spelling.len() == 2 {
            let letter = spelling.as_bytes()[1] as char;
            if word == spelling {
                return Some(false);
            }
            if spec.no_clusters || word.starts_with("--") {
                continue;
            }
            // Walk the cluster: letters are flags until one that takes a
            // value, after which the rest of the word is that value.
            for (pos, c) in word[1..].char_indices() {
                if !c.is_ascii_alphabetic() {
                    break;
                }
                if c == letter {
                    return Some(pos + 2 < word.len());
                }
                if spec.value_opts.contains(&format!("-{c}")) {
                    break;
                }
            }
        } else if word == spelling
            || word
                .strip_prefix(spelling)
                .is_some_and(|r| r.starts_with('='))
        {
            return Some(word.len() > spelling.len());
        }
    }
    None
}

fn is_help_or_version(args: &[Word]) -> bool {
    let alone_v = args.len() == 1 && args[0].value == "-v";
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
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Word> {
        line.split_whitespace().map(Word::literal).collect()
    }

    fn class(line: &str) -> (Effect, String) {
        let argv = words(line);
        let c = classify(&argv[0].value, &argv).expect("known verb");
        (c.effect, c.rule)
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
