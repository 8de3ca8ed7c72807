/**
 * The bridge's hook feed, over a real MessageChannel (every message structured-cloned as between
 * threads): every hook event of the SDK reaches a subscribed listener with a decision request's hints,
 * nothing is sent to a connection that did not subscribe, a listener cannot change anything or break
 * anything, and `hook-decision` events say who decided — a hook, the person, a timeout or the default.
 * The same feed in real workers (worker_threads, a Chromium Web Worker) is in runtimes.test.ts.
 */
import type { MessagePort } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import {
  type BridgeReport,
  type ConnectSessionOptions,
  connectSession,
  type HookFeedEvent,
  type ServeSessionOptions,
  serveSession,
  BRIDGE_PROTOCOL_VERSION as v,
} from "../../src/bridge/index.ts";
import { type AgentEvent, runAgentStream } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, collect, says, scripted } from "../support/agent.ts";
import { channel, closePorts, lookup, send, serveScripted } from "../support/bridge-channel.ts";
import { isSummaryRequest, read } from "../support/compaction.ts";
import { failure, okValue } from "../support/results.ts";

afterEach(closePorts);

/** A session served on one end of a channel, connected on the other; `feed` counts the feed messages posted. */
async function bridged(
  script: ScriptedTurn[] | ((body: unknown) => ScriptedTurn),
  serve: Partial<ServeSessionOptions> = {},
  connect: ConnectSessionOptions = {},
) {
  const [workerSide, mainSide] = channel();
  const model =
    typeof script === "function"
      ? createScriptedModel({ respond: (request) => script(request.body) })
      : createScriptedModel({ script });
  const reports: BridgeReport[] = [];
  const server = serveScripted(workerSide, model, {
    tools: [send, lookup],
    onReport: (report) => reports.push(report),
    ...serve,
  });
  const posted = { feed: 0 };
  mainSide.on("message", (message: { t?: string }) => {
    if (message.t === "feed") posted.feed++;
  });
  const mainReports: BridgeReport[] = [];
  const session = okValue(
    await connectSession(mainSide, { onReport: (report) => mainReports.push(report), ...connect }),
  );
  return { model, server, session, reports, mainReports, mainSide, posted };
}

/** A listener that keeps what it is told. */
function recorder() {
  const seen: HookFeedEvent[] = [];
  return { seen, listener: (event: HookFeedEvent) => void seen.push(event) };
}

