/**
 * Which provider and model an imported transcript continues with: what the file names, then the
 * `model` option ("provider/model" as sessions take it, or a bare id), then Claude Sonnet on
 * Anthropic — never a model of one provider sent to another's API. Replies Wisp wrote into a Claude
 * Code file for another provider name it, so they read back as that provider's.
 */
import { describe, expect, it } from "vitest";
import { fromClaudeCode, fromPi, toClaudeCode } from "../../src/formats/index.ts";
import { createAgentSession } from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { says } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

const jsonl = (...objects: object[]) => `${objects.map((line) => JSON.stringify(line)).join("\n")}\n`;
const claudeUser = jsonl({
  parentUuid: null,
  isSidechain: false,
  type: "user",
  message: { role: "user", content: "hello" },
  uuid: "u1",
  sessionId: "s-1",
  timestamp: "2026-01-01T00:00:00.000Z",
});
const piHeader = { type: "session", version: 3, id: "p-1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" };
const piUser = {
  type: "message",
  id: "e1",
  parentId: null,
  timestamp: "2026-01-01T00:00:00.000Z",
  message: { role: "user", content: "hello", timestamp: 1 },
};

async function continuing(read: Awaited<ReturnType<typeof fromPi>>) {
  if (!read.ok) throw read.error;
  return [read.value.state.provider, read.value.state.model];
}

describe("a transcript with no reply yet", () => {
  it("continues with Claude Sonnet on Anthropic unless the caller names a model", async () => {
    expect(await continuing(await fromClaudeCode(claudeUser))).toEqual(["anthropic", "claude-sonnet-4-5"]);
    expect(await continuing(await fromPi(jsonl(piHeader, piUser)))).toEqual([
      "anthropic",
      "claude-sonnet-4-5",
    ]);
  });

  it('reads the model option as "provider/model", like createAgentSession', async () => {
    for (const read of [
      fromClaudeCode(claudeUser, { model: "openai/gpt-5.4" }),
      fromPi(jsonl(piHeader, piUser), { model: "openai/gpt-5.4" }),
    ])
      expect(await continuing(await read)).toEqual(["openai-chat", "gpt-5.4"]);
    expect(await continuing(await fromClaudeCode(claudeUser, { model: "google/gemini-2.5-flash" }))).toEqual([
      "google",
      "gemini-2.5-flash",
    ]);
  });

  it("takes a bare model id as the format's own provider's, and a slash that names no provider as part of the id", async () => {
    expect(await continuing(await fromClaudeCode(claudeUser, { model: "claude-opus-4-6" }))).toEqual([
      "anthropic",
      "claude-opus-4-6",
    ]);
    const withProvider = jsonl({ ...piHeader, provider: "openai" }, piUser);
    expect(await continuing(await fromPi(withProvider, { model: "gpt-5.4" }))).toEqual([
      "openai-responses",
      "gpt-5.4",
    ]);
    expect(await continuing(await fromClaudeCode(claudeUser, { model: "meta-llama/Llama-4" }))).toEqual([
      "anthropic",
      "meta-llama/Llama-4",
    ]);
  });
});

describe("a Claude Code file Wisp continued on another provider", () => {
  it("reads back with that provider's replies and continues on it, not on Anthropic", async () => {
    const first = await fromClaudeCode(claudeUser);
    if (!first.ok) throw first.error;
    const scripted = createScriptedModel({ script: [says("From GPT."), says("Again from GPT.")] });
    const options = { model: "openai/gpt-5.4", apiKey: "k", fetch: scripted.fetch } as const;
    const session = okValue(await createAgentSession({ ...options, restore: first.value.state }));
    expect((await session.chat("Go on")).ok).toBe(true);
    const written = toClaudeCode(session.export());
    expect(written).toContain('"model":"openai-chat/gpt-5.4"');

    const again = await fromClaudeCode(written);
    if (!again.ok) throw again.error;
    expect([again.value.state.provider, again.value.state.model]).toEqual(["openai-chat", "gpt-5.4"]);
    const reply = again.value.state.messages.findLast((message) => message.role === "assistant");
    expect(reply?.role === "assistant" && [reply.provider, reply.model]).toEqual(["openai-chat", "gpt-5.4"]);

    const restored = okValue(
      await createAgentSession({
        apiKey: "k",
        fetch: scripted.fetch,
        restore: again.value.state,
      }),
    );
    expect((await restored.chat("And again")).ok).toBe(true);
    expect(scripted.requests[1]?.url).toMatch(/\/chat\/completions$/);
    expect(scripted.requests[1]?.body).toMatchObject({ model: "gpt-5.4" });
  });
});
