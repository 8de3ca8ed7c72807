/**
 * The main thread's end of the port (`BridgeConnection`, bridge-connection.ts), through
 * `connectSession` on a hand-made port whose "worker" the test plays message by message: the
 * handshake (greeting again when the worker starts listening, its time limit at and beyond the timer
 * range, a greeting that cannot be posted, another version), the heartbeat (a silent worker given up,
 * a slow one that answers pings waited for, nothing pinged once nothing waits), the port closing or
 * reporting an error, the worker closing the session, posts the port refuses, reports without
 * `onReport`, and traffic that is not the bridge's. The same over a real MessageChannel is in
 * bridge.test.ts.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_TIMER_MS } from "../../src/agent/deadline.ts";
import {
  type BridgeReport,
  type ConnectSessionOptions,
  connectSession,
  type RemoteSession,
  BRIDGE_PROTOCOL_VERSION as v,
} from "../../src/bridge/index.ts";
import { ConfigError } from "../../src/index.ts";
import { failure, okValue } from "../support/results.ts";

type Posted = { t: string; id?: string; [key: string]: unknown };
type Listener = (event: unknown) => void;

/** How the test's "worker" answers what the page posts; unset: it stays silent. */
interface Answers {
  hello?: (message: Posted, port: FakePort) => void;
  ping?: boolean;
  call?: (message: Posted, port: FakePort) => void;
  run?: (message: Posted, port: FakePort) => void;
}

/**
 * A port the test plays the worker on: what the page posts is structured-cloned (so what cannot cross
 * a real port throws here too) and kept, and answered a microtask later as `answers` says.
 */
class FakePort {
  readonly posted: Posted[] = [];
  readonly listeners = new Map<string, Set<Listener>>();
  /** Set: every post throws it. */
  refuse: Error | undefined;
  answers: Answers;

  constructor(answers: Answers = {}) {
    this.answers = answers;
  }

  postMessage(message: unknown): void {
    if (this.refuse !== undefined) throw this.refuse;
    const sent = structuredClone(message) as Posted;
    this.posted.push(sent);
    queueMicrotask(() => {
      if (sent.t === "hello") this.answers.hello?.(sent, this);
      else if (sent.t === "ping" && this.answers.ping === true) this.send({ t: "pong" });
      else if (sent.t === "call") this.answers.call?.(sent, this);
      else if (sent.t === "run") this.answers.run?.(sent, this);
    });
  }

  addEventListener(type: string, listener: Listener): void {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
  }

  removeEventListener(type: string, listener: Listener): void {
    this.listeners.get(type)?.delete(listener);
  }

  /** How many listeners the page has on the port. */
  listening(): number {
    return [...this.listeners.values()].reduce((sum, set) => sum + set.size, 0);
  }

  /** Dispatches an event of `type` to the page's listeners. */
  emit(type: string, event: unknown = {}): void {
    for (const listener of [...(this.listeners.get(type) ?? [])]) listener(event);
  }

  /** The worker posts a bridge message (tagged, this version, unless `message` says otherwise). */
  send(message: Record<string, unknown>): void {
    this.raw({ wisp: "bridge", v, ...message });
  }

  /** Any data arrives on the port. */
  raw(data: unknown): void {
    this.emit("message", { data });
  }

  /** What the page posted with tag `t`. */
  sent(t: string): Posted[] {
    return this.posted.filter((message) => message.t === t);
  }
}

/** A port that cannot stop listening (no `removeEventListener`: a `BridgePort` may lack it). */
class SoundPort extends FakePort {
  override removeEventListener(): void {}
}

const ready = (_message: Posted, port: FakePort) => port.send({ t: "ready", sessionId: "s1" });
const replyOne = (message: Posted, port: FakePort) => port.send({ t: "reply", id: message.id, value: 1 });
const endRun = (message: Posted, port: FakePort) =>
  port.send({
    t: "event",
    id: message.id,
    event: { type: "run-end", result: { ok: true, value: { text: "done" } } },
  });

const ports: FakePort[] = [];

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  // Whatever still waits ends, so nothing is left behind.
  for (const port of ports.splice(0)) port.emit("close");
});

