/**
 * A copy of an SdkError with more facts (how many attempts were made): the same class, code and
 * fields, the message with a note added, and the live cause and stack of the original.
 */
import { describe, expect, it } from "vitest";
import { withFields } from "../../src/errors/with-fields.ts";
import { ProviderError, RequestError } from "../../src/index.ts";

describe("withFields", () => {
  it("keeps the class, the code and the fields, adds the new ones and the note", () => {
    const error = new ProviderError("Overloaded", {
      code: "OVERLOADED",
      status: 529,
      provider: "anthropic",
      requestId: "req_1",
    });
    const copy = withFields(error, { attempts: 3 }, " — after 3 attempts");
    expect(copy).toBeInstanceOf(ProviderError);
    expect(copy.toJSON()).toEqual({
      ...error.toJSON(),
      message: "Overloaded — after 3 attempts",
      attempts: 3,
    });
    expect(copy.stack).toBe(error.stack);
  });

  it("keeps the original's cause itself, not its JSON form, as an ordinary cause property", () => {
    const socket = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
    const error = new RequestError("Could not reach the provider", { code: "NETWORK", cause: socket });
    const copy = withFields(error, { attempts: 2 }, " — after 2 attempts");
    expect(copy.cause).toBe(socket);
    expect(Object.getOwnPropertyDescriptor(copy, "cause")).toEqual(
      Object.getOwnPropertyDescriptor(error, "cause"),
    );
  });

  it("has no cause when the original had none", () => {
    const copy = withFields(new RequestError("gone", { code: "NETWORK" }), {}, " (not retried)");
    expect("cause" in copy).toBe(false);
    expect(copy.message).toBe("gone (not retried)");
  });
});
