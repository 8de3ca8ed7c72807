/**
 * Refreshing tokens (src/mcp/oauth/token-grant.ts) against a fake token endpoint: the refresh token
 * kept when the server sends no new one, and replaced when it does.
 */
import { describe, expect, it } from "vitest";
import { refreshTokens, type StoredTokens } from "../../../src/mcp/oauth/token-grant.ts";

const stored: StoredTokens & { tokens: { refreshToken: string } } = {
  tokens: { accessToken: "a1", tokenType: "Bearer", refreshToken: "r1" },
  grant: {
    tokenEndpoint: "https://as.example/token",
    resource: "https://mcp.example/mcp",
    issuer: "https://as.example",
    client: { clientId: "c" },
    authMethod: "none",
  },
};

/** A token endpoint answering every request with `answer` as JSON. */
const endpoint = (answer: unknown) =>
  (async () => Response.json(answer)) as unknown as typeof globalThis.fetch;

const signal = new AbortController().signal;

describe("refreshTokens", () => {
  it("keeps the old refresh token when the server sends no new one", async () => {
    const fetch = endpoint({ access_token: "a2", token_type: "Bearer" });
    expect(await refreshTokens(stored, fetch, signal)).toMatchObject({
      accessToken: "a2",
      refreshToken: "r1",
    });
  });

  it("takes the new refresh token when the server sends one", async () => {
    const fetch = endpoint({ access_token: "a2", token_type: "Bearer", refresh_token: "r2" });
    expect(await refreshTokens(stored, fetch, signal)).toMatchObject({
      accessToken: "a2",
      refreshToken: "r2",
    });
  });
});
