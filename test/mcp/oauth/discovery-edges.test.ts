/**
 * Discovery's edges (src/mcp/oauth/discovery.ts), against a fake network that answers by URL: how
 * metadata is asked for, answers that are no metadata (error statuses, JSON that is not an object),
 * well-known URLs of paths with trailing slashes, resources and issuers that are not URLs, endpoints
 * that are or are not https, the 2025-03-26 fallback, `discovery_failed`, what `resource_mismatch`
 * says, and the metadata locations of an issuer at the root or under a path, in the MCP spec's order.
 */
import { describe, expect, it } from "vitest";
import {
  type AuthorizationServer,
  checkPinnedIssuer,
  type DiscoveryContext,
  discoverAuthorizationServer,
  discoverResource,
  resourceCovers,
  sameIssuer,
} from "../../../src/mcp/oauth/discovery.ts";
import { rejection } from "../../support/results.ts";

interface Sent {
  url: string;
  init: RequestInit | undefined;
}

/** A network answering each URL in `answers` (JSON of its value, or a Response), else 404; records what was sent. */
function network(answers: Record<string, unknown>): DiscoveryContext & { sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    sent.push({ url, init });
    if (!(url in answers)) return new Response("not found", { status: 404 });
    const answer = answers[url];
    return answer instanceof Response ? answer : new Response(JSON.stringify(answer));
  }) as typeof globalThis.fetch;
  return { fetch, signal: new AbortController().signal, sent };
}

const MCP = "https://mcp.example/mcp";
const PATH_METADATA = "https://mcp.example/.well-known/oauth-protected-resource/mcp";
const ROOT_METADATA = "https://mcp.example/.well-known/oauth-protected-resource";
const AS = "https://as.example";
const AS_METADATA = "https://as.example/.well-known/oauth-authorization-server";

function asMetadata(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    issuer: AS,
    authorization_endpoint: `${AS}/authorize`,
    token_endpoint: `${AS}/token`,
    ...overrides,
  };
}

describe("protected resource metadata", () => {
  it("is asked for as JSON with GET, following no redirect", async () => {
    const net = network({ [PATH_METADATA]: { resource: MCP, authorization_servers: [AS] } });
    await discoverResource(MCP, undefined, net);
    expect(net.sent).toHaveLength(1);
    const init = net.sent[0]?.init;
    expect(init?.method).toBe("GET");
    expect(init?.redirect).toBe("manual");
    expect(new Headers(init?.headers).get("accept")).toBe("application/json");
    expect(init?.signal).toBe(net.signal);
  });

  it("is not read from an error status, even one with a JSON object body", async () => {
    const net = network({
      [PATH_METADATA]: Response.json(
        { resource: MCP, authorization_servers: ["https://wrong.example"] },
        {
          status: 404,
        },
      ),
      [ROOT_METADATA]: { resource: MCP, authorization_servers: [AS] },
    });
    expect(await discoverResource(MCP, undefined, net)).toEqual({
      resource: MCP,
      authorizationServers: [AS],
    });
  });

  it.each([
    ["null", null],
    ["an array", [{ resource: MCP }]],
    ["a string", "metadata"],
    ["a number", 42],
  ])("is not read from JSON that is %s: the next location is tried", async (_, body) => {
    const challenge = "https://mcp.example/meta";
    const net = network({
      [challenge]: body,
      [PATH_METADATA]: { resource: MCP, authorization_servers: [AS] },
    });
    expect(await discoverResource(MCP, challenge, net)).toEqual({
      resource: MCP,
      authorizationServers: [AS],
    });
    expect(net.sent.map((sent) => sent.url)).toEqual([challenge, PATH_METADATA]);
  });

  it("reads lists only when every entry is a string, and no authorization server when none is listed", async () => {
    const net = network({
      [PATH_METADATA]: { resource: MCP, authorization_servers: [AS, 5], scopes_supported: ["a", null] },
    });
    expect(await discoverResource(MCP, undefined, net)).toEqual({ resource: MCP, authorizationServers: [] });
    const none = network({ [PATH_METADATA]: { resource: MCP } });
    expect(await discoverResource(MCP, undefined, none)).toEqual({ resource: MCP, authorizationServers: [] });
  });

  it("is looked for at the path without its trailing slashes", async () => {
    const net = network({});
    expect(await discoverResource("https://mcp.example/mcp//", undefined, net)).toBeUndefined();
    expect(net.sent.map((sent) => sent.url)).toEqual([PATH_METADATA, ROOT_METADATA]);
  });

  it("naming another resource is refused as resource_mismatch, naming both and where the metadata was", async () => {
    const other = "https://other.example/mcp";
    const net = network({ [PATH_METADATA]: { resource: other, authorization_servers: [AS] } });
    const error = await rejection(discoverResource(MCP, undefined, net));
    expect(error).toMatchObject({
      _tag: "ProviderError",
      code: "AUTH",
      providerCode: "resource_mismatch",
      details: { resource: other, metadataUrl: PATH_METADATA },
    });
    expect(error.message).toBe(
      `The MCP server's protected resource metadata names another resource (${other}) than ${MCP}; Wisp does not authorize for it`,
    );
  });

  it("naming a resource that is not a URL is refused as resource_mismatch", async () => {
    const net = network({ [PATH_METADATA]: { resource: "not a url", authorization_servers: [AS] } });
    const error = await rejection(discoverResource(MCP, undefined, net));
    expect(error).toMatchObject({ code: "AUTH", providerCode: "resource_mismatch" });
  });
});

