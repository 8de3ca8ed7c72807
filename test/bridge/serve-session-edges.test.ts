/**
 * serveSession's edges, against a fake main side that speaks the protocol by hand (a port object that
 * records what the worker posts and delivers what the test sends): hellos with bad or stolen ids,
 * messages from no connection, a second run under a live id, quiet runs, aborts with and without a
 * reason, calls on a session that was never made, a port that refuses to post, the port going away,
 * and closing — once, twice, or while a run is in flight — with the port's listeners removed.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type BridgeReport,
  type ServeSessionOptions,
  type SessionServer,
  serveSession,
  BRIDGE_PROTOCOL_VERSION as v,
} from "../../src/bridge/index.ts";
import { uncheckedModel } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { says } from "../support/agent.ts";

type Posted = { t: string; to?: string; id?: string; [field: string]: unknown };
type Listener = (...args: unknown[]) => void;

/** A Node-style port: records what is posted (or throws when `refuse` says so), delivers by `emit`. */
class FakePort {
  readonly sent: Posted[] = [];
  readonly listeners = new Map<string, Set<Listener>>();
  refuse: (message: Posted) => boolean = () => false;
  postMessage(message: unknown): void {
    if (this.refuse(message as Posted)) throw new Error("the port is full");
    this.sent.push(message as Posted);
  }
  on(type: string, listener: Listener): void {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
  }
  off(type: string, listener: Listener): void {
    this.listeners.get(type)?.delete(listener);
  }
  emit(type: string, ...args: unknown[]): void {
    for (const listener of [...(this.listeners.get(type) ?? [])]) listener(...args);
  }
  /** Delivers a bridge message from the main side (connection `k1` unless the message says). */
  send(message: object): void {
    this.emit("message", { wisp: "bridge", v, key: "k1", ...message });
  }
  /** How many listeners are registered, over every type. */
  get listening(): number {
    return [...this.listeners.values()].reduce((sum, set) => sum + set.size, 0);
  }
  of(t: string): Posted[] {
    return this.sent.filter((message) => message.t === t);
  }
}

const servers: SessionServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function served(
  script: ScriptedTurn[] = [says("fine")],
  options: { [K in keyof ServeSessionOptions]?: ServeSessionOptions[K] | undefined } = {},
  port = new FakePort(),
) {
  const model = createScriptedModel({ script });
  const reports: BridgeReport[] = [];
  const server = serveSession(port, {
    model: "anthropic/claude-sonnet-4-5",
    apiKey: "k",
    fetch: model.fetch,
    retry: { maxRetries: 0 },
    onReport: (report) => reports.push(report),
    ...(options as Partial<ServeSessionOptions>),
  });
  servers.push(server);
  return { port, model, server, reports };
}

const HELLO = { t: "hello", conn: "c1", decides: [], timeouts: {} };

async function ready(port: FakePort, hello: object = HELLO): Promise<void> {
  const before = port.of("ready").length;
  port.send(hello);
  await expect.poll(() => port.of("ready").length).toBe(before + 1);
}

function runEnds(port: FakePort, id: string) {
  return port
    .of("event")
    .filter((message) => message.id === id && (message.event as { type: string }).type === "run-end");
}

const LONG: ScriptedTurn = { content: [{ type: "text", text: "word ".repeat(200) }], delayMs: 1 };

function run(id: string, extra: object = {}): object {
  return { t: "run", id, op: "chat", input: "hi", options: {}, window: 0, quiet: false, ...extra };
}

function refusal(port: FakePort): unknown {
  return port.of("refused")[0]?.error;
}

