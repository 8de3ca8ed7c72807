/**
 * The model the demo uses when no provider key is set: Wisp's scripted model, answering each request
 * from what it asks. A question about the time calls `clock`; arithmetic (`12 * 7`) calls
 * `calculator`; "send … to Ada" calls `send_message` (which waits for the user's approval); "ask me"
 * calls `ask_user` (two questions the page shows to answer); `call <tool>
 * {args}` calls any tool the request offers (an MCP server's the session added); tool
 * results are summed up; anything else gets a longer streamed answer, slow enough
 * to watch and to stop. It speaks Anthropic's wire format, so the SDK runs exactly as against the API.
 *
 * @module
 */

import type { JsonObject } from "wisp-agent";
import {
  createScriptedModel,
  type ScriptedModel,
  type ScriptedTurn,
  type ScriptPart,
} from "wisp-agent/testing";

/** The model name the demo runs under without a key. */
export const DEMO_MODEL = "anthropic/claude-sonnet-4-5";

/** Milliseconds between streamed chunks, unless `DEMO_CHUNK_DELAY_MS` says otherwise. */
const DEFAULT_CHUNK_DELAY_MS = 35;

interface WireBlock {
  type: string;
  text?: string;
  content?: unknown;
  name?: string;
  is_error?: boolean;
}
interface WireMessage {
  role: string;
  content: string | WireBlock[];
}

const OPS: Record<string, string> = {
  "+": "add",
  "-": "subtract",
  "*": "multiply",
  x: "multiply",
  "×": "multiply",
  "/": "divide",
  "÷": "divide",
};

/** Words as stream chunks, each with its trailing space. */
function words(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text];
}

function says(text: string, delayMs: number): ScriptedTurn {
  return { content: [{ type: "text", text: words(text) }], delayMs };
}

function blocksOf(message: WireMessage | undefined): WireBlock[] {
  if (message === undefined) return [];
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

function resultText(block: WireBlock): string {
  if (typeof block.content === "string") return block.content;
  if (Array.isArray(block.content)) {
    return block.content.map((part: { text?: string }) => part.text ?? "").join("");
  }
  return "";
}

function toolCalls(prompt: string, offered: readonly string[] = []): ScriptPart[] {
  const named = namedCall(prompt, offered);
  if (named !== undefined) return [named];
  const calls: ScriptPart[] = [];
  if (/\b(time|clock|date|hour)\b/i.test(prompt)) {
    const zone = prompt.match(/\b([A-Z][a-z]+\/[A-Z][A-Za-z_]+)\b/)?.[1] ?? "UTC";
    calls.push({ type: "tool_call", name: "clock", args: { timeZone: zone } });
  }
  const sum = prompt.match(/(-?\d+(?:\.\d+)?)\s*([-+*/x×÷])\s*(-?\d+(?:\.\d+)?)/);
  if (sum) {
    const args: JsonObject = { op: OPS[sum[2] as string] ?? "add", a: Number(sum[1]), b: Number(sum[3]) };
    calls.push({ type: "tool_call", name: "calculator", args });
  }
  const send = /\bsend\b/i.test(prompt) ? /\bto\s+([A-Za-z][\w.@-]{0,79})/.exec(prompt) : null;
  if (send) {
    const quoted = /"([^"]{1,500})"/.exec(prompt)?.[1];
    const args: JsonObject = { to: send[1] as string, text: quoted ?? "Hello from Wisp" };
    calls.push({ type: "tool_call", name: "send_message", args });
  }
  calls.push(...noteCalls(prompt));
  if (/\bask me\b/i.test(prompt)) calls.push({ type: "tool_call", name: "ask_user", args: DEMO_QUESTIONS });
  return calls;
}

/** What the demo model asks on "ask me …" (the page shows it as a card to answer). */
const DEMO_QUESTIONS: JsonObject = {
  questions: [
    {
      question: "Which drink should I suggest?",
      header: "Drink",
      options: [
        { label: "Coffee", description: "Strong and hot" },
        { label: "Tea", description: "Green or black" },
      ],
      multiSelect: false,
    },
    {
      question: "What would you like with it?",
      header: "Extras",
      options: [{ label: "Milk" }, { label: "Sugar" }, { label: "Cake" }],
      multiSelect: true,
    },
  ],
};

/**
 * `call <tool>` or `call <tool> {json arguments}`: a call of any tool the request offers by that name
 * (an MCP server's the session added, say), so every connected tool can be tried without a real model.
 */
