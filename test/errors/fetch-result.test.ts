/**
 * What a custom `fetch` resolved to, checked: a Response (of this realm or any other) passes; no
 * Response (a wrapper that forgot `return`, a plain object, a Node stream body) is a ConfigError
 * naming the `fetch` option and the fix, instead of "Cannot read properties of undefined".
 */
import { describe, expect, it } from "vitest";
import { checkFetchResult } from "../../src/errors/fetch-result.ts";
import { ConfigError } from "../../src/index.ts";
import { revokedProxy } from "./thrown-values.ts";

const request = { method: "POST", url: "https://api.anthropic.com/v1/messages" };

describe("checkFetchResult", () => {
  it("passes a Response through, and a Response-shaped object from another realm or copy", () => {
    const response = new Response("data: {}\n\n", { headers: { "content-type": "text/event-stream" } });
    expect(checkFetchResult(response, { provider: "anthropic", request })).toBe(response);
    const foreign = { status: 204, ok: true, headers: new Headers(), body: null };
    expect(checkFetchResult(foreign)).toBe(foreign);
  });

  const NOT_RESPONSES: Array<[string, unknown, string]> = [
    ["undefined (a wrapper that forgot to return)", undefined, "undefined"],
    ["null", null, "null"],
    ["a string", "ok", "a string"],
    ["an empty object", {}, "an object without a status and headers"],
    [
      "an object with headers and a body but no status",
      { ok: true, headers: new Headers(), body: null },
      "an object without a status and headers",
    ],
    [
      "an object without headers",
      { status: 200, ok: true, body: null },
      "an object without a status and headers",
    ],
    [
      "a Response-like object whose body is no web stream (node-fetch's)",
      { status: 200, ok: true, headers: new Headers(), body: { pipe() {} } },
      "a response whose body is no web stream (a Node stream?)",
    ],
  ];

  for (const [what, value, shown] of NOT_RESPONSES) {
    it(`refuses ${what} with a ConfigError naming the fetch option`, () => {
      let thrown: unknown;
      try {
        checkFetchResult(value, { provider: "anthropic", request });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect(thrown).toMatchObject({
        code: "CONFIG_INVALID",
        path: "fetch",
        retryable: false,
        provider: "anthropic",
        request,
      });
      expect((thrown as Error).message).toBe(
        `The custom fetch resolved to ${shown} instead of a Response (POST https://api.anthropic.com/v1/messages): it must return the response it got, as \`(input, init) => fetch(input, init)\` does`,
      );
    });
  }

  it("names no request when none is known", () => {
    expect(() => checkFetchResult(undefined)).toThrow(
      new ConfigError(
        "The custom fetch resolved to undefined instead of a Response: it must return the response it got, as `(input, init) => fetch(input, init)` does",
        { code: "CONFIG_INVALID", retryable: false, path: "fetch" },
      ),
    );
  });

  it("refuses an object that cannot be read (a revoked Proxy) without throwing anything else", () => {
    expect(() => checkFetchResult(revokedProxy())).toThrow(
      "The custom fetch resolved to an object without a status and headers instead of a Response",
    );
  });
});
