// End to end inside the real OpenCode client: `opencode run` against the
// mock Chat Completions server (mock-openai.mjs) on 127.0.0.1, with the
// plugin integrations/opencode/portcullis.js loaded from the project's
// .opencode/plugins/ by OpenCode's own loader, in a scratch HOME and
// project. The model asks for one tool call; what happened on disk and
// what the model was told are checked.
//
// Run: OPENCODE_BIN=…/opencode PORTCULLIS_BIN=target/release/portcullis node tests/e2e/opencode.mjs
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runClient } from "./lib.mjs";
import { start, toolMessages } from "./mock-openai.mjs";

const opencode = process.env.OPENCODE_BIN;
const portcullis = process.env.PORTCULLIS_BIN;
assert.ok(opencode && existsSync(opencode), "OPENCODE_BIN names the opencode binary");
assert.ok(portcullis && existsSync(portcullis), "PORTCULLIS_BIN names the portcullis binary");
const plugin = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "integrations", "opencode", "portcullis.js");

/** Runs `opencode run`; resolves to what it left behind. */
async function run({ tool, model = "mock-model", withPlugin = true, env: extra = {} }) {
  const root = mkdtempSync(join(tmpdir(), "portcullis-e2e-opencode-"));
  const home = join(root, "home");
  const project = join(root, "proj");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, ".opencode", "plugins"), { recursive: true });
  // A repository, as a real project is: the path law's rules are
  // relative to its root.
  mkdirSync(join(project, ".git"));
  if (withPlugin) copyFileSync(plugin, join(project, ".opencode", "plugins", "portcullis.js"));
  const mock = await start(tool);
  writeFileSync(
    join(project, "opencode.json"),
    JSON.stringify({
      $schema: "https://opencode.ai/config.json",
      provider: {
        mock: {
          npm: "@ai-sdk/openai-compatible",
          name: "mock",
          options: { baseURL: `${mock.url}/v1`, apiKey: "mock" },
          models: { [model]: { name: model } },
        },
      },
      model: `mock/${model}`,
      permission: { bash: "allow", edit: "allow" },
    }),
  );
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: process.env.PORTCULLIS_E2E_OPENCODE_CACHE || join(home, ".cache"),
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_SHARE: "1",
    PORTCULLIS_BIN: portcullis,
    ...extra,
  };
  const outcome = await runClient(opencode, ["run", "do the task"], { cwd: project, env, ms: 120_000 });
  await mock.close();
  const told = toolMessages(mock.requests);
  const left = new Set(readdirSync(project));
  rmSync(root, { recursive: true, force: true });
  return { ...outcome, told, exists: (name) => left.has(name), requests: mock.requests.length };
}

let cases = 0;
const check = async (name, body) => {
  await body();
  cases++;
  console.log(`ok ${cases} - ${name}`);
};
const writeEnv = { name: "bash", input: { command: "echo TOKEN=1 > .env", description: "write env" } };

await check("control: without the plugin the write happens", async () => {
  const r = await run({ tool: writeEnv, withPlugin: false });
  assert.ok(r.exists(".env"), `the harness drives real commands (${r.requests} requests): ${r.stdout} ${r.stderr.slice(-2000)}`);
});

await check("BLOCKED: the plugin stops the write and the model reads why", async () => {
  const r = await run({ tool: writeEnv });
  assert.ok(!r.exists(".env"), `${r.stdout} ${r.stderr.slice(-2000)}`);
  assert.ok(r.told.some((t) => /cage\.secrets/.test(t)), JSON.stringify(r.told));
});

await check("a relative workdir is resolved: .opencode/plugins is executable configuration", async () => {
  const r = await run({
    tool: { name: "bash", input: { command: "echo 'export default {}' > evil.js", description: "x", workdir: ".opencode/plugins" } },
  });
  assert.ok(r.told.some((t) => /trust\.executable/.test(t)), JSON.stringify(r.told));
});

await check("FREE: an inspection runs", async () => {
  const r = await run({ tool: { name: "bash", input: { command: "echo portcullis-free-ran", description: "x" } } });
  assert.ok(r.told.some((t) => /portcullis-free-ran/.test(t)), JSON.stringify(r.told));
});

await check("apply_patch (GPT-5 style models): adding .env is stopped", async () => {
  const r = await run({
    model: "gpt-5-mock",
    tool: { name: "apply_patch", input: { patchText: "*** Begin Patch\n*** Add File: .env\n+TOKEN=1\n*** End Patch\n" } },
  });
  assert.ok(r.requests > 0);
  assert.ok(!r.exists(".env"), `${r.stdout} ${r.stderr.slice(-2000)}`);
  assert.ok(r.told.some((t) => /cage\.secrets/.test(t)), JSON.stringify(r.told));
});

await check("a missing binary blocks", async () => {
  const r = await run({ tool: writeEnv, env: { PORTCULLIS_BIN: "/nonexistent/portcullis" } });
  assert.ok(!r.exists(".env"), `${r.stdout} ${r.stderr.slice(-2000)}`);
});

console.log(`opencode end to end: ${cases} cases hold`);
