/**
 * How the OAuth callback finds the session an authorization belongs to, and why it trusts it.
 *
 * The OAuth client keeps the pending authorization (PKCE verifier, `state`) in the session's own
 * storage, so the callback — a plain browser navigation with only `code` and `state`, no session
 * token — must learn which session to hand them to. When an authorization starts, the Worker writes a
 * short-lived KV index `oauth-state:<state>` → `{ sessionId, url, prefix?, redirectUrl, binding }`
 * (10 minutes). `state` is 192 random bits the client made, so it cannot be guessed; the entry is
 * deleted on first use (a repeated callback finds nothing), and the session's pending record must
 * match too (the client checks `state` against it), so even a KV replica that still has the entry
 * cannot finish anything twice.
 *
 * That alone would let someone start an authorization in their own session and send its URL to
 * someone else: the victim would authorize, and their grant would land in the attacker's session
 * (a session-fixation / consent-phishing attack). So the start also binds the authorization to the
 * browser that asked for it: the `POST` sets an HttpOnly, SameSite=Lax cookie scoped to
 * `/oauth/callback` holding a random nonce (reused while it lives), and the index keeps only its
 * SHA-256. The callback is refused unless the browser presents the matching cookie: a victim's
 * browser never got the attacker's nonce. SameSite=Lax still sends the cookie on the top-level
 * redirect back from the authorization server; the page's token never goes into a cookie.
 *
 * @module
 */

import { newToken, tokenDigest, tokenMatches } from "./tokens.ts";

/** How long a started authorization may wait for the person, in seconds (KV's shortest TTL is 60). */
const OAUTH_STATE_TTL_SECONDS = 600;

/** The cookie that binds an authorization to the browser that started it. */
export const BINDING_COOKIE = "wisp_mcp_oauth";

/** The path of the Worker's OAuth callback (the redirect URI is the origin plus this). */
export const CALLBACK_PATH = "/oauth/callback";

/** What the index keeps for one started authorization. */
export interface PendingIndexEntry {
  sessionId: string;
  /** The MCP server being authorized. */
  url: string;
  prefix?: string;
  redirectUrl: string;
  /** SHA-256 (hex) of the browser-binding nonce. */
  binding: string;
}

/** The shape `state` takes (the client's: base64url, 24 random bytes; a little room either way). */
const STATE_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** Whether a `state` value is worth looking up. */
export function plausibleState(state: string | undefined): state is string {
  return state !== undefined && STATE_PATTERN.test(state);
}

const indexKey = (state: string): string => `oauth-state:${state}`;

/** The binding nonce the request's cookie carries, or undefined. */
function bindingFromCookie(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === BINDING_COOKIE) {
      const value = rest.join("=");
      return /^[A-Za-z0-9_-]{32,64}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** The `Set-Cookie` value for a binding nonce (Secure when the Worker is served over https). */
export function bindingCookie(nonce: string, secure: boolean): string {
  return `${BINDING_COOKIE}=${nonce}; Path=${CALLBACK_PATH}; Max-Age=${OAUTH_STATE_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/**
 * Records a started authorization under its `state`, bound to the browser's nonce (the one its cookie
 * already carries, or a new one); returns the nonce to set as the cookie.
 */
export async function rememberAuthorization(
  kv: KVNamespace,
  state: string,
  entry: Omit<PendingIndexEntry, "binding">,
  cookieHeader: string | undefined,
): Promise<string> {
  const nonce = bindingFromCookie(cookieHeader) ?? newToken();
  const stored: PendingIndexEntry = { ...entry, binding: await tokenDigest(nonce) };
  await kv.put(indexKey(state), JSON.stringify(stored), { expirationTtl: OAUTH_STATE_TTL_SECONDS });
  return nonce;
}

/** Why a callback's `state` was not accepted. */
export type StateRefusal = "unknown" | "other_browser";

/**
 * The authorization a callback answers, taken out of the index (it is used once), if the browser
 * presents the nonce it was bound to; otherwise why not. An entry presented by another browser is left
 * in place (it is not that browser's to spend).
 */
export async function takeAuthorization(
  kv: KVNamespace,
  state: string,
  cookieHeader: string | undefined,
): Promise<PendingIndexEntry | StateRefusal> {
  const entry = await kv.get<PendingIndexEntry>(indexKey(state), "json");
  if (entry === null) return "unknown";
  const nonce = bindingFromCookie(cookieHeader);
  if (nonce === undefined || !(await tokenMatches(nonce, entry.binding))) return "other_browser";
  await kv.delete(indexKey(state));
  return entry;
}
