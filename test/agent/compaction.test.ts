/**
 * Compaction: past the threshold, or after the provider refuses a request's length, older messages are
 * summarized by the model and the summary stands for them in later requests; tool calls stay with
 * their results, nothing leaves the session, the summary's cost counts, a preCompact hook can skip it
 * or give the summary, and export / restore keep it.
 */
import { describe, expect, it } from "vitest";
import {
  type AgentEvent,
  type AgentOptions,
  createAgentSession,
  parseSessionState,
  runAgentStream,
} from "../../src/index.ts";
import {
  createScriptedModel,
  type RecordedRequest,
  type ScriptedModel,
  type ScriptedTurn,
} from "../../src/testing/index.ts";
import { expectConsistent } from "../support/agent.ts";
import { isSummaryRequest, read } from "../support/compaction.ts";
import { anthropicRequest } from "../support/request-schemas.ts";
import { failure, okValue } from "../support/results.ts";

const MODEL = "anthropic/claude-sonnet-4-5";

/** A model that reads `pages` pages, one a turn, then answers; summary requests get `summary`. */
function reader(pages: number, summary = "SUMMARY: pages read so far, the user wants page totals.") {
  let turn = 0;
  return createScriptedModel({
    respond: (request): ScriptedTurn => {
      if (isSummaryRequest(request))
        return { content: [{ type: "text", text: summary }], usage: { input: 3000, output: 40 } };
      turn++;
      if (turn > pages) return { content: [{ type: "text", text: "Done reading." }] };
      return {
        content: [{ type: "tool_call", name: "read", args: { page: turn } }],
        usage: { input: 1000 * turn, output: 20 },
      };
    },
  });
}

async function collect(run: AsyncIterable<AgentEvent>) {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

/** Runs the reading agent on `model` with `options` (compaction, hooks …): its events and result. */
async function readWith(model: ScriptedModel, options: Partial<AgentOptions>) {
  const run = runAgentStream({
    model: MODEL,
    apiKey: "k",
    fetch: model.fetch,
    prompt: "Read",
    tools: [read],
    ...options,
  });
  const events = await collect(run);
  return { events, result: await run.result };
}

describe("past the threshold", () => {
  it("summarizes older turns, keeps the latest ones whole, loses nothing and counts the summary's cost", async () => {
    const model = reader(6);
    const { events, result } = await readWith(model, { compaction: { maxTokens: 3500, keepTurns: 2 } });
    if (!result.ok) throw result.error;
    const compactions = events.filter((event) => event.type === "compaction");
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]).toMatchObject({ reason: "threshold", usage: { input: 3000, output: 40 } });
    // Every message is still in the conversation, consistent.
    expect(result.value.messages.filter((message) => message.role === "tool_result")).toHaveLength(6);
    expectConsistent(result.value.messages);
    // The summary's tokens count in the run's usage.
    expect(result.value.usage.input).toBeGreaterThanOrEqual(3000 * compactions.length);
    // Requests after a compaction open with the summary and stay valid: each result right after its call.
    const after = model.requests.filter((request) => !isSummaryRequest(request)).at(-1) as RecordedRequest;
    const body = after.body as { messages: { role: string; content: { type: string; text?: string }[] }[] };
    expect(body.messages[0]?.content[0]?.text).toContain("SUMMARY: pages read so far");
    expect(anthropicRequest.safeParse(body).success).toBe(true);
    expect(JSON.stringify(body)).not.toContain("page 1:");
  });

  it("names the turn it comes before, is the cache miss's reason, and is not repeated every turn", async () => {
    const model = reader(10);
    const { events, result } = await readWith(model, { compaction: { maxTokens: 500, keepTurns: 1 } });
    expect(result.ok).toBe(true);
    const compactions = events.flatMap((event, index) =>
      event.type === "compaction" ? [{ event, index }] : [],
    );
    expect(compactions.length).toBeGreaterThan(1);
    for (const { event, index } of compactions) {
      const next = events.slice(index).find((later) => later.type === "turn-start");
      expect(next).toMatchObject({ turn: (event as { turn: number }).turn });
    }
    expect(events.filter((event) => event.type === "cache-miss")).toContainEqual(
      expect.objectContaining({ reason: "the conversation was compacted" }),
    );
    // Over the threshold on every turn, yet a summary at most every other turn (keepTurns more replies).
    const summaries = model.requests.filter(isSummaryRequest).length;
    expect(summaries).toBeLessThanOrEqual(6);
  });

  it("a preCompact hook can skip it, or give the summary so no model call is made", async () => {
    const skipped = reader(4);
    const skip = await readWith(skipped, {
      compaction: { maxTokens: 2000 },
      hooks: { preCompact: () => ({ decision: "skip" }) },
    });
    expect(skip.result.ok).toBe(true);
    expect(skipped.requests.some(isSummaryRequest)).toBe(false);
    expect(JSON.stringify(skipped.requests.at(-1)?.body)).toContain("page 1:");

    const given = reader(4);
    const older: number[] = [];
    const own = await readWith(given, {
      compaction: { maxTokens: 2000 },
      hooks: {
        preCompact: (input) => {
          older.push(input.older.length);
          return { summary: "MY OWN SUMMARY" };
        },
      },
    });
    expect(own.result.ok).toBe(true);
    expect(given.requests.some(isSummaryRequest)).toBe(false);
    expect(older[0]).toBeGreaterThan(0);
    expect(JSON.stringify(given.requests.at(-1)?.body)).toContain("MY OWN SUMMARY");
  });
});