describe("the feed", () => {
  it("shows every hook event of a run, each with a decision request's hints, and the session's end", async () => {
    const { session, server } = await bridged([
      calls(["lookup", { q: "a" }], ["lookup", { q: "boom" }]),
      says("done"),
    ]);
    const { seen, listener } = recorder();
    session.onHookEvent(listener);
    const result = await session.chat("go");
    expect(result.ok && result.value.text).toBe("done");
    await session.close();
    await server.closed;

    const kinds = seen.map((event) => event.kind);
    expect(kinds.slice(0, 2)).toEqual(["session-start", "prompt-submit"]);
    // The two calls run in parallel, so their events interleave.
    expect(kinds.slice(2, 6).sort()).toEqual(["tool-after", "tool-before", "tool-before", "tool-failure"]);
    expect(kinds.slice(6)).toEqual(["stop", "session-end"]);
    for (const event of seen) {
      expect(event).toMatchObject({
        rawKind: event.kind,
        expectsDecision: false,
        canBlock: false,
        timeoutMs: 0,
        sessionId: session.sessionId,
      });
      expect(event.requestId).toMatch(/.+/);
    }
    expect(new Set(seen.map((event) => event.requestId)).size).toBe(seen.length);
    expect(seen[0]).toMatchObject({ kind: "session-start", turn: 0 });
    expect(seen[1]).toMatchObject({ kind: "prompt-submit", prompt: { role: "user" } });
    expect(seen.find((event) => event.kind === "tool-after")).toMatchObject({
      turn: 1,
      toolCall: { name: "lookup", args: { q: "a" } },
      result: { output: "found a", isError: false },
    });
    expect(seen.find((event) => event.kind === "tool-failure")).toMatchObject({
      toolCall: { name: "lookup", args: { q: "boom" } },
      result: { isError: true },
      error: { code: "TOOL_FAILED", message: expect.stringContaining("the index is down") },
    });
    expect(seen.find((event) => event.kind === "stop")).toMatchObject({
      stopReason: "complete",
      message: { role: "assistant" },
    });
    expect(seen.at(-1)).toMatchObject({ kind: "session-end", stopReason: "complete" });
    // What the hook sees, never the whole conversation.
    for (const event of seen) expect(event).not.toHaveProperty("messages");
  });

  it("shows a compaction before it happens, with how many messages it would replace", async () => {
    let turn = 0;
    const { session } = await bridged(
      (body) => {
        if (isSummaryRequest({ body })) return { content: [{ type: "text", text: "SUMMARY" }] };
        turn++;
        if (turn > 4) return says("Done reading.");
        return {
          content: [{ type: "tool_call", name: "read", args: { page: turn } }],
          usage: { input: 1000 * turn, output: 20 },
        };
      },
      { tools: [read], compaction: { maxTokens: 2000 } },
    );
    const { seen, listener } = recorder();
    session.onHookEvent(listener);
    const result = await session.chat("Read");
    expect(result.ok && result.value.text).toBe("Done reading.");
    const compacting = seen.find((event) => event.kind === "compact-before");
    expect(compacting).toMatchObject({ reason: "threshold", sessionId: session.sessionId });
    expect(compacting?.kind === "compact-before" && compacting.olderCount).toBeGreaterThan(0);
    expect(compacting?.kind === "compact-before" && compacting.tokens).toBeGreaterThan(2000);
  });

  it("tells that a call waits for a person's approval, to every connection that observes", async () => {
    const { session: a, mainSide, posted } = await bridged([calls(["send", { to: "ada" }])]);
    const b = okValue(await connectSession(mainSide, { onReport: () => {} }));
    const watcher = recorder();
    b.onHookEvent(watcher.listener);
    const paused = await a.chat("tell ada");
    expect(paused.ok && paused.value.stopReason).toBe("approval");
    const notification = watcher.seen.find((event) => event.kind === "notification");
    expect(notification).toMatchObject({
      waitsFor: "approval",
      message: "send waits for your approval",
      approval: { toolName: "send", args: { to: "ada" } },
      turn: 1,
      sessionId: a.sessionId,
    });
    // a did not subscribe: every feed message went to b.
    expect(posted.feed).toBe(watcher.seen.length);
  });

  it("is not sent to a connection that did not subscribe, starts with the first listener, stops with the last", async () => {
    const { session, posted } = await bridged([says("one"), says("two"), says("three")]);
    expect((await session.chat("one")).ok).toBe(true);
    expect(posted.feed).toBe(0);

    const first = recorder();
    const second = recorder();
    const stopFirst = session.onHookEvent(first.listener);
    const stopSecond = session.onHookEvent(second.listener);
    expect((await session.chat("two")).ok).toBe(true);
    expect(first.seen.map((event) => event.kind)).toEqual(["prompt-submit", "stop"]);
    expect(second.seen).toEqual(first.seen);
    expect(posted.feed).toBe(2);

    stopFirst();
    stopFirst(); // idempotent: does not remove the second
    stopSecond();
    expect((await session.chat("three")).ok).toBe(true);
    expect(posted.feed).toBe(2);
    expect(first.seen).toHaveLength(2);
  });

  it("is observe-only: a listener that throws, rejects or returns a decision changes nothing, and the others are still told", async () => {
    const { session, mainReports, reports } = await bridged([calls(["lookup", { q: "x" }]), says("after")]);
    session.onHookEvent(() => {
      throw new Error("the panel crashed");
    });
    session.onHookEvent(async () => {
      throw new Error("the async panel crashed");
    });
    session.onHookEvent(() => ({ decision: "deny", reason: "not from here" }));
    const { seen, listener } = recorder();
    session.onHookEvent(listener);
    const result = await session.chat("go");
    expect(result.ok && result.value.text).toBe("after");
    expect(result.ok && result.value.toolCalls[0]?.result).toMatchObject({
      isError: false,
      output: "found x",
    });
    expect(seen.map((event) => event.kind)).toEqual([
      "session-start",
      "prompt-submit",
      "tool-before",
      "tool-after",
      "stop",
    ]);
    await expect.poll(() => mainReports.length).toBe(2 * seen.length);
    expect(new Set(mainReports.map((report) => report.code))).toEqual(new Set(["HOOK_LISTENER_FAILED"]));
    expect(mainReports.map((report) => report.message).join("\n")).toContain("the async panel crashed");
    expect(mainReports[0]?.requestId).toBe(seen[0]?.requestId);
    expect(reports).toEqual([]);
    // The connection still works.
    expect(okValue(await session.snapshot()).messageCount).toBe(4);
  });

  it("sees a call the session's own hook denies, and leaves the hooks' names as they were", async () => {
    const { session } = await bridged([calls(["lookup", { q: "secret" }]), says("ok")], {
      hooks: {
        preToolUse: [
          ({ toolCall }) =>
            toolCall.args.q === "secret" ? { decision: "deny", reason: "not that" } : undefined,
        ],
      },
    });
    const { seen, listener } = recorder();
    session.onHookEvent(listener);
    const events = await collect(session.stream("go"));
    const decision = events.find((event) => event.type === "hook-decision");
    // The same name as in-process: the feed's own hook takes no place in the list.
    expect(decision).toMatchObject({ hook: "preToolUse#1", decidedBy: "hook" });
    expect(seen.find((event) => event.kind === "tool-before")).toMatchObject({
      toolCall: { args: { q: "secret" } },
    });
    expect(seen.find((event) => event.kind === "hook-decision")).toMatchObject({
      event: "preToolUse",
      hook: "preToolUse#1",
      decision: { decision: "deny", reason: "not that" },
      decidedBy: "hook",
    });
    expect(seen.some((event) => event.kind === "tool-after")).toBe(false);
  });
});

