/**
 * Creating and importing sessions is limited per client (its CF-Connecting-IP, an IPv6 client by its
 * /64): the default lets 20 through at once, then answers 429 RATE_LIMITED with Retry-After. The
 * vitest config lifts the limit for the other route tests; these call the app with the default.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import {
  clientKey,
  DEFAULT_CREATE_RATE_LIMIT,
  DEFAULT_MCP_RATE_LIMIT,
  parseRate,
} from "../client-limiter.ts";
import { json } from "./api.ts";

const app = createApp();

/** Calls the app as the deployed Worker would, with the default limit, from `address`. */
function fromClient(
  address: string,
  path: string,
  init: RequestInit = { method: "POST" },
): Promise<Response> {
  const request = new Request(`http://demo.test${path}`, init);
  request.headers.set("cf-connecting-ip", address);
  return Promise.resolve(app.fetch(request, { ...env, CREATE_RATE_LIMIT: undefined }));
}

const emptyState = {
  version: 1,
  sessionId: "imported",
  createdAt: 1,
  updatedAt: 1,
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  parameters: {},
  messages: [],
  usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
  turns: 0,
  queue: [],
  metadata: {},
};

describe("the creation rate limit", () => {
  it("lets 20 new sessions through, then answers 429 with Retry-After; other clients are not affected", async () => {
    const { count } = parseRate(DEFAULT_CREATE_RATE_LIMIT);
    expect(count).toBe(20);
    const statuses: number[] = [];
    for (let index = 0; index < count; index++) {
      statuses.push((await fromClient("203.0.113.7", "/api/sessions")).status);
    }
    expect(statuses).toEqual(Array(count).fill(201));

    const refused = await fromClient("203.0.113.7", "/api/sessions");
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);
    expect(await refused.json()).toMatchObject({ error: { code: "RATE_LIMITED" } });
    expect(refused.headers.get("cache-control")).toBe("no-store");

    // An import counts against the same budget.
    const imported = await fromClient("203.0.113.7", "/api/sessions/import", json("POST", emptyState));
    expect(imported.status).toBe(429);

    // Another client still gets through, by import too.
    expect((await fromClient("203.0.113.8", "/api/sessions")).status).toBe(201);
    expect((await fromClient("203.0.113.8", "/api/sessions/import", json("POST", emptyState))).status).toBe(
      201,
    );
  });

  it("counts an IPv6 client by its /64, so rotating the interface id does not help", async () => {
    for (let index = 0; index < 20; index++) {
      const response = await fromClient(`2001:db8:aa:bb::${index.toString(16)}`, "/api/sessions");
      expect(response.status).toBe(201);
    }
    expect((await fromClient("2001:db8:aa:bb:ffff:1:2:3", "/api/sessions")).status).toBe(429);
    expect((await fromClient("2001:db8:aa:bc::1", "/api/sessions")).status).toBe(201);
  });

  it("does not limit reading, or the routes of an existing session", async () => {
    for (let index = 0; index < 25; index++) {
      expect((await fromClient("198.51.100.1", "/api/info", { method: "GET" })).status).toBe(200);
    }
  });
});

describe("client keys and rates", () => {
  it("keys IPv4 by address and IPv6 by /64, however it is written", () => {
    const key = (address?: string) =>
      clientKey(
        new Request("http://x/", address === undefined ? {} : { headers: { "cf-connecting-ip": address } }),
      );
    expect(key("192.0.2.1")).toBe("192.0.2.1");
    expect(key("2001:DB8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(key("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(key("2001:db8:0:0:0:0:0:9")).toBe("2001:db8:0:0::/64");
    expect(key("::1")).toBe("0:0:0:0::/64");
    // Groups after "::" that reach into the first four: "1::2:3:4:5:6" is 1:0:0:2:3:4:5:6.
    expect(key("1::2:3:4:5:6")).toBe("1:0:0:2::/64");
    expect(key()).toBe("unknown");
    // A forged header is not a key of any length: cut to 64 characters.
    expect(key("x".repeat(100))).toBe("x".repeat(64));
  });

  it("reads <count>/<seconds>, and falls back to the default on nonsense", () => {
    expect(parseRate("5/10")).toEqual({ count: 5, seconds: 10 });
    expect(parseRate(" 100 / 60 ")).toEqual({ count: 100, seconds: 60 });
    expect(parseRate("1/1")).toEqual({ count: 1, seconds: 1 });
    for (const bad of [undefined, "", "0/60", "5/0", "-1/60", "5", "a/b", "1e9/1", "5/10x", "5/10/3"]) {
      expect(parseRate(bad)).toEqual({ count: 20, seconds: 60 });
      // MCP_RATE_LIMIT falls back to its own documented default (120 a minute), not the create limit's.
      expect(parseRate(bad, DEFAULT_MCP_RATE_LIMIT)).toEqual({ count: 120, seconds: 60 });
    }
  });
});
