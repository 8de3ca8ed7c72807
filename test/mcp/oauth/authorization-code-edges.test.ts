/**
 * The two ends of the authorization code flow (src/mcp/oauth/authorization-code.ts) where the other
 * tests do not look: the authorization URL's `response_type` and `scope`, the pending record's scope,
 * every way a person can come back without a usable code (not a URL, the server's refusal with its
 * description bounded and the `state` redacted, no code, an empty code, another `iss`), the messages
 * for a `state` that matches nothing, and which stored values count as a pending authorization.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AnySdkError } from "../../../src/errors/sdk-error.ts";
import {
  connectMcp,
  finishMcpOAuth,
  type McpOAuthOptions,
  mcpOAuth,
  memoryAuthStorage,
} from "../../../src/mcp/index.ts";
import {
  beginAuthorization,
  codeFromCallback,
  isPendingAuthorization,
  type PendingAuthorization,
} from "../../../src/mcp/oauth/authorization-code.ts";
import type { TokenGrant } from "../../../src/mcp/oauth/token-grant.ts";
import { type OAuthServer, startOAuthServer, visit } from "./support/oauth-server.ts";

const servers: OAuthServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function start(): Promise<OAuthServer> {
  const server = await startOAuthServer();
  servers.push(server);
  return server;
}

const REDIRECT = "http://127.0.0.1:9/callback";

const grant: TokenGrant = {
  tokenEndpoint: "https://as.example/token",
  resource: "https://mcp.example/mcp",
  issuer: "https://as.example",
  client: { clientId: "client-1" },
  authMethod: "none",
};

/** Connects with an `authorize` that answers with `callback(authorizationUrl)`; the failure it ends with. */
async function failureComingBackTo(
  server: OAuthServer,
  callback: (authorizationUrl: URL) => string,
): Promise<AnySdkError> {
  const options: McpOAuthOptions = {
    redirectUrl: REDIRECT,
    storage: memoryAuthStorage(),
    authorize: async (url) => callback(new URL(url)),
  };
  const connected = await connectMcp({ url: server.mcpUrl, auth: mcpOAuth(options), listen: false });
  if (connected.ok) {
    await connected.value.close();
    throw new Error("connected");
  }
  return connected.error;
}

/** The redirect URL with `state` (taken from the authorization URL) and `params`. */
function cameBack(authorizationUrl: URL, params: Record<string, string>): string {
  const url = new URL(REDIRECT);
  url.searchParams.set("state", authorizationUrl.searchParams.get("state") ?? "");
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}

describe("the authorization URL", () => {
  it("asks for a code, and names the scope (here and in the pending record) only when there is one", async () => {
    const scoped = await beginAuthorization({
      authorizationEndpoint: "https://as.example/authorize",
      redirectUrl: REDIRECT,
      grant,
      scope: "tools:read",
    });
    const url = new URL(scoped.authorizationUrl);
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("client_id")).toBe("client-1");
    expect(url.searchParams.get("scope")).toBe("tools:read");
    expect(scoped.pending.scope).toBe("tools:read");

    for (const scope of ["", undefined]) {
      const unscoped = await beginAuthorization({
        authorizationEndpoint: "https://as.example/authorize",
        redirectUrl: REDIRECT,
        grant,
        scope,
      });
      expect(new URL(unscoped.authorizationUrl).searchParams.has("scope")).toBe(false);
      expect("scope" in unscoped.pending).toBe(false);
    }
  });
});

