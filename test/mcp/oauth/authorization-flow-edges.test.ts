/**
 * Starting an authorization (src/mcp/oauth/authorization-flow.ts) against a fake network: a server that
 * publishes no metadata (2025-03-26) is sent to its origin's `/authorize` with its URL, without the
 * fragment, as `resource`; an authorization server that does not list PKCE S256 is refused.
 */
import { describe, expect, it } from "vitest";
import { type FlowContext, startAuthorization } from "../../../src/mcp/oauth/authorization-flow.ts";
import { memoryAuthStorage } from "../../../src/mcp/oauth/storage.ts";
import { rejection } from "../../support/results.ts";

/** A context whose network answers each URL in `answers` with that JSON, else 404, and records the URLs. */
function context(url: string, answers: Record<string, unknown>): FlowContext & { sent: string[] } {
  const sent: string[] = [];
  const fetch = (async (input: RequestInfo | URL) => {
    sent.push(String(input));
    return String(input) in answers
      ? Response.json(answers[String(input)])
      : new Response("not found", { status: 404 });
  }) as typeof globalThis.fetch;
  return {
    options: { redirectUrl: "http://127.0.0.1:9/callback", client: { clientId: "pre" } },
    storage: memoryAuthStorage(),
    url,
    fetch,
    signal: new AbortController().signal,
    sent,
  };
}

describe("startAuthorization", () => {
  it("sends a server without metadata to its origin's /authorize, naming its URL without the fragment as resource", async () => {
    const flow = context("https://mcp.example/mcp#part", {});
    const url = new URL(await startAuthorization({}, flow));
    expect(`${url.origin}${url.pathname}`).toBe("https://mcp.example/authorize");
    expect(url.searchParams.get("resource")).toBe("https://mcp.example/mcp");
    expect(url.searchParams.get("client_id")).toBe("pre");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
  });

  it("refuses an authorization server that does not list PKCE S256 with pkce_unsupported", async () => {
    const flow = context("https://mcp.example/mcp", {
      "https://mcp.example/.well-known/oauth-protected-resource/mcp": {
        resource: "https://mcp.example/mcp",
        authorization_servers: ["https://as.example"],
      },
      "https://as.example/.well-known/oauth-authorization-server": {
        issuer: "https://as.example",
        authorization_endpoint: "https://as.example/authorize",
        token_endpoint: "https://as.example/token",
        code_challenge_methods_supported: ["plain"],
      },
    });
    const error = await rejection(startAuthorization({}, flow));
    expect(error).toMatchObject({ _tag: "ProviderError", code: "AUTH", providerCode: "pkce_unsupported" });
    expect(error.message).toBe(
      "The authorization server does not say it supports PKCE with S256 (code_challenge_methods_supported), which MCP requires",
    );
  });
});
