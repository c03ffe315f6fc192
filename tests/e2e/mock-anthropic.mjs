// A mock Anthropic Messages API on 127.0.0.1 for end-to-end runs of Claude
// Code: the first turn of a conversation asks for one tool call (the
// tool and input given to `start`), every later turn (one that carries a
// tool_result) ends with a short text. Requests without tools (titles,
// summaries) get a short text too. Every request body is kept, so a test
// can read what the model was told (the hook's reason, a tool's output).
import { notFound, serve } from "./lib.mjs";

/** Writes one server-sent event. */
function event(res, name, data) {
  res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Streams a message made of one content block. */
function stream(res, model, block, stopReason) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const usage = { input_tokens: 10, output_tokens: 5 };
  event(res, "message_start", {
    type: "message_start",
    message: { id: "msg_mock", type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage },
  });
  if (block.type === "tool_use") {
    event(res, "content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
    });
    event(res, "content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
    });
  } else {
    event(res, "content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    event(res, "content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: block.text } });
  }
  event(res, "content_block_stop", { type: "content_block_stop", index: 0 });
  event(res, "message_delta", { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
  event(res, "message_stop", { type: "message_stop" });
  res.end();
}

/** Whether the conversation already holds a tool result. */
function hasToolResult(body) {
  return (body.messages || []).some(
    (m) => Array.isArray(m.content) && m.content.some((c) => c && c.type === "tool_result"),
  );
}

/**
 * Starts the server; resolves to `{ url, requests, close }`. `tool` is
 * `{ name, input }`, the one call the model asks for.
 */
export function start(tool) {
  let calls = 0;
  return serve((req, body, res) => {
    if (!req.url.startsWith("/v1/messages")) {
      notFound(res, { type: "error", error: { type: "not_found_error", message: "mock" } });
      return;
    }
    if (req.url.startsWith("/v1/messages/count_tokens")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ input_tokens: 10 }));
      return;
    }
    const model = body.model || "claude-mock";
    const wantsTool = Array.isArray(body.tools) && body.tools.some((t) => t.name === tool.name);
    if (wantsTool && !hasToolResult(body)) {
      calls++;
      stream(res, model, { type: "tool_use", id: `toolu_mock_${calls}`, name: tool.name, input: tool.input }, "tool_use");
    } else {
      stream(res, model, { type: "text", text: "done" }, "end_turn");
    }
  });
}

/** The tool results the model received, in order: `{ content, is_error }`. */
export function toolResults(requests) {
  const seen = new Map();
  for (const { body } of requests) {
    for (const m of body.messages || []) {
      if (!Array.isArray(m.content)) continue;
      for (const c of m.content) {
        if (c && c.type === "tool_result") {
          const content = Array.isArray(c.content) ? c.content.map((p) => p.text || "").join("") : String(c.content ?? "");
          seen.set(c.tool_use_id, { content, is_error: Boolean(c.is_error) });
        }
      }
    }
  }
  return [...seen.values()];
}
