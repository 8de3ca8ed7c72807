/**
 * Newline-delimited text cut into lines, as MCP's stdio transport frames its messages: one JSON-RPC
 * message a line, `\n` between them (a `\r` before it is dropped). A line still open past its bound
 * is refused, so a server that never writes a newline cannot make the client hold its whole output.
 *
 * @module
 */

/** Thrown by {@link LineSplitter.push} when a line grows past the splitter's bound. */
export class LineTooLong extends Error {
  override readonly name = "LineTooLong";
  /** The bound the line passed, in characters. */
  readonly maxChars: number;

  constructor(maxChars: number) {
    super(`A line is longer than ${maxChars} characters`);
    this.maxChars = maxChars;
  }
}

/** Collects chunks of text and gives back each line once its newline arrived. */
export class LineSplitter {
  readonly #maxChars: number;
  /** The open line's pieces so far (joined once its newline arrives) and their length. */
  #pending: string[] = [];
  #pendingChars = 0;

  /** A splitter that refuses a line longer than `maxChars` characters. */
  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  /** The lines `chunk` completes, in order, without their `\n` (or `\r\n`). */
  push(chunk: string): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let end = chunk.indexOf("\n"); end !== -1; end = chunk.indexOf("\n", start)) {
      this.#add(chunk.slice(start, end));
      const line = this.#pending.join("");
      this.#pending = [];
      this.#pendingChars = 0;
      lines.push(line.endsWith("\r") ? line.slice(0, -1) : line);
      start = end + 1;
    }
    if (start < chunk.length) this.#add(chunk.slice(start));
    return lines;
  }

  #add(piece: string): void {
    this.#pendingChars += piece.length;
    if (this.#pendingChars > this.#maxChars) {
      this.#pending = [];
      this.#pendingChars = 0;
      throw new LineTooLong(this.#maxChars);
    }
    this.#pending.push(piece);
  }
}
