/**
 * The types that help: `model` is `"provider/model"` with known models listed, and a run's tool calls
 * are typed per tool — narrowing on `name` gives that tool's arguments in `tool-start`, `tool-result`
 * and `result.value.toolCalls` — while code that names no tool types compiles as before.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { DecisionHandlers } from "../../src/bridge/index.ts";
import {
  type AgentEvent,
  type AgentResult,
  type AgentSession,
  agentOptions,
  createAgentSession,
  createSession,
  defineTool,
  type JsonObject,
  type KnownModelName,
  type ModelName,
  type ModelOption,
  runAgent,
  runAgentStream,
  type SessionOptions,
  sessionOptions,
  streamTurn,
  type Tool,
  type ToolCallPart,
  type TypedToolCall,
  uncheckedModel,
} from "../../src/index.ts";
import { calls, says, scripted } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

const weather = defineTool({
  name: "weather",
  description: "Weather for a city",
  input: z.object({ city: z.string(), days: z.number().default(1) }),
  execute: ({ city, days }) => `${city}: sunny for ${days} days`,
});
const search = defineTool({
  name: "search",
  description: "Searches",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  execute: () => "nothing",
});

describe("model names", () => {
  it("accepts any provider/model and lists the known models", () => {
    expectTypeOf<"anthropic/claude-sonnet-5-5">().toExtend<ModelName>();
    expectTypeOf<"openai/llama3.2">().toExtend<ModelName>();
    expectTypeOf<"gemini/gemini-2.5-pro">().toExtend<KnownModelName>();
    // Known names stay in the union (that is what makes them autocomplete), not folded into the pattern.
    expectTypeOf<
      Extract<ModelName, "anthropic/claude-sonnet-5-5">
    >().toEqualTypeOf<"anthropic/claude-sonnet-5-5">();
  });

  it("refuses a model without a known provider prefix", () => {
    expectTypeOf<"claude-sonnet-5-5">().not.toExtend<ModelName>();
    expectTypeOf<"antropic/claude-sonnet-5-5">().not.toExtend<ModelName>();
    expectTypeOf<string>().not.toExtend<ModelName>();
    expectTypeOf(runAgent).parameter(0).toHaveProperty("model").toEqualTypeOf<ModelOption>();
    expectTypeOf<Extract<ModelOption, "openai/gpt-5.5">>().toEqualTypeOf<"openai/gpt-5.5">();
  });

  it("checks a literal model's prefix in the options themselves; uncheckedModel is the one escape", () => {
    const fromConfig: string = "mystery/model-1";
    const base = { apiKey: "k", prompt: "Hi" };
    expectTypeOf<"antropic/claude-sonnet-5-5">().not.toExtend<ModelOption>();
    expectTypeOf<string>().not.toExtend<ModelOption>();
    // @ts-expect-error a misspelt provider prefix
    void (() => runAgent({ ...base, model: "antropic/claude-sonnet-5-5" }));
    // @ts-expect-error a string from configuration needs the escape
    void (() => runAgent({ ...base, model: fromConfig }));
    // @ts-expect-error streamTurn's model too
    void (() => streamTurn({ messages: [] }, { model: "antropic/claude-sonnet-5-5" }));
    void (() => runAgent({ ...base, model: "openai/llama3.2" }));
    void (() => runAgent({ ...base, model: uncheckedModel(fromConfig) }));
    // It changes nothing at run time: the run checks the prefix instead.
    expect(uncheckedModel(fromConfig)).toBe("mystery/model-1");
  });
});

describe("optional options", () => {
  it("a signal that may be undefined is accepted where a signal is (exactOptionalPropertyTypes)", () => {
    type MaybeSignal = { signal: AbortSignal | undefined };
    expectTypeOf<MaybeSignal>().toExtend<Pick<Parameters<typeof runAgent>[0], "signal">>();
    expectTypeOf<MaybeSignal>().toExtend<NonNullable<Parameters<AgentSession["chat"]>[1]>>();
    expectTypeOf<MaybeSignal>().toExtend<NonNullable<Parameters<AgentSession["resume"]>[1]>>();
  });
});

describe("typed tool calls", () => {
  it("defineTool keeps the tool's name and its input type", () => {
    expectTypeOf(weather.name).toEqualTypeOf<"weather">();
    expectTypeOf(weather).toExtend<Tool<unknown>>();
    expectTypeOf<TypedToolCall<typeof weather>["args"]>().toEqualTypeOf<{ city: string; days?: number }>();
  });

  it("narrowing on name gives each tool's arguments in events and records", async () => {
    const { options } = scripted([
      calls(["weather", { city: "Oslo" }], ["search", { q: "x" }]),
      says("done"),
    ]);
    const run = runAgentStream({ ...options(), tools: [weather, search] });
    const cities: string[] = [];
    for await (const event of run) {
      if (event.type === "tool-start" && event.toolCall.name === "weather") {
        expectTypeOf(event.toolCall.args.city).toEqualTypeOf<string>();
        cities.push(event.toolCall.args.city);
      }
      if (event.type === "tool-result" && event.toolCall.name === "search") {
        expectTypeOf(event.toolCall.args).toEqualTypeOf<JsonObject>();
      }
    }
    const result = await run.result;
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const record = result.value.toolCalls[0];
    if (record?.toolCall.name === "weather") {
      expectTypeOf(record.toolCall.args.days).toEqualTypeOf<number | undefined>();
      expect(record.toolCall.args).toEqual({ city: "Oslo" });
    }
    expectTypeOf(result.value.toolCalls[0]?.toolCall.name).toEqualTypeOf<"weather" | "search" | undefined>();
    expect(cities).toEqual(["Oslo"]);
  });

  it("types runAgent's result and a session's chat and stream by the tools given", async () => {
    const { options } = scripted([says("hi")]);
    const result = await runAgent({ ...options(), tools: [weather] });
    expectTypeOf(result).toExtend<{ ok: true; value: AgentResult<typeof weather> } | { ok: false }>();
    const { prompt: _, ...config } = options();
    const session = okValue(await createAgentSession({ ...config, tools: [weather, search] }));
    expectTypeOf(session).toEqualTypeOf<AgentSession<typeof weather | typeof search>>();
    expectTypeOf(session.stream).returns.toExtend<
      AsyncIterable<AgentEvent<typeof weather | typeof search>>
    >();
    await session.close();
  });

  it("leaves code without typed tools as it was: plain ToolCallParts, assignable both ways", async () => {
    const { options } = scripted([says("hi")]);
    const result = await runAgent(options());
    if (result.ok)
      expectTypeOf(result.value.toolCalls[0]?.toolCall).toEqualTypeOf<ToolCallPart | undefined>();
    expectTypeOf<AgentEvent>().toEqualTypeOf<AgentEvent<Tool<unknown>>>();
    expectTypeOf<AgentResult<typeof weather>>().toExtend<AgentResult>();
    const untyped: Tool<unknown>[] = [weather, search];
    const typedAsUnknown = await runAgent({ ...options(), tools: untyped });
    if (typedAsUnknown.ok)
      expectTypeOf(typedAsUnknown.value.toolCalls[0]?.toolCall.name).toEqualTypeOf<string | undefined>();
  });
});

describe("hooks know the run's tools", () => {
  it("narrowing a hook's toolCall on its name gives that tool's arguments, exactly", async () => {
    const { options } = scripted([calls(["weather", { city: "Oslo" }]), says("done")]);
    const seen: string[] = [];
    const result = await runAgent({
      ...options(),
      tools: [weather, search],
      hooks: {
        preToolUse: ({ toolCall }) => {
          expectTypeOf(toolCall.name).toEqualTypeOf<"weather" | "search">();
          if (toolCall.name === "weather") {
            expectTypeOf(toolCall.args.city).toEqualTypeOf<string>();
            // @ts-expect-error: a weather call has no `q` (no index signature lets it through)
            void toolCall.args.q;
            seen.push(toolCall.args.city);
          }
          return undefined;
        },
        postToolUse: [
          {
            handler: ({ toolCall, result }) => {
              if (toolCall.name === "weather")
                expectTypeOf(toolCall.args.days).toEqualTypeOf<number | undefined>();
              expect(result.isError).toBe(false);
            },
          },
        ],
      },
    });
    expect(result.ok).toBe(true);
    expect(seen).toEqual(["Oslo"]);
  });

  it("the tools alone decide the tools' type: a hook does not widen or narrow it", async () => {
    const { options } = scripted([says("hi")]);
    const result = await runAgent({ ...options(), tools: [weather], hooks: { preToolUse: () => undefined } });
    expectTypeOf(result).toExtend<{ ok: true; value: AgentResult<typeof weather> } | { ok: false }>();
    // A session's hooks are typed the same way.
    const { prompt: _, ...config } = options();
    const session = okValue(
      await createAgentSession({
        ...config,
        tools: [weather],
        hooks: {
          preToolUse: ({ toolCall }) => {
            expectTypeOf(toolCall.args).toEqualTypeOf<{ city: string; days?: number }>();
          },
        },
      }),
    );
    await session.close();
  });

  it("events and results have no index-signature loophole either", () => {
    type Call = TypedToolCall<typeof weather | typeof search>;
    const call = {} as Call;
    if (call.name === "weather") {
      // @ts-expect-error: `q` is the search tool's
      void call.args.q;
    } else expectTypeOf(call.args).toEqualTypeOf<JsonObject>();
    // A typed call is still a ToolCallPart.
    expectTypeOf<Call>().toExtend<ToolCallPart>();
  });
});

describe("options held in a variable keep their types", () => {
  it("agentOptions infers the tools and the output as the call would; its hooks are typed", async () => {
    const { options } = scripted([calls(["weather", { city: "Oslo" }]), says('{"verdict":"sunny"}')]);
    const held = agentOptions({
      ...options(),
      tools: [weather],
      output: z.object({ verdict: z.string() }),
      hooks: {
        preToolUse: ({ toolCall }) => {
          expectTypeOf(toolCall.args).toEqualTypeOf<{ city: string; days?: number }>();
        },
      },
    });
    const result = await runAgent(held);
    expectTypeOf(result).toExtend<
      { ok: true; value: AgentResult<typeof weather, { verdict: string }> } | { ok: false }
    >();
    expect(result.ok && result.value.output).toEqual({ verdict: "sunny" });
  });

  it("sessionOptions does the same for a session reused across requests", async () => {
    const { options } = scripted([says('{"verdict":"sunny"}')]);
    const { prompt: _, ...config } = options();
    const held = sessionOptions({ ...config, tools: [weather], output: z.object({ verdict: z.string() }) });
    expectTypeOf(held).toEqualTypeOf<SessionOptions<typeof weather, { verdict: string }>>();
    const session = okValue(await createAgentSession(held));
    expectTypeOf(session).toEqualTypeOf<AgentSession<typeof weather, { verdict: string }>>();
    const answer = await session.chat("verdict?");
    expect(answer.ok && answer.value.output).toEqual({ verdict: "sunny" });
    await session.close();
  });
});

describe("bridge answers are typed per decision kind", () => {
  it("a handler's answer must be its kind's: an approval's answer to a tool-before question does not compile", () => {
    const handlers: DecisionHandlers = {
      approval: ({ approval }) => ({ approved: approval.toolName === "send", reason: "checked" }),
      "tool-before": ({ toolCall }) =>
        toolCall.name === "rm" ? { decision: "deny", reason: "no" } : undefined,
    };
    const wrong: DecisionHandlers = {
      // @ts-expect-error { approved } answers an approval, not a tool-before question
      "tool-before": () => ({ approved: true }),
      // @ts-expect-error a preToolUse decision is no approval answer
      approval: () => ({ decision: "allow" }),
    };
    expectTypeOf<Parameters<NonNullable<DecisionHandlers["stop"]>>[0]["kind"]>().toEqualTypeOf<"stop">();
    expect(Object.keys(handlers)).toEqual(["approval", "tool-before"]);
    expect(Object.keys(wrong)).toHaveLength(2);
  });
});

describe("approvals are typed by the tools", () => {
  it("a decision naming its tool edits that tool's input; pending approvals narrow on toolName", async () => {
    const created = await createAgentSession({
      model: "anthropic/claude-sonnet-5-5",
      apiKey: "k",
      tools: [weather, search],
    });
    const session = okValue(created);
    type Decision = Parameters<typeof session.resume>[0][number];
    const good: Decision = {
      toolCallId: "c1",
      toolName: "weather",
      approved: true,
      args: { city: "Oslo", days: 2 },
    };
    // @ts-expect-error weather's input has no q
    const wrong: Decision = { toolCallId: "c1", toolName: "weather", approved: true, args: { q: "x" } };
    // @ts-expect-error no tool of this session has that name
    const unknown: Decision = { toolCallId: "c1", toolName: "wether", approved: true };
    type Pending = NonNullable<
      Extract<Awaited<ReturnType<typeof session.chat>>, { ok: true }>["value"]["pendingApprovals"]
    >[number];
    expectTypeOf<Extract<Pending, { toolName: "weather" }>["args"]>().toEqualTypeOf<{
      city: string;
      days?: number;
    }>();
    expect([good, wrong, unknown]).toHaveLength(3);
    await session.close();
  });
});

describe("an input JSON cannot carry", () => {
  it("a Date in a tool's input keeps the looser type (Input & JsonObject), not a map of its methods", () => {
    // (defineTool refuses a z.date() without an inputSchema: the type alone is what is checked here.)
    type Call = TypedToolCall<Tool<{ at: Date }, "when", { at: Date }>>;
    expectTypeOf<Call["args"]["at"]>().toExtend<Date>();
  });
});

describe("createSession is typed by its tools too", () => {
  it("hooks there know the tools", () => {
    const options = {
      model: "anthropic/claude-sonnet-5-5" as const,
      apiKey: "k",
      tools: [weather, search],
    };
    void (() =>
      createSession({
        ...options,
        canUseTool: (toolName) => ({ behavior: toolName === "weather" ? "allow" : "deny", message: "no" }),
        hooks: {
          preToolUse: ({ toolCall }) => {
            if (toolCall.name === "weather") {
              expectTypeOf(toolCall.args.city).toEqualTypeOf<string>();
              // @ts-expect-error weather's input has no q
              void toolCall.args.q;
            }
            return undefined;
          },
        },
      }));
  });
});
