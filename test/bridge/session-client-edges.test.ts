/**
 * The session `connectSession` gives (session-client.ts), at its edges: options refused on the main
 * thread before anything is sent (a schema, a branch that is no leaf id, a chat option given to
 * resume), input and decisions that cannot be posted, a run's `signal`, which runs ask the worker for
 * every event and which only for the result, the session's `abort` with and without a reason, and a
 * finished run no longer keeping the worker watched. Half of it over a real MessageChannel to a served
 * session, half against a fake worker that shows what crosses the port.
 */
import type { MessagePort } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import {
  type ConnectSessionOptions,
  connectSession,
  type RemoteSession,
  BRIDGE_PROTOCOL_VERSION as v,
} from "../../src/bridge/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, collect, says } from "../support/agent.ts";
import { channel, closePorts, send, serveScripted } from "../support/bridge-channel.ts";
import { failure, okValue } from "../support/results.ts";

const open: RemoteSession[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const session of open.splice(0)) await session.close();
  closePorts();
});

/** A session served on one end of a channel (the `send` tool needs approval), connected on the other. */
async function bridged(script: ScriptedTurn[], connect: ConnectSessionOptions = {}) {
  const [workerSide, mainSide] = channel();
  const model = createScriptedModel({ script });
  serveScripted(workerSide, model, { tools: [send] });
  const session = okValue(await connectSession(mainSide, { onReport: () => undefined, ...connect }));
  open.push(session);
  return { session, model };
}

type Posted = { t: string; id?: string; [key: string]: unknown };

/**
 * A fake worker: it answers the handshake, answers every call with `[]`, ends each run at once unless
 * `endRuns` is false, never answers a ping, and keeps what it received.
 */
async function fakeWorker(connect: ConnectSessionOptions = {}, { endRuns = true } = {}) {
  const [worker, mainSide] = channel();
  const received: Posted[] = [];
  const post = (message: object) => worker.postMessage({ wisp: "bridge", v, ...message });
  worker.on("message", (message: Posted) => {
    received.push(message);
    if (message.t === "hello") post({ t: "ready", sessionId: "fake" });
    if (message.t === "call") post({ t: "reply", id: message.id, value: [] });
    if (message.t === "run" && endRuns) post({ t: "event", id: message.id, event: runEnd });
  });
  const session = okValue(await connectSession(mainSide, { onReport: () => undefined, ...connect }));
  /** What the worker received, once everything posted so far has arrived (a call's reply is behind it). */
  const arrived = async (): Promise<Posted[]> => {
    await session.branches();
    return received.filter((message) => message.t !== "call" && message.t !== "ping");
  };
  return { worker: worker as MessagePort, session, arrived };
}

const runEnd = {
  type: "run-end",
  result: {
    ok: true,
    value: {
      text: "done",
      messages: [],
      toolCalls: [],
      usage: { inputTokens: 0, outputTokens: 0 },
      provider: "anthropic",
      model: "m",
      sessionId: "fake",
      stopReason: "end_turn",
      durationMs: 0,
      turns: 1,
    },
  },
};

describe("options refused before anything is sent", () => {
  it("a run's output schema cannot cross the port: a ConfigError at path output", async () => {
    const { session, model } = await bridged([says("x")]);
    const result = await session.chat("hi", { output: z.object({ city: z.string() }) } as never);
    expect(failure(result)).toMatchObject({
      code: "CONFIG_INVALID",
      path: "output",
      message:
        "output (a schema) cannot cross the port: give output to serveSession's session options in the worker",
    });
    expect(model.requests).toHaveLength(0);
  });

  it("export's branch and switchBranch's leaf id must be strings", async () => {
    const { session } = await bridged([]);
    expect(failure(await session.export({ branch: 7 as never }))).toMatchObject({
      code: "BRANCH_INVALID",
      path: "branch",
      message: "branch must be a branch's leaf id (a string)",
    });
    expect(failure(await session.switchBranch(7 as never))).toMatchObject({
      code: "BRANCH_INVALID",
      path: "leafId",
      message: "leafId must be a branch's leaf id (a string)",
    });
  });

  it("resume takes resume's options, not chat's: a mode is refused", async () => {
    const { session, model } = await bridged([says("x")]);
    const result = await session.resume([], { mode: "steer" } as never);
    expect(failure(result)).toMatchObject({ code: "CONFIG_INVALID", path: "mode" });
    expect(model.requests).toHaveLength(0);
  });
});

