// Loads the plugin as OpenCode does (an async factory returning hooks) and
// calls its tool.execute.before against the real binary: a FREE, a SIGNED
// and a BLOCKED call, a write to a protected path, both SIGNED modes, and a
// missing binary (blocked, never let through).
// Run: PORTCULLIS_BIN=target/release/portcullis node integrations/opencode/test.mjs
import assert from "node:assert/strict";
import { Portcullis } from "./portcullis.js";

const hooks = await Portcullis({ directory: "/tmp" });
const before = hooks["tool.execute.before"];
const call = (tool, args) => before({ tool, sessionID: "s", callID: "c" }, { args });

await call("bash", { command: "git status" });
await call("read", { filePath: "/tmp/notes.txt" });
await call("glob", { pattern: "*.rs" });
await assert.rejects(call("bash", { command: "rm -rf ~" }), /BLOCKED this \(floor\.rm\.home\)/);
await assert.rejects(call("write", { filePath: "/tmp/proj/.env" }), /BLOCKED this \(cage\.secrets\)/);
await assert.rejects(call("bash", { command: "git push origin main" }), /needs a person's sign-off/);
process.env.PORTCULLIS_OPENCODE_SIGNED = "defer";
await call("bash", { command: "git push origin main" });
await assert.rejects(call("bash", { command: "git reset --hard" }), /BLOCKED/);
process.env.PORTCULLIS_BIN = "/nonexistent/portcullis";
await assert.rejects(call("bash", { command: "ls" }), /could not judge this call/);
console.log("opencode plugin: 10 calls judged as expected");
