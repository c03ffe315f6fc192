//! The texts `--help` prints: the usage of every command at once, and the
//! help of each subcommand.

/// Every command's usage: `portcullis --help`, and after a usage error.
pub const USAGE: &str = "usage:
  portcullis hook [--host claude|opencode|codex|gemini|copilot|cursor|qwen] [--free allow|defer] [--unknown defer|ask]
  portcullis check [--json] [--cwd DIR] [--mode MODE] -- COMMAND
  portcullis explain [--tree] [--cwd DIR] [--mode MODE] -- COMMAND
  portcullis replay [--format auto|lines|jsonl|sessions|bash|zsh|fish|claude] [--json | --summary-json]
                    [--fail-on SIGNED|BLOCKED] [--threads N] [--cwd DIR] [--mode MODE]
                    FILE…|DIR|-
  portcullis policy [--json] [DIR]
  portcullis opencode-permissions
  portcullis rules [--verbs]
  portcullis install [--host NAME]... [--project] [--dry-run]
  portcullis uninstall [--host NAME]... [--project] [--dry-run]
  portcullis doctor [--json] [--host NAME]...";

/// `portcullis hook --help`.
pub const HOOK: &str =
    "usage: portcullis hook [--host claude|opencode|codex|gemini|copilot|cursor|qwen] [--free allow|defer] [--unknown defer|ask]

