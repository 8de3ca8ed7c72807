/**
 * mcpOAuth's McpAuth and finishMcpOAuth at their edges, called directly with a storage and a fetch
 * of the test's own: a 403 that is not insufficient_scope left alone; a refresh token refused (the
 * spent tokens forgotten, or the tokens another holder renewed meanwhile kept); a refresh that fails
 * on the network or with another SdkError (thrown, the tokens kept); and finishMcpOAuth's own option
 * checks (storage, url, callbackUrl).
 */
import { describe, expect, it, vi } from "vitest";
import { RequestError } from "../../../src/errors/sdk-error.ts";
import { finishMcpOAuth, type McpAuthStorage, mcpOAuth, memoryAuthStorage } from "../../../src/mcp/index.ts";
import { readTokens, writeTokens } from "../../../src/mcp/oauth/stored-tokens.ts";

const URL_ = "https://notes.example/mcp";
const TOKEN_ENDPOINT = "https://as.example/token";
const REDIRECT = "http://127.0.0.1:9/callback";

/** Keeps tokens ("OLD") expiring at `expiresAt`, with a refresh token unless `refreshToken` is undefined. */
async function tokensExpiringAt(storage: McpAuthStorage, expiresAt: number, refreshToken?: string) {
  const tokens = { accessToken: "OLD", tokenType: "Bearer", expiresAt };
  await writeTokens(storage, URL_, {
    tokens: refreshToken === undefined ? tokens : { ...tokens, refreshToken },
    grant: {
      tokenEndpoint: TOKEN_ENDPOINT,
      resource: URL_,
      issuer: "https://as.example",
      client: { clientId: "c" },
      authMethod: "none",
    },
  });
}

/** Keeps expired tokens with the refresh token R1 for the server, as a previous run left them. */
const expiredTokens = (storage: McpAuthStorage) => tokensExpiringAt(storage, Date.now() - 60_000, "R1");

/** A context for the McpAuth's calls, with `fetch` recording the URLs it is asked for. */
function contextWith(fetch: (input: string) => Promise<Response>) {
  const requested: string[] = [];
  const recording: typeof globalThis.fetch = async (input) => {
    requested.push(String(input));
    return fetch(String(input));
  };
  return { context: { url: URL_, fetch: recording, signal: new AbortController().signal }, requested };
}

describe("mcpOAuth's refused()", () => {
  it("gives up on a 403 that is not insufficient_scope without asking anyone or sending anything", async () => {
    const asked: string[] = [];
    const auth = mcpOAuth({
      redirectUrl: REDIRECT,
      storage: memoryAuthStorage(),
      authorize: async (url) => {
        asked.push(url);
        return undefined;
      },
    });
    const { context, requested } = contextWith(async () => new Response(null, { status: 500 }));
    const forbidden = new Response(null, {
      status: 403,
      headers: { "www-authenticate": 'Bearer error="invalid_token"' },
    });
    await expect(auth.refused(forbidden, context)).resolves.toBe(false);
    expect(asked).toEqual([]);
    expect(requested).toEqual([]);
  });
});

describe("mcpOAuth renewing expired tokens", () => {
  it("forgets tokens whose refresh token the authorization server refuses, and sends the old one once more", async () => {
    const storage = memoryAuthStorage();
    await expiredTokens(storage);
    const auth = mcpOAuth({ redirectUrl: REDIRECT, storage });
    const { context, requested } = contextWith(async () =>
      Response.json({ error: "invalid_grant" }, { status: 400 }),
    );
    await expect(auth.authorization(context)).resolves.toBe("Bearer OLD");
    expect(requested).toEqual([TOKEN_ENDPOINT]);
    expect(await readTokens(storage, URL_)).toBeUndefined();
  });

  it("keeps the tokens another holder of the storage renewed while its refresh was refused", async () => {
    const storage = memoryAuthStorage();
    await expiredTokens(storage);
    const auth = mcpOAuth({ redirectUrl: REDIRECT, storage });
    const { context } = contextWith(async () => {
      // Another tab spent R1 first and kept what it got; this refresh is refused.
      const now = await readTokens(storage, URL_);
      if (now === undefined) throw new Error("the tokens are gone");
      await writeTokens(storage, URL_, {
        ...now,
        tokens: { accessToken: "NEWER", refreshToken: "R2", tokenType: "Bearer" },
      });
      return Response.json({ error: "invalid_grant" }, { status: 400 });
    });
    await expect(auth.authorization(context)).resolves.toBe("Bearer NEWER");
    expect((await readTokens(storage, URL_))?.tokens.refreshToken).toBe("R2");
  });

  it("throws a network failure of the refresh as an MCP RequestError and keeps the tokens", async () => {
    const storage = memoryAuthStorage();
    await expiredTokens(storage);
    const auth = mcpOAuth({ redirectUrl: REDIRECT, storage });
    const { context } = contextWith(async () => {
      throw new TypeError("fetch failed");
    });
    const error = await auth.authorization(context).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ _tag: "RequestError", provider: "mcp" });
    expect((await readTokens(storage, URL_))?.tokens.accessToken).toBe("OLD");
  });

  it("throws an SdkError other than AUTH from the fetch as it is, and keeps the tokens", async () => {
    const storage = memoryAuthStorage();
    await expiredTokens(storage);
    const auth = mcpOAuth({ redirectUrl: REDIRECT, storage });
    const down = new RequestError("the proxy is down", { code: "NETWORK" });
    const { context } = contextWith(async () => {
      throw down;
    });
    await expect(auth.authorization(context)).rejects.toBe(down);
    expect((await readTokens(storage, URL_))?.tokens.refreshToken).toBe("R1");
  });
});

