/**
 * The turn loop's less travelled ways: a length refusal (compacted once, also on a later run's first
 * turn, never after the answer began or for another error, the turn count kept), a turn that fails after its tool calls, answers through the hidden
 * answer tool (retries, maxTurns, stop blocks), turns cut off at maxTokens (budget first, stop blocks
 * bounded), an abort between the model turn and its tools, a pause with approvals only, steering
 * delivered after a final answer and after a resumed turn, and the prompt cache key's endpoint check.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  type AgentEvent,
  type AgentOptions,
  createAgentSession,
  defineTool,
  runAgent,
  runAgentStream,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import {
  calls,
  collect,
  echo,
  expectConsistent,
  gate,
  requestBody,
  says,
  scripted,
} from "../support/agent.ts";
import { isSummaryRequest, read } from "../support/compaction.ts";
import { okValue } from "../support/results.ts";

const TOO_LONG = "prompt is too long: 210000 tokens > 200000 maximum";

/**
 * A model that reads three pages, one a turn, then answers the fourth request with `fourth` (given
 * whether the request carries the summary); summary requests get a short summary.
 */
function reader(fourth: (summarized: boolean) => ScriptedTurn) {
  let turn = 0;
  const model = createScriptedModel({
    respond: (request): ScriptedTurn => {
      if (isSummaryRequest(request)) return { content: [{ type: "text", text: "SHORT SUMMARY" }] };
      turn++;
      if (turn <= 3) return { content: [{ type: "tool_call", name: "read", args: { page: turn } }] };
      return fourth(JSON.stringify(request.body).includes("SHORT SUMMARY"));
    },
  });
  const run = async () => {
    const stream = runAgentStream({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      fetch: model.fetch,
      prompt: "Read",
      tools: [read],
      retry: { maxRetries: 0 },
      compaction: { keepTurns: 1 },
    });
    const events = await collect(stream);
    return { events, result: await stream.result, model };
  };
  return run();
}

const compactions = (events: AgentEvent[]) => events.filter((event) => event.type === "compaction");

describe("a request refused for its length", () => {
  it("is sent again under the same turn number once compacted", async () => {
    const { events, result } = await reader((summarized) =>
      summarized
        ? { content: [{ type: "text", text: "Done." }] }
        : { fault: { type: "http", status: 400, message: TOO_LONG } },
    );
    if (!result.ok) throw result.error;
    expect(result.value.turns).toBe(4);
    const starts = events.flatMap((event) => (event.type === "turn-start" ? [event.turn] : []));
    expect(starts).toEqual([1, 2, 3, 4, 4]);
  });

  it("refused again after compacting ends the run with CONTEXT_LENGTH: it is compacted only once", async () => {
    const { events, result, model } = await reader(() => ({
      fault: { type: "http", status: 400, message: TOO_LONG },
    }));
    expect(!result.ok && result.error.code).toBe("CONTEXT_LENGTH");
    expect(compactions(events)).toHaveLength(1);
    expect(model.requests.filter((request) => !isSummaryRequest(request))).toHaveLength(5);
  });

  it("on a later run's first turn is compacted too: the session's earlier turns are summarized", async () => {
    let refused = 0;
    const model = createScriptedModel({
      respond: (request): ScriptedTurn => {
        if (isSummaryRequest(request)) return { content: [{ type: "text", text: "SHORT SUMMARY" }] };
        const body = JSON.stringify(request.body);
        if (body.includes("Now sum them up") && !body.includes("SHORT SUMMARY")) {
          refused++;
          return { fault: { type: "http", status: 400, message: TOO_LONG } };
        }
        const reads = (body.match(/"page"/g) ?? []).length;
        if (!body.includes("Now sum them up") && reads < 3)
          return { content: [{ type: "tool_call", name: "read", args: { page: reads + 1 } }] };
        return { content: [{ type: "text", text: "Done." }] };
      },
    });
    const session = okValue(
      await createAgentSession({
        model: "anthropic/claude-sonnet-4-5",
        apiKey: "k",
        fetch: model.fetch,
        tools: [read],
        retry: { maxRetries: 0 },
        compaction: { keepTurns: 1 },
      }),
    );
    expect((await session.chat("Read")).ok).toBe(true);
    const stream = session.stream("Now sum them up");
    const events = await collect(stream);
    const result = await stream.result;
    if (!result.ok) throw result.error;
    expect(refused).toBe(1);
    expect(result.value.text).toBe("Done.");
    expect(compactions(events)).toMatchObject([{ reason: "context-length" }]);
  });

  it("for another reason is not compacted: the run fails with that error", async () => {
    const { events, result, model } = await reader(() => ({
      fault: { type: "http", status: 401, message: "invalid x-api-key" },
    }));
    expect(!result.ok && result.error.code).toBe("AUTH");
    expect(compactions(events)).toEqual([]);
    expect(model.requests.filter(isSummaryRequest)).toEqual([]);
  });

  it("after the answer began is not compacted: the partial turn stays and the run fails", async () => {
    const { events, result } = await reader(() => ({
      content: [{ type: "text", text: "I have read three pages and" }],
      fault: { type: "error-event", afterEvents: 4, errorType: "invalid_request_error", message: TOO_LONG },
    }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("CONTEXT_LENGTH");
    expect(compactions(events)).toEqual([]);
    expect(result.partial.messages.at(-1)).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text: "I " }],
    });
  });
});

