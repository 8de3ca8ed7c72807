/**
 * Answers that are not the event stream a turn asked for: an HTTP error's body, and a successful
 * response that carries a whole document instead of a stream.
 *
 * @module
 */

import { classifyProviderFailure } from "../errors/classify.ts";
import { type AnySdkError, type FailedRequest, ParseError } from "../errors/sdk-error.ts";

/** A body read whole: its JSON when it parses, else its text. */
export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Content types of a whole document (HTML, JSON, XML), which an event stream never has. */
const DOCUMENT_TYPE = /^\s*(?:text\/html|text\/xml|application\/[\w.+-]*(?:json|xml))\b/i;

/**
 * The error for a successful response whose body is a document, not an event stream: a captive
 * portal's or a proxy's HTML page, one JSON answer from a server that ignored `"stream": true`, or a
 * gateway's `{ error }` sent with status 200 (classified as the provider failure it is). Undefined when
 * the body may be a stream: `text/event-stream`, no content type, or one that says nothing about the
 * body (`text/plain`, which `new Response(text)` gets), whose events are then read as usual.
 */
export async function documentInsteadOfStream(
  response: Response,
  provider: string,
  request: FailedRequest,
): Promise<AnySdkError | undefined> {
  const type = response.headers.get("content-type") ?? "";
  if (!DOCUMENT_TYPE.test(type)) return undefined;
  const body = await readBody(response);
  if (typeof body === "object" && body !== null && "error" in body)
    return classifyProviderFailure({ provider, body, request });
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return new ParseError(
    `The server sent ${type.split(";")[0]?.trim()} instead of an event stream: ${text.trim().slice(0, 200)}`,
    { code: "STREAM_MALFORMED", provider, request },
  );
}