it("a request refused for its length is compacted and sent again, once", async () => {
  let refused = 0;
  let turn = 0;
  const model = createScriptedModel({
    respond: (request): ScriptedTurn => {
      if (isSummaryRequest(request)) return { content: [{ type: "text", text: "SHORT SUMMARY" }] };
      turn++;
      if (turn <= 3) return { content: [{ type: "tool_call", name: "read", args: { page: turn } }] };
      if (!JSON.stringify(request.body).includes("SHORT SUMMARY")) {
        refused++;
        return {
          fault: { type: "http", status: 400, message: "prompt is too long: 210000 tokens > 200000 maximum" },
        };
      }
      return { content: [{ type: "text", text: "Done." }] };
    },
  });
  const { events, result } = await readWith(model, {
    retry: { maxRetries: 0 },
    compaction: { keepTurns: 1 },
  });
  if (!result.ok) throw result.error;
  expect(refused).toBe(1);
  expect(result.value.text).toBe("Done.");
  expect(events.filter((event) => event.type === "compaction")).toMatchObject([{ reason: "context-length" }]);
  // The refused attempt left no empty reply behind.
  expect(result.value.messages.filter((message) => message.role === "assistant")).toHaveLength(4);
  expectConsistent(result.value.messages);
});

describe("in a session", () => {
  it("export and restore keep the compaction; a restored session's requests send the summary", async () => {
    const model = reader(5);
    const session = okValue(
      await createAgentSession({
        model: MODEL,
        apiKey: "k",
        fetch: model.fetch,
        tools: [read],
        compaction: { maxTokens: 3000 },
      }),
    );
    expect((await session.chat("Read")).ok).toBe(true);
    const state = JSON.parse(JSON.stringify(session.export()));
    expect(state.compaction?.summary).toContain("SUMMARY");
    expect(
      state.messages.some((message: { id: string }) => message.id === state.compaction.firstKeptId),
    ).toBe(true);
    expect(parseSessionState(state).compaction).toEqual(state.compaction);

    const next = createScriptedModel({ script: [{ content: [{ type: "text", text: "Still here." }] }] });
    const restored = okValue(
      await createAgentSession({
        model: MODEL,
        apiKey: "k",
        fetch: next.fetch,
        tools: [read],
        restore: state,
      }),
    );
    expect((await restored.chat("Anything else?")).ok).toBe(true);
    expect(JSON.stringify(next.requests[0]?.body)).toContain("SUMMARY: pages read so far");
    expect(JSON.stringify(next.requests[0]?.body)).not.toContain("page 1:");

    const broken = { ...state, compaction: { ...state.compaction, firstKeptId: "nowhere" } };
    expect(() => parseSessionState(broken)).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", path: "compaction.firstKeptId" }),
    );
  });
});

it.each([
  [{ compaction: { fraction: 2 } }, "compaction.fraction"],
  [{ compaction: { maxTokens: -1 } }, "compaction.maxTokens"],
  [{ compaction: { keepTurn: 2 } }, "compaction.keepTurn"],
  [{ compaction: "yes" }, "compaction"],
])("%j is a ConfigError naming %s", async (extra, path) => {
  const model = reader(0);
  const result = await runAgentStream({
    model: MODEL,
    apiKey: "k",
    fetch: model.fetch,
    prompt: "Hi",
    ...(extra as object),
  }).result;
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.error).toMatchObject({ code: "CONFIG_INVALID", path });
});

it.each([
  [
    { fraction: 2 },
    "compaction.fraction",
    "compaction.fraction must be a number above 0 and at most 1, got 2",
  ],
  [
    { maxTokens: "100" },
    "compaction.maxTokens",
    'compaction.maxTokens must be a positive integer, got "100"',
  ],
  [{ keepTurns: 0 }, "compaction.keepTurns", "compaction.keepTurns must be a positive integer, got 0"],
])("a session with compaction %j is refused when it is created", async (compaction, path, message) => {
  const model = reader(0);
  const creating = createAgentSession({ model: MODEL, apiKey: "k", fetch: model.fetch, compaction } as never);
  expect(failure(await creating)).toMatchObject({
    _tag: "ConfigError",
    code: "CONFIG_INVALID",
    path,
    message,
  });
  expect(model.requests).toHaveLength(0);
});
