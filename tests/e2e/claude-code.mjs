// End to end inside the real Claude Code client: `claude -p` runs against
// the mock model server (mock-anthropic.mjs) on 127.0.0.1, with portcullis
// as its PreToolUse hook through the README's settings snippet, in a
// scratch HOME and project. The model asks for one tool call; what
// happened on disk and what the model was told are checked.
//
// Run: CLAUDE_BIN=…/claude PORTCULLIS_BIN=target/x86_64-unknown-linux-gnu/release/portcullis node tests/e2e/claude-code.mjs
// (tests/e2e/run.sh installs the client into a cache folder first).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { installHook, runClient } from "./lib.mjs";
import { start, toolResults } from "./mock-anthropic.mjs";

const claude = process.env.CLAUDE_BIN;
const portcullis = process.env.PORTCULLIS_BIN;
assert.ok(claude && existsSync(claude), "CLAUDE_BIN names the claude binary");
assert.ok(portcullis && existsSync(portcullis), "PORTCULLIS_BIN names the portcullis binary");

/** Runs `claude -p` with a hook command; resolves to what it left behind. */
async function run({ tool, hookCommand, mode = "default", files = {}, install = false }) {
  const root = mkdtempSync(join(tmpdir(), "portcullis-e2e-claude-"));
  const home = join(root, "home");
  const project = join(root, "proj");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text);
  const settings = join(root, "settings.json");
  writeFileSync(
    settings,
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash|Write|Edit|MultiEdit|NotebookEdit|Read|Grep",
            hooks: [{ type: "command", command: hookCommand, timeout: 10 }],
          },
        ],
      },
    }),
  );
  const input = typeof tool.input === "function" ? tool.input(project) : tool.input;
  const mock = await start({ name: tool.name, input });
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_BASE_URL: mock.url,
    ANTHROPIC_API_KEY: "sk-ant-mock",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    // Claude Code refuses bypassPermissions as root outside a sandbox.
    IS_SANDBOX: "1",
  };
  // Installed: the hook lives in the user's ~/.claude/settings.json, which
  // already holds a setting of the user's own.
  if (install) {
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify({ env: { KEEP_ME: "1" } }, null, 2));
  }
  const doctor = install ? installHook(portcullis, "claude", { cwd: project, env }) : null;
  const args = ["-p", "do the task", ...(install ? [] : ["--settings", settings]), "--permission-mode", mode, "--output-format", "json"];
  const outcome = await runClient(claude, args, { cwd: project, env, ms: 90_000 });
  await mock.close();
  const results = toolResults(mock.requests);
  // What the project holds after the run, read before it is removed.
  const left = new Set(readdirSync(project));
  rmSync(root, { recursive: true, force: true });
  return { ...outcome, results, doctor, exists: (name) => left.has(name) };
}

// The README's settings snippet, exactly, with the binary's path for its
// first word.
const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "..", "..", "README.md"), "utf8");
const block = readme.slice(readme.indexOf("Without the plugin, install the binary")).split("```json")[1].split("```")[0];
const snippet = JSON.parse(block).hooks.PreToolUse[0].hooks[0].command;
assert.match(snippet, /^portcullis .*\|\| exit 2$/, snippet);
const hook = snippet.replace(/^portcullis /, `"${portcullis}" `);
let cases = 0;
const check = async (name, body) => {
  await body();
  cases++;
  console.log(`ok ${cases} - ${name}`);
};

const writeEnv = { name: "Bash", input: { command: "echo TOKEN=1 > .env", description: "x" } };

await check("control: without a guard, bypassPermissions runs the write", async () => {
  const r = await run({ tool: writeEnv, hookCommand: "true", mode: "bypassPermissions" });
  assert.equal(r.signal, null, r.stderr);
  assert.ok(r.exists(".env"), `the harness drives real commands: ${r.stdout} ${r.stderr}`);
});

