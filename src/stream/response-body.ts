/**
 * Answers that are not the event stream a turn asked for: an HTTP error's body, and a successful
 * response that carries a whole document instead of a stream. Such a body is read only so far (its
 * first {@link MAX_BODY_CHARS} characters, by `readText`), under the attempt's signal and idle timer
 * like a stream.
 *
 * @module
 */

import { classifyProviderFailure } from "../errors/classify.ts";
import { type FailedRequest, ParseError } from "../errors/sdk-error.ts";
import { type BodyRead, readText } from "../http/read-text.ts";

/** The most of a body that is not a stream Wisp reads (enough for any error's JSON); the rest is cancelled. */
const MAX_BODY_CHARS = 64 * 1024;

/** `text` (at most {@link MAX_BODY_CHARS} of it) as JSON when it parses, else the text. */
function jsonOrText(text: string): unknown {
  const kept = text.slice(0, MAX_BODY_CHARS);
  try {
    return JSON.parse(kept);
  } catch {
    return kept;
  }
}

/** An error's body: its JSON when it parses, else its text; at most {@link MAX_BODY_CHARS} of it is read. */
export async function readBody(response: Response, read: BodyRead): Promise<unknown> {
  if (response.body === null) return "";
  return jsonOrText(await readText(response.body, read, (text) => text.length >= MAX_BODY_CHARS));
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
    // Not retried (the same server gives the same again), whatever the code's default.
    throw new ParseError("The response has no body", {
      code: "STREAM_TRUNCATED",
      retryable: false,
      provider,
    });
  const type = response.headers.get("content-type") ?? "";
  if (!DOCUMENT_TYPE.test(type)) return response.body;
  // One branch is looked at; the other, which keeps what was read, is the stream if it is one.
  const [look, stream] = response.body.tee();
  const letGo = (): void => void stream.cancel().catch(() => {});
  const text = await readText(
    look,
    read,
    (seen) => seen.length >= MAX_BODY_CHARS || STREAM_START.test(seen),
  ).catch((error: unknown) => {
    letGo();
    throw error;
  });
  if (STREAM_START.test(text)) return stream;
  letGo();
  const body = jsonOrText(text);
  const error = (body as { error?: unknown } | null)?.error;
  if ((typeof error === "object" && error !== null) || (typeof error === "string" && error !== ""))
    throw classifyProviderFailure({ provider, body, headers: response.headers, request });
  const shown = typeof body === "string" ? body : JSON.stringify(body);
  throw new ParseError(
    `The server sent ${type.split(";")[0]?.trim()} instead of an event stream: ${shown.trim().slice(0, 200)}`,
    { code: "STREAM_MALFORMED", provider, request },
  );
}
