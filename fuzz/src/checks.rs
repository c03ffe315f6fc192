//! What each fuzz target feeds portcullis, and what must hold of the
//! answer. Shared by the libFuzzer targets (`fuzz/fuzz_targets/*.rs`) and
//! by `tests/suite/fuzz_regressions.rs`, which replays every committed input
//! under `tests/data/fuzz/<target>/` through the same function.
//!
//! A check that fails panics with a message naming the input: libFuzzer
//! records that as a crash, `cargo test` as a failure.

use portcullis::engine::{self, EditKind};
use portcullis::history::{self, Format, Kind, Record};
use portcullis::hook::{self, HookError, HookOptions, Host};
use portcullis::inline::{self, Analysis, Found, Handoff, Language};
use portcullis::law::Laws;
use portcullis::law::document::{self, Node};
use portcullis::law::policy::{self, Policy, Trust};
use portcullis::{Decision, Location, Verdict};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// What a target does with one input (panics when a check fails).
pub type Check = fn(&[u8]);

/// Every target, by the name of its `fuzz_targets/*.rs` file.
pub const TARGETS: &[(&str, Check)] = &[
    ("hook_stdin", hook_stdin),
    ("hook_json", hook_json),
    ("shell", shell),
    ("shell_amplified", shell_amplified),
    ("inline_python", inline_python),
    ("inline_javascript", inline_javascript),
    ("inline_scan", inline_scan),
    ("history", history),
    ("policy", policy),
];

/// The home folder every target uses.
pub const HOME: &str = "/home/u";
/// The working folder every target uses (not on disk: nothing is read).
pub const CWD: &str = "/home/u/proj";

/// Working folder `/home/u/proj`, home `/home/u`, as the corpus tests use.
pub fn location() -> Location {
    Location {
        cwd: Some(CWD.into()),
        home: Some(HOME.into()),
    }
}

/// `'…'` for bash: the text exactly, whatever it holds.
pub fn single_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Fuzz bytes as text: invalid UTF-8 becomes U+FFFD, so no input is wasted.
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Splits `data` at every 0xFF byte (never part of UTF-8): fields of a
/// structured input.
fn fields(data: &[u8]) -> Vec<&[u8]> {
    data.split(|&b| b == 0xFF).collect()
}

// ---------------------------------------------------------------------------
// Decisions

/// What must hold of every [`Decision`]: a top finding with a rule id and a
/// reason; the verdict is the strictest finding's, and the top finding is
/// one of them; anything but FREE says what to do instead.
pub fn check_decision(decision: &Decision, what: &str) {
    let top = &decision.top;
    let id = top.rule.to_string();
    assert!(!id.is_empty(), "empty rule id for {what:?}");
    assert!(
        !id.contains(char::is_whitespace),
        "rule id {id:?} has whitespace, for {what:?}"
    );
    assert!(
        !top.reason.is_empty(),
        "empty reason for rule {} of {what:?}",
        top.rule
    );
    for finding in &decision.findings {
        assert!(
            !finding.reason.is_empty(),
            "a finding without a reason ({finding:?}) for {what:?}"
        );
        assert!(
            portcullis::catalogue::row_of(&finding.rule).is_some(),
            "rule {} is not listed by `portcullis rules`, for {what:?}",
            finding.rule
        );
    }
    match decision.findings.iter().map(|f| f.verdict).max() {
        None => assert!(
            top.verdict == Verdict::Free && top.rule == "verb.empty",
            "no findings, yet {} {} for {what:?}",
            top.verdict,
            top.rule
        ),
        Some(strictest) => {
            assert_eq!(
                top.verdict, strictest,
                "the verdict is not the strictest finding's, for {what:?}: {decision:?}"
            );
            assert!(
                decision.findings.contains(top),
                "the top finding is not one of the findings, for {what:?}"
            );
        }
    }
    if top.verdict != Verdict::Free {
        assert!(
            !top.remediation.is_empty(),
            "{} {} has no remediation, for {what:?}",
            top.verdict,
            top.rule
        );
    }
}

/// Judges `command` where the corpus runs and checks the decision.
fn judge(command: &str) -> Decision {
    let decision = portcullis::evaluate(command, &location());
    check_decision(&decision, command);
    decision
}

