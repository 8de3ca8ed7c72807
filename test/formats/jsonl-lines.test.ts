/**
 * The JSONL line reader the transcript formats build on: lazy over a string or a stream of text
 * chunks split anywhere, numbering lines from 1, reporting (not throwing on) lines that are not JSON
 * or too long.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type JsonlLine, jsonlLines, MAX_LINE_LENGTH } from "../../src/formats/jsonl-lines.ts";

async function all(input: string | ReadableStream<string>): Promise<JsonlLine[]> {
  const lines: JsonlLine[] = [];
  for await (const line of jsonlLines(input)) lines.push(line);
  return lines;
}

/** `text` as a stream of chunks of `size` characters. */
function chunked(text: string, size: number): ReadableStream<string> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= text.length) controller.close();
      else controller.enqueue(text.slice(offset, (offset += size)));
    },
  });
}

describe("jsonlLines", () => {
  it("reads every line of a real pi session the same from a string and from a stream cut anywhere", async () => {
    const text = readFileSync("../shared/fixtures/sessions/pi-session-v1-large.jsonl", "utf8");
    const whole = await all(text);
    expect(whole).toHaveLength(1019);
    expect(whole.every((line) => "value" in line)).toBe(true);
    expect(whole[0]).toMatchObject({ line: 1, value: { type: "session" } });
    for (const size of [1, 7, 4096]) expect(await all(chunked(text, size))).toEqual(whole);
  });

  it("numbers lines as the file does, skipping blank ones and CRLF endings", async () => {
    const lines = await all('{"a":1}\r\n\n  \n{"b":2}\n');
    expect(lines).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, value: { b: 2 } },
    ]);
  });

  it("reports a line that is not JSON, and a cut-off last line, with their numbers; the rest is read", async () => {
    const lines = await all('{"a":1}\nnot json\n{"b":2}\n{"c":');
    expect(lines[0]).toEqual({ line: 1, value: { a: 1 } });
    expect(lines[1]).toMatchObject({ line: 2, problem: expect.stringContaining("not JSON") });
    expect(lines[2]).toEqual({ line: 3, value: { b: 2 } });
    expect(lines[3]).toMatchObject({ line: 4, problem: expect.stringContaining("cut off") });
  });

  it("skips a line longer than the limit without holding it, and goes on", async () => {
    const long = `"${"x".repeat(MAX_LINE_LENGTH + 10)}"`;
    const lines = await all(chunked(`{"a":1}\n${long}\n{"b":2}\n`, 1_000_000));
    expect(lines).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, problem: `longer than ${MAX_LINE_LENGTH} characters; skipped` },
      { line: 3, value: { b: 2 } },
    ]);
  });

  it("an empty input has no lines", async () => {
    expect(await all("")).toEqual([]);
    expect(await all(chunked("", 10))).toEqual([]);
  });
});
