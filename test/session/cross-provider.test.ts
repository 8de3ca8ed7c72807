/**
 * Cross-provider continuation: a session started on each of the four wire APIs — a turn with
 * thinking and a tool call, the tool's result, a final answer — is exported, restored on each of the
 * other three and continued. Each request must pass that API's documented request schema
 * (test/support/request-schemas.ts), foreign thinking must be converted as
 * docs/thinking-across-providers.md says, and tool-call ids must be mapped where the API constrains
 * them. Moving back to the first provider sends its own signed reasoning again.
 */
import { describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import {
  createAgentSession,
  defineTool,
  type ProviderId,
  type SessionState,
  uncheckedModel,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { expectConsistent, says } from "../support/agent.ts";
import {
  anthropicRequest,
  chatRequest,
  geminiRequest,
  responsesRequest,
} from "../support/request-schemas.ts";
import { okValue } from "../support/results.ts";

const THOUGHT = "The user wants a sum.";

interface Api {
  model: string;
  schema: ZodType;
  /** A call id this API might really mint, chosen to test the mapping where another API is stricter. */
  callId?: string;
  signature?: string;
}

const APIS: Record<ProviderId, Api> = {
  anthropic: {
    model: "anthropic/claude-sonnet-4-5",
    schema: anthropicRequest,
    signature: "EqQBCkYIBxgCKkBsig",
  },
  // Kimi-style ids through a compatible server: "." and ":" are outside Anthropic's id pattern.
  "openai-chat": { model: "openai/gpt-4o-mini", schema: chatRequest, callId: "functions.add:0" },
  // Longer than the 40 characters Chat Completions allows.
  "openai-responses": {
    model: "openai-responses/gpt-5",
    schema: responsesRequest,
    callId: "call_0123456789abcdefghijklmnopqrstuvwxyz0123456789",
    signature: "gAAAAABencrypted-reasoning",
  },
  google: {
    model: "google/gemini-3-pro-preview",
    schema: geminiRequest(true),
    signature: "EpwICpkIAXLI2sig",
  },
};
const IDS = Object.keys(APIS) as ProviderId[];

const add = defineTool({
  name: "add",
  description: "Adds two numbers",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
  execute: (args) => Number(args.a) + Number(args.b),
});

function firstTurn(api: Api): ScriptedTurn {
  return {
    content: [
      { type: "thinking", text: THOUGHT, ...(api.signature ? { signature: api.signature } : {}) },
      { type: "text", text: "Adding." },
      {
        type: "tool_call",
        name: "add",
        args: { a: 2, b: 3 },
        ...(api.callId ? { id: api.callId } : {}),
        ...(api.signature ? { signature: api.signature } : {}),
      },
    ],
  };
}

/** A conversation started on `id`: thinking, a tool call, its result, an answer. */
async function startedOn(id: ProviderId): Promise<SessionState> {
  const api = APIS[id];
  const scripted = createScriptedModel({ script: [firstTurn(api), says("It is 5.")] });
  const session = okValue(
    await createAgentSession({
      model: uncheckedModel(api.model),
      apiKey: "k",
      fetch: scripted.fetch,
      tools: [add],
    }),
  );
  const result = await session.chat("What is 2 + 3?");
  expect(result.ok).toBe(true);
  return JSON.parse(JSON.stringify(session.export()));
}

/** Continues `state` on `id`; returns the request body it sent and the state after. */
async function continueOn(id: ProviderId, state: SessionState) {
  const scripted = createScriptedModel({ script: [says("Fine.")] });
  const session = okValue(
    await createAgentSession({
      model: uncheckedModel(APIS[id].model),
      apiKey: "k",
      fetch: scripted.fetch,
      tools: [add],
      restore: state,
    }),
  );
  const result = await session.chat("Go on");
  expect(result.ok, JSON.stringify(result.ok ? "" : result.error)).toBe(true);
  return { body: scripted.requests[0]?.body as Record<string, unknown>, state: session.export() };
}

/** Every string in the body, for "was it sent at all" checks. */
const sentText = (body: unknown) => JSON.stringify(body);

describe.each(IDS)("a session started on %s", (from) => {
  it.each(IDS.filter((to) => to !== from))("continues on %s with a request that API accepts", async (to) => {
    const state = await startedOn(from);
    expectConsistent(state.messages);
    const { body, state: after } = await continueOn(to, state);
    const parsed = APIS[to].schema.safeParse(body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const sent = sentText(body);

    // The conversation came across: the question, the call, its result, the answer, the new prompt.
    for (const piece of ["What is 2 + 3?", "Adding.", "It is 5.", "Go on"]) expect(sent).toContain(piece);
    // Foreign thinking: Anthropic gets it as text; the others take no reasoning from elsewhere.
    if (to === "anthropic") {
      expect(sent).toContain(THOUGHT);
      expect(sent).not.toMatch(/"type":"(thinking|redacted_thinking)"/);
    } else {
      expect(sent).not.toContain(THOUGHT);
    }
    // No opaque data of another API, except Gemini's documented marker for calls it did not sign.
    for (const other of IDS.filter((id) => id !== to)) {
      const signature = APIS[other].signature;
      if (signature) expect(sent).not.toContain(signature);
    }
    if (to === "google") expect(sent).toContain("skip_thought_signature_validator");

    // The continued session is whole and can go back where it started.
    expectConsistent(after.messages);
    const back = await continueOn(from, JSON.parse(JSON.stringify(after)));
    const parsedBack = APIS[from].schema.safeParse(back.body);
    expect(parsedBack.success, JSON.stringify(parsedBack.error?.issues)).toBe(true);
    const own = APIS[from].signature;
    if (own) expect(sentText(back.body)).toContain(own);
  });
});

it("ids are mapped only where the API needs it, and the same way for the call and its result", async () => {
  const fromChat = await startedOn("openai-chat");
  const toAnthropic = (await continueOn("anthropic", fromChat)).body as { messages: { content: unknown }[] };
  const blocks = toAnthropic.messages.flatMap((message) =>
    Array.isArray(message.content) ? message.content : [],
  );
  const use = blocks.find((block) => block.type === "tool_use");
  const result = blocks.find((block) => block.type === "tool_result");
  expect(use.id).toMatch(/^[a-zA-Z0-9_-]+$/);
  expect(use.id).not.toBe("functions.add:0");
  expect(result.tool_use_id).toBe(use.id);

  const fromResponses = await startedOn("openai-responses");
  const toChat = (await continueOn("openai-chat", fromResponses)).body as {
    messages: { tool_calls?: { id: string }[]; tool_call_id?: string }[];
  };
  const call = toChat.messages.find((message) => message.tool_calls)?.tool_calls?.[0];
  expect(call?.id.length).toBeLessThanOrEqual(40);
  expect(toChat.messages.find((message) => message.tool_call_id)?.tool_call_id).toBe(call?.id);
  // Responses itself takes the long id as it is.
  expect(sentText((await continueOn("openai-responses", fromResponses)).body)).toContain(
    APIS["openai-responses"].callId,
  );
});
