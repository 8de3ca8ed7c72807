/**
 * The incremental JSON parser: on random documents cut into random fragments, the final value equals
 * JSON.parse's and every value on the way is a part of it (strings cut where they are, no member
 * that is not in the end); on random corruptions it accepts exactly what JSON.parse accepts; and it
 * stays safe on hostile text (`__proto__` keys, deep nesting).
 */
import { describe, expect, it } from "vitest";
import { PartialJson } from "../../src/output/partial-json.ts";
import type { JsonValue } from "../../src/types.ts";
import { cutRandomly, seededRandom } from "../support/fixtures.ts";
import { isPartOf } from "../support/json-parts.ts";

const WORDS = [
  "pelican",
  "é",
  "😊",
  "世界",
  'say "hi"',
  "back\\slash",
  "line\nbreak",
  "tab\t",
  "\u0001",
  "",
  " ",
];

function randomValue(random: () => number, depth = 0): JsonValue {
  const pick = Math.floor(random() * (depth > 3 ? 4 : 6));
  switch (pick) {
    case 0:
      return WORDS[Math.floor(random() * WORDS.length)] as string;
    case 1: {
      const numbers = [0, -1, 3.25, 1e21, -2.5e-7, 42, 123456789];
      return numbers[Math.floor(random() * numbers.length)] as number;
    }
    case 2:
      return [true, false, null][Math.floor(random() * 3)] as JsonValue;
    case 3:
      return `${WORDS[Math.floor(random() * WORDS.length)]}${Math.floor(random() * 100)}`;
    case 4:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, (_, index) => [
          `${WORDS[Math.floor(random() * WORDS.length)]}${index}`,
          randomValue(random, depth + 1),
        ]),
      );
  }
}

function parseAll(chunks: string[]): PartialJson {
  const parser = new PartialJson();
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return parser;
}

describe("PartialJson", () => {
  it("reads random documents in random fragments to JSON.parse's value, each step a part of it", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = seededRandom(seed);
      const value = randomValue(random);
      const text = JSON.stringify(value, null, seed % 3 === 0 ? 2 : undefined);
      const expected = JSON.parse(text);
      const parser = new PartialJson();
      for (const chunk of cutRandomly(text, random, 1 + (seed % 9))) {
        expect(parser.push(chunk), text).toBe(true);
        if (parser.value !== undefined)
          expect(isPartOf(structuredClone(parser.value), expected), text).toBe(true);
      }
      expect(parser.end(), text).toBe(true);
      expect(parser.value).toEqual(expected);
    }
  });

  it("accepts exactly what JSON.parse accepts, on random corruptions", () => {
    const noise = ['"', ",", "}", "]", "{", "[", ":", "\\", "x", "1", "-", ".", "e", " ", "\n", "nul", "u00"];
    for (let seed = 1; seed <= 1500; seed++) {
      const random = seededRandom(seed);
      const text = JSON.stringify(randomValue(random));
      const at = Math.floor(random() * (text.length + 1));
      const corrupted =
        random() < 0.5
          ? text.slice(0, at) + text.slice(at + 1)
          : text.slice(0, at) + noise[Math.floor(random() * noise.length)] + text.slice(at);
      let expected: { ok: true; value: unknown } | { ok: false };
      try {
        expected = { ok: true, value: JSON.parse(corrupted) };
      } catch {
        expected = { ok: false };
      }
      const parser = parseAll(cutRandomly(corrupted, random, 4));
      expect(parser.complete, JSON.stringify(corrupted)).toBe(expected.ok);
      if (expected.ok) expect(parser.value).toEqual(expected.value);
    }
  });

  it.each([
    "[1,]",
    '{"a":1,}',
    "[,1]",
    "{,}",
    "01",
    "1.",
    "-",
    '"\\x"',
    "tru",
    '{"a" 1}',
    "[1 2]",
    '{"a":}',
    "[}",
    '"cut',
    "",
    "toString",
    '{"a": toString}',
    "[constructor]",
    "__proto__",
  ])("refuses %j, as JSON.parse does", (text) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(parseAll([text]).complete).toBe(false);
    expect(parseAll(cutRandomly(text, seededRandom(1), 1)).complete).toBe(false);
  });

  it("shows the string being written, and numbers and literals once they end", () => {
    const parser = new PartialJson();
    parser.push('{"name": "Pel');
    expect(parser.value).toEqual({ name: "Pel" });
    parser.push('ican", "size": 12');
    expect(parser.value).toEqual({ name: "Pelican" });
    expect(Object.hasOwn(parser.value as object, "size")).toBe(false);
    parser.push('3, "tags": ["bird", tr');
    expect(parser.value).toEqual({ name: "Pelican", size: 123, tags: ["bird"] });
    parser.push("ue]}");
    expect(parser.complete).toBe(true);
    expect(parser.value).toEqual({ name: "Pelican", size: 123, tags: ["bird", true] });
  });

  it("keeps a __proto__ key as an own property, never as the prototype", () => {
    const parser = parseAll(['{"__proto__": {"polluted": 1}, "a": {"__proto__": []}}']);
    const value = parser.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(value).toEqual(JSON.parse('{"__proto__": {"polluted": 1}, "a": {"__proto__": []}}'));
  });

  it("refuses nesting deeper than 100 levels, and text after the value", () => {
    const deep = parseAll(["[".repeat(101)]);
    expect(deep.error).toMatch(/nested deeper than 100 levels at offset 100/);
    const after = parseAll(['{"a":1} x']);
    expect(after.complete).toBe(false);
    expect(after.error).toMatch(/text after the value at offset 8/);
    // The value before that text was whole, and stays as it was.
    expect(after.whole).toBe(true);
    expect(after.value).toEqual({ a: 1 });
    expect(parseAll(['{"a":1']).whole).toBe(false);
    expect(parseAll(['{"a":1 x']).whole).toBe(false);
  });
});
