// End to end inside the real Gemini CLI: `gemini -p --approval-mode yolo`
// against the mock Gemini API (mock-gemini.mjs) on 127.0.0.1, with the
// README's `~/.gemini/settings.json` snippet as its hook, in a scratch
// home (GEMINI_CLI_HOME) and project. The model asks for one function
// call; what happened on disk and what the model was told are checked.
//
// Run: GEMINI_BIN=…/gemini PORTCULLIS_BIN=target/x86_64-unknown-linux-gnu/release/portcullis node tests/e2e/gemini.mjs
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cases, crashingBinary, readmeSnippet, runClient, installHook, scratch, settle, withBinary, writeJson } from "./lib.mjs";
import { functionResponses, start } from "./mock-gemini.mjs";

const gemini = process.env.GEMINI_BIN;
const portcullis = process.env.PORTCULLIS_BIN;
assert.ok(gemini && existsSync(gemini), "GEMINI_BIN names the gemini binary");
assert.ok(portcullis && existsSync(portcullis), "PORTCULLIS_BIN names the portcullis binary");
const snippet = readmeSnippet("gemini");

/**
 * Runs `gemini -p` in yolo mode with `hooks` (the README's by default),
 * the model asking for `tool`; resolves to what the run left behind.
 */
async function run({ tool, hooks = withBinary(snippet, portcullis).hooks, files = {}, install = false }) {
  const s = scratch("gemini", files);
  const input = typeof tool.input === "function" ? tool.input(s.project) : tool.input;
  const mock = await start({ name: tool.name, input });
  writeJson(join(s.home, ".gemini", "settings.json"), {
    security: { auth: { selectedType: "gemini-api-key" } },
    privacy: { usageStatisticsEnabled: false },
    ...(install ? {} : { hooks }),
  });
  const env = {
    PATH: process.env.PATH,
    HOME: s.home,
    GEMINI_CLI_HOME: s.home,
    GOOGLE_GEMINI_BASE_URL: mock.url,
    GEMINI_API_KEY: "mock",
    GEMINI_CLI_TRUST_WORKSPACE: "true",
  };
  const args = ["-p", "do the task", "--approval-mode", "yolo", "-o", "json"];
  const doctor = install ? installHook(portcullis, "gemini", { cwd: s.project, env }) : null;
  const outcome = await runClient(gemini, args, { cwd: s.project, env, ms: 90_000 });
  return { ...(await settle(s, mock, outcome, functionResponses(mock.requests), files)), doctor };
}

const { check, done } = cases("gemini");
const shell = (command) => ({ name: "run_shell_command", input: { command, description: "x" } });

await check("control: without a hook, yolo runs the write", async () => {
  const r = await run({ tool: shell("echo TOKEN=1 > .env"), hooks: {} });
  assert.ok(r.exists(".env"), `the harness drives real commands: ${r.why}`);
});

await check("BLOCKED: a write to .env is stopped and the model reads why", async () => {
  const r = await run({ tool: shell("echo TOKEN=1 > .env") });
  assert.ok(!r.exists(".env"), r.why);
  assert.ok(r.told.some((t) => /Tool execution blocked: .*cage\.secrets/.test(t)), r.why);
});

await check("installed by `portcullis install` into existing settings: doctor holds and a BLOCKED write is stopped", async () => {
  const r = await run({ tool: shell("echo TOKEN=1 > .env"), install: true });
  assert.equal(r.doctor.code, 0, r.doctor.out);
  assert.ok(!r.exists(".env"), r.why);
  assert.ok(r.told.some((t) => /Tool execution blocked: .*cage\.secrets/.test(t)), r.why);
});

await check("FREE: an inspection runs", async () => {
  const r = await run({ tool: shell("ls"), files: { "marker-free.txt": "x" } });
  assert.ok(r.told.some((t) => /marker-free\.txt/.test(t)), r.why);
});

await check("SIGNED under -p: denied with the reason, no hang, nothing written", async () => {
  const r = await run({ tool: shell("touch signed.txt") });
  assert.equal(r.timedOut, false, r.why);
  assert.ok(!r.exists("signed.txt"), r.why);
  assert.ok(r.told.some((t) => /SIGNED lexicon\.touch/.test(t)), r.why);
});

// Gemini CLI refuses a write_file to `.env` itself, before any hook, so
// the CI configuration stands in for a protected path.
const writeCi = { name: "write_file", input: { file_path: ".github/workflows/ci.yml", content: "on: push\n" } };

await check("control: without a hook, write_file creates the CI configuration", async () => {
  const r = await run({ tool: writeCi, hooks: {} });
  assert.ok(r.exists(".github"), r.why);
});

await check("write_file to the CI configuration (a relative path) is stopped", async () => {
  const r = await run({ tool: writeCi });
  assert.ok(!r.exists(".github"), r.why);
  assert.ok(r.told.some((t) => /Tool execution blocked: .*cage\.ci_config/.test(t)), r.why);
});

await check("replace in the CI configuration is stopped", async () => {
  const ci = ".github/workflows/ci.yml";
  const r = await run({
    tool: {
      name: "replace",
      input: (p) => ({ file_path: join(p, ci), instruction: "x", old_string: "on: push", new_string: "on: pull_request_target" }),
    },
    files: { [ci]: "on: push\n" },
  });
  assert.equal(r.after[ci], "on: push\n", r.why);
  assert.ok(r.told.some((t) => /Tool execution blocked: .*cage\.ci_config/.test(t)), r.why);
});

await check("a missing binary fails closed with the README's snippet", async () => {
  const r = await run({ tool: shell("touch ran.txt"), hooks: withBinary(snippet, "/nonexistent/portcullis").hooks });
  assert.ok(!r.exists("ran.txt"), r.why);
  assert.ok(r.told.some((t) => /Tool execution blocked/.test(t)), r.why);
});

await check("a crashing binary fails closed with the README's snippet", async () => {
  const root = mkdtempSync(join(tmpdir(), "portcullis-e2e-crash-"));
  const r = await run({ tool: shell("touch ran.txt"), hooks: withBinary(snippet, crashingBinary(root)).hooks });
  rmSync(root, { recursive: true, force: true });
  assert.ok(!r.exists("ran.txt"), r.why);
});

done();
