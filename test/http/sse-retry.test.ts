/**
 * reconnectDelay: the server's `retry:` is honoured (never waited less), bounded by MAX_SSE_RETRY_MS,
 * and a longer pause of the caller's own wins.
 */
import { describe, expect, it } from "vitest";
import { MAX_SSE_RETRY_MS, reconnectDelay } from "../../src/http/sse-retry.ts";

describe("reconnectDelay", () => {
  it("is the caller's own pause when the server set no reconnection time", () => {
    expect(reconnectDelay(undefined, 0)).toBe(0);
    expect(reconnectDelay(undefined, 300)).toBe(300);
  });

  it("is the server's reconnection time when it is longer than the caller's pause", () => {
    expect(reconnectDelay(500, 0)).toBe(500);
    expect(reconnectDelay(0, 0)).toBe(0);
  });

  it("is the caller's pause when that is longer (a backoff may wait more, never less)", () => {
    expect(reconnectDelay(500, 800)).toBe(800);
  });

  it("never waits more than MAX_SSE_RETRY_MS for the server, however much it asks", () => {
    expect(MAX_SSE_RETRY_MS).toBe(30_000);
    expect(reconnectDelay(3_600_000, 0)).toBe(MAX_SSE_RETRY_MS);
    expect(reconnectDelay(Number(`1${"0".repeat(40)}`), 100)).toBe(MAX_SSE_RETRY_MS);
    expect(reconnectDelay(Number.POSITIVE_INFINITY, 100)).toBe(MAX_SSE_RETRY_MS);
  });
});
