/**
 * Reading the Bearer challenge out of a `WWW-Authenticate` header that carries more than one
 * challenge (RFC 9110 §11.6.1): the Bearer one found after another scheme, another scheme's
 * parameters before it not taken for its own, the first value of each parameter kept, parameters Wisp
 * does not use ignored, and quoted-pairs in a quoted value unescaped.
 */
import { describe, expect, it } from "vitest";
import { readBearerChallenge } from "../../../src/mcp/oauth/www-authenticate.ts";

const METADATA = "https://notes.example/.well-known/oauth-protected-resource/mcp";

describe("readBearerChallenge with several challenges", () => {
  it("finds the Bearer challenge after another scheme's", () => {
    expect(
      readBearerChallenge(`Basic realm="notes", Bearer resource_metadata="${METADATA}", scope="notes"`),
    ).toEqual({ resourceMetadata: METADATA, scope: "notes" });
  });

  it("does not take the parameters of a challenge before the Bearer one for its own", () => {
    expect(
      readBearerChallenge(
        'DPoP algs="ES256", error="invalid_dpop_proof", scope="admin", Bearer error="insufficient_scope", scope="notes"',
      ),
    ).toEqual({ error: "insufficient_scope", scope: "notes" });
  });

  it("keeps the Bearer challenge's values when a later challenge names the same parameters", () => {
    expect(
      readBearerChallenge(
        `Bearer resource_metadata="${METADATA}", scope="notes", error="insufficient_scope", Other realm="x", resource_metadata="https://other.example/prm", scope="other", error="other_error"`,
      ),
    ).toEqual({ resourceMetadata: METADATA, scope: "notes", error: "insufficient_scope" });
  });

  it("ignores parameters it does not use, before or after the ones it reads", () => {
    expect(readBearerChallenge('Bearer realm="mcp", scope="notes", charset="UTF-8"')).toEqual({
      scope: "notes",
    });
    expect(readBearerChallenge('Bearer error="invalid_token", realm="mcp"')).toEqual({
      error: "invalid_token",
    });
  });
});

describe("readBearerChallenge with quoted values", () => {
  it("unescapes quoted-pairs (RFC 9110 §5.6.4)", () => {
    expect(readBearerChallenge('Bearer scope="files\\:read notes", error="insufficient\\_scope"')).toEqual({
      scope: "files:read notes",
      error: "insufficient_scope",
    });
  });
});
