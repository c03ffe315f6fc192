// End to end inside the real OpenCode client: `opencode run` against the
// mock Chat Completions server (mock-openai.mjs) on 127.0.0.1, with the
// plugin integrations/opencode/portcullis.js loaded from the project's
// .opencode/plugins/ by OpenCode's own loader, in a scratch HOME and
// project. The model asks for one tool call; what happened on disk and
// what the model was told are checked.
//
// Run: OPENCODE_BIN=…/opencode PORTCULLIS_BIN=target/x86_64-unknown-linux-gnu/release/portcullis node tests/e2e/opencode.mjs
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, symlinkSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { installHook, runClient } from "./lib.mjs";
import { start, toolMessages } from "./mock-openai.mjs";

const opencode = process.env.OPENCODE_BIN;
const portcullis = process.env.PORTCULLIS_BIN;
assert.ok(opencode && existsSync(opencode), "OPENCODE_BIN names the opencode binary");
assert.ok(portcullis && existsSync(portcullis), "PORTCULLIS_BIN names the portcullis binary");
const plugin = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "integrations", "opencode", "portcullis.js");

// OpenCode's grep tool runs ripgrep from PATH (it cannot fetch its own
// offline): run.sh names the one the Codex package ships.
const searchPath = (first) => [first, process.env.PORTCULLIS_E2E_RG_DIR, process.env.PATH].filter(Boolean).join(":");
const hasRipgrep = (() => {
  try {
    execFileSync("rg", ["--version"], { env: { PATH: searchPath() }, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

// OpenCode gives every folder that holds plugins or config
// (.opencode/ and ~/.config/opencode/) the @opencode-ai/plugin package of
// its own version, installing it when the folder has none: in a fresh
// scratch project that is 5 to 15 s of CPU a case, a third of the whole
// end-to-end run. A real project pays it once, so each case starts as a
// project OpenCode has run in before: the package installed once into a
// cached folder (PORTCULLIS_E2E_OPENCODE_DEPS, from run.sh) and linked in.
const depsDir = process.env.PORTCULLIS_E2E_OPENCODE_DEPS;
function prepareDeps() {
  if (!depsDir) return null;
  const version = execFileSync(opencode, ["--version"], { encoding: "utf8" }).trim();
  const manifest = JSON.stringify({ dependencies: { "@opencode-ai/plugin": version } }, null, 2);
  const manifestPath = join(depsDir, "package.json");
  const ready = existsSync(join(depsDir, "node_modules", "@opencode-ai", "plugin")) && existsSync(manifestPath) && readFileSync(manifestPath, "utf8") === manifest;
  if (!ready) {
    rmSync(depsDir, { recursive: true, force: true });
    mkdirSync(depsDir, { recursive: true });
    writeFileSync(manifestPath, manifest);
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--silent"], { cwd: depsDir, stdio: "inherit", timeout: 300_000 });
  }
  return manifest;
}
const depsManifest = prepareDeps();
function seedDeps(dir) {
  if (!depsManifest) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), depsManifest);
  copyFileSync(join(depsDir, "package-lock.json"), join(dir, "package-lock.json"));
  symlinkSync(join(depsDir, "node_modules"), join(dir, "node_modules"));
}

/** Runs `opencode run`; resolves to what it left behind. */
async function run({ tool, model = "mock-model", withPlugin = true, env: extra = {}, permission = { bash: "allow", edit: "allow" }, files = {}, install = false }) {
  const root = mkdtempSync(join(tmpdir(), "portcullis-e2e-opencode-"));
  const home = join(root, "home");
  const project = join(root, "proj");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, ".opencode", "plugins"), { recursive: true });
  // A repository, as a real project is: the path law's rules are
  // relative to its root.
  mkdirSync(join(project, ".git"));
  if (withPlugin) copyFileSync(plugin, join(project, ".opencode", "plugins", "portcullis.js"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text);
  // An unknown program on PATH, that leaves a mark when it runs.
  const bin = join(root, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "frobnicate"), "#!/bin/sh\ntouch ran.txt\n", { mode: 0o755 });
  seedDeps(join(project, ".opencode"));
  seedDeps(join(home, ".config", "opencode"));
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
      permission,
    }),
  );
  const env = {
    PATH: searchPath(bin),
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
  // Installed: the plugin goes to ~/.config/opencode/plugins/.
  const doctor = install ? installHook(portcullis, "opencode", { cwd: project, env }) : null;
  const outcome = await runClient(opencode, ["run", "do the task"], { cwd: project, env, ms: 120_000 });
  await mock.close();
  const told = toolMessages(mock.requests);
  const left = new Set(readdirSync(project));
  const after = Object.fromEntries(Object.keys(files).map((name) => [name, existsSync(join(project, name)) ? readFileSync(join(project, name), "utf8") : null]));
  rmSync(root, { recursive: true, force: true });
  return { ...outcome, told, after, doctor, exists: (name) => left.has(name), requests: mock.requests.length };
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

await check("installed by `portcullis install` for every project: doctor holds and the write is stopped", async () => {
  const r = await run({ tool: writeEnv, withPlugin: false, install: true });
  assert.equal(r.doctor.code, 0, r.doctor.out);
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

const grepToken = { name: "grep", input: { pattern: "TOKEN" } };
const secrets = { ".env": "TOKEN=hunter2\n", "app.js": "const t = process.env.TOKEN;\n" };

if (!hasRipgrep) console.log("!! the two grep cases are skipped: no ripgrep on PATH or in PORTCULLIS_E2E_RG_DIR");
else await check("control: without the plugin, grep shows the model a secret from .env", async () => {
  const r = await run({ tool: grepToken, withPlugin: false, files: secrets });
  assert.ok(r.told.some((t) => /hunter2/.test(t)), JSON.stringify(r.told));
});

if (hasRipgrep) await check("grep: matches inside .env are redacted, the others kept", async () => {
  const r = await run({ tool: grepToken, files: secrets });
  assert.ok(!r.told.some((t) => /hunter2/.test(t)), JSON.stringify(r.told));
  assert.ok(r.told.some((t) => /redacted by portcullis/.test(t) && /process\.env\.TOKEN/.test(t)), JSON.stringify(r.told));
});

// Defer mode with the rules `portcullis opencode-permissions` prints.
const permissionBlock = JSON.parse(execFileSync(portcullis, ["opencode-permissions"], { encoding: "utf8" })).permission;
const defer = { PORTCULLIS_OPENCODE_SIGNED: "defer" };
const unknown = { name: "bash", input: { command: "frobnicate", description: "x" } };

await check("control: defer mode without the rules lets an UNKNOWN command run", async () => {
  const r = await run({ tool: unknown, env: defer });
  assert.ok(r.exists("ran.txt"), `${r.stdout} ${r.stderr.slice(-2000)}`);
});

await check("defer mode with the printed rules: an UNKNOWN command is asked, so refused by opencode run", async () => {
  const r = await run({ tool: unknown, env: defer, permission: permissionBlock });
  assert.ok(!r.exists("ran.txt"), `${r.stdout} ${r.stderr.slice(-2000)}`);
});

await check("defer mode with the printed rules: a SIGNED command is asked, so refused", async () => {
  const r = await run({ tool: { name: "bash", input: { command: "touch signed.txt", description: "x" } }, env: defer, permission: permissionBlock });
  assert.ok(!r.exists("signed.txt"), `${r.stdout} ${r.stderr.slice(-2000)}`);
});

await check("defer mode with the printed rules: a reading verb with a writing flag (sed -i) is asked, so refused", async () => {
  const r = await run({
    tool: { name: "bash", input: { command: "sed -i s/a/b/ notes.txt", description: "x" } },
    env: defer,
    permission: permissionBlock,
    files: { "notes.txt": "a\n" },
  });
  assert.ok(r.requests > 0);
  assert.equal(r.after["notes.txt"], "a\n", `${r.stdout} ${r.stderr.slice(-2000)}`);
});

await check("defer mode with the printed rules: a redirect OpenCode would allow (echo > file) is blocked by the plugin", async () => {
  const r = await run({
    tool: { name: "bash", input: { command: "echo b > notes.txt", description: "x" } },
    env: defer,
    permission: permissionBlock,
    files: { "notes.txt": "a\n" },
  });
  assert.equal(r.after["notes.txt"], "a\n", `${r.stdout} ${r.stderr.slice(-2000)}`);
  assert.ok(r.told.some((t) => /would not ask for this one/.test(t)), JSON.stringify(r.told));
});

await check("defer mode with the printed rules: a FREE command runs", async () => {
  const r = await run({ tool: { name: "bash", input: { command: "echo portcullis-free-ran", description: "x" } }, env: defer, permission: permissionBlock });
  assert.ok(r.told.some((t) => /portcullis-free-ran/.test(t)), JSON.stringify(r.told));
});

console.log(`opencode end to end: ${cases} cases hold`);
