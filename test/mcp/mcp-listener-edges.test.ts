/**
 * McpListener's edges, against a scripted transport under the fake clock: start() with no session id
 * or while it listens already, giving up after three failures in a row, a session the server forgot,
 * one failure followed by a stream, the pause after a failure and after streams that carried messages,
 * and the stream restart() and stop() end.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionExpired } from "../../src/mcp/mcp-http.ts";
import { McpListener } from "../../src/mcp/mcp-listener.ts";
import type { ListenOutcome, McpTransport } from "../../src/mcp/mcp-transport.ts";
import { useFakeClock } from "../support/fake-time.ts";

/** What the n-th GET stream does: ends with an outcome, fails with an error, or stays open until aborted. */
type Step = ListenOutcome | Error | "open";

/** A transport whose GET streams follow `script`, recording when each was opened and its signal. */
function scriptedTransport(
  script: (call: number) => Step,
  { sessionId }: { sessionId?: string } = { sessionId: "session-1" },
) {
  const streams: { at: number; signal: AbortSignal }[] = [];
  const transport: McpTransport = {
    sessionId,
    protocolVersion: "2025-06-18",
    shownUrl: "http://127.0.0.1/mcp",
    described: (method) => ({ method, url: "http://127.0.0.1/mcp" }),
    post: () => Promise.reject(new Error("not used here")),
    terminate: () => Promise.resolve(),
    listen(signal) {
      const step = script(streams.length);
      streams.push({ at: Date.now(), signal });
      if (step === "open")
        return new Promise((resolve) =>
          signal.addEventListener("abort", () => resolve("ended"), { once: true }),
        );
      return step instanceof Error ? Promise.reject(step) : Promise.resolve(step);
    },
  };
  return { transport, streams };
}

/** The fake milliseconds between each stream's opening and the next one's. */
function gaps(streams: { at: number }[]): number[] {
  return streams.slice(1).map((stream, index) => stream.at - (streams[index]?.at ?? 0));
}

describe("McpListener", () => {
  const listeners: McpListener[] = [];
  /** A listener on `transport`, stopped after the test. */
  function listenerOn(transport: McpTransport): McpListener {
    const listener = new McpListener(transport, () => {});
    listeners.push(listener);
    return listener;
  }

  afterEach(() => {
    for (const listener of listeners.splice(0)) listener.stop();
    vi.useRealTimers();
  });

  it("start() without a session id opens no stream", async () => {
    useFakeClock();
    const { transport, streams } = scriptedTransport(() => "open", {});
    listenerOn(transport).start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(streams).toHaveLength(0);
  });

  it("a second start() while listening opens no second stream", async () => {
    useFakeClock();
    const { transport, streams } = scriptedTransport(() => "open");
    const listener = listenerOn(transport);
    listener.start();
    listener.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(streams).toHaveLength(1);
  });

  it("gives up after three failed streams in a row", async () => {
    useFakeClock();
    const { transport, streams } = scriptedTransport(() => new Error("connection reset"));
    listenerOn(transport).start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(streams).toHaveLength(3);
  });

  it("a failed stream is opened again 500 ms later, a failure-free one 250 ms later", async () => {
    useFakeClock();
    const { transport, streams } = scriptedTransport((call) =>
      call === 0 ? new Error("connection reset") : call === 1 ? "ended" : "open",
    );
    listenerOn(transport).start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(gaps(streams)).toEqual([500, 250]);
  });

  it("stops at once, without retrying, when the server no longer knows the session", async () => {
    useFakeClock();
    const { transport, streams } = scriptedTransport(() => new SessionExpired("session-1"));
    listenerOn(transport).start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(streams).toHaveLength(1);
  });

  it("pauses longer only while streams end empty: one that carried messages resets the pause to 250 ms", async () => {
    useFakeClock();
    const script: Step[] = ["ended-empty", "ended-empty", "ended", "ended"];
    const { transport, streams } = scriptedTransport((call) => script[call] ?? "open");
    listenerOn(transport).start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(gaps(streams)).toEqual([500, 1_000, 250, 250]);
  });

  it("restart() ends the previous session's stream and opens one stream for the new session", async () => {
    useFakeClock();
    const { transport, streams } = scriptedTransport(() => "open");
    const listener = listenerOn(transport);
    listener.start();
    await vi.advanceTimersByTimeAsync(0);
    listener.restart();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(streams.map((stream) => stream.signal.aborted)).toEqual([true, false]);
  });

  it("stop() ends the open stream and no other is opened", async () => {
    useFakeClock();
    const { transport, streams } = scriptedTransport(() => "ended");
    const listener = listenerOn(transport);
    listener.start();
    await vi.advanceTimersByTimeAsync(0);
    listener.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(streams).toHaveLength(1);
  });
});
