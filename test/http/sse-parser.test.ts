/**
 * Wisp's SSE parser against eventsource-parser (a widely used implementation of the WHATWG rules,
 * kept as a dev dependency for this comparison and the benchmark's raw baseline): the same events —
 * names, ids, data — and the same reconnection times (`retry:`) from every recorded stream in
 * ../shared/fixtures and from random streams of SSE fragments (every line ending, comments, unknown
 * fields, ids with NUL, fields without a colon, retry values valid and not), each fed whole and in
 * random chunks that split `\r\n` pairs, lines and fields anywhere.
 */
import { readdirSync } from "node:fs";
import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { type SseEvent, SseParser } from "../../src/http/sse-parser.ts";
import { retryField } from "../../src/http/sse-retry.ts";
import { cutRandomly, FIXTURES, fixtureText, seededRandom } from "../support/fixtures.ts";

/** `text` cut into pieces of 1 to `max` characters at random. */
const pieces = (text: string, seed: number, max: number): string[] =>
  cutRandomly(text, seededRandom(seed), max);

function ours(chunks: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = new SseParser((event) => events.push({ ...event }));
  for (const chunk of chunks) parser.feed(chunk);
  return events;
}

/** The reconnection times our parser reports, in order (through `retryField`, as MCP reads streams). */
function ourRetries(chunks: string[]): number[] {
  const retries: number[] = [];
  const parser = new SseParser(
    () => {},
    retryField((ms) => retries.push(ms)),
  );
  for (const chunk of chunks) parser.feed(chunk);
  return retries;
}

/**
 * eventsource-parser's events and reconnection times. Its `reset()` at the end discards an
 * unterminated last line, as the standard does (`consume: true` would parse it, which changes no
 * event — none is dispatched without its blank line — but would set a `retry` the standard ignores).
 */
function referenceOf(chunks: string[]): { events: SseEvent[]; retries: number[] } {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const parser = createParser({
    onEvent: ({ id, event, data }) => events.push({ id, event, data }),
    onRetry: (ms) => retries.push(ms),
  });
  for (const chunk of chunks) parser.feed(chunk);
  parser.reset();
  return { events, retries };
}

const reference = (chunks: string[]): SseEvent[] => referenceOf(chunks).events;

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
    expect(ourRetries([text])).toEqual(referenceOf([text]).retries);
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
  "retry:7",
  "retry:  7",
  "retry: 1x",
  "retry: -5",
  "retry: ٣",
  "retry",
  "retry:",
  "retryx: 3",
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
      const { events: expected, retries } = referenceOf([text]);
      expect(ours([text]), JSON.stringify(text)).toEqual(expected);
      expect(ourRetries([text]), JSON.stringify(text)).toEqual(retries);
      expect(ourRetries(pieces(text, seed, 3)), JSON.stringify(text)).toEqual(retries);
      expect(ourRetries(pieces(text, seed + 2000, 1)), JSON.stringify(text)).toEqual(retries);
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

  it("an empty event name is no name (the event is a plain message), and names do not carry over to the next event", () => {
    expect(ours(["event:\ndata: x\n\nevent: ping\ndata: y\n\ndata: z\n\n"])).toEqual([
      { id: undefined, event: undefined, data: "x" },
      { id: undefined, event: "ping", data: "y" },
      { id: undefined, event: undefined, data: "z" },
    ]);
  });

  it("a line spread over thousands of chunks arrives whole", () => {
    const data = "y".repeat(100_000);
    expect(ours([...pieces(`data: ${data}\n\n`, 3, 7)])).toEqual([{ id: undefined, event: undefined, data }]);
  });
});

describe("retry: the stream's reconnection time", () => {
  it("is reported as the line arrives, with or without a dispatched event, in every line ending", () => {
    for (const eol of ["\n", "\r\n", "\r"]) {
      const lines = ["retry: 500", "", "id: e1", "retry:250", "data: x", "", "retry: 0", ""];
      expect(ourRetries([lines.join(eol)])).toEqual([500, 250, 0]);
      expect(ourRetries(pieces(lines.join(eol), 5, 2))).toEqual([500, 250, 0]);
    }
  });

  it("only ASCII digits count: a sign, a second space, a fraction, other scripts' digits or an empty value are ignored", () => {
    const invalid = [
      "retry: -1",
      "retry:  500",
      "retry: 5.5",
      "retry: 1e3",
      "retry: \u0665\u0660\u0660",
      "retry: ",
      "retry",
      "retry : 5",
      "retry: 5 ",
    ];
    expect(ourRetries([`${invalid.join("\n")}\n\n`])).toEqual([]);
    expect(ourRetries(["retry: 00042\n"])).toEqual([42]);
  });

  it("a retry line without its ending at the end of the stream is discarded", () => {
    expect(ourRetries(["retry: 300\ndata: x\n\nretry: 9000"])).toEqual([300]);
  });

  it("a value of more digits than fit a number is still reported, as a huge number for the caller to bound", () => {
    const [ms] = ourRetries([`retry: ${"9".repeat(40)}\n`]);
    expect(ms).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
  });

  it("without a field handler, retry lines change nothing in the events", () => {
    expect(ours(["retry: 10\ndata: a\nretry: 20\n\n"])).toEqual([
      { id: undefined, event: undefined, data: "a" },
    ]);
  });
});
