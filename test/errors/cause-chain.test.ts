/**
 * The cause chain of a thrown value is read without trusting it: bounded in length, ended by a
 * cycle, blind to getters that throw and to revoked Proxies; classification over it never throws.
 */
import { describe, expect, it } from "vitest";
import { causeChain, MAX_CHAIN_LENGTH } from "../../src/errors/cause-chain.ts";
import { classifyThrown, isNetworkFailure, toSdkError } from "../../src/index.ts";
import { revokedProxy, withCode, wrapped } from "./thrown-values.ts";

describe("the cause chain is read safely", () => {
  it("is cut at its length limit, however long", () => {
    const chain = causeChain(wrapped(10_000, new Error("bottom")));
    expect(chain).toHaveLength(MAX_CHAIN_LENGTH);
    expect(chain[0]?.message).toBe("wrapper 1");
  });

  it("ends at a cause met before (a cycle)", () => {
    const first = new Error("first");
    const second = new Error("second", { cause: first });
    (first as { cause?: unknown }).cause = second;
    expect(causeChain(first).map((link) => link.message)).toEqual(["first", "second"]);
    expect(classifyThrown(first, { provider: "x" })).toMatchObject({ code: "UNKNOWN", retryable: false });
  });

  it("skips fields whose getters throw, and a revoked Proxy anywhere", () => {
    const hostile = new Error("hostile");
    for (const key of ["cause", "code", "name"]) {
      Object.defineProperty(hostile, key, {
        get() {
          throw new Error(`no ${key}`);
        },
      });
    }
    const proxy = revokedProxy();
    expect(causeChain(hostile)).toEqual([{ value: hostile, name: "", code: undefined, message: "hostile" }]);
    expect(causeChain(new Error("outer", { cause: proxy }))).toHaveLength(2);
    for (const thrown of [hostile, proxy, new Error("outer", { cause: proxy })]) {
      expect(() => classifyThrown(thrown, { provider: "x" })).not.toThrow();
      expect(() => toSdkError(thrown)).not.toThrow();
      expect(isNetworkFailure(thrown)).toBe(false);
    }
  });

  it("reads an AggregateError without a message by the messages it aggregates", () => {
    const both = new AggregateError(
      [new Error("connect ECONNREFUSED ::1:1"), new Error("connect ECONNREFUSED 127.0.0.1:1")],
      "",
    );
    expect(causeChain(both)[0]?.message).toBe("connect ECONNREFUSED ::1:1; connect ECONNREFUSED 127.0.0.1:1");
    expect(toSdkError(new TypeError("fetch failed", { cause: both }))).toMatchObject({ code: "NETWORK" });
  });

  it("names at most 16 of an AggregateError's errors, leaving out those without a message", () => {
    const errors = [
      new Error(""),
      ...Array.from({ length: 20 }, (_, index) => new Error(`try ${index + 1}`)),
    ];
    const error = toSdkError(new TypeError("fetch failed", { cause: new AggregateError(errors, "") }));
    const shown = Array.from({ length: 15 }, (_, index) => `try ${index + 1}`).join("; ");
    expect(error).toMatchObject({ code: "NETWORK", message: shown });
  });

  it("a cause without a message leaves the message of the error around it", () => {
    expect(toSdkError(new TypeError("fetch failed", { cause: new Error() })).message).toBe("fetch failed");
  });

  it("a string cause is a link with its text as message, and no name or code", () => {
    expect(causeChain(new Error("proxy failed", { cause: "ECONNREFUSED" }))[1]).toEqual({
      value: "ECONNREFUSED",
      name: "",
      code: undefined,
      message: "ECONNREFUSED",
    });
  });

  it("a callable cause is read like an error object: its code, its message and its own cause count", () => {
    const socket = withCode("connect ECONNRESET 10.0.0.1:443", "ECONNRESET");
    const callable = Object.assign(() => undefined, { message: "signer failed", cause: socket });
    expect(causeChain(new Error("wrapper", { cause: callable })).map((link) => link.message)).toEqual([
      "wrapper",
      "signer failed",
      "connect ECONNRESET 10.0.0.1:443",
    ]);
    const coded = Object.assign(() => undefined, { code: "ECONNREFUSED" });
    expect(toSdkError(new Error("wrapper", { cause: coded }))).toMatchObject({
      code: "NETWORK",
      causeCode: "ECONNREFUSED",
      retryable: true,
    });
  });
});
