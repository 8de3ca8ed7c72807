/**
 * Flow control for a run's events on the worker side. The main side grants credit: at most `window`
 * events are in flight on the port, and it grants more as its consumer takes them. Events that
 * cannot go yet wait here, and consecutive deltas of the same part merge into one as they wait — so
 * what a slow consumer makes the worker hold is about the text itself plus one event per part, not
 * one object per network chunk, and the port never holds more than the window.
 *
 * @module
 */

/** The events whose `delta` strings can be joined while they wait. */
const DELTAS: ReadonlySet<unknown> = new Set(["text-delta", "thinking-delta", "tool-call-delta"]);

interface Delta {
  type: string;
  index: number;
  delta: string;
}

function isDelta(event: object): event is Delta {
  return DELTAS.has((event as { type?: unknown }).type);
}

/** One run's outgoing events. */
export class EventOutbox {
  #credit: number;
  readonly #send: (event: object) => void;
  readonly #held: object[] = [];
  #head = 0;
  #ended = false;
  #drained: () => void = () => {};
  /** Resolves once {@link EventOutbox.end} was called and every held event went out (or was discarded). */
  readonly drained: Promise<void>;

  /** `window`: events that may be in flight before credit is needed; 0 means no limit. */
  constructor(window: number, send: (event: object) => void) {
    this.#credit = window > 0 ? window : Number.POSITIVE_INFINITY;
    this.#send = send;
    this.drained = new Promise((resolve) => {
      this.#drained = resolve;
    });
  }

  /** How many events wait for credit. */
  get waiting(): number {
    return this.#held.length - this.#head;
  }

  /** Sends `event` now if there is credit and nothing waits before it; else holds it. */
  push(event: object): void {
    if (this.waiting === 0 && this.#credit > 0) {
      this.#credit--;
      this.#send(event);
      return;
    }
    // What went out was cleared from `#held`, and it is emptied when nothing waits: a last slot is a waiting event.
    const last = this.#held[this.#held.length - 1];
    if (
      last !== undefined &&
      isDelta(last) &&
      isDelta(event) &&
      last.type === event.type &&
      last.index === event.index
    ) {
      this.#held[this.#held.length - 1] = { ...last, delta: last.delta + event.delta };
      return;
    }
    this.#held.push(event);
  }

  /** `count` more events may go: sends what waits, in order. */
  grant(count: number): void {
    if (!(count > 0)) return;
    this.#credit += count;
    while (this.#credit > 0 && this.waiting > 0) {
      const event = this.#held[this.#head] as object;
      this.#held[this.#head] = undefined as unknown as object;
      this.#head++;
      this.#credit--;
      this.#send(event);
    }
    if (this.waiting === 0) {
      this.#held.length = 0;
      this.#head = 0;
      if (this.#ended) this.#drained();
    }
  }

  /** No more events will be pushed; {@link EventOutbox.drained} resolves when what waits went out. */
  end(): void {
    this.#ended = true;
    if (this.waiting === 0) this.#drained();
  }

  /** Drops what waits (nobody will take it) and resolves {@link EventOutbox.drained}. */
  discard(): void {
    this.#held.length = 0;
    this.#head = 0;
    this.#drained();
  }
}
