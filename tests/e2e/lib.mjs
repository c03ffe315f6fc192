// Shared by the end-to-end drivers: a JSON-over-HTTP mock on 127.0.0.1
// that keeps every request's body, a client run with a time bound, a
// scratch home and project, the README's config snippets, and the
// numbered cases.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Serves on 127.0.0.1 (a free port): each request's body is read as JSON
 * (`{}` when it is not), kept in `requests`, and handed to
 * `answer(req, body, res)`. Resolves to `{ url, requests, close }`.
 */
export function serve(answer) {
  const requests = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      let body = {};
      try {
        body = JSON.parse(raw || "{}");
      } catch {
        body = {};
      }
      requests.push({ url: req.url, body });
      answer(req, body, res);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(r);
          }),
      });
    });
  });
}

/** Answers 404 with a JSON error. */
export function notFound(res, error) {
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify(error));
}

/**
 * Runs a client to its end in `cwd` with exactly `env`, killed (with its
 * process group) after `ms`. Resolves to `{ code, signal, stdout, stderr,
 * timedOut }`.
 */
export function runClient(bin, args, { cwd, env, ms }) {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, ms);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/**
 * A scratch root holding `home/` and `proj/` (a repository: the path law's
 * rules are relative to its root), with `files` written into the project.
 * Returns `{ root, home, project, left, read, remove }`: `left()` lists
 * what the project holds, `read(name)` a project file's text (null when
 * it is not there), `remove()` deletes the root.
 */
export function scratch(prefix, files = {}) {
  const root = mkdtempSync(join(tmpdir(), `portcullis-e2e-${prefix}-`));
  const home = join(root, "home");
  const project = join(root, "proj");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, ".git"), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(project, name)), { recursive: true });
    writeFileSync(join(project, name), text);
  }
  return {
    root,
    home,
    project,
    left: () => new Set(readdirSync(project)),
    read: (name) => (existsSync(join(project, name)) ? readFileSync(join(project, name), "utf8") : null),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * What one client run left behind, once its mock server `mock` is closed
 * and before the scratch `s` is removed: the client's `outcome`, what the
 * model was `told`, the project's `files` as they are `after` the run,
 * `exists(name)`, `why` (a summary for failed assertions), and `extra`.
 */
export async function settle(s, mock, outcome, told, files, extra = {}) {
  await mock.close();
  const left = s.left();
  const after = Object.fromEntries(Object.keys(files).map((name) => [name, s.read(name)]));
  s.remove();
  const notes = Object.entries(extra).map(([k, v]) => `${k} ${[...v].join(",")}; `).join("");
  const why = `${mock.requests.length} requests (timed out: ${outcome.timedOut}); ${notes}told ${JSON.stringify(told)}; ${outcome.stdout.slice(-1500)} ${outcome.stderr.slice(-2500)}`;
  return { ...outcome, ...extra, told, why, after, exists: (name) => left.has(name) };
}

/** Writes `value` as JSON at `path`, making its folder. */
export function writeJson(path, value) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2));
}

const readmePath = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "README.md");

/**
 * The JSON code block that follows the marker `<!-- e2e:ID -->` in the
 * README, parsed: the drivers configure each client with exactly what the
 * README tells a user to paste.
 */
export function readmeSnippet(id) {
  const readme = readFileSync(readmePath, "utf8");
  const marker = `<!-- e2e:${id} -->`;
  const at = readme.indexOf(marker);
  assert.ok(at >= 0, `README has the marker ${marker}`);
  const block = readme.slice(at + marker.length).split("```json")[1].split("```")[0];
  return JSON.parse(block);
}

/**
 * `snippet` with the binary's path in place of the word `portcullis`:
 * at the start of a shell command (quoted) and as an `exec`.
 */
export function withBinary(snippet, bin) {
  return JSON.parse(
    JSON.stringify(snippet, (key, value) => {
      if (typeof value !== "string") return value;
      if (key === "exec" && value === "portcullis") return bin;
      if (key === "command" && value.startsWith("portcullis ")) return `"${bin}" ${value.slice("portcullis ".length)}`;
      return value;
    }),
  );
}

/**
 * A stand-in for a portcullis that crashes (killed by SIGSEGV before it
 * answers), in a folder of its own under `root`. Returns its path.
 */
export function crashingBinary(root) {
  const bin = join(root, "crash", "portcullis");
  mkdirSync(dirname(bin), { recursive: true });
  writeFileSync(bin, "#!/bin/sh\nkill -SEGV $$\n", { mode: 0o755 });
  return bin;
}

/**
 * Runs `portcullis install --host HOST` as a person would, in `cwd` with
 * exactly `env` (the client's), then `portcullis doctor --host HOST`.
 * Asserts install succeeded; resolves to doctor's exit code and report.
 */
export function installHook(bin, host, { cwd, env }) {
  const run = (args) => {
    try {
      return { code: 0, out: execFileSync(bin, args, { cwd, env, encoding: "utf8", timeout: 60_000 }) };
    } catch (e) {
      return { code: e.status ?? -1, out: `${e.stdout || ""}${e.stderr || ""}` };
    }
  };
  const installed = run(["install", "--host", host]);
  assert.equal(installed.code, 0, `portcullis install --host ${host}: ${installed.out}`);
  return run(["doctor", "--host", host]);
}

/** Numbered cases: `check(name, body)` runs one and prints `ok N - name`. */
export function cases(host) {
  let count = 0;
  return {
    check: async (name, body) => {
      await body();
      count++;
      console.log(`ok ${count} - ${name}`);
    },
    done: () => console.log(`${host} end to end: ${count} cases hold`),
  };
}
