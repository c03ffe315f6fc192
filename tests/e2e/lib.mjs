// Shared by the end-to-end drivers: a JSON-over-HTTP mock on 127.0.0.1
// that keeps every request's body, and a client run with a time bound.
import { spawn } from "node:child_process";
import { createServer } from "node:http";

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
      resolve({ url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/** Answers 404 with a JSON error. */
export function notFound(res, error) {
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify(error));
}

/**
 * Runs a client to its end in `cwd` with exactly `env`, killed after `ms`.
 * Resolves to `{ code, signal, stdout, stderr }`.
 */
export function runClient(bin, args, { cwd, env, ms }) {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
