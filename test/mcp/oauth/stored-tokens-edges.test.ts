/**
 * Reading one server's tokens back from the app's storage (src/mcp/oauth/stored-tokens.ts): only a
 * record with a token set and a grant object counts; anything else (a storage's null for a missing key,
 * a record from an older or broken writer) is no tokens, so the person is asked again.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AnySdkError } from "../../../src/errors/sdk-error.ts";
import { connectMcp, type McpAuthStorage, mcpOAuth, memoryAuthStorage } from "../../../src/mcp/index.ts";
import { storageKey } from "../../../src/mcp/oauth/storage.ts";
import { readTokens, writeTokens } from "../../../src/mcp/oauth/stored-tokens.ts";
import type { StoredTokens } from "../../../src/mcp/oauth/token-grant.ts";
import type { JsonValue } from "../../../src/types.ts";
import { type OAuthServer, startOAuthServer } from "./support/oauth-server.ts";

const servers: OAuthServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const SERVER_URL = "https://mcp.example/mcp";
const stored: StoredTokens = {
  tokens: { accessToken: "a", tokenType: "Bearer" },
  grant: {
    tokenEndpoint: "https://as.example/token",
    resource: SERVER_URL,
    issuer: "https://as.example",
    client: { clientId: "c" },
    authMethod: "none",
  },
};

describe("readTokens", () => {
  it("gives back what writeTokens kept, and nothing for a record without a token set and a grant object", async () => {
    const storage = memoryAuthStorage();
    await writeTokens(storage, SERVER_URL, stored);
    expect(await readTokens(storage, SERVER_URL)).toEqual(stored);
    const key = storageKey("tokens", SERVER_URL);
    for (const bad of [
      null,
      "tokens",
      [stored],
      { tokens: {}, grant: stored.grant },
      { tokens: { accessToken: 1 }, grant: stored.grant },
      { tokens: stored.tokens, grant: "g" },
      { tokens: stored.tokens, grant: null },
      { tokens: stored.tokens },
      { tokens: {}, grant: "g" },
    ] as JsonValue[]) {
      await storage.set(key, bad);
      expect(await readTokens(storage, SERVER_URL), JSON.stringify(bad)).toBeUndefined();
    }
  });
});

describe("a storage that answers null for a key it does not have", () => {
  it("is read as holding no tokens: the person is asked to authorize", async () => {
    const server = await startOAuthServer();
    servers.push(server);
    const inner = memoryAuthStorage();
    const storage: McpAuthStorage = {
      get: async (key) => (await inner.get(key)) ?? null,
      set: (key, value) => inner.set(key, value),
      delete: (key) => inner.delete(key),
    };
    const connected = await connectMcp({
      url: server.mcpUrl,
      auth: mcpOAuth({ redirectUrl: "http://127.0.0.1:9/callback", storage }),
      listen: false,
    });
    expect(connected.ok).toBe(false);
    expect((connected as { error: AnySdkError }).error.providerCode).toBe("authorization_required");
  });
});
