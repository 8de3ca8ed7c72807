/**
 * How long to wait before reconnecting to an event stream: the server's reconnection time (its
 * `retry:` field, which the MCP specification says a client must respect), never more than
 * {@link MAX_SSE_RETRY_MS}, or the caller's own pause when that is longer.
 *
 * @module
 */

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
