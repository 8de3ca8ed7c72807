/**
 * Errors across the port (cloneable.ts), driven directly: a thrown value that is not an SdkError
 * travels as a RequestError saying what failed, anything arriving that is not an error's JSON becomes
 * a RequestError saying it cannot be read, and an event whose `error` key holds nothing stays as it
 * is. Typed errors crossing a real port are in bridge.test.ts.
 */
import { describe, expect, it } from "vitest";
import { errorFromWire, errorToWire, eventFromWire, eventToWire } from "../../src/bridge/cloneable.ts";
import type { AgentEvent } from "../../src/index.ts";
import { ConfigError, isSdkError } from "../../src/index.ts";

describe("errors across the port", () => {
  it("a thrown value that is not an SdkError travels as a RequestError saying the other side failed", () => {
    expect(errorToWire(new Error("disk full"))).toMatchObject({
      _tag: "RequestError",
      code: "UNKNOWN",
      message: "The other side of the bridge failed: disk full",
    });
  });

  it("an SdkError's JSON comes back as that SdkError", () => {
    const error = errorFromWire(new ConfigError("bad", { code: "CONFIG_INVALID", path: "model" }).toJSON());
    expect(isSdkError(error)).toBe(true);
    expect(error).toMatchObject({ _tag: "ConfigError", path: "model", message: "bad" });
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a string", "it broke"],
    ["a number", 7],
    ["an object without a tag", { message: "it broke" }],
    ["an object whose tag is not a string", { _tag: 1, message: "it broke" }],
  ])("%s is a RequestError saying it cannot be read", (_name, value) => {
    expect(errorFromWire(value)).toMatchObject({
      _tag: "RequestError",
      code: "UNKNOWN",
      message: expect.stringMatching(/^The bridge received an error it cannot read: /),
    });
  });
});

describe("events across the port", () => {
  it("an event whose error key holds nothing keeps it empty, both ways", () => {
    const event = {
      type: "tool-result",
      toolCall: { id: "c1", name: "lookup", args: {} },
      result: { type: "tool_result", toolCallId: "c1", toolName: "lookup", output: "ok", isError: false },
      durationMs: 1,
      error: undefined,
    } as unknown as AgentEvent;
    expect((eventToWire(event) as { error?: unknown }).error).toBeUndefined();
    expect((eventFromWire(structuredClone(event)) as { error?: unknown }).error).toBeUndefined();
  });
});
