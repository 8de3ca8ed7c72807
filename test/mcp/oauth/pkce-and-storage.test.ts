/**
 * The small pieces under `mcpOAuth`: PKCE S256 (RFC 7636's own example, and fresh pairs checked with
 * node:crypto), base64url, the Bearer challenge reader, the token endpoint authentication choice, and
 * the storage contract with its per-server keys.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { memoryAuthStorage } from "../../../src/mcp/index.ts";
import { base64OfText, base64UrlOfBytes, bytesOfBase64 } from "../../../src/mcp/oauth/base64url.ts";
import { applyClientAuth, chooseAuthMethod } from "../../../src/mcp/oauth/client-auth.ts";
import { resourceCovers } from "../../../src/mcp/oauth/discovery.ts";
import { createPkce, s256Challenge } from "../../../src/mcp/oauth/pkce.ts";
import { chooseScope } from "../../../src/mcp/oauth/scope-choice.ts";
import { storageKey } from "../../../src/mcp/oauth/storage.ts";
import { readBearerChallenge } from "../../../src/mcp/oauth/www-authenticate.ts";

describe("PKCE", () => {
  it("computes RFC 7636's example challenge (Appendix B)", async () => {
    expect(await s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });

  it("makes fresh 43-character verifiers whose challenge is their SHA-256 in base64url", async () => {
    const pairs = await Promise.all(Array.from({ length: 20 }, () => createPkce()));
    expect(new Set(pairs.map((pair) => pair.verifier)).size).toBe(20);
    for (const pair of pairs) {
      expect(pair.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(pair.method).toBe("S256");
      expect(pair.challenge).toBe(createHash("sha256").update(pair.verifier).digest("base64url"));
    }
  });

  it("encodes base64url without padding and base64 as btoa does, for every byte", () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    expect(base64UrlOfBytes(bytes)).toBe(Buffer.from(bytes).toString("base64url"));
    expect([...bytesOfBase64(Buffer.from(bytes).toString("base64"))]).toEqual([...bytes]);
    expect(base64OfText("client:sé cret")).toBe(Buffer.from("client:sé cret").toString("base64"));
  });
});

describe("the Bearer challenge", () => {
  it("reads resource_metadata, scope and error, quoted or not, in any order", () => {
    expect(
      readBearerChallenge(
        'Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x.example/.well-known/oauth-protected-resource/mcp"',
      ),
    ).toEqual({
      error: "insufficient_scope",
      scope: "a b",
      resourceMetadata: "https://x.example/.well-known/oauth-protected-resource/mcp",
    });
    expect(readBearerChallenge("Bearer realm=mcp, error=invalid_token")).toEqual({ error: "invalid_token" });
    expect(readBearerChallenge('Basic realm="x"')).toEqual({});
    expect(readBearerChallenge(null)).toEqual({});
  });
});

describe("choices", () => {
  it("asks for the challenge's scope, else the app's, else scopes_supported, else none; offline_access only when listed", () => {
    expect(chooseScope("a", "b", ["c"], undefined)).toBe("a");
    expect(chooseScope(undefined, "b", ["c"], undefined)).toBe("b");
    expect(chooseScope(undefined, undefined, ["c", "d"], ["c"])).toBe("c d");
    expect(chooseScope(undefined, undefined, undefined, ["offline_access"])).toBeUndefined();
    expect(chooseScope("a", undefined, undefined, ["a", "offline_access"])).toBe("a offline_access");
    expect(chooseScope("a offline_access", undefined, undefined, ["offline_access"])).toBe(
      "a offline_access",
    );
  });

  it("authenticates at the token endpoint as the registration says, else by what the server supports", () => {
    const secret = { clientId: "id", clientSecret: "s" };
    expect(chooseAuthMethod({ ...secret, tokenEndpointAuthMethod: "client_secret_post" }, undefined)).toBe(
      "client_secret_post",
    );
    expect(chooseAuthMethod(secret, ["client_secret_post"])).toBe("client_secret_post");
    expect(chooseAuthMethod(secret, ["client_secret_basic", "client_secret_post"])).toBe(
      "client_secret_basic",
    );
    expect(chooseAuthMethod({ clientId: "id" }, ["client_secret_basic"])).toBe("none");

    const headers = new Headers();
    const body = new URLSearchParams();
    applyClientAuth("client_secret_basic", { clientId: "a b", clientSecret: "p:w" }, headers, body);
    expect(headers.get("authorization")).toBe(`Basic ${btoa("a+b:p%3Aw")}`);
    expect(body.has("client_secret")).toBe(false);
  });

  it("takes a resource that is the server's URL or a parent path on its origin, and nothing else", () => {
    expect(resourceCovers("https://x.example/mcp", "https://x.example/mcp")).toBe(true);
    expect(resourceCovers("https://x.example", "https://x.example/mcp")).toBe(true);
    expect(resourceCovers("https://x.example/other", "https://x.example/mcp")).toBe(false);
    expect(resourceCovers("https://x.example/mc", "https://x.example/mcp")).toBe(false);
    expect(resourceCovers("https://evil.example/mcp", "https://x.example/mcp")).toBe(false);
  });
});

describe("memoryAuthStorage", () => {
  it("keeps JSON values by key, hands out copies, and deletes (also keys that are not there)", async () => {
    const storage = memoryAuthStorage();
    expect(await storage.get("k")).toBeUndefined();
    const value = { tokens: { accessToken: "a" }, list: [1, "x", null, true] };
    await storage.set("k", value);
    const read = (await storage.get("k")) as typeof value;
    expect(read).toEqual(value);
    read.tokens.accessToken = "changed";
    value.list.push(2);
    expect(await storage.get("k")).toEqual({ tokens: { accessToken: "a" }, list: [1, "x", null, true] });
    await storage.delete("k");
    await storage.delete("missing");
    expect(await storage.get("k")).toBeUndefined();
  });

  it("keeps separate memories for separate storages", async () => {
    const one = memoryAuthStorage();
    await one.set("k", 1);
    expect(await memoryAuthStorage().get("k")).toBeUndefined();
  });

  it("namespaces keys by the server's URL (without its fragment), and a registration by its issuer too", () => {
    expect(storageKey("tokens", "https://a.example/mcp#x")).toBe(
      storageKey("tokens", "https://a.example/mcp"),
    );
    expect(storageKey("tokens", "https://a.example/mcp")).not.toBe(
      storageKey("tokens", "https://b.example/mcp"),
    );
    expect(storageKey("tokens", "https://a.example/mcp")).not.toBe(
      storageKey("pending", "https://a.example/mcp"),
    );
    expect(storageKey("client", "https://a.example/mcp", "https://as1")).not.toBe(
      storageKey("client", "https://a.example/mcp", "https://as2"),
    );
  });
});
