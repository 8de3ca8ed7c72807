/**
 * Recognizes the many shapes a failed `fetch` or body read takes in each runtime. Every runtime throws
 * something different for "the connection failed", and none of them says so with a shared type.
 *
 * @module
 */

import { messageOf } from "./message-of.ts";

/** Exact messages of network failures, by runtime. */
const NETWORK_MESSAGES = new Set([
  "fetch failed", // Node (undici), before headers
  "terminated", // Node (undici), body cut mid-stream
  "other side closed", // undici SocketError
  "Failed to fetch", // Chromium
  "network error", // Chromium body read
  "NetworkError when attempting to fetch resource.", // Firefox
  "Load failed", // Safari 17+
  "The network connection was lost.", // Safari
  "The Internet connection appears to be offline.", // Safari 16
  " A network error occurred.", // Bun (WebKit), leading space is real
  "Network connection lost.", // workerd
  "Network connection lost", // workerd (fetch)
  "Network request failed", // cross-fetch / React Native
  "connection error", // Deno body read
  "The socket connection was closed unexpectedly. For more information, pass `verbose: true` in the second argument to fetch()", // Bun
]);

/** Message prefixes of network failures. */
const NETWORK_PREFIXES = [
  "error sending request for url", // Deno
  "error reading a body from connection", // Deno
  "Failed to fetch (", // Chromium with host
  "Load failed (", // Safari with host
  "Unable to connect", // Bun
  "The socket connection was closed unexpectedly", // Bun
  "connect ECONNREFUSED", // Node net
  "read ECONNRESET", // Node net
];

/** Error codes (on the error or its cause) that mean the network failed. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "ConnectionRefused", // Bun
  "ConnectionClosed", // Bun
  "ECONNABORTED",
]);

function codeOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const code = (value as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** True when `error` is a runtime's way of saying the connection failed or was cut. */
export function isNetworkFailure(error: unknown): boolean {
  for (let current = error, depth = 0; current !== undefined && depth < 4; depth++) {
    const code = codeOf(current);
    if (code !== undefined && NETWORK_CODES.has(code)) return true;
    if (current instanceof Error) {
      const message = current.message;
      if (NETWORK_MESSAGES.has(message)) return true;
      if (NETWORK_PREFIXES.some((prefix) => message.startsWith(prefix))) return true;
      current = current.cause;
    } else {
      return false;
    }
  }
  return false;
}

/** The first runtime error code on `error` or its causes (`ECONNREFUSED`, `ENOTFOUND`, …), if any. */
export function networkFailureCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current !== undefined && depth < 4; depth++) {
    const code = codeOf(current);
    if (code !== undefined) return code;
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

/**
 * The text of one error in a cause chain: its message, or for an `AggregateError` with none (Node's
 * "happy eyeballs" tries IPv6 and IPv4 and reports both) the messages it aggregates.
 */
function ownMessage(error: Error): string {
  const { message, errors } = error as Error & { errors?: unknown };
  return message || (Array.isArray(errors) ? errors.map(messageOf).filter(Boolean).join("; ") : "");
}

/** The most specific message in the cause chain: `connect ECONNREFUSED 127.0.0.1:8080` rather than `fetch failed`. */
export function innermostMessage(error: unknown): string {
  let message = "";
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    const own = ownMessage(current);
    if (own !== "") message = own;
    current = current.cause;
  }
  return message;
}

/**
 * True when the failure can only repeat: the fetch standard blocks some ports outright (undici says
 * `bad port`, e.g. for port 9 or 25), so another attempt would fail the same way.
 */
export function isPermanentNetworkFailure(error: unknown): boolean {
  return innermostMessage(error) === "bad port";
}
