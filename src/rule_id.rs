//! Rule ids: the stable dotted names every finding carries (`floor.rm.home`,
//! `lexicon.git.push.unknown-option`, `cage.git_control`). A fixed id is a
//! static string; the ids made from a verb's path or a wrapper's name are
//! built here, in one place, and every id knows its family, so no stage
//! compares prefixes of strings to learn what kind of rule it holds.

use std::borrow::Cow;
use std::fmt;

/// A stable dotted rule id.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(transparent)]
pub struct RuleId(Cow<'static, str>);

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
    /// Anything else: the parser, the lanes, wrappers, settings, recipes.
    Other,
}

/// What a lexicon id adds to the command it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LexiconDetail {
    /// An option outside the command's closed set.
    UnknownOption,
    /// A word only known at run time in option position.
    DynamicOption,
    /// A word only known at run time sent over the network.
    SendsDynamic,
}

impl LexiconDetail {
    fn suffix(self) -> &'static str {
        match self {
            LexiconDetail::UnknownOption => "unknown-option",
            LexiconDetail::DynamicOption => "dynamic-option",
            LexiconDetail::SendsDynamic => "sends-dynamic",
        }
    }
}

impl RuleId {
    /// A fixed id (`parse.error`, `floor.rm.home`).
    pub const fn fixed(id: &'static str) -> RuleId {
        RuleId(Cow::Borrowed(id))
    }

    /// The lexicon's id for a command path (`lexicon.git.push`), with the
    /// id of the flag that set its class where one did
    /// (`lexicon.sed.in-place`).
    pub fn lexicon<S: AsRef<str>>(path: &[S], flag: Option<&str>) -> RuleId {
        let mut id = String::from("lexicon");
        for part in path.iter().map(AsRef::as_ref).chain(flag) {
            id.push('.');
            id.push_str(part);
        }
        RuleId(Cow::Owned(id))
    }

    /// This lexicon id with what the command adds to it
    /// (`lexicon.cat.unknown-option`).
    pub fn with_detail(&self, detail: LexiconDetail) -> RuleId {
        RuleId(Cow::Owned(format!("{}.{}", self.0, detail.suffix())))
    }

    /// An inline lane's id (`inline.python.pure`, `inline.js.network`).
    pub fn inline(language: &str, what: &str) -> RuleId {
        RuleId(Cow::Owned(format!("inline.{language}.{what}")))
    }

    /// The id of a wrapper's own class (`wrapper.npx`).
    pub fn wrapper(name: &str) -> RuleId {
        RuleId(Cow::Owned(format!("wrapper.{name}")))
    }

    /// An id named in policy data (the path law's rules, the lexicon's
    /// tables), taken as it is written there.
    pub fn named(id: impl Into<String>) -> RuleId {
        RuleId(Cow::Owned(id.into()))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The family of this id.
    pub fn family(&self) -> Family {
        match self.0.split('.').next().unwrap_or("") {
            "floor" => Family::Floor,
            "cage" => Family::Cage,
            "gantry" => Family::Gantry,
            "trust" => Family::Trust,
            "write" => Family::Write,
            "lexicon" => Family::Lexicon,
            "parse" => Family::Parse,
            "inline" => Family::Inline,
            _ => Family::Other,
        }
    }
}

impl From<&'static str> for RuleId {
    fn from(id: &'static str) -> RuleId {
        RuleId::fixed(id)
    }
}

/// The path law's hits carry their ids as text, named in its data
/// (`rules/law.json`, the product documents).
impl From<&String> for RuleId {
    fn from(id: &String) -> RuleId {
        RuleId::named(id.clone())
    }
}

impl From<&RuleId> for RuleId {
    fn from(id: &RuleId) -> RuleId {
        id.clone()
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for RuleId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for RuleId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for RuleId {
    fn eq(&self, other: &String) -> bool {
        self.0 == other.as_str()
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
        assert_eq!(RuleId::wrapper("npx"), "wrapper.npx");
        assert_eq!(RuleId::inline("python", "pure"), "inline.python.pure");
        assert_eq!(RuleId::fixed("parse.error").family(), Family::Parse);
        assert_eq!(RuleId::fixed("floor.rm.home").family(), Family::Floor);
        assert_eq!(RuleId::named("cage.git_control").family(), Family::Cage);
        assert_eq!(RuleId::fixed("verb.exec").family(), Family::Other);
    }
}
