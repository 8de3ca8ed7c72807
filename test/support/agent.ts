/**
 * Helpers for agent-loop tests: options wired to a scripted model, script shorthands, and the
 * invariant every run must keep — each tool call answered by exactly one result, in order.
 */
import { expect } from "vitest";
import * as z from "zod";
import {
  type AgentOptions,
  defineTool,
  type Message,
  type ToolCallPart,
  uncheckedModel,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";

/** The two wire APIs the loop is tested through. */
export const LOOP_PROVIDERS = [
  { name: "anthropic", model: "anthropic/claude-sonnet-4-5" },
  { name: "openai-chat", model: "openai/gpt-4o" },
] as const;

/** A scripted model and run options pointing at it (in-process fetch). */
export function scripted(script: ScriptedTurn[], model = "anthropic/claude-sonnet-4-5") {
  const scriptedModel: ScriptedModel = createScriptedModel({ script });
  const options = (extra: Partial<AgentOptions> = {}): AgentOptions => ({
    model: uncheckedModel(model),
    apiKey: "test-key",
    fetch: scriptedModel.fetch,
    prompt: "go",
    retry: { maxRetries: 0 },
    ...extra,
  });
  return { model: scriptedModel, options };
}

/** A turn that answers with text (streamed in word-sized pieces, or in the pieces given). */
export function says(text: string | string[]): ScriptedTurn {
  return { content: [{ type: "text", text }] };
}

/** A turn that calls tools: `[name, args]` pairs. */
export function calls(...toolCalls: Array<[string, Record<string, unknown> | string]>): ScriptedTurn {
  return {
    content: toolCalls.map(([name, args]) => ({ type: "tool_call" as const, name, args: args as never })),
  };
}

/** The JSON body of request `index` (default: the last). */
export function requestBody(model: ScriptedModel, index = -1): Record<string, unknown> {
  const request = model.requests.at(index);
  if (request === undefined) throw new Error(`no request at ${index}`);
  return request.body as Record<string, unknown>;
}

/**
 * Asserts the conversation can be sent again: every tool call of an assistant message is answered,
 * in the same order, by the tool_result message right after it, and no result is orphaned.
 */
export function expectConsistent(messages: readonly Message[]): void {
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool_result") {
      expect(messages[index - 1]?.role, `tool results at ${index} follow an assistant message`).toBe(
        "assistant",
      );
    }
    if (message.role !== "assistant") continue;
    const toolCalls = message.content.filter((part): part is ToolCallPart => part.type === "tool_call");
    if (toolCalls.length === 0) continue;
    const next = messages[index + 1];
    expect(next?.role, `the tool calls of message ${index} have results`).toBe("tool_result");
    const ids = next?.role === "tool_result" ? next.content.map((part) => part.toolCallId) : [];
    expect(ids).toEqual(toolCalls.map((call) => call.id));
  }
}

/** A tool (named `name`) that runs until `release()` is called, and says when it started. */
export function gate(name = "gate") {
  let release: () => void = () => {};
  let started: () => void = () => {};
  const hasStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tool = defineTool({
    name,
    description: "Waits",
    inputSchema: { type: "object" },
    execute: async () => {
      started();
      await released;
      return "opened";
    },
  });
  return { tool, hasStarted, release };
}

/** Everything an async iterable yields, once it ends. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** A `send` tool (`{ to }`) that needs approval before it runs, and then says "sent". */
export const sendNeedingApproval = defineTool({
  name: "send",
  description: "Sends",
  input: z.object({ to: z.string() }),
  needsApproval: true,
  execute: () => "sent",
});

/** A `send` tool (`{ to }`) that needs approval before it runs, and then says `sent to <to>`. */
export const sendTo = defineTool({
  name: "send",
  description: "Sends",
  input: z.object({ to: z.string() }),
  needsApproval: true,
  execute: ({ to }) => `sent to ${to}`,
});

/** Two questions for the ask tool: one single choice, one multiple choice. */
export const TWO_QUESTIONS = [
  {
    question: "Which database?",
    header: "Database",
    options: [{ label: "Postgres" }, { label: "SQLite" }],
    multiSelect: false,
  },
  {
    question: "Which features?",
    header: "Features",
    options: [{ label: "Auth" }, { label: "Search" }],
    multiSelect: true,
  },
];

/** An `echo` tool: `{ word }` comes back as `echo:<word>`. */
export const echo = defineTool({
  name: "echo",
  description: "Echoes",
  inputSchema: { type: "object", properties: { word: { type: "string" } } },
  execute: (args) => `echo:${String(args.word)}`,
});
