/**
 * How an MCP server's HTTP error status, redirect and JSON-RPC error become SdkErrors: the code each
 * status and JSON-RPC code means, whether it is worth retrying, the wait the server asked for, where a
 * redirect points and the error's data.
 */
import { describe, expect, it } from "vitest";
import { httpFailure, protocolFailure, redirected, rpcFailure } from "../../src/mcp/mcp-failures.ts";

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

  it("says the status, the detail and the request in its message, and no detail for an empty body", () => {
    const failure = (status: number, body: string) =>
      httpFailure(new Response(null, { status }), body, request);
    expect(failure(500, "").message).toBe("The MCP server answered 500 (POST https://mcp.example.com/mcp)");
    expect(failure(502, "upstream down").message).toBe(
      "The MCP server answered 502: upstream down (POST https://mcp.example.com/mcp)",
    );
  });

  it("cuts a text body to its first 300 characters in the message", () => {
    const body = `${"a".repeat(300)}${"b".repeat(100)}`;
    const error = httpFailure(new Response(null, { status: 500 }), body, request);
    expect(error.message).toBe(
      `The MCP server answered 500: ${"a".repeat(300)} (POST https://mcp.example.com/mcp)`,
    );
  });

  it("reads a JSON-RPC error in the body: its message is the detail and its code the providerCode", () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32600, message: "bad batch" } });
    const error = httpFailure(new Response(null, { status: 400 }), body, request);
    expect(error.message).toBe("The MCP server answered 400: bad batch (POST https://mcp.example.com/mcp)");
    expect(error).toMatchObject({ code: "INVALID_REQUEST", providerCode: "-32600" });
  });

  it("has no providerCode when the body holds no JSON-RPC error code", () => {
    const failure = (body: string) => httpFailure(new Response(null, { status: 500 }), body, request);
    expect(failure("").providerCode).toBeUndefined();
    expect(failure("not json").providerCode).toBeUndefined();
    expect(failure(JSON.stringify({ error: { code: "-1", message: "no" } })).providerCode).toBeUndefined();
  });

  it("carries the wait the server asked for, and none when it asked for none", () => {
    const limited = new Response(null, { status: 429, headers: { "retry-after": "2" } });
    expect(httpFailure(limited, "", request).retryAfterMs).toBe(2000);
    expect(httpFailure(new Response(null, { status: 429 }), "", request).retryAfterMs).toBeUndefined();
  });
});

describe("a redirect", () => {
  it("without a location (as a browser's opaque redirect shows it) names no target", () => {
    const error = redirected(new Response(null, { status: 307 }), request);
    expect(error.message).toMatch(
      /^The MCP server answered with a redirect \(POST https:\/\/mcp\.example\.com\/mcp\); Wisp does not follow it/,
    );
  });

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
    [-32600, "INVALID_REQUEST"],
    [-32602, "INVALID_REQUEST"],
    [-32700, "INVALID_REQUEST"],
    [-32001, "TIMEOUT"],
    [-32002, "NOT_FOUND"],
    [-32601, "NOT_FOUND"],
    [-32603, "SERVER_ERROR"],
    [32001, "UNKNOWN"],
    [32002, "UNKNOWN"],
    [-32000, "UNKNOWN"],
  ])("with code %i is a ProviderError %s carrying the code", (code, expected) => {
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

describe("an answer that is not MCP", () => {
  it("is a ParseError not worth retrying, naming the request", () => {
    expect(protocolFailure("The MCP server sent nothing", request)).toMatchObject({
      _tag: "ParseError",
      code: "STREAM_MALFORMED",
      retryable: false,
      provider: "mcp",
      message: "The MCP server sent nothing (POST https://mcp.example.com/mcp)",
    });
  });
});
