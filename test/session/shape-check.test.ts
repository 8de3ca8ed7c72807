/**
 * Wisp's own shape checker, on its own: what it accepts comes back as a stripped copy, and what it
 * refuses names the first bad field in words. (The restore tests check the words of the state's
 * fields; these check the pieces the state check is built from.)
 */
import { describe, expect, it } from "vitest";
import {
  array,
  boolean,
  type Check,
  number,
  object,
  oneOf,
  optional,
  refine,
  ShapeProblem,
  satisfies,
  string,
  variant,
} from "../../src/state/shape-check.ts";

function problem(check: Check, value: unknown): { path: string; words: string } {
  try {
    check(value);
  } catch (error) {
    if (error instanceof ShapeProblem) return { path: error.path.join("."), words: error.words };
    throw error;
  }
  throw new Error("expected the value to be refused");
}

const point = object<{ x: number; label?: string }>({ x: number(), label: optional(string(1, 3)) });

describe("objects", () => {
  it("come back as copies holding only the known fields, an undefined optional left out", () => {
    const value = { x: 1, label: undefined, extra: "dropped" };
    const checked = point(value);
    expect(checked).toStrictEqual({ x: 1 });
    expect(checked).not.toBe(value);
  });

  it("name the first bad field in the order the fields are declared", () => {
    expect(problem(point, { label: 7, x: "1" })).toEqual({
      path: "x",
      words: "expected a number, got string",
    });
    expect(problem(point, { x: 1, label: "long" })).toEqual({
      path: "label",
      words: "expected a string of at most 3 characters",
    });
    expect(problem(point, [])).toEqual({ path: "", words: "expected an object, got array" });
    expect(problem(point, null)).toEqual({ path: "", words: "expected an object, got null" });
  });

  it("read no inherited field: a `__proto__` or `constructor` key changes nothing", () => {
    const hostile = JSON.parse('{"__proto__": {"x": 1}, "constructor": 2}');
    expect(problem(point, hostile)).toEqual({ path: "x", words: "expected a number, got nothing" });
  });
});

describe("arrays", () => {
  const list = array(point, 2);

  it("are copied item by item, and the path names the item", () => {
    const items = [{ x: 1 }, { x: 2, y: 3 }];
    expect(list(items)).toStrictEqual([{ x: 1 }, { x: 2 }]);
    expect(problem(list, [{ x: 1 }, { x: Number.NaN }])).toEqual({
      path: "1.x",
      words: "expected a number, got NaN",
    });
  });

  it("refuse more items than allowed", () => {
    expect(problem(list, [{ x: 1 }, { x: 2 }, { x: 3 }])).toEqual({
      path: "",
      words: "expected at most 2 items, got an array",
    });
  });
});

describe("values", () => {
  it("numbers: finite, bounds inclusive or strict, integers safe", () => {
    const check = number({ integer: true, above: 0, max: 10 });
    expect(check(10)).toBe(10);
    expect(problem(check, 0).words).toBe("expected a number > 0, got 0");
    expect(problem(check, 11).words).toBe("expected a number ≤ 10, got 11");
    expect(problem(check, 0.5).words).toBe("expected an integer, got 0.5");
    expect(problem(number(), Number.POSITIVE_INFINITY).words).toBe("expected a number, got Infinity");
    expect(problem(number({ min: 0 }), -1).words).toBe("expected a number ≥ 0, got -1");
  });

  it("choices, refinements, booleans and tests say what was expected and show what came", () => {
    expect(problem(oneOf(["a", "b"]), "c").words).toBe('expected one of a, b, got "c"');
    expect(problem(oneOf([2]), 3).words).toBe("expected 2, got 3");
    const even = refine(number(), (value) => value % 2 === 0, "an even number");
    expect(problem(even, 3).words).toBe("expected an even number, got 3");
    expect(problem(even, "3").words).toBe("expected a number, got string");
    expect(problem(boolean, "true").words).toBe("expected a boolean, got string");
    const tested = satisfies((value) => value === 1, "one");
    expect(problem(tested, "x".repeat(50)).words).toBe(`expected one, got "${"x".repeat(40)}…"`);
  });

  it("a test's value is passed through as it is, not copied", () => {
    const value = { deep: { a: 1 } };
    expect(satisfies(() => true, "anything")(value)).toBe(value);
  });
});

describe("variants", () => {
  const shape = variant("kind", {
    circle: object({ kind: oneOf(["circle"]), r: number() }),
    square: object({ kind: oneOf(["square"]), side: number() }),
  });

  it("pick the check by the tag field", () => {
    expect(shape({ kind: "square", side: 2, r: 1 })).toStrictEqual({ kind: "square", side: 2 });
    expect(problem(shape, { kind: "circle", r: "1" })).toEqual({
      path: "r",
      words: "expected a number, got string",
    });
  });

  it("name the tag when it is none of them, even a name every object inherits", () => {
    for (const kind of ["triangle", "constructor", "__proto__", 3, undefined]) {
      expect(problem(shape, { kind })).toEqual({
        path: "kind",
        words: expect.stringMatching(/^expected one of circle, square, got /),
      });
    }
    expect(problem(shape, "circle")).toEqual({ path: "", words: "expected an object, got string" });
  });
});
