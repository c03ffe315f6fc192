//! Compiles `rules/` into static Rust tables (`$OUT_DIR/rules.rs`).
//!
//! Reads `rules/floor.json`, `rules/wrappers.json`, `rules/law.json` and every
//! `rules/lexicon/*.json`, validates them (unknown fields, unknown classes,
//! duplicate verbs, malformed flag spellings are build errors naming the file
//! and the entry) and writes sorted slices that the binary searches at run
//! time. Nothing under `rules/` is parsed when portcullis runs. Checks first
//! that a static glibc build has glibc's static archive to link with.

use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// The class names `verdict::Effect::ALL` has, for a clear error at build
/// time; the generated code names the variants, so a name outside them
/// fails to compile too.
const CLASSES: &[&str] = &[
    "inspect", "format", "build", "test", "mutate", "network", "install", "exec", "publish",
    "destroy",
];
const WRITE_MODES: &[&str] = &["none", "all", "last", "first", "cwd", "second", "prefix"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FloorFile {
    #[allow(dead_code)]
    about: String,
    rules: Vec<FloorRule>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FloorRule {
    id: String,
    reason: String,
    remediation: String,
    hit: String,
    miss: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WrapperFile {
    #[allow(dead_code)]
    about: String,
    wrappers: Vec<Wrapper>,
    shells: Shells,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Shells {
    #[allow(dead_code)]
    about: String,
    names: Vec<String>,
    value_opts: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Wrapper {
    names: Vec<String>,
    class: String,
    #[serde(default)]
    value_opts: Vec<String>,
    #[serde(default)]
    cwd_opts: Vec<String>,
    #[serde(default)]
    script_opts: Vec<String>,
    #[serde(default)]
    split_opts: Vec<String>,
    #[serde(default)]
    lookup_opts: Vec<String>,
    #[serde(default)]
    stop_words: Vec<String>,
    #[serde(default)]
    replace_opts: Vec<String>,
    #[serde(default)]
    skip_operands: u8,
    #[serde(default)]
    skip_assignments: bool,
    #[serde(default)]
    numeric_opts: bool,
    #[serde(default)]
    only_script: bool,
    #[serde(default)]
    mode: Option<String>,
    alone: String,
    #[serde(default)]
    unknown: Option<String>,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    examples: Vec<Example>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LexiconFile {
    #[allow(dead_code)]
    about: String,
    #[serde(default)]
    classes: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    verbs: Vec<Spec>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct Spec {
    verb: Option<String>,
    verbs: Option<Vec<String>>,
    name: Option<String>,
    names: Option<Vec<String>>,
    class: String,
    #[serde(default)]
    writes: Option<String>,
    #[serde(default)]
    value_opts: Vec<String>,
    #[serde(default)]
    flags: Vec<Flag>,
    #[serde(default)]
    subs: Vec<Spec>,
    #[serde(default)]
    sub_opts: Vec<String>,
    #[serde(default)]
    with_operands: Option<WithOperands>,
    #[serde(default)]
    kv_writes: Vec<String>,
    #[serde(default)]
    no_clusters: bool,
    /// The options that take no value; with `value_opts`, `sub_opts` and
    /// the flags' spellings, the spec's closed option set.
    #[serde(default)]
    opts: Option<Vec<String>>,
    #[serde(default)]
    opt_prefixes: Vec<String>,
    #[serde(default)]
    unknown_is_operand: bool,
    #[serde(default)]
    reads_past_dashdash: bool,
    #[serde(default)]
    sends_arguments: bool,
    /// For a `*` subcommand: the only words it matches (none: any word).
    #[serde(default)]
    words: Vec<String>,
    /// The command prints secrets or credentials: rule `cage.secrets.read`.
    #[serde(default)]
    secret: bool,
    /// Only a `sub_opts` option's value selects this subcommand.
    #[serde(default)]
    via_option: bool,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    examples: Vec<Example>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct Flag {
    flag: Vec<String>,
    class: String,
    #[serde(default)]
    writes: Option<String>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    lowers: bool,
    /// The flag's value is code the program runs: `"shell"` (a command
    /// line), `"python"` (Python code), `"cargo-config"` (a cargo setting
    /// whose runner, linker or wrapper is a command).
    #[serde(default)]
    runs: Option<String>,
    /// The flag makes the command print secrets or credentials.
    #[serde(default)]
    secret: bool,
    /// The option means the same at every level below (`vault …
    /// -tls-skip-verify`): each subcommand has the flag too, unless it has
    /// one of its own with a spelling of it.
    #[serde(default)]
    everywhere: bool,
    /// Commands that use the flag, or a near miss without it.
    #[serde(default)]
    examples: Vec<Example>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct WithOperands {
    over: u8,
    class: String,
}

type BuildResult<T> = Result<T, String>;

/// One worked example beside a rule: a command, the verdict it gets and the
/// rule id that decides it (`-`: any). `tests/suite/rule_examples.rs` runs them.
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct Example {
    command: String,
    verdict: String,
    rule: String,
}

/// An entry's examples are well formed: a command, a known verdict, a rule.
fn check_examples(examples: &[Example], context: &str) -> BuildResult<()> {
    for example in examples {
        if example.command.trim().is_empty() || example.rule.trim().is_empty() {
            return Err(format!(
                "{context}: an example with an empty command or rule"
            ));
        }
        if !["FREE", "SIGNED", "BLOCKED", "UNKNOWN"].contains(&example.verdict.as_str()) {
            return Err(format!(
                "{context}: example `{}` has unknown verdict `{}`",
                example.command, example.verdict
            ));
        }
    }
    Ok(())
}

/// The path law's glob compiler, shared with the binary so that the
/// built-in patterns compiled here are the ones it would compile.
#[path = "src/law/glob.rs"]
#[allow(dead_code)]
mod glob;

/// The credential families' globs (shared with `src/secrets.rs`).
#[path = "src/secrets/families.rs"]
mod secret_families;

fn main() {
    if let Err(message) = static_libc_present() {
        eprintln!("error: {message}");
        std::process::exit(1);
    }
    order_hot_functions();
    if let Err(message) = run() {
        // A build script reports failure through a panic-free non-zero exit.
        eprintln!("error: rules/ is invalid: {message}");
        std::process::exit(1);
    }
}

/// The functions of an ordinary hook call, laid out together by the
/// linker (`link/hot-symbols.txt`, written by `benches/hot_symbols.sh`):
/// the kernel maps code in windows around each page a new process first
/// touches, so a call that runs code gathered in one place faults less
/// and holds less memory than one whose code is spread over the binary.
///
/// Only for the build `.cargo/config.toml` makes (x86_64 Linux, static,
/// where rustc links with its own lld, which reads the file), and only
/// when no other linker is named: a linker that does not know the option
/// would fail the link. `PORTCULLIS_NO_SYMBOL_ORDER=1` leaves it out. A
/// name the binary no longer has is skipped by lld, so a stale file is
/// slower, never wrong.
fn order_hot_functions() {
    println!("cargo:rerun-if-changed=link/hot-symbols.txt");
    println!("cargo:rerun-if-env-changed=PORTCULLIS_NO_SYMBOL_ORDER");
    println!("cargo:rerun-if-env-changed=PORTCULLIS_LINK_MAP");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let flags = var("CARGO_ENCODED_RUSTFLAGS");
    let ours = var("TARGET") == "x86_64-unknown-linux-gnu"
        && flags.split('\x1f').any(|f| f == "relocation-model=static");
    let other_linker = std::env::var_os("RUSTC_LINKER").is_some()
        || flags.contains("linker")
        || flags.contains("link-self-contained");
    if !ours || other_linker {
        return;
    }
    // benches/hot_symbols.sh asks for the link map, to name the functions
    // of the stripped binary by their addresses.
    if let Ok(map) = std::env::var("PORTCULLIS_LINK_MAP") {
        println!("cargo:rustc-link-arg-bins=-Wl,-Map={map},--no-demangle");
    }
    let file = Path::new(&var("CARGO_MANIFEST_DIR")).join("link/hot-symbols.txt");
    if var("PORTCULLIS_NO_SYMBOL_ORDER") == "1" || !file.is_file() {
        return;
    }
    println!(
        "cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={},--no-warn-symbol-ordering",
        file.display()
    );
}

/// A static glibc build (`.cargo/config.toml` asks for one on Linux) needs
/// the C library's static archive, which some systems package apart
/// (Fedora's `glibc-static`). Without it the link fails deep in a linker
/// message; this says what to do first. Asks the C compiler where
/// `libc.a` is; a compiler that cannot be asked is left to the link.
fn static_libc_present() -> Result<(), String> {
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let gnu = std::env::var("CARGO_CFG_TARGET_ENV").is_ok_and(|e| e == "gnu");
    if !gnu || !features.split(',').any(|f| f == "crt-static") {
        return Ok(());
    }
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let Ok(out) = std::process::Command::new(&compiler)
        .arg("-print-file-name=libc.a")
        .output()
    else {
        return Ok(());
    };
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || Path::new(&path).is_absolute() && Path::new(&path).exists() {
        return Ok(());
    }
    Err(format!(
        "the static build needs glibc's static archive libc.a, which `{compiler} -print-file-name=libc.a` does not find. \
         Install it (Fedora, RHEL: glibc-static; Debian, Ubuntu: libc6-dev), or build the ordinary dynamic binary with \
         `RUSTFLAGS= cargo build --release` (see .cargo/config.toml)"
    ))
}

fn run() -> BuildResult<()> {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").map_err(|e| e.to_string())?);
    let rules = root.join("rules");
    println!("cargo:rerun-if-changed=rules");
    println!("cargo:rerun-if-changed=src/law/glob.rs");
    println!("cargo:rerun-if-changed=src/secrets/families.rs");
    write_out("secret_families.rs", &secret_families())?;
    let mut out = String::new();
    out.push_str("// @generated by build.rs from rules/. Do not edit.\n\n");
    emit_floor(&rules.join("floor.json"), &mut out)?;
    emit_wrappers(&rules.join("wrappers.json"), &mut out)?;
    emit_lexicon(&rules.join("lexicon"), &mut out)?;
    emit_scripts(&rules.join("scripts.json"), &mut out)?;
    emit_inline(&rules.join("inline.json"), &mut out)?;
    emit_law(&rules.join("law.json"), &mut out)?;
    emit_environment(&rules.join("environment.json"), &mut out)?;
    emit_rewrites(&rules.join("rewrites.json"), &mut out)?;
    emit_unknown(&rules.join("unknown.json"), &mut out)?;
    emit_modes(&rules.join("modes.json"), &mut out)?;
    let dest = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| e.to_string())?).join("rules.rs");
    fs::write(&dest, out).map_err(|e| format!("{}: {e}", dest.display()))
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> BuildResult<T> {
    println!("cargo:rerun-if-changed={}", path.display());
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn class_variant(class: &str, context: &str) -> BuildResult<String> {
    if !CLASSES.contains(&class) {
        return Err(format!(
            "{context}: unknown class `{class}` (known: {})",
            CLASSES.join(", ")
        ));
    }
    let mut chars = class.chars();
    let first = chars.next().map(|c| c.to_ascii_uppercase()).unwrap_or('X');
    Ok(format!("Effect::{first}{}", chars.as_str()))
}

fn writes_variant(mode: Option<&str>, context: &str) -> BuildResult<String> {
    let mode = mode.unwrap_or("none");
    if !WRITE_MODES.contains(&mode) {
        return Err(format!("{context}: unknown writes mode `{mode}`"));
    }
    let mut chars = mode.chars();
    let first = chars.next().map(|c| c.to_ascii_uppercase()).unwrap_or('X');
    Ok(format!("Operands::{first}{}", chars.as_str()))
}

/// Each command line as the slice of its words, `&[…], &[…]`.
fn words_slices(commands: &[String]) -> String {
    commands
        .iter()
        .map(|command| {
            let words: Vec<String> = command.split(' ').map(str::to_string).collect();
            str_slice(&words)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn str_slice(items: &[String]) -> String {
    let mut s = String::from("&[");
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{item:?}");
    }
    s.push(']');
    s
}

/// The enum variant name for a floor rule id: `floor.git.reset-hard` → `GitResetHard`.
/// The variant of `rule_id::Rule` a fixed id is (`cage.ci_config`:
/// `CageCiConfig`); an id with no such variant fails to compile, so the
/// data cannot name a rule the engine does not list.
fn rule_variant(id: &str) -> String {
    id.split(['.', '-', '_']).map(capitalised).collect()
}

fn floor_variant(id: &str) -> String {
    id.trim_start_matches("floor.")
        .split(['.', '-'])
        .map(capitalised)
        .collect()
}

fn emit_floor(path: &Path, out: &mut String) -> BuildResult<()> {
    let file: FloorFile = read_json(path)?;
    let mut seen = BTreeSet::new();
    out.push_str(
        "/// Every rule of the blocked floor, one variant each (from `rules/floor.json`).\n",
    );
    out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\n#[allow(missing_docs)]\npub enum FloorRule {\n");
    for rule in &file.rules {
        if !rule.id.starts_with("floor.") {
            return Err(format!(
                "{}: rule id `{}` must start with `floor.`",
                path.display(),
                rule.id
            ));
        }
        if !seen.insert(rule.id.clone()) {
            return Err(format!(
                "{}: rule id `{}` appears twice",
                path.display(),
                rule.id
            ));
        }
        let _ = writeln!(out, "    {},", floor_variant(&rule.id));
    }
    out.push_str("}\n\n");
    out.push_str("/// Id, reason, remediation, a hit and a near miss of each floor rule.\n");
    // A sized array: `FloorRule::info`'s fallback `FLOOR_RULES[0]` is then
    // checked when compiling.
    let _ = writeln!(
        out,
        "pub static FLOOR_RULES: &[FloorRuleInfo; {}] = &[",
        file.rules.len()
    );
    for rule in &file.rules {
        let _ = writeln!(
            out,
            "    FloorRuleInfo {{ rule: FloorRule::{}, id: {:?}, reason: {:?}, remediation: {:?}, hit: {:?}, miss: {:?} }},",
            floor_variant(&rule.id),
            rule.id,
            rule.reason,
            rule.remediation,
            rule.hit,
            rule.miss
        );
    }
    out.push_str("];\n\n");
    Ok(())
}

fn emit_wrappers(path: &Path, out: &mut String) -> BuildResult<()> {
    let file: WrapperFile = read_json(path)?;
    let mut rows: Vec<(String, String)> = Vec::new();
    let mut seen = BTreeSet::new();
    for wrapper in &file.wrappers {
        let context = format!("{}: wrapper {:?}", path.display(), wrapper.names);
        check_examples(&wrapper.examples, &context)?;
        let class = class_variant(&wrapper.class, &context)?;
        let alone = class_variant(&wrapper.alone, &context)?;
        let unknown = match &wrapper.unknown {
            Some(class) => format!("Some({})", class_variant(class, &context)?),
            None => "None".to_string(),
        };
        let mode = match wrapper.mode.as_deref().unwrap_or("argv") {
            "argv" => "WrapperMode::Argv",
            "join" => "WrapperMode::Join",
            "applet" => "WrapperMode::Applet",
            "xargs" => "WrapperMode::Xargs",
            other => return Err(format!("{context}: unknown mode `{other}`")),
        };
        for name in &wrapper.names {
            if !seen.insert(name.clone()) {
                return Err(format!("{context}: `{name}` appears twice"));
            }
            let row = format!(
                "Wrapper {{ name: {name:?}, class: {class}, value_opts: {}, cwd_opts: {}, script_opts: {}, split_opts: {}, lookup_opts: {}, stop_words: {}, replace_opts: {}, skip_operands: {}, skip_assignments: {}, numeric_opts: {}, only_script: {}, mode: {mode}, alone: {alone}, unknown: {unknown}, note: {:?} }}",
                str_slice(&wrapper.value_opts),
                str_slice(&wrapper.cwd_opts),
                str_slice(&wrapper.script_opts),
                str_slice(&wrapper.split_opts),
                str_slice(&wrapper.lookup_opts),
                str_slice(&wrapper.stop_words),
                str_slice(&wrapper.replace_opts),
                wrapper.skip_operands,
                wrapper.skip_assignments,
                wrapper.numeric_opts,
                wrapper.only_script,
                wrapper.note.as_deref().unwrap_or(""),
            );
            rows.push((name.clone(), row));
        }
    }
    rows.sort();
    out.push_str("/// Wrappers sorted by name (from `rules/wrappers.json`).\npub static WRAPPERS: &[Wrapper] = &[\n");
    for (_, row) in &rows {
        let _ = writeln!(out, "    {row},");
    }
    out.push_str("];\n\n");
    let mut shells = file.shells.names.clone();
    shells.sort();
    let _ = writeln!(
        out,
        "/// Shell names, sorted.\npub static SHELLS: &[&str] = {};\n",
        str_slice(&shells)
    );
    let _ = writeln!(
        out,
        "/// Shell options that take a value.\npub static SHELL_VALUE_OPTS: &[&str] = {};\n",
        str_slice(&file.shells.value_opts)
    );
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptsFile {
    #[allow(dead_code)]
    about: String,
    test: Vec<String>,
    package_runners: Vec<PackageRunner>,
    project_runners: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PackageRunner {
    names: Vec<String>,
    package_opts: Vec<String>,
    source_opts: Vec<String>,
}

fn emit_scripts(path: &Path, out: &mut String) -> BuildResult<()> {
    let file: ScriptsFile = read_json(path)?;
    let mut test = file.test.clone();
    test.sort();
    for entry in &test {
        if entry.starts_with('/') || entry.is_empty() || entry.contains("..") {
            return Err(format!(
                "{}: script entry `{entry}` must be a relative path",
                path.display()
            ));
        }
    }
    let _ = writeln!(
        out,
        "/// Project test runners run by path (from `rules/scripts.json`), sorted.\npub static TEST_SCRIPTS: &[&str] = {};\n",
        str_slice(&test)
    );
    let mut runners: Vec<(String, &PackageRunner)> = Vec::new();
    for runner in &file.package_runners {
        for name in &runner.names {
            runners.push((name.clone(), runner));
        }
    }
    runners.sort_by(|a, b| a.0.cmp(&b.0));
    out.push_str("/// Package runners sorted by name (from `rules/scripts.json`).\npub static PACKAGE_RUNNERS: &[PackageRunner] = &[\n");
    for (name, runner) in &runners {
        let _ = writeln!(
            out,
            "    PackageRunner {{ name: {name:?}, package_opts: {}, source_opts: {} }},",
            str_slice(&runner.package_opts),
            str_slice(&runner.source_opts)
        );
    }
    out.push_str("];\n\n");
    let mut project = Vec::new();
    for (runner, verb) in &file.project_runners {
        if runner.starts_with('/') || runner.is_empty() || runner.contains("..") || verb.is_empty()
        {
            return Err(format!(
                "{}: project runner `{runner}` must be a relative path naming a verb",
                path.display()
            ));
        }
        project.push(format!("({runner:?}, {verb:?})"));
    }
    let _ = writeln!(
        out,
        "/// The project's own runners run by path and the verb each is read as (from `rules/scripts.json`), sorted.\npub static PROJECT_RUNNERS: &[(&str, &str)] = &[{}];\n",
        project.join(", ")
    );
    Ok(())
}

fn check_flag_spelling(flag: &str, context: &str) -> BuildResult<()> {
    let ok = (flag.starts_with("--") && flag.len() > 2)
        || (flag.starts_with('-') && flag.len() > 1)
        || (flag.starts_with('+') && flag.len() > 1);
    if ok && !flag.contains(char::is_whitespace) {
        Ok(())
    } else {
        Err(format!("{context}: malformed flag spelling `{flag}`"))
    }
}

fn names_of(spec: &Spec, top: bool, context: &str) -> BuildResult<Vec<String>> {
    let (one, many, what) = if top {
        (&spec.verb, &spec.verbs, "verb/verbs")
    } else {
        (&spec.name, &spec.names, "name/names")
    };
    let wrong = if top {
        spec.name.is_some() || spec.names.is_some()
    } else {
        spec.verb.is_some() || spec.verbs.is_some()
    };
    if wrong {
        return Err(format!("{context}: use {what} here"));
    }
    let mut names = Vec::new();
    if let Some(name) = one {
        names.push(name.clone());
    }
    if let Some(list) = many {
        names.extend(list.iter().cloned());
    }
    if names.is_empty() {
        return Err(format!("{context}: an entry without {what}"));
    }
    for name in &names {
        check_name(name, top, context)?;
    }
    Ok(names)
}

/// A verb or subcommand name: a word, or (a subcommand only) a pattern:
/// `*` (any word) or a prefix ending in one `*` (`describe-*`).
fn check_name(name: &str, top: bool, context: &str) -> BuildResult<()> {
    let prefix = name.strip_suffix('*').unwrap_or(name);
    let malformed = name.is_empty() || name.contains(char::is_whitespace) || prefix.contains('*');
    if malformed {
        return Err(format!("{context}: malformed name `{name}`"));
    }
    if top && name.contains('*') {
        return Err(format!(
            "{context}: `{name}`: a verb is named exactly; only subcommands may be patterns"
        ));
    }
    Ok(())
}

/// The order patterns are tried in: the longest prefix first, `*` last.
fn pattern_order(a: &str, b: &str) -> std::cmp::Ordering {
    b.len().cmp(&a.len()).then_with(|| a.cmp(b))
}

/// A lexicon entry with its names expanded and its subs sorted, ready to be
/// laid out flat.
struct Node {
    name: String,
    spec: Spec,
    subs: Vec<Node>,
}

fn node_of(spec: &Spec, name: &str, context: &str) -> BuildResult<Node> {
    let context = format!("{context} › {name}");
    class_variant(&spec.class, &context)?;
    writes_variant(spec.writes.as_deref(), &context)?;
    check_examples(&spec.examples, &context)?;
    for opt in spec
        .value_opts
        .iter()
        .chain(&spec.sub_opts)
        .chain(spec.opts.iter().flatten())
        .chain(&spec.opt_prefixes)
    {
        check_flag_spelling(opt, &context)?;
    }
    let mut seen_opts = BTreeSet::new();
    for opt in spec.opts.iter().flatten() {
        if spec.value_opts.contains(opt) || spec.sub_opts.contains(opt) {
            return Err(format!("{context}: `{opt}` is in opts and takes a value"));
        }
        if !seen_opts.insert(opt) {
            return Err(format!("{context}: `{opt}` is listed twice in opts"));
        }
    }
    for flag in &spec.flags {
        if flag.flag.is_empty() {
            return Err(format!("{context}: a flag entry has no spellings"));
        }
        for spelling in &flag.flag {
            check_flag_spelling(spelling, &context)?;
        }
        class_variant(&flag.class, &context)?;
        check_examples(&flag.examples, &context)?;
        if let Some(mode) = flag.writes.as_deref().filter(|m| *m != "value") {
            writes_variant(Some(mode), &context)?;
        }
        if let Some(runs) = flag
            .runs
            .as_deref()
            .filter(|r| !matches!(*r, "shell" | "python" | "cargo-config"))
        {
            return Err(format!(
                "{context}: unknown `runs` value `{runs}` (known: shell, python, cargo-config)"
            ));
        }
        if flag.runs.is_some() && flag.class != "exec" {
            return Err(format!(
                "{context}: a flag that runs its value must be classed exec"
            ));
        }
        if flag.lowers && !matches!(flag.class.as_str(), "inspect" | "build" | "test" | "format") {
            return Err(format!(
                "{context}: a lowering flag must lower to a free class, not `{}`",
                flag.class
            ));
        }
    }
    if let Some(w) = &spec.with_operands {
        class_variant(&w.class, &context)?;
    }
    if !spec.words.is_empty() && name != "*" {
        return Err(format!(
            "{context}: `words` belong to a subcommand named `*` only"
        ));
    }
    let mut seen_words = BTreeSet::new();
    for word in &spec.words {
        check_name(word, true, &context)?;
        if !seen_words.insert(word) {
            return Err(format!("{context}: word `{word}` is listed twice"));
        }
    }
    let mut subs = Vec::new();
    let mut seen = BTreeSet::new();
    for sub in &spec.subs {
        if sub.via_option && spec.sub_opts.is_empty() {
            return Err(format!(
                "{context}: a `via_option` subcommand needs `sub_opts` to name it"
            ));
        }
        for sub_name in names_of(sub, false, &context)? {
            if !seen.insert(sub_name.clone()) {
                return Err(format!("{context}: sub `{sub_name}` appears twice"));
            }
            subs.push(node_of(sub, &sub_name, &context)?);
        }
    }
    // Exact names first, sorted (binary-searched), then the patterns in
    // the order they are tried.
    subs.sort_by(|a, b| {
        let (pa, pb) = (a.name.ends_with('*'), b.name.ends_with('*'));
        pa.cmp(&pb).then_with(|| {
            if pa {
                pattern_order(&a.name, &b.name)
            } else {
                a.name.cmp(&b.name)
            }
        })
    });
    for flag in spec.flags.iter().filter(|f| f.everywhere) {
        for sub in &mut subs {
            give_flag_below(sub, flag);
        }
    }
    Ok(Node {
        name: name.to_string(),
        spec: spec.clone(),
        subs,
    })
}

/// Gives `node` and every subcommand below it an `everywhere` flag (its
/// examples stay with the level that wrote it), unless one of theirs
/// already has a spelling of it.
fn give_flag_below(node: &mut Node, flag: &Flag) {
    let spelt = |f: &Flag| f.flag.iter().any(|s| flag.flag.contains(s));
    if !node.spec.flags.iter().any(spelt) {
        let mut copy = flag.clone();
        copy.examples.clear();
        node.spec.flags.push(copy);
    }
    for sub in &mut node.subs {
        give_flag_below(sub, flag);
    }
}

/// A spec's closed option set: each spelling with whether it takes a value
/// and the index in `FLAGS` of the flag it spells (`u32::MAX` for none),
/// sorted by spelling. A spelling shared by two flags keeps the first.
fn option_table(spec: &Spec, flag_start: usize) -> BTreeMap<String, (bool, u32)> {
    let mut table: BTreeMap<String, (bool, u32)> = BTreeMap::new();
    for opt in spec.opts.iter().flatten() {
        table.insert(opt.clone(), (false, u32::MAX));
    }
    for opt in spec.value_opts.iter().chain(&spec.sub_opts) {
        table.insert(opt.clone(), (true, u32::MAX));
    }
    for (j, flag) in spec.flags.iter().enumerate() {
        let takes_value = flag.writes.as_deref() == Some("value") || flag.runs.is_some();
        for spelling in &flag.flag {
            let entry = table
                .entry(spelling.clone())
                .or_insert((takes_value, u32::MAX));
            entry.0 |= takes_value;
            if entry.1 == u32::MAX {
                entry.1 = (flag_start + j) as u32;
            }
        }
    }
    table
}

/// Strings and string lists laid out as offsets into one blob, so that the
/// generated tables hold no pointers: a position-independent binary then
/// has nothing to relocate in them at start-up.
#[derive(Default)]
struct Blob {
    text: String,
    seen: BTreeMap<String, (u32, u32)>,
    lists: Vec<(u32, u32)>,
}

impl Blob {
    fn text(&mut self, s: &str) -> String {
        let (start, len) = match self.seen.get(s) {
            Some(found) => *found,
            None => {
                let at = (self.text.len() as u32, s.len() as u32);
                self.text.push_str(s);
                self.seen.insert(s.to_string(), at);
                at
            }
        };
        format!("Text {{ start: {start}, len: {len} }}")
    }

    fn list(&mut self, items: &[String]) -> String {
        let start = self.lists.len() as u32;
        for item in items {
            let rendered = self.text(item);
            // Recover the offsets just rendered (the text call interned it).
            let at = self.seen[item.as_str()];
            let _ = rendered;
            self.lists.push(at);
        }
        format!("TextList {{ start: {start}, len: {} }}", items.len())
    }
}

fn capitalised_class(class: &str) -> String {
    let mut chars = class.chars();
    let first = chars.next().map(|c| c.to_ascii_uppercase()).unwrap_or('X');
    format!("Effect::{first}{}", chars.as_str())
}

fn render_flag(flag: &Flag, blob: &mut Blob) -> String {
    let writes = match flag.writes.as_deref() {
        None => "FlagWrites::Unchanged".to_string(),
        Some("value") => "FlagWrites::Value".to_string(),
        Some(mode) => {
            let mut chars = mode.chars();
            let first = chars.next().map(|c| c.to_ascii_uppercase()).unwrap_or('X');
            format!("FlagWrites::Operands(Operands::{first}{})", chars.as_str())
        }
    };
    let id = flag.id.clone().unwrap_or_else(|| {
        let long = flag
            .flag
            .iter()
            .find(|f| f.starts_with("--"))
            .unwrap_or(&flag.flag[0]);
        long.trim_start_matches(['-', '+']).to_string()
    });
    format!(
        "FlagRule {{ spellings: {}, class: {}, writes: {writes}, id: {}, note: {}, lowers: {}, runs: {}, secret: {} }}",
        blob.list(&flag.flag),
        capitalised_class(&flag.class),
        blob.text(&id),
        blob.text(flag.note.as_deref().unwrap_or("")),
        flag.lowers,
        match flag.runs.as_deref() {
            Some("shell") => "Some(Runs::Shell)",
            Some("python") => "Some(Runs::Python)",
            Some(_) => "Some(Runs::CargoConfig)",
            None => "None",
        },
        flag.secret
    )
}

/// Replaces each `@FILE` entry of a spec's `value_opts` and `opts` (at any
/// depth) with the options listed in `rules/lexicon/FILE`, one a line
/// (blank lines and `#` comments skipped), leaving out those the spec
/// already names: a generated list (the AWS CLI's parameters, from
/// botocore's models) kept beside the hand-written entries.
fn expand_option_lists(spec: &mut Spec, dir: &Path, context: &str) -> BuildResult<()> {
    let named: BTreeSet<String> = spec
        .value_opts
        .iter()
        .chain(spec.opts.iter().flatten())
        .chain(spec.flags.iter().flat_map(|f| f.flag.iter()))
        .filter(|o| !o.starts_with('@'))
        .cloned()
        .collect();
    let mut seen = named.clone();
    let mut expand = |list: &mut Vec<String>| -> BuildResult<()> {
        let mut out = Vec::with_capacity(list.len());
        for entry in list.drain(..) {
            let Some(file) = entry.strip_prefix('@') else {
                out.push(entry);
                continue;
            };
            if file.contains("..") || file.starts_with('/') {
                return Err(format!(
                    "{context}: option list `{entry}` must name a file under rules/lexicon"
                ));
            }
            let path = dir.join(file);
            println!("cargo:rerun-if-changed={}", path.display());
            let text = fs::read_to_string(&path)
                .map_err(|e| format!("{context}: {}: {e}", path.display()))?;
            for line in text.lines().map(str::trim) {
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                if !line.starts_with('-') || line.contains(char::is_whitespace) {
                    return Err(format!("{}: `{line}` is not an option", path.display()));
                }
                if seen.insert(line.to_string()) {
                    out.push(line.to_string());
                }
            }
        }
        *list = out;
        Ok(())
    };
    expand(&mut spec.value_opts)?;
    if let Some(opts) = spec.opts.as_mut() {
        expand(opts)?;
    }
    for sub in &mut spec.subs {
        expand_option_lists(sub, dir, context)?;
    }
    Ok(())
}

fn emit_lexicon(dir: &Path, out: &mut String) -> BuildResult<()> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut entries: BTreeMap<String, (Node, String)> = BTreeMap::new();
    for path in &files {
        let mut file: LexiconFile = read_json(path)?;
        for spec in &mut file.verbs {
            expand_option_lists(spec, dir, &path.display().to_string())?;
        }
        let source = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for (class, verbs) in &file.classes {
            let context = format!("{}: classes.{class}", path.display());
            class_variant(class, &context)?;
            for verb in verbs {
                let spec = Spec {
                    verb: Some(verb.clone()),
                    verbs: None,
                    name: None,
                    names: None,
                    class: class.clone(),
                    writes: None,
                    value_opts: Vec::new(),
                    flags: Vec::new(),
                    subs: Vec::new(),
                    sub_opts: Vec::new(),
                    with_operands: None,
                    kv_writes: Vec::new(),
                    no_clusters: false,
                    opts: None,
                    opt_prefixes: Vec::new(),
                    unknown_is_operand: false,
                    reads_past_dashdash: false,
                    sends_arguments: false,
                    words: Vec::new(),
                    secret: false,
                    via_option: false,
                    note: None,
                    examples: Vec::new(),
                };
                insert_verb(
                    &mut entries,
                    verb,
                    Node {
                        name: verb.clone(),
                        spec,
                        subs: Vec::new(),
                    },
                    &source,
                )?;
            }
        }
        for spec in &file.verbs {
            let context = path.display().to_string();
            for verb in names_of(spec, true, &context)? {
                let node = node_of(spec, &verb, &context)?;
                insert_verb(&mut entries, &verb, node, &source)?;
            }
        }
    }
    // Lay the tree out flat, breadth first: the verbs first (sorted), then
    // each spec's subs as one contiguous sorted block.
    let mut order: Vec<&Node> = entries.values().map(|(node, _)| node).collect();
    let top = order.len();
    let mut sub_ranges: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let node = order[i];
        let start = order.len();
        order.extend(node.subs.iter());
        sub_ranges.push((start, node.subs.len()));
        i += 1;
    }
    let mut blob = Blob::default();
    let mut flags: Vec<String> = Vec::new();
    let mut options: Vec<String> = Vec::new();
    let mut option_blocks: BTreeMap<Vec<String>, usize> = BTreeMap::new();
    let mut rows: Vec<String> = Vec::new();
    for (node, (sub_start, sub_len)) in order.iter().zip(&sub_ranges) {
        let spec = &node.spec;
        let flag_start = flags.len();
        for flag in &spec.flags {
            flags.push(render_flag(flag, &mut blob));
        }
        // A block the same as an earlier one (the AWS services' calls share
        // theirs) is that block: the table stays small, and so do the pages
        // a call's binary searches touch.
        let block: Vec<String> = option_table(spec, flag_start)
            .into_iter()
            .map(|(spelling, (takes_value, flag))| {
                format!(
                    "KnownOption {{ spelling: {}, takes_value: {takes_value}, flag: {flag} }}",
                    blob.text(&spelling)
                )
            })
            .collect();
        let option_len = block.len();
        let option_start = *option_blocks.entry(block.clone()).or_insert_with(|| {
            let start = options.len();
            options.extend(block);
            start
        });
        let exact_subs = node.subs.iter().filter(|s| !s.name.ends_with('*')).count();
        let with_operands = match &spec.with_operands {
            Some(w) => format!("Some(({}, {}))", w.over, capitalised_class(&w.class)),
            None => "None".to_string(),
        };
        let writes = {
            let mode = spec.writes.as_deref().unwrap_or("none");
            let mut chars = mode.chars();
            let first = chars.next().map(|c| c.to_ascii_uppercase()).unwrap_or('X');
            format!("Operands::{first}{}", chars.as_str())
        };
        rows.push(format!(
            "Spec {{ name: {}, class: {}, writes: {writes}, value_opts: {}, flags: Range {{ start: {flag_start}, len: {} }}, subs: Range {{ start: {sub_start}, len: {sub_len} }}, exact_subs: {exact_subs}, words: {}, secret: {}, via_option: {}, sub_opts: {}, with_operands: {with_operands}, kv_writes: {}, no_clusters: {}, options: Range {{ start: {option_start}, len: {option_len} }}, option_prefixes: {}, unknown_is_operand: {}, reads_past_dashdash: {}, sends_arguments: {}, note: {} }}",
            blob.text(&node.name),
            capitalised_class(&spec.class),
            blob.list(&spec.value_opts),
            spec.flags.len(),
            blob.list(&spec.words),
            spec.secret,
            spec.via_option,
            blob.list(&spec.sub_opts),
            blob.list(&spec.kv_writes),
            spec.no_clusters,
            blob.list(&spec.opt_prefixes),
            spec.unknown_is_operand,
            spec.reads_past_dashdash,
            spec.sends_arguments,
            blob.text(spec.note.as_deref().unwrap_or("")),
        ));
    }
    let sources: Vec<String> = entries
        .values()
        .map(|(_, source)| blob.text(source))
        .collect();
    let names: Vec<String> = order
        .iter()
        .map(|node| format!("{:?}", node.name))
        .collect();
    emit_array(
        out,
        "Every spec's name, in `SPECS` order (verbs sorted, then each block of subs sorted): binary-searched without slicing each name out of `STRINGS`.",
        "SPEC_NAMES",
        "&str",
        &names,
    );
    let _ = writeln!(
        out,
        "/// Number of verbs: `SPECS[..LEXICON_LEN]` are the verbs, sorted.\npub const LEXICON_LEN: usize = {top};\n"
    );
    emit_array(
        out,
        "Every lexicon spec, verbs first, then blocks of subs (from `rules/lexicon/*.json`).",
        "SPECS",
        "Spec",
        &rows,
    );
    emit_array(
        out,
        "Every flag rule of the lexicon.",
        "FLAGS",
        "FlagRule",
        &flags,
    );
    emit_array(
        out,
        "Every spec's closed option set, one block a spec, each sorted by spelling.",
        "OPTIONS",
        "KnownOption",
        &options,
    );
    emit_array(
        out,
        "The lexicon file each verb comes from, in verb order.",
        "LEXICON_SOURCES",
        "Text",
        &sources,
    );
    let lists: Vec<String> = blob
        .lists
        .iter()
        .map(|(start, len)| format!("Text {{ start: {start}, len: {len} }}"))
        .collect();
    emit_array(
        out,
        "String lists of the lexicon, as offsets into `STRINGS`.",
        "TEXT_LISTS",
        "Text",
        &lists,
    );
    let _ = writeln!(
        out,
        "/// Every string of the lexicon, end to end.\npub static STRINGS: &str = {:?};\n",
        blob.text
    );
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EnvironmentFile {
    #[allow(dead_code)]
    about: String,
    exec: Vec<String>,
    commands: Vec<String>,
    harmless_commands: Vec<String>,
    search_paths: Vec<String>,
    history: Vec<String>,
    harmless: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnknownFile {
    #[allow(dead_code)]
    about: String,
    words: Vec<String>,
    option_words: Vec<String>,
    examples: Vec<Example>,
}

/// `rules/unknown.json`: the words that make an unknown program SIGNED
/// `unknown.destructive`; lower-case, one part each (no `-`, `_`, `:`,
/// `.` inside a word of `words`), sorted and emitted for binary search.
fn emit_unknown(path: &Path, out: &mut String) -> BuildResult<()> {
    let file: UnknownFile = read_json(path)?;
    check_examples(&file.examples, &path.display().to_string())?;
    let mut lists = [
        (
            "UNKNOWN_DESTRUCTIVE_WORDS",
            file.words,
            "Words that say a program destroys",
        ),
        (
            "UNKNOWN_DESTRUCTIVE_OPTION_WORDS",
            file.option_words,
            "Option names that say a program destroys",
        ),
    ];
    for (name, list, doc) in &mut lists {
        for word in list.iter() {
            let ok = !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && (*name != "UNKNOWN_DESTRUCTIVE_WORDS" || !word.contains('-'));
            if !ok {
                return Err(format!(
                    "{}: malformed word `{word}` in {name}",
                    path.display()
                ));
            }
        }
        list.sort();
        list.dedup();
        let _ = writeln!(
            out,
            "/// {doc} (`rules/unknown.json`), sorted.\npub static {name}: &[&str] = {};\n",
            str_slice(list)
        );
    }
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModesFile {
    #[allow(dead_code)]
    about: String,
    accept_edits: Vec<String>,
}

/// `rules/modes.json`: the rule ids the host's `acceptEdits` mode lets
/// through for writes inside the project (dotted ids, checked against the
/// engine's by a unit test in `src/engine/mode.rs`).
fn emit_modes(path: &Path, out: &mut String) -> BuildResult<()> {
    let file: ModesFile = read_json(path)?;
    for id in &file.accept_edits {
        let ok = id.split('.').count() >= 2
            && id.chars().all(|c| {
                c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '-' | '_')
            });
        if !ok {
            return Err(format!(
                "{}: malformed rule id `{id}` in accept_edits",
                path.display()
            ));
        }
    }
    let _ = writeln!(
        out,
        "/// The objections `acceptEdits` lifts for writes inside the project (`rules/modes.json`).\npub static MODE_ACCEPT_EDITS: &[&str] = {};\n",
        str_slice(&file.accept_edits)
    );
    Ok(())
}

/// `rules/environment.json`: name patterns (at most one `*`) by kind; a
/// name may be in one kind only.
fn emit_environment(path: &Path, out: &mut String) -> BuildResult<()> {
    let file: EnvironmentFile = read_json(path)?;
    let kinds: [(&str, &Vec<String>, &str); 5] = [
        (
            "ENV_EXEC",
            &file.exec,
            "Settings that make programs load or run other code, whatever the value.",
        ),
        (
            "ENV_COMMANDS",
            &file.commands,
            "Settings whose value is a command line programs run.",
        ),
        (
            "ENV_SEARCH_PATHS",
            &file.search_paths,
            "Settings that say where programs or modules are loaded from.",
        ),
        (
            "ENV_HISTORY",
            &file.history,
            "Settings that, emptied, stop shell history being kept.",
        ),
        (
            "ENV_HARMLESS",
            &file.harmless,
            "Settings known to change no program's choice of code to run.",
        ),
    ];
    let mut seen = BTreeMap::new();
    for (name, list, _) in &kinds {
        for pattern in list.iter() {
            let ok = !pattern.is_empty()
                && pattern.matches('*').count() <= 1
                && pattern
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '*');
            if !ok {
                return Err(format!(
                    "{}: malformed name pattern `{pattern}` in {name}",
                    path.display()
                ));
            }
            if let Some(other) = seen.insert(pattern.clone(), *name) {
                return Err(format!(
                    "{}: `{pattern}` is in both {other} and {name}",
                    path.display()
                ));
            }
        }
    }
    // Exact names sorted for a binary search; the few patterns apart.
    for (name, list, doc) in &kinds {
        let (patterns, mut exact): (Vec<String>, Vec<String>) =
            list.iter().cloned().partition(|p| p.contains('*'));
        exact.sort();
        let _ = writeln!(
            out,
            "/// {doc} (`rules/environment.json`)\npub static {name}: NameSet = NameSet {{ exact: {}, patterns: {} }};\n",
            str_slice(&exact),
            str_slice(&patterns)
        );
    }
    let _ = writeln!(
        out,
        "/// Programs harmless as a pager or an editor (`rules/environment.json`).\npub static ENV_HARMLESS_COMMANDS: &[&str] = {};\n",
        str_slice(&file.harmless_commands)
    );
    Ok(())
}

/// Writes `pub static NAME: [TYPE; N] = [rows…];` with a doc line.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InlineFile {
    #[allow(dead_code)]
    about: String,
    effects: BTreeMap<String, InlineEffect>,
    python: Vec<InlineCall>,
    javascript: Vec<InlineCall>,
    python_shadowed: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InlineEffect {
    does: String,
    remediation: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InlineCall {
    calls: Vec<String>,
    effect: String,
    #[serde(default)]
    paths: Vec<serde_json::Value>,
    #[serde(rename = "as")]
    equivalent: Option<String>,
    mode: Option<u8>,
    recursive: Option<u8>,
    shell: Option<String>,
    code: Option<u8>,
    #[serde(default)]
    callback_ok: bool,
    #[serde(default)]
    examples: Vec<Example>,
}

const CODE_EFFECTS: &[&str] = &[
    "none",
    "write",
    "delete",
    "spawn",
    "network",
    "dynamic",
    "process",
    "unresolved",
];
const EQUIVALENTS: &[&str] = &["rm", "rm -rf", "rmdir", "mv", "cp", "cp -r", "chmod"];

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

fn shell_variant(shell: &str, context: &str) -> BuildResult<String> {
    let (kind, number) = shell.split_once(' ').unwrap_or((shell, ""));
    let index = || {
        number
            .parse::<u8>()
            .map_err(|_| format!("{context}: `shell: {shell}` wants an argument index"))
    };
    Ok(match kind {
        "line" => format!("ShellArg::Line({})", index()?),
        "command" => format!("ShellArg::Command({})", index()?),
        "argv-list" => format!("ShellArg::ArgvList({})", index()?),
        "argv-from" => format!("ShellArg::ArgvFrom({})", index()?),
        "spawn" if number.is_empty() => "ShellArg::Spawn".to_string(),
        _ => return Err(format!("{context}: unknown shell form `{shell}`")),
    })
}

fn emit_inline(path: &Path, out: &mut String) -> BuildResult<()> {
    let file: InlineFile = read_json(path)?;
    let mut effect_rows = Vec::new();
    for effect in CODE_EFFECTS.iter().skip(1) {
        let info = file
            .effects
            .get(*effect)
            .ok_or_else(|| format!("{}: effect `{effect}` has no text", path.display()))?;
        effect_rows.push(format!(
            "EffectText {{ effect: CodeEffect::{}, does: {:?}, remediation: {:?} }}",
            capitalised(effect),
            info.does,
            info.remediation
        ));
    }
    for name in file.effects.keys() {
        if !CODE_EFFECTS.contains(&name.as_str()) {
            return Err(format!("{}: unknown effect `{name}`", path.display()));
        }
    }
    emit_array(
        out,
        "What each effect found in code does, and what to do instead (from `rules/inline.json`).",
        "CODE_EFFECT_TEXT",
        "EffectText",
        &effect_rows,
    );
    for (lang, calls) in [("PYTHON", &file.python), ("JAVASCRIPT", &file.javascript)] {
        let mut rows: BTreeMap<String, String> = BTreeMap::new();
        for call in calls {
            let context = format!(
                "{}: {} {:?}",
                path.display(),
                lang.to_lowercase(),
                call.calls
            );
            check_examples(&call.examples, &context)?;
            if !CODE_EFFECTS.contains(&call.effect.as_str()) {
                return Err(format!("{context}: unknown effect `{}`", call.effect));
            }
            let mut paths = Vec::new();
            for p in &call.paths {
                match p {
                    serde_json::Value::String(s) if s == "self" => {
                        paths.push("PathArg::Receiver".to_string())
                    }
                    serde_json::Value::Number(n) if n.as_u64().is_some_and(|n| n < 16) => {
                        paths.push(format!("PathArg::Arg({n})"))
                    }
                    other => return Err(format!("{context}: bad path argument {other}")),
                }
            }
            if let Some(eq) = &call.equivalent
                && !EQUIVALENTS.contains(&eq.as_str())
            {
                return Err(format!(
                    "{context}: unknown equivalent `{eq}` (known: {})",
                    EQUIVALENTS.join(", ")
                ));
            }
            let shell = match &call.shell {
                Some(s) => format!("Some({})", shell_variant(s, &context)?),
                None => "None".to_string(),
            };
            if call.shell.is_some() && call.effect != "spawn" {
                return Err(format!("{context}: only a spawn reaches a shell"));
            }
            let opt = |v: Option<u8>| match v {
                Some(n) => format!("Some({n})"),
                None => "None".to_string(),
            };
            for name in &call.calls {
                let wildcard = name.matches('*').count();
                if wildcard > 1
                    || wildcard == 1
                        && !(name.ends_with(".*")
                            || name.starts_with("*.") && !name[2..].contains('.'))
                {
                    return Err(format!(
                        "{context}: `{name}`: `*` only as `module.*` or `*.method`"
                    ));
                }
                let row = format!(
                    "CodeCall {{ name: {name:?}, effect: CodeEffect::{}, paths: &[{}], equivalent: {:?}, mode: {}, recursive: {}, shell: {shell}, code: {}, callback_ok: {} }}",
                    capitalised(&call.effect),
                    paths.join(", "),
                    call.equivalent.as_deref().unwrap_or(""),
                    opt(call.mode),
                    opt(call.recursive),
                    opt(call.code),
                    call.callback_ok,
                );
                if rows.insert(name.clone(), row).is_some() {
                    return Err(format!("{context}: `{name}` appears twice"));
                }
            }
        }
        let rows: Vec<String> = rows.into_values().collect();
        emit_array(
            out,
            &format!(
                "{} calls with effects, sorted by name (from `rules/inline.json`).",
                capitalised(&lang.to_lowercase())
            ),
            &format!("{lang}_CALLS"),
            "CodeCall",
            &rows,
        );
    }
    let mut shadowed = file.python_shadowed.clone();
    shadowed.sort();
    shadowed.dedup();
    if shadowed.len() != file.python_shadowed.len()
        || shadowed
            .iter()
            .any(|m| m.is_empty() || !m.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    {
        return Err(format!(
            "{}: python_shadowed holds module names, each once",
            path.display()
        ));
    }
    let _ = writeln!(
        out,
        "/// Python's own modules, sorted: a file of the same name in the folder Python puts first on its module path runs instead (from `rules/inline.json`).\npub static PYTHON_SHADOWED: &[&str] = {};\n",
        str_slice(&shadowed)
    );
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LawFile {
    #[allow(dead_code)]
    about: String,
    protected: Vec<ProtectedEntry>,
    frozen_commands: FrozenFile,
    secret_commands: NetworkReads,
    network_reads: NetworkReads,
    folder_options: FolderOptions,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FolderOptions {
    #[allow(dead_code)]
    about: String,
    commands: Vec<FolderOptionEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FolderOptionEntry {
    verb: String,
    folder: Vec<String>,
    file: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NetworkReads {
    #[allow(dead_code)]
    about: String,
    commands: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProtectedEntry {
    id: String,
    what: String,
    source: String,
    verdict: Option<String>,
    frozen: Option<String>,
    paths: Vec<String>,
    #[serde(default)]
    except: Vec<String>,
    remediation: String,
    #[serde(default)]
    examples: Vec<Example>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FrozenFile {
    #[allow(dead_code)]
    about: String,
    #[serde(rename = "cage.dependency_manifest")]
    manifest: Vec<String>,
    #[serde(rename = "cage.lockfile")]
    lockfile: Vec<String>,
    lock_safe_flags: Vec<String>,
    read_only_flags: Vec<String>,
}

fn verdict_variant(verdict: &Option<String>, context: &str) -> BuildResult<String> {
    Ok(match verdict.as_deref() {
        None => "None".to_string(),
        Some("SIGNED") => "Some(Verdict::Signed)".to_string(),
        Some("BLOCKED") => "Some(Verdict::Blocked)".to_string(),
        Some(other) => {
            return Err(format!(
                "{context}: verdict `{other}` must be SIGNED or BLOCKED"
            ));
        }
    })
}

fn check_law_path(path: &str, context: &str) -> BuildResult<()> {
    let bad = path.is_empty()
        || path.starts_with('/')
        || path.ends_with('/')
        || path
            .split('/')
            .any(|seg| seg.is_empty() || seg == "." || seg == "..");
    if bad {
        return Err(format!(
            "{context}: `{path}` must be a relative path without empty, `.` or `..` segments or a trailing `/`"
        ));
    }
    Ok(())
}

fn emit_law(path: &Path, out: &mut String) -> BuildResult<()> {
    let file: LawFile = read_json(path)?;
    let mut rows = Vec::new();
    let mut ids = BTreeSet::new();
    for entry in &file.protected {
        let context = format!("{}: {}", path.display(), entry.id);
        check_examples(&entry.examples, &context)?;
        if !(entry.id.starts_with("cage.") || entry.id.starts_with("trust."))
            || !ids.insert(&entry.id)
        {
            return Err(format!(
                "{context}: ids start with cage. or trust. and are unique"
            ));
        }
        if entry.verdict.is_none() && entry.frozen.is_none() {
            return Err(format!(
                "{context}: needs a verdict, a frozen verdict or both"
            ));
        }
        for p in entry.paths.iter().chain(&entry.except) {
            check_law_path(p, &context)?;
        }
        rows.push(format!(
            "ProtectedRule {{ rule: Rule::{}, what: {:?}, source: {:?}, verdict: {}, frozen: {}, paths: {}, except: {}, remediation: {:?} }}",
            rule_variant(&entry.id),
            entry.what,
            entry.source,
            verdict_variant(&entry.verdict, &context)?,
            verdict_variant(&entry.frozen, &context)?,
            str_slice(&entry.paths),
            str_slice(&entry.except),
            entry.remediation
        ));
    }
    emit_array(
        out,
        "The path law's built-in protected paths (from `rules/law.json`), in order.",
        "PROTECTED_RULES",
        "ProtectedRule",
        &rows,
    );
    write_out("builtin_patterns.rs", &builtin_patterns(&file.protected))?;
    let mut frozen = Vec::new();
    for (rule, commands) in [
        ("cage.dependency_manifest", &file.frozen_commands.manifest),
        ("cage.lockfile", &file.frozen_commands.lockfile),
    ] {
        for command in commands {
            let mut words: Vec<String> = command.split_whitespace().map(str::to_string).collect();
            let rest = match words.last().map(String::as_str) {
                Some("+") => "FrozenRest::Package",
                Some("*") => "FrozenRest::Any",
                _ => "FrozenRest::Nothing",
            };
            if rest != "FrozenRest::Nothing" {
                words.pop();
            }
            // `-u|--upgrade`: one of these options must be given.
            let options: Vec<String> = match words.last() {
                Some(last) if last.starts_with('-') => {
                    let last = words.pop().unwrap_or_default();
                    last.split('|').map(str::to_string).collect()
                }
                _ => Vec::new(),
            };
            if words.is_empty()
                || options.iter().any(|o| !o.starts_with('-') || o.len() < 2)
                || words
                    .iter()
                    .any(|w| w.starts_with('-') || w == "+" || w == "*")
            {
                return Err(format!(
                    "{}: frozen command `{command}` is malformed",
                    path.display()
                ));
            }
            frozen.push(format!(
                "FrozenCommand {{ rule: Rule::{}, words: {}, rest: {rest}, options: {} }}",
                rule_variant(rule),
                str_slice(&words),
                str_slice(&options)
            ));
        }
    }
    emit_array(
        out,
        "Commands a dependency freeze blocks (from `rules/law.json`).",
        "FROZEN_COMMANDS",
        "FrozenCommand",
        &frozen,
    );
    let _ = writeln!(
        out,
        "/// Flags that keep a lockfile command from changing the lockfile.\npub static LOCK_SAFE_FLAGS: &[&str] = {};\n",
        str_slice(&file.frozen_commands.lock_safe_flags)
    );
    let _ = writeln!(
        out,
        "/// Flags that keep any frozen command from changing a dependency file.\npub static READ_ONLY_FLAGS: &[&str] = {};\n",
        str_slice(&file.frozen_commands.read_only_flags)
    );
    for command in &file.secret_commands.commands {
        let words: Vec<&str> = command.split(' ').collect();
        let (last, before) = words.split_last().unwrap_or((&"", &[]));
        let options_last =
            last.starts_with('-') && last.split('|').all(|o| o.starts_with('-') && o.len() > 1);
        if words.len() < 2
            || words.iter().any(|w| w.is_empty())
            || before.iter().any(|w| w.starts_with('-'))
            || last.starts_with('-') && (!options_last || words.len() < 3)
        {
            return Err(format!(
                "{}: secret command `{command}` is malformed (a verb, words, and at most a last word of options)",
                path.display()
            ));
        }
    }
    let _ = writeln!(
        out,
        "/// Commands that print credentials (from `rules/law.json`), each as its words.\npub static SECRET_COMMANDS: &[&[&str]] = &[{}];\n",
        words_slices(&file.secret_commands.commands)
    );
    for command in &file.network_reads.commands {
        if command.is_empty()
            || command
                .split(' ')
                .any(|w| w.is_empty() || w.starts_with('-'))
        {
            return Err(format!(
                "{}: network read `{command}` is malformed",
                path.display()
            ));
        }
    }
    let _ = writeln!(
        out,
        "/// Commands classed inspect that read the network (from `rules/law.json`), each\n/// as its words.\npub static NETWORK_READS: &[&[&str]] = &[{}];\n",
        words_slices(&file.network_reads.commands)
    );
    let mut verbs = BTreeSet::new();
    let mut folder_rows = Vec::new();
    for entry in &file.folder_options.commands {
        let malformed = entry.verb.is_empty()
            || !verbs.insert(&entry.verb)
            || entry
                .folder
                .iter()
                .chain(&entry.file)
                .any(|o| !o.starts_with('-') || o.len() < 2 || o.contains('='));
        if malformed {
            return Err(format!(
                "{}: folder option entry `{}` is malformed (unique verb, options start with -)",
                path.display(),
                entry.verb
            ));
        }
        folder_rows.push(format!(
            "FolderOption {{ verb: {:?}, folder: {}, file: {} }}",
            entry.verb,
            str_slice(&entry.folder),
            str_slice(&entry.file)
        ));
    }
    emit_array(
        out,
        "Options that make a command run in another folder (from `rules/law.json`).",
        "FOLDER_OPTIONS",
        "FolderOption",
        &folder_rows,
    );
    Ok(())
}

/// `src/secrets.rs`'s `Families`, compiled (see `secret_families::globs`;
/// a unit test there holds them equal to compiling at run time).
fn secret_families() -> String {
    let globs = secret_families::globs();
    let compile = |list: &[String]| -> String {
        let patterns: Vec<String> = list
            .iter()
            .map(|p| glob::Pattern::glob(p).to_rust())
            .collect();
        format!("&[{}]", patterns.join(", "))
    };
    let anywhere: Vec<String> = globs
        .anywhere
        .iter()
        .map(|(p, needed)| {
            let pattern = glob::Pattern::glob(p);
            let quick = match pattern.quick() {
                Some(q) => format!("Some({})", q.to_rust()),
                None => "None".to_string(),
            };
            format!("({}, {quick}, {needed:?})", pattern.to_rust())
        })
        .collect();
    format!(
        "// Generated by build.rs from src/secrets/families.rs.\nstatic FAMILIES: Families = Families {{ anywhere: &[{}], pinned: {}, keys: {}, folders: {}, except: {} }};\n",
        anywhere.join(", "),
        compile(&globs.pinned),
        compile(&globs.keys),
        compile(&globs.folders),
        compile(&globs.except)
    )
}

/// Writes `$OUT_DIR/<name>`.
fn write_out(name: &str, text: &str) -> BuildResult<()> {
    let dest = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| e.to_string())?).join(name);
    fs::write(&dest, text).map_err(|e| format!("{}: {e}", dest.display()))
}

/// The built-in rules' patterns compiled ahead of time, for
/// `src/law/judge.rs` (which includes the file and checks, in a unit
/// test, that they equal what compiling them at run time gives): a hook
/// call that judges one write target would otherwise spend about half its
/// instructions compiling them. The same compiler (`src/law/glob.rs`) and
/// the same three readings as judge.rs's: root-relative (inside a
/// repository), anchored at any depth (outside every one), and the
/// home-relative paths (`~/.bashrc`).
fn builtin_patterns(rules: &[ProtectedEntry]) -> String {
    use glob::Pattern;
    let home = "~/";
    let mut out = String::from("// Generated by build.rs from rules/law.json.\n");
    for (name, in_repository) in [("BUILTIN_RELATIVE", true), ("BUILTIN_ANYWHERE", false)] {
        let _ = writeln!(out, "static {name}: [Compiled; {}] = [", rules.len());
        for rule in rules {
            out.push_str("    Compiled { paths: &[");
            for p in rule.paths.iter().filter(|p| !p.starts_with(home)) {
                let pattern = if in_repository || p.starts_with("**/") {
                    Pattern::glob(p)
                } else {
                    Pattern::glob(&format!("**/{p}"))
                };
                let quick = match pattern.quick() {
                    Some(q) => format!("Some({})", q.to_rust()),
                    None => "None".to_string(),
                };
                let _ = write!(
                    out,
                    "({}, {}, {quick}), ",
                    pattern.to_rust(),
                    p.starts_with("**/")
                );
            }
            out.push_str("], except: &[");
            for p in &rule.except {
                let _ = write!(out, "{}, ", Pattern::glob(p).to_rust());
            }
            out.push_str("] },\n");
        }
        out.push_str("];\n");
    }
    let mut home_rows = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        for rest in rule.paths.iter().filter_map(|p| p.strip_prefix(home)) {
            let pattern = Pattern::glob(rest);
            let quick = match pattern.quick() {
                Some(q) => format!("Some({})", q.to_rust()),
                None => "None".to_string(),
            };
            home_rows.push(format!("({i}, {}, {quick})", pattern.to_rust()));
        }
    }
    let _ = writeln!(
        out,
        "static BUILTIN_HOME: [(usize, Pattern, Option<Quick>); {}] = [\n    {}\n];",
        home_rows.len(),
        home_rows.join(",\n    ")
    );
    out
}

fn emit_array(out: &mut String, doc: &str, name: &str, ty: &str, rows: &[String]) {
    let _ = writeln!(
        out,
        "/// {doc}\npub static {name}: [{ty}; {}] = [",
        rows.len()
    );
    for row in rows {
        let _ = writeln!(out, "    {row},");
    }
    out.push_str("];\n\n");
}

fn insert_verb(
    entries: &mut BTreeMap<String, (Node, String)>,
    verb: &str,
    spec: Node,
    source: &str,
) -> BuildResult<()> {
    if verb.is_empty() || verb.contains(char::is_whitespace) {
        return Err(format!("{source}: malformed verb `{verb}`"));
    }
    if let Some((_, first)) = entries.get(verb) {
        return Err(format!(
            "verb `{verb}` is defined in both {first} and {source}"
        ));
    }
    entries.insert(verb.to_string(), (spec, source.to_string()));
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RewritesFile {
    #[allow(dead_code)]
    about: String,
    formatters: Vec<FormatterEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FormatterEntry {
    command: String,
    files: Vec<String>,
    bare: String,
    #[serde(default)]
    manifest: Option<String>,
    #[serde(default)]
    fixes: Vec<String>,
    unless: Vec<String>,
}

/// `rules/rewrites.json`: how far formatters and fixers reach.
fn emit_rewrites(path: &Path, out: &mut String) -> BuildResult<()> {
    let file: RewritesFile = read_json(path)?;
    let mut rows = Vec::new();
    let mut seen = BTreeSet::new();
    for entry in &file.formatters {
        let context = format!("{}: {}", path.display(), entry.command);
        let words: Vec<String> = entry
            .command
            .split_whitespace()
            .map(str::to_string)
            .collect();
        if words.is_empty() || !seen.insert(entry.command.clone()) {
            return Err(format!("{context}: commands are unique and not empty"));
        }
        let bare = match (entry.bare.as_str(), &entry.manifest) {
            ("tree", None) => "Bare::Tree".to_string(),
            ("folder", None) => "Bare::Folder".to_string(),
            ("none", None) => "Bare::Nothing".to_string(),
            ("package", Some(manifest)) if !manifest.contains('/') && !manifest.is_empty() => {
                format!("Bare::Package({manifest:?})")
            }
            _ => {
                return Err(format!(
                    "{context}: bare is tree, folder, none, or package with a manifest file name"
                ));
            }
        };
        if entry.files.is_empty()
            || entry.files.iter().any(|f| f.is_empty() || f.contains('/'))
            || entry
                .unless
                .iter()
                .chain(&entry.fixes)
                .any(|u| !u.starts_with('-') || u.len() < 2)
        {
            return Err(format!(
                "{context}: files are name patterns, unless lists options"
            ));
        }
        rows.push(format!(
            "Formatter {{ command: {}, files: {}, bare: {bare}, fixes: {}, unless: {} }}",
            str_slice(&words),
            str_slice(&entry.files),
            str_slice(&entry.fixes),
            str_slice(&entry.unless)
        ));
    }
    emit_array(
        out,
        "Formatters and fixers, and how far they reach (from `rules/rewrites.json`).",
        "FORMATTERS",
        "Formatter",
        &rows,
    );
    Ok(())
}
