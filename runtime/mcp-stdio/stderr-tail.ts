/**
 * What a server writes to stderr, read as lines: each line handed to the caller's callback (when one
 * was given), and the last few kept, bounded, for the message of an error when the server fails.
 *
 * @module
 */

/** How many of stderr's last lines an error shows. */
const TAIL_LINES = 20;
/** The longest line kept or handed on; a longer one is cut there (its rest is dropped). */
const MAX_LINE_CHARS = 1_000;
/** The most characters of stderr an error message shows. */
const MAX_TAIL_CHARS = 2_000;

/** The last lines of a process's stderr, and where each line goes as it arrives. */
export class StderrTail {
  readonly #onLine: ((line: string) => void) | undefined;
  readonly #lines: string[] = [];
  /** The open line, at most {@link MAX_LINE_CHARS} long, and whether more of it was dropped. */
  #open = "";
  #cut = false;

  /** A tail that also gives each complete line to `onLine`. */
  constructor(onLine?: (line: string) => void) {
    this.#onLine = onLine;
  }

  /** Reads a chunk of stderr. */
  push(chunk: string): void {
    let start = 0;
    for (let end = chunk.indexOf("\n"); end !== -1; end = chunk.indexOf("\n", start)) {
      this.#append(chunk.slice(start, end));
      this.#close();
      start = end + 1;
    }
    if (start < chunk.length) this.#append(chunk.slice(start));
  }

  /** Stderr has ended: its last line counts even without a newline. */
  end(): void {
    if (this.#open !== "" || this.#cut) this.#close();
  }

  #append(piece: string): void {
    const room = MAX_LINE_CHARS - this.#open.length;
    if (piece.length > room) this.#cut = true;
    this.#open += piece.slice(0, Math.max(room, 0));
  }

  #close(): void {
    let line = this.#open.endsWith("\r") ? this.#open.slice(0, -1) : this.#open;
    if (this.#cut) line += " …";
    this.#open = "";
    this.#cut = false;
    this.#lines.push(line);
    if (this.#lines.length > TAIL_LINES) this.#lines.shift();
    try {
      this.#onLine?.(line);
    } catch {
      // the caller's callback failing is no reason to stop reading the server
    }
  }

  /** The last lines, newest last, within {@link MAX_TAIL_CHARS} in all (older lines dropped first). */
  lines(): string[] {
    const kept: string[] = [];
    let chars = 0;
    for (let index = this.#lines.length - 1; index >= 0; index--) {
      const line = this.#lines[index] ?? "";
      chars += line.length + 1;
      if (chars > MAX_TAIL_CHARS) break;
      kept.unshift(line);
    }
    return kept;
  }
}
