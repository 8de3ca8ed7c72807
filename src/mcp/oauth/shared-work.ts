/**
 * Work that concurrent requests share (one authorization, one refresh per server), run under a
 * signal of its own: each request waits under its own signal, and the work is aborted only when every
 * request waiting for it has given up. One request's timeout never fails the others.
 *
 * @module
 */

interface Running<T> {
  promise: Promise<T>;
  controller: AbortController;
  waiting: number;
}

/** Shared work by key: the first request starts it, the others join. */
export class SharedWork<T> {
  readonly #running = new Map<string, Running<T>>();

  /** The result of the work under `key`, started with `work` unless it runs already; waits under `signal`. */
  run(key: string, signal: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    // A request that gave up already starts nothing (no sign-in, no registration for nobody), so every
    // work started has a request waiting on it, which sees its failure.
    if (signal.aborted) return Promise.reject(signal.reason);
    let running = this.#running.get(key);
    if (running === undefined) {
      const controller = new AbortController();
      const entry: Running<T> = { controller, waiting: 0, promise: Promise.resolve() as Promise<T> };
      entry.promise = work(controller.signal).finally(() => {
        if (this.#running.get(key) === entry) this.#running.delete(key);
      });
      this.#running.set(key, entry);
      running = entry;
    }
    return this.#join(key, running, signal);
  }

  async #join(key: string, running: Running<T>, signal: AbortSignal): Promise<T> {
    // Only giving up lowers the count: a request that gets the result leaves once the work has ended,
    // when the count is read no more.
    running.waiting++;
    let onAbort = (): void => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        if (--running.waiting === 0) {
          // Nobody waits: the work stops, and the next request starts afresh.
          running.controller.abort(signal.reason);
          if (this.#running.get(key) === running) this.#running.delete(key);
        }
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([running.promise, aborted]);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }
}
