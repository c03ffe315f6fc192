// A mock OpenAI Chat Completions API on 127.0.0.1 for end-to-end runs of
// clients that speak it (OpenCode, Copilot, Qwen): the first turn asks for
// one tool call (the tool and arguments given to `start`), every later
// turn (one that carries a tool message) ends with a short text, streamed
// or not as the request asks. A tool whose `input` is a string is called as
// a freeform `custom` tool (the patch tools of GPT-5 style models). Every
// request body is kept.
import { notFound, serve } from "./lib.mjs";

const chunk = (delta, finish) => ({
  id: "chatcmpl-mock",
  object: "chat.completion.chunk",
  created: 0,
  model: "mock-model",
  choices: [{ index: 0, delta, finish_reason: finish }],
});

/** Starts the server; resolves to `{ url, requests, close }`. */
export function start(tool) {
  let calls = 0;
  return serve((req, body, res) => {
    if (!req.url.endsWith("/chat/completions")) {
      notFound(res, { error: { message: "mock: not found" } });
      return;
    }
    const messages = body.messages || [];
    const freeform = typeof tool.input === "string";
    const offered = (body.tools || []).some((t) => (freeform ? t.custom : t.function)?.name === tool.name);
    const answered = messages.some((m) => m.role === "tool");
    const call = offered && !answered;
    if (call) calls++;
    const toolCall = freeform
      ? { index: 0, id: `call_mock_${calls}`, type: "custom", custom: { name: tool.name, input: tool.input } }
      : { index: 0, id: `call_mock_${calls}`, type: "function", function: { name: tool.name, arguments: JSON.stringify(tool.input) } };
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      const message = call
        ? { role: "assistant", content: null, tool_calls: [{ ...toolCall, index: undefined }] }
        : { role: "assistant", content: "done" };
      res.end(
        JSON.stringify({
          id: "chatcmpl-mock",
          object: "chat.completion",
          created: 0,
          model: "mock-model",
          choices: [{ index: 0, message, finish_reason: call ? "tool_calls" : "stop" }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (data) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    if (call) {
      send(chunk({ role: "assistant", tool_calls: [toolCall] }, null));
      send(chunk({}, "tool_calls"));
    } else {
      send(chunk({ role: "assistant", content: "done" }, null));
      send(chunk({}, "stop"));
    }
    send({ ...chunk({}, null), choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
    res.write("data: [DONE]\n\n");
    res.end();
  });
}

/** The tool messages the model received, in order (their text). */
export function toolMessages(requests) {
  const seen = new Map();
  for (const { body } of requests) {
    for (const m of body.messages || []) {
      if (m.role !== "tool") continue;
      const text = Array.isArray(m.content) ? m.content.map((p) => p.text || "").join("") : String(m.content ?? "");
      seen.set(m.tool_call_id, text);
    }
  }
  return [...seen.values()];
}
