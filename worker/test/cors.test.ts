/**
 * CORS on the API, with ALLOWED_ORIGINS set: a listed origin gets its preflight answered (204, the
 * methods and headers the API takes, a max-age) and its real requests answered with
 * Access-Control-Allow-Origin naming it, whichever entry of the comma list it is; an origin not listed
 * (one that merely starts like a listed one included) gets no CORS header, and with no list nobody does.
 * The app is called as the deployed Worker would be, with the env the test gives.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../app.ts";

const app = createApp();

const LISTED = "https://app.example";
const ALSO_LISTED = "https://tools.example:8443";

/** Calls the app with ALLOWED_ORIGINS as given (the test config sets none). */
function request(path: string, init: RequestInit, allowedOrigins?: string): Promise<Response> {
  const bindings = { ...env, ALLOWED_ORIGINS: allowedOrigins };
  return Promise.resolve(app.fetch(new Request(`http://demo.test${path}`, init), bindings));
}

const LIST = ` ${LISTED} , ${ALSO_LISTED}`;

/** A browser's preflight for a JSON POST with a token. */
function preflight(origin: string): RequestInit {
  return {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type, authorization",
    },
  };
}

describe("CORS for a listed origin", () => {
  it.each([LISTED, ALSO_LISTED])("%s: a preflight is answered with what the API allows", async (origin) => {
    const response = await request("/api/sessions", preflight(origin), LIST);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    expect(response.headers.get("access-control-allow-methods")).toBe("GET,POST,DELETE");
    expect(response.headers.get("access-control-allow-headers")).toBe("content-type,authorization");
    expect(response.headers.get("access-control-max-age")).toBe("600");
    expect(response.headers.get("vary")?.toLowerCase()).toContain("origin");
  });

  it("a real GET and a real POST are answered and readable by that origin", async () => {
    const info = await request("/api/info", { headers: { origin: LISTED } }, LIST);
    expect(info.status).toBe(200);
    expect(info.headers.get("access-control-allow-origin")).toBe(LISTED);
    expect(info.headers.get("vary")?.toLowerCase()).toContain("origin");
    expect(await info.json()).toMatchObject({ scripted: true });

    const created = await request(
      "/api/sessions",
      { method: "POST", headers: { origin: ALSO_LISTED, "cf-connecting-ip": "192.0.2.90" } },
      LIST,
    );
    expect(created.status).toBe(201);
    expect(created.headers.get("access-control-allow-origin")).toBe(ALSO_LISTED);
    expect(await created.json()).toMatchObject({ sessionId: expect.any(String), token: expect.any(String) });
  });

  it("an error answer to a listed origin is readable too (so the page can show it)", async () => {
    const response = await request("/api/sessions/nope/export", { headers: { origin: LISTED } }, LIST);
    expect(response.status).toBe(401);
    expect(response.headers.get("access-control-allow-origin")).toBe(LISTED);
  });
});

describe("CORS for any other origin", () => {
  it.each([
    ["an unlisted site", "https://evil.example"],
    ["a listed origin's look-alike", "https://app.example.evil.example"],
    ["a listed host on another scheme", "http://app.example"],
    ["a listed host on another port", "https://tools.example"],
    ["an opaque origin", "null"],
  ])("%s gets no CORS header, on a preflight or a real request", async (_name, origin) => {
    const refused = await request("/api/sessions", preflight(origin), LIST);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    const plain = await request("/api/info", { headers: { origin } }, LIST);
    expect(plain.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("with ALLOWED_ORIGINS unset or empty, no origin is allowed", async () => {
    for (const list of [undefined, "", " , "]) {
      const response = await request("/api/info", { headers: { origin: LISTED } }, list);
      expect(response.status).toBe(200);
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
    }
  });
});

describe("CORS on the MCP server", () => {
  it("a listed origin's preflight is answered, and its POST is readable, with the MCP headers allowed", async () => {
    const pre = await request(
      "/mcp",
      {
        method: "OPTIONS",
        headers: {
          origin: LISTED,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type, mcp-session-id, mcp-protocol-version",
        },
      },
      LIST,
    );
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe(LISTED);
    expect(pre.headers.get("access-control-allow-headers")).toContain("mcp-session-id");
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    const post = await request(
      "/mcp",
      {
        method: "POST",
        headers: {
          origin: LISTED,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body,
      },
      LIST,
    );
    expect(post.status).toBe(200);
    expect(post.headers.get("access-control-allow-origin")).toBe(LISTED);
  });

  it("an origin not listed gets no CORS header on the preflight and is refused on the POST", async () => {
    const pre = await request("/mcp", preflight("https://evil.example"), LIST);
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    const post = await request(
      "/mcp",
      {
        method: "POST",
        headers: { origin: "https://evil.example", "content-type": "application/json" },
        body: "{}",
      },
      LIST,
    );
    expect(post.status).toBe(403);
  });
});
