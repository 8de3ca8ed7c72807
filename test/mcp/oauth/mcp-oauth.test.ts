/**
 * `mcpOAuth` against a real OAuth-protected MCP server on 127.0.0.1 (support/oauth-server.ts): what the
 * conformance suite does not pin — a page's flow (authorize resolves undefined, the typed error carries
 * the URL, `finishMcpOAuth` completes it, the next connect asks nobody), `state` checked, a refresh
 * token used before a new authorization, the retry limit, the storage's namespacing, and secrets kept
 * out of every error and record.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { type AnySdkError, isSdkError } from "../../../src/errors/sdk-error.ts";
import {
  connectMcp,
  finishMcpOAuth,
  type McpAuthStorage,
  type McpOAuthOptions,
  mcpClientCredentials,
  mcpOAuth,
  memoryAuthStorage,
} from "../../../src/mcp/index.ts";
import { writeTokens } from "../../../src/mcp/oauth/stored-tokens.ts";
import { type OAuthServer, startOAuthServer, visit } from "./support/oauth-server.ts";

const servers: OAuthServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function start(options?: Parameters<typeof startOAuthServer>[0]): Promise<OAuthServer> {
  const server = await startOAuthServer(options);
  servers.push(server);
  return server;
}

const REDIRECT = "http://127.0.0.1:9/callback";

/** Options whose `authorize` plays a browser that comes straight back, counting the visits. */
function browserOptions(storage: McpAuthStorage, visits: string[]): McpOAuthOptions {
  return {
    redirectUrl: REDIRECT,
    storage,
    authorize: async (url) => {
      visits.push(url);
      return visit(url);
    },
  };
}

async function connectAndEcho(url: string, options: McpOAuthOptions): Promise<string> {
  const connected = await connectMcp({ url, auth: mcpOAuth(options), listen: false });
  if (!connected.ok) throw connected.error;
  const echo = connected.value.tools.find((tool) => tool.name === "echo");
  const output = await echo?.execute(
    { said: "hi" },
    {
      signal: new AbortController().signal,
      toolCallId: "c",
      sessionId: "s",
      turn: 1,
      messages: [],
    },
  );
  await connected.value.close();
  return JSON.stringify(output);
}

/** Every text an error shows: its JSON (message, details, request, cause) and its message. */
function shown(error: unknown): string {
  return isSdkError(error)
    ? `${JSON.stringify(error)} ${error.message} ${String(error.stack)}`
    : String(error);
}

