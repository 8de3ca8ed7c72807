/**
 * Which scope to ask for (MCP authorization, "Scope Selection Strategy"): the challenge's `scope`,
 * else the app's, else every scope of the resource metadata's `scopes_supported`, else none — with
 * `offline_access` added when the authorization server lists it (a refresh token, SEP-2207).
 *
 * @module
 */

/** The scope to ask for, or undefined to send none. */
export function chooseScope(
  challengeScope: string | undefined,
  appScope: string | undefined,
  resourceScopes: string[] | undefined,
  serverScopes: string[] | undefined,
): string | undefined {
  const base = challengeScope ?? appScope ?? resourceScopes?.join(" ");
  const scopes = (base ?? "").split(/\s+/).filter((scope) => scope !== "");
  if (scopes.length === 0) return undefined;
  if (serverScopes?.includes("offline_access") && !scopes.includes("offline_access"))
    scopes.push("offline_access");
  return scopes.join(" ");
}