describe("a model turn that fails after its tool calls", () => {
  it("answers the calls as not run because the turn failed", async () => {
    const { options } = scripted([
      {
        content: [
          { type: "tool_call", name: "echo", args: { word: "a" } },
          { type: "text", text: "and then some more words" },
        ],
        fault: { type: "error-event", afterEvents: 7, errorType: "overloaded_error" },
      },
    ]);
    const result = await runAgent(options({ tools: [echo] }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("OVERLOADED");
    expectConsistent(result.partial.messages);
    const results = result.partial.messages.at(-1);
    expect(results).toMatchObject({
      role: "tool_result",
      content: [{ output: "Tool call not run: the model turn failed", isError: true }],
    });
  });
});

describe("answers through the hidden answer tool", () => {
  const City = z.object({ city: z.string(), celsius: z.number().int() });
  const weather = defineTool({
    name: "weather",
    description: "The weather in a city",
    input: z.object({ city: z.string() }),
    execute: ({ city }) => `${city}: 21 °C`,
  });
  const invalid = () => calls(["final_answer", { city: "Oslo", celsius: "warm" }]);
  const valid = () => calls(["final_answer", { city: "Oslo", celsius: 21 }]);
  const gemini = (script: ScriptedTurn[]) => scripted(script, "google/gemini-2.5-flash");

  it("a refused answer is sent back outputRetries times, then the run ends OUTPUT_INVALID", async () => {
    const { model, options } = gemini([invalid(), invalid(), invalid(), valid()]);
    const result = await runAgent(options({ tools: [weather], output: City, outputRetries: 1 }));
    expect(model.requests).toHaveLength(2);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "OUTPUT_INVALID" });
    expect(result.error.message).toMatch(/after 2 answers/);
    expectConsistent(result.partial.messages);
  });

  it("the retries stop at maxTurns", async () => {
    const { model, options } = gemini([invalid(), invalid(), invalid(), valid()]);
    const result = await runAgent(options({ tools: [weather], output: City, outputRetries: 5, maxTurns: 2 }));
    expect(model.requests).toHaveLength(2);
    expect(!result.ok && result.error.code).toBe("OUTPUT_INVALID");
  });

  it("stop hooks may block an accepted answer at most maxStopBlocks times", async () => {
    const { model, options } = gemini([valid(), valid(), valid(), valid()]);
    let asked = 0;
    const result = await runAgent(
      options({
        tools: [weather],
        output: City,
        maxStopBlocks: 1,
        hooks: {
          stop: () => {
            asked++;
            return { decision: "block", reason: "Check again." };
          },
        },
      }),
    );
    if (!result.ok) throw result.error;
    expect([result.value.stopReason, result.value.turns, asked]).toEqual(["complete", 2, 1]);
    expect(model.requests).toHaveLength(2);
    expect(result.value.output).toEqual({ city: "Oslo", celsius: 21 });
  });
});

