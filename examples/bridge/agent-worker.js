// @ts-check
/**
 * The worker side of the bridge examples, one plain ES module for every runtime: a Web Worker in
 * Chromium, a Deno or Bun worker, or a Node `worker_threads` worker. The session lives here — its
 * tools and the scripted model (an in-process fetch) never cross to the main thread.
 */
import { defineTool } from "wisp-agent";
import { serveSession } from "wisp-agent/bridge";
import { createScriptedModel } from "wisp-agent/testing";

/**
 * The text of the last user message of an Anthropic request, and whether it carries tool results.
 * @param {unknown} body
 */
function lastTurn(body) {
  const messages = /** @type {{ messages?: { role: string, content: unknown }[] }} */ (body).messages ?? [];
  const content = messages.at(-1)?.content;
  const blocks = /** @type {{ type: string, text?: string, content?: unknown }[]} */ (
    Array.isArray(content) ? content : [{ type: "text", text: String(content ?? "") }]
  );
  const text = blocks.map((block) => (block.type === "text" ? (block.text ?? "") : "")).join("");
  const results = blocks
    .filter((block) => block.type === "tool_result")
    .map((block) => String(block.content));
  return { text, results };
}

const model = createScriptedModel({
  respond: (request) => {
    const { text, results } = lastTurn(request.body);
    if (results.length > 0) return { content: [{ type: "text", text: `Done: ${results.join("; ")}` }] };
    if (text.startsWith("look up ")) {
      return { content: [{ type: "tool_call", name: "lookup", args: { q: text.slice("look up ".length) } }] };
    }
    const send = /^send "(.*)" to (\w+)$/.exec(text);
    if (send)
      return {
        content: [
          { type: "tool_call", name: "send_message", args: { to: send[2] ?? "", text: send[1] ?? "" } },
        ],
      };
    if (text === "tell a long story") {
      // Many small deltas, slowly: time to abort, or to end the worker, mid-stream.
      return { content: [{ type: "text", text: "Once upon a time ".repeat(400) }], delayMs: 5 };
    }
    if (text === "use a bad key")
      return { fault: { type: "http", status: 401, message: "invalid x-api-key" } };
    return { content: [{ type: "text", text: `Hello from the worker. You said: ${text}` }] };
  },
});

const lookup = defineTool({
  name: "lookup",
  description: "Looks a word up",
  inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  execute: ({ q }) => `found ${q}`,
});

const sendMessage = defineTool({
  name: "send_message",
  description: "Sends a message to someone",
  inputSchema: {
    type: "object",
    properties: { to: { type: "string" }, text: { type: "string" } },
    required: ["to", "text"],
  },
  needsApproval: true,
  execute: ({ to, text }) => `sent "${text}" to ${to}`,
});

/** `self` in a Web, Deno or Bun worker; `parentPort` in a Node worker thread. */
async function workerPort() {
  const inNode =
    typeof globalThis.process?.versions?.node === "string" &&
    !("Bun" in globalThis) &&
    !("Deno" in globalThis);
  if (!inNode) return /** @type {any} */ (globalThis);
  const { parentPort } = await import("node:worker_threads");
  return /** @type {any} */ (parentPort);
}

serveSession(await workerPort(), {
  model: "anthropic/claude-sonnet-5-5",
  apiKey: "scripted",
  fetch: model.fetch,
  retry: { maxRetries: 0 },
  tools: [lookup, sendMessage],
});
