/**
 * Which MCP server URLs a session may connect to, and a fetch that keeps to the same rule for every
 * request made on its behalf (the MCP server, its resource metadata, the authorization server it
 * names). The rule follows `MCP_SERVERS`' (http or https only) and adds, because here the URL comes
 * from a person rather than from the operator: no user name or password in the URL, at most 2,000
 * characters, and no IP address literal that is private, link-local, shared, unspecified, multicast,
 * broadcast or reserved:
 *
 * - IPv4: 0/8, 10/8, 100.64/10, 169.254/16, 172.16/12, 192.168/16, 198.18/15, 224/4 (multicast),
 *   240/4 (reserved, with 255.255.255.255). The host is read as the URL parser writes it, so
 *   `http://2130706433/`, `http://0x7f.1/` or `http://0177.0.0.1/` are 127.0.0.1, and
 *   `http://0xa000001/` is 10.0.0.1.
 * - IPv6: `::`, fc00::/7 (unique local), fe80::/10 (link-local), fec0::/10 (site-local), ff00::/8
 *   (multicast), ::/96 (IPv4-compatible, deprecated: `::a00:1` is `::10.0.0.1`), and 64:ff9b:1::/48
 *   (local-use NAT64). IPv4-mapped `::ffff:0:0/96` is judged as its IPv4 address. The IPv4 address
 *   that another form carries — NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo 2001::/32 (its client
 *   address), IPv4-translated ::ffff:0:0:0/96 — is refused when it is one of the above or loopback
 *   (a translator's loopback is not the developer's machine).
 *
 * Loopback (127/8, ::1, `::ffff:127.x.x.x`, localhost) stays allowed: under `wrangler dev` it is the
 * developer's own machine, where a local MCP server runs; a deployed Worker cannot reach anyone's
 * loopback. A host name is not resolved (a Worker has no DNS API); on Cloudflare, a Worker's fetch
 * does not reach private networks whatever a name resolves to.
 *
 * Redirects are never followed ({@link policedFetch}): a public host's 302 would otherwise lead the
 * request to an address the rule refuses, and a 307/308 from a token endpoint would send the same POST,
 * secrets and all, to wherever it names.
 *
 * @module
 */

import { ApiError } from "./api-error.ts";

/** Longest MCP server URL a session may add. */
const MAX_MCP_URL_CHARS = 2_000;

/** The four numbers of a dotted-decimal IPv4 literal (as the URL parser writes one), or undefined. */
function ipv4(host: string): number[] | undefined {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
  const numbers = parts.map(Number);
  return numbers.every((value) => value <= 255) ? numbers : undefined;
}

/** Whether an IPv4 address is one the demo refuses (see the module comment; loopback is not). */
function refusedIpv4([a = 0, b = 0]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224 // 224/4 multicast, 240/4 reserved, 255.255.255.255 broadcast
  );
}

/** Whether an IPv4 address carried inside an IPv6 one (NAT64, 6to4, Teredo, translated) is refused. */
function refusedCarriedIpv4(v4: number[]): boolean {
  return v4[0] === 127 || refusedIpv4(v4);
}

/** The eight 16-bit groups of an IPv6 literal in the URL parser's form (hex, no brackets), or undefined. */
function ipv6Groups(host: string): number[] | undefined {
  const halves = host.split("::");
  if (halves.length > 2) return undefined;
  const head = halves[0] === "" ? [] : (halves[0] ?? "").split(":");
  const tail = halves.length === 1 || halves[1] === "" ? [] : (halves[1] ?? "").split(":");
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill("0"), ...tail];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return groups.map((group) => Number.parseInt(group, 16));
}

/** The IPv4 address in two 16-bit groups. */
const v4Of = (high: number, low: number): number[] => [high >> 8, high & 255, low >> 8, low & 255];