// ---------------------------------------------------------------------------
// hook_stdin, hook_json

/// What must hold of a line the hook prints for `host`: JSON, with the
/// fields the host reads. Returns the verdict it says (Claude: the
/// permission decision; OpenCode: the verdict).
fn check_hook_line(line: &str, host: Host, what: &str) -> String {
    assert!(
        !line.contains('\n'),
        "the hook printed more than one line for {what:?}"
    );
    let value: Value = serde_json::from_str(line)
        .unwrap_or_else(|e| panic!("the hook printed invalid JSON ({e}) for {what:?}: {line}"));
    match host {
        Host::Claude | Host::Qwen => {
            let out = value
                .get("hookSpecificOutput")
                .unwrap_or_else(|| panic!("no hookSpecificOutput for {what:?}: {line}"));
            assert_eq!(
                out.get("hookEventName").and_then(Value::as_str),
                Some("PreToolUse"),
                "hookEventName for {what:?}: {line}"
            );
            let decision = out
                .get("permissionDecision")
                .and_then(Value::as_str)
                .unwrap_or_default();
            assert!(
                matches!(decision, "allow" | "ask" | "deny"),
                "permissionDecision {decision:?} for {what:?}: {line}"
            );
            let reason = out
                .get("permissionDecisionReason")
                .and_then(Value::as_str)
                .unwrap_or_default();
            assert!(
                reason.starts_with("portcullis: ") && reason.len() <= 2_000,
                "permissionDecisionReason {reason:?} for {what:?}"
            );
            decision.to_string()
        }
        Host::OpenCode => {
            let verdict = value
                .get("verdict")
                .and_then(Value::as_str)
                .unwrap_or_default();
            assert!(
                Verdict::parse(verdict).is_some(),
                "verdict {verdict:?} for {what:?}: {line}"
            );
            let rule = value
                .get("rule")
                .and_then(Value::as_str)
                .unwrap_or_default();
            assert!(!rule.is_empty(), "no rule for {what:?}: {line}");
            for key in ["reason", "remediation"] {
                assert!(
                    value.get(key).is_some_and(Value::is_string),
                    "no {key} for {what:?}: {line}"
                );
            }
            verdict.to_string()
        }
        Host::Codex => {
            let out = value
                .get("hookSpecificOutput")
                .unwrap_or_else(|| panic!("no hookSpecificOutput for {what:?}: {line}"));
            let decision = out
                .get("permissionDecision")
                .or_else(|| out.get("decision").and_then(|d| d.get("behavior")))
                .and_then(Value::as_str)
                .unwrap_or_default();
            // Codex runs the tool on `ask`: the hook never says it.
            assert!(
                matches!(decision, "allow" | "deny"),
                "Codex decision {decision:?} for {what:?}: {line}"
            );
            decision.to_string()
        }
        Host::Gemini => {
            let decision = value
                .get("decision")
                .and_then(Value::as_str)
                .unwrap_or_default();
            // Gemini hangs on `ask` under -p: the hook only denies.
            assert_eq!(decision, "deny", "Gemini decision for {what:?}: {line}");
            decision.to_string()
        }
        Host::Copilot | Host::Cursor => {
            let key = if host == Host::Copilot {
                "permissionDecision"
            } else {
                "permission"
            };
            let decision = value.get(key).and_then(Value::as_str).unwrap_or_default();
            assert!(
                matches!(decision, "allow" | "ask" | "deny"),
                "{key} {decision:?} for {what:?}: {line}"
            );
            decision.to_string()
        }
    }
}

/// Any bytes as a hook's stdin, for both hosts: `respond` returns, and
/// what it prints is one line of valid JSON of the host's shape.
pub fn hook_stdin(data: &[u8]) {
    for host in Host::ALL {
        let answer = hook::respond(
            data,
            Some(host),
            HookOptions::default(),
            Some(HOME.into()),
            Some(CWD.into()),
        );
        if let Ok(Some(line)) = answer {
            check_hook_line(&line, host, &text(data));
        }
    }
}

/// The tools a structured request may name.
const TOOLS: &[&str] = &[
    "Bash",
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "Read",
    "bash",
    "write",
];

