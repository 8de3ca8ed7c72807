/**
 * Every recorded conversation shape survives export → JSON → restore. Each streamed recording in
 * ../shared/fixtures (text, parallel tools, thinking with signatures, redacted thinking, server-tool
 * blocks, pause turns, max tokens mid tool input, reasoning from OpenAI-compatible servers, errors
 * mid-stream) answers a prompt that carries an image; the restored session's next request must be
 * byte for byte the original's, and moving it to the other wire API must send nothing that API would
 * reject.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type AgentSession, createAgentSession, type SessionState } from "../../src/index.ts";
import { createScriptedModel, type ScriptedModel } from "../../src/testing/index.ts";
import { expectConsistent, says } from "../support/agent.ts";
import { FIXTURES, fixtureBytes } from "../support/fixtures.ts";
import { bodyOf } from "../support/replay.ts";

const MODELS = {
  anthropic: "anthropic/claude-sonnet-4-5",
  "openai-chat": "openai/gpt-4o-mini",
  "openai-compatible": "openai/gpt-4o-mini",
} as const;

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
  const session = await createAgentSession({
    model,
    apiKey: "k",
    fetch: recordingThen(file, after),
    retry: { maxRetries: 0 },
    systemPrompt: "Be brief.",
  });
  await session.chat(PROMPT);
  return session;
}

/** The body of the request a session sends for its next prompt. */
async function nextRequest(state: unknown, model?: string): Promise<string> {
  const scripted = createScriptedModel({ script: [says("Next.")] });
  const session = await createAgentSession({
    apiKey: "k",
    fetch: scripted.fetch,
    retry: { maxRetries: 0 },
    restore: state,
    ...(model === undefined ? {} : { model }),
  });
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
    const restored = await createAgentSession({ apiKey: "k", restore: copy });
    expect(restored.export()).toEqual(state);
    const sent = await nextRequest(copy);
    expect(sent).toBe(await nextRequest(state));
    // What the provider needs back verbatim went back: Anthropic's signatures and redacted data, and
    // every call id. (Chat Completions takes no reasoning back: see docs/thinking-across-providers.md.)
    for (const message of state.messages) {
      if (message.role !== "assistant") continue;
      const anthropic = message.provider === "anthropic";
      for (const part of message.content) {
        if (anthropic && part.type === "thinking" && part.signature) expect(sent).toContain(part.signature);
        if (anthropic && part.type === "redacted_thinking") expect(sent).toContain(part.data);
        if (part.type === "tool_call") expect(sent).toContain(JSON.stringify(part.id));
      }
    }
  });

  it("moves to the other wire API without sending what it would reject", async () => {
    const session = await recordedSession(file, model);
    const state = JSON.parse(JSON.stringify(session.export()));
    const other = model.startsWith("anthropic/") ? "openai/gpt-4o-mini" : "anthropic/claude-sonnet-4-5";
    const body = JSON.parse(await nextRequest(state, other));
    const sent = JSON.stringify(body);
    if (other.startsWith("anthropic/")) {
      // No thinking block without an Anthropic signature, and no other API's fields.
      for (const message of body.messages) {
        for (const block of Array.isArray(message.content) ? message.content : []) {
          expect(["text", "image", "tool_use", "tool_result"]).toContain(block.type);
        }
      }
      expect(sent).not.toMatch(/reasoning_content|"reasoning"/);
    } else {
      // Chat Completions takes no reasoning, signatures or Anthropic blocks back.
      expect(sent).not.toMatch(/"signature"|redacted_thinking|server_tool_use|"thinking"/);
      for (const message of body.messages) {
        expect(
          Object.keys(message).every((key) =>
            ["role", "content", "tool_calls", "tool_call_id"].includes(key),
          ),
        ).toBe(true);
      }
    }
    // The conversation itself came across: the prompt's image and the last question.
    expect(sent).toContain("iVBORw0KGgo=");
    expect(sent).toContain("Go on");
  });
});

it("covers every streamed recording of both wire APIs", () => {
  expect(recordings.length).toBeGreaterThanOrEqual(20);
  expect(recordings.map((r) => r.file)).toEqual(
    expect.arrayContaining(["anthropic/thinking-signature.sse", "anthropic/redacted-thinking.sse"]),
  );
});
