//! Verdicts, effect classes and findings: the vocabulary every stage speaks.
//!
//! A stage never returns a string verdict: it returns [`Finding`]s, and the
//! strictest finding of a request is its [`Decision`].

use crate::rule_id::{Family, Rule, RuleId};
use std::fmt;

/// What portcullis says about a tool call, ordered from least to most strict,
/// so that combining parts is `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// Harmless: runs without asking.
    Free,
    /// portcullis cannot vouch for it; the host's own permission flow decides.
    Unknown,
    /// Needs a person's sign-off.
    Signed,
    /// Must not run.
    Blocked,
}

impl Verdict {
    /// The upper-case name used in every output.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Free => "FREE",
            Verdict::Unknown => "UNKNOWN",
            Verdict::Signed => "SIGNED",
            Verdict::Blocked => "BLOCKED",
        }
    }

    /// Parses the upper-case name (as written in `corpus/*.tsv`).
    pub fn parse(name: &str) -> Option<Verdict> {
        match name {
            "FREE" => Some(Verdict::Free),
            "UNKNOWN" => Some(Verdict::Unknown),
            "SIGNED" => Some(Verdict::Signed),
            "BLOCKED" => Some(Verdict::Blocked),
            _ => None,
        }
    }

    /// Exit code of `portcullis check` for this verdict.
    pub fn exit_code(self) -> u8 {
        match self {
            Verdict::Free => 0,
            Verdict::Signed => 10,
            Verdict::Blocked => 20,
            Verdict::Unknown => 30,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a command does, as the lexicon classes it. The policy maps each class
/// to a verdict ([`Effect::verdict`]).
///
/// The variants are in rank order, the order in which a flag or a wrapper
/// may raise a class: the free classes first, then the signed ones,
/// `destroy` last; `Ord` compares by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Effect {
    /// Reads and prints; changes nothing.
    Inspect,
    /// Reformats source in place.
    Format,
    /// Compiles or generates inside the project.
    Build,
    /// Runs a project's tests or checks.
    Test,
    /// Writes, moves or changes files or local state.
    Mutate,
    /// Talks to the network or changes remote state.
    Network,
    /// Installs or removes packages or tools.
    Install,
    /// Runs code portcullis cannot see.
    Exec,
    /// Sends work to a shared place.
    Publish,
    /// Deletes or overwrites what cannot be got back.
    Destroy,
}

impl Effect {
    /// Every class, in rank order: the one list of the classes (the rules'
    /// build script checks class names against the same names, and the
    /// code it generates names these variants).
    pub const ALL: [Effect; 10] = [
        Effect::Inspect,
        Effect::Format,
        Effect::Build,
        Effect::Test,
        Effect::Mutate,
        Effect::Network,
        Effect::Install,
        Effect::Exec,
        Effect::Publish,
        Effect::Destroy,
    ];

    /// The class name as written in `rules/`.
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Inspect => "inspect",
            Effect::Build => "build",
            Effect::Test => "test",
            Effect::Format => "format",
            Effect::Mutate => "mutate",
            Effect::Install => "install",
            Effect::Network => "network",
            Effect::Publish => "publish",
            Effect::Destroy => "destroy",
            Effect::Exec => "exec",
        }
    }

    /// The default policy: inspect, build, test and format are FREE; every
    /// other class needs a sign-off. (`destroy` becomes BLOCKED only through
    /// the floor, which reports its own finding.)
    pub fn verdict(self) -> Verdict {
        match self {
            Effect::Inspect | Effect::Build | Effect::Test | Effect::Format => Verdict::Free,
            Effect::Mutate
            | Effect::Install
            | Effect::Network
            | Effect::Publish
            | Effect::Destroy
            | Effect::Exec => Verdict::Signed,
        }
    }

    /// Strictness used when a flag or a wrapper may raise a class: the free
    /// classes rank 0, then the signed ones, `destroy` last.
    pub fn rank(self) -> u8 {
        self as u8
    }

    /// The stricter of two classes.
    pub fn stricter(self, other: Effect) -> Effect {
        self.max(other)
    }

    /// What the agent should do instead, for a command of this class that
    /// needs a sign-off.
    pub fn remediation(self) -> &'static str {
        match self {
            Effect::Inspect | Effect::Build | Effect::Test | Effect::Format => "",
            Effect::Mutate => {
                "This changes files or local state, so a person signs off; to only look, use a read-only command (cat, grep, git diff)."
            }
            Effect::Install => {
                "Installing changes the environment; say which package and why, and let the person approve it."
            }
            Effect::Network => "This reaches the network; the person approves network access.",
            Effect::Publish => {
                "This publishes work others will see; let the person review it first."
            }
            Effect::Destroy => {
                "This deletes data that may not come back; prefer a narrower path or moving it aside, and let the person approve."
            }
            Effect::Exec => {
                "portcullis cannot see what this runs; show the script, or run its steps as separate commands so each can be checked."
            }
        }
    }
}

/// One stage's judgement of one part of a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The verdict this finding asks for.
    pub verdict: Verdict,
    /// Stable dotted rule id (`floor.git.reset-hard`, `lexicon.git.push`, …).
    pub rule: RuleId,
    /// One line: why.
    pub reason: String,
    /// What to do instead (empty for FREE).
    pub remediation: String,
    /// The part of the command that decided it, as written.
    pub part: String,
}

/// The answer for a whole request: its strictest finding, and all of them.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The strictest finding (ties: the first one found).
    pub top: Finding,
    /// Every finding, in the order the stages produced them.
    pub findings: Vec<Finding>,
}

impl Decision {
    /// Builds the decision from findings; with none, the request is FREE.
    pub fn from_findings(findings: Vec<Finding>, whole: &str) -> Decision {
        let mut top: Option<&Finding> = None;
        for finding in &findings {
            // The strictest wins; among equals the more specific: the floor's
            // and the path law's rules name what a generic `write.redirect`
            // or lexicon class does not, and a `cd` gives way to the command
            // it leads to (`cd x && cargo test`). Otherwise the first.
            let better = top.is_none_or(|t| {
                finding.verdict > t.verdict
                    || finding.verdict == t.verdict
                        && specificity(&finding.rule) > specificity(&t.rule)
            });
            if better {
                top = Some(finding);
            }
        }
        let top = top.cloned().unwrap_or_else(|| Finding {
            verdict: Verdict::Free,
            rule: RuleId::Fixed(Rule::VerbEmpty),
            reason: "nothing to run".to_string(),
            remediation: String::new(),
            part: whole.to_string(),
        });
        Decision { top, findings }
    }

    /// The verdict of the whole request.
    pub fn verdict(&self) -> Verdict {
        self.top.verdict
    }
}

/// How specific a rule is, to choose among findings of equal verdict.
/// Whether `finding` is one no later finding can displace in
/// [`Decision::from_findings`]: BLOCKED, and of the highest specificity.
pub(crate) fn settles(finding: &Finding) -> bool {
    finding.verdict == Verdict::Blocked && specificity(&finding.rule) == MOST_SPECIFIC
}

/// The specificity of the floor's and the path law's rules.
const MOST_SPECIFIC: u8 = 2;

fn specificity(rule: &RuleId) -> u8 {
    match rule {
        RuleId::Lexicon(lexicon) if lexicon.is_verb("cd") => 0,
        RuleId::Floor(_) | RuleId::Fixed(Rule::WriteUnresolved) => MOST_SPECIFIC,
        RuleId::Fixed(fixed)
            if matches!(
                fixed.family(),
                Family::Cage | Family::Gantry | Family::Trust
            ) =>
        {
            MOST_SPECIFIC
        }
        _ => 1,
    }
}
