/**
 * Imported transcripts continue on each of Wisp's four wire APIs: the request each sends passes that
 * API's documented request schema (tool ids mapped where the API constrains them, thinking signatures
 * sent only back to Anthropic, which made them), and the continued session writes back to its own
 * format as the original lines followed by the new turn.
 */
import { describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { fromClaudeCode, fromPi, toClaudeCode, toPi } from "../../src/formats/index.ts";
import { createAgentSession, type SessionState } from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { expectConsistent, says } from "../support/agent.ts";
import { fixtureText } from "../support/fixtures.ts";
import {
  anthropicRequest,
  chatRequest,
  geminiRequest,
  responsesRequest,
} from "../support/request-schemas.ts";
import { okValue } from "../support/results.ts";

const APIS: [string, ZodType][] = [
  ["anthropic/claude-sonnet-4-5", anthropicRequest],
  ["openai/gpt-4o-mini", chatRequest],
  ["openai-responses/gpt-5", responsesRequest],
  ["google/gemini-3-pro-preview", geminiRequest(true)],
];

const FILES = [
  ["claude-code-short", fromClaudeCode, toClaudeCode],
  ["claude-code-tool-heavy", fromClaudeCode, toClaudeCode],
  ["claude-code-subagent-sidechain", fromClaudeCode, toClaudeCode],
  ["pi-session-v1-large", fromPi, toPi],
] as const;

async function continueOn(model: string, state: SessionState) {
  const scripted = createScriptedModel({ script: [says("Carrying on.")] });
  const session = okValue(
    await createAgentSession({
      model: model as never,
      apiKey: "k",
      fetch: scripted.fetch,
      restore: state,
    }),
  );
  const result = await session.chat("Go on");
  expect(result.ok, JSON.stringify(result.ok ? "" : result.error)).toBe(true);
  return {
    body: scripted.requests[0]?.body,
    after: JSON.parse(JSON.stringify(session.export())) as SessionState,
  };
}

/** The signatures of thinking blocks in the file. */
function signatures(text: string): string[] {
  return [...text.matchAll(/"(?:signature|thinkingSignature)":"([^"]{20,})"/g)].map(
    (match) => match[1] as string,
  );
}

describe.each(FILES)("%s", (name, read, write) => {
  const text = fixtureText(`sessions/${name}.jsonl`);

  it.each(APIS)("continues on %s with a request that API accepts", async (model, schema) => {
    const imported = await read(text);
    if (!imported.ok) throw imported.error;
    const { body, after } = await continueOn(model, imported.value.state);
    const parsed = schema.safeParse(body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues.slice(0, 3))).toBe(true);
    const sent = JSON.stringify(body);
    expect(sent).toContain("Go on");
    for (const signature of signatures(text))
      if (model.startsWith("anthropic/")) expect(sent).toContain(signature);
      else expect(sent).not.toContain(signature);
    expectConsistent(after.messages);
  });

  it("the continued session writes back as the file's lines and then the new turn", async () => {
    const imported = await read(text);
    if (!imported.ok) throw imported.error;
    const { after } = await continueOn("anthropic/claude-sonnet-4-5", imported.value.state);
    const written = write(after);
    expect(written.startsWith(text)).toBe(true);
    const again = await read(written);
    if (!again.ok) throw again.error;
    expect(again.value.warnings).toEqual(imported.value.warnings);
    const last = again.value.state.messages.slice(-2).map((message) => message.content);
    expect(last).toEqual([[{ type: "text", text: "Go on" }], [{ type: "text", text: "Carrying on." }]]);
  });
});
