/**
 * reconnectDelay: the server's `retry:` is honoured (never waited less), bounded by MAX_SSE_RETRY_MS,
 * and a longer pause of the caller's own wins.
 */
import { describe, expect, it } from "vitest";
import { SseParser } from "../../src/http/sse-parser.ts";
import { MAX_SSE_RETRY_MS, reconnectDelay, retryField } from "../../src/http/sse-retry.ts";

/** The reconnection times `retryField` reports for `lines`, each one ended and fed on its own. */
function retriesOf(lines: string[]): number[] {
  const retries: number[] = [];
  const parser = new SseParser(
    () => {},
    retryField((ms) => retries.push(ms)),
  );
  for (const line of lines) parser.feed(`${line}\n`);
  return retries;
}

describe("retryField", () => {
  it("reads `retry:` and `retry: ` followed by ASCII digits only", () => {
    expect(retriesOf(["retry:5", "retry: 250", "retry: 0", "retry:007"])).toEqual([5, 250, 0, 7]);
  });

  it("ignores every other line: no colon, another name, an empty value, a sign, a second space, a letter", () => {
    const ignored = [
      "retry55",
      "retry",
      "retry:",
      "retry: ",
      "retrx: 5",
      "other: 50",
      "xretry: 5",
      "retry: -5",
      "retry: +5",
      "retry:  5",
      "retry: 5x",
      "retry: 1.5",
      ": retry: 5",
    ];
    expect(retriesOf(ignored)).toEqual([]);
  });
});

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
