/**
 * Classification of every error body in the shared fixtures, and of the signals around them:
 * headers, statuses, runtime network failures, aborts, message patterns.
 */
import { describe, expect, it } from "vitest";
import {
  classifyProviderFailure,
  classifyThrown,
  isNetworkFailure,
  parseRetryDelay,
  retryAfterFromHeaders,
} from "../../src/index.ts";
import { fixtureJson } from "../support/fixtures.ts";
import { withCode } from "./thrown-values.ts";

interface Wrapped {
  response: { status: { code: number }; headers: Record<string, string>; body: unknown };
}

function fromFixture(name: string, provider: string) {
  const { response } = fixtureJson<Wrapped>(name);
  return classifyProviderFailure({
    provider,
    status: response.status.code,
    headers: new Headers(response.headers),
    body: response.body,
  });
}

describe("classifying recorded error bodies", () => {
  it("Anthropic 404 not_found_error on a model is MODEL_NOT_FOUND with its request id", () => {
    const error = fromFixture("anthropic/error-404-not_found_error.json", "anthropic");
    expect(error.toJSON()).toMatchObject({
      _tag: "ProviderError",
      code: "MODEL_NOT_FOUND",
      status: 404,
      retryable: false,
      providerCode: "not_found_error",
      requestId: "req_011CdufXo8Y2LVfY2veyuQWG",
      message: "model: claude-sonet-4-5",
    });
  });

  it("Anthropic 400 invalid_request_error is INVALID_REQUEST, not retryable", () => {
    const error = fromFixture("anthropic/error-400-invalid_request_error.json", "anthropic");
    expect(error).toMatchObject({ code: "INVALID_REQUEST", status: 400, retryable: false });
    expect(error.requestId).toBe("req_011Ca7jT9AHpgXgdv8igm4z9");
    expect(error.message).toContain("effort level 'xhigh'");
  });

  it("OpenAI 404 model_not_found is MODEL_NOT_FOUND with x-request-id", () => {
    const error = fromFixture("openai-chat/error-404-model_not_found.json", "openai-chat");
    expect(error).toMatchObject({
      code: "MODEL_NOT_FOUND",
      status: 404,
      retryable: false,
      providerCode: "model_not_found",
      requestId: "req_c3e0f92d7b5426d1a4a17bb3d39953ea",
    });
  });

  it("OpenAI 400 unsupported_parameter (body only) is INVALID_REQUEST", () => {
    const body = fixtureJson("openai-chat/error-400-unsupported_parameter.body.json");
    const error = classifyProviderFailure({ provider: "openai-chat", status: 400, body });
    expect(error).toMatchObject({
      code: "INVALID_REQUEST",
      providerCode: "unsupported_parameter",
      retryable: false,
    });
  });

  it("OpenAI Responses 400 model_not_found with param model is MODEL_NOT_FOUND despite the 400", () => {
    const error = fromFixture("openai-responses/error-400-model_not_found.json", "openai-responses");
    expect(error).toMatchObject({ code: "MODEL_NOT_FOUND", status: 400, retryable: false });
  });

  it("Gemini 404 NOT_FOUND naming a model is MODEL_NOT_FOUND", () => {
    const error = fromFixture("gemini/error-404-not-found.json", "gemini");
    expect(error).toMatchObject({
      code: "MODEL_NOT_FOUND",
      status: 404,
      providerCode: "NOT_FOUND",
      retryable: false,
    });
  });

  it("Gemini 429 RESOURCE_EXHAUSTED is RATE_LIMITED and takes RetryInfo.retryDelay as the wait", () => {
    const body = fixtureJson("gemini/error-429-resource-exhausted.body.json");
    const error = classifyProviderFailure({ provider: "gemini", status: 429, body });
    expect(error).toMatchObject({ code: "RATE_LIMITED", retryable: true, retryAfterMs: 34_400 });
  });
});

