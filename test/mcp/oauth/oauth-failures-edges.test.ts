/**
 * OAuth failures (src/mcp/oauth/oauth-failures.ts): an AUTH ProviderError is never retryable, and an
 * OAuth error answer's code and description are cut short.
 */
import { describe, expect, it } from "vitest";
import { authFailure, oauthErrorOf } from "../../../src/mcp/oauth/oauth-failures.ts";

describe("authFailure", () => {
  it("is a ProviderError AUTH that is not retryable", () => {
    expect(authFailure("refused", "invalid_grant")).toMatchObject({
      _tag: "ProviderError",
      code: "AUTH",
      retryable: false,
      providerCode: "invalid_grant",
    });
  });
});

describe("oauthErrorOf", () => {
  it("cuts the error to 100 characters and the description to 200", () => {
    const body = JSON.stringify({ error: "e".repeat(150), error_description: "d".repeat(300) });
    expect(oauthErrorOf(body)).toEqual({ error: "e".repeat(100), description: "d".repeat(200) });
  });
});
