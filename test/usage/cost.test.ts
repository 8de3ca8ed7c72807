/**
 * Costs add up the way people write them: no float noise in `costUsd`, however many turns are summed
 * and however large the total grows.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addUsage, emptyUsage, type Usage } from "../../src/index.ts";
import { OPENAI_PRICES } from "../../src/usage/openai-prices.ts";
import { costOf, findPrice } from "../../src/usage/prices.ts";

const usage = (costUsd: number): Usage => ({ ...emptyUsage(), costUsd });

/**
 * Significant digits `value` prints with (`0.00017` → 2, `1.7e-7` → 2, `0.30000000000000004` → 17).
 * Float noise shows as 16 or 17 of them.
 */
function printedDigits(value: number): number {
  const mantissa = String(value).split("e")[0] ?? "";
  return mantissa.replace(/[-.]/g, "").replace(/^0+/, "").length;
}

/** The exact decimal sum of `amounts`, each given in whole picodollars (1e-12 USD), as a string. */
function exactSum(picodollars: readonly bigint[]): string {
  const total = picodollars.reduce((a, b) => a + b, 0n);
  const text = total.toString().padStart(13, "0");
  const whole = text.slice(0, -12);
  const fraction = text.slice(-12).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

describe("costUsd", () => {
  it("sums 0.00001 + 0.00016 to 0.00017, not 0.00016999999999999999", () => {
    expect(addUsage(usage(0.00001), usage(0.00016)).costUsd).toBe(0.00017);
    expect(String(addUsage(usage(0.1), usage(0.2)).costUsd)).toBe("0.3");
  });

  it("stays clean past $9,000, where a trillionth-of-a-dollar grid no longer fits in a double", () => {
    expect(String(addUsage(usage(10000.1), usage(0.2)).costUsd)).toBe("10000.3");
    let total = emptyUsage();
    for (let turn = 0; turn < 100_000; turn++) total = addUsage(total, usage(0.123456));
    expect(String(total.costUsd)).toBe("12345.6");
  });

  it("gpt-5.1 and its dated snapshot are priced at OpenAI's list price ($1.25 / $0.125 cached / $10)", () => {
    const price = findPrice("gpt-5.1-2025-11-13", OPENAI_PRICES);
    expect(price).toEqual({ input: 1.25, output: 10, cacheRead: 0.125 });
    const turn = { ...emptyUsage(), input: 10_000, cacheRead: 90_000, output: 2_000 };
    expect(price && costOf(turn, price)).toBe(0.04375);
  });

  it("prices a turn without noise: 1,234 input and 567 output tokens at $3 / $15 per million", () => {
    const cost = costOf({ ...emptyUsage(), input: 1234, output: 567 }, { input: 3, output: 15 });
    expect(cost).toBe(0.012207);
  });

  it("any sum of per-token-priced turns is the exact decimal sum, printed without noise", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ input: fc.nat(2_000_000), output: fc.nat(200_000), cacheRead: fc.nat(5_000_000) }),
          { minLength: 1, maxLength: 60 },
        ),
        fc.constantFrom(0.005, 0.025, 0.075, 0.1, 0.125, 0.25, 0.8, 1.1, 1.25, 2.5, 3, 3.75, 15, 75),
        (turns, price) => {
          const modelPrice = { input: price, output: price * 4, cacheRead: price / 10 };
          let total = emptyUsage();
          const exact: bigint[] = [];
          for (const turn of turns) {
            const cost = costOf({ ...emptyUsage(), ...turn }, modelPrice);
            total = addUsage(total, usage(cost));
            // The same cost in whole picodollars, from the price as people write it (exact decimals).
            const perMillion = (value: number) => BigInt(Math.round(value * 1e9)); // nano-dollars per million
            const picodollars =
              (BigInt(turn.input) * perMillion(modelPrice.input) +
                BigInt(turn.output) * perMillion(modelPrice.output) +
                BigInt(turn.cacheRead) * perMillion(modelPrice.cacheRead)) /
              1000n;
            exact.push(picodollars);
          }
          const printed = String(total.costUsd);
          expect(printedDigits(total.costUsd ?? 0)).toBeLessThanOrEqual(15);
          expect(printed).toBe(exactSum(exact));
        },
      ),
    );
  });

  it("tiny costs (printed as 1.7e-7) carry no noise either", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(50), { minLength: 1, maxLength: 40 }), (tokenCounts) => {
        let total = emptyUsage();
        for (const input of tokenCounts) {
          total = addUsage(total, usage(costOf({ ...emptyUsage(), input }, { input: 0.0175, output: 0 })));
        }
        const sum = tokenCounts.reduce((a, b) => a + b, 0);
        return printedDigits(total.costUsd ?? 0) <= Math.max(1, String(sum * 175).replace(/0+$/, "").length);
      }),
    );
  });
});

describe("token counts", () => {
  it("a session's summed counts stop at Number.MAX_SAFE_INTEGER, so its export still restores", () => {
    const huge = { ...emptyUsage(), input: Number.MAX_SAFE_INTEGER, reasoning: Number.MAX_SAFE_INTEGER };
    const sum = addUsage(huge, { ...emptyUsage(), input: 10, reasoning: 1 });
    expect(sum.input).toBe(Number.MAX_SAFE_INTEGER);
    expect(sum.reasoning).toBe(Number.MAX_SAFE_INTEGER);
    expect(addUsage({ ...emptyUsage(), output: 2 }, { ...emptyUsage(), output: 3 }).output).toBe(5);
  });
});