describe("hellos", () => {
  it("a first hello whose key or conn is not a non-empty string is refused, naming which", async () => {
    const cases: Array<[object, object]> = [
      [{ key: 5 }, { path: "key", message: "a hello's key must be a non-empty string, got number" }],
      [{ key: "" }, { path: "key", message: "a hello's key must be a non-empty string, got string" }],
      [{ conn: 7 }, { path: "conn", message: "a hello's conn must be a non-empty string, got number" }],
      [{ conn: "" }, { path: "conn", message: "a hello's conn must be a non-empty string, got string" }],
      [{ timeouts: { approval: "soon" } }, { path: "decisionTimeoutsMs.approval" }],
    ];
    for (const [bad, error] of cases) {
      const { port, server, reports } = served();
      port.send({ ...HELLO, ...bad });
      await server.closed;
      expect(refusal(port)).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID", ...error });
      expect(port.of("ready")).toEqual([]);
      expect(reports.map((report) => report.code)).toEqual(["PROTOCOL"]);
    }
  });

  it("a hello without timeouts takes the defaults", async () => {
    const { port } = served();
    await ready(port, { t: "hello", conn: "c1", decides: [] });
    expect(port.of("refused")).toEqual([]);
  });

  it("a later malformed hello is reported and ignored; the bridge goes on", async () => {
    const { port, reports } = served();
    await ready(port);
    port.send({ ...HELLO, key: "" });
    port.send({ t: "ping" });
    await expect.poll(() => port.of("pong").length).toBe(1);
    expect(reports).toEqual([
      {
        code: "PROTOCOL",
        message: "a malformed hello; ignored: a hello's key must be a non-empty string, got string",
      },
    ]);
  });

  it("a hello claiming another connection's id, or a new id for a known key, is reported and gets no ready", async () => {
    const { port, reports } = served();
    await ready(port);
    port.send({ ...HELLO, key: "k2", conn: "c1" });
    port.send({ ...HELLO, key: "k1", conn: "c2" });
    await ready(port, { ...HELLO, key: "k3", conn: "c3" });
    await ready(port, HELLO);
    expect(port.of("ready").map((message) => message.to)).toEqual(["c1", "c3", "c1"]);
    const claimed = { code: "PROTOCOL", message: "a hello claiming another connection's id; ignored" };
    expect(reports).toEqual([claimed, claimed]);
    // The stolen ids did not become connections: what they send is from no connection.
    port.send({ t: "ping", key: "k2" });
    await expect.poll(() => reports).toHaveLength(3);
  });

  it("a main thread speaking another version is refused with both versions named", async () => {
    const { port, server } = served();
    port.send({ ...HELLO, v: 1 });
    await server.closed;
    expect(refusal(port)).toMatchObject({
      code: "BRIDGE_VERSION",
      message: `The main thread speaks bridge protocol 1, this worker ${v}: load the same wisp-agent version on both sides`,
      details: { theirs: 1, ours: v },
    });
  });
});

describe("messages", () => {
  it("a message from no connection is reported by its type and ignored", async () => {
    const { port, reports } = served();
    await ready(port);
    port.send({ t: "ping", key: "nobody" });
    expect(reports).toEqual([{ code: "PROTOCOL", message: "a ping message from no connection; ignored" }]);
    expect(port.of("pong")).toEqual([]);
  });

  it("a decision from a connection that was not asked is reported with its request id", async () => {
    const { port, reports } = served();
    await ready(port);
    await ready(port, { ...HELLO, key: "k2", conn: "c2" });
    port.send({ t: "decision", key: "k2", requestId: "r9", answer: { approved: true } });
    expect(reports).toEqual([
      {
        code: "DECISION_UNKNOWN",
        message: "a decision from a connection that was not asked (request r9); ignored",
      },
    ]);
  });

  it("a message that fails as it is handled is reported, not thrown", async () => {
    const { port, reports } = served([LONG]);
    await ready(port);
    port.send(run("r1", { window: 1 }));
    await expect.poll(() => port.of("event").length).toBe(1);
    port.send({ t: "credit", id: "r1", n: 1n });
    await expect
      .poll(() => reports)
      .toEqual([{ code: "PROTOCOL", message: expect.stringMatching(/^TypeError: .*BigInt/) }]);
  });
});

