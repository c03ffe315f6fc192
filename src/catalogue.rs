//! The rule catalogue as `portcullis rules` prints it: the blocked floor,
//! the other rule families, and the lexicon by class (or, with `--verbs`,
//! every verb of the lexicon).
//!
//! Takes nothing but the compiled-in rules; returns text, one row a line,
//! ready to print.

use crate::rules;
use std::fmt::Write as _;

/// The effect classes of the lexicon, in the order the listing shows them.
const CLASSES: [&str; 10] = [
    "inspect", "build", "test", "format", "mutate", "install", "network", "publish", "destroy",
    "exec",
];

/// The catalogue: every floor rule with its reason, every other rule family
/// with what it decides, and for each effect class of the lexicon its
/// verdict and how many verbs it holds. Returns the text, ending in a
/// newline.
pub fn listing() -> String {
    let mut out = String::new();
    out.push_str("# Blocked floor (always on; BLOCKED)\n");
    for rule in rules::FLOOR_RULES {
        let _ = writeln!(out, "{:<32} {}", rule.id, rule.reason);
    }
    out.push_str("\n# Other rule families\n");
    for (id, what) in crate::engine::RULE_FAMILIES {
        let _ = writeln!(out, "{id:<32} {what}");
    }
    let _ = writeln!(
        out,
        "\n# Lexicon: {} verbs, {} wrappers, {} shells (lexicon.<verb>[.<sub>][.<flag>])",
        rules::lexicon().len(),
        rules::WRAPPERS.len(),
        rules::SHELLS.len()
    );
    for class in CLASSES {
        let count = rules::lexicon()
            .iter()
            .filter(|s| s.class.as_str() == class)
            .count();
        let verdict = rules::lexicon()
            .iter()
            .find(|s| s.class.as_str() == class)
            .map(|s| s.class.verdict().as_str())
            .unwrap_or("-");
        let _ = writeln!(out, "{class:<10} {verdict:<7} {count} verbs");
    }
    out
}

/// Every verb of the lexicon, one a line: name, class, verdict and the
/// rules file it comes from, tab-separated, with the number of its
/// subcommands after the file when it has any. Returns the text, ending
/// in a newline (empty for an empty lexicon).
pub fn verbs() -> String {
    let mut out = String::new();
    for (spec, source) in rules::lexicon().iter().zip(rules::LEXICON_SOURCES.iter()) {
        let subs = spec.subs().len();
        let subs = if subs > 0 {
            format!(" ({subs} subcommands)")
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}{subs}",
            spec.name(),
            spec.class.as_str(),
            spec.class.verdict(),
            source.get()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_names_every_floor_rule_and_class() {
        let text = listing();
        for rule in rules::FLOOR_RULES {
            assert!(text.contains(rule.id), "{} missing", rule.id);
        }
        for class in CLASSES {
            assert!(text.contains(&format!("\n{class:<10} ")), "{class} missing");
        }
        assert!(text.ends_with('\n'));
    }

    #[test]
    fn verbs_has_one_row_a_verb() {
        let text = verbs();
        assert_eq!(text.lines().count(), rules::lexicon().len());
        assert!(text.lines().all(|l| l.split('\t').count() == 4));
    }
}
