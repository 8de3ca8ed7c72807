/**
 * JWT client assertions (src/mcp/oauth/jwt-assertion.ts) with the algorithms the connection tests leave
 * out: ES256/384/512 (P-521 for ES512) and PS256/384/512 (RSA-PSS, salt the hash's length), each
 * verified with the public key; the header's `typ`, `iat` in seconds, a key that is not extractable,
 * and the TypeError for a key that is not PKCS#8.
 */
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  importSigningKey,
  type JwtAlgorithm,
  signClientAssertion,
} from "../../../src/mcp/oauth/jwt-assertion.ts";

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });

function pairFor(algorithm: JwtAlgorithm) {
  if (algorithm.startsWith("PS")) return rsa;
  const curve = { ES256: "prime256v1", ES384: "secp384r1", ES512: "secp521r1" }[algorithm as "ES256"];
  return generateKeyPairSync("ec", { namedCurve: curve });
}

/** How the public key is imported and the signature verified, as a JWS verifier does (RFC 7518 §3). */
function verifierOf(algorithm: JwtAlgorithm): {
  importParams: RsaHashedImportParams | EcKeyImportParams;
  verifyParams: RsaPssParams | EcdsaParams;
} {
  const bits = Number(algorithm.slice(2));
  if (algorithm.startsWith("PS"))
    return {
      importParams: { name: "RSA-PSS", hash: `SHA-${bits}` },
      verifyParams: { name: "RSA-PSS", saltLength: bits / 8 },
    };
  return {
    importParams: { name: "ECDSA", namedCurve: bits === 512 ? "P-521" : `P-${bits}` },
    verifyParams: { name: "ECDSA", hash: `SHA-${bits}` },
  };
}

function decoded(part: string | undefined): Record<string, unknown> {
  return JSON.parse(Buffer.from(part ?? "", "base64url").toString()) as Record<string, unknown>;
}

describe("signClientAssertion", () => {
  for (const algorithm of ["ES256", "ES384", "ES512", "PS256", "PS384", "PS512"] as const) {
    it(`signs with ${algorithm} a JWT that verifies with the public key`, async () => {
      const pair = pairFor(algorithm);
      const pem = pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
      const key = await importSigningKey(pem, algorithm);
      const before = Math.floor(Date.now() / 1000);
      const jwt = await signClientAssertion(key, algorithm, {
        clientId: "job",
        audience: "https://as.example",
      });
      const after = Math.floor(Date.now() / 1000);

      const [header, payload, signature] = jwt.split(".");
      const { importParams, verifyParams } = verifierOf(algorithm);
      const publicKey = await crypto.subtle.importKey(
        "spki",
        pair.publicKey.export({ type: "spki", format: "der" }),
        importParams,
        false,
        ["verify"],
      );
      const verifies = await crypto.subtle.verify(
        verifyParams,
        publicKey,
        Buffer.from(signature ?? "", "base64url"),
        new TextEncoder().encode(`${header}.${payload}`),
      );
      expect(verifies).toBe(true);
      expect(decoded(header)).toEqual({ alg: algorithm, typ: "JWT" });
      const claims = decoded(payload);
      expect(claims).toMatchObject({ iss: "job", sub: "job", aud: "https://as.example" });
      expect(claims.iat).toBeGreaterThanOrEqual(before);
      expect(claims.iat).toBeLessThanOrEqual(after);
    });
  }
});

describe("importSigningKey", () => {
  it("imports a key that cannot be exported again", async () => {
    const pem = rsa.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const key = await importSigningKey(pem, "PS256");
    expect(key.extractable).toBe(false);
    expect(key.usages).toEqual(["sign"]);
  });

  it("refuses a key that is not a PKCS#8 PEM with a TypeError saying what it wants", async () => {
    const pkcs1 = rsa.privateKey.export({ type: "pkcs1", format: "pem" }).toString();
    await expect(importSigningKey(pkcs1, "RS256")).rejects.toThrow(
      new TypeError("The private key is not a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)"),
    );
  });
});
