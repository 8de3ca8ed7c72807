/**
 * SSE framing: every line ending, chunks split anywhere (inside UTF-8 sequences too), comments.
 */
import { describe, expect, it, vi } from "vitest";
import { ReadAborted, readSse, type SseEvent } from "../../src/http/read-sse.ts";
import { retryField } from "../../src/http/sse-retry.ts";
import { rechunk } from "../support/fixtures.ts";
import { bodyOf } from "../support/replay.ts";

async function read(chunks: Uint8Array[]): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  await readSse(bodyOf(chunks), { onEvent: (event) => events.push(event) });
  return events;
}

const encode = (text: string) => new TextEncoder().encode(text);
const EXPECTED: SseEvent[] = [
  { event: "message_start", data: '{"text":"héllo 😊 世界"}' },
  { event: undefined, data: "line one\nline two" },
  { event: undefined, data: "[DONE]" },
];

describe("readSse", () => {
  for (const [name, eol] of [
    ["\\n", "\n"],
    ["\\r\\n", "\r\n"],
    ["\\r", "\r"],
  ] as const) {
    it(`reads events with ${name} line endings, comments dropped, multi-line data joined`, async () => {
      const text = [
        ": OPENROUTER PROCESSING",
        "",
        "event: message_start",
        'data: {"text":"héllo 😊 世界"}',
        "",
        "data: line one",
        "data: line two",
        "",
        "data: [DONE]",
        "",
        "",
      ].join(eol);
      expect(await read([encode(text)])).toEqual(EXPECTED);
      for (const seed of [1, 2, 3, 4, 5])
        expect(await read(rechunk(encode(text), seed, 3))).toEqual(EXPECTED);
      // One byte at a time: every split point, including inside each multi-byte character.
      expect(await read(rechunk(encode(text), 9, 1))).toEqual(EXPECTED);
    });
  }

  it("returns once the handler is done, delivering nothing after (the same read's events included), then reads the body to its end rather than cancelling it", async () => {
    let cancelled = false;
    let source!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        source = controller;
        controller.enqueue(encode("data: 1\n\ndata: 2\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    const seen: string[] = [];
    // Resolves although the body is still open: the turn does not wait for the server's close.
    await readSse(body, { onEvent: (event) => seen.push(event.data), isDone: () => seen.length > 0 });
    // "2" came in the same read as "1" (a gateway's `data: [DONE]` behind the terminal event).
    expect(seen).toEqual(["1"]);
    source.enqueue(encode("data: 3\n\n"));
    await vi.waitFor(() => expect(source.desiredSize).toBe(1)); // the queue was read empty
    source.close();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual(["1"]); // what follows the last event is read, not handled
    expect(cancelled).toBe(false);
  });

  it("cancels a body still open a second after the handler is done", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let cancelled = false;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encode("data: 1\n\n"));
        },
        cancel() {
          cancelled = true;
        },
      });
      await readSse(body, { onEvent: () => {}, isDone: () => true });
      await vi.advanceTimersByTimeAsync(999);
      expect(cancelled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(cancelled).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("hands the stream's reconnection times to onField (through retryField), in order with the events, however the bytes are split", async () => {
    const text = "retry: 500\nid: e1\ndata: \n\ndata: a\n\nretry: 1200\n\nretry: nope\n\n";
    for (const chunks of [[encode(text)], rechunk(encode(text), 4, 1)]) {
      const seen: string[] = [];
      await readSse(bodyOf(chunks), {
        onEvent: (event) => seen.push(`event ${event.id ?? "-"} ${JSON.stringify(event.data)}`),
        onField: retryField((ms) => seen.push(`retry ${ms}`)),
      });
      expect(seen).toEqual(["retry 500", 'event e1 ""', 'event - "a"', "retry 1200"]);
    }
  });

  it("a handler that throws rejects the read and cancels the body", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encode("data: bad\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    await expect(
      readSse(body, {
        onEvent: () => {
          throw new Error("bad event");
        },
      }),
    ).rejects.toThrow("bad event");
    expect(cancelled).toBe(true);
  });

  it("stops the drain's timer when the body fails after the last event (nothing is left to cancel)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let source!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          source = controller;
          controller.enqueue(encode("data: 1\n\n"));
        },
      });
      await readSse(body, { onEvent: () => {}, isDone: () => true });
      expect(vi.getTimerCount()).toBe(1);
      source.error(new TypeError("network lost"));
      await vi.advanceTimersByTimeAsync(0);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("releases a body that ended (it is no longer locked), without cancelling it", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encode("data: 1\n\n"));
        controller.close();
      },
      cancel() {
        cancelled = true;
      },
    });
    await readSse(body, { onEvent: () => {} });
    expect(body.locked).toBe(false);
    expect(cancelled).toBe(false);
  });

  it("does not read a body whose signal has already aborted: it cancels it and throws ReadAborted", async () => {
    let pulled = 0;
    let cancelled: unknown = "not cancelled";
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled++;
          controller.enqueue(encode("data: 1\n\n"));
        },
        cancel(reason) {
          cancelled = reason;
        },
      },
      { highWaterMark: 0 },
    );
    const seen: string[] = [];
    const read = readSse(body, { onEvent: (event) => seen.push(event.data) }, AbortSignal.abort("gone"));
    await expect(read).rejects.toBeInstanceOf(ReadAborted);
    await expect(read).rejects.toMatchObject({ name: "ReadAborted", message: "aborted" });
    expect(pulled).toBe(0);
    expect(seen).toEqual([]);
    expect(cancelled).toBeUndefined();
  });

  it("stops at the next read when the signal aborts mid-stream, with ReadAborted, delivering nothing after", async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const body = new ReadableStream<Uint8Array>({
      start(source) {
        source.enqueue(encode("data: 1\n\n"));
        source.enqueue(encode("data: 2\n\n"));
      },
    });
    const read = readSse(
      body,
      {
        onEvent: (event) => {
          seen.push(event.data);
          controller.abort("stop");
        },
      },
      controller.signal,
    );
    await expect(read).rejects.toMatchObject({ name: "ReadAborted", message: "aborted" });
    expect(seen).toEqual(["1"]);
  });
});
