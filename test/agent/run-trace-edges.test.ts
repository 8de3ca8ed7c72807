/**
 * The run span's events and content in corners the main trace tests (test/telemetry/run-spans.test.ts)
 * leave out: the prompt's parts (an image named by its type only) recorded once, not replaced by a later
 * user message; an approval's reason only with recordContent; a question asked, a hook that failed,
 * a compaction and a prompt-cache miss as events of the run's span; a resume's decision reasons only
 * with recordContent; a run that ends while a tool's span is open (a tool object that throws on the
 * way) still ends that span; with a tracer that is not the SDK's, each span is ended exactly once.
 */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AgentEvent,
  askUserTool,
  createAgentSession,
  defineTool,
  type JsonObject,
  runAgent,
  type Telemetry,
  type Tool,
  uncheckedModel,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, echo, says, scripted, sendTo as send } from "../support/agent.ts";
import { isSummaryRequest, read } from "../support/compaction.ts";
import { okValue } from "../support/results.ts";

const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer(
  "wisp-run-trace-edges",
);

afterEach(() => exporter.reset());

const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** The one `invoke_agent` span that ended (the test fails when there is not exactly one). */
function runSpan(): ReadableSpan {
  const found = exporter.getFinishedSpans().filter((span) => span.name === "invoke_agent");
  expect(found).toHaveLength(1);
  return found[0] as ReadableSpan;
}

/** The attributes of the run span's events named `name`. */
function eventsNamed(name: string): Array<Record<string, unknown> | undefined> {
  return runSpan()
    .events.filter((event) => event.name === name)
    .map((event) => event.attributes);
}

describe("the prompt as content", () => {
  it("records the prompt's parts (an image by its type only), and not a later user message", async () => {
    let blocked = false;
    const { options } = scripted([says("A pixel."), says("Still a pixel.")]);
    const result = await runAgent(
      options({
        prompt: "What is this?",
        attachments: [{ type: "image", data: PIXEL, mimeType: "image/png" }],
        // The stop hook's block adds a user message of its own: it is not the prompt.
        hooks: {
          stop: () => {
            if (blocked) return;
            blocked = true;
            return { decision: "block", reason: "Look again." };
          },
        },
        telemetry: { tracer, recordContent: true },
      }),
    );
    expect(okValue(result).turns).toBe(2);
    expect(JSON.parse(String(runSpan().attributes["gen_ai.input.messages"]))).toEqual([
      { role: "user", parts: [{ type: "text", content: "What is this?" }, { type: "image" }] },
    ]);
  });
});

describe("events of the run's span", () => {
  const asking = (recordContent: boolean) => {
    const { options } = scripted([calls(["echo", { word: "hi" }])]);
    return runAgent(
      options({
        tools: [echo],
        hooks: { preToolUse: () => ({ decision: "ask", reason: "echo to hi needs a look" }) },
        telemetry: { tracer, recordContent },
      }),
    );
  };

  it("an approval's reason is recorded only with recordContent", async () => {
    expect(okValue(await asking(true)).stopReason).toBe("approval");
    expect(eventsNamed("wisp.approval.requested")).toEqual([
      {
        "gen_ai.tool.name": "echo",
        "gen_ai.tool.call.id": expect.any(String),
        "wisp.approval.reason": "echo to hi needs a look",
      },
    ]);
    exporter.reset();
    expect(okValue(await asking(false)).stopReason).toBe("approval");
    const [requested] = eventsNamed("wisp.approval.requested");
    expect(requested).toMatchObject({ "gen_ai.tool.name": "echo" });
    expect(requested?.["wisp.approval.reason"]).toBeUndefined();
  });

  it("a question asked is an event with the tool, the call and how many questions", async () => {
    const asked = {
      questions: [
        { question: "Which?", header: "Pick", options: [{ label: "A" }, { label: "B" }], multiSelect: false },
      ],
    };
    const { options } = scripted([calls(["ask_user", asked])]);
    const result = okValue(await runAgent(options({ tools: [askUserTool()], telemetry: { tracer } })));
    expect(result.stopReason).toBe("question");
    expect(eventsNamed("wisp.question.requested")).toEqual([
      {
        "gen_ai.tool.name": "ask_user",
        "gen_ai.tool.call.id": result.pendingQuestions?.[0]?.toolCallId,
        "wisp.question.count": 1,
      },
    ]);
  });

  it("a hook that failed is an event with the hook, its event, the error code and the policy", async () => {
    const { options } = scripted([calls(["echo", { word: "hi" }]), says("Denied.")]);
    const result = await runAgent(
      options({
        tools: [echo],
        hooks: {
          preToolUse: {
            name: "policy",
            handler: () => {
              throw new Error("policy server down");
            },
          },
        },
        telemetry: { tracer },
      }),
    );
    expect(okValue(result).stopReason).toBe("complete");
    expect(eventsNamed("wisp.hook.error")).toEqual([
      {
        "wisp.hook.event": "preToolUse",
        "wisp.hook.name": "policy",
        "error.type": "HOOK_FAILED",
        "wisp.hook.policy": "closed",
      },
    ]);
  });

  it("a compaction is an event with its reason, the messages summarized and the tokens", async () => {
    let pages = 0;
    const model = createScriptedModel({
      respond: (request): ScriptedTurn => {
        if (isSummaryRequest(request)) return { content: [{ type: "text", text: "SUMMARY" }] };
        pages++;
        return pages > 3
          ? { content: [{ type: "text", text: "Done." }] }
          : { content: [{ type: "tool_call", name: "read", args: { page: pages } }] };
      },
    });
    const seen: AgentEvent[] = [];
    const result = await runAgent({
      model: uncheckedModel("anthropic/claude-sonnet-4-5"),
      apiKey: "k",
      fetch: model.fetch,
      prompt: "Read the pages.",
      tools: [read],
      compaction: { maxTokens: 500, keepTurns: 1 },
      onEvent: (event) => {
        seen.push(event);
      },
      telemetry: { tracer },
    });
    expect(result.ok).toBe(true);
    const compactions = seen.flatMap((event) => (event.type === "compaction" ? [event] : []));
    expect(compactions.length).toBeGreaterThan(0);
    expect(eventsNamed("wisp.compaction")).toEqual(
      compactions.map((event) => ({
        "wisp.compaction.reason": event.reason,
        "wisp.compaction.summarized": event.summarized,
        "wisp.compaction.tokens": event.tokens,
      })),
    );
  });

  it("a prompt-cache miss is an event with the turn and the reason", async () => {
    const clock = defineTool({
      name: "clock",
      description: "Tells the time",
      inputSchema: { type: "object" },
      execute: () => "noon",
    });
    const model = createScriptedModel({ script: [says("One."), says("Two.")] });
    const tools: Tool<JsonObject>[] = [clock];
    const session = okValue(
      await createAgentSession({
        model: "anthropic/claude-sonnet-4-5",
        apiKey: "k",
        fetch: model.fetch,
        tools,
        telemetry: { tracer },
      }),
    );
    okValue(await session.chat("One?"));
    exporter.reset();
    tools.pop();
    okValue(await session.chat("Two?"));
    expect(eventsNamed("wisp.cache_miss")).toEqual([
      { "wisp.turn": 1, "wisp.cache_miss.reason": "the tools changed" },
    ]);
  });
});