describe("finishMcpOAuth's own options", () => {
  const callbackUrl = `${REDIRECT}?code=x&state=y`;

  it("needs the storage the pending authorization is in", async () => {
    const finished = await finishMcpOAuth({ redirectUrl: REDIRECT, url: URL_, callbackUrl });
    expect(finished.ok ? undefined : finished.error).toMatchObject({
      _tag: "ConfigError",
      path: "storage",
      message: "finishMcpOAuth needs the storage mcpOAuth kept the pending authorization in",
    });
  });

  it("needs the server's URL and the callback URL to be URLs", async () => {
    const storage = memoryAuthStorage();
    const badUrl = await finishMcpOAuth({ redirectUrl: REDIRECT, storage, url: "notes", callbackUrl });
    expect(badUrl.ok ? undefined : badUrl.error).toMatchObject({
      _tag: "ConfigError",
      path: "url",
      message: "finishMcpOAuth: url must be the MCP server's URL",
    });
    const badCallback = await finishMcpOAuth({
      redirectUrl: REDIRECT,
      storage,
      url: URL_,
      callbackUrl: "?code=x",
    });
    expect(badCallback.ok ? undefined : badCallback.error).toMatchObject({
      _tag: "ConfigError",
      path: "callbackUrl",
      message: "finishMcpOAuth: callbackUrl must be the full URL the person came back to",
    });
  });
});

describe("mcpOAuth's refused() for tokens it holds", () => {
  const renewed = () =>
    Response.json({ access_token: "NEW", token_type: "Bearer", refresh_token: "R2", expires_in: 3600 });
  const unauthorized = () => new Response(null, { status: 401 });

  it("refreshes on a 401 for a request that said nothing of the token it sent", async () => {
    const storage = memoryAuthStorage();
    await expiredTokens(storage);
    const auth = mcpOAuth({ redirectUrl: REDIRECT, storage });
    const { context, requested } = contextWith(async (url) =>
      url === TOKEN_ENDPOINT ? renewed() : new Response(null, { status: 500 }),
    );
    await expect(auth.refused(unauthorized(), context)).resolves.toBe(true);
    expect(requested).toEqual([TOKEN_ENDPOINT]);
    expect((await readTokens(storage, URL_))?.tokens.accessToken).toBe("NEW");
  });

  it("does not refresh again when the token a refresh just gave is refused: the person is needed", async () => {
    const storage = memoryAuthStorage();
    await expiredTokens(storage);
    const auth = mcpOAuth({ redirectUrl: REDIRECT, storage });
    const { context, requested } = contextWith(async (url) =>
      url === TOKEN_ENDPOINT ? renewed() : new Response(null, { status: 500 }),
    );
    await expect(auth.refused(unauthorized(), { ...context, sent: "Bearer OLD" })).resolves.toBe(true);
    await expect(auth.refused(unauthorized(), { ...context, sent: "Bearer NEW" })).rejects.toMatchObject({
      _tag: expect.any(String),
    });
    expect(requested.filter((url) => url === TOKEN_ENDPOINT)).toHaveLength(1);
    expect(requested.length).toBeGreaterThan(1); // the second went on to discovery, for a new authorization
  });

  it("answers a 403 insufficient_scope with a new authorization, even when the stored token is not the one sent", async () => {
    const storage = memoryAuthStorage();
    await expiredTokens(storage);
    const auth = mcpOAuth({ redirectUrl: REDIRECT, storage });
    const { context, requested } = contextWith(async () => new Response(null, { status: 500 }));
    const forbidden = new Response(null, {
      status: 403,
      headers: { "www-authenticate": 'Bearer error="insufficient_scope", scope="notes:write"' },
    });
    await expect(
      auth.refused(forbidden, { ...context, sent: "Bearer SOMETHING-ELSE" }),
    ).rejects.toMatchObject({
      _tag: expect.any(String),
    });
    expect(requested.length).toBeGreaterThan(0);
    expect(requested).not.toContain(TOKEN_ENDPOINT);
  });
});

describe("mcpOAuth's authorization() near the expiry", () => {
  const renewed = () => Response.json({ access_token: "NEW", token_type: "Bearer", expires_in: 3600 });

  it("sends expired tokens without a refresh token as they are, asking the authorization server nothing", async () => {
    const storage = memoryAuthStorage();
    await tokensExpiringAt(storage, Date.now() - 60_000);
    const { context, requested } = contextWith(async () => renewed());
    await expect(mcpOAuth({ redirectUrl: REDIRECT, storage }).authorization(context)).resolves.toBe(
      "Bearer OLD",
    );
    expect(requested).toEqual([]);
  });

  it("refreshes once less than 30 s are left before the expiry, not at exactly 30 s", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000 });
    try {
      const storage = memoryAuthStorage();
      await tokensExpiringAt(storage, 1_000_000 + 30_000, "R1");
      const { context, requested } = contextWith(async () => renewed());
      const auth = mcpOAuth({ redirectUrl: REDIRECT, storage });
      await expect(auth.authorization(context)).resolves.toBe("Bearer OLD");
      expect(requested).toEqual([]);
      vi.setSystemTime(1_000_001);
      await expect(auth.authorization(context)).resolves.toBe("Bearer NEW");
      expect(requested).toEqual([TOKEN_ENDPOINT]);
    } finally {
      vi.useRealTimers();
    }
  });
});
