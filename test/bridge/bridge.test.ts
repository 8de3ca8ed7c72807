/**
 * The bridge's protocol, over a real MessageChannel (every message structured-cloned as between
 * threads): errors cross typed, decisions and their failures and timeouts, unknown and late answers,
 * versions, flow control, and the other side going away. The same scenario in real workers is in
 * runtimes.test.ts.
 */
import { getEventListeners } from "node:events";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import {
  type BridgeReport,
  type ConnectSessionOptions,
  connectSession,
  type DecisionRequest,
  type RemoteSession,
  type ServeSessionOptions,
  serveSession,
  BRIDGE_PROTOCOL_VERSION as v,
} from "../../src/bridge/index.ts";
import {
  type AgentEvent,
  type AgentRunResult,
  defineTool,
  isSdkError,
  uncheckedModel,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, collect, expectConsistent, says } from "../support/agent.ts";
import { channel, closePorts, lookup, send, serveScripted } from "../support/bridge-channel.ts";
import { failure, okValue } from "../support/results.ts";

afterEach(closePorts);

/** A served session on one end of a channel and a connected one on the other. */
async function bridged(
  script: ScriptedTurn[],
  serve: Partial<ServeSessionOptions> = {},
  connect: ConnectSessionOptions = {},
) {
  const [workerSide, mainSide] = channel();
  const model = createScriptedModel({ script });
  const reports: BridgeReport[] = [];
  const server = serveScripted(workerSide, model, {
    tools: [send, lookup],
    onReport: (report) => reports.push(report),
    ...serve,
  });
  const mainReports: BridgeReport[] = [];
  const session = okValue(
    await connectSession(mainSide, {
      onReport: (report) => mainReports.push(report),
      ...connect,
    }),
  );
  return { model, server, session, reports, mainReports, workerSide, mainSide };
}

