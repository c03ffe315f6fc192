//! Rule ids: the stable dotted names every finding carries (`floor.rm.home`,
//! `lexicon.git.push.unknown-option`, `cage.git_control`).
//!
//! A rule id is a [`RuleId`]: a fixed [`Rule`] of the engine or the path
//! law, a [`FloorRule`] of the blocked floor, or an id with a typed payload
//! for the families built from data (a lexicon path, a wrapper's name, an
//! inline lane's effect). Its `Display` is the dotted text, a stable
//! interface hosts and people match on; inside the binary ids are compared
//! as values, never as text.

mod fixed;

pub use fixed::Rule;

use crate::rules::{CodeEffect, FloorRule};
use std::fmt;

/// A stable rule id.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RuleId {
    /// A fixed rule (`parse.error`, `write.redirect`, `cage.git_control`).
    Fixed(Rule),
    /// A rule of the blocked floor (`floor.rm.home`), from `rules/floor.json`.
    Floor(FloorRule),
    /// The lexicon's rule for a command (`lexicon.git.push`,
    /// `lexicon.sed.in-place`, `lexicon.cat.unknown-option`).
    Lexicon(LexiconRule),
    /// A wrapper's or a shell's own class (`wrapper.sudo`, `wrapper.bash`),
    /// named in `rules/wrappers.json`.
    Wrapper(&'static str),
    /// An inline lane's finding (`inline.python.pure`, `inline.js.network`,
    /// `inline.ruby.spawn`): the lane's language as rule ids name it, and
    /// what it found.
    Inline(&'static str, InlineRule),
}

/// What kind of rule an id names: its first dotted part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// The blocked floor (`floor.*`).
    Floor,
    /// The cage's protected paths and freeze (`cage.*`).
    Cage,
    /// Gantry's edit roots and forbidden zones (`gantry.*`).
    Gantry,
    /// Workspace execution trust (`trust.*`).
    Trust,
    /// A write the path law could not place (`write.*`).
    Write,
    /// The verb lexicon (`lexicon.*`).
    Lexicon,
    /// The shell parser's limits and failures (`parse.*`).
    Parse,
    /// The inline code lanes (`inline.*`).
    Inline,
    /// Anything else: wrappers, settings, recipes, scripts, edit tools.
    Other,
}

/// The lexicon's id for one command: the verb and subcommands matched,
/// the flag that set the class, and what the command adds to it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LexiconRule {
    /// The verb and subcommands (`["git", "push"]`), as named in `rules/`.
    pub path: Box<[&'static str]>,
    /// The id of the flag that set the class (`in-place`), if one did.
    pub flag: Option<&'static str>,
    /// What the command adds to the class, if anything.
    pub detail: Option<LexiconDetail>,
}

/// What a lexicon id adds to the command it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LexiconDetail {
    /// An option outside the command's closed set.
    UnknownOption,
    /// A word only known at run time in option position.
    DynamicOption,
    /// A word only known at run time sent over the network.
    SendsDynamic,
}

impl LexiconRule {
    /// Whether this is the plain id of `verb` alone (`lexicon.cd`).
    pub fn is_verb(&self, verb: &str) -> bool {
        matches!(*self.path, [only] if only == verb) && self.flag.is_none() && self.detail.is_none()
    }
}

impl LexiconDetail {
    /// Every detail, in the order the listing shows them.
    pub const ALL: [LexiconDetail; 3] = [
        LexiconDetail::UnknownOption,
        LexiconDetail::DynamicOption,
        LexiconDetail::SendsDynamic,
    ];

    /// The last part of the id (`unknown-option`).
    pub fn suffix(self) -> &'static str {
        match self {
            LexiconDetail::UnknownOption => "unknown-option",
            LexiconDetail::DynamicOption => "dynamic-option",
            LexiconDetail::SendsDynamic => "sends-dynamic",
        }
    }
}

/// What an inline lane found in a language's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InlineRule {
    /// Nothing but computing, reading and printing (`inline.python.pure`).
    Pure,
    /// A call with this effect (`inline.js.spawn`).
    Effect(CodeEffect),
}