/// A well-formed request built from the fuzz bytes: byte 0 picks the tool
/// (bits 0-2), the host (bit 3), the options (bits 4-5) and the working
/// folder (bits 6-7: none, the project, `/`, or the second field); the rest,
/// split at 0xFF, is the command (or file path) and a working folder.
///
/// Checks: the request is read (`Ok`) unless a file tool names an empty
/// path; the output is exactly what the decision of the same call, judged
/// on its own, maps to (Bash: FREE → allow or nothing, UNKNOWN → nothing or
/// ask, SIGNED → ask, BLOCKED → deny; a file tool: FREE → nothing); OpenCode
/// always gets a verdict object.
pub fn hook_json(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let parts = fields(rest);
    let payload = text(parts[0]);
    let tool = TOOLS[(flags & 7) as usize];
    let host = if flags & 8 == 0 {
        Host::Claude
    } else {
        Host::OpenCode
    };
    let options = HookOptions {
        free_allows: flags & 16 == 0,
        unknown_asks: flags & 32 != 0,
    };
    let cwd: Option<String> = match flags >> 6 {
        0 => None,
        1 => Some(CWD.into()),
        2 => Some("/".into()),
        _ => Some(format!(
            "/{}",
            text(parts.get(1).copied().unwrap_or_default())
        )),
    };
    let file = !matches!(tool, "Bash" | "bash");
    let opencode_shape = tool.chars().next().is_some_and(char::is_lowercase);
    let input = if file {
        json!({ "file_path": payload, "content": "x" })
    } else {
        json!({ "command": payload, "description": "fuzz" })
    };
    let mut request = if opencode_shape {
        json!({ "tool": tool, "args": input })
    } else {
        json!({
            "session_id": "fuzz",
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": input,
        })
    };
    if let (Some(cwd), Some(map)) = (&cwd, request.as_object_mut()) {
        map.insert("cwd".into(), Value::String(cwd.clone()));
    }
    let bytes = request.to_string();
    let what = format!("{tool} {payload:?} in {cwd:?}");
    let answer = hook::respond(
        bytes.as_bytes(),
        Some(host),
        options,
        Some(HOME.into()),
        Some(CWD.into()),
    );
    if file && payload.is_empty() {
        assert!(
            matches!(answer, Err(HookError::Shape(_))),
            "an empty path was read, for {what}: {answer:?}"
        );
        return;
    }
    let answer =
        answer.unwrap_or_else(|e| panic!("a well-formed request was refused ({e}): {what}"));
    // The same call judged on its own, as `respond` should have judged it.
    let location = Location {
        cwd: Some(
            cwd.as_deref()
                .map_or_else(|| PathBuf::from(CWD), PathBuf::from),
        ),
        home: Some(HOME.into()),
    };
    let mut laws = Laws::new(location.cwd.as_deref());
    let decision = if file {
        let kind = if tool == "Read" {
            EditKind::Read
        } else {
            EditKind::Write
        };
        engine::evaluate_edit(kind, &payload, &location, &mut laws)
    } else {
        engine::evaluate_in(&payload, &location, &mut laws)
    };
    check_decision(&decision, &what);
    let verdict = decision.verdict();
    let said = answer
        .as_deref()
        .map(|line| check_hook_line(line, host, &what));
    let expected: Option<&str> = match host {
        // The other hosts' mappings are checked case by case in
        // tests/suite/hosts.rs; here their lines only need their shape.
        Host::Codex | Host::Gemini | Host::Copilot | Host::Cursor | Host::Qwen => {
            return;
        }
        Host::OpenCode => Some(verdict.as_str()),
        Host::Claude => match verdict {
            Verdict::Free if file || !options.free_allows => None,
            Verdict::Free => Some("allow"),
            Verdict::Unknown if options.unknown_asks => Some("ask"),
            Verdict::Unknown => None,
            Verdict::Signed => Some("ask"),
            Verdict::Blocked => Some("deny"),
        },
    };
    assert_eq!(
        said.as_deref(),
        expected,
        "the hook's answer is not its decision's ({verdict} {}), for {what}",
        decision.top.rule
    );
}

// ---------------------------------------------------------------------------
// shell

