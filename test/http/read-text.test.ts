/**
 * readText: a body read as text only as far as needed (an error's body, a JSON answer with a
 * ceiling). Characters split across chunks stay whole, `enough` stops the read and cancels the rest,
 * an abort throws the signal's reason, and no listener stays on the caller's signal.
 */
import { describe, expect, it } from "vitest";
import { readText } from "../../src/http/read-text.ts";
import { countListeners } from "../support/leftovers.ts";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A body that sends `chunks` one per pull, and records whether it was cancelled. */
function bodyOf(chunks: Uint8Array[]): {
  body: ReadableStream<Uint8Array>;
  pulled: () => number;
  cancelled: () => boolean;
} {
  let index = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[index++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, pulled: () => index, cancelled: () => cancelled };
}

describe("readText", () => {
  it("keeps a character whole when its bytes are split across chunks", async () => {
    const whole = bytes("héllo 😊 世界");
    const chunks = [...whole].map((byte) => Uint8Array.of(byte)); // one byte at a time
    let chunksSeen = 0;
    const { body } = bodyOf(chunks);
    const text = await readText(body, { onChunk: () => chunksSeen++ }, () => false);
    expect(text).toBe("héllo 😊 世界");
    expect(chunksSeen).toBe(whole.length);
  });

  it("stops reading once `enough` says so, and cancels the rest", async () => {
    const source = bodyOf([bytes("abc"), bytes("def"), bytes("ghi"), bytes("jkl")]);
    const text = await readText(source.body, {}, (read) => read.length >= 6);
    expect(text).toBe("abcdef");
    expect(source.pulled()).toBe(2);
    expect(source.cancelled()).toBe(true);
  });

  it("throws the signal's reason on an abort, at once when it had already aborted", async () => {
    const already = bodyOf([bytes("abc")]);
    await expect(readText(already.body, { signal: AbortSignal.abort("gone") }, () => false)).rejects.toBe(
      "gone",
    );
    expect(already.pulled()).toBe(0);

    const controller = new AbortController();
    let release = (): void => {};
    const waiting = new ReadableStream<Uint8Array>({
      pull: () => new Promise<void>((resolve) => (release = resolve)),
    });
    const read = readText(waiting, { signal: controller.signal }, () => false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort("stop");
    await expect(read).rejects.toBe("stop");
    release();
  });

  it("leaves no listener on the caller's signal", async () => {
    const { signal } = new AbortController();
    const listeners = countListeners(signal);
    await readText(bodyOf([bytes("a")]).body, { signal }, () => false);
    await readText(bodyOf([bytes("abc")]).body, { signal }, (read) => read.length > 1);
    expect(listeners.added).toBe(2);
    expect(listeners.live).toBe(0);
  });
});