describe("a turn cut off at maxTokens", () => {
  it("without tool calls still meets the budget first", async () => {
    const { options } = scripted([{ ...says("A long answer cut"), stopReason: "max_tokens" }, says("never")]);
    const result = await runAgent(options({ budget: { maxTokens: 1 } }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.partial.stopReason).toBe("budget");
    expect(result.error.code).toBe("BUDGET_EXCEEDED");
  });

  it("with tool calls: stop hooks may block it at most maxStopBlocks times", async () => {
    const cut = (): ScriptedTurn => ({ ...calls(["echo", { word: "a" }]), stopReason: "max_tokens" });
    const { model, options } = scripted([cut(), cut(), cut(), cut()]);
    let asked = 0;
    const result = await runAgent(
      options({
        tools: [echo],
        maxStopBlocks: 1,
        hooks: {
          stop: () => {
            asked++;
            return { decision: "block", reason: "Shorter, please." };
          },
        },
      }),
    );
    if (!result.ok) throw result.error;
    expect([result.value.stopReason, result.value.turns, asked]).toEqual(["maxTokens", 2, 1]);
    expect(model.requests).toHaveLength(2);
    expectConsistent(result.value.messages);
  });
});

describe("an abort between a model turn and its tools", () => {
  it("answers the calls as not run because the run was aborted", async () => {
    const controller = new AbortController();
    let ran = false;
    const tool = defineTool({
      name: "echo",
      description: "Echoes",
      inputSchema: { type: "object" },
      execute: () => {
        ran = true;
        return "ran";
      },
    });
    const { model, options } = scripted([calls(["echo", {}]), says("never")]);
    const events: AgentEvent[] = [];
    const result = await runAgent({
      ...options({ tools: [tool], signal: controller.signal }),
      onEvent: (event) => {
        events.push(event);
        if (event.type === "turn-end") controller.abort(new Error("stop now"));
      },
    });
    expect(ran).toBe(false);
    // No second turn is begun with the aborted signal.
    expect(model.requests).toHaveLength(1);
    expect(events.filter((event) => event.type === "turn-start")).toHaveLength(1);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("ABORTED");
    expect(result.partial.stopReason).toBe("aborted");
    expectConsistent(result.partial.messages);
    expect(result.partial.toolCalls).toEqual([]);
    expect(result.partial.messages.at(-1)).toMatchObject({
      role: "tool_result",
      content: [{ output: "Tool call not run: the run was aborted" }],
    });
  });
});

describe("an abort before the next turn", () => {
  it("a turn the provider paused (pause_turn) and an abort at its end: the turn that would resume it is not begun", async () => {
    const controller = new AbortController();
    const { model, options } = scripted([
      { ...says("Searching..."), stopReason: "pause_turn" },
      says("never"),
    ]);
    const events: AgentEvent[] = [];
    const result = await runAgent({
      ...options({ signal: controller.signal }),
      onEvent: (event) => {
        events.push(event);
        if (event.type === "turn-end") controller.abort(new Error("stop now"));
      },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("ABORTED");
    expect(result.partial.stopReason).toBe("aborted");
    expect(model.requests).toHaveLength(1);
    expect(events.filter((event) => event.type === "turn-start")).toHaveLength(1);
    expectConsistent(result.partial.messages);
    expect(result.partial.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
  });
});

describe("a pause", () => {
  it("with approvals only has no pending questions", async () => {
    const send = defineTool({
      name: "send",
      description: "Sends",
      inputSchema: { type: "object" },
      needsApproval: true,
      execute: () => "sent",
    });
    const { options } = scripted([calls(["send", {}]), says("never")]);
    const result = await runAgent(options({ tools: [send] }));
    if (!result.ok) throw result.error;
    expect(result.value.stopReason).toBe("approval");
    expect(result.value.pendingApprovals).toHaveLength(1);
    expect(result.value).not.toHaveProperty("pendingQuestions");
  });
});

/** The user texts of a request, in order (Anthropic format). */
function userTexts(body: unknown): string[] {
  const messages = (
    body as { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> }
  ).messages;
  return messages.flatMap((message) =>
    message.role === "user"
      ? message.content.flatMap((block) => (block.type === "text" ? [block.text ?? ""] : []))
      : [],
  );
}

async function sessionOn(model: ReturnType<typeof createScriptedModel>, extra: Partial<AgentOptions> = {}) {
  return okValue(
    await createAgentSession({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      fetch: model.fetch,
      ...(extra as object),
    }),
  );
}

describe("steering", () => {
  it("a prompt steered in while the model gives its final answer gets another turn", async () => {
    let steered: Promise<unknown> | undefined;
    let session: Awaited<ReturnType<typeof sessionOn>> | undefined;
    const model = createScriptedModel({
      respond: (_, index) => {
        if (index === 0) steered = session?.chat("And in Celsius?", { mode: "steer" });
        return index === 0 ? says("It is 70 °F.") : says("21 °C.");
      },
    });
    session = await sessionOn(model);
    const result = await session.chat("How warm is it?");
    await steered;
    if (!result.ok) throw result.error;
    expect(result.value.text).toBe("21 °C.");
    expect(model.requests).toHaveLength(2);
    expect(userTexts(requestBody(model, 1))).toEqual(["How warm is it?", "And in Celsius?"]);
  });

  it("a prompt steered in while a resumed turn's tool runs comes right after its results", async () => {
    const { tool, hasStarted, release } = gate();
    const approved = defineTool({ ...tool, needsApproval: true });
    const model = createScriptedModel({ script: [calls(["gate", {}]), says("done"), says("steered done")] });
    const session = await sessionOn(model, { tools: [approved] } as Partial<AgentOptions>);
    const first = await session.chat("start");
    if (!first.ok) throw first.error;
    const id = first.value.pendingApprovals?.[0]?.toolCallId as string;
    const resumed = session.resume([{ toolCallId: id, approved: true }]);
    await hasStarted;
    const steered = session.chat("Also check the logs", { mode: "steer" });
    release();
    const [result] = await Promise.all([resumed, steered]);
    if (!result.ok) throw result.error;
    expect(userTexts(requestBody(model, 1))).toEqual(["start", "Also check the logs"]);
    expect(model.requests).toHaveLength(2);
  });
});

describe("the prompt cache key", () => {
  it("is not made up for a server whose address only contains OpenAI's", async () => {
    const { model, options } = scripted([says("Hi.")], "openai/gpt-4o");
    await runAgent(options({ baseURL: "https://gateway.example/https://api.openai.com/v1" }));
    expect(requestBody(model, 0)).not.toHaveProperty("prompt_cache_key");
  });

  it("on OpenAI's own endpoint is the caller's when one is set, with the rest of the cache option", async () => {
    const { model, options } = scripted([says("Hi.")], "openai/gpt-4o");
    await runAgent(options({ cache: { retention: "24h", key: "tenant-7" } }));
    expect(requestBody(model, 0)).toMatchObject({
      prompt_cache_key: "tenant-7",
      prompt_cache_retention: "24h",
    });
  });
});
