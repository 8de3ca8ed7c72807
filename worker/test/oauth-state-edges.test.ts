/**
 * Edges of binding an OAuth authorization to a browser (worker/oauth-state.ts): the cookie's exact
 * attributes, which cookie values are reused as the nonce, that the index entry expires, and that a
 * callback without a well-formed state is refused before any lookup.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BINDING_COOKIE, bindingCookie, plausibleState, rememberAuthorization } from "../oauth-state.ts";
import { newToken } from "../tokens.ts";
import { call } from "./api.ts";

const entry = {
  sessionId: "s",
  url: "https://mcp.example/mcp",
  redirectUrl: "http://demo.test/oauth/callback",
};

describe("OAuth state", () => {
  it("sets an HttpOnly, SameSite=Lax cookie scoped to the callback, Secure only over https", () => {
    expect(bindingCookie("nonce", true)).toBe(
      `${BINDING_COOKIE}=nonce; Path=/oauth/callback; Max-Age=600; HttpOnly; SameSite=Lax; Secure`,
    );
    expect(bindingCookie("nonce", false)).toBe(
      `${BINDING_COOKIE}=nonce; Path=/oauth/callback; Max-Age=600; HttpOnly; SameSite=Lax`,
    );
  });

  it("reuses a well-formed nonce from the cookie", async () => {
    const nonce = newToken();
    expect(
      await rememberAuthorization(env.SESSIONS, newToken(), entry, `other=1; ${BINDING_COOKIE}=${nonce}`),
    ).toBe(nonce);
  });

  it.each([
    ["an = inside", `${"a".repeat(20)}=${"b".repeat(20)}`],
    ["a bad character before", `!${"a".repeat(40)}`],
    ["a bad character after", `${"a".repeat(40)}!`],
  ])("makes a new nonce when the cookie's value has %s", async (_, value) => {
    const nonce = await rememberAuthorization(env.SESSIONS, newToken(), entry, `${BINDING_COOKIE}=${value}`);
    expect(nonce).not.toBe(value);
    expect(nonce).not.toBe(value.replace("=", ""));
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("lets the index entry expire within ten minutes", async () => {
    const state = newToken();
    const before = Math.floor(Date.now() / 1000);
    await rememberAuthorization(env.SESSIONS, state, entry, undefined);
    const { keys } = await env.SESSIONS.list({ prefix: `oauth-state:${state}` });
    expect(keys).toHaveLength(1);
    expect(keys[0]?.expiration).toBeGreaterThanOrEqual(before + 600);
    expect(keys[0]?.expiration).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 600);
  });

  it("calls a missing or malformed state implausible", () => {
    expect(plausibleState(undefined)).toBe(false);
    expect(plausibleState("short")).toBe(false);
    expect(plausibleState("a".repeat(16))).toBe(true);
  });

  it("answers a callback without a state as carrying no valid state", async () => {
    const response = await call("/oauth/callback?code=the-code");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: "OAUTH_STATE_INVALID", message: "The callback carries no valid state", path: "state" },
    });
  });
});
