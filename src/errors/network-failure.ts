/**
 * Recognizes the many shapes a failed `fetch` or body read takes in each runtime. Every runtime throws
 * something different for "the connection failed", and none of them says so with a shared type.
 *
 * @module
 */

import { type ChainLink, causeChain } from "./cause-chain.ts";

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

/** Error codes (on the error or a cause) that mean the network failed. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "ConnectionRefused", // Bun
  "ConnectionClosed", // Bun
  "ECONNABORTED",
]);

/** Error codes (on the error or a cause) that mean the runtime gave up waiting. */
const TIMEOUT_CODES = new Set([
  "ETIMEDOUT", // Node net: the connecting or the socket timed out
  "ESOCKETTIMEDOUT", // request-style clients
  "UND_ERR_CONNECT_TIMEOUT", // undici
  "UND_ERR_HEADERS_TIMEOUT", // undici: no headers in time
  "UND_ERR_BODY_TIMEOUT", // undici: the body stalled
]);

/** True when this link's message is one a runtime gives a failed connection. */
function hasNetworkMessage(link: ChainLink): boolean {
  return (
    NETWORK_MESSAGES.has(link.message) || NETWORK_PREFIXES.some((prefix) => link.message.startsWith(prefix))
  );
}

/** True when `error` is a runtime's way of saying the connection failed, timed out or was cut. */
export function isNetworkFailure(error: unknown): boolean {
  return causeChain(error).some(
    (link) =>
      (link.code !== undefined && (NETWORK_CODES.has(link.code) || TIMEOUT_CODES.has(link.code))) ||
      hasNetworkMessage(link),
  );
}

/**
 * What a runtime's failure shape says, reading the chain for a known code first (outermost first: a
 * timeout's code makes it a `TIMEOUT`), then for a runtime's network message. Undefined when neither
 * is there.
 */
export function runtimeFailureCode(chain: readonly ChainLink[]): "NETWORK" | "TIMEOUT" | undefined {
  for (const { code } of chain) {
    if (code !== undefined && TIMEOUT_CODES.has(code)) return "TIMEOUT";
    if (code !== undefined && NETWORK_CODES.has(code)) return "NETWORK";
  }
  return chain.some(hasNetworkMessage) ? "NETWORK" : undefined;
}

/** The first runtime error code on `error` or its causes (`ECONNREFUSED`, `ENOTFOUND`, …), if any. */
export function networkFailureCode(error: unknown): string | undefined {
  return causeChain(error).find((link) => link.code !== undefined)?.code;
}

/** The most specific message in the cause chain: `connect ECONNREFUSED 127.0.0.1:8080` rather than `fetch failed`. */
export function innermostMessage(error: unknown): string {
  return causeChain(error).reduce((message, link) => link.message || message, "");
}

/**
 * True when the failure can only repeat: the fetch standard blocks some ports outright (undici says
 * `bad port`, e.g. for port 9 or 25), so another attempt would fail the same way.
 */
export function isPermanentNetworkFailure(error: unknown): boolean {
  return innermostMessage(error) === "bad port";
}