describe("who decided", () => {
  const decisionsOf = (events: AgentEvent[]) =>
    events.flatMap((event) => (event.type === "hook-decision" ? [event] : []));

  it("in-process, a hook function's decision is the hook's", async () => {
    const { options } = scripted([calls(["lookup", { q: "a" }]), says("ok")]);
    const events = await collect(
      runAgentStream(options({ tools: [lookup], hooks: { preToolUse: () => ({ context: "checked" }) } })),
    );
    expect(decisionsOf(events)).toEqual([
      {
        type: "hook-decision",
        event: "preToolUse",
        hook: "preToolUse#1",
        decision: { context: "checked" },
        decidedBy: "hook",
      },
    ]);
  });

  it("over the bridge, the main thread's answers are the person's: a yes, a no and a tool-before deny", async () => {
    const { session } = await bridged(
      [calls(["send", { to: "ada" }], ["send", { to: "eve" }], ["lookup", { q: "secret" }]), says("ok")],
      {},
      {
        onDecision: {
          approval: ({ approval }) => ({ approved: approval.args.to === "ada", reason: "not eve" }),
          "tool-before": ({ toolCall }) =>
            toolCall.args.q === "secret" ? { decision: "deny", reason: "no secrets" } : undefined,
        },
      },
    );
    const { seen, listener } = recorder();
    session.onHookEvent(listener);
    const decisions = decisionsOf(await collect(session.stream("go")));
    expect(decisions).toHaveLength(3);
    expect(decisions).toContainEqual(
      expect.objectContaining({
        hook: "bridge-approval",
        decision: { decision: "allow" },
        decidedBy: "person",
      }),
    );
    expect(decisions).toContainEqual(
      expect.objectContaining({
        hook: "bridge-approval",
        decision: { decision: "deny", reason: expect.stringContaining("not eve") },
        decidedBy: "person",
      }),
    );
    expect(decisions).toContainEqual(
      expect.objectContaining({
        hook: "bridge",
        decision: { decision: "deny", reason: "no secrets" },
        decidedBy: "person",
      }),
    );
    // The feed shows the same decisions, to whoever observes.
    const fed = seen.flatMap((event) => (event.kind === "hook-decision" ? [event.decidedBy] : []));
    expect(fed).toEqual(["person", "person", "person"]);
  });

  it("no answer in time is the timeout's", async () => {
    const { session } = await bridged(
      [calls(["send", { to: "ada" }]), says("ok")],
      {},
      { decisionTimeoutsMs: { approval: 50 }, onDecision: { approval: () => new Promise(() => {}) } },
    );
    expect(decisionsOf(await collect(session.stream("go")))).toEqual([
      expect.objectContaining({
        hook: "bridge-approval",
        decision: { decision: "deny", reason: expect.stringContaining("no answer within 50 ms") },
        decidedBy: "timeout",
      }),
    ]);
  });

  it("the permission policy's decisions are the policy's, in the feed too", async () => {
    const { session } = await bridged([calls(["lookup", { q: "x" }]), says("ok")], {
      permissions: { deny: ["lookup"] },
    });
    const { seen, listener } = recorder();
    session.onHookEvent(listener);
    const result = await session.chat("go");
    expect(result.ok && result.value.toolCalls[0]?.result.isError).toBe(true);
    expect(seen.find((event) => event.kind === "permission-decision")).toMatchObject({
      toolCall: { name: "lookup" },
      verdict: { decision: "deny", rule: "deny-list", match: "lookup" },
      decidedBy: "policy",
      expectsDecision: false,
    });
  });

  it("a handler that fails leaves it to the kind's default", async () => {
    const { session } = await bridged(
      [calls(["lookup", { q: "x" }]), says("ok")],
      {},
      {
        onDecision: {
          "tool-before": () => {
            throw new Error("the UI crashed");
          },
        },
      },
    );
    expect(decisionsOf(await collect(session.stream("go")))).toEqual([
      expect.objectContaining({
        hook: "bridge",
        decision: { decision: "deny", reason: expect.stringContaining("the UI crashed") },
        decidedBy: "default",
      }),
    ]);
  });
});

