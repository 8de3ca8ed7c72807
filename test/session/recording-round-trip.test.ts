/**
 * Every recorded conversation shape survives export → JSON → restore. Each streamed recording in
 * ../shared/fixtures (text, parallel tools, thinking with signatures, redacted thinking, server-tool
 * blocks, pause turns, max tokens mid tool input, reasoning from OpenAI-compatible servers, errors
 * mid-stream, Responses reasoning items, Gemini thought signatures) answers a prompt that carries an
 * image; the restored session's next request must be byte for byte the original's, and moving it to
 * each other wire API must give a request that passes that API's documented schema.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type AgentSession, createAgentSession, type SessionState, uncheckedModel } from "../../src/index.ts";
import { createScriptedModel, type ScriptedModel } from "../../src/testing/index.ts";
import { expectConsistent, says } from "../support/agent.ts";
import { FIXTURES, fixtureBytes } from "../support/fixtures.ts";
import { bodyOf } from "../support/replay.ts";
import {
  anthropicRequest,
  chatRequest,
  geminiRequest,
  responsesRequest,
} from "../support/request-schemas.ts";
import { okValue } from "../support/results.ts";

const MODELS = {
  anthropic: "anthropic/claude-sonnet-4-5",
  "openai-chat": "openai/gpt-4o-mini",
  "openai-compatible": "openai/gpt-4o-mini",
  "openai-responses": "openai-responses/gpt-5",
  gemini: "google/gemini-3-pro-preview",
} as const;

/** Each wire API, with the schema its requests must pass. */
const APIS = [
  { model: "anthropic/claude-sonnet-4-5", schema: anthropicRequest },
  { model: "openai/gpt-4o-mini", schema: chatRequest },
  { model: "openai-responses/gpt-5", schema: responsesRequest },
  { model: "google/gemini-3-pro-preview", schema: geminiRequest(true) },
];
const providerOf = (model: string) => model.slice(0, model.indexOf("/"));

const recordings = (Object.keys(MODELS) as Array<keyof typeof MODELS>).flatMap((folder) =>
  readdirSync(`${FIXTURES}${folder}`)
    .filter((name) => name.endsWith(".sse"))
    .map((name) => ({ file: `${folder}/${name}`, model: MODELS[folder] })),
);

const PROMPT = [
  { type: "text" as const, text: "Look at this" },
  { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" },
];

/** Answers the first request with the recording, and every later one from `model`. */
function recordingThen(file: string, model: ScriptedModel): typeof fetch {
  let first = true;
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    if (!first) return model.fetch(input, init);
    first = false;
    return new Response(bodyOf([fixtureBytes(file)]), { headers: { "content-type": "text/event-stream" } });
  }) as typeof fetch;
}

/** A session whose history is the recording's answer (and, if it called tools, a scripted reply). */
async function recordedSession(file: string, model: string): Promise<AgentSession> {
  const after = createScriptedModel({ script: [says("Noted."), says("Noted.")] });
  const session = okValue(
    await createAgentSession({
      model: uncheckedModel(model),
      apiKey: "k",
      fetch: recordingThen(file, after),
      retry: { maxRetries: 0 },
      systemPrompt: "Be brief.",
    }),
  );
  await session.chat(PROMPT);
  return session;
}

/** The body of the request a session sends for its next prompt. */
async function nextRequest(state: unknown, model?: string): Promise<string> {
  const scripted = createScriptedModel({ script: [says("Next.")] });
  const session = okValue(
    await createAgentSession({
      apiKey: "k",
      fetch: scripted.fetch,
      retry: { maxRetries: 0 },
      restore: state,
      ...(model === undefined ? {} : { model: uncheckedModel(model) }),
    }),
  );
  await session.chat("Go on");
  return scripted.requests[0]?.bodyText ?? "";
}

describe.each(recordings)("$file", ({ file, model }) => {
  it("restores from JSON to the same state and the same next request", async () => {
    const session = await recordedSession(file, model);
    const state = session.export();
    expectConsistent(state.messages);
    expect(state.messages[0]).toMatchObject({ role: "user", content: PROMPT });
    expect(state.messages[1]?.role).toBe("assistant");
    const copy = JSON.parse(JSON.stringify(state)) as SessionState;
    expect(copy).toEqual(state);
    const restored = okValue(await createAgentSession({ apiKey: "k", restore: copy }));
    expect(restored.export()).toEqual(state);
    const sent = await nextRequest(copy);
    expect(sent).toBe(await nextRequest(state));
    // What the provider needs back verbatim went back: Anthropic's signatures and redacted data,
    // Responses' encrypted reasoning, Gemini's thought signatures, and every call id. (Chat
    // Completions takes no reasoning back: see docs/thinking-across-providers.md.)
    for (const message of state.messages) {
      if (message.role !== "assistant") continue;
      const anthropic = message.provider === "anthropic";
      for (const part of message.content) {
        if (anthropic && part.type === "thinking" && part.signature) expect(sent).toContain(part.signature);
        if (anthropic && part.type === "redacted_thinking") expect(sent).toContain(part.data);
        if (message.provider === "openai-responses" && part.type === "thinking" && part.signature) {
          expect(sent).toContain(JSON.parse(part.signature).encrypted_content);
        }
        if (message.provider === "google" && "signature" in part && part.signature) {
          expect(sent).toContain(part.signature);
        }
        // Gemini matches results to calls by name and order; its ids are optional and not sent.
        if (part.type === "tool_call" && message.provider !== "google")
          expect(sent).toContain(JSON.stringify(part.id));
      }
    }
  });

  it("moves to each other wire API with a request that API accepts", async () => {
    const session = await recordedSession(file, model);
    const state = JSON.parse(JSON.stringify(session.export()));
    for (const api of APIS.filter((api) => providerOf(api.model) !== providerOf(model))) {
      const body = JSON.parse(await nextRequest(state, api.model));
      const parsed = api.schema.safeParse(body);
      expect(parsed.success, `${api.model}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      const sent = JSON.stringify(body);
      // No other API's opaque blocks; the conversation itself came across.
      expect(sent).not.toMatch(/redacted_thinking|server_tool_use|reasoning_content|"encrypted_content":/);
      expect(sent).toContain("iVBORw0KGgo=");
      expect(sent).toContain("Go on");
    }
  });
});

it("covers every streamed recording of the four wire APIs", () => {
  expect(recordings.length).toBeGreaterThanOrEqual(29);
  expect(recordings.map((r) => r.file)).toEqual(
    expect.arrayContaining(["anthropic/thinking-signature.sse", "anthropic/redacted-thinking.sse"]),
  );
});
