/**
 * Costs add up the way people write them: no float noise in `costUsd`, however many turns are summed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addUsage, emptyUsage, type Usage } from "../../src/index.ts";
import { costOf } from "../../src/usage/prices.ts";

const usage = (costUsd: number): Usage => ({ ...emptyUsage(), costUsd });

/** True when `value` prints with at most 12 decimals (no 0.1 + 0.2 = 0.30000000000000004 tails). */
function printsClean(value: number): boolean {
  const decimals = String(value).split(".")[1] ?? "";
  return !String(value).includes("e") ? decimals.length <= 12 : value === 0 || Math.abs(value) >= 1e-12;
}

describe("costUsd", () => {
  it("sums 0.00001 + 0.00016 to 0.00017, not 0.00016999999999999999", () => {
    expect(addUsage(usage(0.00001), usage(0.00016)).costUsd).toBe(0.00017);
    expect(String(addUsage(usage(0.1), usage(0.2)).costUsd)).toBe("0.3");
  });

  it("prices a turn without noise: 1,234 input and 567 output tokens at $3 / $15 per million", () => {
    const cost = costOf({ ...emptyUsage(), input: 1234, output: 567 }, { input: 3, output: 15 });
    expect(cost).toBe(0.012207);
  });

  it("any sum of per-token-priced turns prints with at most 12 decimals", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ input: fc.nat(200_000), output: fc.nat(20_000) }), {
          minLength: 1,
          maxLength: 50,
        }),
        fc.constantFrom(0.25, 0.8, 1.1, 2.5, 3, 15, 0.075),
        (turns, price) => {
          let total = emptyUsage();
          for (const turn of turns) {
            const cost = costOf({ ...emptyUsage(), ...turn }, { input: price, output: price * 4 });
            total = addUsage(total, usage(cost));
          }
          return printsClean(total.costUsd ?? 0);
        },
      ),
    );
  });
});