/** Whether an IPv6 address (its eight groups) is one the demo refuses: see the module comment. */
function refusedIpv6(groups: number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroUpTo = (count: number): boolean => groups.slice(0, count).every((group) => group === 0);
  if (zeroUpTo(7) && g7 === 1) return false; // ::1, loopback
  if (zeroUpTo(6)) return true; // ::, and ::/96 (IPv4-compatible, deprecated)
  if (zeroUpTo(5) && g5 === 0xffff) return refusedIpv4(v4Of(g6, g7)); // ::ffff:a.b.c.d, mapped
  if (zeroUpTo(4) && g4 === 0xffff && g5 === 0) return refusedCarriedIpv4(v4Of(g6, g7)); // translated
  if (g0 === 0x64 && g1 === 0xff9b) {
    if (g2 === 1) return true; // 64:ff9b:1::/48, local-use NAT64
    if (g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return refusedCarriedIpv4(v4Of(g6, g7)); // NAT64
  }
  if (g0 === 0x2002) return refusedCarriedIpv4(v4Of(g1, g2)); // 6to4
  if (g0 === 0x2001 && g1 === 0) return refusedCarriedIpv4(v4Of(g6 ^ 0xffff, g7 ^ 0xffff)); // Teredo
  return (
    (g0 & 0xfe00) === 0xfc00 || // fc00::/7, unique local
    (g0 & 0xff80) === 0xfe80 || // fe80::/10 link-local and fec0::/10 site-local
    (g0 & 0xff00) === 0xff00 // ff00::/8, multicast
  );
}

/**
 * A host as the URL parser writes it (IPv4 in dotted decimal, whatever spelling it came in; IPv6
 * compressed, in hex, without brackets; lower case), or undefined when it is not a host.
 */
function canonicalHost(hostname: string): string | undefined {
  const bare = hostname.replace(/^\[|\]$/g, "");
  try {
    const url = new URL(`http://${bare.includes(":") ? `[${bare}]` : bare}/`);
    return url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Whether a URL's host (as `URL.hostname` gives it: IPv6 in brackets, lower case; other spellings are
 * read as the URL parser would) is an address the demo refuses to connect to: see the module comment.
 * What is not a host at all is refused too.
 */
export function isRefusedHost(hostname: string): boolean {
  const host = canonicalHost(hostname);
  if (host === undefined || host === "") return true;
  const v4 = ipv4(host);
  if (v4 !== undefined) return refusedIpv4(v4);
  if (!host.includes(":")) return false; // a name
  const groups = ipv6Groups(host);
  return groups === undefined || refusedIpv6(groups);
}

/** Why a URL may not be used, or undefined when it may. */
export function mcpUrlProblem(value: unknown): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return "url must be a string";
  if (value.length > MAX_MCP_URL_CHARS) return `url is longer than ${MAX_MCP_URL_CHARS} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "url is not a URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "url must be an http or https URL";
  if (url.username !== "" || url.password !== "") return "url may not carry a user name or password";
  if (isRefusedHost(url.hostname)) return "url points to a private network address";
  return undefined;
}

/** The URL, checked (400 `INVALID_REQUEST` at `url` otherwise), without its fragment. */
export function checkMcpUrl(value: unknown): string {
  const problem = mcpUrlProblem(value);
  if (problem !== undefined) throw new ApiError(400, "INVALID_REQUEST", problem, "url");
  const url = new URL(value as string);
  url.hash = "";
  return url.href;
}

/**
 * A fetch that refuses (throws a TypeError, as a network failure would) any URL {@link mcpUrlProblem}
 * refuses: the MCP server, and whatever its metadata names (the authorization server's endpoints).
 *
 * It never follows a redirect, whatever the caller asked for (`redirect` is always `"manual"`): the
 * 3xx itself is the answer, and Wisp's MCP transport and OAuth client treat it as a failure. Following
 * one would take the request to a `Location` the policy never saw (a public host's 302 to 10.0.0.1),
 * and a 307/308 would resend a POST — a token request's code, verifier or client secret — there.
 */
export function policedFetch(inner: typeof fetch = (input, init) => fetch(input, init)): typeof fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : String(input);
    const problem = mcpUrlProblem(url);
    if (problem !== undefined)
      return Promise.reject(new TypeError(`refused by the demo's URL policy: ${problem}`));
    // Over the caller's init and over a Request's own `redirect` (a Request defaults to "follow").
    return inner(input, { ...init, redirect: "manual" });
  };
}
