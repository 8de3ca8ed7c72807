/**
 * The lines of a JSONL transcript, read lazily from a string or a `ReadableStream` of text, each
 * parsed on its own with its 1-based line number. A line that is not JSON (a truncated last line, a
 * stray log line) is reported with its number instead of ending the read; a line longer than
 * {@link MAX_LINE_LENGTH} is skipped the same way, so a hostile file cannot make the reader hold an
 * unbounded line.
 *
 * @module
 */

/** Longest line read (characters); a longer one is skipped with a warning. */
export const MAX_LINE_LENGTH = 32_000_000;

/** One line of a transcript: its number, and its JSON value or why it has none. */
export type JsonlLine = { line: number; value: unknown } | { line: number; problem: string };

/** What a value that is not text is, in words: bytes, or its type. */
function kindOf(value: unknown): string {
  if (value instanceof Uint8Array) return "bytes (a Uint8Array)";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Why a chunk that is not text cannot be read: bytes must be decoded first. */
function notText(value: unknown): string {
  return `the stream gave ${kindOf(value)}, not text: pipe a byte stream through new TextDecoderStream() first`;
}

/** Pieces of text, from a whole string or a stream of decoded chunks. */
async function* pieces(input: string | ReadableStream<string>): AsyncGenerator<string> {
  if (typeof input === "string") {
    yield input;
    return;
  }
  if (typeof (input as Partial<ReadableStream> | null)?.getReader !== "function")
    throw new TypeError(`expected the file's text or a ReadableStream of it, got ${kindOf(input)}`);
  const reader = input.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (typeof value !== "string") throw new TypeError(notText(value));
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

function parsed(text: string, line: number): JsonlLine | undefined {
  // A byte order mark opening the file (kept by a read as text that does not decode it away) is no JSON.
  const unmarked = line === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const trimmed = unmarked.endsWith("\r") ? unmarked.slice(0, -1) : unmarked;
  // Only a line that starts with white space can be blank; the others skip the copy trim() makes.
  if (trimmed === "" || (trimmed.charCodeAt(0) <= 32 && trimmed.trim() === "")) return undefined;
  try {
    return { line, value: JSON.parse(trimmed) };
  } catch (error) {
    return { line, problem: `not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** Every non-empty line of `input`, parsed, in order. */
export async function* jsonlLines(input: string | ReadableStream<string>): AsyncGenerator<JsonlLine> {
  let line = 0;
  let rest = "";
  let skipping = false;
  for await (const piece of pieces(input)) {
    let start = 0;
    for (let end = piece.indexOf("\n"); end !== -1; end = piece.indexOf("\n", start)) {
      line++;
      const text = rest + piece.slice(start, end);
      rest = "";
      start = end + 1;
      if (skipping || text.length > MAX_LINE_LENGTH) {
        skipping = false;
        yield { line, problem: `longer than ${MAX_LINE_LENGTH} characters; skipped` };
        continue;
      }
      const entry = parsed(text, line);
      if (entry !== undefined) yield entry;
    }
    if (!skipping) rest += piece.slice(start);
    if (rest.length > MAX_LINE_LENGTH) {
      skipping = true;
      rest = "";
    }
  }
  line++;
  if (skipping || rest.length > MAX_LINE_LENGTH)
    yield { line, problem: `longer than ${MAX_LINE_LENGTH} characters; skipped` };
  else {
    const entry = parsed(rest, line);
    if (entry !== undefined)
      yield "problem" in entry
        ? { line, problem: `${entry.problem}; the file may have been cut off` }
        : entry;
  }
}