describe("resourceCovers", () => {
  it("takes a parent path, and not a path that only ends like the resource", () => {
    expect(resourceCovers("https://x.example/tenant", "https://x.example/tenant/mcp")).toBe(true);
    expect(resourceCovers("https://x.example/tenant", "https://x.example/other/tenant")).toBe(false);
  });
});

describe("authorization server metadata", () => {
  const named = { resource: MCP, authorizationServers: [AS] };

  it("takes https endpoints", async () => {
    const net = network({ [AS_METADATA]: asMetadata() });
    expect(await discoverAuthorizationServer(MCP, named, net)).toEqual({
      issuer: AS,
      authorizationEndpoint: `${AS}/authorize`,
      tokenEndpoint: `${AS}/token`,
      clientIdMetadataDocuments: false,
      fallback: false,
    });
  });

  it("says whether the server takes a client ID metadata document only when the metadata says true", async () => {
    for (const [supported, expected] of [
      [true, true],
      ["true", false],
      [false, false],
    ] as const) {
      const net = network({
        [AS_METADATA]: asMetadata({ client_id_metadata_document_supported: supported }),
      });
      expect(await discoverAuthorizationServer(MCP, named, net)).toMatchObject({
        clientIdMetadataDocuments: expected,
      });
    }
  });

  it("claiming another issuer than the one it was fetched for is refused as untrusted_metadata, naming both", async () => {
    const net = network({ [AS_METADATA]: asMetadata({ issuer: "https://other-as.example/tenant" }) });
    const error = await rejection(discoverAuthorizationServer(MCP, named, net));
    expect(error).toMatchObject({ _tag: "ProviderError", code: "AUTH", providerCode: "untrusted_metadata" });
    expect(error.details).toEqual({ issuer: `${AS}/` });
    expect(error.message).toBe(
      `The authorization server metadata fetched for ${AS}/ names another issuer (https://other-as.example/tenant); Wisp sends it nothing`,
    );
  });

  it("named by the resource metadata, claiming another issuer on the same origin is refused as untrusted_metadata", async () => {
    const net = network({ [AS_METADATA]: asMetadata({ issuer: `${AS}/tenant` }) });
    const error = await rejection(discoverAuthorizationServer(MCP, named, net));
    expect(error).toMatchObject({ code: "AUTH", providerCode: "untrusted_metadata" });
  });

  it("naming a plain-http endpoint off loopback is refused as untrusted_metadata, naming the issuer and the endpoint", async () => {
    const net = network({
      [AS_METADATA]: asMetadata({ registration_endpoint: "http://as.example/register" }),
    });
    const error = await rejection(discoverAuthorizationServer(MCP, named, net));
    expect(error).toMatchObject({ _tag: "ProviderError", code: "AUTH", providerCode: "untrusted_metadata" });
    expect(error.details).toEqual({ issuer: `${AS}/` });
    expect(error.message).toBe(
      `The authorization server ${AS}/ names an endpoint that is not https (http://as.example/register); Wisp sends codes and secrets only over https (or http on loopback)`,
    );
  });

  it("refuses an endpoint that is not a URL as untrusted_metadata", async () => {
    const net = network({ [AS_METADATA]: asMetadata({ authorization_endpoint: "not a url" }) });
    const error = await rejection(discoverAuthorizationServer(MCP, named, net));
    expect(error).toMatchObject({ code: "AUTH", providerCode: "untrusted_metadata" });
  });

  it("of the MCP server's origin (no resource metadata) may name an issuer under a path of that origin, not another origin nor a non-URL", async () => {
    const origin = "https://mcp.example";
    const metadataUrl = `${origin}/.well-known/oauth-authorization-server`;
    const underPath = network({ [metadataUrl]: asMetadata({ issuer: `${origin}/oauth` }) });
    expect(await discoverAuthorizationServer(MCP, undefined, underPath)).toMatchObject({
      issuer: `${origin}/oauth`,
      fallback: false,
    });
    for (const issuer of [AS, "not a url"]) {
      const net = network({ [metadataUrl]: asMetadata({ issuer }) });
      const error = await rejection(discoverAuthorizationServer(MCP, undefined, net));
      expect(error).toMatchObject({ code: "AUTH", providerCode: "untrusted_metadata" });
    }
  });

  it("of an issuer at the root is asked for at its RFC 8414 location, then its OpenID Connect one, once each", async () => {
    const openid = `${AS}/.well-known/openid-configuration`;
    const none = network({});
    await rejection(discoverAuthorizationServer(MCP, named, none));
    expect(none.sent.map((sent) => sent.url)).toEqual([AS_METADATA, openid]);
    const net = network({ [openid]: asMetadata() });
    expect(await discoverAuthorizationServer(MCP, named, net)).toMatchObject({
      issuer: AS,
      tokenEndpoint: `${AS}/token`,
    });
  });

  it("of an issuer under a path is asked for at the path-appended RFC 8414 and OpenID Connect locations, then the path-prefixed one, without trailing slashes", async () => {
    const issuer = `${AS}/tenant//`;
    const net = network({});
    await rejection(discoverAuthorizationServer(MCP, { resource: MCP, authorizationServers: [issuer] }, net));
    expect(net.sent.map((sent) => sent.url)).toEqual([
      `${AS}/.well-known/oauth-authorization-server/tenant`,
      `${AS}/.well-known/openid-configuration/tenant`,
      `${AS}/tenant/.well-known/openid-configuration`,
    ]);
  });

  it("falls back to the 2025-03-26 endpoints at the MCP server's origin when neither publishes metadata", async () => {
    const net = network({});
    expect(await discoverAuthorizationServer("https://mcp.example/a/mcp", undefined, net)).toEqual({
      issuer: "https://mcp.example",
      authorizationEndpoint: "https://mcp.example/authorize",
      tokenEndpoint: "https://mcp.example/token",
      registrationEndpoint: "https://mcp.example/register",
      clientIdMetadataDocuments: false,
      fallback: true,
    });
  });

  it("fails with discovery_failed, naming the issuer, when the one the resource metadata names publishes none", async () => {
    const net = network({});
    const error = await rejection(
      discoverAuthorizationServer(MCP, { resource: MCP, authorizationServers: [`${AS}/tenant`] }, net),
    );
    expect(error).toMatchObject({
      _tag: "ProviderError",
      code: "AUTH",
      providerCode: "discovery_failed",
      details: { issuer: `${AS}/tenant` },
    });
    expect(error.message).toBe(
      `The authorization server ${AS}/tenant of the MCP server publishes no metadata (RFC 8414 or OpenID Connect)`,
    );
  });
});

