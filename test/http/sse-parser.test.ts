/**
 * Wisp's SSE parser against eventsource-parser (a widely used implementation of the WHATWG rules,
 * kept as a dev dependency for this comparison and the benchmark's raw baseline): the same events —
 * names, ids, data — from every recorded stream in ../shared/fixtures and from random streams of
 * SSE fragments (every line ending, comments, unknown fields, ids with NUL, fields without a colon),
 * each fed whole and in random chunks that split `\r\n` pairs, lines and fields anywhere.
 */
import { readdirSync } from "node:fs";
import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { type SseEvent, SseParser } from "../../src/http/sse-parser.ts";
import { cutRandomly, FIXTURES, fixtureText, seededRandom } from "../support/fixtures.ts";

/** `text` cut into pieces of 1 to `max` characters at random. */
const pieces = (text: string, seed: number, max: number): string[] =>
  cutRandomly(text, seededRandom(seed), max);

function ours(chunks: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = new SseParser((event) => events.push({ ...event }));
  for (const chunk of chunks) parser.feed(chunk);
  parser.end();
  return events;
}

function reference(chunks: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createParser({ onEvent: ({ id, event, data }) => events.push({ id, event, data }) });
  for (const chunk of chunks) parser.feed(chunk);
  parser.reset({ consume: true });
  return events;
}

const RECORDINGS = readdirSync(FIXTURES, { recursive: true, encoding: "utf8" })
  .filter((name) => name.endsWith(".sse"))
  .sort();

describe("the recorded streams", () => {
  it("there are recordings to read", () => expect(RECORDINGS.length).toBeGreaterThan(20));

  it.each(RECORDINGS)("%s gives the same events as eventsource-parser, however it is chunked", (name) => {
    const text = fixtureText(name);
    const expected = reference([text]);
    expect(expected.length).toBeGreaterThan(0);
    expect(ours([text])).toEqual(expected);
    for (const seed of [1, 2, 3]) expect(ours(pieces(text, seed, 64))).toEqual(expected);
    expect(ours(pieces(text, 7, 1))).toEqual(expected);
    for (const eol of ["\r\n", "\r"]) {
      const other = text.replace(/\r?\n/g, eol);
      expect(ours(pieces(other, 11, 16))).toEqual(expected);
    }
  });
});

const FRAGMENTS = [
  "data",
  "data:",
  "data: ",
  "event:",
  "event: ",
  "id:",
  "id: ",
  "retry: 10",
  ": comment",
  ":",
  "dat",
  "eventx:",
  " ",
  "x",
  "é😊",
  "\0",
  "\n",
  "\n",
  "\r",
  "\r\n",
  "\n\n",
  "{}",
];

describe("random streams", () => {
  it("give the same events as eventsource-parser, whole and chunked", () => {
    for (let seed = 1; seed <= 400; seed++) {
      const random = seededRandom(seed);
      let text = "";
      const length = 1 + Math.floor(random() * 60);
      for (let index = 0; index < length; index++) text += FRAGMENTS[Math.floor(random() * FRAGMENTS.length)];
      const expected = reference([text]);
      expect(ours([text]), JSON.stringify(text)).toEqual(expected);
      expect(ours(pieces(text, seed, 5)), JSON.stringify(text)).toEqual(expected);
      expect(ours(pieces(text, seed + 1000, 1)), JSON.stringify(text)).toEqual(expected);
      // Empty chunks between the pieces (a zero-length read) change nothing.
      expect(ours(pieces(text, seed, 3).flatMap((piece) => ["", piece, ""])), JSON.stringify(text)).toEqual(
        expected,
      );
    }
  });
});

describe("the rules, spelled out", () => {
  it("a \\r\\n split across chunks is one line ending, not a blank line", () => {
    expect(ours(["data: a\r", "\ndata: b\r\n\r\n"])).toEqual([
      { id: undefined, event: undefined, data: "a\nb" },
    ]);
    expect(ours(["data: a\r", "", "\ndata: b\r\n\r\n"])).toEqual([
      { id: undefined, event: undefined, data: "a\nb" },
    ]);
  });

  it("one leading space of a value is dropped, not two; a field without a colon has an empty value", () => {
    expect(ours(["data:  two\ndata\n\n"])).toEqual([{ id: undefined, event: undefined, data: " two\n" }]);
  });

  it("an id with NUL is ignored; an event without data is not dispatched; a last event without its blank line is dropped", () => {
    expect(ours(["id: a\0b\ndata: x\n\nevent: lonely\n\ndata: cut"])).toEqual([
      { id: undefined, event: undefined, data: "x" },
    ]);
  });

  it("a line spread over thousands of chunks arrives whole", () => {
    const data = "y".repeat(100_000);
    expect(ours([...pieces(`data: ${data}\n\n`, 3, 7)])).toEqual([{ id: undefined, event: undefined, data }]);
  });
});
