/**
 * How long to wait before reconnecting to an event stream: the server's reconnection time (its
 * `retry:` field, which the MCP specification says a client must respect), never more than
 * {@link MAX_SSE_RETRY_MS}, or the caller's own pause when that is longer; and the `retry:` field
 * read from the lines the SSE parser hands over (only readers that reconnect load this).
 *
 * @module
 */

import type { FieldHandler } from "./sse-parser.ts";

const COLON = 58;
const SPACE = 32;
const DIGIT_ZERO = 48;

/**
 * The reconnection time the line `text[start, end)` sets, in ms: its value when it is a `retry` field
 * (`retry:` or `retry: `, one space dropped) made only of ASCII digits, else -1 (an empty value, a
 * sign, a second space, any other character). Read in place, without a copy. A value of more digits
 * than a number holds exactly is still a (very large) number: the caller bounds it.
 */
function retryValue(text: string, start: number, end: number): number {
  let at = start + 5; // "retry".length
  if (at >= end || text.charCodeAt(at) !== COLON || !text.startsWith("retry", start)) return -1;
  at++;
  if (text.charCodeAt(at) === SPACE) at++;
  if (at === end) return -1;
  let ms = 0;
  for (; at < end; at++) {
    const digit = text.charCodeAt(at) - DIGIT_ZERO;
    if (digit < 0 || digit > 9) return -1;
    ms = ms * 10 + digit;
  }
  return ms;
}

/**
 * A field handler for the SSE parser (or `readSse`'s `onField`) that calls `onRetry` with each
 * reconnection time the stream sets (a `retry:` line of ASCII digits only, per the WHATWG rules: any
 * other value is ignored), as the line arrives, unbounded (the caller caps it).
 */
export function retryField(onRetry: (ms: number) => void): FieldHandler {
  return (text, start, end) => {
    const ms = retryValue(text, start, end);
    if (ms >= 0) onRetry(ms);
  };
}

/**
 * The longest wait a server's `retry:` field can ask for before a reconnection, in ms (30 s): a
 * larger value waits this long, so a hostile or broken server cannot park a request for hours.
 */
export const MAX_SSE_RETRY_MS = 30_000;

/**
 * The wait before reconnecting to an event stream, in ms: the server's reconnection time `retryMs`
 * (from its last `retry:` field; at most {@link MAX_SSE_RETRY_MS}), or `ownMs` (the caller's own
 * pause, such as a backoff after streams that brought nothing) when that is longer or the server
 * set none. The standard lets a client wait longer than the reconnection time, never shorter.
 */
export function reconnectDelay(retryMs: number | undefined, ownMs: number): number {
  return retryMs === undefined ? ownMs : Math.max(Math.min(retryMs, MAX_SSE_RETRY_MS), ownMs);
}
