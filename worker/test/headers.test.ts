/**
 * What every API answer carries (no caching of tokens or sessions, no sniffing or framing, a CSP that
 * runs nothing), and the API's JSON shape for a wrong method (405 with Allow) and an over-long URL (414).
 */
import { describe, expect, it } from "vitest";
import { API_HEADERS } from "../security-headers.ts";
import { auth, call, createSession, readEvents, send } from "./api.ts";

function expectApiHeaders(response: Response): void {
  for (const [name, value] of Object.entries(API_HEADERS))
    expect(response.headers.get(name), name).toBe(value);
}

describe("API headers", () => {
  it("are on JSON answers, SSE runs, errors and unknown routes alike", async () => {
    const session = await createSession();
    // Each answer is the kind named (a success, an error, an unknown route), not some other answer.
    const answers = [
      [await call("/api/sessions", { method: "POST" }), 201],
      [await call("/api/info"), 200],
      [await call(`/api/sessions/${session.sessionId}/export`, auth(session.token)), 200],
      [await call(`/api/sessions/${session.sessionId}/export`), 401],
      [await call("/api/nowhere"), 404],
    ] as const;
    for (const [response, status] of answers) {
      expect(response.status, response.url).toBe(status);
      expectApiHeaders(response);
    }
    const run = await send(session, "What is 2 + 3?");
    expect(run.status).toBe(200);
    expectApiHeaders(run);
    expect(run.headers.get("content-type")).toContain("text/event-stream");
    expect((await readEvents(run)).events.at(-1)?.event).toBe("run-end");
  });
});

describe("the API's JSON shape", () => {
  it("a method a route does not take is 405 with Allow", async () => {
    const info = await call("/api/info", { method: "DELETE" });
    expect(info.status).toBe(405);
    expect(info.headers.get("allow")).toBe("GET");
    expect(await info.json()).toMatchObject({ error: { code: "METHOD_NOT_ALLOWED" } });
    const session = await createSession();
    const exported = await call(`/api/sessions/${session.sessionId}/export`, auth(session.token, "POST"));
    expect(exported.status).toBe(405);
    expect(exported.headers.get("allow")).toBe("GET");
  });

  it("a URL over 8 KiB is 414 in JSON", async () => {
    const response = await call(`/api/info?padding=${"x".repeat(9000)}`);
    expect(response.status).toBe(414);
    expect(await response.json()).toMatchObject({ error: { code: "URI_TOO_LONG" } });
    expectApiHeaders(response);
  });
});