describe("runs", () => {
  it("a second run under an id still running is reported and ignored; the id is free once the run ended", async () => {
    const { port, reports, model } = served([LONG, says("again")]);
    await ready(port);
    port.send(run("r1", { window: 1 }));
    await expect.poll(() => port.of("event").length).toBe(1);
    port.send(run("r1"));
    await expect
      .poll(() => reports)
      .toEqual([{ code: "PROTOCOL", message: "a second run r1 while the first runs; ignored" }]);
    port.send({ t: "credit", id: "r1", n: 10_000 });
    await expect.poll(() => runEnds(port, "r1").length).toBe(1);
    port.send(run("r1"));
    await expect.poll(() => runEnds(port, "r1").length).toBe(2);
    expect(reports).toHaveLength(1);
    expect(model.requests).toHaveLength(2);
  });

  it("a quiet run sends only whole messages and what frames them", async () => {
    const { port } = served([says("a few words here")]);
    await ready(port);
    port.send(run("r1", { quiet: true }));
    await expect.poll(() => runEnds(port, "r1").length).toBe(1);
    const types = port.of("event").map((message) => (message.event as { type: string }).type);
    expect(types).toContain("message");
    expect(types.filter((type) => type.endsWith("-delta"))).toEqual([]);
  });

  it("a run without input is the session's empty-prompt error", async () => {
    const { port, model } = served();
    await ready(port);
    port.send(run("r1", { input: undefined }));
    await expect.poll(() => runEnds(port, "r1").length).toBe(1);
    expect(runEnds(port, "r1")[0]?.event).toMatchObject({
      result: { ok: false, error: { code: "CONFIG_INVALID", path: "prompt" } },
    });
    expect(model.requests).toHaveLength(0);
  });

  it("an abort carries its reason as the run's cause; without one it is the plain abort", async () => {
    const { port } = served([LONG, LONG]);
    await ready(port);
    const abortedWith = async (id: string, reason: string | undefined) => {
      port.send(run(id));
      await expect
        .poll(() => port.of("event").filter((message) => message.id === id).length)
        .toBeGreaterThan(2);
      port.send(reason === undefined ? { t: "abort", id } : { t: "abort", id, reason });
      await expect.poll(() => runEnds(port, id).length).toBe(1);
      const ended = runEnds(port, id)[0]?.event as { result: { error: unknown } } | undefined;
      return ended?.result.error;
    };
    expect(await abortedWith("r1", "enough")).toMatchObject({
      code: "ABORTED",
      cause: { name: "Error", message: "enough" },
    });
    expect(await abortedWith("r2", undefined)).toMatchObject({
      code: "ABORTED",
      cause: { name: "AbortError" },
    });
  });

  it("on a session that could not be made, runs end quietly (their ids free again) and calls reply SESSION_CLOSED", async () => {
    const { port, reports } = served([], { model: uncheckedModel("nowhere/model") });
    port.send(HELLO);
    await expect.poll(() => port.of("refused").length).toBe(1);
    // A call queues behind the run, so its reply says the run is done.
    const replied = async (id: string) => {
      port.send({ t: "call", id, method: "export" });
      await expect.poll(() => port.of("reply").filter((message) => message.id === id)).toHaveLength(1);
      return port.of("reply").find((message) => message.id === id);
    };
    port.send(run("r1"));
    expect(await replied("q1")).toMatchObject({
      error: { code: "SESSION_CLOSED", message: "The session was never created" },
    });
    port.send(run("r1"));
    await replied("q2");
    expect(reports).toEqual([]);
    expect(port.of("event")).toEqual([]);
  });

  it("switchBranch to a leaf the session does not have replies with its error", async () => {
    const { port } = served();
    await ready(port);
    port.send({ t: "call", id: "q1", method: "switchBranch", argument: "no-such-leaf" });
    await expect.poll(() => port.of("reply")).toHaveLength(1);
    expect(port.of("reply")[0]).toMatchObject({ id: "q1", error: { _tag: "ConfigError" } });
    expect(port.of("reply")[0]).not.toHaveProperty("value");
  });
});