describe("a resume's decisions", () => {
  const denied = async (telemetry: Telemetry) => {
    const model = createScriptedModel({ script: [calls(["send", { to: "ada" }]), says("Not sent.")] });
    const session = okValue(
      await createAgentSession({
        model: "anthropic/claude-sonnet-4-5",
        apiKey: "k",
        fetch: model.fetch,
        tools: [send],
        telemetry,
      }),
    );
    const paused = okValue(await session.chat("send it"));
    const toolCallId = paused.pendingApprovals?.[0]?.toolCallId as string;
    exporter.reset();
    okValue(await session.resume([{ toolCallId, approved: false, reason: "ada is on leave" }]));
    // A resume has no prompt: its first message (the denied call's result) is not recorded as one.
    expect(runSpan().attributes["gen_ai.input.messages"]).toBeUndefined();
    const [decided] = eventsNamed("wisp.approval.decided");
    return decided;
  };

  it("record the reason only with recordContent", async () => {
    expect(await denied({ tracer, recordContent: true })).toMatchObject({
      "wisp.approval.approved": false,
      "wisp.approval.reason": "ada is on leave",
    });
    const without = await denied({ tracer });
    expect(without).toMatchObject({ "wisp.approval.approved": false });
    expect(without?.["wisp.approval.reason"]).toBeUndefined();
  });
});

describe("a run that ends while a tool's span is open", () => {
  it("ends the span: a tool object whose timeoutMs throws once the call started", async () => {
    let reads = 0;
    const base = defineTool({
      name: "odd",
      description: "Its timeoutMs can be read once",
      inputSchema: { type: "object" },
      execute: () => "never",
    });
    const odd = Object.defineProperty({ ...base }, "timeoutMs", {
      get() {
        reads++;
        if (reads > 1) throw new Error("timeoutMs went away");
        return undefined;
      },
    });
    const { options } = scripted([calls(["odd", {}]), says("never")]);
    const result = await runAgent(options({ tools: [odd], telemetry: { tracer } }));
    expect(!result.ok && result.error.message).toBe("timeoutMs went away");
    expect(exporter.getFinishedSpans().map((span) => span.name)).toContain("execute_tool odd");
    expect(runSpan().attributes["error.type"]).toBe("UNKNOWN");
  });
});

describe("a tracer that is not the SDK's", () => {
  it("has each span ended once: a finished tool's span is not ended again at the run's end", async () => {
    const ends: string[] = [];
    const counting: Telemetry["tracer"] = {
      startSpan(name, options, context) {
        const span = tracer.startSpan(name, options, context);
        const end = span.end.bind(span);
        span.end = (time) => {
          ends.push(name);
          end(time);
        };
        return span;
      },
    };
    const { options } = scripted([calls(["echo", { word: "a" }], ["echo", { word: "b" }]), says("done")]);
    okValue(await runAgent(options({ tools: [echo], telemetry: { tracer: counting } })));
    expect(ends.sort()).toEqual([
      "chat claude-sonnet-4-5",
      "chat claude-sonnet-4-5",
      "execute_tool echo",
      "execute_tool echo",
      "invoke_agent",
    ]);
  });
});