Reads one tool-call request on stdin (the hook JSON of Claude Code, Codex,
Gemini CLI, Copilot CLI, Cursor or Qwen Code, or the OpenCode plugin's) and
writes the decision on stdout, in the form that host honours. Exit 0 with a
decision or none; exit 2 on bad input, which every host takes as a block.

options:
  --host NAME             who asks: claude, opencode (a JSON verdict object),
                          codex, gemini, copilot, cursor or qwen; without it
                          the host is told from the request's shape, and a
                          request no host sends is refused (exit 2)
  --free allow|defer      FREE: allow (the default), or print nothing and let
                          the host's own rules decide
  --unknown defer|ask     UNKNOWN: print nothing (the default), or ask
  -h, --help              print this help

A value may also be joined to its option: --host=opencode.";

/// `portcullis check --help`.
pub const CHECK: &str = "usage: portcullis check [--json] [--cwd DIR] [--mode MODE] -- COMMAND

Judges one command without running it. Exit 0 FREE, 10 SIGNED, 20 BLOCKED,
30 UNKNOWN; 2 for a usage error.

COMMAND is one word holding a whole command line (check -- 'ls | wc'), or
several words that are one argv (check -- bash -c \"rm -rf /\"), quoted back
into the command line that runs exactly those words.

options:
  --json       print one JSON object: verdict, rule, reason, remediation
  --cwd DIR    judge as if run in DIR (default: the current folder)
  --mode MODE  judge as the host's permission mode MODE would: default,
               acceptEdits or plan (as a request's permission_mode)
  -h, --help   print this help

A value may also be joined to its option: --cwd=DIR.";

/// `portcullis explain --help`.
pub const EXPLAIN: &str = "usage: portcullis explain [--tree] [--cwd DIR] [--mode MODE] -- COMMAND

Shows how one command is judged: each simple command, each wrapper peeled,
each finding, and the decision. Exit codes and COMMAND as for check.

options:
  --tree       print the syntax tree first
  --cwd DIR    judge as if run in DIR (default: the current folder)
  --mode MODE  judge as the host's permission mode MODE would: default,
               acceptEdits or plan (the steps say when the mode decided)
  -h, --help   print this help

A value may also be joined to its option: --cwd=DIR.";

/// `portcullis replay --help`.
pub const REPLAY: &str =
    "usage: portcullis replay [--format auto|lines|jsonl|sessions|bash|zsh|fish|claude]
                         [--json | --summary-json] [--fail-on SIGNED|BLOCKED]
                         [--threads N] [--cwd DIR] [--mode MODE] FILE…|DIR|-

Judges every command of a history (files, every .jsonl under a folder, or
stdin for -) and prints a one-screen summary. Exit 0, or 1 with --fail-on.

options:
  --format FORMAT    the history's format (default auto: detected from the
                     file's name and first lines)
  --json             one JSON object a command instead of the summary
  --summary-json     the summary as one JSON object
  --fail-on VERDICT  exit 1 when any command reached SIGNED or BLOCKED
  --threads N        judge on N threads (default: the cores, up to 8)
  --cwd DIR          the folder of commands whose history names none
                     (default: the current folder)
  --mode MODE        judge every shell command as the host's permission
                     mode MODE would: default, acceptEdits or plan
  -h, --help         print this help

A value may also be joined to its option: --threads=2.";

/// `portcullis policy --help`.
pub const POLICY: &str = "usage: portcullis policy [--json] [DIR]

Prints the effective path law of the repository holding DIR: every protected
path, zone and root, where it comes from, and the verdict a write there
gets; invalid policy files are named.

options:
  --json      print it as one JSON object
  --cwd DIR   the folder when DIR is not given (default: the current folder)
  -h, --help  print this help";

/// `portcullis opencode-permissions --help`.
pub const OPENCODE_PERMISSIONS: &str = "usage: portcullis opencode-permissions

Prints a permission.bash block for opencode.json, made from the lexicon:
what portcullis signs, OpenCode asks.

options:
  -h, --help  print this help";

/// `portcullis rules --help`.
pub const RULES: &str = "usage: portcullis rules [--verbs]

Prints the rule catalogue: the blocked floor, the other rule families, and
the lexicon by effect class.

options:
  --verbs     every verb of the lexicon instead: verb, class, verdict and
              rules file, tab-separated
  -h, --help  print this help";

/// `portcullis install --help`.
pub const INSTALL: &str = "usage: portcullis install [--host NAME]... [--project] [--dry-run]

Adds portcullis's hook to each host's config file, pointing at this binary
(its absolute path), in the form that fails closed for that host. Merges
into the existing file: every other key and hook is kept, a second run
changes nothing, the original is backed up beside it (FILE.portcullis-backup,
never overwritten) before the first change, and each change is printed as a
unified diff. A symbolic link or a file that does not parse is refused, and
that host's file is left as it was. Exit 0, or 1 when any host was refused.

options:
  --host NAME  only this host (repeatable): claude, opencode, codex, gemini,
               copilot, cursor, qwen; default: every host whose config
               folder or program is found
  --project    the current folder's project files (.claude/settings.json,
               .codex/hooks.json, …) instead of the user's
  --dry-run    print the diffs, write nothing
  -h, --help   print this help

A person runs this: through an agent's hook it is BLOCKED.";

/// `portcullis uninstall --help`.
pub const UNINSTALL: &str = "usage: portcullis uninstall [--host NAME]... [--project] [--dry-run]

Takes out of each host's config file exactly the entries install added
(told by their command: portcullis run as `hook`), and nothing else. A
file install created is removed once nothing else is in it; a file that
comes back to what it was before install gets its original bytes back.
Exit 0, or 1 when any host was refused.

options:
  --host NAME  only this host (repeatable); default: every host whose file
               install writes is there
  --project    the current folder's project files instead of the user's
  --dry-run    print the diffs, write nothing
  -h, --help   print this help

A person runs this: through an agent's hook it is BLOCKED.";

/// `portcullis doctor --help`.
pub const DOCTOR: &str = "usage: portcullis doctor [--json] [--host NAME]...

Checks, for each host found, that the hook is really guarding it: it is
configured (user or project file) and points at an existing, executable
portcullis of this version; the host's trust gates let it run (Gemini CLI's
trusted folders, Codex's hook review, Copilot CLI's folder trust); nothing
disables or shadows it; and a live self-test: one request that must be
BLOCKED and one that is FREE, fed to the configured command as that host
sends them, answered in the form that host honours. Each problem is printed
with its fix. Writes nothing. Exit 0 only when everything holds, else 1.

options:
  --json       the same report as one JSON object
  --host NAME  only this host (repeatable); default: every host found
  -h, --help   print this help";

/// The help of subcommand `name`, or `None` for a name that is none.
pub fn of(name: &str) -> Option<&'static str> {
    Some(match name {
        "hook" => HOOK,
        "check" => CHECK,
        "explain" => EXPLAIN,
        "replay" => REPLAY,
        "policy" => POLICY,
        "opencode-permissions" => OPENCODE_PERMISSIONS,
        "rules" => RULES,
        "install" => INSTALL,
        "uninstall" => UNINSTALL,
        "doctor" => DOCTOR,
        _ => return None,
    })
}