function namedCall(prompt: string, offered: readonly string[]): ScriptPart | undefined {
  const match = /^\s*call\s+([A-Za-z][\w-]{0,127})\s*(\{[\s\S]*\})?\s*$/i.exec(prompt);
  if (match === null || !offered.includes(match[1] as string)) return undefined;
  let args: JsonObject = {};
  try {
    // The arguments group starts with "{" and ends with "}", so whatever parses is an object.
    args = JSON.parse(match[2] ?? "{}") as JsonObject;
  } catch {
    // Not JSON: call it without arguments (the tool's own check answers).
  }
  return { type: "tool_call", name: match[1] as string, args };
}

/**
 * Calls of the notes MCP server's tools (worker/mcp-notes.ts, prefixed `notes_`): `note: text` or
 * `remember "text"` saves a note, "list my notes" lists them, "read note <id>" reads one.
 */
function noteCalls(prompt: string): ScriptPart[] {
  const saved =
    /^\s*note:\s*(.+)$/is.exec(prompt)?.[1] ??
    (/\bremember\b/i.test(prompt) ? /"([^"]{1,500})"/.exec(prompt)?.[1] : undefined);
  if (saved !== undefined) {
    const text = saved.trim().slice(0, 2_000);
    const title = text.split(/\s+/).slice(0, 6).join(" ").slice(0, 80);
    return [{ type: "tool_call", name: "notes_add", args: { title, text } }];
  }
  const read = /\bread note\s+([\w-]{1,40})/i.exec(prompt)?.[1];
  if (read !== undefined) return [{ type: "tool_call", name: "notes_read", args: { id: read } }];
  if (/\b(list|show)\b.*\bnotes\b/i.test(prompt))
    return [{ type: "tool_call", name: "notes_list", args: {} }];
  return [];
}

/** The answer to one request. */
function demoAnswer(
  body: { messages?: WireMessage[]; tools?: Array<{ name?: string }> },
  delayMs = DEFAULT_CHUNK_DELAY_MS,
): ScriptedTurn {
  const last = body.messages?.at(-1);
  const all = blocksOf(last);
  // Anthropic merges consecutive user turns, so a new prompt can follow older results in one message
  // (an imported transcript that ended on an interruption): the prompt wins.
  const afterResults = all.slice(all.findLastIndex((block) => block.type === "tool_result") + 1);
  const prompted = afterResults.some((block) => block.type === "text" && (block.text ?? "").trim() !== "");
  const blocks = prompted ? afterResults : all;
  const results = prompted ? [] : blocks.filter((block) => block.type === "tool_result");
  if (results.length > 0) {
    const lines = results.map((block) =>
      block.is_error ? `that failed (${resultText(block)})` : resultText(block),
    );
    return says(`Here is what the tools said: ${lines.join("; ")}. Anything else?`, delayMs);
  }
  const prompt = blocks
    .map((block) => block.text ?? "")
    .join(" ")
    .trim();
  const offered = (body.tools ?? []).map((tool) => tool.name ?? "");
  const calls = toolCalls(prompt, offered);
  if (calls.length > 0) {
    return { content: [{ type: "text", text: words("Let me check. ") }, ...calls], delayMs };
  }
  const turns = (body.messages ?? []).filter((message) => message.role === "user").length;
  return says(
    `You said: "${prompt.slice(0, 200)}". This is Wisp's scripted demo model (message ${turns} of this ` +
      "session), streaming word by word from a Durable Object inside workerd. Ask for the time in a zone " +
      'such as Europe/Oslo, for a sum like 12 * 7, to send "hi" to Ada (which waits for your approval), ' +
      'or write "note: buy milk" and "list my notes" (the notes live on the demo\'s MCP server at /mcp), and it will call the demo\'s tools. Press Stop at any ' +
      "moment: the run is aborted for real, the partial answer is kept, and the session stays consistent " +
      "and exportable. Set ANTHROPIC_API_KEY or OPENAI_API_KEY in .dev.vars to talk to a real model instead.",
    delayMs,
  );
}

/** A new scripted model answering with {@link demoAnswer}. */
export function demoModel(delayMs = DEFAULT_CHUNK_DELAY_MS): ScriptedModel {
  return createScriptedModel({
    respond: (request) => demoAnswer(request.body as { messages?: WireMessage[] }, delayMs),
  });
}