describe("classifying by signal strength", () => {
  it("an overloaded_error event with no status is OVERLOADED and retryable", () => {
    const error = classifyProviderFailure({
      provider: "anthropic",
      body: {
        type: "error",
        error: { details: null, type: "overloaded_error", message: "Overloaded" },
        request_id: "  req_x",
      },
    });
    expect(error).toMatchObject({ code: "OVERLOADED", retryable: true, requestId: "req_x" });
    expect(error.status).toBeUndefined();
  });

  it("a 529 with a non-JSON body is OVERLOADED from the status alone", () => {
    expect(
      classifyProviderFailure({ provider: "anthropic", status: 529, body: "<html>busy</html>" }),
    ).toMatchObject({
      code: "OVERLOADED",
      retryable: true,
    });
  });

  it("the provider's type beats the status: a 500 whose message says Overloaded is OVERLOADED", () => {
    const error = classifyProviderFailure({
      provider: "anthropic",
      status: 500,
      body: { type: "error", error: { type: "api_error", message: "Overloaded" }, request_id: null },
    });
    expect(error.code).toBe("OVERLOADED");
  });

  it("x-should-retry overrides the status: false stops a 529 retry, true makes a 400 retryable", () => {
    const no = classifyProviderFailure({
      provider: "anthropic",
      status: 529,
      headers: new Headers({ "x-should-retry": "false" }),
      body: {},
    });
    expect(no).toMatchObject({ code: "OVERLOADED", retryable: false });
    const yes = classifyProviderFailure({
      provider: "anthropic",
      status: 400,
      headers: new Headers({ "x-should-retry": "true" }),
      body: {},
    });
    expect(yes.retryable).toBe(true);
  });

  it("a spend-limit 429 is QUOTA_EXCEEDED and not retried", () => {
    const error = classifyProviderFailure({
      provider: "anthropic",
      status: 429,
      body: {
        type: "error",
        error: {
          type: "rate_limit_error",
          message: "limit",
          details: { error_code: "enforced_spend_limit_reached" },
        },
      },
    });
    expect(error).toMatchObject({ code: "QUOTA_EXCEEDED", retryable: false });
  });

  it("insufficient_quota 429 is QUOTA_EXCEEDED, rate_limit_exceeded 429 is RATE_LIMITED", () => {
    const quota = classifyProviderFailure({
      provider: "openai-chat",
      status: 429,
      body: {
        error: { message: "quota", type: "insufficient_quota", param: null, code: "insufficient_quota" },
      },
    });
    expect(quota).toMatchObject({ code: "QUOTA_EXCEEDED", retryable: false });
    const rate = classifyProviderFailure({
      provider: "openai-chat",
      status: 429,
      body: { error: { message: "slow down", type: "requests", param: null, code: "rate_limit_exceeded" } },
    });
    expect(rate).toMatchObject({ code: "RATE_LIMITED", retryable: true });
  });

  it("context overflow is CONTEXT_LENGTH by code (OpenAI) and by message (Anthropic, DeepSeek)", () => {
    const openai = classifyProviderFailure({
      provider: "openai-chat",
      status: 400,
      body: {
        error: {
          message:
            "This model's maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens.",
          type: "invalid_request_error",
          param: "messages",
          code: "context_length_exceeded",
        },
      },
    });
    expect(openai.code).toBe("CONTEXT_LENGTH");
    const anthropic = classifyProviderFailure({
      provider: "anthropic",
      status: 400,
      body: {
        type: "error",
        error: {
          type: "invalid_request_error",
          message: "prompt is too long: 208310 tokens > 200000 maximum",
        },
      },
    });
    expect(anthropic.code).toBe("CONTEXT_LENGTH");
  });
});