describe("runs across the port", () => {
  it("chat, stream and export give what the session in the worker has", async () => {
    const { session, server } = await bridged([says("one"), says("two")]);
    const first = await session.chat("hi");
    expect(first.ok && first.value.text).toBe("one");
    const run = session.stream("again");
    const events = await collect(run);
    expect(events[0]?.type).toBe("run-start");
    expect(events.at(-1)?.type).toBe("run-end");
    const text = events.flatMap((event) => (event.type === "text-delta" ? [event.delta] : [])).join("");
    expect(text).toBe("two");
    const state = okValue(await session.export());
    expect(state.sessionId).toBe(session.sessionId);
    expect(state.messages).toHaveLength(4);
    expect(okValue(await session.snapshot()).messageCount).toBe(4);
    await session.close();
    await server.closed;
    expect(failure(await session.export())).toMatchObject({ code: "SESSION_CLOSED" });
  });

  it("a tool's error crosses as a real SdkError with every field", async () => {
    const { session } = await bridged([calls(["lookup", { q: "boom" }]), says("sorry")]);
    const run = session.stream("look");
    const events = await collect(run);
    const result = events.find((event) => event.type === "tool-result");
    expect(result?.type === "tool-result" && result.error).toMatchObject({
      _tag: "ToolError",
      code: "TOOL_FAILED",
      retryable: false,
      details: { tool: "lookup" },
    });
    expect(result?.type === "tool-result" && isSdkError(result.error) && result.error instanceof Error).toBe(
      true,
    );
  });

  it("a provider error crosses typed, with its status and retryability", async () => {
    const { session } = await bridged([{ fault: { type: "http", status: 529 } }]);
    const result = await session.chat("hi");
    expect(!result.ok && isSdkError(result.error)).toBe(true);
    expect(!result.ok && result.error).toMatchObject({
      _tag: "ProviderError",
      code: "OVERLOADED",
      retryable: true,
      status: 529,
    });
  });

  it("an abort from main closes the upstream stream in the worker and leaves the state exportable", async () => {
    const { session, model } = await bridged([
      { content: [{ type: "text", text: "word ".repeat(500) }], delayMs: 2 },
    ]);
    const run = session.stream("story");
    let deltas = 0;
    const disconnected = model.nextDisconnect();
    for await (const event of run) if (event.type === "text-delta" && ++deltas === 2) run.abort("enough");
    const result = await run.result;
    expect(!result.ok && result.error.code).toBe("ABORTED");
    await disconnected;
    expect(model.disconnects).toBe(1);
    const state = okValue(await session.export());
    expect(state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
    expectConsistent(state.messages);
  });

  it("without an approval handler the run pauses as it would in-process, and resume goes on", async () => {
    const { session } = await bridged([calls(["send", { to: "ada" }]), says("sent")]);
    const paused = await session.chat("tell ada");
    expect(paused.ok && paused.value.stopReason).toBe("approval");
    const id = (paused.ok && paused.value.pendingApprovals?.[0]?.toolCallId) as string;
    const resumed = await session.resume([{ toolCallId: id, approved: true }]);
    expect(resumed.ok && resumed.value.text).toBe("sent");
    expect(resumed.ok && resumed.value.toolCalls[0]?.result.output).toBe("sent to ada");
  });

  it("a state passed by main is restored in the worker (and checked there)", async () => {
    const first = await bridged([says("remembered")]);
    await first.session.chat("remember this");
    const state = okValue(await first.session.export());
    const second = await bridged([says("yes")], {}, { restore: JSON.parse(JSON.stringify(state)) });
    expect(second.session.sessionId).toBe(state.sessionId);
    expect(okValue(await second.session.export()).messages).toHaveLength(2);
    const broken = { ...state, messages: [{ role: "bot" }] };
    await expect(bridged([], {}, { restore: broken })).rejects.toMatchObject({
      _tag: "ConfigError",
      code: "CONFIG_INVALID",
      path: "messages.0.role",
    });
  });
});

describe("structured output across the port", () => {
  it("the served session's output reaches the main thread's result; a per-run schema is refused before it is posted", async () => {
    const City = z.object({ city: z.string() });
    const { session, model } = await bridged([says('{"city": "Oslo"}')], { output: City });
    const result = await session.chat("Where?");
    expect(result.ok && result.value.output).toEqual({ city: "Oslo" });
    const refused = await session.chat("Again", { output: City });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toMatchObject({ code: "CONFIG_INVALID", path: "output" });
    expect(model.requests).toHaveLength(1);
  });
});

describe("decisions from the main thread", () => {
  it("each kind reaches onDecision with its hints and what the hook would see; answers take effect", async () => {
    const seen: DecisionRequest[] = [];
    const { session, model } = await bridged(
      [calls(["lookup", { q: "a" }], ["send", { to: "ada" }]), says("done")],
      {},
      {
        onDecision: {
          "prompt-submit": (request) => void seen.push(request),
          "tool-before": (request) => void seen.push(request),
          approval: (request) => {
            seen.push(request);
            return { approved: true, args: { to: "bob" } };
          },
          "tool-after": (request) => {
            seen.push(request);
            return { output: `${request.result.output} (checked)` };
          },
          stop: (request) => void seen.push(request),
        },
      },
    );
    const result = await session.chat("go");
    expect(result.ok && result.value.stopReason).toBe("complete");
    // The two calls run in parallel, so their questions interleave.
    const kinds = seen.map((request) => request.kind);
    expect([kinds[0], kinds.at(-1)]).toEqual(["prompt-submit", "stop"]);
    expect(kinds.slice(1, -1).sort()).toEqual([
      "approval",
      "tool-after",
      "tool-after",
      "tool-before",
      "tool-before",
    ]);
    expect(kinds.indexOf("approval")).toBeGreaterThan(kinds.indexOf("tool-before"));
    const approval = seen.find((request) => request.kind === "approval");
    expect(approval).toMatchObject({
      rawKind: "approval",
      expectsDecision: true,
      canBlock: true,
      timeoutMs: 300_000,
      sessionId: session.sessionId,
      approval: { toolName: "send", args: { to: "ada" } },
    });
    expect(seen[0]).toMatchObject({ kind: "prompt-submit", timeoutMs: 10_000, prompt: { role: "user" } });
    const body = model.requests.at(-1)?.body as {
      messages: Array<{ content: Array<{ type: string; content?: string }> }>;
    };
    const outputs = body.messages.at(-1)?.content.map((block) => block.content);
    expect(outputs).toEqual(["found a (checked)", "sent to bob (checked)"]);
  });

  it("a handler that throws is isolated: approvals and tool-before fail closed, other kinds go on", async () => {
    const { session, reports, mainReports } = await bridged(
      [calls(["send", { to: "ada" }], ["lookup", { q: "x" }]), says("after")],
      {},
      {
        onDecision: {
          approval: () => {
            throw new Error("the UI crashed");
          },
          "tool-after": () => {
            throw new Error("the UI crashed");
          },
        },
      },
    );
    const result = await session.chat("go");
    expect(result.ok && result.value.text).toBe("after");
    const [sent, looked] = result.ok ? result.value.toolCalls.map((call) => call.result) : [];
    expect(sent).toMatchObject({ isError: true, output: expect.stringContaining("the UI crashed") });
    expect(looked).toMatchObject({ isError: false, output: "found x" });
    expect(mainReports.map((report) => report.code)).toEqual([
      "DECISION_HANDLER_FAILED",
      "DECISION_HANDLER_FAILED",
    ]);
    expect(reports).toEqual([]);
  });

  it("no answer in time: an approval is denied, tool-after goes on, and a late answer is reported and ignored", async () => {
    const late: Array<() => void> = [];
    const { session, reports } = await bridged(
      [calls(["send", { to: "ada" }], ["lookup", { q: "x" }]), says("after")],
      {},
      {
        decisionTimeoutsMs: { approval: 50, "tool-after": 50 },
        onDecision: {
          approval: () => new Promise((resolve) => late.push(() => resolve({ approved: true }))),
          "tool-after": () => new Promise((resolve) => late.push(() => resolve({ output: "late" }))),
        },
      },
    );
    const result = await session.chat("go");
    const [sent, looked] = result.ok ? result.value.toolCalls.map((call) => call.result) : [];
    expect(sent).toMatchObject({ isError: true, output: expect.stringContaining("no answer within 50 ms") });
    expect(looked).toMatchObject({ isError: false, output: "found x" });
    for (const answer of late) answer();
    await expect.poll(() => reports.filter((report) => report.code === "DECISION_EXPIRED").length).toBe(2);
    expect(reports.filter((report) => report.code === "DECISION_TIMEOUT")).toHaveLength(2);
  });

  it("a decision for a request nobody asked, or from no connection, is reported and ignored", async () => {
    const { session, reports, mainSide } = await bridged([says("fine")]);
    const decision = { wisp: "bridge", v, t: "decision", requestId: "made-up", answer: { approved: true } };
    mainSide.postMessage(decision);
    mainSide.postMessage({ wisp: "bridge", v, t: "hello", key: "k2", conn: "c2", decides: [], timeouts: {} });
    mainSide.postMessage({ ...decision, key: "k2" });
    await expect.poll(() => reports.map((report) => report.code)).toEqual(["PROTOCOL", "DECISION_UNKNOWN"]);
    expect((await session.chat("still fine")).ok).toBe(true);
  });

  it("a kind a newer worker adds reaches onDecision.unknown, with its name and payload", async () => {
    const [fakeWorker, mainSide] = channel();
    const seen: DecisionRequest[] = [];
    fakeWorker.on("message", (message: { t: string; requestId?: string }) => {
      if (message.t === "hello") fakeWorker.postMessage({ wisp: "bridge", v, t: "ready", sessionId: "s" });
      if (message.t === "decision")
        fakeWorker.postMessage({ wisp: "bridge", v, t: "closed", answered: message });
    });
    const session = okValue(
      await connectSession(mainSide, {
        onDecision: {
          unknown: (request) => {
            seen.push(request);
            return undefined;
          },
        },
      }),
    );
    fakeWorker.postMessage({
      wisp: "bridge",
      v,
      t: "decide",
      requestId: "r1",
      kind: "file-changed",
      expectsDecision: false,
      canBlock: false,
      timeoutMs: 5,
      payload: { path: "a.txt" },
    });
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toMatchObject({
      kind: "unknown",
      rawKind: "file-changed",
      canBlock: false,
      payload: { path: "a.txt" },
    });
    expect(session.sessionId).toBe("s");
  });
});

describe("versions, and the other side going away", () => {
  it("a worker speaking another protocol version is a typed error, not a hang", async () => {
    const [fakeWorker, mainSide] = channel();
    fakeWorker.postMessage({ wisp: "bridge", v: 99, t: "listening" });
    expect(failure(await connectSession(mainSide, { connectTimeoutMs: 5_000 }))).toMatchObject({
      _tag: "ConfigError",
      code: "BRIDGE_VERSION",
      details: { theirs: 99, ours: v },
    });
  });

  it("a main thread speaking another version is refused by the worker with the same typed error", async () => {
    const [workerSide, fakeMain] = channel();
    const reports: BridgeReport[] = [];
    const server = serveSession(workerSide, {
      model: "anthropic/x",
      apiKey: "k",
      onReport: (r) => reports.push(r),
    });
    const answers: Array<{ t: string; error?: unknown }> = [];
    fakeMain.on("message", (message: { t: string }) => answers.push(message));
    // Version 1, before connections had addresses.
    fakeMain.postMessage({ wisp: "bridge", v: 1, t: "hello", decides: [], timeouts: {} });
    await server.closed;
    await expect.poll(() => answers.map((answer) => answer.t)).toEqual(["listening", "refused", "report"]);
    expect(answers[1]?.error).toMatchObject({ _tag: "ConfigError", code: "BRIDGE_VERSION" });
    expect(reports.map((report) => report.code)).toEqual(["PROTOCOL"]);
  });

  it("nobody answering the handshake is BRIDGE_CLOSED after connectTimeoutMs", async () => {
    const [, mainSide] = channel();
    expect(failure(await connectSession(mainSide, { connectTimeoutMs: 50 }))).toMatchObject({
      _tag: "RequestError",
      code: "BRIDGE_CLOSED",
    });
  });

  it("the port closing mid-run ends the run, and every later call, with BRIDGE_CLOSED", async () => {
    const { session, workerSide } = await bridged([
      { content: [{ type: "text", text: "word ".repeat(500) }], delayMs: 2 },
    ]);
    const run = session.stream("story");
    let streamed = "";
    for await (const event of run) {
      if (event.type !== "text-delta") continue;
      streamed += event.delta;
      if (streamed.length > 20) workerSide.close();
    }
    const result = await run.result;
    // Not retryable: every later call on this session fails the same way (a new worker is needed).
    expect(!result.ok && result.error).toMatchObject({
      _tag: "RequestError",
      code: "BRIDGE_CLOSED",
      retryable: false,
    });
    expect(!result.ok && result.partial.stopReason).toBe("error");
    // What this run streamed before the worker went is in the partial result.
    expect(!result.ok && result.partial.text).toBe(streamed);
    expect(!result.ok && result.partial.messages.map((message) => message.role)).toEqual(["user"]);
    expect(failure(await session.export())).toMatchObject({ code: "BRIDGE_CLOSED" });
    expect((await session.chat("again")).ok).toBe(false);
  });

  it("a worker gone during a chat's tool call leaves a partial with the reply, its usage, and the call answered", async () => {
    let started = (): void => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const stuck = defineTool({
      name: "stuck",
      description: "Never returns",
      input: z.object({}),
      execute: () => {
        started();
        return new Promise<string>(() => {});
      },
    });
    const { session, workerSide } = await bridged([calls(["stuck", {}]), says("never")], { tools: [stuck] });
    const chatting = session.chat("go");
    await running;
    workerSide.close();
    const result = await chatting;
    expect(!result.ok && result.error).toMatchObject({ code: "BRIDGE_CLOSED" });
    if (result.ok) return;
    const { messages, usage } = result.partial;
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "tool_result"]);
    expect(messages[2]?.content).toEqual([
      expect.objectContaining({ isError: true, output: "Tool call not run: the session's worker is gone" }),
    ]);
    expectConsistent(messages);
    const reply = messages[1];
    expect(reply?.role === "assistant" && reply.usage.output).toBeGreaterThan(0);
    expect(usage.output).toBe(reply?.role === "assistant" ? reply.usage.output : -1);
  });

  it("a worker that stops answering counts as gone after workerTimeoutMs", async () => {
    const [fakeWorker, mainSide] = channel();
    fakeWorker.on("message", (message: { t: string }) => {
      // Greets, then never answers anything again.
      if (message.t === "hello") fakeWorker.postMessage({ wisp: "bridge", v, t: "ready", sessionId: "s" });
    });
    const session = okValue(await connectSession(mainSide, { workerTimeoutMs: 100 }));
    const result = await session.chat("hello?");
    expect(!result.ok && result.error).toMatchObject({
      code: "BRIDGE_CLOSED",
      message: expect.stringContaining("100 ms"),
    });
  });
});

