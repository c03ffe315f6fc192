//! The rule catalogue as `portcullis rules` prints it: the blocked floor,
//! the fixed rules and the families built from data (all from the rule id
//! types of `rule_id`), and the lexicon by class (or, with `--verbs`,
//! every verb of the lexicon).
//!
//! Takes nothing but the compiled-in rules; returns text, one row a line,
//! ready to print.

use crate::rule_id::{LexiconDetail, Rule, RuleId};
use crate::rules::{self, CodeEffect};
use crate::verdict::Effect;
use std::fmt::Write as _;

/// The languages of the inline lanes as rule ids name them: the two read
/// by tree-sitter, then the token scans (`inline::route`).
pub const INLINE_LANGUAGES: [&str; 6] = ["python", "js", "perl", "ruby", "php", "lua"];

/// The rows for the ids built from data, each with what it decides.
const BUILT_ROWS: [(&str, &str); 3] = [
    (
        "lexicon.<verb>[.<sub>…][.<flag>]",
        "the lexicon's class of the command (FREE: inspect, format, build, test; SIGNED: the rest), named by the verb, its subcommands and the flag that set the class",
    ),
    (
        "wrapper.<name>",
        "the class of a wrapper or a shell when stricter than the command it wraps, or alone with nothing to run (sudo, su, doas: SIGNED)",
    ),
    (
        "inline.<language>.pure",
        "FREE: inline code that only computes, reads and prints",
    ),
];

/// What each lexicon detail adds to the lexicon id it ends.
fn detail_meaning(detail: LexiconDetail) -> &'static str {
    match detail {
        LexiconDetail::UnknownOption => {
            "SIGNED: a command the lexicon finds free has an option outside its verb's closed option set"
        }
        LexiconDetail::DynamicOption => {
            "SIGNED: a word only known at run time stands where an option that raises the class could be"
        }
        LexiconDetail::SendsDynamic => {
            "SIGNED: a word only known at run time is sent over the network (dig $(cat key).x.example)"
        }
    }
}

/// The row of the listing an id is shown under: the id itself for a fixed
/// or floor rule, the pattern of its family for an id built from data.
/// `None` for an id built from data that names nothing the rules hold (a
/// verb outside the lexicon, a wrapper outside `rules/wrappers.json` and
/// the shells, a language no lane reads): such an id is not listed.
pub fn row_of(id: &RuleId) -> Option<String> {
    match id {
        RuleId::Fixed(rule) => Some(rule.id().to_string()),
        RuleId::Floor(rule) => Some(rule.info().id.to_string()),
        RuleId::Lexicon(lexicon) => {
            let verb = lexicon.path.first()?;
            rules::lexicon_entry(verb)?;
            Some(match lexicon.detail {
                None => BUILT_ROWS[0].0.to_string(),
                Some(detail) => format!("lexicon.<…>.{}", detail.suffix()),
            })
        }
        RuleId::Wrapper(name) => (rules::wrapper(name).is_some() || rules::is_shell(name))
            .then(|| BUILT_ROWS[1].0.to_string()),
        RuleId::Inline(language, what) => {
            if !INLINE_LANGUAGES.contains(language) {
                return None;
            }
            Some(match what {
                crate::rule_id::InlineRule::Pure => BUILT_ROWS[2].0.to_string(),
                crate::rule_id::InlineRule::Effect(effect) => {
                    format!("inline.<language>.{}", effect.as_str())
                }
            })
        }
    }
}

/// The catalogue: every floor rule with its reason, every fixed rule with
/// what it decides, the families built from data, and for each effect
/// class of the lexicon its verdict and how many verbs it holds. Returns
/// the text, ending in a newline.
pub fn listing() -> String {
    let mut out = String::new();
    out.push_str("# Blocked floor (always on; BLOCKED)\n");
    for rule in rules::FLOOR_RULES {
        let _ = writeln!(out, "{:<32} {}", rule.id, rule.reason);
    }
    out.push_str("\n# Fixed rules\n");
    for rule in Rule::ALL {
        let _ = writeln!(out, "{:<32} {}", rule.id(), rule.meaning());
    }
    out.push_str("\n# Rules built from data\n");
    let [lexicon, wrapper, pure] = BUILT_ROWS;
    let _ = writeln!(out, "{:<32} {}", lexicon.0, lexicon.1);
    for detail in LexiconDetail::ALL {
        let row = format!("lexicon.<…>.{}", detail.suffix());
        let _ = writeln!(out, "{row:<32} {}", detail_meaning(detail));
    }
    let names: Vec<&str> = rules::WRAPPERS.iter().map(|w| w.name).collect();
    let _ = writeln!(
        out,
        "{:<32} {} ({})",
        wrapper.0,
        wrapper.1,
        names.join(", ")
    );
    let _ = writeln!(out, "{:<32} {}", pure.0, pure.1);
    for effect in CodeEffect::FOUND {
        let row = format!("inline.<language>.{}", effect.as_str());
        let (does, _) = effect.text();
        let _ = writeln!(out, "{row:<32} SIGNED: a call that {does}");
    }
    let _ = writeln!(
        out,
        "{:<32} {}",
        "",
        format_args!("(languages: {})", INLINE_LANGUAGES.join(", "))
    );
    let _ = writeln!(
        out,
        "\n# Lexicon: {} verbs, {} wrappers, {} shells (lexicon.<verb>[.<sub>][.<flag>])",
        rules::lexicon().len(),
        rules::WRAPPERS.len(),
        rules::SHELLS.len()
    );
    for class in Effect::ALL {
        let count = rules::lexicon().iter().filter(|s| s.class == class).count();
        let _ = writeln!(
            out,
            "{:<10} {:<7} {count} verbs",
            class.as_str(),
            class.verdict().as_str()
        );
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
        for rule in Rule::ALL {
            assert!(
                text.contains(&format!("\n{:<32} ", rule.id())),
                "{rule} missing"
            );
        }
        for class in Effect::ALL {
            assert!(
                text.contains(&format!("\n{:<10} ", class.as_str())),
                "{class:?} missing"
            );
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
