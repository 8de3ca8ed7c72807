/**
 * The classifier of thrown values, unit by unit: names, runtime codes and messages anywhere in the
 * cause chain, then well-known wording; whose abort an `AbortError` is; and `toSdkError`, the
 * one-argument form for tool authors and app code. (The chain's own safety: cause-chain.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { AbortError, classifyThrown, ProviderError, RequestError, toSdkError } from "../../src/index.ts";
import { withCode, wrapped } from "./thrown-values.ts";

const live = (): AbortSignal => new AbortController().signal;

/** Inputs and what they are, by the strongest signal they carry. */
const CASES: Array<[string, () => unknown, string, boolean]> = [
  // names
  [
    "DOMException TimeoutError (AbortSignal.timeout)",
    () => new DOMException("t", "TimeoutError"),
    "TIMEOUT",
    true,
  ],
  [
    "undici's ConnectTimeoutError under fetch failed",
    () =>
      new TypeError("fetch failed", {
        cause: withCode("Connect Timeout Error", "UND_ERR_CONNECT_TIMEOUT", "ConnectTimeoutError"),
      }),
    "TIMEOUT",
    true,
  ],
  [
    "a TimeoutError under an AbortError",
    () =>
      Object.assign(new Error("aborted"), {
        name: "AbortError",
        cause: new DOMException("t", "TimeoutError"),
      }),
    "TIMEOUT",
    true,
  ],
  // runtime codes, anywhere in the chain
  ["code ECONNREFUSED", () => withCode("no", "ECONNREFUSED"), "NETWORK", true],
  [
    "cause code ECONNRESET",
    () => new Error("proxy", { cause: withCode("x", "ECONNRESET") }),
    "NETWORK",
    true,
  ],
  ["code ETIMEDOUT", () => withCode("connect ETIMEDOUT 10.0.0.1:443", "ETIMEDOUT"), "TIMEOUT", true],
  [
    "undici's UND_ERR_HEADERS_TIMEOUT",
    () => withCode("Headers Timeout Error", "UND_ERR_HEADERS_TIMEOUT"),
    "TIMEOUT",
    true,
  ],
  [
    "a plain object with code ENOTFOUND as cause",
    () => new Error("signer", { cause: { code: "ENOTFOUND" } }),
    "NETWORK",
    true,
  ],
  ["ECONNRESET twelve causes deep", () => wrapped(12, withCode("x", "ECONNRESET")), "NETWORK", true],
  // runtime messages (each runtime's own), bare and under a wrapper
  ["Node's fetch failed", () => new TypeError("fetch failed"), "NETWORK", true],
  ["Node's terminated (body cut)", () => new TypeError("terminated"), "NETWORK", true],
  [
    "Chromium's Failed to fetch under a signer's error",
    () => new Error("sign", { cause: new TypeError("Failed to fetch") }),
    "NETWORK",
    true,
  ],
  ["Firefox", () => new TypeError("NetworkError when attempting to fetch resource."), "NETWORK", true],
  ["Safari", () => new TypeError("Load failed"), "NETWORK", true],
  ["Bun (leading space)", () => new TypeError(" A network error occurred."), "NETWORK", true],
  [
    "Bun's ConnectionRefused",
    () => withCode("Unable to connect. Is the computer able to access the url?", "ConnectionRefused"),
    "NETWORK",
    true,
  ],
  [
    "Deno",
    () => new TypeError("error sending request for url (http://127.0.0.1:1/): connection refused"),
    "NETWORK",
    true,
  ],
  ["workerd", () => new Error("Network connection lost."), "NETWORK", true],
  // wording
  ["request timed out", () => new Error("request timed out"), "TIMEOUT", true],
  ["Timeout exceeded", () => new Error("Timeout exceeded while waiting for the proxy"), "TIMEOUT", true],
  ["a bare 'timeout'", () => new Error("timeout"), "TIMEOUT", true],
  ["deadline exceeded", () => new Error("rpc error: deadline exceeded"), "TIMEOUT", true],
  ["connection refused", () => new Error("upstream connection refused"), "NETWORK", true],
  ["Connection reset by peer", () => new Error("Connection reset by peer"), "NETWORK", true],
  ["socket hang up", () => new Error("socket hang up"), "NETWORK", true],
  [
    "a string cause ECONNREFUSED",
    () => new Error("proxy failed", { cause: "ECONNREFUSED" }),
    "NETWORK",
    true,
  ],
  ["rate limit", () => new Error("Rate limit reached"), "RATE_LIMITED", true],
  ["overloaded", () => new Error("The server is overloaded, try again later"), "OVERLOADED", true],
  ["prompt is too long", () => new Error("prompt is too long"), "CONTEXT_LENGTH", false],
  // nothing to go by
  ["a bug's TypeError", () => new TypeError("x is not a function"), "UNKNOWN", false],
  [
    "a property named timeout",
    () => new TypeError("Cannot read properties of undefined (reading 'timeout')"),
    "UNKNOWN",
    false,
  ],
  ["an option named timeout", () => new Error("invalid timeout option"), "UNKNOWN", false],
  [
    "a name that only begins with TimeoutError",
    () => Object.assign(new Error("the handler failed"), { name: "TimeoutErrorHandlerError" }),
    "UNKNOWN",
    false,
  ],
];

