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
    let running = this.#running.get(key);
    if (running === undefined) {
      const controller = new AbortController();
      const entry: Running<T> = { controller, waiting: 0, promise: Promise.resolve() as Promise<T> };
      entry.promise = work(controller.signal).finally(() => {
        if (this.#running.get(key) === entry) this.#running.delete(key);
      });
      // Nobody may be left to see its failure (every waiter gave up): it is not an unhandled rejection.
      entry.promise.catch(() => {});
      this.#running.set(key, entry);
      running = entry;
    }
    return this.#join(key, running, signal);
  }

  async #join(key: string, running: Running<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) throw signal.reason;
    running.waiting++;
    let gaveUp = false;
    let onAbort = (): void => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        gaveUp = true;
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
      if (!gaveUp) running.waiting--;
    }
  }
}
