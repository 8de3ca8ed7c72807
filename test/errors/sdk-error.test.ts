/**
 * The SdkError family: real Errors, tagged, JSON-safe, recognizable across package copies.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  AbortError,
  BudgetError,
  ConfigError,
  HookError,
  isSdkError,
  ParseError,
  ProviderError,
  RequestError,
  SdkError,
  sdkErrorFromJSON,
  ToolError,
} from "../../src/index.ts";
import { revokedProxy } from "./thrown-values.ts";

describe("SdkError", () => {
  const error = new ProviderError("Overloaded", {
    code: "OVERLOADED",
    retryable: true,
    status: 529,
    retryAfterMs: 1000,
    provider: "anthropic",
    requestId: "req_1",
    providerCode: "overloaded_error",
    cause: new Error("inner"),
  });

  it("is a real Error with a stack, a cause and a literal name", () => {
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(SdkError);
    expect(error.name).toBe("ProviderError");
    expect(error._tag).toBe("ProviderError");
    expect(error.stack).toContain("ProviderError");
    expect((error.cause as Error).message).toBe("inner");
  });

  it("every class has its own literal name, as String(error) and stack traces show it", () => {
    const errors = [
      new ConfigError("m", { code: "CONFIG_INVALID" }),
      new ProviderError("m", { code: "UNKNOWN" }),
      new RequestError("m", { code: "NETWORK" }),
      new AbortError("m", { code: "ABORTED" }),
      new ParseError("m", { code: "STREAM_MALFORMED" }),
      new HookError("m", { code: "HOOK_FAILED" }),
      new ToolError("m", { code: "TOOL_FAILED" }),
      new BudgetError("m", { code: "MAX_TURNS" }),
    ];
    expect(errors.map(String)).toEqual([
      "ConfigError: m",
      "ProviderError: m",
      "RequestError: m",
      "AbortError: m",
      "ParseError: m",
      "HookError: m",
      "ToolError: m",
      "BudgetError: m",
    ]);
    for (const error of errors) expect(error.toJSON().name).toBe(error._tag);
  });

  it("has no cause when made without one", () => {
    expect("cause" in new ConfigError("x", { code: "CONFIG_INVALID" })).toBe(false);
    expect("cause" in new ConfigError("x", { code: "CONFIG_INVALID", cause: undefined })).toBe(false);
  });

  it("round-trips through JSON and back to a live error of the same class", () => {
    const json = JSON.parse(JSON.stringify(error));
    expect(json).toEqual({
      _tag: "ProviderError",
      name: "ProviderError",
      code: "OVERLOADED",
      message: "Overloaded",
      retryable: true,
      status: 529,
      retryAfterMs: 1000,
      provider: "anthropic",
      requestId: "req_1",
      providerCode: "overloaded_error",
      cause: { name: "Error", message: "inner" },
    });
    const revived = sdkErrorFromJSON(json);
    expect(revived).toBeInstanceOf(ProviderError);
    expect(revived.toJSON()).toEqual(json);
  });

  it("keeps the cause chain as plain data: names, messages, runtime codes, bounded depth, no cycles", () => {
    const socket = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    const fetchFailed = new TypeError("fetch failed", { cause: socket });
    const looped: Error & { cause?: unknown } = new Error("loop");
    looped.cause = looped;
    let deep: unknown = new Error("bottom");
    for (let level = 0; level < 10; level++) deep = new Error(`level ${level}`, { cause: deep });
    const json = (cause: unknown) => new ConfigError("x", { code: "CONFIG_INVALID", cause }).toJSON().cause;
    expect(json(fetchFailed)).toEqual({
      name: "TypeError",
      message: "fetch failed",
      cause: { name: "Error", message: "connect ECONNREFUSED 127.0.0.1:9", code: "ECONNREFUSED" },
    });
    expect(json(looped)).toEqual({ name: "Error", message: "loop" });
    let depth = 0;
    for (let node = json(deep); node !== undefined; node = node.cause) depth++;
    expect(depth).toBe(4);
    expect(json("a string")).toEqual({ name: "string", message: "a string" });
    expect(json(Object.create(null))).toMatchObject({ name: "object" });
    expect(json(null)).toEqual({ name: "object", message: "null" });
    expect(json(revokedProxy())).toEqual({ name: "object", message: "(a cause that cannot be shown)" });
    expect(json(new Error("x".repeat(1500)))?.message).toBe("x".repeat(1000));
    expect(() => JSON.stringify(json(fetchFailed))).not.toThrow();
  });

  it("ends a cause chain that loops back through several errors at the first repeat", () => {
    const first: Error & { cause?: unknown } = new Error("first");
    const second = new Error("second", { cause: first });
    first.cause = second;
    const json = new ConfigError("x", { code: "CONFIG_INVALID", cause: first }).toJSON();
    expect(json.cause).toEqual({
      name: "Error",
      message: "first",
      cause: { name: "Error", message: "second" },
    });
  });

  it("rebuilds from JSON with its request, attempts, runtime code and cause chain, and serializes the same again", () => {
    const socket = Object.assign(new Error("getaddrinfo ENOTFOUND x.invalid"), { code: "ENOTFOUND" });
    const original = new RequestError("Could not reach http://x.invalid/v1/messages (POST): …", {
      code: "NETWORK",
      retryable: true,
      provider: "anthropic",
      request: { method: "POST", url: "http://x.invalid/v1/messages" },
      attempts: 3,
      causeCode: "ENOTFOUND",
      cause: new TypeError("fetch failed", { cause: socket }),
    });
    const json = JSON.parse(JSON.stringify(original));
    const revived = sdkErrorFromJSON(json);
    expect(revived).toBeInstanceOf(RequestError);
    expect(isSdkError(revived)).toBe(true);
    expect(revived).toMatchObject({ request: original.request, attempts: 3, causeCode: "ENOTFOUND" });
    expect(revived.cause).toEqual({
      name: "TypeError",
      message: "fetch failed",
      cause: { name: "Error", message: "getaddrinfo ENOTFOUND x.invalid", code: "ENOTFOUND" },
    });
    expect(JSON.parse(JSON.stringify(revived))).toEqual(json);
  });

  it("survives structuredClone as JSON (what postMessage carries)", () => {
    expect(structuredClone(error.toJSON())).toEqual(error.toJSON());
  });

  it("is recognized by its Symbol.for marker, also for an object from another copy of the package", () => {
    expect(isSdkError(new ConfigError("bad", { code: "CONFIG_INVALID", path: "model" }))).toBe(true);
    const foreign = Object.defineProperty(new Error("x"), Symbol.for("wisp.sdk-error"), { value: true });
    expect(isSdkError(foreign)).toBe(true);
    expect(isSdkError(new Error("plain"))).toBe(false);
    expect(isSdkError(null)).toBe(false);
    const callable = Object.defineProperty(() => undefined, Symbol.for("wisp.sdk-error"), { value: true });
    expect(isSdkError(callable)).toBe(false);
  });

  it("instanceof goes by the marker and the tag, so an error from another copy of Wisp is an instance", () => {
    const foreign = Object.defineProperty(
      Object.assign(new Error("x"), { _tag: "ProviderError" }),
      Symbol.for("wisp.sdk-error"),
      {
        value: true,
      },
    );
    expect([
      foreign instanceof ProviderError,
      foreign instanceof SdkError,
      foreign instanceof ConfigError,
    ]).toEqual([true, true, false]);
    expect([
      error instanceof ProviderError,
      error instanceof RequestError,
      new Error("plain") instanceof SdkError,
    ]).toEqual([true, false, false]);
    class Overloaded extends ProviderError {}
    const own = new Overloaded("busy", { code: "OVERLOADED" });
    expect([own instanceof Overloaded, own instanceof ProviderError, error instanceof Overloaded]).toEqual([
      true,
      true,
      false,
    ]);
    const caught: unknown = error;
    if (caught instanceof ProviderError) expectTypeOf(caught).toEqualTypeOf<ProviderError>();
  });

  it("an AbortError is never retryable", () => {
    expect(new AbortError("stop", { code: "ABORTED" }).retryable).toBe(false);
  });

  it("takes retryable from its code when none is given, as a provider's own answer would have it", () => {
    expect(new ProviderError("slow down", { code: "RATE_LIMITED" }).retryable).toBe(true);
    expect(new ProviderError("busy", { code: "OVERLOADED" }).retryable).toBe(true);
    expect(new RequestError("gone", { code: "NETWORK" }).retryable).toBe(true);
    expect(new RequestError("slow", { code: "TIMEOUT" }).retryable).toBe(true);
    expect(new ParseError("cut", { code: "STREAM_TRUNCATED" }).retryable).toBe(true);
    expect(new ProviderError("no", { code: "AUTH" }).retryable).toBe(false);
    expect(new ConfigError("bad", { code: "CONFIG_INVALID" }).retryable).toBe(false);
    expect(new ProviderError("said no", { code: "RATE_LIMITED", retryable: false }).retryable).toBe(false);
    expect(new ProviderError("try again", { code: "AUTH", retryable: true }).retryable).toBe(true);
  });

  it("keeps a defaulted retryable through JSON, so a revived error is retried the same", () => {
    const revived = sdkErrorFromJSON(
      JSON.parse(JSON.stringify(new ProviderError("x", { code: "RATE_LIMITED" }))),
    );
    expect(revived).toMatchObject({ code: "RATE_LIMITED", retryable: true });
  });
});