describe("issuers", () => {
  it("sameIssuer: the same issuer but for any number of trailing slashes, on either side", () => {
    expect(sameIssuer(`${AS}/`, AS)).toBe(true);
    expect(sameIssuer(AS, `${AS}/`)).toBe(true);
    expect(sameIssuer(`${AS}//`, AS)).toBe(true);
    expect(sameIssuer(AS, `${AS}//`)).toBe(true);
    expect(sameIssuer(`${AS}/tenant`, AS)).toBe(false);
  });

  const server: AuthorizationServer = {
    issuer: AS,
    authorizationEndpoint: `${AS}/authorize`,
    tokenEndpoint: `${AS}/token`,
    clientIdMetadataDocuments: false,
    fallback: false,
  };

  it("checkPinnedIssuer takes the pinned issuer, or no pin, and refuses another as untrusted_metadata, naming both", async () => {
    expect(() => checkPinnedIssuer(server, undefined)).not.toThrow();
    expect(() => checkPinnedIssuer(server, `${AS}/`)).not.toThrow();
    const error = await rejection(
      (async () => checkPinnedIssuer(server, "https://pinned-as.example/tenant"))(),
    );
    expect(error).toMatchObject({ _tag: "ProviderError", code: "AUTH", providerCode: "untrusted_metadata" });
    expect(error.details).toEqual({ issuer: `${AS}/` });
    expect(error.message).toBe(
      `The MCP server's authorization server is ${AS}/, not https://pinned-as.example/tenant that this client's credentials are for; Wisp sends them nothing`,
    );
  });
});
