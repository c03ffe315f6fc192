// portcullis for OpenCode: judges every bash command, every file the write,
// edit and read tools name, every file an apply_patch writes and every grep,
// before it runs.
//
// Install: copy this file to `.opencode/plugins/` (one project) or
// `~/.config/opencode/plugins/` (every project), with the `portcullis`
// binary on PATH (or PORTCULLIS_BIN naming it).
//
// BLOCKED calls throw: OpenCode hands the message (reason and what to do
// instead) to the model. OpenCode plugins cannot raise a permission prompt,
// so for SIGNED calls choose with PORTCULLIS_OPENCODE_SIGNED:
//   "block" (default): throw, telling the model to ask the person to
//           approve or run the command;
//   "defer": let the call through to OpenCode's own `permission.bash`
//           rules; paste the block `portcullis opencode-permissions`
//           prints into opencode.json so OpenCode asks for them. Only a
//           single simple command those rules ask for is deferred; any
//           other SIGNED call (a redirect, a pipe, a wrapper: parts
//           OpenCode's patterns would let through) still throws.
// If portcullis cannot be run or answers nonsense (anything but one of its
// four verdicts), the call is blocked: a guard that fails must not let
// commands through.
//
// A grep over the project can match inside a secrets file (`.env`): its
// `tool.execute.after` asks portcullis about a read of each file the
// output names and replaces the matched lines of every file whose read it
// would not let run (and of every file when it cannot ask) before the
// model sees them.
//
// OpenCode calls every function this module exports as a plugin, and a
// module with any other export fails to load: the module's one export is
// the plugin object `{ id, server }`.

import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

const FILE_TOOLS = new Set(["write", "edit", "read"]);
const VERDICTS = new Set(["FREE", "SIGNED", "BLOCKED", "UNKNOWN"]);

/** The request `portcullis hook --host opencode` reads, or null. */
function requestFor(tool, args, directory) {
  if (tool === "bash" && typeof args?.command === "string") {
    // A relative workdir is relative to the session's folder.
    const cwd = typeof args.workdir === "string" && args.workdir ? resolve(directory, args.workdir) : directory;
    return { tool: "bash", args: { command: args.command }, cwd };
  }
  if (FILE_TOOLS.has(tool) && typeof args?.filePath === "string") {
    return { tool, args: { filePath: args.filePath }, cwd: directory };
  }
  if (tool === "apply_patch") {
    // The binary reads the patch; without text it refuses, and the call is blocked.
    return { tool, args: { patchText: args?.patchText }, cwd: directory };
  }
  if (tool === "grep") {
    return { tool, args: { path: args?.path, include: args?.include }, cwd: directory };
  }
  return null;
}

/** Runs the binary; its verdict object, or throws. */
function judge(request, binary = process.env.PORTCULLIS_BIN || "portcullis") {
  const run = spawnSync(binary, ["hook", "--host", "opencode"], {
    input: JSON.stringify(request),
    encoding: "utf8",
    timeout: 10_000,
  });
  if (run.error || run.status !== 0) {
    const why = run.error ? run.error.message : (run.stderr || "").trim() || `exit ${run.status}`;
    throw new Error(`portcullis could not judge this call (${why}); it is blocked to be safe.`);
  }
  let verdict;
  try {
    verdict = JSON.parse(run.stdout);
  } catch {
    throw new Error("portcullis answered something that is not JSON; the call is blocked to be safe.");
  }
  if (!verdict || !VERDICTS.has(verdict.verdict)) {
    throw new Error("portcullis answered without one of its verdicts; the call is blocked to be safe.");
  }
  return verdict;
}

/** At most this many distinct files of one grep output are judged; the lines of any further file are redacted. */
const MAX_JUDGED_FILES = 200;

/**
 * The grep tool's output (`Found N matches`, then for each file a line
 * `PATH:` and its `  Line N: TEXT` lines) with the text of every match in
 * a file portcullis would not let be read replaced. `judgeRead(path)` is
 * that file's verdict object; it may throw, and then the file is redacted.
 */
function redactGrepOutput(text, directory, judgeRead) {
  if (typeof text !== "string") return text;
  const verdicts = new Map();
  const hidden = (path) => {
    if (path === null) return "no file";
    if (!verdicts.has(path)) {
      let rule = null;
      if (verdicts.size >= MAX_JUDGED_FILES) rule = "too many files to judge";
      else {
        try {
          const v = judgeRead(resolve(directory, path));
          if (v.verdict !== "FREE" && v.verdict !== "UNKNOWN") rule = v.rule;
        } catch {
          rule = "portcullis could not judge it";
        }
      }
      verdicts.set(path, rule);
    }
    return verdicts.get(path);
  };
  let file = null;
  return text
    .split("\n")
    .map((line) => {
      const match = /^(  Line \d+: )/.exec(line);
      if (match) {
        const rule = hidden(file);
        return rule ? `${match[1]}[redacted by portcullis: ${rule}]` : line;
      }
      if (line.endsWith(":") && !line.startsWith(" ")) file = line.slice(0, -1);
      else if (line === "") file = null;
      return line;
    })
    .join("\n");
}

/** The plugin's hooks for one OpenCode instance. */
const server = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const request = requestFor(input.tool, output.args, directory);
    if (!request) return;
    const v = judge(request);
    if (v.verdict === "BLOCKED") {
      throw new Error(`portcullis BLOCKED this (${v.rule}): ${v.reason}. Instead: ${v.remediation}`);
    }
    if (v.verdict !== "SIGNED") return;
    const defer = (process.env.PORTCULLIS_OPENCODE_SIGNED || "block") === "defer";
    // Deferred only where OpenCode's printed rules are known to ask: one
    // simple command they ask for (the binary says so in `defer`).
    if (defer && v.defer === true) return;
    const why = defer ? " OpenCode's permission rules would not ask for this one, so it is not deferred." : "";
    throw new Error(
      `portcullis: this needs a person's sign-off (${v.rule}): ${v.reason}.${why} ` +
        `Ask the person to approve it or to run it themselves. ${v.remediation}`,
    );
  },
  "tool.execute.after": async (input, output) => {
    if (input.tool !== "grep" || !output) return;
    output.output = redactGrepOutput(output.output, directory, (filePath) =>
      judge({ tool: "read", args: { filePath }, cwd: directory }),
    );
  },
});

export default { id: "portcullis", server };
