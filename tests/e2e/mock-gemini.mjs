// A mock Gemini API (generativelanguage v1beta) on 127.0.0.1 for
// end-to-end runs of Gemini CLI: the first turn asks for one function call
// (the tool and arguments given to `start`), every later turn (one that
// carries a functionResponse) ends with a short text. The router's call
// without tools gets the JSON verdict it expects. Replies are streamed
// (`:streamGenerateContent?alt=sse`) or whole (`:generateContent`) as the
// path asks. Every request body is kept.
import { notFound, serve } from "./lib.mjs";

const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
const reply = (parts) => ({
  candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
  usageMetadata,
});

/** Starts the server; resolves to `{ url, requests, close }`. */
export function start(tool) {
  return serve((req, body, res) => {
    const streamed = req.url.includes(":streamGenerateContent");
    if (!streamed && !req.url.includes(":generateContent")) {
      notFound(res, { error: { code: 404, message: "mock: not found", status: "NOT_FOUND" } });
      return;
    }
    const offered = (body.tools || []).some((t) => (t.functionDeclarations || []).some((f) => f.name === tool.name));
    const answered = (body.contents || []).some((c) => (c.parts || []).some((p) => p.functionResponse));
    let parts;
    if (offered && !answered) parts = [{ functionCall: { name: tool.name, args: tool.input } }];
    else if (!body.tools) parts = [{ text: JSON.stringify({ complexity_reasoning: "mock", complexity_score: 10 }) }];
    else parts = [{ text: "done" }];
    if (!streamed) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(reply(parts)));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(`data: ${JSON.stringify(reply(parts))}\n\n`);
    res.end();
  });
}

/** What the model was shown of each function's result, in order. */
export function functionResponses(requests) {
  const seen = [];
  const keys = new Set();
  for (const { body } of requests) {
    for (const content of body.contents || []) {
      for (const part of content.parts || []) {
        if (!part.functionResponse) continue;
        const text = JSON.stringify(part.functionResponse.response);
        const key = `${part.functionResponse.id || part.functionResponse.name}:${text}`;
        if (keys.has(key)) continue;
        keys.add(key);
        seen.push(text);
      }
    }
  }
  return seen;
}
