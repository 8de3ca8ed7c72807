/**
 * Error types that help: `_tag` narrows a Result's error to its class, and the class narrows `code`
 * to its own codes, so an exhaustive `switch` type-checks and a missing case does not. (Checked by
 * `tsc` over the tests; the runtime assertions keep the narrowing honest.)
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type AnySdkError,
  type BudgetErrorCode,
  type ConfigErrorCode,
  type ErrorCode,
  type HookErrorCode,
  isSdkError,
  type ParseErrorCode,
  type ProviderErrorCode,
  type RequestErrorCode,
  runAgent,
  sdkErrorFromJSON,
  type ToolErrorCode,
  uncheckedModel,
} from "../../src/index.ts";

/** Every tag handled, and within ProviderError every code: the `never` checks prove exhaustiveness. */
function advice(error: AnySdkError): string {
  switch (error._tag) {
    case "ProviderError":
      switch (error.code) {
        case "AUTH":
        case "PERMISSION":
        case "BILLING":
        case "QUOTA_EXCEEDED":
          return "check the key and the account";
        case "RATE_LIMITED":
        case "OVERLOADED":
        case "SERVER_ERROR":
        case "TIMEOUT":
        case "CONFLICT":
          return "retry later";
        case "MODEL_NOT_FOUND":
        case "NOT_FOUND":
          return "check the model and baseURL";
        case "CONTEXT_LENGTH":
        case "REQUEST_TOO_LARGE":
          return "shorten the conversation";
        case "INVALID_REQUEST":
        case "UNKNOWN":
          return "read the message";
        default: {
          const unreachable: never = error;
          return unreachable;
        }
      }
    case "ConfigError":
      return `fix ${error.path ?? "the options"}`;
    case "RequestError":
      return error.code === "NETWORK" ? "check the connection" : "retry";
    case "AbortError":
      return "stopped";
    case "ParseError":
    case "HookError":
    case "ToolError":
    case "BudgetError":
      return error.code;
    default: {
      const unreachable: never = error;
      return unreachable;
    }
  }
}

/** A switch that forgets a code does not compile. */
function incomplete(error: AnySdkError): string {
  if (error._tag !== "ConfigError") return "";
  switch (error.code) {
    case "CONFIG_INVALID":
    case "SESSION_BUSY":
      return "handled";
    default: {
      // @ts-expect-error SESSION_CLOSED is not handled, so the error is not narrowed to never here
      const unreachable: never = error;
      return unreachable;
    }
  }
}

describe("error types", () => {
  it("narrow a run's error by _tag, and its code by class", async () => {
    const result = await runAgent({ model: uncheckedModel("nowhere/model"), apiKey: "k", prompt: "hi" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expectTypeOf(result.error).toEqualTypeOf<AnySdkError>();
    if (result.error._tag === "ConfigError") expectTypeOf(result.error.code).toEqualTypeOf<ConfigErrorCode>();
    if (result.error._tag === "ProviderError")
      expectTypeOf(result.error.code).toEqualTypeOf<ProviderErrorCode>();
    if (result.error._tag === "ToolError") expectTypeOf(result.error.code).toEqualTypeOf<ToolErrorCode>();
    expect(advice(result.error)).toBe("fix provider");
    expect(incomplete(result.error)).toBe("handled");
  });
});

/** Every RequestError code handled: what a transport failure can be, exhaustively. */
function transportAdvice(error: AnySdkError): string {
  if (error._tag !== "RequestError") return "";
  switch (error.code) {
    case "NETWORK":
      return `check ${error.request?.url ?? "the connection"} (${error.causeCode ?? "no code"})`;
    case "TIMEOUT":
    case "OVERLOADED":
    case "RATE_LIMITED":
      return "retry later";
    case "BRIDGE_CLOSED":
      return "start the worker again";
    case "CONTEXT_LENGTH":
    case "UNKNOWN":
      return "read the message";
    default: {
      const unreachable: never = error;
      return unreachable;
    }
  }
}

describe("each tag's codes", () => {
  it("narrow code for every class, and only to codes of the ErrorCode union", () => {
    const error = sdkErrorFromJSON({
      _tag: "RequestError",
      name: "RequestError",
      code: "NETWORK",
      message: "Could not reach …",
      retryable: true,
      request: { method: "POST", url: "http://127.0.0.1:1/v1/messages" },
      causeCode: "ECONNREFUSED",
    });
    expectTypeOf(error).toEqualTypeOf<AnySdkError>();
    switch (error._tag) {
      case "RequestError":
        expectTypeOf(error.code).toEqualTypeOf<RequestErrorCode>();
        break;
      case "ParseError":
        expectTypeOf(error.code).toEqualTypeOf<ParseErrorCode>();
        break;
      case "HookError":
        expectTypeOf(error.code).toEqualTypeOf<HookErrorCode>();
        break;
      case "BudgetError":
        expectTypeOf(error.code).toEqualTypeOf<BudgetErrorCode>();
        break;
      case "AbortError":
        expectTypeOf(error.code).toEqualTypeOf<"ABORTED">();
        break;
    }
    expectTypeOf<AnySdkError["code"]>().toExtend<ErrorCode>();
    expectTypeOf<ErrorCode>().toExtend<AnySdkError["code"]>();
    expect(transportAdvice(error)).toBe("check http://127.0.0.1:1/v1/messages (ECONNREFUSED)");
  });

  it("isSdkError narrows an unknown value to the tagged union", () => {
    const value: unknown = sdkErrorFromJSON({
      _tag: "ConfigError",
      name: "ConfigError",
      code: "SESSION_CLOSED",
      message: "closed",
      retryable: false,
    });
    if (!isSdkError(value)) throw new Error("expected an SdkError");
    expectTypeOf(value).toEqualTypeOf<AnySdkError>();
    expect(value._tag === "ConfigError" && value.code).toBe("SESSION_CLOSED");
  });
});