describe("classifyThrown reads names, codes, the whole cause chain, then words", () => {
  for (const [what, make, code, retryable] of CASES) {
    it(`${what} → ${code}, ${retryable ? "retryable" : "not retryable"}`, () => {
      const error = classifyThrown(make(), { provider: "anthropic", signal: live() });
      expect(error).toMatchObject({ _tag: "RequestError", code, retryable, provider: "anthropic" });
    });
  }

  it("keeps the runtime's code and its most specific words", () => {
    const thrown = new TypeError("fetch failed", {
      cause: withCode("connect ETIMEDOUT 10.0.0.1:443", "ETIMEDOUT"),
    });
    const error = classifyThrown(thrown, {
      provider: "openai-chat",
      request: { method: "POST", url: "https://api.openai.com/v1/chat/completions" },
    });
    expect(error).toMatchObject({ code: "TIMEOUT", causeCode: "ETIMEDOUT", retryable: true });
    expect(error.message).toBe(
      "Timed out waiting for https://api.openai.com/v1/chat/completions (POST): connect ETIMEDOUT 10.0.0.1:443",
    );
    expect(error.cause).toBe(thrown);
  });

  it("says the stream was lost, or timed out, once the response had begun", () => {
    const context = { provider: "anthropic", responded: true };
    expect(classifyThrown(new TypeError("terminated"), context).message).toBe(
      "Lost the stream from the provider: terminated",
    );
    expect(classifyThrown(new DOMException("slow body", "TimeoutError"), context).message).toBe(
      "Timed out reading the stream from the provider: slow body",
    );
  });

  it("a port fetch never connects to stays a NETWORK error that is not retried", () => {
    const error = classifyThrown(new TypeError("fetch failed", { cause: new Error("bad port") }), {
      provider: "anthropic",
    });
    expect(error).toMatchObject({ code: "NETWORK", retryable: false });
    expect(error.message).toBe("Could not reach the provider: bad port (fetch never connects to this port)");
  });

  it("only a network failure is permanent: a timeout whose cause says bad port is still retried", () => {
    const thrown = Object.assign(new Error("timed out", { cause: new Error("bad port") }), {
      name: "TimeoutError",
    });
    const error = classifyThrown(thrown, { provider: "anthropic" });
    expect(error).toMatchObject({ code: "TIMEOUT", retryable: true });
    expect(error.message).toBe("Timed out waiting for the provider: bad port");
  });

  it("a failure without words still gets a message that says what happened", () => {
    expect(toSdkError(new DOMException("", "TimeoutError")).message).toBe("Timed out");
    expect(toSdkError(withCode("", "ECONNRESET")).message).toBe("The network failed");
    expect(toSdkError(new DOMException("", "AbortError")).message).toBe("Aborted");
    expect(toSdkError(new Error()).message).toBe("Request failed");
  });

  it("an error whose message is not a string is classified by its text, without throwing", () => {
    const error = toSdkError(Object.assign(new Error("x"), { message: Symbol("odd") }));
    expect(error).toMatchObject({ _tag: "RequestError", code: "UNKNOWN", message: "Symbol(odd)" });
  });
});

