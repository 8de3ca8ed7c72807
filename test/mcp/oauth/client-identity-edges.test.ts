/**
 * Which client Wisp is (src/mcp/oauth/client-identity.ts): a client ID metadata document's URL as a
 * public client, a registration kept from before used (and a kept value that is none ignored), and
 * `no_client` when the server neither takes CIMD nor registers clients.
 */
import { describe, expect, it } from "vitest";
import { type ClientIdentityOptions, clientFor } from "../../../src/mcp/oauth/client-identity.ts";
import type { AuthorizationServer } from "../../../src/mcp/oauth/discovery.ts";
import { memoryAuthStorage, storageKey } from "../../../src/mcp/oauth/storage.ts";
import type { JsonValue } from "../../../src/types.ts";
import { rejection } from "../../support/results.ts";

const MCP = "https://mcp.example/mcp";
const server: AuthorizationServer = {
  issuer: "https://as.example",
  authorizationEndpoint: "https://as.example/authorize",
  tokenEndpoint: "https://as.example/token",
  registrationEndpoint: "https://as.example/register",
  clientIdMetadataDocuments: false,
  fallback: false,
};

/** Options whose registration endpoint hands out `new-1`, `new-2`, …; `registered` counts them. */
function options(
  extra: Partial<ClientIdentityOptions> = {},
): ClientIdentityOptions & { registered: () => number } {
  let registered = 0;
  const fetch = (async () =>
    Response.json({ client_id: `new-${++registered}` }, { status: 201 })) as typeof globalThis.fetch;
  return {
    redirectUrl: "http://127.0.0.1:9/callback",
    storage: memoryAuthStorage(),
    url: MCP,
    fetch,
    signal: new AbortController().signal,
    registered: () => registered,
    ...extra,
  };
}

describe("clientFor", () => {
  it("is the client ID metadata document's URL, a public client, where the server takes one", async () => {
    const cimd = "https://app.example/client.json";
    const given = options({ clientMetadataUrl: cimd });
    expect(await clientFor({ ...server, clientIdMetadataDocuments: true }, given)).toEqual({
      clientId: cimd,
      tokenEndpointAuthMethod: "none",
    });
    expect(given.registered()).toBe(0);
  });

  it("uses the registration kept from before without registering again", async () => {
    const given = options();
    const kept = { clientId: "kept-1", clientSecret: "s" };
    await given.storage.set(storageKey("client", MCP, server.issuer), kept);
    expect(await clientFor(server, given)).toEqual(kept);
    expect(given.registered()).toBe(0);
  });

  it.each<[string, JsonValue]>([
    ["null", null],
    ["no client id", { clientSecret: "s" }],
    ["a client id that is no string", { clientId: 7 }],
  ])("registers anew, and keeps that, when what is kept is %s", async (_, kept) => {
    const given = options();
    const key = storageKey("client", MCP, server.issuer);
    await given.storage.set(key, kept);
    expect(await clientFor(server, given)).toEqual({ clientId: "new-1" });
    expect(await given.storage.get(key)).toEqual({ clientId: "new-1" });
  });

  it("fails with no_client, sending nothing, when the server registers no clients and takes no CIMD", async () => {
    const given = options({ clientMetadataUrl: "https://app.example/client.json" });
    const { registrationEndpoint: _, ...closed } = server;
    const error = await rejection(clientFor(closed, given));
    expect(error).toMatchObject({ _tag: "ProviderError", code: "AUTH", providerCode: "no_client" });
    expect(error.message).toBe(
      "The authorization server offers no client registration and takes no client ID metadata document: give mcpOAuth a pre-registered client",
    );
    expect(given.registered()).toBe(0);
  });
});
