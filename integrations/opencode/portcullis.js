// portcullis for OpenCode: judges every bash command, and every file the
// write, edit and read tools name, before it runs.
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
// If portcullis cannot be run or answers nonsense, the call is blocked:
// a guard that fails must not let commands through.

import { spawnSync } from "node:child_process";

const FILE_TOOLS = new Set(["write", "edit", "multiedit", "read"]);

/** The request `portcullis hook --host opencode` reads, or null. */
function requestFor(tool, args, directory) {
  if (tool === "bash" && typeof args?.command === "string") {
    return { tool: "bash", args: { command: args.command }, cwd: args.workdir || directory };
  }
  if (FILE_TOOLS.has(tool) && typeof args?.filePath === "string") {
    return { tool, args: { filePath: args.filePath }, cwd: directory };
  }
  return null;
}

/** Runs the binary; its verdict object, or throws. */
export function judge(request, binary = process.env.PORTCULLIS_BIN || "portcullis") {
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
  if (!verdict || typeof verdict.verdict !== "string") {
    throw new Error("portcullis answered without a verdict; the call is blocked to be safe.");
  }
  return verdict;
}

export const Portcullis = async ({ directory }) => ({
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

export default Portcullis;
