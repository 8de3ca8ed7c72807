/**
 * What the Claude Code and pi writers share: lines buffered as they are made and handed out as JSONL
 * text on `flush`, so a caller appends each turn to a file, a stream or a KV/R2 object without
 * rewriting what it wrote before.
 *
 * @module
 */

import { ConfigError } from "../errors/sdk-error.ts";
import type { JsonObject, Message } from "../types.ts";

/**
 * Writes a session into another runtime's transcript format, message by message.
 *
 * @typeParam Cursor Where the writer stands (plain JSON): pass it to a new writer to continue the same
 * file later, in another request or on another machine.
 */
export interface TranscriptWriter<Cursor> {
  /** Adds a message: a user prompt, an assistant reply with its usage, or tool results. */
  append(message: Message): void;
  /** The lines added since the last flush, as JSONL text (each line ends with `\n`); "" when none. */
  flush(): string;
  /** Flushes and ends the writer: appending after it is a ConfigError. */
  close(): string;
  /** Where the writer stands now; a writer made with it continues after the lines written so far. */
  readonly cursor: Cursor;
}

/** The part every writer has: a line buffer and the closed flag. */
export class LineBuffer {
  #pending: string[] = [];
  #closed = false;

  /** Queues a line; throws ConfigError once the writer is closed. */
  push(line: JsonObject): void {
    if (this.#closed)
      throw new ConfigError("This transcript writer is closed; make a new one with its cursor", {
        code: "CONFIG_INVALID",
      });
    this.#pending.push(JSON.stringify(line));
  }

  /** The queued lines as JSONL, emptying the queue. */
  flush(): string {
    if (this.#pending.length === 0) return "";
    const text = `${this.#pending.join("\n")}\n`;
    this.#pending = [];
    return text;
  }

  /** Flushes and refuses further lines. */
  close(): string {
    const text = this.flush();
    this.#closed = true;
    return text;
  }
}

/** ISO-8601 time of epoch milliseconds (as both formats write it). */
export function isoTime(ms: number): string {
  return new Date(Number.isFinite(ms) ? ms : 0).toISOString();
}
