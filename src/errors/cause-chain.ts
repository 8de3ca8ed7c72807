/**
 * The cause chain of anything thrown, read without trusting it: a wrapper's error, the error it
 * wraps (`cause`), that one's cause, and so on. Every field is read under a guard (a getter may
 * throw, a Proxy may be revoked), a cause met again (a cycle) ends the chain, and so does its length
 * limit, so reading never throws and never hangs.
 *
 * @module
 */

import { describeValue } from "./message-of.ts";

/** How many errors of a chain are read at most: far more than any real wrapping, few enough to stay cheap. */
export const MAX_CHAIN_LENGTH = 16;

/** One error of a cause chain, as the fields classification reads. */
export interface ChainLink {
  /** The error (or value) itself. */
  readonly value: unknown;
  /** Its `name` (`TypeError`, `TimeoutError`, …), or `""`. */
  readonly name: string;
  /** Its `code` when that is a string (`ECONNREFUSED`, `UND_ERR_SOCKET`, …). */
  readonly code: string | undefined;
  /**
   * Its own message, or `""`; for an `AggregateError` without one (Node's "happy eyeballs" tries
   * IPv6 and IPv4 and reports both) the messages it aggregates, joined; for a string cause, the string.
   */
  readonly message: string;
}

/** `value[key]`, or undefined when reading it throws. */
function read(value: unknown, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** A string field of `value`, or undefined (also for `null`, whose fields cannot be read). */
function text(value: unknown, key: string): string | undefined {
  const field = read(value, key);
  return typeof field === "string" ? field : undefined;
}

/** The messages of an aggregate's errors, joined; `""` when there are none. */
function aggregated(value: object): string {
  const errors = read(value, "errors");
  if (!Array.isArray(errors)) return "";
  const messages: string[] = [];
  for (const error of errors.slice(0, MAX_CHAIN_LENGTH)) {
    // Read like a link (a function with a message gives its message), else shown as a value.
    messages.push(text(error, "message") ?? describeValue(error));
  }
  return messages.filter(Boolean).join("; ");
}

/** One link, read; undefined for a value that is no error at all (undefined, null, a number). */
function linkOf(value: unknown): ChainLink | undefined {
  if (typeof value === "string") return { value, name: "", code: undefined, message: value };
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return undefined;
  const message = text(value, "message") || aggregated(value);
  return { value, name: text(value, "name") ?? "", code: text(value, "code"), message };
}

/**
 * `error` and its causes, outermost first: at most {@link MAX_CHAIN_LENGTH} of them, ending at the
 * first cause that is missing, no error at all, or met before. Never throws.
 */
export function causeChain(error: unknown): ChainLink[] {
  const chain: ChainLink[] = [];
  const seen = new Set<unknown>();
  for (let current = error; chain.length < MAX_CHAIN_LENGTH && !seen.has(current); ) {
    const link = linkOf(current);
    if (link === undefined) break;
    chain.push(link);
    seen.add(current);
    current = read(current, "cause"); // a string's is undefined: the chain ends after it
  }
  return chain;
}
