/**
 * The SSE `retry:` field in MCP (SEP-1699: "the client MUST respect the retry field"): a server that
 * closes a request's stream after `retry: 500` is resumed with `Last-Event-ID` no sooner than 500 ms
 * later; a `retry:` past the ceiling waits the ceiling; the wait ends at once on an abort; the GET
 * stream for unprompted messages reopens no sooner than its `retry:`. Real loopback HTTP servers (a
 * hand-written polling one, and the official SDK's with its event store), measured on a fake clock:
 * the servers stamp each close and each arrival with `Date.now()`, which moves only as the test moves
 * it, so the waits are measured exactly and no real time is asserted.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_SSE_RETRY_MS } from "../../src/http/sse-retry.ts";
import { connectMcp, type McpConnection } from "../../src/mcp/index.ts";
import { toolContext } from "../support/tool-context.ts";
import { startOfficialServer } from "./support/official-server.mjs";
import { type PollingServer, startPollingServer } from "./support/polling-server.ts";
import { toolNamed } from "./support/tool-named.ts";

/** One turn of the event loop, on the real clock (`setImmediate` is not faked). */
const realTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Moves the fake clock on, `stepMs` at a time with a real turn of the event loop between steps (so
 * sockets are read), until `done()`; fails after `limitMs` of fake time.
 */
async function runClockUntil(done: () => boolean, limitMs: number, stepMs = 10): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > limitMs) throw new Error(`not done within ${limitMs} ms of the fake clock`);
    await vi.advanceTimersByTimeAsync(stepMs);
    await realTurn();
  }
}

/** `value` as a promise, with a flag saying whether it settled (fulfilled or rejected). */
function watched<T>(value: T | Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  const promise = Promise.resolve(value);
  let settled = false;
  const mark = (): void => {
    settled = true;
  };
  promise.then(mark, mark);
  return { promise, settled: () => settled };
}

async function connected(url: string, listen = false): Promise<McpConnection> {
  const result = await connectMcp({ url, listen, timeoutMs: 120_000 });
  if (!result.ok) throw result.error;
  return result.value;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("a request's stream closed after retry:", () => {
  let server: PollingServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("is resumed with Last-Event-ID no sooner than the 500 ms the server asked for", async () => {
    server = await startPollingServer({ retry: "500" });
    const connection = await connected(server.url);
    const call = watched(toolNamed(connection, "slow").execute({}, toolContext()));
    await runClockUntil(call.settled, 5_000);
    expect(await call.promise).toBe("done");
    const { closedAt, resumedAt, lastEventIds } = server.log;
    expect(lastEventIds).toEqual(["e1"]);
    expect(closedAt).toHaveLength(1);
    expect(resumedAt).toHaveLength(1);
    expect((resumedAt[0] as number) - (closedAt[0] as number)).toBeGreaterThanOrEqual(500);
    await connection.close();
  });

  it("asking for an hour waits the ceiling (MAX_SSE_RETRY_MS), not the hour", async () => {
    server = await startPollingServer({ retry: String(60 * 60 * 1000) });
    const connection = await connected(server.url);
    const call = watched(toolNamed(connection, "slow").execute({}, toolContext()));
    // Fails if the call is not answered within 45 s of the fake clock: an hour's wait would not be.
    await runClockUntil(call.settled, 45_000, 100);
    expect(await call.promise).toBe("done");
    const { closedAt, resumedAt } = server.log;
    expect((resumedAt[0] as number) - (closedAt[0] as number)).toBeGreaterThanOrEqual(MAX_SSE_RETRY_MS);
    await connection.close();
  });

  it("an abort during the wait ends the call at once, without resuming: the clock need not move", async () => {
    server = await startPollingServer({ retry: "20000" });
    const connection = await connected(server.url);
    const controller = new AbortController();
    const call = watched(toolNamed(connection, "slow").execute({}, toolContext(controller.signal)));
    const log = server.log;
    await runClockUntil(() => log.closedAt.length === 1, 5_000);
    // 19 s of the fake clock pass without a resumption: the client is waiting its 20 s.
    const until = Date.now() + 19_000;
    await runClockUntil(() => Date.now() >= until, 20_000, 100);
    expect(log.resumedAt).toEqual([]);
    expect(call.settled()).toBe(false);
    const before = Date.now();
    controller.abort();
    // Settling needs no fake time: awaited with the clock still, or the test times out.
    await expect(call.promise).rejects.toMatchObject({ _tag: "AbortError", code: "ABORTED" });
    expect(Date.now()).toBe(before);
    await vi.advanceTimersByTimeAsync(30_000);
    for (let turn = 0; turn < 20; turn++) await realTurn();
    expect(log.resumedAt).toEqual([]);
    await connection.close();
  });
});

describe("the GET stream for unprompted messages", () => {
  let server: PollingServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("is reopened no sooner than the retry: its last stream set (2000 ms, past Wisp's own pause)", async () => {
    server = await startPollingServer({ retry: "0", listenRetry: "2000" });
    const connection = await connected(server.url, true);
    const log = server.log;
    await runClockUntil(() => log.listenedAt.length >= 3, 10_000);
    await connection.close();
    // Each stream ended empty: Wisp's own pause would be 500 ms, then 1000 ms; the server's 2000 ms wins.
    for (const index of [0, 1]) {
      const gap = (log.listenedAt[index + 1] as number) - (log.listenClosedAt[index] as number);
      expect(gap).toBeGreaterThanOrEqual(2000);
    }
  });
});

describe("the official SDK's server, keeping events, with retryInterval 500", () => {
  it("resumes the stream its poll tool closed no sooner than 500 ms later", async () => {
    const official = await startOfficialServer({ resumable: true, retryInterval: 500 });
    try {
      const connection = await connected(official.url);
      const call = watched(toolNamed(connection, "poll").execute({}, toolContext()));
      await runClockUntil(call.settled, 5_000);
      expect(await call.promise).toBe("answered after a resume");
      const { closedAt, resumedAt, resumes } = official.log;
      expect(closedAt).toHaveLength(1);
      expect(resumes.length).toBeGreaterThan(0);
      expect((resumedAt[0] as number) - (closedAt[0] as number)).toBeGreaterThanOrEqual(500);
      await connection.close();
    } finally {
      await official.close();
    }
  });
});
