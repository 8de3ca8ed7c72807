/**
 * The check of `mcpOAuth`'s options, as `finishMcpOAuth` and `mcpOAuth` report it: each bad option is
 * a ConfigError naming its path and what is wrong, found before anything is sent; complete, valid
 * options pass it (an http client metadata URL only on loopback, as for every other endpoint).
 */
import { describe, expect, it } from "vitest";
import {
  finishMcpOAuth,
  type McpAuthStorage,
  type McpOAuthOptions,
  mcpOAuth,
  memoryAuthStorage,
} from "../../../src/mcp/index.ts";

const REDIRECT = "http://127.0.0.1:9/callback";
const SERVER = "https://notes.example/mcp";
const CALLBACK = `${REDIRECT}?code=c&state=s`;

/** A fetch that records what it was asked for and answers 500. */
function recordingFetch(requested: string[]): typeof globalThis.fetch {
  return async (input) => {
    requested.push(String(input));
    return new Response(null, { status: 500 });
  };
}

/** A storage missing one of its methods. */
function storageWithout(method: keyof McpAuthStorage): McpAuthStorage {
  const storage: Partial<McpAuthStorage> = { ...memoryAuthStorage() };
  delete storage[method];
  return storage as McpAuthStorage;
}

/** What `finishMcpOAuth` answers for `options` (with the server and callback URLs added). */
async function finished(options: unknown, requested: string[] = []) {
  return finishMcpOAuth({
    url: SERVER,
    callbackUrl: CALLBACK,
    fetch: recordingFetch(requested),
    storage: memoryAuthStorage(),
    ...(options as McpOAuthOptions),
  });
}

const BAD_OPTIONS: Array<{ options: Record<string, unknown>; path: string; message: string }> = [
  {
    options: {},
    path: "auth.redirectUrl",
    message: "mcpOAuth: redirectUrl must be a URL (the redirect URI registered)",
  },
  {
    options: { redirectUrl: "not a url" },
    path: "auth.redirectUrl",
    message: "mcpOAuth: redirectUrl must be a URL (the redirect URI registered)",
  },
  {
    options: { redirectUrl: REDIRECT, authorize: "https://example.com/popup" },
    path: "auth.authorize",
    message: "mcpOAuth: authorize must be a function",
  },
  ...(["get", "set", "delete"] as const).map((method) => ({
    options: { redirectUrl: REDIRECT, storage: storageWithout(method) },
    path: "auth.storage",
    message: "mcpOAuth: storage must have get, set and delete",
  })),
  {
    options: { redirectUrl: REDIRECT, storage: null },
    path: "auth.storage",
    message: "mcpOAuth: storage must have get, set and delete",
  },
  ...[{}, null, { clientId: "" }, { clientId: 42 }].map((client) => ({
    options: { redirectUrl: REDIRECT, client },
    path: "auth.client.clientId",
    message: "mcpOAuth: client.clientId must be a string",
  })),
  {
    options: { redirectUrl: REDIRECT, client: { clientId: "app", issuer: "as.example" } },
    path: "auth.client.issuer",
    message: "mcpOAuth: client.issuer must be the issuer's URL",
  },
  ...["client.json", "urn:example:https://app.example/client.json", "http://app.example/client.json"].map(
    (clientMetadataUrl) => ({
      options: { redirectUrl: REDIRECT, clientMetadataUrl },
      path: "auth.clientMetadataUrl",
      message: "mcpOAuth: clientMetadataUrl must be an https URL (http only on loopback)",
    }),
  ),
  {
    options: { redirectUrl: REDIRECT, scope: ["notes"] },
    path: "auth.scope",
    message: "mcpOAuth: scope must be a string",
  },
  {
    options: { redirectUrl: REDIRECT, fetch: "https://proxy.example" },
    path: "auth.fetch",
    message: "mcpOAuth: fetch must be a function",
  },
];

describe("finishMcpOAuth with bad options", () => {
  it.each(BAD_OPTIONS)("reports $path for $options as a ConfigError, sending nothing", async (bad) => {
    const requested: string[] = [];
    const result = await finished(bad.options, requested);
    expect(result.ok ? undefined : result.error).toMatchObject({
      _tag: "ConfigError",
      code: "CONFIG_INVALID",
      path: bad.path,
      message: bad.message,
    });
    expect(requested).toEqual([]);
  });

  it.each([null, "https://notes.example/mcp"])(
    "reports options that are no object (%s) at auth",
    async (options) => {
      const result = await finishMcpOAuth(options as never);
      expect(result.ok ? undefined : result.error).toMatchObject({
        _tag: "ConfigError",
        code: "CONFIG_INVALID",
        path: "auth",
        message: "mcpOAuth needs options with a redirectUrl",
      });
    },
  );
});

describe("options that pass the check", () => {
  it("takes every option set to a valid value: finishing fails only for want of a pending authorization", async () => {
    const requested: string[] = [];
    for (const clientMetadataUrl of [
      "https://app.example/client.json",
      "http://127.0.0.1:8080/client.json",
    ]) {
      const result = await finished(
        {
          redirectUrl: REDIRECT,
          authorize: async () => undefined,
          storage: memoryAuthStorage(),
          client: { clientId: "app", clientSecret: "app-secret", issuer: "https://as.example" },
          clientMetadataUrl,
          scope: "notes",
        },
        requested,
      );
      expect(result.ok ? undefined : result.error).toMatchObject({
        _tag: "ProviderError",
        code: "AUTH",
        providerCode: "state_mismatch",
      });
    }
    expect(requested).toEqual([]);
  });
});

describe("mcpOAuth with bad options", () => {
  it("fails the connection's first request with the ConfigError, asking nobody", async () => {
    const requested: string[] = [];
    const asked: string[] = [];
    const auth = mcpOAuth({
      redirectUrl: REDIRECT,
      client: { clientId: "" },
      authorize: async (url) => {
        asked.push(url);
        return undefined;
      },
    });
    const context = { url: SERVER, fetch: recordingFetch(requested), signal: new AbortController().signal };
    await expect(auth.authorization(context)).rejects.toMatchObject({
      _tag: "ConfigError",
      path: "auth.client.clientId",
    });
    const refusal = new Response(null, { status: 401, headers: { "www-authenticate": "Bearer" } });
    await expect(auth.refused(refusal, context)).rejects.toMatchObject({
      _tag: "ConfigError",
      path: "auth.client.clientId",
    });
    expect(requested).toEqual([]);
    expect(asked).toEqual([]);
  });
});