describe("the feed's protocol", () => {
  /** A worker that greets and then only does what `on` says with each message. */
  async function fakeWorker(on: (message: { t: string }, worker: MessagePort) => void = () => {}) {
    const [worker, mainSide] = channel();
    worker.on("message", (message: { t: string }) => {
      if (message.t === "hello") worker.postMessage({ wisp: "bridge", v, t: "ready", sessionId: "s" });
      else on(message, worker);
    });
    const reports: BridgeReport[] = [];
    const session = okValue(await connectSession(mainSide, { onReport: (report) => reports.push(report) }));
    return { worker, session, reports };
  }

  it("an item of a kind this side does not know arrives as unknown, and no payload can make an item ask", async () => {
    const { worker, session } = await fakeWorker((message, port) => {
      if (message.t !== "observe") return;
      port.postMessage({
        wisp: "bridge",
        v,
        t: "feed",
        id: "f1",
        kind: "file-changed",
        payload: { path: "a.txt", expectsDecision: true, canBlock: true, timeoutMs: 5 },
      });
      port.postMessage({
        wisp: "bridge",
        v,
        t: "feed",
        id: "f2",
        kind: "tool-before",
        payload: { sessionId: "s", turn: 2, toolCall: { id: "c", name: "x", args: {} }, kind: "approval" },
      });
    });
    const { seen, listener } = recorder();
    session.onHookEvent(listener);
    await expect.poll(() => seen.length).toBe(2);
    expect(seen[0]).toMatchObject({
      kind: "unknown",
      rawKind: "file-changed",
      requestId: "f1",
      payload: { path: "a.txt" },
      expectsDecision: false,
      canBlock: false,
      timeoutMs: 0,
    });
    expect(seen[1]).toMatchObject({ kind: "tool-before", rawKind: "tool-before", turn: 2, sessionId: "s" });
    worker.close();
  });

  it("a peer that does not know the feed's messages ignores them: no item, no report, the session goes on", async () => {
    const seenByWorker: string[] = [];
    const { worker, session, reports } = await fakeWorker((message, port) => {
      seenByWorker.push(message.t);
      if (message.t === "call")
        port.postMessage({ wisp: "bridge", v, t: "reply", id: "snapshot-1", value: 1 });
    });
    const { seen, listener } = recorder();
    session.onHookEvent(listener);
    // A newer worker's message type this side does not know.
    worker.postMessage({ wisp: "bridge", v, t: "something-new", id: "x" });
    expect(okValue(await session.snapshot())).toBe(1);
    expect(seenByWorker).toEqual(["observe", "call"]);
    expect(seen).toEqual([]);
    expect(reports).toEqual([]);
  });

  it("the worker of this version ignores an observe from no connection, and reports it", async () => {
    const { reports, mainSide, posted, session } = await bridged([says("fine")]);
    mainSide.postMessage({ wisp: "bridge", v, t: "observe", on: true, key: "not-a-connection" });
    await expect.poll(() => reports.map((report) => report.code)).toEqual(["PROTOCOL"]);
    expect((await session.chat("fine")).ok).toBe(true);
    expect(posted.feed).toBe(0);
  });
});

describe("bad input", () => {
  it("a listener that is not a function is a ConfigError", async () => {
    const { session } = await bridged([]);
    expect(() => session.onHookEvent("log" as never)).toThrow(
      expect.objectContaining({ _tag: "ConfigError", code: "CONFIG_INVALID", path: "listener" }),
    );
  });

  it("hooks that are not hooks are still refused by the worker's session, typed", async () => {
    const [workerSide, mainSide] = channel();
    serveSession(workerSide, {
      model: "anthropic/claude-sonnet-5-5",
      apiKey: "k",
      hooks: { preToolUse: 5 as never },
      onReport: () => {},
    });
    expect(failure(await connectSession(mainSide, { onReport: () => {} }))).toMatchObject({
      _tag: "ConfigError",
      code: "CONFIG_INVALID",
    });
  });
});