describe("what cannot be posted", () => {
  it("decisions that are not plain data fail the resume at path decisions", async () => {
    const { session, model } = await bridged([says("x")]);
    const result = await session.resume([
      { toolCallId: "call-1", approved: true, args: { to: (() => "Ada") as never } },
    ]);
    expect(failure(result)).toMatchObject({
      code: "CONFIG_INVALID",
      path: "decisions",
      message:
        "The run's decisions (or its options) could not be posted to the worker: they must be plain data (no functions or class instances)",
    });
    expect(model.requests).toHaveLength(0);
  });

  it("input that is not plain data fails the chat at path input", async () => {
    const { session, model } = await bridged([says("x")]);
    const result = await session.chat([{ type: "text", text: "hi", extra: () => 1 } as never]);
    expect(failure(result)).toMatchObject({
      code: "CONFIG_INVALID",
      path: "input",
      message:
        "The run's input (or its options) could not be posted to the worker: they must be plain data (no functions or class instances)",
    });
    expect(model.requests).toHaveLength(0);
  });
});

describe("runs", () => {
  it("a signal aborted while the run streams aborts it in the worker", async () => {
    const { session } = await bridged([
      { content: [{ type: "text", text: "word ".repeat(500) }], delayMs: 2 },
    ]);
    const controller = new AbortController();
    const run = session.stream("story", { signal: controller.signal });
    let deltas = 0;
    for await (const event of run)
      if (event.type === "text-delta" && ++deltas === 2) controller.abort("enough");
    const result = await run.result;
    expect(!result.ok && result.error.code).toBe("ABORTED");
  });

  it("resumeStream streams every event of the resumed run", async () => {
    const { session } = await bridged([calls(["send", { to: "Ada" }]), says("mailed Ada")]);
    const paused = okValue(await session.chat("mail Ada"));
    const pending = paused.pendingApprovals?.[0];
    expect(pending?.toolName).toBe("send");
    const events = await collect(
      session.resumeStream([{ toolCallId: pending?.toolCallId ?? "", approved: true }]),
    );
    const text = events.flatMap((event) => (event.type === "text-delta" ? [event.delta] : [])).join("");
    expect(text).toBe("mailed Ada");
  });

  it("chat and resume ask the worker for the result only; stream and resumeStream for every event", async () => {
    const { session, arrived } = await fakeWorker({ window: 8 });
    await session.chat("a");
    await session.resume([]);
    await collect(session.stream("b"));
    await collect(session.resumeStream([]));
    const runs = (await arrived()).filter((message) => message.t === "run");
    expect(runs.map(({ op, quiet, window }) => ({ op, quiet, window }))).toEqual([
      { op: "chat", quiet: true, window: 0 },
      { op: "resume", quiet: true, window: 0 },
      { op: "chat", quiet: false, window: 8 },
      { op: "resume", quiet: false, window: 8 },
    ]);
  });

  it("a finished run no longer keeps the worker watched: a silent worker is not given up on", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    const { session } = await fakeWorker({ workerTimeoutMs: 100 });
    okValue(await session.chat("a"));
    vi.advanceTimersByTime(1000);
    expect(okValue(await session.branches())).toEqual([]);
  });
});

describe("the session's abort", () => {
  it("posts the reason's message when there is one, and no reason when there is none", async () => {
    const { session, arrived } = await fakeWorker();
    session.abort();
    session.abort("the page closes");
    session.abort(new Error("stop it"));
    const aborts = (await arrived()).filter((message) => message.t === "abort");
    expect(aborts.map(({ t, reason, id }) => ({ t, reason, id }))).toEqual([
      { t: "abort", reason: undefined, id: undefined },
      { t: "abort", reason: "the page closes", id: undefined },
      { t: "abort", reason: "stop it", id: undefined },
    ]);
    expect(aborts[0] && "reason" in aborts[0]).toBe(false);
  });
});

describe("closing", () => {
  it("resolves, twice, once the worker is gone", async () => {
    const { session, worker } = await fakeWorker();
    worker.close();
    await expect.poll(async () => !(await session.drainQueue()).ok).toBe(true);
    expect(failure(await session.export())).toMatchObject({ code: "BRIDGE_CLOSED" });
    await expect(session.close()).resolves.toBeUndefined();
    await expect(session.close()).resolves.toBeUndefined();
  });
});
