/**
 * Error types that help: `_tag` narrows a Result's error to its class, and the class narrows `code`
 * to its own codes, so an exhaustive `switch` type-checks and a missing case does not. (Checked by
 * `tsc` over the tests; the runtime assertions keep the narrowing honest.)
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type AnySdkError,
  type ConfigErrorCode,
  type ProviderErrorCode,
  runAgent,
  type ToolErrorCode,
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
      // @ts-expect-error SESSION_CLOSED is not handled, so error.code is not never here
      const unreachable: never = error.code;
      return unreachable;
    }
  }
}

describe("error types", () => {
  it("narrow a run's error by _tag, and its code by class", async () => {
    const result = await runAgent({ model: "nowhere/model", apiKey: "k", prompt: "hi" });
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