/// Any text as a command line (`evaluate` in `/home/u/proj`): a decision
/// whose invariants hold ([`check_decision`]); on one input in four, also
/// `explain`, which must reach the same verdict and rule. A line the fast
/// path reads must read the same through tree-sitter.
pub fn shell(data: &[u8]) {
    let command = text(data);
    // The fast path for plain lines reads exactly what tree-sitter's walk
    // reads, wherever it reads at all.
    if let Some(fast) = portcullis::shell::plain::parse(&command) {
        let walked = portcullis::shell::parse::parse_with_tree_sitter(&command);
        assert!(
            portcullis::shell::plain::same_reading(&fast, &walked),
            "the fast path and tree-sitter differ on {command:?}:\n{fast:#?}\n{walked:#?}"
        );
    }
    let decision = judge(&command);
    check_unknown_option(&command, &decision);
    if data.len().is_multiple_of(4) {
        let (explained, _trace) = portcullis::explain(&command, &location());
        assert_eq!(
            (explained.verdict(), &explained.top.rule),
            (decision.verdict(), &decision.top.rule),
            "explain and evaluate disagree on {command:?}"
        );
    }
}

/// A FREE command of one plain simple command whose verb has a free
/// spec in the lexicon stays out of FREE when an option no program has is
/// put right after the verb (issue 14: closed option sets).
fn check_unknown_option(command: &str, decision: &Decision) {
    if decision.verdict() != Verdict::Free {
        return;
    }
    let Some(script) = portcullis::shell::plain::parse(command) else {
        return;
    };
    let [only] = script.commands.as_slice() else {
        return;
    };
    let Some(head) = only.words.first() else {
        return;
    };
    let plain = command.trim_start().starts_with(head.source.as_str())
        && only.assignments.is_empty()
        && only.redirects.is_empty()
        && script.functions.is_empty()
        && head.is_static()
        && !head.value.contains('/')
        // Test expressions, not options (`[ -f x ]`).
        && !matches!(head.value.as_str(), "[" | "[[" | "time");
    let spec = portcullis::lexicon::lookup(&head.value);
    let reads_options = spec.is_some_and(|s| !s.unknown_is_operand);
    if !plain || !reads_options || portcullis::rules::wrapper(&head.value).is_some() {
        return;
    }
    let inserted = format!(
        "{} --portcullis-no-such-option {}",
        head.source,
        &command[head_end(command, &head.source)..]
    );
    let got = judge(&inserted);
    assert_ne!(
        got.verdict(),
        Verdict::Free,
        "an option outside the set left {inserted:?} FREE ({})",
        got.top.rule
    );
}

/// Where the first word of `command` (spelled `head`) ends.
fn head_end(command: &str, head: &str) -> usize {
    let start = command.len() - command.trim_start().len();
    (start + head.len()).min(command.len())
}

/// How large `shell_amplified` makes a command: far below the 1 MiB a
/// command may have, far above what the fuzzers' inputs are.
pub const AMPLIFIED_BYTES: usize = 64 * 1024;

/// The bytes before the seed in a `shell_amplified` input.
pub const AMPLIFY_HEADER: usize = 5;

/// `seed` grown to about `size` bytes, as `header` says. Byte 0 picks the
/// way; bytes 1-4 are four cut points (in 256ths of the seed, sorted) that
/// split it into parts `a b c d e`:
///
/// - 0: the seed repeated as lines;
/// - 1: `b` repeated, `a b…b c d e` (one character, a word, `()` of a
///   call chain);
/// - 2: `b` and `d` repeated as often, `a b…b c d…d e` (nesting: `$(`…`)`);
/// - 3: `b c d` repeated, `a (b c d)…(b c d) e` (statements in one script).
pub fn amplify(header: [u8; AMPLIFY_HEADER], seed: &str, size: usize) -> String {
    let bounds: Vec<usize> = seed
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(seed.len()))
        .collect();
    let mut cuts: Vec<usize> = header[1..]
        .iter()
        .map(|&p| bounds[(bounds.len() - 1) * usize::from(p) / 255])
        .collect();
    cuts.sort_unstable();
    let (a, b, c, d, e) = (
        &seed[..cuts[0]],
        &seed[cuts[0]..cuts[1]],
        &seed[cuts[1]..cuts[2]],
        &seed[cuts[2]..cuts[3]],
        &seed[cuts[3]..],
    );
    let times = |unit: usize| size / unit.max(1);
    match header[0] & 3 {
        0 => vec![seed; times(seed.len() + 1)].join("\n"),
        1 => format!("{a}{}{c}{d}{e}", b.repeat(times(b.len()))),
        2 => {
            let n = times(b.len() + d.len());
            format!("{a}{}{c}{}{e}", b.repeat(n), d.repeat(n))
        }
        _ => {
            let middle = format!("{b}{c}{d}");
            format!("{a}{}{e}", middle.repeat(times(middle.len())))
        }
    }
}

