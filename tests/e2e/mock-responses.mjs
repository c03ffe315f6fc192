// A mock OpenAI Responses API on 127.0.0.1 for end-to-end runs of Codex
// CLI: the first turn asks for one tool call (the tool and input given to
// `start`: a function call with JSON arguments, or, when the input is a
// string, a freeform `custom_tool_call` such as `apply_patch`), every later
// turn (one whose input carries a tool call's output) ends with a short
// text. Replies are streamed as server-sent events. Every request body is
// kept.
import { notFound, serve } from "./lib.mjs";

const usage = {
  input_tokens: 10,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 15,
};

/** Starts the server; resolves to `{ url, requests, close }`. */
export function start(tool) {
  let calls = 0;
  return serve((req, body, res) => {
    if (!req.url.endsWith("/responses")) {
      notFound(res, { error: { message: "mock: not found" } });
      return;
    }
    const freeform = typeof tool.input === "string";
    const offered = (body.tools || []).some((t) => t.name === tool.name && (t.type === "custom") === freeform);
    const answered = (body.input || []).some((item) => /_call_output$/.test(item.type || ""));
    let item;
    if (offered && !answered) {
      calls++;
      item = freeform
        ? { type: "custom_tool_call", id: `ctc_mock_${calls}`, call_id: `call_mock_${calls}`, name: tool.name, input: tool.input, status: "completed" }
        : { type: "function_call", id: `fc_mock_${calls}`, call_id: `call_mock_${calls}`, name: tool.name, arguments: JSON.stringify(tool.input), status: "completed" };
    } else {
      item = { type: "message", id: "msg_mock", role: "assistant", status: "completed", content: [{ type: "output_text", text: "done", annotations: [] }] };
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    const response = { id: "resp_mock", object: "response", status: "in_progress", model: body.model, output: [] };
    send("response.created", { response });
    send("response.output_item.added", { output_index: 0, item });
    send("response.output_item.done", { output_index: 0, item });
    send("response.completed", { response: { ...response, status: "completed", output: [item], usage } });
    res.end();
  });
}

/** What the model was shown of each tool call's output, in order. */
export function callOutputs(requests) {
  const seen = new Map();
  for (const { body } of requests) {
    for (const item of body.input || []) {
      if (!/_call_output$/.test(item.type || "")) continue;
      const output = typeof item.output === "string" ? item.output : JSON.stringify(item.output);
      seen.set(item.call_id, output);
    }
  }
  return [...seen.values()];
}