describe("what an error answer says when its body says little", () => {
  it("a status with no body or a null body is named by the status: a 5xx is a retryable SERVER_ERROR, an unknown 4xx UNKNOWN", () => {
    expect(classifyProviderFailure({ provider: "anthropic", status: 502 })).toMatchObject({
      message: "HTTP 502",
      code: "SERVER_ERROR",
      retryable: true,
      status: 502,
    });
    expect(classifyProviderFailure({ provider: "anthropic", status: 418, body: null })).toMatchObject({
      message: "HTTP 418",
      code: "UNKNOWN",
      retryable: false,
    });
  });

  it("an error event with neither a status nor a message says the provider reported an error", () => {
    const error = classifyProviderFailure({ provider: "anthropic", body: { type: "error", error: {} } });
    expect(error).toMatchObject({
      message: "The provider reported an error",
      code: "UNKNOWN",
      retryable: false,
    });
  });

  it("a type or a code without a message is enough to classify an error event", () => {
    const typed = classifyProviderFailure({
      provider: "anthropic",
      body: { type: "error", error: { type: "overloaded_error" } },
    });
    expect(typed).toMatchObject({
      code: "OVERLOADED",
      retryable: true,
      providerCode: "overloaded_error",
      message: "The provider reported an error",
    });
    const coded = classifyProviderFailure({
      provider: "openai-chat",
      body: { error: { code: "rate_limit_exceeded" } },
    });
    expect(coded).toMatchObject({
      code: "RATE_LIMITED",
      retryable: true,
      providerCode: "rate_limit_exceeded",
    });
  });

  it("an error event with only a numeric status, a spend limit or a wait is classified by it", () => {
    // Inside a 200 stream: no HTTP status; the event's own numeric code is all there is.
    expect(
      classifyProviderFailure({ provider: "openai-chat", body: { error: { code: 429 } } }),
    ).toMatchObject({
      message: "HTTP 429",
      code: "RATE_LIMITED",
      retryable: true,
      status: 429,
    });
    expect(
      classifyProviderFailure({ provider: "openai-chat", body: { error: { status_code: 500 } } }),
    ).toMatchObject({ code: "SERVER_ERROR", retryable: true, status: 500 });
    const spend = classifyProviderFailure({
      provider: "openai-chat",
      status: 429,
      body: { error: { details: { error_code: "enforced_spend_limit_reached" } } },
    });
    expect(spend).toMatchObject({ code: "QUOTA_EXCEEDED", retryable: false });
    const wait = classifyProviderFailure({
      provider: "google",
      status: 429,
      body: { error: { details: [{ retryDelay: "7s" }] } },
    });
    expect(wait).toMatchObject({ code: "RATE_LIMITED", retryAfterMs: 7000 });
  });

  it("a body without a message gives the status as message, not an empty one", () => {
    const error = classifyProviderFailure({
      provider: "anthropic",
      status: 529,
      body: { type: "error", error: { type: "overloaded_error" } },
    });
    expect(error).toMatchObject({ message: "HTTP 529", code: "OVERLOADED" });
  });

  it("empty strings in an error body count as absent", () => {
    const blank = classifyProviderFailure({
      provider: "openai-chat",
      status: 500,
      body: { error: { message: "", type: "", code: "", status: "" } },
    });
    expect(blank).toMatchObject({ message: "HTTP 500", code: "SERVER_ERROR" });
    expect(blank.providerCode).toBeUndefined();
    const typed = classifyProviderFailure({
      provider: "openai-chat",
      status: 500,
      body: { error: { message: "boom", type: "server_error", code: "" } },
    });
    expect(typed).toMatchObject({ message: "boom", providerCode: "server_error" });
  });

  it("a body whose error is a word, not an object, is read by its top-level message", () => {
    const error = classifyProviderFailure({
      provider: "openai-chat",
      status: 429,
      body: { error: "Too Many Requests", message: "Slow down and retry in a minute" },
    });
    expect(error).toMatchObject({ message: "Slow down and retry in a minute", code: "RATE_LIMITED" });
  });

  it("a text body is the message, trimmed and cut at 500 characters; a blank one gives the status", () => {
    const page = classifyProviderFailure({
      provider: "anthropic",
      status: 503,
      body: "  <html>busy</html>\n",
    });
    expect(page.message).toBe("<html>busy</html>");
    const long = classifyProviderFailure({
      provider: "anthropic",
      status: 500,
      body: `${"x".repeat(600)}  `,
    });
    expect(long.message).toBe("x".repeat(500));
    expect(classifyProviderFailure({ provider: "anthropic", status: 500, body: " \n " }).message).toBe(
      "HTTP 500",
    );
  });
});

describe("the provider's type, the status and the message together", () => {
  it("a generic provider type is kept when the status is no more specific: invalid_request_error with 500 is not retried", () => {
    const error = classifyProviderFailure({
      provider: "anthropic",
      status: 500,
      body: { type: "error", error: { type: "invalid_request_error", message: "messages: bad role" } },
    });
    expect(error).toMatchObject({ code: "INVALID_REQUEST", retryable: false });
  });

  it("a rate limit counted in tokens stays RATE_LIMITED, not CONTEXT_LENGTH", () => {
    const error = classifyProviderFailure({
      provider: "anthropic",
      status: 429,
      body: { type: "error", error: { type: "rate_limit_error", message: "Too many tokens per minute" } },
    });
    expect(error).toMatchObject({ code: "RATE_LIMITED", retryable: true });
    // Only a bad request is refined by its words: a rate limit that mentions the context window stays one.
    const worded = classifyProviderFailure({
      provider: "openai-chat",
      status: 429,
      body: {
        error: { code: "rate_limit_exceeded", message: "Too many context window tokens used this minute" },
      },
    });
    expect(worded).toMatchObject({ code: "RATE_LIMITED", retryable: true });
  });

  it("a rate limit told only in words is RATE_LIMITED, while too many tokens for the context stays CONTEXT_LENGTH", () => {
    for (const words of [
      "Rate limit reached: too many tokens per minute",
      "Too many tokens per minute",
      "Too many requests per day, slow down",
    ]) {
      expect(classifyThrown(new Error(words), {})).toMatchObject({ code: "RATE_LIMITED", retryable: true });
      const event = classifyProviderFailure({ provider: "openai-chat", body: { error: { message: words } } });
      expect(event).toMatchObject({ code: "RATE_LIMITED", retryable: true });
    }
    const overflow = classifyProviderFailure({
      provider: "mistral",
      body: { error: { message: "Prompt contains too many tokens: 40000 > 32768" } },
    });
    expect(overflow).toMatchObject({ code: "CONTEXT_LENGTH", retryable: false });
  });

  it("a bad request that mentions overloaded stays INVALID_REQUEST, not retried", () => {
    const error = classifyProviderFailure({
      provider: "openai-chat",
      status: 400,
      body: {
        error: { type: "invalid_request_error", message: "Unknown parameter: 'retry_when_overloaded'" },
      },
    });
    expect(error).toMatchObject({ code: "INVALID_REQUEST", retryable: false });
  });
});

