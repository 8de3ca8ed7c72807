/**
 * Which patterns get a bound on their regex work, and the bound itself: a pattern with anything but
 * quantified single-character atoms has none (so it is never run for an untrusted schema), and the
 * reading never sees fewer atoms or repeats than the engine does.
 */
import { describe, expect, it } from "vitest";
import { patternShape, worstCaseSteps } from "../../src/mcp/pattern-cost.ts";

const INF = Number.POSITIVE_INFINITY;
const repeats = (source: string, unicode = true) =>
  patternShape(source, unicode)?.atoms.map(({ min, max }) => (min === max ? min : `${min}-${max}`));

describe("patternShape", () => {
  it.each([
    "^(a+)+$",
    "(a|aa)*",
    "a|b",
    "(?:ab)*",
    "^(?=a)",
    "(?<=a)b",
    "(a)\\1",
    "\\k<x>(?<x>a)",
    "a)",
    "a**",
    "a+*",
    "*a",
    "{2}",
    "[abc",
    "\\",
    "\\c1",
  ])("gives no shape (so no bound) for %s", (source) => {
    expect(patternShape(source, false)).toBeUndefined();
  });

  it("reads atoms and their repeats, classes and escapes whole", () => {
    expect(repeats("^[a-z][a-z0-9_]*$")).toEqual([1, 1, `0-${INF}`, 1]);
    expect(repeats("[(|)]+\\(\\|\\)")).toEqual([`1-${INF}`, 1, 1, 1]);
    expect(repeats("[\\]a]?\\d{2,5}?x{3}y{2,}")).toEqual(["0-1", "2-5", 3, `2-${INF}`]);
    expect(repeats("\\u{1F600}+\\u0041\\x41\\p{L}*\\cJ")).toEqual([`1-${INF}`, 1, 1, `0-${INF}`, 1]);
    // A braced quantifier however it is spelled, never mistaken for literal braces.
    expect(repeats(`a{${"0".repeat(60)}1,}`)).toEqual([`1-${INF}`]);
  });

  it("reads escapes the way the engine does without the u flag", () => {
    expect(repeats("\\u{3}", false)).toEqual([3]); // `\u` is the letter u, then {3}: u three times
    expect(repeats("\\p{L}+", false)).toEqual([1, 1, 1, `1-${INF}`]); // p, {, L, }+
    expect(repeats("a{,5}", false)).toEqual([1, 1, 1, 1, 1]); // not a quantifier: literal braces
    expect(repeats("\\xZ\\u12", false)).toEqual([1, 1, 1, 1, 1]);
    expect(patternShape("\\u{12", true)).toBeUndefined();
  });

  it("knows a pattern anchored by a leading ^", () => {
    expect(patternShape("^a+", true)?.anchored).toBe(true);
    expect(patternShape("a+$", true)?.anchored).toBe(false);
    expect(patternShape("a^", true)?.anchored).toBe(false);
  });
});

describe("worstCaseSteps", () => {
  const steps = (source: string, length: number) =>
    worstCaseSteps(patternShape(source, true) ?? { anchored: false, atoms: [] }, length);

  it("is linear in the text for one unbounded quantifier anchored at the start", () => {
    const ratio = steps("^[a-z]+$", 200_000) / steps("^[a-z]+$", 100_000);
    expect(ratio).toBeCloseTo(2, 1);
  });

  it("grows by a factor of the length per further unbounded quantifier, and for an unanchored start", () => {
    expect(steps("^a*a*$", 1000)).toBeGreaterThan(1000 * 1000);
    expect(steps("^a*a*a*$", 1000)).toBeGreaterThan(1000 ** 3);
    expect(steps("a*$", 1000)).toBeGreaterThan(1000 * 1000);
    // Bounded quantifiers cost a constant factor; the other starts fail at `^` in a step each.
    expect(steps("^a?b?c?$", 1000)).toBeLessThan(1000 + 100);
  });
});
