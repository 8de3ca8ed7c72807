/**
 * The worker side of the questions scenario (scenario.ts), one module for a Node `worker_threads`
 * worker and a module Web Worker in Chromium: a session with the ask tool, a scripted model that asks
 * on "ask me" and answers with the tool's result, and an `approvalSecret`, served over the bridge.
 */

import { askUserTool } from "../../../src/agent/ask-user-tool.ts";
import { serveSession } from "../../../src/bridge/index.ts";
import { createScriptedModel } from "../../../src/testing/index.ts";
import { workerPort } from "../../support/bridge-worker-port.ts";

/** The secret the worker signs with (a test's; a real one comes from the server's environment). */
const WORKER_SECRET = "questions-scenario-secret";

/** The last message of an Anthropic request: its text, and the tool results it carries. */
function lastTurn(body: unknown): { text: string; results: string[] } {
  const messages = (body as { messages?: { content: unknown }[] }).messages ?? [];
  const content = messages.at(-1)?.content;
  const blocks = (Array.isArray(content) ? content : [{ type: "text", text: String(content) }]) as {
    type: string;
    text?: string;
    content?: unknown;
  }[];
  const textOf = (value: unknown): string =>
    typeof value === "string"
      ? value
      : (value as { text?: string }[]).map((part) => part.text ?? "").join("");
  return {
    text: blocks.map((block) => (block.type === "text" ? (block.text ?? "") : "")).join(""),
    results: blocks.filter((block) => block.type === "tool_result").map((block) => textOf(block.content)),
  };
}

const ask = {
  type: "tool_call" as const,
  name: "ask_user",
  args: {
    questions: [
      {
        question: "Which color?",
        header: "Color",
        options: [{ label: "Red" }, { label: "Blue" }],
        multiSelect: false,
      },
    ],
  },
};

const model = createScriptedModel({
  respond: (request) => {
    const { text, results } = lastTurn(request.body);
    if (results.length > 0) return { content: [{ type: "text", text: `Done: ${results.join("; ")}` }] };
    if (text === "ask me") return { content: [ask] };
    return { content: [{ type: "text", text: `You said: ${text}` }] };
  },
});

serveSession(await workerPort(), {
  model: "anthropic/claude-sonnet-5-5",
  apiKey: "scripted",
  fetch: model.fetch,
  retry: { maxRetries: 0 },
  tools: [askUserTool()],
  approvalSecret: WORKER_SECRET,
});
