/**
 * Answers that are not the event stream a turn asked for: an HTTP error's body, and a successful
 * response that carries a whole document instead of a stream. Such a body is read only so far (its
 * first {@link MAX_BODY_CHARS} characters), under the attempt's signal and idle timer like a stream.
 *
 * @module
 */

import { classifyProviderFailure } from "../errors/classify.ts";
import { type FailedRequest, ParseError } from "../errors/sdk-error.ts";

/** The most of a body that is not a stream Wisp reads (enough for any error's JSON); the rest is cancelled. */
export const MAX_BODY_CHARS = 64 * 1024;

/** What keeps the read of a body in check: the attempt's signal, and the idle timer each chunk resets. */
export interface BodyRead {
  signal: AbortSignal;
  onChunk: () => void;
}

/** A body's text, read as far as asked; the chunks are kept so that what was read can be read again. */
class BodyText {
  text = "";
  done = false;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #read: BodyRead;
  readonly #decoder = new TextDecoder();
  readonly #chunks: Uint8Array[] = [];

  constructor(body: ReadableStream<Uint8Array>, read: BodyRead) {
    this.#reader = body.getReader();
    this.#read = read;
  }

  /** Reads until `enough(text)` or the body's end. An abort cancels the read, even with a fetch that ignores its signal. */
  async until(enough: (text: string) => boolean): Promise<void> {
    const { signal, onChunk } = this.#read;
    const cancel = (): void => void this.#reader.cancel(signal.reason).catch(() => {});
    signal.addEventListener("abort", cancel, { once: true });
    try {
      while (!this.done && !enough(this.text) && !signal.aborted) {
        const next = await this.#reader.read();
        if (next.done) {
          this.done = true;
          this.text += this.#decoder.decode();
        } else {
          onChunk();
          this.#chunks.push(next.value);
          this.text += this.#decoder.decode(next.value, { stream: true });
        }
      }
    } finally {
      signal.removeEventListener("abort", cancel);
    }
    if (signal.aborted) throw signal.reason;
  }

  /** Stops reading: the rest of the body is cancelled. */
  release(): void {
    if (!this.done) void this.#reader.cancel().catch(() => {});
  }

  /** The whole body again as a stream: the chunks read so far, then the rest. */
  replay(): ReadableStream<Uint8Array> {
    const chunks = this.#chunks;
    const reader = this.#reader;
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          const chunk = chunks.shift();
          if (chunk !== undefined) return controller.enqueue(chunk);
          const next = this.done ? undefined : await reader.read();
          if (next === undefined || next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
  }
}

/** `text` as JSON when it parses, else the text. */
function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** An error's body: its JSON when it parses, else its text; at most {@link MAX_BODY_CHARS} of it is read. */
export async function readBody(response: Response, read: BodyRead): Promise<unknown> {
  if (response.body === null) return "";
  const body = new BodyText(response.body, read);
  await body.until((text) => text.length >= MAX_BODY_CHARS);
  body.release();
  return jsonOrText(body.text.slice(0, MAX_BODY_CHARS));
}

/** Content types of a whole document (HTML, JSON, XML), which an event stream should not have. */
const DOCUMENT_TYPE = /^\s*(?:text\/html|text\/xml|application\/[\w.+-]*(?:json|xml))\b/i;

/** How an event stream begins: a field (`data:`, `event:`, `id:`, `retry:`) or a comment. */
const STREAM_START = /^\s*(?::|(?:data|event|id|retry)\s*:)/;

/**
 * The body of a successful response as an event stream to read, or the error it is instead. A body
 * labelled as a document (HTML, JSON, XML) is looked at first: one that begins like an event stream is
 * read as one all the same (servers that mislabel their stream); else it is a captive portal's or a
 * proxy's page, or one JSON answer from a server that ignored `"stream": true` — a STREAM_MALFORMED
 * ParseError showing what came — or a gateway's `{ error }` sent with status 200, classified as the
 * provider failure it is. Any other type (`text/event-stream`, none, `text/plain`) is read as a stream.
 */
export async function streamBody(
  response: Response,
  provider: string,
  request: FailedRequest,
  read: BodyRead,
): Promise<ReadableStream<Uint8Array>> {
  if (response.body === null)
    throw new ParseError("The response has no body", { code: "STREAM_TRUNCATED", provider });
  const type = response.headers.get("content-type") ?? "";
  if (!DOCUMENT_TYPE.test(type)) return response.body;
  const body = new BodyText(response.body, read);
  await body.until((text) => text.trim() !== "");
  if (STREAM_START.test(body.text)) return body.replay();
  await body.until((text) => text.length >= MAX_BODY_CHARS);
  body.release();
  const parsed = jsonOrText(body.text.slice(0, MAX_BODY_CHARS));
  const error = (parsed as { error?: unknown } | null)?.error;
  if ((typeof error === "object" && error !== null) || (typeof error === "string" && error !== ""))
    throw classifyProviderFailure({ provider, body: parsed, headers: response.headers, request });
  const shown = typeof parsed === "string" ? parsed : JSON.stringify(parsed);
  throw new ParseError(
    `The server sent ${type.split(";")[0]?.trim()} instead of an event stream: ${shown.trim().slice(0, 200)}`,
    { code: "STREAM_MALFORMED", provider, request },
  );
}
