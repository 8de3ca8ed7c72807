/**
 * A single-consumer async queue: a producer pushes values as they happen, a consumer reads them with
 * `for await`. Values are buffered, so a consumer that starts late misses nothing. When the consumer
 * stops early (`break`), `onReturn` runs so the producer can cancel its work.
 *
 * @module
 */

/** A push-based async iterable with one reader. */
export class EventQueue<T> implements AsyncIterable<T> {
  readonly #buffer: T[] = [];
  #head = 0;
  #closed = false;
  #waiting: ((result: IteratorResult<T>) => void) | undefined;
  #iterating = false;
  readonly #onReturn: (() => void) | undefined;

  constructor(onReturn?: () => void) {
    this.#onReturn = onReturn;
  }

  /** Adds a value; ignored after `close()`. */
  push(value: T): void {
    if (this.#closed) return;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#waiting = undefined;
      waiting({ value, done: false });
    } else {
      this.#buffer.push(value);
    }
  }

  /** Ends the stream; buffered values are still delivered. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#waiting = undefined;
      waiting({ value: undefined, done: true });
    }
  }

  #next(): Promise<IteratorResult<T>> {
    if (this.#head < this.#buffer.length) {
      const value = this.#buffer[this.#head] as T;
      this.#buffer[this.#head] = undefined as T;
      this.#head++;
      // Stryker disable next-line BlockStatement: equivalent in what is read: it only gives back the drained buffer's memory (each slot is already cleared above)
      if (this.#head === this.#buffer.length) {
        this.#buffer.length = 0;
        this.#head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.#closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#iterating) throw new TypeError("This stream can be iterated only once");
    this.#iterating = true;
    return {
      next: () => this.#next(),
      return: (): Promise<IteratorResult<T>> => {
        const wasOpen = !this.#closed;
        this.#closed = true;
        this.#buffer.length = 0;
        this.#head = 0;
        if (wasOpen) this.#onReturn?.();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