describe("mcpOAuth in a page that navigates away", () => {
  it("fails with authorization_required carrying the URL, and connects after finishMcpOAuth without asking again", async () => {
    const server = await start();
    const storage = memoryAuthStorage();
    const options: McpOAuthOptions = { redirectUrl: REDIRECT, storage, authorize: async () => undefined };

    const first = await connectMcp({ url: server.mcpUrl, auth: mcpOAuth(options), listen: false });
    expect(first.ok).toBe(false);
    const error = (first as { error: AnySdkError }).error;
    expect(error._tag).toBe("ProviderError");
    expect(error.code).toBe("AUTH");
    expect(error.providerCode).toBe("authorization_required");
    expect(error.message).toContain(
      "The MCP server needs authorization: send the person to error.details.authorizationUrl, then call finishMcpOAuth",
    );
    const authorizationUrl = String(error.details?.authorizationUrl);
    expect(new URL(authorizationUrl).origin + new URL(authorizationUrl).pathname).toBe(
      `${server.url}/authorize`,
    );
    expect(new URL(authorizationUrl).searchParams.get("resource")).toBe(server.mcpUrl);
    expect(server.tokenRequests).toHaveLength(0);

    // The person goes there and comes back to the callback page (another page load).
    const callbackUrl = await visit(authorizationUrl);
    const finished = await finishMcpOAuth({ ...options, url: server.mcpUrl, callbackUrl });
    expect(finished).toEqual({ ok: true, value: undefined });
    expect(server.tokenRequests.map((request) => request.form.get("grant_type"))).toEqual([
      "authorization_code",
    ]);

    const again = await connectMcp({ url: server.mcpUrl, auth: mcpOAuth(options), listen: false });
    expect(again.ok).toBe(true);
    if (again.ok) await again.value.close();
    expect(server.authorizations).toHaveLength(1);
    expect(server.tokenRequests).toHaveLength(1);
  });

  it("refuses a callback naming another authorization server (RFC 9207 iss), and takes one naming its own", async () => {
    const server = await start();
    const options: McpOAuthOptions = { redirectUrl: REDIRECT, storage: memoryAuthStorage() };
    const begin = async () => {
      const refused = await connectMcp({ url: server.mcpUrl, auth: mcpOAuth(options), listen: false });
      return String((refused as { error: AnySdkError }).error.details?.authorizationUrl);
    };
    const mixedUp = new URL(await visit(await begin()));
    mixedUp.searchParams.set("iss", "https://other-as.example");
    const refused = await finishMcpOAuth({ ...options, url: server.mcpUrl, callbackUrl: mixedUp.href });
    expect(refused.ok ? undefined : refused.error.providerCode).toBe("untrusted_metadata");
    const named = new URL(await visit(await begin()));
    named.searchParams.set("iss", server.url);
    expect(await finishMcpOAuth({ ...options, url: server.mcpUrl, callbackUrl: named.href })).toEqual({
      ok: true,
      value: undefined,
    });
    expect(server.tokenRequests).toHaveLength(1);
  });

  it("keeps an authorization a person is partway through when another begins (a second tab), and forgets it after 30 minutes", async () => {
    const server = await start();
    const options: McpOAuthOptions = { redirectUrl: REDIRECT, storage: memoryAuthStorage() };
    const begin = async () => {
      const refused = await connectMcp({ url: server.mcpUrl, auth: mcpOAuth(options), listen: false });
      return String((refused as { error: AnySdkError }).error.details?.authorizationUrl);
    };
    const firstTab = await begin();
    const secondTab = await begin();
    // The first tab's person comes back after the second began: theirs is still the answer to one sent.
    const first = await finishMcpOAuth({
      ...options,
      url: server.mcpUrl,
      callbackUrl: await visit(firstTab),
    });
    expect(first).toEqual({ ok: true, value: undefined });
    // Used once.
    const again = await finishMcpOAuth({
      ...options,
      url: server.mcpUrl,
      callbackUrl: await visit(firstTab),
    });
    expect(again.ok ? undefined : again.error.providerCode).toBe("state_mismatch");

    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 31 * 60_000);
      const late = await finishMcpOAuth({
        ...options,
        url: server.mcpUrl,
        callbackUrl: await visit(secondTab),
      });
      expect(late.ok ? undefined : late.error.providerCode).toBe("state_mismatch");
    } finally {
      vi.useRealTimers();
    }
    expect(server.tokenRequests).toHaveLength(1);
  });

  it("refuses a callback whose state is not the pending one, and keeps the pending one for the real answer", async () => {
    const server = await start();
    const options: McpOAuthOptions = { redirectUrl: REDIRECT, storage: memoryAuthStorage() };
    const first = await connectMcp({ url: server.mcpUrl, auth: mcpOAuth(options), listen: false });
    const authorizationUrl = String((first as { error: AnySdkError }).error.details?.authorizationUrl);
    const callbackUrl = new URL(await visit(authorizationUrl));

    const forged = new URL(callbackUrl);
    forged.searchParams.set("state", "forged");
    const refused = await finishMcpOAuth({ ...options, url: server.mcpUrl, callbackUrl: forged.href });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe("AUTH");
      expect(refused.error.providerCode).toBe("state_mismatch");
    }
    expect(server.tokenRequests).toHaveLength(0);

    const finished = await finishMcpOAuth({ ...options, url: server.mcpUrl, callbackUrl: callbackUrl.href });
    expect(finished.ok).toBe(true);
    // Used once: the same answer again finds nothing pending.
    const replayed = await finishMcpOAuth({ ...options, url: server.mcpUrl, callbackUrl: callbackUrl.href });
    expect(!replayed.ok && replayed.error.providerCode).toBe("state_mismatch");
  });
});

