/**
 * A stream that never ends its event cannot grow memory without bound: past the limit the read fails
 * with a typed ParseError and the body is cancelled.
 */
import { describe, expect, it } from "vitest";
import { readSse } from "../../src/http/read-sse.ts";

describe("readSse limits", () => {
  it("refuses an event that grows past the limit, and cancels the body", async () => {
    let pulled = 0;
    let cancelled = false;
    const chunk = new TextEncoder().encode(`data: ${"x".repeat(1024)}`);
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const events: string[] = [];
    const read = readSse(endless, { onEvent: (event) => events.push(event.data) }, undefined, 64 * 1024);
    await expect(read).rejects.toMatchObject({ _tag: "ParseError", code: "STREAM_MALFORMED" });
    expect(events).toEqual([]);
    expect(pulled).toBeLessThan(70); // stopped near 64 KiB, not later
    expect(cancelled).toBe(true);
  });

  it("allows text of exactly the limit without an event's end, and names the limit when it goes past", async () => {
    const unended = (): ReadableStream<Uint8Array> =>
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("data: 12345")); // 11 characters, no blank line yet
          controller.close();
        },
      });
    await expect(readSse(unended(), { onEvent: () => {} }, undefined, 11)).resolves.toBeUndefined();
    await expect(readSse(unended(), { onEvent: () => {} }, undefined, 10)).rejects.toMatchObject({
      code: "STREAM_MALFORMED",
      message: "An SSE event grew past 10 characters without ending",
    });
  });

  it("a long stream of normal events is not limited by its total size", async () => {
    const event = new TextEncoder().encode(`data: ${"y".repeat(1000)}\n\n`);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ === 500) controller.close();
        else controller.enqueue(event);
      },
    });
    let count = 0;
    await readSse(stream, { onEvent: () => count++ }, undefined, 64 * 1024);
    expect(count).toBe(500);
  });
});