impl RuleId {
    /// The lexicon's id for a command path (`lexicon.git.push`), with the
    /// id of the flag that set its class where one did
    /// (`lexicon.sed.in-place`).
    pub fn lexicon(path: &[&'static str], flag: Option<&'static str>) -> RuleId {
        RuleId::Lexicon(LexiconRule {
            path: path.into(),
            flag,
            detail: None,
        })
    }

    /// This lexicon id with what the command adds to it
    /// (`lexicon.cat.unknown-option`). Any other id is returned as it is.
    pub fn with_detail(&self, detail: LexiconDetail) -> RuleId {
        match self {
            RuleId::Lexicon(rule) => RuleId::Lexicon(LexiconRule {
                detail: Some(detail),
                ..rule.clone()
            }),
            other => other.clone(),
        }
    }

    /// The family of this id.
    pub fn family(&self) -> Family {
        match self {
            RuleId::Fixed(rule) => rule.family(),
            RuleId::Floor(_) => Family::Floor,
            RuleId::Lexicon(_) => Family::Lexicon,
            RuleId::Wrapper(_) => Family::Other,
            RuleId::Inline(..) => Family::Inline,
        }
    }

    /// Whether this is the fixed rule `rule`.
    pub fn is(&self, rule: Rule) -> bool {
        *self == RuleId::Fixed(rule)
    }

    /// Writes the dotted id.
    fn write(&self, out: &mut impl fmt::Write) -> fmt::Result {
        match self {
            RuleId::Fixed(rule) => out.write_str(rule.id()),
            RuleId::Floor(rule) => out.write_str(rule.info().id),
            RuleId::Lexicon(rule) => {
                out.write_str("lexicon")?;
                for part in rule.path.iter().chain(&rule.flag) {
                    out.write_char('.')?;
                    out.write_str(part)?;
                }
                if let Some(detail) = rule.detail {
                    out.write_char('.')?;
                    out.write_str(detail.suffix())?;
                }
                Ok(())
            }
            RuleId::Wrapper(name) => write!(out, "wrapper.{name}"),
            RuleId::Inline(language, what) => {
                let what = match what {
                    InlineRule::Pure => "pure",
                    InlineRule::Effect(effect) => effect.as_str(),
                };
                write!(out, "inline.{language}.{what}")
            }
        }
    }
}

impl From<Rule> for RuleId {
    fn from(rule: Rule) -> RuleId {
        RuleId::Fixed(rule)
    }
}

impl From<&Rule> for RuleId {
    fn from(rule: &Rule) -> RuleId {
        RuleId::Fixed(*rule)
    }
}

impl From<&RuleId> for RuleId {
    fn from(id: &RuleId) -> RuleId {
        id.clone()
    }
}

impl PartialEq<Rule> for RuleId {
    fn eq(&self, other: &Rule) -> bool {
        self.is(*other)
    }
}

impl From<FloorRule> for RuleId {
    fn from(rule: FloorRule) -> RuleId {
        RuleId::Floor(rule)
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f)
    }
}

impl serde::Serialize for RuleId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Compares the dotted text as it is written, without building it.
struct SameText<'a> {
    rest: &'a str,
    same: bool,
}

impl fmt::Write for SameText<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        match self.rest.strip_prefix(s) {
            Some(rest) if self.same => self.rest = rest,
            _ => self.same = false,
        }
        Ok(())
    }
}

/// An id equals its dotted text: how an expected id written in data (a
/// corpus case, a rule's example) is compared with the one found.
impl PartialEq<str> for RuleId {
    fn eq(&self, other: &str) -> bool {
        let mut same = SameText {
            rest: other,
            same: true,
        };
        self.write(&mut same).is_ok() && same.same && same.rest.is_empty()
    }
}

impl PartialEq<&str> for RuleId {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl PartialEq<String> for RuleId {
    fn eq(&self, other: &String) -> bool {
        *self == *other.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_built_and_know_their_family() {
        let push = RuleId::lexicon(&["git", "push"], None);
        assert_eq!(push, "lexicon.git.push");
        assert_eq!(push.family(), Family::Lexicon);
        assert_eq!(
            push.with_detail(LexiconDetail::UnknownOption),
            "lexicon.git.push.unknown-option"
        );
        assert_eq!(
            RuleId::lexicon(&["sed"], Some("in-place")),
            "lexicon.sed.in-place"
        );
        assert_eq!(RuleId::Wrapper("npx"), "wrapper.npx");
        assert_eq!(
            RuleId::Inline("python", InlineRule::Pure),
            "inline.python.pure"
        );
        assert_eq!(
            RuleId::Inline("js", InlineRule::Effect(CodeEffect::Spawn)),
            "inline.js.spawn"
        );
        assert_eq!(RuleId::from(Rule::ParseError).family(), Family::Parse);
        assert_eq!(RuleId::from(Rule::CageGitControl).family(), Family::Cage);
        assert_eq!(RuleId::from(Rule::VerbExec).family(), Family::Other);
        assert_eq!(RuleId::from(FloorRule::RmHome).family(), Family::Floor);
        assert_eq!(RuleId::from(FloorRule::RmHome), "floor.rm.home");
    }

    #[test]
    fn text_comparison_is_exact() {
        let push = RuleId::lexicon(&["git", "push"], None);
        assert!(push != "lexicon.git");
        assert!(push != "lexicon.git.push.x");
        assert!(push != "lexicon.git.pus");
        assert!(push != "");
        assert_eq!(RuleId::from(Rule::ParseError), "parse.error");
        assert!(RuleId::from(Rule::ParseError) != "parse.errors");
    }

    #[test]
    fn every_fixed_id_is_dotted_unique_and_in_its_family() {
        let mut seen = std::collections::HashSet::new();
        for rule in Rule::ALL {
            let id = rule.id();
            assert!(seen.insert(id), "{id} listed twice");
            assert_eq!(Rule::from_id(id), Some(*rule));
            let (head, tail) = id.split_once('.').unwrap_or((id, ""));
            assert!(!tail.is_empty(), "{id} has no dot");
            let family = match head {
                "parse" => Family::Parse,
                "write" => Family::Write,
                "inline" => Family::Inline,
                "cage" => Family::Cage,
                "gantry" => Family::Gantry,
                "trust" => Family::Trust,
                "floor" | "lexicon" => panic!("{id}: a payload family, not a fixed rule"),
                _ => Family::Other,
            };
            assert_eq!(rule.family(), family, "{id}");
            assert!(
                ["FREE", "SIGNED", "BLOCKED", "UNKNOWN"]
                    .iter()
                    .any(|v| rule.meaning().starts_with(v)),
                "{id}: its meaning starts with the verdict it asks for"
            );
        }
    }
}