describe("mcpOAuth with a browser that comes back (authorize resolves the callback URL)", () => {
  it("registers, authorizes with PKCE S256, state and resource, and calls the server's tools", async () => {
    const server = await start();
    const visits: string[] = [];
    const output = await connectAndEcho(server.mcpUrl, browserOptions(memoryAuthStorage(), visits));
    expect(output).toContain("hi");
    expect(visits).toHaveLength(1);
    const query = server.authorizations[0];
    expect(query?.get("code_challenge_method")).toBe("S256");
    expect(query?.get("state")?.length).toBeGreaterThanOrEqual(32);
    expect(query?.get("scope")).toBe("notes");
    expect(query?.get("client_id")).toBe("client-1");
    const exchange = server.tokenRequests[0]?.form;
    expect(exchange?.get("resource")).toBe(server.mcpUrl);
    expect(exchange?.get("client_secret")).toMatch(/^client-.*-SECRET$/); // client_secret_post, as registered
  });

  it("stops the request's timeout while the person signs in: a sign-in longer than timeoutMs still connects", async () => {
    const server = await start();
    const options: McpOAuthOptions = {
      redirectUrl: REDIRECT,
      authorize: async (url) => {
        await new Promise((resolve) => setTimeout(resolve, 600)); // the person takes their time
        return visit(url);
      },
    };
    const connected = await connectMcp({
      url: server.mcpUrl,
      auth: mcpOAuth(options),
      listen: false,
      timeoutMs: 250,
    });
    expect(connected.ok ? connected.value.tools.map((tool) => tool.name) : connected.error).toContain("echo");
    if (connected.ok) await connected.value.close();
  });

  it("refuses metadata claiming another issuer, or naming an endpoint that is not https, before sending anything", async () => {
    const cases: Array<(metadata: Record<string, string | string[]>) => Record<string, string | string[]>> = [
      (metadata) => ({ ...metadata, issuer: "https://real-as.example" }),
      (metadata) => ({ ...metadata, token_endpoint: "http://evil.example/token" }),
      (metadata) => ({ ...metadata, authorization_endpoint: "javascript:alert(document.domain)//" }),
    ];
    for (const metadata of cases) {
      const server = await start({ metadata });
      const visits: string[] = [];
      const connected = await connectMcp({
        url: server.mcpUrl,
        auth: mcpOAuth(browserOptions(memoryAuthStorage(), visits)),
        listen: false,
      });
      expect(connected.ok ? undefined : connected.error).toMatchObject({
        _tag: "ProviderError",
        code: "AUTH",
        providerCode: "untrusted_metadata",
      });
      expect(visits).toEqual([]);
      expect(server.registrations).toBe(0);
      expect(server.tokenRequests).toEqual([]);
    }
  });

  it("sends a pinned client's secret to no authorization server but its own", async () => {
    const server = await start();
    const visits: string[] = [];
    const pinned = (issuer: string) =>
      mcpOAuth({
        ...browserOptions(memoryAuthStorage(), visits),
        client: { clientId: "app", clientSecret: "app-secret-value", issuer },
      });
    const elsewhere = await connectMcp({
      url: server.mcpUrl,
      auth: pinned("https://as.example"),
      listen: false,
    });
    expect(elsewhere.ok ? undefined : elsewhere.error).toMatchObject({ providerCode: "untrusted_metadata" });
    expect(visits).toEqual([]);
    expect(server.tokenRequests).toEqual([]);
    const credentials = mcpClientCredentials({
      clientId: "job",
      clientSecret: "job-secret-value",
      issuer: "https://as.example",
    });
    const job = await connectMcp({ url: server.mcpUrl, auth: credentials, listen: false });
    expect(job.ok ? undefined : job.error).toMatchObject({ providerCode: "untrusted_metadata" });
    expect(server.tokenRequests).toEqual([]);
    // Its own issuer: the authorization goes ahead (to the person, here).
    await connectMcp({ url: server.mcpUrl, auth: pinned(`${server.url}/`), listen: false });
    expect(visits).toHaveLength(1);
  });

  it("uses the refresh token before sending the person through a new authorization", async () => {
    const server = await start();
    const visits: string[] = [];
    const options = browserOptions(memoryAuthStorage(), visits);
    await connectAndEcho(server.mcpUrl, options);
    expect(visits).toHaveLength(1);

    server.validTokens.clear(); // the server forgets the access token: the next request is refused (401)
    await connectAndEcho(server.mcpUrl, options);
    expect(visits).toHaveLength(1);
    expect(server.tokenRequests.map((request) => request.form.get("grant_type"))).toEqual([
      "authorization_code",
      "refresh_token",
    ]);
    expect(server.tokenRequests[1]?.form.get("resource")).toBe(server.mcpUrl);
  });

  it("renews an access token about to expire with the refresh token before sending it", async () => {
    const server = await start({ expiresIn: 1 }); // within the 30 s margin: renewed before each use
    const visits: string[] = [];
    const options = browserOptions(memoryAuthStorage(), visits);
    await connectAndEcho(server.mcpUrl, options);
    const grants = server.tokenRequests.map((request) => request.form.get("grant_type"));
    expect(grants[0]).toBe("authorization_code");
    expect(grants.slice(1).length).toBeGreaterThan(0);
    expect(new Set(grants.slice(1))).toEqual(new Set(["refresh_token"]));
    expect(visits).toHaveLength(1);
  });

  it("stops after 3 authorizations when the server keeps asking for a scope it never grants", async () => {
    const server = await start();
    const visits: string[] = [];
    const options = browserOptions(memoryAuthStorage(), visits);
    await connectAndEcho(server.mcpUrl, options); // authorized once
    const stubborn = await start({ alwaysInsufficientScope: true });
    const connected = await connectMcp({ url: stubborn.mcpUrl, auth: mcpOAuth(options), listen: false });
    expect(connected.ok).toBe(false);
    // 401 → authorize; then 403 insufficient_scope twice → authorize with the scope asked; then it stands.
    expect(stubborn.authorizations).toHaveLength(3);
    expect(stubborn.authorizations.slice(1).map((query) => query.get("scope"))).toEqual(["admin", "admin"]);
    if (!connected.ok) {
      expect(connected.error.code).toBe("PERMISSION");
      expect(connected.error.status).toBe(403);
    }
  });

  it("keeps each server's tokens apart in one storage", async () => {
    const one = await start();
    const two = await start();
    const storage = memoryAuthStorage();
    const visits: string[] = [];
    await connectAndEcho(one.mcpUrl, browserOptions(storage, visits));
    await connectAndEcho(two.mcpUrl, browserOptions(storage, visits));
    expect(visits.map((visit) => new URL(visit).origin)).toEqual([one.url, two.url]);
    // Each server only ever saw its own tokens, and both connect again without asking.
    await connectAndEcho(one.mcpUrl, browserOptions(storage, visits));
    await connectAndEcho(two.mcpUrl, browserOptions(storage, visits));
    expect(visits).toHaveLength(2);
  });

  it("refuses protected resource metadata naming another resource, before any authorization", async () => {
    const server = await start({ resource: "https://elsewhere.example/mcp" });
    const visits: string[] = [];
    const connected = await connectMcp({
      url: server.mcpUrl,
      auth: mcpOAuth(browserOptions(memoryAuthStorage(), visits)),
      listen: false,
    });
    expect(connected.ok).toBe(false);
    if (!connected.ok) {
      expect(connected.error._tag).toBe("ProviderError");
      expect(connected.error.providerCode).toBe("resource_mismatch");
    }
    expect(visits).toHaveLength(0);
    expect(server.registrations).toBe(0);
  });

  it("reports a bad option as a ConfigError at auth.…, before anything is sent", async () => {
    const server = await start();
    const connected = await connectMcp({
      url: server.mcpUrl,
      auth: mcpOAuth({ redirectUrl: "not a url" }),
      listen: false,
    });
    expect(connected.ok).toBe(false);
    if (!connected.ok) {
      expect(connected.error._tag).toBe("ConfigError");
      expect(connected.error.path).toBe("auth.redirectUrl");
    }
  });
});

