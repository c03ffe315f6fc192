//! The fixed rules: every rule id that is not built from a verb, a
//! wrapper's name or an inline call, one row each, with its family and what
//! it decides. `portcullis rules` prints this table, and the path law's data
//! (`rules/law.json`) names its rules by these ids, checked when the binary
//! is built.
//!
//! To add a rule, add a row: the variant, its stable dotted id (never
//! renamed: hosts and people match on it), its family and one line on what
//! it decides, starting with the verdict it asks for.

use super::Family;

/// Declares [`Rule`] from one table, so the enum, its ids, its families
/// and the listing cannot drift apart.
macro_rules! fixed_rules {
    ($($variant:ident = $id:literal, $family:ident, $meaning:literal;)*) => {
        /// A fixed rule of the engine or the path law.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Rule {
            $(#[doc = $meaning] $variant,)*
        }

        impl Rule {
            /// Every fixed rule, in the order `portcullis rules` lists them.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)*];

            /// The stable dotted id (`parse.error`).
            pub const fn id(self) -> &'static str {
                match self {
                    $(Rule::$variant => $id,)*
                }
            }

            /// The family the id belongs to.
            pub const fn family(self) -> Family {
                match self {
                    $(Rule::$variant => Family::$family,)*
                }
            }

            /// One line on what the rule decides, starting with its verdict.
            pub const fn meaning(self) -> &'static str {
                match self {
                    $(Rule::$variant => $meaning,)*
                }
            }
        }
    };
}