for (const mode of ["default", "bypassPermissions"]) {
  await check(`BLOCKED (${mode}): a write to .env is stopped and the model reads why`, async () => {
    const r = await run({ tool: writeEnv, hookCommand: hook, mode });
    assert.equal(r.signal, null, r.stderr);
    assert.equal(r.results.length, 1, `one tool result: ${r.stdout} ${r.stderr}`);
    assert.ok(r.results[0].is_error, JSON.stringify(r.results));
    assert.match(r.results[0].content, /cage\.secrets/);
    assert.ok(!r.exists(".env"));
  });
}

await check("installed by `portcullis install` into existing settings: doctor holds and a BLOCKED write is stopped", async () => {
  const r = await run({ tool: writeEnv, install: true, mode: "bypassPermissions" });
  assert.equal(r.doctor.code, 0, r.doctor.out);
  assert.equal(r.results.length, 1, `one tool result: ${r.stdout} ${r.stderr}`);
  assert.ok(r.results[0].is_error, JSON.stringify(r.results));
  assert.match(r.results[0].content, /cage\.secrets/);
  assert.ok(!r.exists(".env"));
});

await check("FREE: an inspection runs", async () => {
  const r = await run({
    tool: { name: "Bash", input: { command: "ls", description: "x" } },
    hookCommand: hook,
    files: { "marker-free.txt": "x" },
  });
  assert.equal(r.results.length, 1, `${r.stdout} ${r.stderr}`);
  assert.ok(!r.results[0].is_error, JSON.stringify(r.results));
  assert.match(r.results[0].content, /marker-free\.txt/);
});

await check("SIGNED under -p: asked, so denied, and nothing is written", async () => {
  const r = await run({ tool: { name: "Bash", input: { command: "touch signed.txt", description: "x" } }, hookCommand: hook });
  assert.equal(r.results.length, 1, `${r.stdout} ${r.stderr}`);
  assert.ok(r.results[0].is_error, JSON.stringify(r.results));
  assert.ok(!r.exists("signed.txt"));
});

await check("the Write tool to .env is stopped", async () => {
  const r = await run({
    tool: { name: "Write", input: (project) => ({ file_path: join(project, ".env"), content: "TOKEN=1\n" }) },
    hookCommand: hook,
  });
  assert.equal(r.results.length, 1, `${r.stdout} ${r.stderr}`);
  assert.ok(r.results[0].is_error, JSON.stringify(r.results));
  assert.ok(!r.exists(".env"));
});

const allowAll =
  "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"permissionDecisionReason\":\"x\"}}'";

await check("control: a hook's allow overrides plan mode", async () => {
  const r = await run({
    tool: { name: "Bash", input: { command: "make", description: "x" } },
    hookCommand: allowAll,
    mode: "plan",
    files: { Makefile: "all:\n\ttouch built.txt\n" },
  });
  assert.ok(r.exists("built.txt"), `${r.stdout} ${r.stderr}`);
});

await check("plan mode: a FREE build is left to plan mode, which refuses it", async () => {
  const r = await run({
    tool: { name: "Bash", input: { command: "make", description: "x" } },
    hookCommand: hook,
    mode: "plan",
    files: { Makefile: "all:\n\ttouch built.txt\n" },
  });
  assert.ok(!r.exists("built.txt"), `${r.stdout} ${r.stderr}`);
});

await check("control: a missing binary without `|| exit 2` lets the command run", async () => {
  const r = await run({
    tool: { name: "Bash", input: { command: "touch ran.txt", description: "x" } },
    hookCommand: '"/nonexistent/portcullis" hook',
    mode: "bypassPermissions",
  });
  assert.ok(r.exists("ran.txt"), `exit 127 is a non-blocking error: ${r.stdout} ${r.stderr}`);
});

await check("a missing binary fails closed with the README's snippet", async () => {
  const r = await run({
    tool: { name: "Bash", input: { command: "touch ran.txt", description: "x" } },
    hookCommand: snippet.replace(/^portcullis /, '"/nonexistent/portcullis" '),
    mode: "bypassPermissions",
  });
  assert.ok(!r.exists("ran.txt"), `${r.stdout} ${r.stderr}`);
  assert.equal(r.results.length, 1);
  assert.ok(r.results[0].is_error, JSON.stringify(r.results));
});

console.log(`claude code end to end: ${cases} cases hold`);
