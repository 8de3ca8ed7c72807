/**
 * A Server-Sent Events parser, as the WHATWG HTML standard defines the event stream format: `\n`,
 * `\r\n` and a lone `\r` end a line (a `\r\n` split across two chunks is one ending), `field: value`
 * lines with one leading space of the value dropped, `data` lines joined with `\n`, comments (`:`) and
 * unknown fields ignored, an id holding U+0000 ignored, and an event dispatched at a blank line when
 * it has data. Any other line (a `retry` field, an unknown one) goes to `onField` when the reader
 * asks for it (sse-retry.ts reads `retry` from there); a last line without its ending is discarded,
 * as the standard discards what is pending at the end. One difference, shared with
 * eventsource-parser: an event's `id` is its own (the standard's last-event-ID buffer would carry it
 * to later events); Wisp's readers track it themselves. It is fed decoded text (a `TextDecoder`
 * already drops the byte order mark) in chunks split anywhere.
 *
 * Linear in the input, however it is chunked: a line spread over many chunks is kept as fragments
 * and joined once, and the search for line ends never goes over the same text twice.
 *
 * @module
 */

/** One SSE event: its `event:` name and `id:` (when it has them) and its joined `data:` lines. */
export interface SseEvent {
  event?: string | undefined;
  id?: string | undefined;
  data: string;
}

const LF = 10;
const COLON = 58;
const SPACE = 32;

/**
 * The value of the line `text[start, end)` when it is field `name` (`name`, `name:` or `name: `,
 * one space dropped), else undefined.
 */
function fieldValue(text: string, start: number, end: number, name: string): string | undefined {
  const after = start + name.length;
  if (after > end || !text.startsWith(name, start)) return undefined;
  if (after === end) return "";
  if (text.charCodeAt(after) !== COLON) return undefined;
  return text.slice(text.charCodeAt(after + 1) === SPACE ? after + 2 : after + 1, end);
}
/** Told of a line that is no `data`, `event` or `id` field: it is `text.slice(start, end)`. */
export type FieldHandler = (text: string, start: number, end: number) => void;

/**
 * Parses an event stream fed in chunks; `onEvent` gets each complete event, in order, and `onField`
 * (when given) each line that is no `data`, `event` or `id` field.
 */
export class SseParser {
  readonly #onEvent: (event: SseEvent) => void;
  readonly #onField: FieldHandler | undefined;
  /** The start of a line whose end has not arrived, in fragments. */
  #partial: string[] = [];
  // Stryker disable next-line StringLiteral: equivalent: the first data line replaces it
  #data = "";
  #dataLines = 0;
  #event: string | undefined;
  #id: string | undefined;
  /** The last chunk ended with `\r`: a `\n` opening the next one belongs to it. */
  // Stryker disable next-line BooleanLiteral: equivalent: a blank line before any field dispatches nothing
  #skipLineFeed = false;

  /**
   * @param onEvent called with each event as soon as its blank line arrives
   * @param onField called with each other line (`retry`, a comment, an unknown field) as it arrives,
   *   as the text and the line's bounds in it (read in place, without a copy)
   */
  constructor(onEvent: (event: SseEvent) => void, onField?: FieldHandler) {
    this.#onEvent = onEvent;
    this.#onField = onField;
  }

  /** Parses `chunk`, calling `onEvent` for each event it completes. */
  feed(chunk: string): void {
    // An empty chunk (a zero-length body read) must not end a `\r\n` split across chunks.
    if (chunk === "") return;
    let start = 0;
    if (this.#skipLineFeed) {
      this.#skipLineFeed = false;
      if (chunk.charCodeAt(0) === LF) start = 1;
    }
    // The next `\n` and `\r` at or after `start`, each searched again only once passed (-1: none left).
    let lf = chunk.indexOf("\n", start);
    let cr = chunk.indexOf("\r", start);
    while (lf !== -1 || cr !== -1) {
      const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      if (this.#partial.length === 0) this.#line(chunk, start, end);
      else {
        this.#partial.push(chunk.slice(start, end));
        const line = this.#partial.join("");
        this.#partial = [];
        this.#line(line, 0, line.length);
      }
      start = end + 1;
      if (end === cr && start === chunk.length) this.#skipLineFeed = true;
      else if (end === cr && chunk.charCodeAt(start) === LF) start++;
      if (lf !== -1 && lf < start) lf = chunk.indexOf("\n", start);
      if (cr !== -1 && cr < start) cr = chunk.indexOf("\r", start);
    }
    if (start < chunk.length) this.#partial.push(start === 0 ? chunk : chunk.slice(start));
  }

  #reset(): void {
    // Stryker disable next-line StringLiteral: equivalent: the next event's first data line replaces it
    this.#data = "";
    this.#dataLines = 0;
    this.#event = undefined;
    this.#id = undefined;
  }

  /** One line, `text` from `start` to `end` (its ending left out). */
  #line(text: string, start: number, end: number): void {
    if (start === end) {
      if (this.#dataLines > 0) this.#onEvent({ id: this.#id, event: this.#event, data: this.#data });
      this.#reset();
      return;
    }
    const data = fieldValue(text, start, end, "data");
    if (data !== undefined) {
      this.#data = this.#dataLines++ === 0 ? data : `${this.#data}\n${data}`;
      return;
    }
    const event = fieldValue(text, start, end, "event");
    if (event !== undefined) {
      this.#event = event === "" ? undefined : event;
      return;
    }
    const id = fieldValue(text, start, end, "id");
    if (id !== undefined) {
      if (!id.includes("\0")) this.#id = id;
      return;
    }
    // Past the fields every event uses: `retry` and the rest go to a reader that asked for them.
    this.#onField?.(text, start, end);
  }
}
