/**
 * The cause chain of a thrown value is read without trusting it: bounded in length, ended by a
 * cycle, blind to getters that throw and to revoked Proxies; classification over it never throws.
 */
import { describe, expect, it } from "vitest";
import { causeChain, MAX_CHAIN_LENGTH } from "../../src/errors/cause-chain.ts";
import { classifyThrown, isNetworkFailure, toSdkError } from "../../src/index.ts";
import { revokedProxy, wrapped } from "./thrown-values.ts";

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
});