/// A command grown to [`AMPLIFIED_BYTES`] (the first [`AMPLIFY_HEADER`]
/// bytes say how, see [`amplify`]; the rest is the seed command), judged as
/// [`shell`] judges: the invariants hold, and libFuzzer's `-timeout`
/// catches work that grows faster than the command (the hook has 10 s; a
/// command may be 1 MiB) and recursion as deep as the command is long.
pub fn shell_amplified(data: &[u8]) {
    if data.len() <= AMPLIFY_HEADER {
        return;
    }
    let (header, rest) = data.split_at(AMPLIFY_HEADER);
    let header: [u8; AMPLIFY_HEADER] = header.try_into().unwrap_or_default();
    judge(&amplify(header, &text(rest), AMPLIFIED_BYTES));
}

// ---------------------------------------------------------------------------
// inline_python, inline_javascript, inline_scan

/// The heredoc delimiter the inline targets use.
const EOF: &str = "PORTCULLIS_FUZZ_EOF";

/// What must hold of an analysis: every effect has a line from 1 and its
/// call on one line of at most 100 bytes.
fn check_found(found: &[Found], what: &str) {
    for f in found {
        assert!(f.line >= 1, "line {} for {:?} in {what:?}", f.line, f.call);
        assert!(
            !f.call.contains('\n') && f.call.len() <= 100,
            "call {:?} is not one clipped line, in {what:?}",
            f.call
        );
    }
}

/// Whether the engine must raise a command running this code to SIGNED:
/// every effect and a parse failure is a SIGNED finding.
fn has_effect(analysis: &Analysis) -> bool {
    !analysis.found.is_empty() || analysis.unparsable.is_some()
}

/// The command lines that hand `code` to `interpreter` with `flag`, each
/// with the exact text the interpreter gets: `-c '<code>'` and a quoted
/// heredoc (when the code has no line that would end it, and no NUL, which
/// no argument or script can hold).
fn commands_for(interpreter: &str, flag: &str, code: &str, heredoc: bool) -> Vec<(String, String)> {
    let mut out = vec![(
        format!("{interpreter} {flag} {}", single_quote(code)),
        code.to_string(),
    )];
    if heredoc && !code.contains(EOF) && !code.contains('\r') {
        out.push((
            format!("{interpreter} - <<'{EOF}'\n{code}\n{EOF}"),
            format!("{code}\n"),
        ));
    }
    out
}

