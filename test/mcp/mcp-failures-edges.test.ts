/**
 * How an MCP server's HTTP error status, redirect and JSON-RPC error become SdkErrors: the code each
 * status and JSON-RPC code means, whether it is worth retrying, the wait the server asked for, where a
 * redirect points and the error's data.
 */
import { describe, expect, it } from "vitest";
import { httpFailure, redirected, rpcFailure } from "../../src/mcp/mcp-failures.ts";

const request = { method: "POST", url: "https://mcp.example.com/mcp" };

describe("an HTTP error answer", () => {
  it.each([
    [400, "INVALID_REQUEST", false],
    [401, "AUTH", false],
    [403, "PERMISSION", false],
    [404, "NOT_FOUND", false],
    [409, "CONFLICT", false],
    [413, "REQUEST_TOO_LARGE", false],
    [418, "UNKNOWN", false],
    [422, "INVALID_REQUEST", false],
    [429, "RATE_LIMITED", true],
    [499, "UNKNOWN", false],
    [500, "SERVER_ERROR", true],
    [502, "SERVER_ERROR", true],
    [503, "OVERLOADED", true],
    [529, "OVERLOADED", true],
  ])("of status %i is a %s ProviderError (retryable: %s)", (status, code, retryable) => {
    const error = httpFailure(new Response(null, { status }), "", request);
    expect(error).toMatchObject({ _tag: "ProviderError", code, status, retryable, provider: "mcp" });
  });

  it("carries the wait the server asked for, and none when it asked for none", () => {
    const limited = new Response(null, { status: 429, headers: { "retry-after": "2" } });
    expect(httpFailure(limited, "", request).retryAfterMs).toBe(2000);
    expect(httpFailure(new Response(null, { status: 429 }), "", request).retryAfterMs).toBeUndefined();
  });
});

describe("a redirect", () => {
  it("says where it points, or that it points to an address that is not a URL", () => {
    const to = (location: string) =>
      redirected(new Response(null, { status: 307, headers: { location } }), request).message;
    expect(to("/other")).toContain("redirect to https://mcp.example.com/other (POST");
    expect(to("http://[not-a-host")).toContain(
      "The MCP server answered with a redirect to an address that is not a URL (POST https://mcp.example.com/mcp)",
    );
  });
});

describe("a JSON-RPC error answer", () => {
  it.each([
    [-32001, "TIMEOUT"],
    [-32002, "NOT_FOUND"],
    [-32601, "NOT_FOUND"],
    [-32603, "SERVER_ERROR"],
    [32001, "UNKNOWN"],
    [32002, "UNKNOWN"],
    [-32000, "UNKNOWN"],
  ])("with code %i is a %s ProviderError carrying the code", (code, expected) => {
    const error = rpcFailure({ code, message: "no" }, "tools/call", request);
    expect(error).toMatchObject({ code: expected, providerCode: String(code), retryable: false });
  });

  it("keeps the error's data in details, and has no details without data", () => {
    const data = { uri: "file:///missing" };
    const withData = rpcFailure({ code: -32002, message: "not found", data }, "resources/read", request);
    expect(withData.details).toEqual({ data });
    expect(
      rpcFailure({ code: -32002, message: "not found" }, "resources/read", request).details,
    ).toBeUndefined();
  });
});
