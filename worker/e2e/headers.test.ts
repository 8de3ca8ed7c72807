/**
 * The page and its assets, served by the real Worker (wrangler's asset layer reads
 * worker/public/_headers): a strict Content-Security-Policy, no framing, no sniffing; the headers file
 * itself is not served.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningWorker, startWorker } from "./start-worker.ts";

let worker: RunningWorker;

beforeAll(async () => {
  worker = await startWorker();
}, 60_000);

afterAll(async () => {
  await worker?.stop();
});

it.each(["/", "/app.js", "/style.css"])("%s carries the page's security headers", async (path) => {
  const response = await fetch(worker.url + path);
  expect(response.status).toBe(200);
  const csp = response.headers.get("content-security-policy") ?? "";
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("unsafe-inline");
  expect(response.headers.get("x-frame-options")).toBe("DENY");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  await response.body?.cancel();
});

it("the _headers file itself is not served", async () => {
  const response = await fetch(`${worker.url}/_headers`);
  const text = await response.text();
  // Not an asset: the request falls through to the Worker, which knows no such route.
  expect(response.status).toBe(404);
  expect(JSON.parse(text)).toMatchObject({ error: { code: "NOT_FOUND" } });
  expect(text).not.toContain("Content-Security-Policy:");
});