describe("secrets", () => {
  it("never appear in errors, records or the storage's keys", async () => {
    const server = await start();
    const storage = memoryAuthStorage();
    const keys: string[] = [];
    const watched: McpAuthStorage = {
      get: (key) => storage.get(key),
      set: (key, value) => {
        keys.push(key);
        return storage.set(key, value);
      },
      delete: (key) => storage.delete(key),
    };
    const visits: string[] = [];
    const options = browserOptions(watched, visits);
    const errors: unknown[] = [];

    // A working connection: its record.
    const connected = await connectMcp({ url: server.mcpUrl, auth: mcpOAuth(options), listen: false });
    if (!connected.ok) throw connected.error;
    const record = JSON.stringify(connected.value.record());
    await connected.value.close();

    // The token endpoint refusing, with a body that echoes the code, verifier and client secret.
    const refusing = await start({ refuseTokens: true });
    const refused = await connectMcp({
      url: refusing.mcpUrl,
      auth: mcpOAuth(browserOptions(watched, visits)),
      listen: false,
    });
    errors.push(!refused.ok && refused.error);
    expect(!refused.ok && refused.error.providerCode).toBe("invalid_grant");
    expect(refusing.tokenRequests[0]?.form.get("code_verifier")).toBeTruthy();

    // A forged callback, and a server that refuses the refresh and then the code.
    const forged = await finishMcpOAuth({
      ...options,
      url: server.mcpUrl,
      callbackUrl: `${REDIRECT}?code=x&state=y`,
    });
    errors.push(!forged.ok && forged.error);

    const secrets = [
      ...server.secrets,
      ...refusing.secrets,
      ...refusing.tokenRequests.map((request) => request.form.get("code_verifier") ?? "verifier-missing"),
    ];
    expect(secrets.length).toBeGreaterThan(5);
    const texts = [record, ...keys, ...errors.map(shown)];
    for (const secret of secrets) for (const text of texts) expect(text).not.toContain(secret);
  });
});

