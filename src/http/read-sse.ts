/**
 * Layer `http` (docs/architecture.md): fetch-level plumbing: the SSE parser, bounded body reads, retry policy, timers.
 *
 * Reads Server-Sent Events from a `Response.body`. Bytes are decoded incrementally, so a chunk may end
 * anywhere (inside a line, inside a UTF-8 sequence); `\n`, `\r\n` and a lone `\r` all end a line
 * (see sse-parser.ts, which follows the WHATWG rules). Comments (`: keep-alive`) are dropped. The
 * other lines (a `retry:` reconnection time) reach a reader that asks for them (`onField`, with
 * sse-retry.ts's `retryField`); the others pay nothing for them.
 *
 * @module
 */

import { ParseError } from "../errors/sdk-error.ts";
import { type FieldHandler, type SseEvent, SseParser } from "./sse-parser.ts";

export type { SseEvent } from "./sse-parser.ts";

/** Callbacks of {@link readSse}. */
export interface SseHandlers {
  /** Each event, in order. Throwing stops the read and rejects {@link readSse}. */
  onEvent(event: SseEvent): void;
  /** Each chunk of bytes, before it is parsed (used to reset an idle timer). */
  onChunk?(): void;
  /**
   * Returns true once the handler needs nothing more (asked after each event): no later event is
   * delivered, the read stops and the body is released.
   */
  isDone?(): boolean;
  /**
   * Each line that is no `data`, `event` or `id` field, as it arrives (`retryField(onRetry)` reads
   * the stream's reconnection time from them); without it they are not looked at.
   */
  onField?: FieldHandler;
}

/**
 * The most text one event may take (its lines, before it completes): a stream that sends more
 * without ending an event is refused instead of growing memory until the runtime dies.
 */
const MAX_SSE_EVENT_CHARS = 32 * 1024 * 1024;

/** How long a body may stay open after its last event before it is cancelled. */
const DRAIN_MS = 1000;

/**
 * Reads what follows the last event without holding up the turn: servers end the body right after
 * it, and reading to that end (rather than cancelling) keeps the connection reusable and stops
 * browsers from listing a finished request as cancelled. A body still open after `DRAIN_MS` is
 * cancelled.
 */
function drainRest(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  const timer = setTimeout(() => void reader.cancel().catch(() => {}), DRAIN_MS);
  const next = (): void => {
    reader.read().then(
      ({ done }) => (done ? clearTimeout(timer) : next()),
      () => clearTimeout(timer),
    );
  };
  next();
}

/** Thrown by {@link readSse} when its signal aborts; callers classify by the signal, not by this. */
export class ReadAborted extends Error {
  override readonly name = "ReadAborted";
}

/**
 * Reads `body` to its end, calling `handlers.onEvent` for each event. Resolves when the body ends (or
 * the handler is done), rejects with whatever the read or a handler threw, or with a ParseError
 * (`STREAM_MALFORMED`) when one event grows past `maxEventChars`. The reader is always
 * released; on failure the body is cancelled so the connection closes.
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  handlers: SseHandlers,
  signal?: AbortSignal,
  maxEventChars = MAX_SSE_EVENT_CHARS,
): Promise<void> {
  let complete = false;
  const decoder = new TextDecoder();
  // Text fed since the last complete event (an upper bound on what the parser holds).
  let pending = 0;
  const parser = new SseParser((event) => {
    pending = 0;
    // Nothing after the handler's last event is delivered, even in the same read (a gateway's
    // `data: [DONE]` right behind the terminal event).
    if (complete) return;
    handlers.onEvent(event); // the parser's own object: no copy per event
    if (handlers.isDone?.()) complete = true;
  }, handlers.onField);
  const reader = body.getReader();
  let bodyEnded = false;
  // Cancelling on abort ends a pending read at once, even with a fetch that ignores its signal.
  const onAbort = (): void => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener("abort", onAbort);
  try {
    if (signal?.aborted) throw new ReadAborted("aborted");
    while (true) {
      const { value, done } = await reader.read();
      if (signal?.aborted) throw new ReadAborted("aborted");
      if (done) {
        bodyEnded = true;
        break;
      }
      handlers.onChunk?.();
      const text = decoder.decode(value, { stream: true });
      pending += text.length;
      parser.feed(text);
      if (pending > maxEventChars) {
        throw new ParseError(`An SSE event grew past ${maxEventChars} characters without ending`, {
          code: "STREAM_MALFORMED",
        });
      }
      if (complete) return;
    }
    // What the body ended on without a line ending (a last line, an event without its blank line,
    // the decoder's unfinished bytes) is dropped, as the standard says: nothing more is delivered.
  } finally {
    signal?.removeEventListener("abort", onAbort);
    if (bodyEnded) reader.releaseLock();
    else if (complete) drainRest(reader);
    // Stopped early or failed: cancel the body so the transfer stops and the server sees the close.
    else reader.cancel().catch(() => {});
  }
}
