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
//           prints into opencode.json so OpenCode asks for them.
// If portcullis cannot be run or answers nonsense (anything but one of its
// four verdicts), the call is blocked: a guard that fails must not let
// commands through.
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

/** The plugin's hooks for one OpenCode instance. */
const server = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const request = requestFor(input.tool, output.args, directory);
    if (!request) return;
    const v = judge(request);
    if (v.verdict === "BLOCKED") {
      throw new Error(`portcullis BLOCKED this (${v.rule}): ${v.reason}. Instead: ${v.remediation}`);
    }
    const signed = (process.env.PORTCULLIS_OPENCODE_SIGNED || "block") !== "defer";
    if (v.verdict === "SIGNED" && signed) {
      throw new Error(
        `portcullis: this needs a person's sign-off (${v.rule}): ${v.reason}. ` +
          `Ask the person to approve it or to run it themselves. ${v.remediation}`,
      );
    }
  },
});

export default { id: "portcullis", server };
