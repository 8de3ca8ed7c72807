/**
 * What kind of transport failure something thrown is: a timeout, a failed or cut connection, or an
 * abort. Users wrap `fetch` (proxies, auth signers, per-request timeouts), so what reaches Wisp is
 * often the wrapper's own error with the runtime's somewhere in its cause chain, or a library's error
 * that says what happened only by its name or its words. The whole chain is read, strongest signal
 * first: names → runtime codes and network messages → well-known wording.
 *
 * @module
 */

import { type ChainLink, causeChain } from "./cause-chain.ts";
import { isPermanentNetworkFailure, networkFailureCode, runtimeFailureCode } from "./network-failure.ts";

/** The transport failure something thrown is, as classification needs it. */
export interface TransportFailure {
  /**
   * `TIMEOUT` and `NETWORK` are worth another attempt (unless `permanent`); `ABORTED` is an error
   * named `AbortError`, which only the caller's signal can tell apart from the fetch's own timeout.
   */
  code: "TIMEOUT" | "NETWORK" | "ABORTED";
  /** A failure that can only repeat (a port `fetch` never connects to). */
  permanent: boolean;
  /** The runtime's code from the chain (`ECONNREFUSED`, `ETIMEDOUT`, …), when there is one. */
  causeCode: string | undefined;
}

/** Timeouts in words: "request timed out", "Timeout exceeded", "Headers Timeout Error", "deadline exceeded", "ETIMEDOUT". */
const TIMEOUT_WORDING =
  /\btimed out\b|\btime-?out (?:exceeded|expired)\b|\b(?:request|connect(?:ion)?|socket|read|headers|body|idle) time-?out\b|\bdeadline exceeded\b|^\s*time-?out\s*$|\be(?:socket)?timedout\b/i;

/** A refused, reset or broken connection in words: "connection refused", "socket hang up", "ECONNRESET". */
const NETWORK_WORDING =
  /\bconnection (?:was )?(?:refused|reset|closed unexpectedly)\b|\breset by peer\b|\bsocket hang up\b|\bbroken pipe\b|\be(?:connrefused|connreset|pipe|connaborted)\b/i;

/** The code a link's name gives: `TimeoutError` (any `…TimeoutError`) or `AbortError`. */
function codeFromName(link: ChainLink): "TIMEOUT" | "ABORTED" | undefined {
  if (/TimeoutError$/.test(link.name)) return "TIMEOUT";
  if (link.name === "AbortError" || link.code === "ABORT_ERR") return "ABORTED";
  return undefined;
}

/** The code a link's words give, timeouts first. */
function codeFromWording(link: ChainLink): "TIMEOUT" | "NETWORK" | undefined {
  if (TIMEOUT_WORDING.test(link.message)) return "TIMEOUT";
  if (NETWORK_WORDING.test(link.message)) return "NETWORK";
  return undefined;
}

/** The first code any link of the chain gives by `read`. */
function firstOf<T>(chain: readonly ChainLink[], read: (link: ChainLink) => T | undefined): T | undefined {
  for (const link of chain) {
    const code = read(link);
    if (code !== undefined) return code;
  }
  return undefined;
}

/**
 * The transport failure `error` is, or undefined when nothing in it says so. Any `…TimeoutError` in
 * the chain (what `AbortSignal.timeout` gives) beats an `AbortError`; an `AbortError` is `ABORTED`
 * here, for the caller to decide whose abort it was. Never throws.
 */
export function transportFailure(error: unknown): TransportFailure | undefined {
  const chain = causeChain(error);
  const names = chain.map(codeFromName);
  const code =
    (names.includes("TIMEOUT") ? "TIMEOUT" : names.includes("ABORTED") ? "ABORTED" : undefined) ??
    runtimeFailureCode(chain) ??
    firstOf(chain, codeFromWording);
  if (code === undefined) return undefined;
  return {
    code,
    permanent: code === "NETWORK" && isPermanentNetworkFailure(error),
    causeCode: networkFailureCode(error),
  };
}
