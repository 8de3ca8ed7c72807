/**
 * `private_key_jwt` client authentication (RFC 7523 §2.2, OpenID Connect Core §9): a short-lived JWT
 * signed by WebCrypto with the client's private key (PKCS#8 PEM or a CryptoKey), sent as
 * `client_assertion`.
 *
 * @module
 */

import { base64UrlOfBytes, base64UrlOfText, bytesOfBase64 } from "./base64url.ts";
import { randomToken } from "./pkce.ts";

/** The JWS algorithms Wisp signs client assertions with. */
export type JwtAlgorithm =
  | "ES256"
  | "ES384"
  | "ES512"
  | "RS256"
  | "RS384"
  | "RS512"
  | "PS256"
  | "PS384"
  | "PS512"
  | "EdDSA";

/** The `client_assertion_type` of a JWT client assertion. */
export const JWT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/** How long an assertion is valid, in seconds. */
const LIFETIME_SECONDS = 300;

interface AlgorithmSpec {
  importParams: Parameters<typeof crypto.subtle.importKey>[2];
  /** WebCrypto signs ECDSA in the raw r‖s form JWS wants, so no conversion is needed. */
  signParams: Parameters<typeof crypto.subtle.sign>[0];
}

function specOf(algorithm: JwtAlgorithm): AlgorithmSpec {
  const bits = algorithm.slice(2);
  if (algorithm === "EdDSA") return { importParams: { name: "Ed25519" }, signParams: { name: "Ed25519" } };
  if (algorithm.startsWith("ES")) {
    const namedCurve = bits === "512" ? "P-521" : `P-${bits}`;
    return {
      importParams: { name: "ECDSA", namedCurve },
      signParams: { name: "ECDSA", hash: `SHA-${bits}` },
    };
  }
  if (algorithm.startsWith("PS"))
    return {
      importParams: { name: "RSA-PSS", hash: `SHA-${bits}` },
      signParams: { name: "RSA-PSS", saltLength: Number(bits) / 8 },
    };
  return {
    importParams: { name: "RSASSA-PKCS1-v1_5", hash: `SHA-${bits}` },
    signParams: { name: "RSASSA-PKCS1-v1_5" },
  };
}

/** The DER bytes of a PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`); throws a TypeError for anything else. */
function pkcs8Of(pem: string): Uint8Array<ArrayBuffer> {
  const match = /-----BEGIN PRIVATE KEY-----([\s\S]+?)-----END PRIVATE KEY-----/.exec(pem);
  if (match === null)
    throw new TypeError("The private key is not a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)");
  return bytesOfBase64(match[1] ?? "");
}

/** Imports a PKCS#8 PEM private key for signing with `algorithm` (not extractable). */
export async function importSigningKey(pem: string, algorithm: JwtAlgorithm): Promise<CryptoKey> {
  return crypto.subtle.importKey("pkcs8", pkcs8Of(pem), specOf(algorithm).importParams, false, ["sign"]);
}

/** What a client assertion says: who the client is and which authorization server it is for. */
export interface AssertionClaims {
  /** The client id: `iss` and `sub`. */
  clientId: string;
  /** The authorization server: its issuer URL (or its token endpoint). */
  audience: string;
}

/** A signed JWT client assertion: `iss` = `sub` = the client id, `aud`, `iat`, `exp` (5 minutes), `jti`. */
export async function signClientAssertion(
  key: CryptoKey,
  algorithm: JwtAlgorithm,
  claims: AssertionClaims,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const header = base64UrlOfText(JSON.stringify({ alg: algorithm, typ: "JWT" }));
  const payload = base64UrlOfText(
    JSON.stringify({
      iss: claims.clientId,
      sub: claims.clientId,
      aud: claims.audience,
      iat: now,
      exp: now + LIFETIME_SECONDS,
      jti: randomToken(16),
    }),
  );
  const signingInput = `${header}.${payload}`;
  const signature = await crypto.subtle.sign(
    specOf(algorithm).signParams,
    key,
    new TextEncoder().encode(signingInput),
  );
  return `${signingInput}.${base64UrlOfBytes(new Uint8Array(signature))}`;
}