describe("retry-after", () => {
  it("prefers retry-after-ms, then retry-after seconds, then an HTTP date", () => {
    expect(retryAfterFromHeaders(new Headers({ "retry-after-ms": "1500", "retry-after": "9" }))).toBe(1500);
    expect(retryAfterFromHeaders(new Headers({ "retry-after": "2" }))).toBe(2000);
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(retryAfterFromHeaders(new Headers({ "retry-after": "Sun, 22 Nov 2026 10:00:07 GMT" }), now)).toBe(
      7000,
    );
    expect(retryAfterFromHeaders(new Headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(retryAfterFromHeaders(new Headers())).toBeUndefined();
  });

  it("takes retry-after-ms only when it is a number of 0 or more, else falls back to retry-after", () => {
    const wait = (ms: string) =>
      retryAfterFromHeaders(new Headers({ "retry-after-ms": ms, "retry-after": "2" }));
    expect(wait("0")).toBe(0);
    expect(wait("")).toBe(2000);
    expect(wait("\u00a0")).toBe(2000);
    expect(wait("soon")).toBe(2000);
    expect(wait("-1")).toBe(2000);
  });

  it("takes retry-after seconds of 0 or more; a blank or negative one is no wait", () => {
    const wait = (seconds: string) => retryAfterFromHeaders(new Headers({ "retry-after": seconds }));
    expect(wait("0")).toBe(0);
    expect(wait("")).toBeUndefined();
    expect(wait("\u00a0")).toBeUndefined();
    expect(wait("-1")).toBeUndefined();
  });

  it("parses Google and Go-style durations", () => {
    expect(parseRetryDelay("34.4s")).toBe(34_400);
    expect(parseRetryDelay("1m6.499s")).toBe(66_499);
    expect(parseRetryDelay("11ms")).toBe(11);
    expect(parseRetryDelay("fast")).toBeUndefined();
    expect(parseRetryDelay("5x")).toBeUndefined();
    expect(parseRetryDelay(" 34.4s ")).toBe(34_400);
    expect(parseRetryDelay("")).toBeUndefined();
    expect(parseRetryDelay("  ")).toBeUndefined();
    expect(parseRetryDelay("1m 6s")).toBeUndefined();
  });
});

describe("thrown errors", () => {
  it("recognizes the network failures of each runtime", () => {
    const undici = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }),
    });
    for (const error of [
      undici,
      new TypeError("terminated"),
      new TypeError("Failed to fetch"),
      new TypeError("NetworkError when attempting to fetch resource."),
      new TypeError("Load failed"),
      new TypeError("error sending request for url (http://127.0.0.1:1/): connection refused"),
      new Error("Network connection lost."),
      Object.assign(new Error("Unable to connect. Is the computer able to access the url?"), {
        code: "ConnectionRefused",
      }),
    ]) {
      expect(isNetworkFailure(error)).toBe(true);
      expect(classifyThrown(error, { provider: "anthropic" })).toMatchObject({
        _tag: "RequestError",
        code: "NETWORK",
        retryable: true,
      });
    }
    expect(isNetworkFailure(new TypeError("x is not a function"))).toBe(false);
  });

  it("isNetworkFailure goes by a runtime's network or timeout code anywhere in the chain, whatever the words", () => {
    expect(isNetworkFailure(withCode("no", "ECONNREFUSED"))).toBe(true);
    expect(isNetworkFailure(withCode("slow", "ETIMEDOUT"))).toBe(true);
    expect(isNetworkFailure(new Error("signer", { cause: withCode("x", "ECONNRESET") }))).toBe(true);
    expect(isNetworkFailure(withCode("bad argument", "ERR_INVALID_ARG_TYPE"))).toBe(false);
  });

  it("an aborted signal wins over whatever was thrown, and the reason is kept as cause", () => {
    const controller = new AbortController();
    const reason = new Error("user pressed stop");
    controller.abort(reason);
    const error = classifyThrown(new TypeError("terminated"), {
      provider: "openai-chat",
      signal: controller.signal,
    });
    expect(error).toMatchObject({ _tag: "AbortError", code: "ABORTED", retryable: false });
    expect(error.cause).toBe(reason);
  });

  it("Wisp's own timeout gives TIMEOUT, retryable", () => {
    const error = classifyThrown(new DOMException("x", "TimeoutError"), {
      provider: "anthropic",
      timeout: "No data arrived for 50 ms",
    });
    expect(error).toMatchObject({
      _tag: "RequestError",
      code: "TIMEOUT",
      retryable: true,
      message: "No data arrived for 50 ms",
    });
  });
});
