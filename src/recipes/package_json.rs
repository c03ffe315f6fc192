//! The `scripts` of `package.json`: which script `npm`, `yarn` or `pnpm`
//! runs ([`script_call`]: `run`, `test`, `start`, a bare script name) and
//! its lines with their `pre`/`post` scripts ([`package_plan`]).

use super::Plan;

/// What a package runner's arguments ask for.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ScriptCall {
    /// The scripts run, in order (`pretest`, `test`, `posttest`).
    pub scripts: Vec<String>,
    /// Words added to the last script's command line.
    pub extra: Vec<String>,
    /// Options that change where the scripts come from or what runs them.
    pub source: Vec<String>,
    /// A folder the runner moves to first (`--prefix`, `-C`, `--cwd`).
    pub dir: Option<String>,
}

/// Subcommands of yarn (1 and berry) and pnpm that are not scripts.
#[rustfmt::skip]
const NOT_SCRIPTS: &[&str] = &[
    "add", "audit", "autoclean", "bin", "cache", "check", "config", "create", "dedupe", "dlx",
    "doctor", "exec", "explain", "generate-lock-entry", "global", "help", "i", "import", "info",
    "init", "install", "licenses", "link", "list", "login", "logout", "ls", "node", "npm",
    "outdated", "owner", "pack", "patch", "patch-commit", "plugin", "policies", "prune", "publish",
    "rebuild", "remove", "rm", "root", "search", "set", "setup", "store", "tag", "team", "un",
    "unlink", "uninstall", "unplug", "up", "update", "upgrade", "upgrade-interactive", "version",
    "versions", "why", "workspace", "workspaces", "add", "server", "env", "fetch", "self-update",
    "recursive", "multi", "m", "outdated",
];

/// Options of npm, yarn and pnpm that change where scripts come from or
/// what runs them; the first three name a folder.
#[rustfmt::skip]
const SOURCE_OPTS: &[&str] = &[
    "--prefix", "-C", "--dir", "--cwd", "-w", "--workspace", "--workspaces", "-ws",
    "--include-workspace-root", "--script-shell", "--node-options", "--userconfig",
    "--globalconfig", "--filter", "-F", "-r", "--recursive", "--shell-emulator", "-g", "--global",
    "--call", "-c",
];

/// Options of npm, yarn and pnpm that take a value.
#[rustfmt::skip]
const VALUE_OPTS: &[&str] = &[
    "--loglevel", "--prefix", "-C", "--dir", "--cwd", "-w", "--workspace", "--script-shell",
    "--node-options", "--userconfig", "--globalconfig", "--filter", "-F", "--reporter",
    "--registry", "--cache", "--call", "-c",
];

/// Which `package.json` scripts `npm`/`yarn`/`pnpm ARGS` runs. `None`:
/// the command runs no script of the project.
pub fn script_call(runner: &str, args: &[String]) -> Option<ScriptCall> {
    let mut call = ScriptCall::default();
    let mut positional: Vec<String> = Vec::new();
    let mut i = 0;
    let mut after_dashes = false;
    while let Some(a) = args.get(i) {
        let a = a.as_str();
        i += 1;
        if after_dashes {
            call.extra.push(a.to_string());
            continue;
        }
        if a == "--" {
            after_dashes = true;
            continue;
        }
        if a.starts_with('-') && a.len() > 1 {
            let (name, attached) = match a.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (a, None),
            };
            let value = if VALUE_OPTS.contains(&name) && attached.is_none() {
                let v = args.get(i).cloned();
                i += 1;
                v
            } else {
                attached
            };
            if SOURCE_OPTS.contains(&name) {
                call.source.push(a.to_string());
                if matches!(name, "--prefix" | "-C" | "--dir" | "--cwd") {
                    call.dir = value;
                }
            }
            // After the script's name, yarn and pnpm hand options to it.
            if positional.len() >= 2 || (runner != "npm" && positional.len() == 1) {
                call.extra.push(a.to_string());
            }
            continue;
        }
        positional.push(a.to_string());
    }
    let first = positional.first()?.as_str();
    let (script, rest) = match first {
        "run" | "run-script" | "rum" | "urn" => (positional.get(1)?.clone(), positional.get(2..)),
        "test" | "t" | "tst" if runner != "bun" => ("test".to_string(), positional.get(1..)),
        "start" | "stop" | "restart" if runner != "bun" => (first.to_string(), positional.get(1..)),
        _ if runner == "npm" => return None,
        // `bun test` is bun's own test runner; only `bun run X` runs a script.
        _ if runner == "bun" => return None,
        _ if NOT_SCRIPTS.contains(&first) => return None,
        _ => (first.to_string(), positional.get(1..)),
    };
    let mut extra: Vec<String> = rest.unwrap_or(&[]).to_vec();
    extra.append(&mut call.extra);
    call.extra = extra;
    call.scripts = vec![
        format!("pre{script}"),
        script.clone(),
        format!("post{script}"),
    ];
    Some(call)
}

/// The lines `call` runs with this `package.json` text; `Err` when it
/// does not parse as JSON with a `scripts` object of strings.
pub fn package_plan(text: &str, call: &ScriptCall, runner: &str) -> Result<Plan, String> {
    let json: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let scripts = match json.get("scripts") {
        Some(serde_json::Value::Object(map)) => map.clone(),
        None => serde_json::Map::new(),
        Some(_) => return Err("`scripts` is not an object".into()),
    };
    let mut plan = Plan::default();
    let main = call.scripts.get(1).cloned().unwrap_or_default();
    for name in &call.scripts {
        let text = match scripts.get(name) {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(_) => {
                plan.unknown(format!("scripts.{name} is not a string"));
                continue;
            }
            // npm's defaults: `start` runs server.js; `restart` stop and start.
            None if *name == main && name == "start" && runner == "npm" => "node server.js".into(),
            None => continue,
        };
        let mut line = text;
        if *name == main && !call.extra.is_empty() {
            match shlex::try_join(call.extra.iter().map(String::as_str)) {
                Ok(extra) => {
                    line.push(' ');
                    line.push_str(&extra);
                }
                Err(_) => plan.unknown("arguments that cannot be quoted"),
            }
        }
        plan.push(line, &format!("package.json scripts.{name}"), false);
    }
    Ok(plan)
}