describe("whose abort an AbortError is", () => {
  const aborted = () => new DOMException("This operation was aborted", "AbortError");

  it("the caller's aborted signal wins over anything thrown, even a TimeoutError, and is never retried", () => {
    const caller = new AbortController();
    caller.abort(new Error("stop"));
    for (const thrown of [aborted(), new DOMException("t", "TimeoutError"), withCode("x", "ECONNRESET")]) {
      const error = classifyThrown(thrown, { provider: "anthropic", signal: caller.signal });
      expect(error).toMatchObject({ _tag: "AbortError", code: "ABORTED", retryable: false });
    }
  });

  it("says whether the caller aborted or the caller's signal timed out", () => {
    const stopped = new AbortController();
    stopped.abort();
    const withReason = new AbortController();
    withReason.abort(new Error("stop"));
    const thrown = new TypeError("terminated");
    expect(classifyThrown(thrown, { signal: stopped.signal }).message).toBe("The run was aborted");
    expect(classifyThrown(thrown, { signal: withReason.signal }).message).toBe("The run was aborted");
    const timedOut = AbortSignal.abort(new DOMException("signal timed out", "TimeoutError"));
    expect(classifyThrown(thrown, { signal: timedOut })).toMatchObject({
      _tag: "AbortError",
      message: "The signal's timeout expired",
      retryable: false,
    });
  });

  it("with a caller's signal that did not abort, an AbortError is the fetch's own timeout: TIMEOUT", () => {
    const error = classifyThrown(aborted(), { provider: "anthropic", signal: live() });
    expect(error).toMatchObject({ _tag: "RequestError", code: "TIMEOUT", retryable: true });
    expect(error.message).toBe(
      "Timed out waiting for the provider: This operation was aborted (aborted by the fetch itself, not by the caller's signal)",
    );
  });

  it("a TimeoutError in an AbortError's chain makes it a timeout even with no signal", () => {
    const thrown = Object.assign(new Error("aborted"), {
      name: "AbortError",
      cause: new DOMException("signal timed out", "TimeoutError"),
    });
    expect(toSdkError(thrown)).toMatchObject({ _tag: "RequestError", code: "TIMEOUT", retryable: true });
  });

  it("Node's AbortError (code ABORT_ERR) counts as one too", () => {
    const node = Object.assign(new Error("The operation was aborted"), { code: "ABORT_ERR" });
    expect(classifyThrown(node, { provider: "anthropic", signal: live() }).code).toBe("TIMEOUT");
    expect(classifyThrown(node, { provider: "anthropic" }).code).toBe("ABORTED");
  });

  it("with no signal to compare with, an AbortError stays ABORTED, never retried", () => {
    const thrown = aborted();
    const error = classifyThrown(thrown, { provider: "anthropic" });
    expect(error).toBeInstanceOf(AbortError);
    expect(error).toMatchObject({ code: "ABORTED", retryable: false, provider: "anthropic" });
    expect(error.cause).toBe(thrown);
  });
});

describe("toSdkError", () => {
  it("gives a Wisp error back as it is", () => {
    const error = new ProviderError("slow down", { code: "RATE_LIMITED" });
    expect(toSdkError(error)).toBe(error);
    expect(error.retryable).toBe(true);
  });

  it("classifies anything else with one argument, naming no provider and keeping the words", () => {
    const timeout = toSdkError(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
    expect(timeout).toBeInstanceOf(RequestError);
    expect(timeout).toMatchObject({
      code: "TIMEOUT",
      retryable: true,
      message: "The operation was aborted due to timeout",
    });
    expect(timeout.provider).toBeUndefined();
    expect(toSdkError(withCode("connect ECONNREFUSED 127.0.0.1:1", "ECONNREFUSED"))).toMatchObject({
      _tag: "RequestError",
      code: "NETWORK",
      retryable: true,
      causeCode: "ECONNREFUSED",
      message: "connect ECONNREFUSED 127.0.0.1:1",
    });
    expect(toSdkError(new DOMException("stopped", "AbortError"))).toMatchObject({
      _tag: "AbortError",
      code: "ABORTED",
      retryable: false,
      message: "stopped",
    });
    expect(toSdkError(new Error("boom"))).toMatchObject({
      code: "UNKNOWN",
      retryable: false,
      message: "boom",
    });
  });

  it("never throws, whatever is thrown", () => {
    for (const odd of [
      undefined,
      null,
      42,
      Symbol("odd"),
      Object.create(null),
      "text",
      {
        toString: () => {
          throw new Error("no");
        },
      },
    ]) {
      const error = toSdkError(odd);
      expect(error._tag).toBe("RequestError");
      expect(typeof error.message).toBe("string");
    }
  });
});
