//! The workspace's trust (`restricted`, `denied`): a command classed
//! above inspect, or one that reads the network, meets the trust of the
//! folder it runs in; a whole decision meets the trust of the working
//! folder last.
//!
//! Takes a verdict or a classified path; returns or adds a [`Finding`].

use super::Run;
use crate::law::Laws;
use crate::rule_id::RuleId;
use crate::verdict::{Decision, Finding, Verdict};
use std::path::Path;

impl Run<'_> {
    /// Under narrowed workspace trust (`restricted`, of any law containing
    /// the folder the command runs in), only inspection that reaches no
    /// network may run: a build, test, formatter, network read or anything
    /// more is blocked; under `denied` everything is.
    pub(super) fn narrowed_trust(
        &mut self,
        effect: crate::verdict::Effect,
        path: &[&str],
        cwd: Option<&Path>,
        part: &str,
        depth: usize,
    ) {
        let network = reads_network(path);
        let offline = effect == crate::verdict::Effect::Inspect && !network;
        let asks = if offline {
            Verdict::Free
        } else {
            Verdict::Signed
        };
        let Some(hit) = self.laws.trust_hit_at(cwd, asks) else {
            return;
        };
        let what = if network {
            "reads the network".to_string()
        } else {
            format!("is classed {}", effect.as_str())
        };
        let reason = format!("`{}` {what}; {}", path.join(" "), hit.reason);
        self.note(depth, || format!("trust: {reason}"));
        self.find(hit.verdict, hit.rule, reason, &hit.remediation, part);
    }
}

/// Whether a command (its verb and subcommands, as the lexicon matched
/// them) reads the network though it is classed inspect (`npm view`,
/// `gh pr view`, `kubectl get`): `rules/law.json` `network_reads`.
fn reads_network(path: &[&str]) -> bool {
    crate::rules::NETWORK_READS
        .iter()
        .any(|entry| entry.len() <= path.len() && entry.iter().zip(path).all(|(a, b)| a == b))
}

/// A decision with the working folder's trust applied.
pub(super) fn trusted(decision: Decision, laws: &mut Laws, part: &str) -> Decision {
    match trust_finding(laws, decision.verdict(), part) {
        Some(finding) => {
            let mut findings = decision.findings;
            findings.insert(0, finding);
            Decision::from_findings(findings, part)
        }
        None => decision,
    }
}

/// The trust finding for a request whose verdict would be `verdict`.
pub(super) fn trust_finding(laws: &mut Laws, verdict: Verdict, part: &str) -> Option<Finding> {
    let hit = laws.trust_hit_at(None, verdict)?;
    Some(Finding {
        verdict: hit.verdict,
        rule: RuleId::Fixed(hit.rule),
        reason: hit.reason,
        remediation: hit.remediation,
        part: crate::limits::clip(part, 300).to_string(),
    })
}
