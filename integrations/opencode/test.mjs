// Loads the plugin by OpenCode's own loader rules and calls its
// tool.execute.before against the real binary.
//
// OpenCode (1.18) calls every function a plugin module exports, and a
// module with any other kind of export fails to load, unless its default
// export is the object form `{ id, server }`. So the module must export
// exactly that, and nothing else.
//
// The calls: FREE, SIGNED and BLOCKED commands, protected writes through
// write and apply_patch, a relative workdir, grep over credentials, grep
// output matching inside `.env` (redacted after the call), both
// SIGNED modes, a binary that answers an unknown verdict, and a missing
// binary (blocked, never let through).
// Run: PORTCULLIS_BIN=target/x86_64-unknown-linux-gnu/release/portcullis node integrations/opencode/test.mjs
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as mod from "./portcullis.js";

// The module's shape, as OpenCode's loader reads it.
assert.deepEqual(Object.keys(mod), ["default"], "the plugin object is the only export");
const plugin = mod.default;
assert.equal(typeof plugin, "object");
assert.equal(typeof plugin.id, "string");
assert.equal(typeof plugin.server, "function");
assert.deepEqual(Object.keys(plugin).sort(), ["id", "server"]);

// A project of its own: a git repository in a temporary folder.
const project = mkdtempSync(join(tmpdir(), "portcullis-opencode-"));
mkdirSync(join(project, ".git"));
mkdirSync(join(project, ".opencode", "plugins"), { recursive: true });

const hooks = await plugin.server({ directory: project, worktree: project });
const before = hooks["tool.execute.before"];
/** The grep output `text` as the model gets it after the plugin's tool.execute.after. */
const afterGrep = async (text) => {
  const output = { title: "TOKEN", output: text, metadata: {} };
  await hooks["tool.execute.after"]({ tool: "grep", sessionID: "s", callID: "c" }, output);
  return output.output;
};
const call = (tool, args) => before({ tool, sessionID: "s", callID: "c" }, { args });
let calls = 0;
const free = async (tool, args) => {
  calls++;
  await call(tool, args);
};
const rejects = async (tool, args, pattern) => {
  calls++;
  await assert.rejects(call(tool, args), pattern);
};

try {
  await free("bash", { command: "git status" });
  await free("read", { filePath: join(project, "notes.txt") });
  await free("glob", { pattern: "*.rs" });
  await rejects("bash", { command: "rm -rf ~" }, /BLOCKED this \(floor\.rm\.home\)/);
  await rejects("write", { filePath: join(project, ".env") }, /BLOCKED this \(cage\.secrets\)/);
  await rejects("bash", { command: "git push origin main" }, /needs a person's sign-off/);

  // A relative workdir is resolved against the session's folder: the write
  // lands in .opencode/plugins/, which runs as code.
  await rejects(
    "bash",
    { command: "echo 'export default {}' > evil.js", workdir: ".opencode/plugins" },
    /BLOCKED this \(trust\.executable\)/,
  );

  // apply_patch: every file the patch writes meets the path law.
  await rejects(
    "apply_patch",
    { patchText: "*** Begin Patch\n*** Add File: .env\n+TOKEN=1\n*** End Patch\n" },
    /BLOCKED this \(cage\.secrets\)/,
  );
  await rejects(
    "apply_patch",
    { patchText: "*** Begin Patch\n*** Delete File: .opencode/plugins/portcullis.js\n*** End Patch\n" },
    /BLOCKED this \(trust\.executable\)/,
  );
  await free("apply_patch", {
    patchText: "*** Begin Patch\n*** Add File: docs/notes.md\n+hello\n*** End Patch\n",
  });
  await rejects("apply_patch", { patchText: "rm -rf ~" }, /could not judge this call/);

  // grep over a folder of credentials brings their lines into the context.
  await rejects("grep", { pattern: "KEY", path: "/home/u/.ssh" }, /needs a person's sign-off/);
  await free("grep", { pattern: "fn main", path: join(project, "src") });

  // A grep over the project that matches inside `.env`: those lines are
  // redacted, the others kept, relative paths resolved.
  const grepped = [
    "Found 3 matches",
    `${join(project, ".env")}:`,
    "  Line 1: TOKEN=hunter2",
    "",
    `${join(project, "src", "main.rs")}:`,
    '  Line 4: let token = env("TOKEN");',
    "",
    "config/.env.production:",
    "  Line 2: TOKEN=swordfish",
  ].join("\n");
  const shown = await afterGrep(grepped);
  assert.doesNotMatch(shown, /hunter2|swordfish/);
  assert.match(shown, /Line 1: \[redacted by portcullis: [a-z._]+\]/);
  assert.match(shown, /let token = env\("TOKEN"\);/);
  assert.equal(await afterGrep("No files found"), "No files found");
  calls++;

  process.env.PORTCULLIS_OPENCODE_SIGNED = "defer";
  await free("bash", { command: "git push origin main" });
  await free("bash", { command: "sed -i s/a/b/ notes.txt" });
  // OpenCode's `"echo *": "allow"` would run what portcullis signs.
  await rejects("bash", { command: "echo b > notes.txt" }, /would not ask for this one/);
  await rejects("bash", { command: "git push origin main && ls" }, /would not ask for this one/);
  await rejects("bash", { command: "git reset --hard" }, /BLOCKED/);
  delete process.env.PORTCULLIS_OPENCODE_SIGNED;

  // A binary that answers a verdict that is not one of the four.
  const liar = join(project, "liar.sh");
  writeFileSync(liar, '#!/bin/sh\ncat >/dev/null\necho \'{"verdict":"ALLOW"}\'\n');
  chmodSync(liar, 0o755);
  const real = process.env.PORTCULLIS_BIN;
  process.env.PORTCULLIS_BIN = liar;
  await rejects("bash", { command: "git reset --hard" }, /without one of its verdicts/);

  process.env.PORTCULLIS_BIN = "/nonexistent/portcullis";
  await rejects("bash", { command: "ls" }, /could not judge this call/);
  // Without the binary, every match is hidden.
  assert.doesNotMatch(await afterGrep(grepped), /hunter2|swordfish|env\("TOKEN"\)/);
  calls++;
  process.env.PORTCULLIS_BIN = real;
} finally {
  rmSync(project, { recursive: true, force: true });
}
console.log(`opencode plugin: ${calls} calls judged as expected`);
