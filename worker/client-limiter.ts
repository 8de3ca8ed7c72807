/**
 * Per-client rate limits on what costs the service storage: creating and importing sessions. One
 * Durable Object per client (its IP address; an IPv6 client by its /64, which one host usually owns
 * whole) holds a token bucket in its own storage, so the count is exact across every Cloudflare
 * location and survives the object being evicted. The numbers come from `CREATE_RATE_LIMIT`
 * (`"<count>/<seconds>"`, default {@link DEFAULT_CREATE_RATE_LIMIT}).
 *
 * @module
 */

import { DurableObject } from "cloudflare:workers";

/** Sessions a client may create or import: a burst of 20, then one every 3 seconds (20 a minute). */
export const DEFAULT_CREATE_RATE_LIMIT = "20/60";

/** A rate: up to `count` at once, refilled evenly over `seconds`. */
export interface Rate {
  count: number;
  seconds: number;
}

/** What taking one unit answered: allowed, or how many seconds until one is free. */
interface TakeOutcome {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** The default limit on requests to the demo's MCP server, per client. */
export const DEFAULT_MCP_RATE_LIMIT = "120/60";

/**
 * Parses `"<count>/<seconds>"` (positive integers); `fallback` (that limit's own default) when absent
 * or malformed.
 */
export function parseRate(value: string | undefined, fallback = DEFAULT_CREATE_RATE_LIMIT): Rate {
  const match = /^\s*(\d{1,7})\s*\/\s*(\d{1,7})\s*$/.exec(value ?? "");
  const count = Number(match?.[1]);
  const seconds = Number(match?.[2]);
  if (match === null || count < 1 || seconds < 1) return parseRate(fallback);
  return { count, seconds };
}

/**
 * The key of a client: its address from `CF-Connecting-IP` (set by Cloudflare's edge and by
 * `wrangler dev`), an IPv6 address cut to its /64. Requests without one share the key `unknown`.
 */
export function clientKey(request: Request): string {
  const address = request.headers.get("cf-connecting-ip")?.trim().toLowerCase() ?? "";
  if (address === "") return "unknown";
  if (!address.includes(":")) return address.slice(0, 64);
  const [head = "", tail = ""] = address.split("::", 2);
  const groups = head === "" ? [] : head.split(":");
  if (groups.length < 4) {
    const rest = tail === "" ? [] : tail.split(":");
    const zeros = Array<string>(Math.max(0, 8 - groups.length - rest.length)).fill("0");
    groups.push(...zeros, ...rest);
  }
  return `${groups.slice(0, 4).join(":")}::/64`;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** One client's token bucket (see the module comment). It reads no binding, so it names no Env. */
export class ClientLimiter extends DurableObject {
  /** Takes one unit of `rate`; refuses when the bucket is empty. */
  async take(rate: Rate): Promise<TakeOutcome> {
    const now = Date.now();
    const perMs = rate.count / (rate.seconds * 1000);
    const stored = await this.ctx.storage.get<Bucket>("bucket");
    const tokens = Math.min(rate.count, (stored?.tokens ?? rate.count) + (now - (stored?.at ?? now)) * perMs);
    // Refused: nothing is written (the stored record already gives the same count later), so a client
    // knocking at the limit costs no storage writes.
    if (tokens < 1) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)) };
    }
    await this.ctx.storage.put("bucket", { tokens: tokens - 1, at: now });
    // By then the bucket is full again: forget this client rather than keep its record forever.
    await this.ctx.storage.setAlarm(now + rate.seconds * 1000);
    return { allowed: true, retryAfterSeconds: 0 };
  }

  /** The bucket has refilled: drop it. */
  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}
