/**
 * The URL length limit of the API (worker/security-headers.ts): a URL of exactly 8 KiB is served, one
 * character more is a 414 whose message names the limit.
 */
import { describe, expect, it } from "vitest";
import { call } from "./api.ts";

const ORIGIN = "http://demo.test";

function pathOfUrlLength(length: number): string {
  const prefix = "/api/info?padding=";
  return prefix + "x".repeat(length - ORIGIN.length - prefix.length);
}

describe("URL length limit", () => {
  it("serves a URL of exactly 8192 characters", async () => {
    const response = await call(pathOfUrlLength(8192));
    expect(response.status).toBe(200);
  });

  it("answers a URL of 8193 characters with 414 naming the limit", async () => {
    const response = await call(pathOfUrlLength(8193));
    expect(response.status).toBe(414);
    expect(await response.json()).toEqual({
      error: { code: "URI_TOO_LONG", message: "The URL is longer than 8192 characters" },
    });
  });
});
