/**
 * Binds a pending approval to what it approves: a digest of (session, call id, tool, arguments) and,
 * with a secret, an HMAC of that digest with the approval's reason and time. With a secret the
 * session's standing tool permissions are signed too. Web Crypto only, so it runs wherever the SDK does.
 *
 * @module
 */

import { ConfigError } from "../errors/sdk-error.ts";
import type { JsonValue } from "../types.ts";
import { type HeldApproval, heldApproval, type StoredApproval, type ToolPermissions } from "./approvals.ts";

/** JSON with object keys sorted at every level, so equal values always give equal text. */
export function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] as JsonValue)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const hex = (bytes: ArrayBuffer): string =>
  Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");

const encoder = new TextEncoder();

/** Web Crypto's SubtleCrypto, or undefined in a context without it (a page that is not a secure context). */
const subtle = (): SubtleCrypto | undefined => (globalThis as { crypto?: Partial<Crypto> }).crypto?.subtle;

/**
 * A ConfigError at `path` when this context has no Web Crypto (`crypto.subtle` exists only in secure
 * contexts: https, or localhost), which signing approvals needs; undefined when it has it.
 */
export function noWebCrypto(path: string): ConfigError | undefined {
  if (subtle() !== undefined) return undefined;
  return new ConfigError(
    `${path} needs crypto.subtle to sign approvals, which browsers give only to secure contexts (https, localhost)`,
    { code: "CONFIG_INVALID", path },
  );
}

/** SHA-256 hex of `text`: Web Crypto's, or Wisp's own where the context has none (loaded only then). */
export async function sha256Hex(text: string): Promise<string> {
  const bytes = encoder.encode(text);
  const webCrypto = subtle();
  if (webCrypto !== undefined) return hex(await webCrypto.digest("SHA-256", bytes));
  const { sha256 } = await import("./sha256.ts");
  return hex(sha256(bytes).buffer as ArrayBuffer);
}

/**
 * The digest of one pending call: SHA-256 hex of `[sessionId, toolCallId, toolName, args]`, with the
 * ids of the calls it holds back appended when it holds any.
 */
export async function approvalDigest(sessionId: string, approval: HeldApproval): Promise<string> {
  const bound: JsonValue[] = [sessionId, approval.toolCallId, approval.toolName, approval.args];
  if (approval.holds !== undefined) bound.push(approval.holds);
  return sha256Hex(canonicalJson(bound));
}

function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

/** HMAC-SHA-256 hex of `value`'s canonical JSON under `secret`. */
export async function sign(secret: string, value: JsonValue): Promise<string> {
  const missing = noWebCrypto("approvalSecret");
  if (missing !== undefined) throw missing;
  const text = canonicalJson(value);
  return hex(await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(text)));
}

/** What an approval's signature covers: its digest, and the reason and time it was asked. */
function signedPart(approval: StoredApproval): JsonValue {
  return ["approval", approval.digest, approval.reason ?? null, approval.requestedAt];
}

/**
 * `approval` (without any earlier seal) with its digest under `sessionId`, and its signature when
 * there is a secret.
 */
export async function sealApproval(
  sessionId: string,
  approval: HeldApproval,
  secret: string | undefined,
): Promise<StoredApproval> {
  const held = heldApproval(approval);
  const sealed: StoredApproval = { ...held, digest: await approvalDigest(sessionId, held) };
  if (secret !== undefined) sealed.signature = await sign(secret, signedPart(sealed));
  return sealed;
}

/** Compares two hex strings in time that does not depend on where they differ. */
export function sameText(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let index = 0; index < Math.max(a.length, b.length); index++)
    difference |= (a.charCodeAt(index) | 0) ^ (b.charCodeAt(index) | 0);
  return difference === 0;
}

/**
 * Why `approval` cannot be trusted, or undefined: its digest does not match its session, call, tool
 * and arguments (they were edited after the pause), or — with a secret — its signature is missing or
 * wrong. Fails closed: a session with a secret refuses an unsigned approval.
 */
export async function approvalTampering(
  sessionId: string,
  approval: StoredApproval,
  secret: string | undefined,
): Promise<string | undefined> {
  const digest = await approvalDigest(sessionId, approval);
  if (!sameText(digest, approval.digest)) return "its digest does not match its session, tool and arguments";
  if (secret === undefined) return undefined;
  if (approval.signature === undefined) return "it is not signed, and this session requires signed approvals";
  if (!sameText(await sign(secret, signedPart(approval)), approval.signature))
    return "its signature is not valid";
  return undefined;
}

/**
 * The signature of a session's standing tool permissions ("always allow" / "always deny"), bound to
 * the session: without it a client holding the state could add "always allow" and skip approvals.
 */
export function signPermissions(
  sessionId: string,
  permissions: ToolPermissions,
  secret: string,
): Promise<string> {
  return sign(secret, ["toolPermissions", sessionId, permissions]);
}

/** Why `permissions` cannot be trusted under `secret`, or undefined (none to trust is fine). */
export async function permissionsTampering(
  sessionId: string,
  permissions: ToolPermissions,
  signature: string | undefined,
  secret: string,
): Promise<string | undefined> {
  if (Object.keys(permissions).length === 0) return undefined;
  if (signature === undefined) return "they are not signed, and this session requires signed approvals";
  if (!sameText(await signPermissions(sessionId, permissions, secret), signature))
    return "their signature is not valid";
  return undefined;
}