fixed_rules! {
    ParseError = "parse.error", Parse,
        "SIGNED: the command does not parse as shell";
    ParseMisparse = "parse.misparse", Parse,
        "SIGNED: a known silent misparse of tree-sitter-bash was detected";
    ParseDynamicVerb = "parse.dynamic-verb", Parse,
        "SIGNED: the program name is only known at run time ($x, $(…))";
    ParseDynamicScript = "parse.dynamic-script", Parse,
        "SIGNED: a shell or eval runs text only known at run time";
    ParseTooLarge = "parse.too-large", Parse,
        "BLOCKED (command) / SIGNED (inner script): over the size limit";
    ParseTooDeep = "parse.too-deep", Parse,
        "BLOCKED: nesting or wrapper chain past the depth limit";
    ParseTooMany = "parse.too-many", Parse,
        "BLOCKED: more simple commands than the limit";
    ParseTooComplex = "parse.too-complex", Parse,
        "BLOCKED: the parser read the line too many times a chunk and was stopped (unbalanced brackets?)";
    ParseEncoding = "parse.encoding", Parse,
        "SIGNED: a replayed line could not be read (not UTF-8, not JSON, not the history's format)";
    ParseUnsupported = "parse.unsupported", Parse,
        "SIGNED: the parser could not run";
    WriteRedirect = "write.redirect", Write,
        "SIGNED: a redirection writes a file";
    WriteUnresolved = "write.unresolved", Write,
        "SIGNED: a write target only known at run time ($F, a glob outside any repository) could be a protected path";
    WriteOutsideProject = "write.outside-project", Write,
        "SIGNED: a build, test, format or read step writes a file outside the project (`go build -o /etc/cron.d/x`); it is free only where it writes inside it or in the temporary folder";
    WriteNetwork = "write.network", Write,
        "SIGNED: a redirection to /dev/tcp or /dev/udp";
    ReadNetwork = "read.network", Other,
        "SIGNED: stdin read from /dev/tcp or /dev/udp (a network connection)";
    SettingExec = "setting.exec", Other,
        "SIGNED: an environment variable or `git -c` setting makes a program run other code (PAGER, LD_PRELOAD, PATH outside the project, core.pager …)";
    SettingUnknown = "setting.unknown", Other,
        "SIGNED: an environment variable portcullis does not know to be harmless is set for a program (`X=1 cmd`, `export X=1`, `env X=1`, an upper-case assignment)";
    SettingHistory = "setting.history", Other,
        "SIGNED: HISTFILE=/dev/null, unset HISTFILE and the like stop shell history being kept";
    VerbExec = "verb.exec", Other,
        "SIGNED: a program or script run by path, or code portcullis does not read";
    VerbFunction = "verb.function", Other,
        "FREE: a call to a function defined in the same command (its body is judged)";
    VerbEmpty = "verb.empty", Other,
        "FREE: nothing to run";
    UnknownVerb = "unknown.verb", Other,
        "UNKNOWN: the program is not in the lexicon";
    ModeAcceptEdits = "mode.accept-edits", Other,
        "FREE: under the host's acceptEdits mode, a shell write to ordinary files inside the project that nothing else objects to (`rules/modes.json`)";
    ModePlan = "mode.plan", Other,
        "UNKNOWN: under the host's plan mode, a FREE command that does more than look (a build, a test, a formatter): the host's plan mode decides";
    UnknownDestructive = "unknown.destructive", Other,
        "SIGNED: a program not in the lexicon, run with a word that says it destroys (`delete`, `purge`, `drop`, `--force`; `rules/unknown.json`)";
    ScriptReplaced = "script.replaced", Other,
        "SIGNED: a script run after it is written or replaced earlier in the same command (`gcc -o run.sh … && ./run.sh`) with content not known";
    ScriptVenvActivate = "script.venv-activate", Other,
        "FREE: `source .venv/bin/activate` or `. venv/bin/activate`, a virtual environment's standard script";
    RecipeDynamic = "recipe.dynamic", Other,
        "SIGNED: a Makefile, justfile or package.json recipe line only known when it runs (a variable that cannot be resolved)";
    RecipeUnresolved = "recipe.unresolved", Other,
        "SIGNED: part of a recipe file cannot be followed (`$(eval …)`, `include` of an unreadable file, `import`, another SHELL)";
    RecipeSource = "recipe.source", Other,
        "SIGNED: recipes from stdin or from options that change where they come from (`make -f -`, `just --justfile`, `npm --prefix`)";
    RecipeTooMany = "recipe.too-many", Other,
        "SIGNED: more recipe files or text than one request judges";
    RecipeRead = "recipe.read", Other,
        "FREE: `just` recipes read from the justfile, every line judged";
    RunnerPackage = "runner.package", Other,
        "SIGNED: a package runner fetches a package other than the known tool it runs, or from another source (`npx -p x`, `uvx --with x`, `--registry`)";
    InlineUnparsable = "inline.unparsable", Inline,
        "SIGNED: inline Python or JavaScript code that does not parse";
    InlineUnreadableScript = "inline.unreadable-script", Inline,
        "SIGNED: an interpreter runs code portcullis cannot read (a missing or unreadable script, a program from stdin, the project's own module under -m)";
    InlineDynamicExec = "inline.dynamic-exec", Inline,
        "SIGNED: inline code runs a command built when the code runs";
    InlinePreload = "inline.preload", Inline,
        "SIGNED: an interpreter loads code before its program (-r, --require, --import, PYTHONSTARTUP …) that portcullis does not read";
    InlinePythonLocalModule = "inline.python.local-module", Inline,
        "SIGNED: the code's folder holds a file Python would import instead of one of its own modules or a module the code names";
    EditAllowed = "edit.allowed", Other,
        "FREE: an edit tool's path the law has no rule against (the hook prints nothing)";
    EditUnresolved = "edit.unresolved", Other,
        "SIGNED: an edit tool's relative path with no working folder to resolve it";
    SearchAllowed = "search.allowed", Other,
        "FREE: a search tool's request (Grep) over no credentials (the hook prints nothing)";
    SearchUnresolved = "search.unresolved", Other,
        "SIGNED: a search tool's relative path with no working folder to resolve it";
    CageCiConfig = "cage.ci_config", Cage,
        "BLOCKED: a write to CI configuration (.github/workflows, .gitlab-ci.yml …)";
    CageSecrets = "cage.secrets", Cage,
        "BLOCKED: a write to a secrets file (.env, private keys, credential files)";
    CageSecretsRead = "cage.secrets.read", Cage,
        "SIGNED: reads .env, private keys or credential files, or prints the whole environment, into the model's context";
    CageGitControl = "cage.git_control", Cage,
        "BLOCKED: a write to git control: where git finds code to run or a config to read (hooks, config, core.hooksPath, included configs, the .git file)";
    CageCageConfig = "cage.cage_config", Cage,
        "BLOCKED: a write to the cage's own configuration (.cage.yaml)";
    CageLockfile = "cage.lockfile", Cage,
        "SIGNED: a write to a lockfile, or a command that rewrites one; BLOCKED when the cage freezes dependencies";
    CageDependencyManifest = "cage.dependency_manifest", Cage,
        "SIGNED: a command that adds, removes or updates packages in a dependency manifest; BLOCKED when the cage freezes dependencies";
    CageManifestForbiddenZone = "cage.manifest_forbidden_zone", Cage,
        "BLOCKED: a write into a forbidden zone of the gantry manifest's skills (the cage's built-in rule)";
    CageCageProtect = "cage.cage_protect", Cage,
        "BLOCKED: a write to a path .cage.yaml protects (protect:)";
    CageOutOfScope = "cage.out_of_scope", Cage,
        "BLOCKED: a write outside .cage.yaml's allow_only scope";
    CagePolicyTooLarge = "cage.policy_too_large", Cage,
        "BLOCKED: every write, when .cage.yaml is past 32 KiB, 1,024 keys or 1,024 list items";
    GantryForbiddenZone = "gantry.forbidden_zone", Gantry,
        "BLOCKED: a write into the active mission's forbidden zones (GXT_FORBIDDEN_ZONE)";
    GantryOutsideRoots = "gantry.outside_roots", Gantry,
        "SIGNED: a write outside the active mission's edit roots (record a context request)";
    GantryPerimeterProtected = "gantry.perimeter_protected", Gantry,
        "SIGNED: a write to the manifest's perimeter_protected paths";
    GantryPolicyFile = "gantry.policy_file", Gantry,
        "BLOCKED: a write to gantry's law (.gitagent/foreman/, the active-mission pin, the cached organisation policy bundles, or a folder that would hold them), with or without gantry";
    GantryMissionContract = "gantry.mission_contract", Gantry,
        "SIGNED: a write to a mission file whose new content is unknown; BLOCKED: an edit that changes its contract, skill_key or msn_id";
    GantryPolicyTooLarge = "gantry.policy_too_large", Gantry,
        "BLOCKED: every write, when a gantry file (manifest, mission, org pointer or bundle) is past 32 KiB, 1,024 keys or 1,024 list items, or past what the repository's other policy files left of the 64 KiB, 1,280 keys and 1,280 items they share";
    TrustPolicy = "trust.policy", Trust,
        "BLOCKED: a write to the workspace-trust policy file";
    TrustExecutable = "trust.executable", Trust,
        "BLOCKED: a write to executable configuration (agent settings and hooks, MCP, tasks, devcontainer, .envrc, shell start-up files, ~/.claude.json, authorized_keys, user systemd units and autostart, a submodule's git hooks)";
    TrustModelInfluencing = "trust.model_influencing", Trust,
        "SIGNED: a write to agent instructions (CLAUDE.md, AGENTS.md, rules, skills, commands)";
    TrustRestricted = "trust.restricted", Trust,
        "BLOCKED: anything but FREE in a workspace whose trust is restricted, also through a folder option (make -C, cargo --manifest-path)";
    TrustDenied = "trust.denied", Trust,
        "BLOCKED: everything in a denied workspace, and every path read from one";
    TrustPolicyTooLarge = "trust.policy_too_large", Trust,
        "BLOCKED: everything, when the workspace-trust file is past 32 KiB, 1,024 keys or 1,024 list items, or past what the repository's other policy files left (read as denied)";
    SqlRead = "sql.read", Other,
        "FREE: SQL given to a database client that only reads (SELECT, EXPLAIN, SHOW, DESCRIBE) and calls only functions known to be harmless";
    SqlMutate = "sql.mutate", Other,
        "SIGNED: SQL that writes or changes the database (INSERT, UPDATE or DELETE with a WHERE, CREATE, ALTER, GRANT, COPY, a SELECT … INTO), or any statement not known to only read";
    SqlDrop = "sql.drop", Other,
        "SIGNED: SQL that drops a table, view, index or other object";
    SqlTruncate = "sql.truncate", Other,
        "SIGNED: SQL that empties a table (TRUNCATE)";
    SqlUnboundedDelete = "sql.unbounded-delete", Other,
        "SIGNED: a DELETE without a WHERE: every row of the table";
    SqlUnboundedUpdate = "sql.unbounded-update", Other,
        "SIGNED: an UPDATE without a WHERE: every row of the table";
    SqlFunction = "sql.function", Other,
        "SIGNED: SQL that calls a function not known to be harmless (pg_read_file, lo_export, dblink, load_extension, a user's own function)";
    SqlParseError = "sql.parse-error", Other,
        "SIGNED: SQL the lane cannot read (it does not parse, or is nested or long past the lane's limits)";
    SqlVariable = "sql.variable", Other,
        "SIGNED: SQL with client variables (psql `:x`, `:'x'`), only known when it runs";
    SqlClientCommand = "sql.client-command", Other,
        "SIGNED: a client command not known to only read (psql `\\!`, `\\o`, `\\copy`, `\\gexec`; sqlite3 `.shell`, `.output`, `.import`, `.load`; mysql `system`, `tee`, `source`)";
    SqlClientOption = "sql.client-option", Other,
        "SIGNED: a database client option that writes a file, runs a program, or is not in the client's known set (psql -o, -L; mysql --tee, --pager; sqlite3 -init)";
    SqlSession = "sql.session", Other,
        "SIGNED: a database client whose SQL portcullis cannot see (an interactive session, or SQL read from a file or a pipe it cannot read)";
    SqlJavaScript = "sql.javascript", Other,
        "SIGNED: JavaScript run against a database (mongosh --eval), which can change or drop it";
}

impl Rule {
    /// The fixed rule with this id, if there is one.
    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|rule| rule.id() == id)
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}
