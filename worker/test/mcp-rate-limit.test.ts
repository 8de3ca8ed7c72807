/**
 * The demo's MCP server at /mcp is limited per client (MCP_RATE_LIMIT, `"<count>/<seconds>"`, default
 * 120 a minute): past the limit it answers 429 RATE_LIMITED with Retry-After before reading the body;
 * other clients, and the same client's session creation (its own budget), are not affected; a
 * malformed MCP_RATE_LIMIT falls back to the MCP default, not the creation limit. The vitest config
 * lifts the limit for the other tests; these call the app with the env they give, as the deployed
 * Worker would.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../app.ts";

const app = createApp();

/** A tools/list request to /mcp from `address`, with MCP_RATE_LIMIT as given. */
function mcpCall(address: string, limit: string | undefined, body?: string): Promise<Response> {
  const request = new Request("http://demo.test/mcp", {
    method: "POST",
    headers: {
      "cf-connecting-ip": address,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: body ?? JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  const bindings = { ...env, MCP_RATE_LIMIT: limit, CREATE_RATE_LIMIT: undefined };
  return Promise.resolve(app.fetch(request, bindings));
}

/** Sends `count` requests from `address` and returns their statuses. */
async function statuses(address: string, limit: string | undefined, count: number): Promise<number[]> {
  const answers: number[] = [];
  for (let index = 0; index < count; index++) {
    const response = await mcpCall(address, limit);
    answers.push(response.status);
    await response.body?.cancel();
  }
  return answers;
}

describe("the MCP rate limit", () => {
  it("lets MCP_RATE_LIMIT's count through, then answers 429 with Retry-After; other clients go on", async () => {
    expect(await statuses("198.51.100.20", "3/60", 3)).toEqual([200, 200, 200]);
    const refused = await mcpCall("198.51.100.20", "3/60");
    expect(refused.status).toBe(429);
    // One request every 20 s: the next is free in at most 20 s.
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(20);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(await refused.json()).toMatchObject({
      error: { code: "RATE_LIMITED", message: expect.stringContaining("3 per 60 s") },
    });

    // Another client is not affected; nor is the same client's budget for new sessions.
    expect(await statuses("198.51.100.21", "3/60", 1)).toEqual([200]);
    const create = new Request("http://demo.test/api/sessions", {
      method: "POST",
      headers: { "cf-connecting-ip": "198.51.100.20" },
    });
    expect((await app.fetch(create, { ...env, CREATE_RATE_LIMIT: undefined })).status).toBe(201);
  });

  it("counts a request it refuses before reading its body, and a bad body too", async () => {
    const notJson = await mcpCall("198.51.100.30", "2/60", "not json at all");
    expect(notJson.status).toBe(400);
    expect(await statuses("198.51.100.30", "2/60", 1)).toEqual([200]);
    expect(await statuses("198.51.100.30", "2/60", 1)).toEqual([429]);
  });

  it.each([
    ["unset", undefined],
    ["malformed", "lots"],
  ])("%s, it is 120 a minute (the MCP default, not the creation limit's 20)", async (_name, limit) => {
    const address = limit === undefined ? "198.51.100.40" : "198.51.100.41";
    const started = Date.now();
    expect(await statuses(address, limit, 120)).toEqual(Array(120).fill(200));
    // The bucket refills at 2 a second while these run: a few more may pass, then one is refused.
    let passed = 120;
    while (passed < 160 && (await statuses(address, limit, 1))[0] === 200) passed++;
    const refill = Math.ceil(((Date.now() - started) / 1000) * 2);
    expect(passed).toBeLessThanOrEqual(120 + refill + 1);
  });
});
