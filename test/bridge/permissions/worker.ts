/**
 * The worker side of the permissions scenario (scenario.ts), one module for a Node `worker_threads`
 * worker and a module Web Worker in Chromium: a session with a read-only tool and a writing tool that
 * asks, a scripted model that answers by prompt, and an `approvalSecret`, served over the bridge.
 */

import { defineTool } from "../../../src/agent/define-tool.ts";
import { serveSession } from "../../../src/bridge/index.ts";
import { createScriptedModel } from "../../../src/testing/index.ts";
import { workerPort } from "../../support/bridge-worker-port.ts";

/** The secret the worker signs with (a test's; a real one comes from the server's environment). */
const WORKER_SECRET = "permissions-scenario-secret";

/** The last message of an Anthropic request: its text, and the tool results it carries. */
function lastTurn(body: unknown): { text: string; results: string[] } {
  const messages = (body as { messages?: { content: unknown }[] }).messages ?? [];
  const content = messages.at(-1)?.content;
  const blocks = (Array.isArray(content) ? content : [{ type: "text", text: String(content) }]) as {
    type: string;
    text?: string;
    content?: unknown;
  }[];
  return {
    text: blocks.map((block) => (block.type === "text" ? (block.text ?? "") : "")).join(""),
    results: blocks.filter((block) => block.type === "tool_result").map((block) => String(block.content)),
  };
}

const model = createScriptedModel({
  respond: (request) => {
    const { text, results } = lastTurn(request.body);
    if (results.length > 0) return { content: [{ type: "text", text: `Done: ${results.join("; ")}` }] };
    const read = { type: "tool_call" as const, name: "read", args: { path: "a" } };
    const write = { type: "tool_call" as const, name: "write", args: { path: "b" } };
    if (text === "read and write") return { content: [read, write] };
    if (text === "write") return { content: [write] };
    return { content: [{ type: "text", text: `You said: ${text}` }] };
  },
});

const readTool = defineTool({
  name: "read",
  description: "Reads a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  sideEffects: false,
  execute: ({ path }) => `contents of ${String(path)}`,
});

const writeTool = defineTool({
  name: "write",
  description: "Writes a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  needsApproval: true,
  permissionClass: "edit",
  execute: ({ path }) => `wrote ${String(path)}`,
});

serveSession(await workerPort(), {
  model: "anthropic/claude-sonnet-5-5",
  apiKey: "scripted",
  fetch: model.fetch,
  retry: { maxRetries: 0 },
  tools: [readTool, writeTool],
  approvalSecret: WORKER_SECRET,
});