describe("requests refused while another renewed the tokens", () => {
  it("are sent again with the newer token: no refresh is spent and nobody is asked", async () => {
    const storage = memoryAuthStorage();
    const url = "https://notes.example/mcp";
    await writeTokens(storage, url, {
      tokens: { accessToken: "NEW", refreshToken: "R2", tokenType: "Bearer" },
      grant: {
        tokenEndpoint: "https://as.example/token",
        resource: url,
        issuer: "https://as.example",
        client: { clientId: "c" },
        authMethod: "none",
      },
    });
    const asked: string[] = [];
    const requested: string[] = [];
    const auth = mcpOAuth({
      redirectUrl: REDIRECT,
      storage,
      authorize: async (authorizationUrl) => {
        asked.push(authorizationUrl);
        return undefined;
      },
    });
    const fetch: typeof globalThis.fetch = async (input) => {
      requested.push(String(input));
      return new Response(null, { status: 500 });
    };
    const refused = new Response(null, { status: 401, headers: { "www-authenticate": "Bearer" } });
    const context = { url, fetch, signal: new AbortController().signal };
    await expect(auth.refused(refused, { ...context, sent: "Bearer OLD" })).resolves.toBe(true);
    expect(asked).toEqual([]);
    expect(requested).toEqual([]);
    expect(await auth.authorization(context)).toBe("Bearer NEW");
  });
});
