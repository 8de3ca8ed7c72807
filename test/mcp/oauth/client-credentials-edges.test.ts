/**
 * `mcpClientCredentials` at its edges, against an in-process fake fetch (an MCP endpoint, its protected
 * resource metadata, an authorization server): the JWS algorithm a CryptoKey implies, options that are
 * missing or empty (a ConfigError, nothing sent), a secret sent as client_secret_basic when the server
 * lists only `none`, the resource when the server publishes no metadata, a token renewed 30 s before it
 * expires, and which 403 answers ask for a new token.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectMcp, type McpAuth, mcpClientCredentials } from "../../../src/mcp/index.ts";
import { failure, okValue } from "../../support/results.ts";

const ORIGIN = "https://mcp.example.test";
const MCP_URL = `${ORIGIN}/mcp`;

interface TokenRequest {
  form: URLSearchParams;
  authorization: string | null;
}

interface FakeOptions {
  /** token_endpoint_auth_methods_supported (default private_key_jwt and both secret methods). */
  methods?: string[];
  /** Whether the protected resource metadata exists (default true). */
  metadata?: boolean;
  /** Answers an MCP request in place of the fake (a 403, say); undefined lets the fake answer. */
  mcp?: (method: string, authorization: string | null) => Response | undefined;
  /** Checks a token request (default: every one is granted). */
  accept?: (request: TokenRequest) => Promise<boolean>;
}