describe("coming back without a usable code", () => {
  it("to something that is not a URL is no_code", async () => {
    const server = await start();
    const error = await failureComingBackTo(server, () => "not a url");
    expect(error).toMatchObject({
      code: "AUTH",
      providerCode: "no_code",
      message: "The URL the authorization came back to is not a URL",
    });
    expect(server.tokenRequests).toHaveLength(0);
  });

  it("refused by the authorization server is its error, with its description (state redacted)", async () => {
    const server = await start();
    let state = "";
    const error = await failureComingBackTo(server, (url) => {
      state = url.searchParams.get("state") ?? "";
      return cameBack(url, { error: "access_denied", error_description: `The person said no to ${state}` });
    });
    expect(state.length).toBeGreaterThanOrEqual(8);
    expect(error).toMatchObject({
      code: "AUTH",
      providerCode: "access_denied",
      message: "The authorization server did not authorize: access_denied (The person said no to [redacted])",
    });
    expect(server.tokenRequests).toHaveLength(0);
  });

  it("refused without a description names the error alone", async () => {
    const server = await start();
    const error = await failureComingBackTo(server, (url) => cameBack(url, { error: "access_denied" }));
    expect(error).toMatchObject({
      providerCode: "access_denied",
      message: "The authorization server did not authorize: access_denied",
    });
  });

  it("refused with a long error and description keeps the first 100 and 200 characters of them", async () => {
    const server = await start();
    const longError = `e${"r".repeat(149)}`;
    const longDescription = `d${"x".repeat(299)}`;
    const error = await failureComingBackTo(server, (url) =>
      cameBack(url, { error: longError, error_description: longDescription }),
    );
    expect(error.providerCode).toBe(longError.slice(0, 100));
    expect(error.message).toBe(
      `The authorization server did not authorize: ${longError.slice(0, 100)} (${longDescription.slice(0, 200)})`,
    );
  });

  it("with no code, or an empty one, is no_code and nothing is exchanged", async () => {
    const server = await start();
    for (const params of [{}, { code: "" }]) {
      const error = await failureComingBackTo(server, (url) => cameBack(url, params));
      expect(error).toMatchObject({
        code: "AUTH",
        providerCode: "no_code",
        message: "The authorization came back without a code",
      });
    }
    expect(server.tokenRequests).toHaveLength(0);
  });

  it("from another authorization server (iss) says so", async () => {
    const server = await start();
    const error = await failureComingBackTo(server, (url) =>
      cameBack(url, { code: "c", iss: "https://other-as.example" }),
    );
    expect(error).toMatchObject({
      providerCode: "untrusted_metadata",
      message:
        "The authorization came back from another authorization server (iss) than the one it was sent to",
    });
    expect(server.tokenRequests).toHaveLength(0);
  });
});

describe("a state that is not the pending one", () => {
  it("matching no pending authorization says that none is pending", async () => {
    const server = await start();
    const options: McpOAuthOptions = { redirectUrl: REDIRECT, storage: memoryAuthStorage() };
    const refused = await connectMcp({ url: server.mcpUrl, auth: mcpOAuth(options), listen: false });
    const authorizationUrl = String((refused as { error: AnySdkError }).error.details?.authorizationUrl);
    const forged = new URL(await visit(authorizationUrl));
    forged.searchParams.set("state", "forged-state");
    const finished = await finishMcpOAuth({ ...options, url: server.mcpUrl, callbackUrl: forged.href });
    expect(finished.ok ? undefined : finished.error).toMatchObject({
      providerCode: "state_mismatch",
      message:
        "No authorization is pending for the state that came back (finished already, older than 30 minutes, begun in another storage, or never sent)",
    });
  });

  it("given another pending authorization than its own, is refused as not the answer to it", async () => {
    const { pending } = await beginAuthorization({
      authorizationEndpoint: "https://as.example/authorize",
      redirectUrl: REDIRECT,
      grant,
      scope: undefined,
    });
    const callback = `${REDIRECT}?code=c&state=${pending.state}`;
    expect(codeFromCallback(callback, pending)).toBe("c");
    expect(() => codeFromCallback(`${REDIRECT}?code=c&state=another-state`, pending)).toThrow(
      expect.objectContaining({
        providerCode: "state_mismatch",
        message:
          "The authorization came back with another state than the one sent: it is not the answer to this request",
      }),
    );
  });
});

describe("isPendingAuthorization", () => {
  it("takes a record with a string state and verifier and a grant object, and nothing else", () => {
    const good: PendingAuthorization = {
      state: "s",
      verifier: "v",
      redirectUrl: REDIRECT,
      authorizationEndpoint: "https://as.example/authorize",
      grant,
      createdAt: Date.now(),
    };
    expect(isPendingAuthorization(good)).toBe(true);
    for (const bad of [
      undefined,
      null,
      "s",
      5,
      { ...good, state: 1 },
      { ...good, verifier: 1 },
      { ...good, state: 1, verifier: 1 },
      { ...good, grant: "g" },
      { ...good, grant: null },
      { ...good, grant: undefined },
    ])
      expect(isPendingAuthorization(bad), JSON.stringify(bad) ?? "undefined").toBe(false);
  });
});