describe("flow control", () => {
  it("a slow consumer holds the worker to the window; waiting deltas merge; nothing is lost", async () => {
    const text = Array.from({ length: 400 }, (_, index) => `w${index} `).join("");
    const { session, workerSide } = await bridged([{ content: [{ type: "text", text }] }], {}, { window: 8 });
    const posted: string[] = [];
    const post = workerSide.postMessage.bind(workerSide);
    workerSide.postMessage = (message: { t: string; event?: { type: string } }) => {
      if (message.t === "event") posted.push(message.event?.type ?? "");
      post(message);
    };
    const run = session.stream("long");
    const iterator = run[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value?.type).toBe("run-start");
    // The consumer sleeps while the worker streams the whole answer.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(posted.length).toBeLessThanOrEqual(8);
    const rest: string[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      if (next.value.type === "text-delta") rest.push(next.value.delta);
    expect(rest.join("")).toBe(text);
    // Far fewer messages than the scripted model's deltas: they merged while they waited.
    const deltas = posted.filter((type) => type === "text-delta").length;
    expect(deltas).toBeLessThan(100);
    expect((await run.result).ok).toBe(true);
  });

  it("a run nobody iterates still finishes: awaiting only the result never stalls", async () => {
    const text = Array.from({ length: 400 }, (_, index) => `w${index} `).join("");
    const { session } = await bridged([{ content: [{ type: "text", text }] }], {}, { window: 4 });
    const run = session.stream("long");
    const result = await run.result;
    expect(result.ok && result.value.text).toBe(text);
  });
});

describe("misuse", () => {
  it("something that is not a port is a ConfigError on both sides", async () => {
    expect(failure(await connectSession({} as never))).toMatchObject({
      code: "CONFIG_INVALID",
      path: "port",
    });
    expect(() => serveSession(null as never, { model: "anthropic/x" })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", path: "port" }),
    );
  });

  it("bad bridge options are ConfigErrors naming the option, with a guess for a misspelt one", async () => {
    const [, mainSide] = channel();
    expect(failure(await connectSession(mainSide, { windw: 3 } as never))).toMatchObject({
      code: "CONFIG_INVALID",
      path: "windw",
      message: expect.stringContaining('did you mean "window"'),
    });
    expect(failure(await connectSession(mainSide, { window: 0 }))).toMatchObject({ path: "window" });
    expect(
      failure(await connectSession(mainSide, { onDecision: { approvals: () => {} } as never })),
    ).toMatchObject({
      path: "onDecision.approvals",
      message: expect.stringContaining('did you mean "approval"'),
    });
    expect(
      failure(await connectSession(mainSide, { onDecision: { approval: true } as never })),
    ).toMatchObject({
      path: "onDecision.approval",
    });
    expect(failure(await connectSession(mainSide, { onDecision: (() => {}) as never }))).toMatchObject({
      path: "onDecision",
      message: expect.stringContaining("an object of handlers by decision kind"),
    });
    expect(
      failure(await connectSession(mainSide, { decisionTimeoutsMs: { aproval: 5 } as never })),
    ).toMatchObject({ path: "decisionTimeoutsMs.aproval" });
    expect(failure(await connectSession(mainSide, { workerTimeoutMs: -1 }))).toMatchObject({
      path: "workerTimeoutMs",
    });
    expect(() =>
      serveSession(mainSide, { model: "anthropic/x", decisionTimeoutsMs: { approval: "soon" as never } }),
    ).toThrow(expect.objectContaining({ path: "decisionTimeoutsMs.approval" }));
  });

  it("an endless approval timeout waits (it does not fire at once, as an overlong timer would)", async () => {
    let answer: (value: { approved: boolean }) => void = () => {};
    const { session } = await bridged(
      [calls(["send", { to: "ada" }]), says("sent")],
      {},
      {
        decisionTimeoutsMs: { approval: Number.POSITIVE_INFINITY },
        onDecision: {
          approval: () =>
            new Promise((resolve) => {
              answer = resolve;
            }),
        },
      },
    );
    const pending = session.chat("go");
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer({ approved: true });
    const result = await pending;
    expect(result.ok && result.value.toolCalls[0]?.result.output).toBe("sent to ada");
  });

  it("a session the worker cannot create: connectSession answers with the worker's ConfigError", async () => {
    const [workerSide, mainSide] = channel();
    serveSession(workerSide, { model: uncheckedModel("nowhere/model"), apiKey: "k" });
    expect(failure(await connectSession(mainSide))).toMatchObject({ _tag: "ConfigError" });
  });

  it("closing twice, and disposing, are fine", async () => {
    const { session } = await bridged([says("x")]);
    await session.close();
    await session.close();
    await (session as RemoteSession)[Symbol.asyncDispose]();
  });
});

describe("from the review", () => {
  const long = (): ScriptedTurn => ({ content: [{ type: "text", text: "word ".repeat(600) }], delayMs: 1 });

  it("an abort right behind the run's start (or an already-aborted signal) ends it ABORTED", async () => {
    const { session, model } = await bridged([long(), long()]);
    const run = session.stream("story");
    run.abort();
    const result = await run.result;
    expect(!result.ok && result.error.code).toBe("ABORTED");
    const signal = AbortSignal.abort();
    const chat = await session.chat("story", { signal });
    expect(!chat.ok && chat.error.code).toBe("ABORTED");
    expect(model.completed).toBe(0);
  });

  it("breaking out of a stream settles its result (the run-end is not held behind credit)", async () => {
    const { session } = await bridged([long()]);
    const run = session.stream("story");
    let seen = 0;
    for await (const _ of run) if (++seen === 10) break;
    const result = await run.result;
    expect(!result.ok && result.error.code).toBe("ABORTED");
    expect(okValue(await session.snapshot()).status).toBe("idle");
  });

  it("arguments an approver edits go through the worker's own preToolUse hooks first", async () => {
    const ran: unknown[] = [];
    const guarded = defineTool({
      name: "send",
      description: "Sends",
      inputSchema: { type: "object", properties: { to: { type: "string" } } },
      needsApproval: true,
      execute: (args: { to?: string }) => {
        ran.push(args);
        return "sent";
      },
    });
    const { session } = await bridged(
      [calls(["send", { to: "ada" }]), says("after")],
      {
        tools: [guarded],
        hooks: {
          preToolUse: ({ toolCall }) =>
            toolCall.args.to === "evil"
              ? { decision: "deny", reason: "blocked by worker policy" }
              : undefined,
        },
      },
      { onDecision: { approval: () => ({ approved: true, args: { to: "evil" } }) } },
    );
    const result = await session.chat("go");
    expect(ran).toEqual([]);
    expect(result.ok && result.value.toolCalls[0]?.result).toMatchObject({
      isError: true,
      output: "blocked by worker policy",
    });
  });

  it("a busy main thread does not take a healthy worker for gone", async () => {
    const { session } = await bridged(
      [calls(["lookup", { q: "x" }]), says("fine")],
      {},
      {
        workerTimeoutMs: 100,
        onDecision: {
          "tool-before": () => {
            const until = Date.now() + 400;
            while (Date.now() < until) {
              // The main thread is busy, far longer than workerTimeoutMs.
            }
            return undefined;
          },
        },
      },
    );
    const result = await session.chat("go");
    expect(result.ok && result.value.text).toBe("fine");
  });

  it("malformed messages from the worker are reported, never thrown, and a call they answer settles", async () => {
    const [fakeWorker, mainSide] = channel();
    fakeWorker.on("message", (message: { t: string; id?: string }) => {
      if (message.t === "hello") fakeWorker.postMessage({ wisp: "bridge", v, t: "ready", sessionId: "s" });
      if (message.t === "call") {
        fakeWorker.postMessage({ wisp: "bridge", v, t: "event", id: "run-9", event: null });
        fakeWorker.postMessage({
          wisp: "bridge",
          v,
          t: "reply",
          id: message.id,
          error: { _tag: "toString", code: "X", message: "odd", retryable: false },
        });
      }
    });
    const reports: BridgeReport[] = [];
    const session = okValue(await connectSession(mainSide, { onReport: (report) => reports.push(report) }));
    const exported = await session.export();
    expect(!exported.ok && isSdkError(exported.error) && exported.error.message).toBe("odd");
    const run = session.stream("hi");
    fakeWorker.postMessage({ wisp: "bridge", v, t: "event", id: "run-2", event: null });
    await expect.poll(() => reports.filter((report) => report.code === "PROTOCOL").length).toBe(1);
    run.abort();
  });

  it("bad run options give a failed run, as in-process — never a throw, and nothing reaches the worker", async () => {
    const { session, model } = await bridged([says("x")]);
    const nulled = await session.chat("x", null as never);
    expect(!nulled.ok && nulled.error.code).toBe("CONFIG_INVALID");
    const badSignal = session.stream("x", { signal: {} as never });
    const failed = await badSignal.result;
    expect(!failed.ok && failed.error).toMatchObject({ code: "CONFIG_INVALID", path: "signal" });
    const resumed = await session.resume([], { foo: 1 } as never);
    expect(!resumed.ok && resumed.error).toMatchObject({ code: "CONFIG_INVALID", path: "foo" });
    expect(model.requests).toHaveLength(0);
  });

  it("a signal used for many runs keeps no listener once they end", async () => {
    const { session } = await bridged([says("a"), says("b"), says("c")]);
    const controller = new AbortController();
    for (const prompt of ["1", "2", "3"]) await session.chat(prompt, { signal: controller.signal });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("a restore that cannot be posted is a ConfigError at once; a malformed hello is refused by the worker", async () => {
    const [, mainSide] = channel();
    const started = Date.now();
    expect(
      failure(await connectSession(mainSide, { restore: { f: () => 1 }, connectTimeoutMs: 60_000 })),
    ).toMatchObject({ code: "CONFIG_INVALID", path: "restore" });
    expect(Date.now() - started).toBeLessThan(5_000);
    const [workerSide, fakeMain] = channel();
    serveSession(workerSide, { model: "anthropic/x", apiKey: "k", onReport: () => {} });
    const answers: Array<{ t: string; error?: unknown }> = [];
    fakeMain.on("message", (message: { t: string }) => answers.push(message));
    fakeMain.postMessage({ wisp: "bridge", v, t: "hello", key: "k", conn: "c", decides: 5, timeouts: {} });
    await expect.poll(() => answers.map((answer) => answer.t)).toEqual(["listening", "refused", "report"]);
    expect(answers[1]?.error).toMatchObject({ code: "CONFIG_INVALID", path: "decisionKinds" });
  });

  it("a worker thread that throws at startup is BRIDGE_CLOSED naming its error, not a crash of this thread", async () => {
    const worker = new Worker('throw new Error("boot failed")', { eval: true });
    const reports: BridgeReport[] = [];
    expect(
      failure(await connectSession(worker, { onReport: (report) => reports.push(report) })),
    ).toMatchObject({
      _tag: "RequestError",
      code: "BRIDGE_CLOSED",
      message: expect.stringContaining("boot failed"),
    });
    expect(reports.map((report) => report.code)).toContain("WORKER_ERROR");
  });

  it("what the worker reports reaches main's onReport too", async () => {
    const { session, mainReports } = await bridged(
      [calls(["send", { to: "ada" }]), says("after")],
      {},
      {
        decisionTimeoutsMs: { approval: 20 },
        onDecision: { approval: () => new Promise(() => {}) },
      },
    );
    await session.chat("go");
    await expect.poll(() => mainReports.map((report) => report.code)).toContain("DECISION_TIMEOUT");
    expect(mainReports.find((report) => report.code === "DECISION_TIMEOUT")?.requestId).toEqual(
      expect.any(String),
    );
  });

  it("an approval answer of the wrong shape is reported and fails closed, not taken as the person's denial", async () => {
    const { session, mainReports } = await bridged(
      [calls(["send", { to: "ada" }]), says("after")],
      {},
      { onDecision: { approval: () => ({ approve: true }) as never } },
    );
    const result = await session.chat("go");
    expect(result.ok && result.value.toolCalls[0]?.result.isError).toBe(true);
    expect(result.ok && result.value.toolCalls[0]?.result.output).toMatch(
      /^No approval from the main thread .*approved: true \| false/,
    );
    expect(mainReports).toEqual([
      expect.objectContaining({
        code: "DECISION_HANDLER_FAILED",
        message: expect.stringContaining("the call was denied"),
      }),
    ]);
  });

  it("a function inside a prompt is a ConfigError naming the input, without a second report", async () => {
    const { session, mainReports } = await bridged([says("x")]);
    const result = await session.chat([{ type: "text", text: "hi", extra: () => 1 } as never]);
    expect(!result.ok && result.error).toMatchObject({ code: "CONFIG_INVALID", path: "input" });
    expect(mainReports).toEqual([]);
  });
});

describe("two connections on one port", () => {
  const long = (text: string): ScriptedTurn => ({ content: [{ type: "text", text }], delayMs: 2 });

  it("a chat refused as busy leaves the other's stream alone: it ends with its own events and result", async () => {
    const text = Array.from({ length: 150 }, (_, index) => `a${index} `).join("");
    const { session: a, mainSide } = await bridged([long(text), says("b's turn")], {}, { window: 4 });
    const b = okValue(await connectSession(mainSide, { window: 4 }));
    const run = a.stream("from a");
    const events: AgentEvent[] = [];
    let refused: AgentRunResult | undefined;
    for await (const event of run) {
      events.push(event);
      // Both connections number their runs from 1: b's first run is refused while a's streams.
      if (event.type === "text-delta" && refused === undefined) refused = await b.chat("from b");
    }
    expect(!refused?.ok && refused?.error.code).toBe("SESSION_BUSY");
    const result = await run.result;
    expect(result.ok && result.value.text).toBe(text);
    expect(events.filter((event) => event.type === "run-end")).toEqual([{ type: "run-end", result }]);
    const streamed = events.flatMap((event) => (event.type === "text-delta" ? [event.delta] : []));
    expect(streamed.join("")).toBe(text);
    // Once a's run is done, b's next run is b's own; both see the one session.
    const after = await b.chat("from b, again");
    expect(after.ok && after.value.text).toBe("b's turn");
    const roles = okValue(await a.export()).messages.map((message) => message.role);
    expect(roles).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("an abort reaches the aborting connection's run only", async () => {
    const { session: a, mainSide } = await bridged([long("word ".repeat(500)), says("b's follow-up")]);
    const b = okValue(await connectSession(mainSide));
    const run = a.stream("from a");
    const followUp = b.stream("from b", { mode: "followUp" });
    for await (const event of run) if (event.type === "text-delta") run.abort("a stops");
    const result = await run.result;
    expect(!result.ok && result.error.code).toBe("ABORTED");
    const followed = await followUp.result;
    expect(followed.ok && followed.value.text).toBe("b's follow-up");
  });

  it("session.abort() from any connection is the session's, as in-process: it ends the run in flight, whoever started it", async () => {
    const { session: a, mainSide } = await bridged([long("word ".repeat(500)), says("after")]);
    const b = okValue(await connectSession(mainSide));
    const run = a.stream("from a");
    for await (const event of run) if (event.type === "text-delta") b.abort("b stops the session");
    const result = await run.result;
    expect(!result.ok && result.error.code).toBe("ABORTED");
    // The session goes on: either connection's next prompt runs.
    const next = await a.chat("again");
    expect(next.ok && next.value.text).toBe("after");
  });

  it("another connection cannot act for one whose ids it copies: no abort of its run, no answer, no hello as it", async () => {
    const heard: Array<{ t: string; to?: string; requestId?: string }> = [];
    let answer: (approved: boolean) => void = () => {};
    const {
      session: a,
      mainSide,
      reports,
    } = await bridged(
      [calls(["send", { to: "ada" }]), says("after")],
      {},
      {
        onDecision: {
          approval: () => new Promise((resolve) => (answer = (approved) => resolve({ approved }))),
        },
      },
    );
    // A connection with no onDecision: the questions of a's run are not its to answer (or deny).
    const bReports: BridgeReport[] = [];
    const b = okValue(await connectSession(mainSide, { onReport: (report) => bReports.push(report) }));
    mainSide.on("message", (message: (typeof heard)[number]) => heard.push(message));
    const run = a.stream("go");
    await expect.poll(() => heard.some((message) => message.t === "decide")).toBe(true);
    const question = heard.find((message) => message.t === "decide");
    const raw = (message: object) => mainSide.postMessage({ wisp: "bridge", v, key: "mallory", ...message });
    raw({ t: "hello", conn: question?.to, decides: [], timeouts: {} });
    raw({ t: "hello", conn: "mallory", decides: [], timeouts: {} });
    raw({ t: "decision", requestId: question?.requestId, answer: { approved: true, args: { to: "eve" } } });
    raw({ t: "abort", id: "run-1", reason: "mallory" });
    raw({ t: "credit", id: "run-1", n: 1_000 });
    await expect.poll(() => reports.map((report) => report.code)).toEqual(["PROTOCOL", "DECISION_UNKNOWN"]);
    answer(false);
    const result = await run.result;
    expect(result.ok && result.value.text).toBe("after");
    const [sent] = result.ok ? result.value.toolCalls : [];
    expect(sent?.result).toMatchObject({ isError: true });
    expect(sent?.toolCall.args).toEqual({ to: "ada" });
    expect(heard.filter((message) => message.t === "decide")).toHaveLength(1);
    // What the worker noticed reaches every connection; b was never asked, so it never failed to answer.
    expect(bReports.map((report) => report.code)).toEqual(["PROTOCOL", "DECISION_UNKNOWN"]);
    expect(okValue(await b.snapshot()).sessionId).toBe(a.sessionId);
  });
});