describe("posting", () => {
  it("a port that refuses to post: each failure is reported once, to onReport only", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const port = new FakePort();
      port.refuse = () => true;
      const { reports } = served(undefined, {}, port);
      expect(reports).toEqual([
        { code: "POST_FAILED", message: "a message could not be posted: Error: the port is full" },
      ]);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it("without onReport, a report the port takes is not warned about; one it refuses is", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const { port } = served(undefined, { onReport: undefined });
      await ready(port);
      port.send({ t: "ping", key: "nobody" });
      expect(port.of("report")).toMatchObject([{ code: "PROTOCOL" }]);
      expect(warn).not.toHaveBeenCalled();
      const refusing = new FakePort();
      refusing.refuse = () => true;
      const { server } = served(undefined, { onReport: undefined }, refusing);
      expect(warn.mock.calls).toEqual([
        ["wisp-agent/bridge: a message could not be posted: Error: the port is full"],
      ]);
      await server.close();
    } finally {
      warn.mockRestore();
    }
  });
});

describe("closing", () => {
  it("the port going away closes the bridge without a closed message, and stops listening", async () => {
    const { port, server } = served();
    await ready(port);
    expect(port.listening).toBeGreaterThan(0);
    port.emit("close");
    await server.closed;
    expect(port.of("closed")).toEqual([]);
    expect(port.listening).toBe(0);
  });

  it("close() tells the main side and stops listening", async () => {
    const { port, server } = served();
    await ready(port);
    await server.close();
    expect(port.sent.at(-1)).toMatchObject({ t: "closed" });
    expect(port.listening).toBe(0);
  });

  it("closing with a run in flight aborts it with the bridge's reason, and closed comes last", async () => {
    const { port, server } = served([LONG]);
    await ready(port);
    port.send(run("r1"));
    await expect.poll(() => port.of("event").length).toBeGreaterThan(2);
    await server.close();
    expect(runEnds(port, "r1")[0]?.event).toMatchObject({
      result: { ok: false, error: { code: "ABORTED", cause: { message: "The bridge closed" } } },
    });
    expect(port.sent.at(-1)).toMatchObject({ t: "closed" });
    expect(port.of("closed")).toHaveLength(1);
  });

  it("closing again while closing waits for the first: one closed message, after the run ended", async () => {
    const { port, server } = served([LONG]);
    await ready(port);
    port.send(run("r1"));
    await expect.poll(() => port.of("event").length).toBeGreaterThan(2);
    let closed = false;
    void server.closed.then(() => {
      closed = true;
    });
    const first = server.close();
    await server.close();
    expect(closed).toBe(true);
    await first;
    expect(runEnds(port, "r1")).toHaveLength(1);
    expect(port.of("closed")).toHaveLength(1);
    expect(port.sent.at(-1)).toMatchObject({ t: "closed" });
  });

  it("messages that come while the bridge closes are ignored", async () => {
    const { port, server } = served();
    await ready(port);
    const closing = server.close();
    port.send({ t: "ping" });
    await closing;
    expect(port.of("pong")).toEqual([]);
  });

  it("a call still in flight when the bridge closes gets no reply after closed", async () => {
    const sign = vi.spyOn(crypto.subtle, "sign");
    try {
      const { port, server } = served(undefined, { approvalSecret: "a secret of sixteen" });
      await ready(port);
      port.send({ t: "call", id: "q1", method: "setPermissions", argument: { mode: "default" } });
      await server.close();
      // Let the signing (and what waits for it) finish.
      await expect.poll(() => sign.mock.results).toHaveLength(1);
      await sign.mock.results[0]?.value;
      await new Promise((resolve) => setImmediate(resolve));
      expect(port.sent.at(-1)).toMatchObject({ t: "closed" });
      expect(port.of("reply")).toEqual([]);
    } finally {
      sign.mockRestore();
    }
  });
});

describe("misuse", () => {
  it("something that is not a port is a ConfigError saying what a port is", () => {
    expect(() => serveSession(null as never, { model: "anthropic/x" })).toThrow(
      /^serveSession needs a port: something with postMessage and addEventListener or on$/,
    );
  });
});
