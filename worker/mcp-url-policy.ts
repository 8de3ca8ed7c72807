/**
 * Which MCP server URLs a session may connect to, and a fetch that keeps to the same rule for every
 * request made on its behalf (the MCP server, its resource metadata, the authorization server it
 * names). The rule follows `MCP_SERVERS`' (http or https only) and adds, because here the URL comes
 * from a person rather than from the operator: no user name or password in the URL, at most 2,000
 * characters, and no private, link-local, shared or unspecified IP address literal (10/8, 172.16/12,
 * 192.168/16, 100.64/10, 169.254/16, 0/8, fc00::/7, fe80::/10, and their IPv4-mapped forms).
 * Loopback (127/8, ::1, localhost) stays allowed: under `wrangler dev` it is the developer's own
 * machine, where a local MCP server runs; a deployed Worker cannot reach anyone's loopback. A host
 * name is not resolved (a Worker has no DNS API); on Cloudflare, a Worker's fetch does not reach
 * private networks whatever a name resolves to.
 *
 * @module
 */

import { ApiError } from "./api-error.ts";

/** Longest MCP server URL a session may add. */
const MAX_MCP_URL_CHARS = 2_000;

/** The four numbers of a dotted IPv4 literal, or undefined. */
function ipv4(host: string): number[] | undefined {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
  const numbers = parts.map(Number);
  return numbers.every((value) => value <= 255) ? numbers : undefined;
}

/** Whether an IPv4 address is private, link-local, shared (CGNAT) or unspecified (not loopback). */
function privateIpv4([a = 0, b = 0]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

/** An IPv4-mapped IPv6 literal's IPv4 address (`::ffff:10.0.0.1`, `::ffff:a00:1`), or undefined. */
function mappedIpv4(host: string): number[] | undefined {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)?.[1];
  if (dotted !== undefined) return ipv4(dotted);
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (hex === null) return undefined;
  const high = Number.parseInt(hex[1] ?? "0", 16);
  const low = Number.parseInt(hex[2] ?? "0", 16);
  return [high >> 8, high & 255, low >> 8, low & 255];
}

/**
 * Whether a URL's host (as `URL.hostname` gives it: IPv6 in brackets, lower case) is an address the
 * demo refuses to connect to: see the module comment.
 */
export function isRefusedHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const v4 = ipv4(host);
  if (v4 !== undefined) return privateIpv4(v4);
  if (!host.includes(":")) return false; // a name
  if (host === "::1") return false; // loopback
  if (host === "::") return true;
  const mapped = mappedIpv4(host);
  if (mapped !== undefined) return mapped[0] === 127 ? false : privateIpv4(mapped);
  return /^f[cd][0-9a-f]{0,2}:/.test(host) || /^fe[89ab][0-9a-f]?:/.test(host);
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
 */
export function policedFetch(inner: typeof fetch = (input, init) => fetch(input, init)): typeof fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const problem = mcpUrlProblem(url);
    if (problem !== undefined)
      return Promise.reject(new TypeError(`refused by the demo's URL policy: ${problem}`));
    return inner(input, init);
  };
}
