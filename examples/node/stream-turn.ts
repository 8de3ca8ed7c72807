/**
 * The main job for now: one streamed turn against the scripted model, served on loopback HTTP and
 * spoken in the Anthropic wire format, printed as it arrives. Then the same over OpenAI-chat with a
 * 429 that is retried, and a turn that is aborted mid-stream. Exits non-zero if anything differs.
 *
 * Run: npm run demo
 */
import { streamTurn, type UserMessage } from "wisp-agent";
import { createScriptedModel } from "wisp-agent/testing";
import { serveScriptedModel } from "wisp-agent/testing/node";

const model = createScriptedModel({
  script: [
    {
      content: [
        { type: "thinking", text: "The user wants a greeting. Keep it short.", signature: "sig-demo" },
        { type: "text", text: "Hello from Wisp! This answer streamed over real HTTP, token by token." },
      ],
      delayMs: 25,
    },
    { fault: { type: "http", status: 429, retryAfterMs: 200 } },
    { content: [{ type: "tool_call", name: "get_time", args: { timezone: "UTC" } }] },
    {
      content: [{ type: "text", text: "This one will be stopped before it finishes, keeping what arrived." }],
      delayMs: 40,
    },
  ],
});
const server = await serveScriptedModel(model);
const hello: UserMessage = {
  id: "u1",
  role: "user",
  content: [{ type: "text", text: "Say hello" }],
  timestamp: Date.now(),
};
let failures = 0;
const check = (ok: boolean, what: string) => {
  if (!ok) failures++;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
};

console.log(`scripted model listening on ${server.url}\n`);

// 1. Anthropic wire format, streamed.
const turn = streamTurn(
  { messages: [hello] },
  { model: "anthropic/claude-sonnet-4-5", apiKey: "demo", baseURL: server.url },
);
for await (const event of turn) {
  if (event.type === "thinking-delta") process.stdout.write(`\x1b[2m${event.delta}\x1b[0m`);
  if (event.type === "thinking-end") process.stdout.write("\n");
  if (event.type === "text-delta") process.stdout.write(event.delta);
}
const first = await turn.message;
console.log(
  `\n\nstop: ${first.stopReason}, usage: ${first.usage.input} in / ${first.usage.output} out, cost $${first.usage.costUsd?.toFixed(6)}\n`,
);
check(
  first.stopReason === "complete" && first.content.length === 2,
  "anthropic turn completed with thinking and text",
);

// 2. OpenAI-chat wire format: a 429 with retry-after-ms, retried, then a tool call.
const second = streamTurn(
  { messages: [hello] },
  { model: "openai/gpt-4o", apiKey: "demo", baseURL: `${server.url}/v1` },
);
for await (const event of second) {
  if (event.type === "retry")
    console.log(`retry ${event.attempt} after ${event.delayMs} ms (${event.error.code})`);
  if (event.type === "tool-call")
    console.log(`tool call: ${event.toolCall.name}(${JSON.stringify(event.toolCall.args)})`);
}
const toolTurn = await second.message;
check(toolTurn.stopReason === "toolUse", "openai-chat turn retried a 429 and asked for a tool");

// 3. Abort mid-stream: the partial text is kept, the server sees the connection close.
const third = streamTurn(
  { messages: [hello] },
  { model: "anthropic/claude-sonnet-4-5", apiKey: "demo", baseURL: server.url },
);
let deltas = 0;
for await (const event of third) if (event.type === "text-delta" && ++deltas === 4) third.abort();
const aborted = await third.message;
const partial = aborted.content[0]?.type === "text" ? aborted.content[0].text : "";
await new Promise((resolve) => setTimeout(resolve, 50));
console.log(
  `\naborted after: "${partial}" (${aborted.error?.code}); server saw ${model.disconnects} disconnect(s)`,
);
check(
  aborted.stopReason === "aborted" && model.disconnects === 1,
  "abort kept the partial text and closed the connection",
);

await server.close();
process.exit(failures === 0 ? 0 : 1);
