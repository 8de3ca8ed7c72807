/**
 * Which refusals the transport hands to `auth.refused` (isAuthRefusal): a 403 whose challenge says
 * `error="insufficient_scope"` however the parameter is written (quoted or a token, with spaces
 * around `=`), and no other status, whatever its challenge says.
 */
import { describe, expect, it } from "vitest";
import { isAuthRefusal } from "../../src/mcp/mcp-auth.ts";

const refusal = (status: number, challenge: string) =>
  new Response(null, { status, headers: { "www-authenticate": challenge } });

describe("isAuthRefusal", () => {
  it.each([
    'Bearer error="insufficient_scope", scope="admin"',
    "Bearer error=insufficient_scope, scope=admin",
    'Bearer scope="admin", error = "insufficient_scope"',
    'Bearer realm="mcp",error=insufficient_scope',
    'error="insufficient_scope", scope="admin"',
  ])("answers a 403 with the challenge %s", (challenge) => {
    expect(isAuthRefusal(refusal(403, challenge))).toBe(true);
  });

  it("leaves a 403 for another reason, and any status but 401 and 403, to stand", () => {
    expect(isAuthRefusal(refusal(403, 'Bearer error="invalid_token"'))).toBe(false);
    expect(isAuthRefusal(new Response(null, { status: 403 }))).toBe(false);
    for (const status of [400, 404, 500])
      expect(isAuthRefusal(refusal(status, 'Bearer error="insufficient_scope", scope="admin"'))).toBe(false);
    expect(isAuthRefusal(new Response(null, { status: 401 }))).toBe(true);
  });
});
