/**
 * A chat on the command line that remembers: every answer streams as it comes, the model may use two
 * tools (a clock and a calculator, zod schemas), and the session is saved to a JSON file after every
 * prompt and restored from it on the next start — so a conversation goes on across runs.
 *
 * Prompts are read from stdin, one a line; end of input (Ctrl-D, or the end of a pipe) ends the chat.
 * With ANTHROPIC_API_KEY set it talks to Anthropic (WISP_CHAT_MODEL picks another model); without it,
 * to a scripted model served on loopback, so it works offline.
 *
 * Run (after `npm run build`):
 *   node --experimental-strip-types examples/node/cli-chat.ts [session.json]
 *   echo "What is 6 * 7?" | node --experimental-strip-types examples/node/cli-chat.ts
 */
import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { createAgentSession, defineTool, type SessionOptions, uncheckedModel, unwrap } from "wisp-agent";
import { createScriptedModel, type RecordedRequest, type ScriptedTurn } from "wisp-agent/testing";
import { type LoopbackServer, serveScriptedModel } from "wisp-agent/testing/node";
import { z } from "zod";

const clock = defineTool({
  name: "clock",
  description: "The current time in a time zone",
  input: z.object({ timeZone: z.string().describe("IANA zone, e.g. Europe/Oslo") }),
  execute: ({ timeZone }) => new Date().toLocaleTimeString("en-GB", { timeZone }),
});
const calculator = defineTool({
  name: "calculator",
  description: "Adds or multiplies two numbers",
  input: z.object({ op: z.enum(["add", "multiply"]), a: z.number(), b: z.number() }),
  execute: ({ op, a, b }) => (op === "add" ? a + b : a * b),
});

interface AnthropicMessage {
  role: "user" | "assistant";
  content: string | Array<{ type: string; text?: string; content?: unknown }>;
}

/** What the offline model says: it uses the tools when asked, and otherwise recalls the conversation. */
function offlineAnswer(request: RecordedRequest): ScriptedTurn {
  const messages = (request.body as { messages: AnthropicMessage[] }).messages;
  const parts = (message: AnthropicMessage | undefined) =>
    typeof message?.content === "string"
      ? [{ type: "text", text: message.content }]
      : (message?.content ?? []);
  const prompts = messages
    .filter((message) => message.role === "user")
    .flatMap((message) => parts(message).filter((part) => part.type === "text"))
    .map((part) => part.text ?? "");
  const results = parts(messages.at(-1)).filter((part) => part.type === "tool_result");
  if (results.length > 0) {
    return {
      content: [{ type: "text", text: `The tools said: ${results.map((part) => part.content).join(", ")}.` }],
    };
  }
  const latest = prompts.at(-1) ?? "";
  const sum = /(-?\d+(?:\.\d+)?)\s*([+*x×])\s*(-?\d+(?:\.\d+)?)/.exec(latest);
  if (sum !== null) {
    const [, a = "0", op, b = "0"] = sum;
    const args = { op: op === "+" ? "add" : "multiply", a: Number(a), b: Number(b) };
    return { content: [{ type: "tool_call", name: "calculator", args }] };
  }
  if (/\b(time|clock)\b/i.test(latest)) {
    return { content: [{ type: "tool_call", name: "clock", args: { timeZone: "Europe/Oslo" } }] };
  }
  const count = `${prompts.length} prompt${prompts.length === 1 ? "" : "s"}`;
  return {
    content: [{ type: "text", text: `You have sent me ${count}; the first was: ${prompts[0] ?? latest}` }],
    delayMs: 5,
  };
}

/** How to reach the model: Anthropic with a key, else the scripted model on loopback. */
async function connect(): Promise<{ options: SessionOptions; server?: LoopbackServer }> {
  const apiKey = process.env.ANTHROPIC_API_KEY;
  if (apiKey)
    return {
      options: {
        model: uncheckedModel(process.env.WISP_CHAT_MODEL ?? "anthropic/claude-sonnet-5-5"),
        apiKey,
      },
    };
  const server = await serveScriptedModel(createScriptedModel({ respond: offlineAnswer }));
  console.log(`(no ANTHROPIC_API_KEY: talking to a scripted model on ${server.url})`);
  return {
    options: { model: "anthropic/claude-sonnet-5-5", apiKey: "offline", baseURL: server.url },
    server,
  };
}

/** Writes the state whole or not at all: a crash mid-write never leaves half a file. */
async function save(file: string, state: unknown): Promise<void> {
  await writeFile(`${file}.tmp`, JSON.stringify(state, null, 2));
  await rename(`${file}.tmp`, file);
}

const file = process.argv[2] ?? "cli-chat-session.json";
const { options, server } = await connect();
const saved: unknown = existsSync(file) ? JSON.parse(await readFile(file, "utf8")) : undefined;
const session = unwrap(
  await createAgentSession({
    ...options,
    systemPrompt: "You are a brief, friendly assistant. Use the tools for times and arithmetic.",
    tools: [clock, calculator],
    restore: saved,
  }),
);
const restored = session.snapshot().messageCount;
if (restored > 0) console.log(`restored ${restored} messages from ${file}`);

const interactive = process.stdin.isTTY === true;
const lines = createInterface({ input: process.stdin, terminal: interactive });
if (interactive) process.stdout.write("> ");
try {
  for await (const line of lines) {
    const prompt = line.trim();
    if (prompt !== "") {
      if (!interactive) console.log(`> ${prompt}`);
      const run = session.stream(prompt);
      for await (const event of run) {
        if (event.type === "text-delta") process.stdout.write(event.delta);
        if (event.type === "text-end") process.stdout.write("\n");
        if (event.type === "tool-call")
          console.log(`  → ${event.toolCall.name}(${JSON.stringify(event.toolCall.args)})`);
        if (event.type === "tool-result") console.log(`  ← ${JSON.stringify(event.result.output)}`);
      }
      const result = await run.result;
      if (!result.ok) console.error(`error: ${result.error.code}: ${result.error.message}`);
      await save(file, session.export()); // after every prompt, whatever its outcome
    }
    if (interactive) process.stdout.write("> ");
  }
  console.log(`saved ${session.export().messages.length} messages to ${file}`);
} finally {
  await session.close();
  await server?.close();
}