/** A fake MCP server with its authorization server, all in one fetch, and what it saw. */
function fakeServer(options: FakeOptions = {}) {
  const tokenRequests: TokenRequest[] = [];
  const mcpRequests: Array<{ method: string; authorization: string | null }> = [];
  const issued = new Set<string>();
  const issuer = options.metadata === false ? ORIGIN : `${ORIGIN}/as`;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const { pathname } = new URL(request.url);
    if (pathname === "/.well-known/oauth-protected-resource/mcp" && options.metadata !== false)
      return Response.json({ resource: MCP_URL, authorization_servers: [issuer] });
    const asMetadata =
      options.metadata === false
        ? "/.well-known/oauth-authorization-server"
        : "/.well-known/oauth-authorization-server/as";
    if (pathname === asMetadata)
      return Response.json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${ORIGIN}/token`,
        grant_types_supported: ["client_credentials"],
        token_endpoint_auth_methods_supported: options.methods ?? [
          "private_key_jwt",
          "client_secret_basic",
          "client_secret_post",
        ],
      });
    if (pathname === "/token") {
      const entry = {
        form: new URLSearchParams(await request.text()),
        authorization: request.headers.get("authorization"),
      };
      tokenRequests.push(entry);
      if (options.accept !== undefined && !(await options.accept(entry)))
        return Response.json({ error: "invalid_client" }, { status: 401 });
      const token = `cc-${tokenRequests.length}`;
      issued.add(token);
      return Response.json({ access_token: token, token_type: "Bearer", expires_in: 60 });
    }
    if (pathname !== "/mcp" || request.method !== "POST") return new Response(null, { status: 404 });
    const message = (await request.json()) as { id?: number; method: string };
    const authorization = request.headers.get("authorization");
    mcpRequests.push({ method: message.method, authorization });
    if (!issued.has(authorization?.replace(/^Bearer /, "") ?? ""))
      return new Response(null, {
        status: 401,
        headers: {
          "www-authenticate": `Bearer resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`,
        },
      });
    const answer = options.mcp?.(message.method, authorization);
    if (answer !== undefined) return answer;
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
  };
  return { fetch, tokenRequests, mcpRequests };
}

/** The JWT's header, its signature checked with `publicKey`. */
async function headerOf(
  jwt: string,
  publicKey: CryptoKey,
  params: AlgorithmIdentifier | EcdsaParams | RsaPssParams,
) {
  const [header = "", payload = "", signature = ""] = jwt.split(".");
  const ok = await crypto.subtle.verify(
    params,
    publicKey,
    Buffer.from(signature, "base64url"),
    new TextEncoder().encode(`${header}.${payload}`),
  );
  return { ...(JSON.parse(Buffer.from(header, "base64url").toString()) as { alg: string }), verifies: ok };
}

const connect = (server: ReturnType<typeof fakeServer>, auth: McpAuth) =>
  connectMcp({ url: MCP_URL, fetch: server.fetch, auth, listen: false });

describe("mcpClientCredentials with a CryptoKey and no algorithm", () => {
  const rsa = { modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };
  const cases: Array<
    [
      string,
      RsaHashedKeyGenParams | EcKeyGenParams | Algorithm,
      AlgorithmIdentifier | EcdsaParams | RsaPssParams,
    ]
  > = [
    ["EdDSA", { name: "Ed25519" }, { name: "Ed25519" }],
    ["ES256", { name: "ECDSA", namedCurve: "P-256" } as EcKeyGenParams, { name: "ECDSA", hash: "SHA-256" }],
    ["ES384", { name: "ECDSA", namedCurve: "P-384" } as EcKeyGenParams, { name: "ECDSA", hash: "SHA-384" }],
    ["ES512", { name: "ECDSA", namedCurve: "P-521" } as EcKeyGenParams, { name: "ECDSA", hash: "SHA-512" }],
    ["PS384", { name: "RSA-PSS", hash: "SHA-384", ...rsa }, { name: "RSA-PSS", saltLength: 48 }],
    ["RS512", { name: "RSASSA-PKCS1-v1_5", hash: "SHA-512", ...rsa }, { name: "RSASSA-PKCS1-v1_5" }],
  ];
  for (const [algorithm, generate, verify] of cases) {
    it(`signs with ${algorithm}, the algorithm the key implies, and names the client`, async () => {
      const pair = (await crypto.subtle.generateKey(generate, false, ["sign", "verify"])) as CryptoKeyPair;
      const server = fakeServer({ methods: ["private_key_jwt"] });
      const connection = okValue(
        await connect(server, mcpClientCredentials({ clientId: "job", privateKey: pair.privateKey })),
      );
      await connection.close();
      const form = server.tokenRequests[0]?.form;
      expect(form?.get("client_id")).toBe("job");
      expect(await headerOf(form?.get("client_assertion") ?? "", pair.publicKey, verify)).toEqual({
        alg: algorithm,
        typ: "JWT",
        verifies: true,
      });
    });
  }

  it("fails as an mcp request error when the key cannot sign (a public key)", async () => {
    const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    const server = fakeServer();
    const error = failure(
      await connect(server, mcpClientCredentials({ clientId: "job", privateKey: pair.publicKey })),
    );
    expect(error._tag).toBe("RequestError");
    expect(error.provider).toBe("mcp");
    expect(server.tokenRequests).toHaveLength(0);
  });
});

describe("mcpClientCredentials options", () => {
  for (const [what, credentials] of [
    ["an empty clientId", { clientId: "", clientSecret: "pw" }],
    ["no clientId", { clientSecret: "pw" }],
    ["no credentials at all", undefined],
  ] as const) {
    it(`refuses ${what} with a ConfigError at auth.clientId, sending no token request`, async () => {
      const server = fakeServer();
      const error = failure(await connect(server, mcpClientCredentials(credentials as never)));
      expect(error._tag).toBe("ConfigError");
      expect(error.path).toBe("auth.clientId");
      expect(error.message).toBe("mcpClientCredentials needs a clientId");
      expect(server.tokenRequests).toHaveLength(0);
    });
  }

  for (const [what, credentials] of [
    ["an empty clientSecret", { clientId: "job", clientSecret: "" }],
    ["neither a clientSecret nor a privateKey", { clientId: "job" }],
  ] as const) {
    it(`refuses ${what} with a ConfigError at auth.clientSecret, sending no token request`, async () => {
      const server = fakeServer();
      const error = failure(await connect(server, mcpClientCredentials(credentials as never)));
      expect(error._tag).toBe("ConfigError");
      expect(error.path).toBe("auth.clientSecret");
      expect(error.message).toBe("mcpClientCredentials needs a clientSecret or a privateKey");
      expect(server.tokenRequests).toHaveLength(0);
    });
  }

  it("names the algorithm a PEM cannot be used for", async () => {
    const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
    ])) as CryptoKeyPair;
    const der = Buffer.from(await crypto.subtle.exportKey("pkcs8", pair.privateKey)).toString("base64");
    const pem = `-----BEGIN PRIVATE KEY-----\n${der}\n-----END PRIVATE KEY-----\n`;
    const server = fakeServer();
    const error = failure(
      await connect(server, mcpClientCredentials({ clientId: "job", privateKey: pem, algorithm: "RS256" })),
    );
    expect(error.path).toBe("auth.privateKey");
    expect(error.message).toMatch(/^mcpClientCredentials: the private key cannot be used for RS256 \(\w+\)$/);
  });

  it("sends the secret as client_secret_basic when the server lists only none", async () => {
    const server = fakeServer({ methods: ["none"] });
    const connection = okValue(
      await connect(server, mcpClientCredentials({ clientId: "job", clientSecret: "pw" })),
    );
    await connection.close();
    expect(server.tokenRequests[0]?.authorization).toBe(`Basic ${btoa("job:pw")}`);
    expect(server.tokenRequests[0]?.form.get("client_secret")).toBeNull();
  });

  it("asks for a token for the server's URL when it publishes no resource metadata", async () => {
    const server = fakeServer({ metadata: false });
    const connection = okValue(
      await connect(server, mcpClientCredentials({ clientId: "job", clientSecret: "pw" })),
    );
    await connection.close();
    expect(server.tokenRequests[0]?.form.get("resource")).toBe(MCP_URL);
  });
});

describe("mcpClientCredentials tokens", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps a token until 30 s before it expires, then asks for a new one", async () => {
    const start = Date.UTC(2030, 0, 1);
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    const server = fakeServer();
    const connection = okValue(
      await connect(server, mcpClientCredentials({ clientId: "job", clientSecret: "pw" })),
    );
    try {
      expect(server.tokenRequests).toHaveLength(1); // expires_in 60: expires at start + 60 s
      vi.setSystemTime(start + 30_000);
      okValue(await connection.refreshTools());
      expect(server.tokenRequests).toHaveLength(1);
      expect(server.mcpRequests.at(-1)).toEqual({ method: "tools/list", authorization: "Bearer cc-1" });
      vi.setSystemTime(start + 30_001);
      okValue(await connection.refreshTools());
      expect(server.tokenRequests).toHaveLength(2);
      expect(server.mcpRequests.at(-1)).toEqual({ method: "tools/list", authorization: "Bearer cc-2" });
    } finally {
      await connection.close();
    }
  });

  it("asks for a new token with the scope a 403 insufficient_scope names, and sends the request again", async () => {
    let refusals = 0;
    const server = fakeServer({
      mcp: (method) =>
        method === "tools/list" && refusals++ === 0
          ? new Response(null, {
              status: 403,
              headers: { "www-authenticate": 'Bearer error="insufficient_scope", scope="admin"' },
            })
          : undefined,
    });
    const connection = okValue(
      await connect(server, mcpClientCredentials({ clientId: "job", clientSecret: "pw" })),
    );
    await connection.close();
    expect(server.tokenRequests.map((request) => request.form.get("scope"))).toEqual([null, "admin"]);
  });

  it("lets a 403 stand whose insufficient_scope is not in a Bearer challenge: no new token, not sent again", async () => {
    const server = fakeServer({
      mcp: (method) =>
        method === "tools/list"
          ? new Response(null, {
              status: 403,
              headers: { "www-authenticate": 'DPoP error="insufficient_scope"' },
            })
          : undefined,
    });
    const error = failure(
      await connect(server, mcpClientCredentials({ clientId: "job", clientSecret: "pw" })),
    );
    expect(error._tag).toBe("ProviderError");
    expect(error.status).toBe(403);
    expect(server.tokenRequests).toHaveLength(1);
    expect(server.mcpRequests.filter((request) => request.method === "tools/list")).toHaveLength(1);
  });
});
