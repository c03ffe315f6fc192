//! The rule families besides the floor and the lexicon, for `portcullis
//! rules`: a table of rule ids and what each means. Data only.

/// The rule families besides the floor and the lexicon, for `portcullis rules`.
pub const RULE_FAMILIES: &[(&str, &str)] = &[
    ("parse.error", "SIGNED: the command does not parse as shell"),
    (
        "parse.misparse",
        "SIGNED: a known silent misparse of tree-sitter-bash was detected",
    ),
    (
        "parse.dynamic-verb",
        "SIGNED: the program name is only known at run time ($x, $(…))",
    ),
    (
        "parse.dynamic-script",
        "SIGNED: a shell or eval runs text only known at run time",
    ),
    (
        "parse.too-large",
        "BLOCKED (command) / SIGNED (inner script): over the size limit",
    ),
    (
        "parse.too-deep",
        "BLOCKED: nesting or wrapper chain past the depth limit",
    ),
    (
        "parse.too-many",
        "BLOCKED: more simple commands than the limit",
    ),
    (
        "parse.encoding",
        "SIGNED: a replayed line could not be read (not UTF-8, not JSON, not the history's format)",
    ),
    ("parse.unsupported", "SIGNED: the parser could not run"),
    ("write.redirect", "SIGNED: a redirection writes a file"),
    (
        "write.unresolved",
        "SIGNED: a write target only known at run time ($F, a glob outside any repository) could be a protected path",
    ),
    (
        "setting.exec",
        "SIGNED: an environment variable or `git -c` setting makes a program run other code (PAGER, LD_PRELOAD, PATH outside the project, core.pager …)",
    ),
    (
        "setting.unknown",
        "SIGNED: an environment variable portcullis does not know to be harmless is set for a program (`X=1 cmd`, `export X=1`, `env X=1`, an upper-case assignment)",
    ),
    (
        "setting.history",
        "SIGNED: HISTFILE=/dev/null, unset HISTFILE and the like stop shell history being kept",
    ),
    (
        "cage.secrets.read",
        "SIGNED: reads .env, private keys or credential files, or prints the whole environment, into the model's context",
    ),
    (
        "read.network",
        "SIGNED: stdin read from /dev/tcp or /dev/udp (a network connection)",
    ),
    (
        "write.network",
        "SIGNED: a redirection to /dev/tcp or /dev/udp",
    ),
    (
        "wrapper.<name>",
        "the wrapper's own class (sudo, su: SIGNED) when stricter than the inner command",
    ),
    (
        "verb.exec",
        "SIGNED: a program or script run by path, or code portcullis does not read",
    ),
    (
        "script.replaced",
        "SIGNED: a script run after it is written or replaced earlier in the same command (`gcc -o run.sh … && ./run.sh`) with content not known",
    ),
    (
        "script.venv-activate",
        "FREE: `source .venv/bin/activate` or `. venv/bin/activate`, a virtual environment's standard script",
    ),
    (
        "recipe.dynamic",
        "SIGNED: a Makefile, justfile or package.json recipe line only known when it runs (a variable that cannot be resolved)",
    ),
    (
        "recipe.unresolved",
        "SIGNED: part of a recipe file cannot be followed (`$(eval …)`, `include` of an unreadable file, `import`, another SHELL)",
    ),
    (
        "recipe.source",
        "SIGNED: recipes from stdin or from options that change where they come from (`make -f -`, `just --justfile`, `npm --prefix`)",
    ),
    (
        "recipe.too-many",
        "SIGNED: more recipe files or text than one request judges",
    ),
    (
        "recipe.read",
        "FREE: `just` recipes read from the justfile, every line judged",
    ),
    (
        "runner.package",
        "SIGNED: a package runner fetches a package other than the known tool it runs, or from another source (`npx -p x`, `uvx --with x`, `--registry`)",
    ),
    (
        "verb.function",
        "FREE: a call to a function defined in the same command (its body is judged)",
    ),
    ("verb.empty", "FREE: nothing to run"),
    (
        "cage.<rule>",
        "the cage's rules (ci_config, secrets, git_control, cage_config, lockfile, dependency_manifest, manifest_forbidden_zone, cage_protect, out_of_scope): a write there is BLOCKED (revert) or SIGNED (report); `portcullis policy` lists them",
    ),
    (
        "gantry.forbidden_zone",
        "BLOCKED: a write into the active mission's forbidden zones (GXT_FORBIDDEN_ZONE)",
    ),
    (
        "gantry.outside_roots",
        "SIGNED: a write outside the active mission's edit roots (record a context request)",
    ),
    (
        "gantry.perimeter_protected",
        "SIGNED: a write to the manifest's perimeter_protected paths",
    ),
    (
        "gantry.policy_file",
        "BLOCKED: a write to gantry's law (.gitagent/foreman/, the active-mission pin, the cached organisation policy bundles, or a folder that would hold them), with or without gantry",
    ),
    (
        "gantry.mission_contract",
        "SIGNED: a write to a mission file whose new content is unknown; BLOCKED: an edit that changes its contract, skill_key or msn_id",
    ),
    (
        "gantry.policy_too_large",
        "BLOCKED: every write, when a gantry file (manifest, mission, org pointer or bundle) is past 32 KiB, 1,024 keys or 1,024 list items, or past what the repository's other policy files left of the 64 KiB, 1,280 keys and 1,280 items they share",
    ),
    (
        "cage.policy_too_large",
        "BLOCKED: every write, when .cage.yaml is past 32 KiB, 1,024 keys or 1,024 list items",
    ),
    (
        "trust.executable",
        "BLOCKED: a write to executable configuration (agent settings and hooks, MCP, tasks, devcontainer, .envrc, shell start-up files, ~/.claude.json, authorized_keys, user systemd units and autostart, a submodule's git hooks)",
    ),
    (
        "trust.model_influencing",
        "SIGNED: a write to agent instructions (CLAUDE.md, AGENTS.md, rules, skills, commands)",
    ),
    (
        "trust.policy",
        "BLOCKED: a write to the workspace-trust policy file",
    ),
    (
        "trust.restricted",
        "BLOCKED: anything but FREE in a workspace whose trust is restricted, also through a folder option (make -C, cargo --manifest-path)",
    ),
    (
        "trust.denied",
        "BLOCKED: everything in a denied workspace, and every path read from one",
    ),
    (
        "inline.python.local-module",
        "SIGNED: the code's folder holds a file Python would import instead of one of its own modules or a module the code names",
    ),
    (
        "trust.policy_too_large",
        "BLOCKED: everything, when the workspace-trust file is past 32 KiB, 1,024 keys or 1,024 list items, or past what the repository's other policy files left (read as denied)",
    ),
    (
        "edit.allowed",
        "FREE: an edit tool's path the law has no rule against (the hook prints nothing)",
    ),
    (
        "search.allowed",
        "FREE: a search tool's request (Grep) over no credentials (the hook prints nothing)",
    ),
    ("unknown.verb", "UNKNOWN: the program is not in the lexicon"),
];
