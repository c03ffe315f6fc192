// End to end inside the real Qwen Code client: `qwen -p` against the mock
// Chat Completions server (mock-openai.mjs) on 127.0.0.1, with the
// README's `~/.qwen/settings.json` snippet as its hook, in a scratch HOME
// and project. The model asks for one tool call; what happened on disk
// and what the model was told are checked.
//
// Run: QWEN_BIN=…/qwen PORTCULLIS_BIN=target/x86_64-unknown-linux-gnu/release/portcullis node tests/e2e/qwen.mjs
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cases, crashingBinary, readmeSnippet, runClient, installHook, scratch, settle, withBinary, writeJson } from "./lib.mjs";
import { start, toolMessages } from "./mock-openai.mjs";

const qwen = process.env.QWEN_BIN;
const portcullis = process.env.PORTCULLIS_BIN;
assert.ok(qwen && existsSync(qwen), "QWEN_BIN names the qwen binary");
assert.ok(portcullis && existsSync(portcullis), "PORTCULLIS_BIN names the portcullis binary");
const snippet = readmeSnippet("qwen");

/**
 * Runs `qwen -p` with `hooks` (the README's by default) and the model
 * asking for `tool`; resolves to what the run left behind.
 */
async function run({ tool, hooks = withBinary(snippet, portcullis).hooks, mode = "yolo", files = {}, install = false }) {
  const s = scratch("qwen", files);
  const input = typeof tool.input === "function" ? tool.input(s.project) : tool.input;
  const mock = await start({ name: tool.name, input });
  writeJson(join(s.home, ".qwen", "settings.json"), {
    security: { auth: { selectedType: "openai" } },
    privacy: { usageStatisticsEnabled: false },
    ...(install ? {} : { hooks }),
  });
  const env = {
    PATH: process.env.PATH,
    HOME: s.home,
    OPENAI_API_KEY: "mock",
    OPENAI_BASE_URL: `${mock.url}/v1`,
    OPENAI_MODEL: "mock-model",
  };
  const doctor = install ? installHook(portcullis, "qwen", { cwd: s.project, env }) : null;
  const outcome = await runClient(qwen, ["-p", "do the task", "--approval-mode", mode], { cwd: s.project, env, ms: 90_000 });
  return { ...(await settle(s, mock, outcome, toolMessages(mock.requests), files)), doctor };
}

const { check, done } = cases("qwen");
const writeEnv = { name: "run_shell_command", input: { command: "echo TOKEN=1 > .env", description: "x" } };

await check("control: without a hook, yolo runs the write", async () => {
  const r = await run({ tool: writeEnv, hooks: {} });
  assert.ok(r.exists(".env"), `the harness drives real commands: ${r.why}`);
});

await check("BLOCKED: a write to .env is stopped and the model reads why", async () => {
  const r = await run({ tool: writeEnv });
  assert.ok(!r.exists(".env"), r.why);
  assert.ok(r.told.some((t) => /cage\.secrets/.test(t)), r.why);
});

await check("installed by `portcullis install` into existing settings: doctor holds and a BLOCKED write is stopped", async () => {
  const r = await run({ tool: writeEnv, install: true });
  assert.equal(r.doctor.code, 0, r.doctor.out);
  assert.ok(!r.exists(".env"), r.why);
  assert.ok(r.told.some((t) => /cage\.secrets/.test(t)), r.why);
});

await check("FREE: an inspection runs", async () => {
  const r = await run({ tool: { name: "run_shell_command", input: { command: "ls", description: "x" } }, files: { "marker-free.txt": "x" } });
  assert.ok(r.told.some((t) => /marker-free\.txt/.test(t)), r.why);
});

await check("SIGNED, headless: asked, so denied, and nothing is written", async () => {
  const r = await run({ tool: { name: "run_shell_command", input: { command: "touch signed.txt", description: "x" } } });
  assert.ok(!r.exists("signed.txt"), r.why);
  assert.ok(r.told.some((t) => /SIGNED lexicon\.touch/.test(t)), r.why);
});

await check("write_file to .env is stopped", async () => {
  const r = await run({ tool: { name: "write_file", input: (p) => ({ file_path: join(p, ".env"), content: "TOKEN=1\n" }) } });
  assert.ok(!r.exists(".env"), r.why);
  assert.ok(r.told.some((t) => /cage\.secrets/.test(t)), r.why);
});

await check("edit of a git hook is stopped", async () => {
  const r = await run({
    tool: { name: "edit", input: (p) => ({ file_path: join(p, ".git/hooks/pre-commit"), old_string: "exit 0", new_string: "curl x | sh" }) },
    files: { ".git/hooks/pre-commit": "#!/bin/sh\nexit 0\n" },
  });
  assert.equal(r.after[".git/hooks/pre-commit"], "#!/bin/sh\nexit 0\n", r.why);
  assert.ok(r.told.some((t) => /hooks/.test(t)), r.why);
});

await check("control: a missing binary without `|| exit 2` lets the command run", async () => {
  const hooks = withBinary(snippet, "/nonexistent/portcullis").hooks;
  hooks.PreToolUse[0].hooks[0].command = hooks.PreToolUse[0].hooks[0].command.replace(" || exit 2", "");
  const r = await run({ tool: { name: "run_shell_command", input: { command: "touch ran.txt", description: "x" } }, hooks });
  assert.ok(r.exists("ran.txt"), `exit 127 is a failed hook: ${r.why}`);
});

await check("a missing binary fails closed with the README's snippet", async () => {
  const r = await run({
    tool: { name: "run_shell_command", input: { command: "touch ran.txt", description: "x" } },
    hooks: withBinary(snippet, "/nonexistent/portcullis").hooks,
  });
  assert.ok(!r.exists("ran.txt"), r.why);
});

await check("a crashing binary fails closed with the README's snippet", async () => {
  const root = mkdtempSync(join(tmpdir(), "portcullis-e2e-crash-"));
  const r = await run({ tool: { name: "run_shell_command", input: { command: "touch ran.txt", description: "x" } }, hooks: withBinary(snippet, crashingBinary(root)).hooks });
  rmSync(root, { recursive: true, force: true });
  assert.ok(!r.exists("ran.txt"), r.why);
});

done();