/// Whether a command that hands `found` over is at least as strict as the
/// shell lines and literal argvs the code hands over, judged on their own
/// (a command is as strict as its strictest part).
fn check_handoffs(found: &[Found], decision: &Decision, command: &str) {
    for f in found {
        let inner = match &f.handoff {
            Some(Handoff::Line(line)) => line.clone(),
            Some(Handoff::Argv(words))
                if !words.is_empty() && words.iter().all(|w| w.is_static()) =>
            {
                words
                    .iter()
                    .map(|w| single_quote(&w.value))
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            _ => continue,
        };
        let part = judge(&inner);
        assert!(
            decision.verdict() >= part.verdict(),
            "{command:?} is {} {}, yet the code hands over {inner:?}, which is {} {}",
            decision.verdict(),
            decision.top.rule,
            part.verdict(),
            part.top.rule
        );
    }
}

fn inline_lane(language: Language, interpreter: &str, flag: &str, data: &[u8]) {
    let code = text(data);
    let analysis = inline::analyse(language, &code, 0);
    check_found(&analysis.found, &code);
    for (command, given) in commands_for(interpreter, flag, &code, true) {
        let decision = judge(&command);
        // No argument holds a NUL; node reads `-e -x` as a missing script.
        if code.contains('\0') || (interpreter == "node" && given == code && code.starts_with('-'))
        {
            continue;
        }
        let analysis = if given == code {
            &analysis
        } else {
            &inline::analyse(language, &given, 0)
        };
        if has_effect(analysis) {
            assert!(
                decision.verdict() >= Verdict::Signed,
                "the code has effects ({:?}, unparsable: {:?}) yet {command:?} is {} {}",
                analysis.found.first().map(|f| &f.call),
                analysis.unparsable,
                decision.verdict(),
                decision.top.rule
            );
        }
        check_handoffs(&analysis.found, &decision, &command);
    }
}

/// Any text as Python: `inline::analyse` returns with well-formed effects,
/// and `python3 -c '<code>'` and `python3 - <<'EOF'` are judged at least
/// SIGNED whenever the analysis finds an effect or a parse error, and at
/// least as strict as every shell line or literal argv the code hands over.
pub fn inline_python(data: &[u8]) {
    inline_lane(Language::Python, "python3", "-c", data);
}

/// Any text as JavaScript: as [`inline_python`], with `node -e` and
/// `node - <<'EOF'`.
pub fn inline_javascript(data: &[u8]) {
    inline_lane(Language::JavaScript, "node", "-e", data);
}

/// The token-scan lanes: byte 0 picks perl, ruby, php or lua, the rest is
/// the code. `inline::scan::scan` returns with well-formed effects, and
/// `perl -e` / `ruby -e` / `php -r` / `lua -e '<code>'` is at least SIGNED
/// whenever the scan finds an effect, and at least as strict as every shell
/// line or literal argv the code hands over.
pub fn inline_scan(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let (language, flag) =
        [("perl", "-e"), ("ruby", "-e"), ("php", "-r"), ("lua", "-e")][(pick & 3) as usize];
    let code = text(rest);
    let found = inline::scan::scan(language, &code);
    check_found(&found, &code);
    for (command, _) in commands_for(language, flag, &code, false) {
        let decision = judge(&command);
        if !found.is_empty() && !code.contains('\0') {
            assert!(
                decision.verdict() >= Verdict::Signed,
                "the {language} scan finds {:?}, yet {command:?} is {} {}",
                found[0].call,
                decision.verdict(),
                decision.top.rule
            );
            check_handoffs(&found, &decision, &command);
        }
    }
}

// ---------------------------------------------------------------------------
// history

/// Every format, in the order byte 0 picks them.
const FORMATS: &[Format] = &[
    Format::Lines,
    Format::Jsonl,
    Format::Bash,
    Format::Zsh,
    Format::Fish,
    Format::Claude,
];

/// File names `detect` is asked about.
const HISTORY_NAMES: &[&str] = &[
    ".bash_history",
    ".zsh_history",
    "fish_history",
    "session.jsonl",
    "commands.txt",
];

/// Epoch seconds a history may hold (1970 to 2200), as `history` says.
const LATEST_EPOCH: i64 = 7_258_118_400;

/// Byte 0 picks a format, the rest is the file: `history::read` returns
/// `Ok` (the reader cannot fail) and every record is well-formed: its line
/// is within the file, a broken record says why, a command of the
/// one-line-per-command format is one non-blank line, a timestamp of the
/// shell formats is an epoch in range, an edit or search names its tool.
/// `history::detect` answers for the bytes, with and without a file name.
pub fn history(data: &[u8]) {
    let Some((&pick, file)) = data.split_first() else {
        return;
    };
    let format = FORMATS[pick as usize % FORMATS.len()];
    let mut records: Vec<Record> = Vec::new();
    history::read(format, file, |r| records.push(r))
        .unwrap_or_else(|e| panic!("reading {} history from memory failed: {e}", format.name()));
    let physical = file.split(|&b| b == b'\n').count().max(1);
    let what = || format!("{} history {:?}", format.name(), text(file));
    for record in &records {
        assert!(
            (1..=physical).contains(&record.line),
            "record on line {} of {physical}: {:?} in {}",
            record.line,
            record.kind,
            what()
        );
        match &record.kind {
            Kind::Broken(why) => assert!(
                !why.is_empty(),
                "a broken record says nothing, in {}",
                what()
            ),
            Kind::Command(command) => {
                // bash keeps a multi-line entry whole once it writes
                // timestamps; plain lines are one line each.
                if format == Format::Lines {
                    assert!(
                        !command.trim().is_empty() && !command.contains('\n'),
                        "command {command:?} in {}",
                        what()
                    );
                }
                if format == Format::Zsh {
                    assert!(
                        !command.trim().is_empty(),
                        "blank zsh command in {}",
                        what()
                    );
                }
            }
            Kind::Edit { tool, .. } => assert!(
                format == Format::Claude
                    && [
                        "Write",
                        "Edit",
                        "MultiEdit",
                        "NotebookEdit",
                        "Read",
                        "write",
                        "edit",
                        "multiedit",
                        "read",
                    ]
                    .contains(&tool.as_str()),
                "edit by {tool:?} in {}",
                what()
            ),
            Kind::Search { tool, .. } => assert!(
                format == Format::Claude && ["Grep", "grep"].contains(&tool.as_str()),
                "search by {tool:?} in {}",
                what()
            ),
            Kind::Typed(_) => assert!(format == Format::Claude, "typed command in {}", what()),
        }
        if matches!(format, Format::Bash | Format::Zsh | Format::Fish)
            && let Some(stamp) = &record.timestamp
        {
            assert!(
                stamp
                    .parse::<i64>()
                    .is_ok_and(|t| (0..=LATEST_EPOCH).contains(&t)),
                "timestamp {stamp:?} in {}",
                what()
            );
        }
    }
    let head = &file[..file.len().min(64 * 1024)];
    for name in std::iter::once(None).chain(HISTORY_NAMES.iter().map(|n| Some(Path::new(n)))) {
        let detected = history::detect(name, head);
        assert_eq!(
            Format::named(detected.name()),
            Some(detected),
            "{detected:?} by name"
        );
    }
}

// ---------------------------------------------------------------------------
// policy

/// The policy files of the repository a `policy` input writes, in field
/// order (the mission is the file the seeds' pins name, the bundle sits
/// where their pointers' commit puts it).
pub const POLICY_FILES: &[&str] = &[
    policy::CAGE_FILE,
    policy::MANIFEST_YAML,
    policy::MANIFEST_JSON,
    policy::ACTIVE_MISSION,
    ".gitagent/missions/MSN-0001.billing.yaml",
    policy::POLICY_POINTER,
    ".gitagent/history/policy/0123456789abcdef0123456789abcdef01234567/ORG-POLICY.yaml",
    policy::TRUST_FILE,
];

/// Commands judged in the policy's repository, besides writes to the path
/// the input names.
const POLICY_COMMANDS: &[&str] = &[
    "echo x > src/main.rs",
    "echo x > .env",
    "rm -rf infra",
    "cp /tmp/ci.yml .github/workflows/ci.yml",
    "npm install left-pad",
    "sed -i s/a/b/ src/billing/x.py",
    "cat README.md",
];

/// Deepest nesting of containers in a node.
fn depth(node: &Node) -> usize {
    match node {
        Node::Null | Node::Text(..) => 0,
        Node::List(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Node::Map(entries) => 1 + entries.iter().map(|(_, v)| depth(v)).max().unwrap_or(0),
    }
}

/// A document's tree: no duplicate keys in a mapping, at most
/// `document::MAX_DEPTH` levels.
fn check_node(node: &Node, what: &str) {
    assert!(
        depth(node) <= document::MAX_DEPTH,
        "a document {} levels deep was read: {what:?}",
        depth(node)
    );
    fn keys(node: &Node, what: &str) {
        match node {
            Node::Map(entries) => {
                for (i, (key, value)) in entries.iter().enumerate() {
                    assert!(
                        !entries[..i].iter().any(|(k, _)| k == key),
                        "duplicate key {key:?} was read: {what:?}"
                    );
                    keys(value, what);
                }
            }
            Node::List(items) => items.iter().for_each(|i| keys(i, what)),
            Node::Null | Node::Text(..) => {}
        }
    }
    keys(node, what);
}

/// A root-relative entry as the cage keeps it: no leading `/`, no empty,
/// `.` or `..` segment.
fn check_entry(entry: &str, what: &str) {
    assert!(
        !entry.starts_with('/')
            && !entry
                .split('/')
                .any(|s| s.is_empty() || s == "." || s == ".."),
        "entry {entry:?} escapes the repository, from {what:?}"
    );
}

/// Byte 0 picks what the rest is: 0 `.cage.yaml` (`policy::cage`),
/// 1 workspace trust (`policy::trust`), 2 YAML (`document::yaml`), 3 JSON
/// (`document::json`), else a whole repository: the rest split at 0xFF
/// into the files of [`POLICY_FILES`] (a missing field, or one that is the
/// single byte 0xFE, leaves the file out) and a path, written into a
/// temporary git repository of this process; `Policy::load` reads it and
/// commands and edit-tool calls there are judged.
///
/// Checks: every reader returns; what the cage adds stays inside the
/// repository; documents have unique keys and bounded depth, and JSON that
/// `document::json` reads is JSON; an unreadable cage freezes dependencies
/// and an unreadable trust file denies; decisions in the repository hold
/// their invariants.
pub fn policy(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let body = text(rest);
    match pick % 5 {
        0 => {
            if let Ok(cage) = policy::cage(&body) {
                for p in &cage.protect {
                    check_entry(&p.glob, &body);
                }
                for glob in &cage.allow_only {
                    check_entry(glob, &body);
                }
            }
        }
        1 => {
            let _ = policy::trust(&body);
        }
        2 => {
            if let Ok(node) = document::yaml(&body) {
                check_node(&node, &body);
            }
        }
        3 => {
            if let Ok(node) = document::json(&body) {
                check_node(&node, &body);
                assert!(
                    serde_json::from_str::<Value>(&body).is_ok(),
                    "document::json read what is not JSON: {body:?}"
                );
            }
        }
        _ => repository(rest),
    }
}

/// This thread's scratch repository (made once, with `.git/`).
fn scratch_repository() -> PathBuf {
    thread_local! {
        static ROOT: PathBuf = make_scratch_repository();
    }
    ROOT.with(PathBuf::clone)
}

fn make_scratch_repository() -> PathBuf {
    {
        let root = std::env::temp_dir().join(format!(
            "portcullis-fuzz-policy-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&root);
        for dir in [
            ".git",
            "src",
            ".gitagent/foreman",
            ".gitagent/missions",
            ".veritas-kanban",
        ] {
            std::fs::create_dir_all(root.join(dir))
                .unwrap_or_else(|e| panic!("cannot make {}: {e}", root.display()));
        }
        root.canonicalize().unwrap_or(root)
    }
}

fn repository(data: &[u8]) {
    let root = scratch_repository();
    let parts = fields(data);
    for (i, file) in POLICY_FILES.iter().enumerate() {
        let path = root.join(file);
        match parts.get(i) {
            Some(&[0xFE]) | None => {
                let _ = std::fs::remove_file(&path);
            }
            Some(bytes) => {
                if let Some(parent) = path.parent() {
                    let _ = std::fs::create_dir_all(parent);
                }
                std::fs::write(&path, bytes)
                    .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
            }
        }
    }
    let what = text(data);
    let loaded = Policy::load(&root);
    if loaded.problem(policy::CAGE_FILE).is_some() {
        assert!(
            loaded.cage.frozen,
            "an unreadable cage left dependencies unfrozen: {what:?}"
        );
    }
    if loaded.problem(policy::TRUST_FILE).is_some() {
        assert_eq!(
            loaded.trust,
            Trust::Denied,
            "an unreadable trust file: {what:?}"
        );
    }
    for p in &loaded.cage.protect {
        check_entry(&p.glob, &what);
    }
    let location = Location {
        cwd: Some(root.clone()),
        home: Some(HOME.into()),
    };
    let mut laws = Laws::new(Some(&root));
    let target = parts
        .get(POLICY_FILES.len())
        .map(|p| text(p))
        .unwrap_or_default();
    let mut commands: Vec<String> = POLICY_COMMANDS.iter().map(|c| c.to_string()).collect();
    if !target.is_empty() {
        commands.push(format!("echo x > {}", single_quote(&target)));
        for kind in [EditKind::Write, EditKind::Read] {
            let decision = engine::evaluate_edit(kind, &target, &location, &mut laws);
            check_decision(&decision, &format!("{kind:?} {target:?} under {what:?}"));
        }
    }
    for command in &commands {
        let decision = engine::evaluate_in(command, &location, &mut laws);
        check_decision(&decision, &format!("{command} under {what:?}"));
    }
}
