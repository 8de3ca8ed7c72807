/**
 * `mcpClientCredentials` against a real server on 127.0.0.1: a `private_key_jwt` assertion (RS256 and
 * Ed25519 here; the conformance suite covers ES256) that verifies with the public key and names the
 * client and the issuer; `client_secret_post` when that is all the server takes; and the key and
 * secret kept out of errors when the server refuses.
 */
import { generateKeyPairSync } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { type LoopbackServer, serveHandler } from "../../../runtime/node/serve-handler.ts";
import { connectMcp, mcpClientCredentials } from "../../../src/mcp/index.ts";

interface TokenRequest {
  form: URLSearchParams;
  authorization: string | null;
}

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server taking client credentials: `accept` decides each token request. */
async function start(
  methods: string[],
  accept: (request: TokenRequest, issuer: string) => Promise<boolean>,
): Promise<LoopbackServer & { tokenRequests: TokenRequest[] }> {
  const tokenRequests: TokenRequest[] = [];
  let base = "";
  const server = await serveHandler(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp")
      return Response.json({ resource: `${base}/mcp`, authorization_servers: [`${base}/as`] });
    if (url.pathname === "/.well-known/oauth-authorization-server/as")
      return Response.json({
        issuer: `${base}/as`,
        authorization_endpoint: `${base}/as/authorize`,
        token_endpoint: `${base}/as/token`,
        grant_types_supported: ["client_credentials"],
        token_endpoint_auth_methods_supported: methods,
      });
    if (url.pathname === "/as/token") {
      const entry = {
        form: new URLSearchParams(await request.text()),
        authorization: request.headers.get("authorization"),
      };
      tokenRequests.push(entry);
      if (!(await accept(entry, `${base}/as`)))
        return Response.json({ error: "invalid_client", echo: entry.form.toString() }, { status: 401 });
      return Response.json({ access_token: "cc-token", token_type: "Bearer", expires_in: 60 });
    }
    if (url.pathname !== "/mcp" || request.method !== "POST") return new Response(null, { status: 405 });
    if (request.headers.get("authorization") !== "Bearer cc-token")
      return new Response(null, {
        status: 401,
        headers: {
          "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
        },
      });
    const message = (await request.json()) as { id?: number; method: string };
    if (message.id === undefined) return new Response(null, { status: 202 });
    const result =
      message.method === "initialize"
        ? {
            protocolVersion: "2025-11-25",
            capabilities: { tools: {} },
            serverInfo: { name: "cc", version: "1" },
          }
        : { tools: [] };
    return Response.json({ jsonrpc: "2.0", id: message.id, result });
  });
  base = server.url;
  servers.push(server);
  return Object.assign(server, { tokenRequests });
}

/** The JWT's parts, its signature checked with `publicKey` for `algorithm`. */
async function verified(
  jwt: string,
  publicKey: CryptoKey,
  algorithm: AlgorithmIdentifier,
): Promise<Record<string, unknown>> {
  const [header = "", payload = "", signature = ""] = jwt.split(".");
  const ok = await crypto.subtle.verify(
    algorithm,
    publicKey,
    Buffer.from(signature, "base64url"),
    new TextEncoder().encode(`${header}.${payload}`),
  );
  if (!ok) throw new Error("the signature does not verify");
  return {
    ...(JSON.parse(Buffer.from(header, "base64url").toString()) as object),
    ...(JSON.parse(Buffer.from(payload, "base64url").toString()) as object),
  };
}

describe("mcpClientCredentials", () => {
  for (const [algorithm, type, verifyWith] of [
    ["RS256", "rsa", { name: "RSASSA-PKCS1-v1_5" }],
    ["EdDSA", "ed25519", { name: "Ed25519" }],
  ] as const) {
    it(`signs a private_key_jwt assertion with ${algorithm} that verifies and names the client and the issuer`, async () => {
      const pair =
        type === "rsa" ? generateKeyPairSync("rsa", { modulusLength: 2048 }) : generateKeyPairSync("ed25519");
      const pem = pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
      const publicKey = await crypto.subtle.importKey(
        "spki",
        pair.publicKey.export({ type: "spki", format: "der" }),
        type === "rsa" ? { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } : { name: "Ed25519" },
        false,
        ["verify"],
      );
      const claims: Array<Record<string, unknown>> = [];
      const server = await start(["private_key_jwt"], async (request) => {
        claims.push(await verified(request.form.get("client_assertion") ?? "", publicKey, verifyWith));
        return true;
      });
      const connected = await connectMcp({
        url: `${server.url}/mcp`,
        auth: mcpClientCredentials({ clientId: "job", privateKey: pem, algorithm }),
        listen: false,
      });
      expect(connected.ok).toBe(true);
      if (connected.ok) await connected.value.close();
      const form = server.tokenRequests[0]?.form;
      expect(form?.get("grant_type")).toBe("client_credentials");
      expect(form?.get("client_assertion_type")).toBe(
        "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      );
      expect(form?.get("resource")).toBe(`${server.url}/mcp`);
      expect(claims[0]).toMatchObject({ alg: algorithm, iss: "job", sub: "job", aud: `${server.url}/as` });
      expect(Number(claims[0]?.exp) - Number(claims[0]?.iat)).toBe(300);
    });
  }

  it("sends the secret in the form when the server takes only client_secret_post", async () => {
    const server = await start(
      ["client_secret_post"],
      async (request) => request.form.get("client_secret") === "pw",
    );
    const connected = await connectMcp({
      url: `${server.url}/mcp`,
      auth: mcpClientCredentials({ clientId: "job", clientSecret: "pw" }),
      listen: false,
    });
    expect(connected.ok).toBe(true);
    if (connected.ok) await connected.value.close();
    expect(server.tokenRequests[0]?.authorization).toBeNull();
  });

  it("keeps the secret and the key out of the error when the server refuses", async () => {
    const secret = "the-client-SECRET-value";
    const server = await start(["client_secret_basic"], async () => false);
    const refused = await connectMcp({
      url: `${server.url}/mcp`,
      auth: mcpClientCredentials({ clientId: "job", clientSecret: secret }),
      listen: false,
    });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.providerCode).toBe("invalid_client");
    const basic = server.tokenRequests[0]?.authorization ?? "";
    expect(basic).toBe(`Basic ${btoa(`job:${secret}`)}`);
    for (const text of [JSON.stringify(refused.error), refused.error.message, String(refused.error.stack)]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(basic.slice(6));
    }

    const pem = generateKeyPairSync("ec", { namedCurve: "P-256" })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    const withKey = await connectMcp({
      url: `${server.url}/mcp`,
      auth: mcpClientCredentials({ clientId: "job", privateKey: pem, algorithm: "RS256" }), // the wrong algorithm
      listen: false,
    });
    expect(withKey.ok).toBe(false);
    if (withKey.ok) return;
    expect(withKey.error._tag).toBe("ConfigError");
    expect(withKey.error.path).toBe("auth.privateKey");
    const body = pem.split("\n")[1] ?? "";
    expect(body.length).toBeGreaterThan(20);
    expect(JSON.stringify(withKey.error)).not.toContain(body);
  });
});