/** A port answering as `answers` says, closed after the test. */
function fakePort(answers: Answers = {}, Kind: typeof FakePort = FakePort): FakePort {
  const port = new Kind(answers);
  ports.push(port);
  return port;
}

/** A session connected over a fake port (its worker answers the hello, then as `answers` says). */
async function connected(answers: Answers = {}, options: ConnectSessionOptions = {}, Kind = FakePort) {
  const port = fakePort({ hello: ready, ...answers }, Kind);
  const reports: BridgeReport[] = [];
  const session: RemoteSession = okValue(
    await connectSession(port, { onReport: (report) => reports.push(report), ...options }),
  );
  return { port, session, reports };
}

/** Fakes the timers the heartbeat and the handshake use (promises and microtasks stay real). */
function fakeTimers(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
}

describe("the handshake", () => {
  it("a worker that starts listening after the page greeted is greeted again, only while connecting", async () => {
    let hellos = 0;
    const port = fakePort({
      hello: (message, worker) => {
        // The first greeting is lost (nobody served the port yet); the worker then says it listens.
        if (++hellos === 1) worker.send({ t: "listening" });
        else ready(message, worker);
      },
    });
    const session = okValue(await connectSession(port, { onReport: () => {} }));
    expect(session.sessionId).toBe("s1");
    expect(port.sent("hello")).toHaveLength(2);
    port.send({ t: "listening" }); // another worker start, after the handshake: nothing to redo
    await Promise.resolve();
    expect(port.sent("hello")).toHaveLength(2);
  });

  it("a greeting the port refuses fails connectSession with a ConfigError, naming the state to restore when there is one", async () => {
    const refusing = fakePort();
    refusing.refuse = new Error("the port is closed");
    expect(failure(await connectSession(refusing, { onReport: () => {} }))).toMatchObject({
      _tag: "ConfigError",
      code: "CONFIG_INVALID",
      path: "",
      message: "connectSession could not post the handshake to the worker (is it plain data?)",
    });
    const reports: BridgeReport[] = [];
    const restore = { sessionId: "s", messages: [], later: () => 1 };
    expect(
      failure(await connectSession(fakePort(), { restore, onReport: (report) => reports.push(report) })),
    ).toMatchObject({
      _tag: "ConfigError",
      code: "CONFIG_INVALID",
      path: "restore",
      message: "connectSession could not post the state to restore to the worker (is it plain data?)",
    });
    expect(reports.map((report) => report.code)).toEqual(["POST_FAILED"]);
  });

  it("a worker speaking another version fails connectSession with a message saying both versions", async () => {
    const port = fakePort({
      hello: (_message, worker) => worker.send({ t: "ready", sessionId: "s", v: 99 }),
    });
    expect(failure(await connectSession(port, { onReport: () => {} }))).toMatchObject({
      code: "BRIDGE_VERSION",
      message: `The worker speaks bridge protocol 99, this page ${v}: load the same wisp-agent version on both sides`,
    });
  });

  it("something that is not a port is a ConfigError at port", async () => {
    expect(failure(await connectSession({ postMessage: () => {} } as never))).toMatchObject({
      _tag: "ConfigError",
      code: "CONFIG_INVALID",
      path: "port",
      message: "connectSession needs a port: something with postMessage and addEventListener or on",
    });
  });

  it("nobody answering within connectTimeoutMs is BRIDGE_CLOSED, even at the largest timer delay", async () => {
    fakeTimers();
    const connecting = connectSession(fakePort(), { connectTimeoutMs: MAX_TIMER_MS, onReport: () => {} });
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(failure(await connecting)).toMatchObject({
      _tag: "RequestError",
      code: "BRIDGE_CLOSED",
      message: `The session's worker is gone: no answer to the handshake within ${MAX_TIMER_MS} ms (is serveSession running there?)`,
    });
  });

  it("a connectTimeoutMs beyond the timer range waits as long as it takes", async () => {
    const port = fakePort();
    const connecting = connectSession(port, { connectTimeoutMs: MAX_TIMER_MS + 1, onReport: () => {} });
    // Longer than the 1 ms an overflowing timer would fire after.
    await new Promise((resolve) => setTimeout(resolve, 20));
    port.send({ t: "ready", sessionId: "late" });
    expect(okValue(await connecting).sessionId).toBe("late");
  });

  it("a connection that succeeded is not ended later by the handshake's time limit", async () => {
    fakeTimers();
    const { session } = await connected({ call: replyOne, ping: true }, { connectTimeoutMs: 100 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(okValue(await session.snapshot())).toBe(1);
  });

  it("a refused handshake leaves no timer behind", async () => {
    fakeTimers();
    const refused = new ConfigError("no model", { code: "CONFIG_INVALID", path: "model" });
    const port = fakePort({
      hello: (_message, worker) => worker.send({ t: "refused", error: refused.toJSON() }),
    });
    expect(failure(await connectSession(port, { onReport: () => {} }))).toMatchObject({
      _tag: "ConfigError",
      path: "model",
    });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("the heartbeat", () => {
  it("a call that waits on a silent worker ends BRIDGE_CLOSED after workerTimeoutMs; the worker is pinged, then told to close", async () => {
    fakeTimers();
    const { port, session } = await connected({}, { workerTimeoutMs: 400 });
    const snapshot = session.snapshot();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(failure(await snapshot)).toMatchObject({
      _tag: "RequestError",
      code: "BRIDGE_CLOSED",
      message: "The session's worker is gone: the worker did not answer for 400 ms",
    });
    expect(port.sent("ping")).toHaveLength(1);
    expect(port.sent("close")).toEqual([expect.objectContaining({ t: "close", id: "given-up" })]);
    expect(port.listening()).toBe(0);
  });

  it("a slow worker that answers its pings is waited for, however long the call takes", async () => {
    fakeTimers();
    const { port, session } = await connected({ ping: true }, { workerTimeoutMs: 400 });
    const snapshot = session.snapshot();
    await vi.advanceTimersByTimeAsync(4_000);
    const [call] = port.sent("call");
    port.send({ t: "reply", id: call?.id, value: "late but there" });
    expect(okValue(await snapshot)).toBe("late but there");
    expect(port.sent("ping").length).toBeGreaterThan(4);
  });

  it("once no call and no run waits, nothing is pinged and a silent worker is left alone", async () => {
    fakeTimers();
    const { port, session } = await connected({ call: replyOne, run: endRun }, { workerTimeoutMs: 400 });
    expect(okValue(await session.snapshot())).toBe(1);
    expect(await session.chat("hi")).toEqual({ ok: true, value: { text: "done" } });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(port.sent("ping")).toEqual([]);
    expect(port.sent("close")).toEqual([]);
    expect(okValue(await session.snapshot())).toBe(1);
  });
});

describe("the end of the connection", () => {
  it("the port closing ends a waiting call BRIDGE_CLOSED, stops listening, stops the heartbeat and posts nothing more", async () => {
    fakeTimers();
    const { port, session } = await connected();
    const snapshot = session.snapshot();
    port.emit("close");
    expect(failure(await snapshot)).toMatchObject({
      code: "BRIDGE_CLOSED",
      message: "The session's worker is gone: the port was closed",
    });
    expect(port.listening()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    const before = port.posted.length;
    session.abort("too late");
    expect(port.posted).toHaveLength(before);
  });

  it("an error the worker reports is reported, and named when the worker then goes", async () => {
    const { port, session, reports } = await connected();
    port.emit("error", { error: new Error("out of memory") });
    expect(reports).toEqual([
      { code: "WORKER_ERROR", message: "the worker reported an error: out of memory" },
    ]);
    const snapshot = session.snapshot();
    port.emit("close");
    expect(failure(await snapshot)).toMatchObject({
      code: "BRIDGE_CLOSED",
      message: "The session's worker is gone: the port was closed (after it reported: out of memory)",
    });
  });

  it("the worker closing the session ends waiting calls SESSION_CLOSED, and nothing after changes that", async () => {
    // A port that keeps the page's listeners: what arrives afterwards still reaches the connection.
    const { port, session, reports } = await connected({}, {}, SoundPort);
    const snapshot = session.snapshot();
    port.send({ t: "closed" });
    expect(failure(await snapshot)).toMatchObject({
      _tag: "ConfigError",
      code: "SESSION_CLOSED",
      message: "The session was closed",
    });
    port.send({ t: "report", code: "PROTOCOL", message: "after the end" });
    port.emit("close");
    expect(reports).toEqual([]);
    expect(failure(await session.export())).toMatchObject({ code: "SESSION_CLOSED" });
    await session.close(); // never rejects
  });
});

describe("posting and reports", () => {
  it("a message the port refuses is reported as POST_FAILED", async () => {
    const { port, session, reports } = await connected();
    port.refuse = new Error("the port is full");
    session.abort();
    expect(reports).toEqual([
      { code: "POST_FAILED", message: "a message could not be posted: the port is full" },
    ]);
  });

  it("without onReport, reports go to console.warn, marked as the bridge's", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const port = fakePort({ hello: ready });
    okValue(await connectSession(port));
    port.send({ t: "report", code: "DECISION_EXPIRED", message: "an answer came late" });
    expect(warn).toHaveBeenCalledWith("wisp-agent/bridge: an answer came late");
  });

  it("a malformed message for a run is reported as PROTOCOL, not thrown into the port", async () => {
    const { port, session, reports } = await connected({
      run: (message, worker) => worker.send({ t: "event", id: message.id, event: null }),
    });
    const run = session.stream("hi");
    await vi.waitFor(() => expect(reports).toHaveLength(1));
    expect(reports[0]).toMatchObject({
      code: "PROTOCOL",
      message: expect.stringMatching(/^a malformed event message: ./),
    });
    port.emit("close");
    expect((await run.result).ok).toBe(false);
  });

  it("a failing tool-before handler is reported as denying the call, and the worker is told it failed", async () => {
    const { port, reports } = await connected(
      {},
      {
        onDecision: {
          "tool-before": () => {
            throw new Error("no policy here");
          },
        },
      },
    );
    port.send({
      t: "decide",
      requestId: "r1",
      kind: "tool-before",
      expectsDecision: true,
      canBlock: true,
      timeoutMs: 1_000,
      payload: { toolCall: { id: "c1", name: "lookup", args: {} } },
    });
    await vi.waitFor(() => expect(port.sent("decision")).toHaveLength(1));
    expect(port.sent("decision")[0]).toMatchObject({ requestId: "r1", failed: "no policy here" });
    expect(reports).toEqual([
      {
        code: "DECISION_HANDLER_FAILED",
        message: "onDecision failed on the tool-before question (the call was denied): no policy here",
        requestId: "r1",
      },
    ]);
  });

  it("an answer given after the worker went is reported as not posted", async () => {
    let answer: (approved: boolean) => void = () => {};
    const asked = new Promise<void>((resolve) => {
      answer = () => resolve();
    });
    let handlerCalled = false;
    const { port, reports } = await connected(
      {},
      {
        onDecision: {
          approval: async () => {
            handlerCalled = true;
            await asked;
            return { approved: true };
          },
        },
      },
    );
    port.send({
      t: "decide",
      requestId: "r2",
      kind: "approval",
      expectsDecision: true,
      canBlock: true,
      timeoutMs: 1_000,
      payload: { approval: { toolCallId: "c1", toolName: "send", args: {} } },
    });
    await vi.waitFor(() => expect(handlerCalled).toBe(true));
    port.emit("close");
    answer(true);
    await vi.waitFor(() => expect(reports).toHaveLength(1));
    expect(reports[0]).toMatchObject({
      code: "DECISION_HANDLER_FAILED",
      message: expect.stringContaining("its answer could not be posted"),
      requestId: "r2",
    });
    expect(port.sent("decision")).toEqual([]);
  });
});

describe("traffic that is not the bridge's", () => {
  it("other data on the port is left alone: nothing thrown, reported or acted on", async () => {
    const { port, session, reports } = await connected({ call: replyOne });
    for (const data of [null, undefined, "closed", 5, { t: "closed", v }, { wisp: "other", v, t: "closed" }])
      port.raw(data);
    port.send({ t: 5 });
    expect(reports).toEqual([]);
    expect(okValue(await session.snapshot())).toBe(1);
  });
});
