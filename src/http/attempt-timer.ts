/**
 * The two timeouts of one HTTP attempt: a total deadline, and an idle limit between chunks (a stalled
 * stream). Either one aborts the attempt's controller and records which fired. The idle timer is armed
 * once and re-armed only when it fires early, so a busy stream costs a timestamp per chunk.
 *
 * @module
 */

/** Watches one attempt; call `touch()` on activity and `clear()` when the attempt ends. */
export class AttemptTimer {
  /** A description of the timeout that fired, if one did. */
  fired: string | undefined;
  #last = Date.now();
  #total: ReturnType<typeof setTimeout> | undefined;
  #idle: ReturnType<typeof setTimeout> | undefined;
  readonly #idleMs: number;
  readonly #timeoutMs: number;
  readonly #controller: AbortController;
  /** What is left of the total deadline when it is armed next (after a hold). */
  #leftMs: number;
  #armedAt = Date.now();

  constructor(controller: AbortController, timeoutMs: number, idleTimeoutMs: number) {
    this.#controller = controller;
    this.#idleMs = idleTimeoutMs;
    this.#timeoutMs = timeoutMs;
    this.#leftMs = timeoutMs;
    this.#arm();
  }

  #arm(): void {
    this.#armedAt = Date.now();
    if (Number.isFinite(this.#timeoutMs) && this.#timeoutMs > 0) {
      const description = `The request took longer than ${this.#timeoutMs} ms`;
      this.#total = setTimeout(() => this.#fire(description), Math.max(this.#leftMs, 0));
    }
    if (Number.isFinite(this.#idleMs) && this.#idleMs > 0) this.#armIdle(this.#idleMs);
  }

  /**
   * Stops both clocks while `work` runs (a person signing in: their time is not the server's), then
   * starts them again: the idle limit afresh, the total with what was left of it.
   */
  async hold<T>(work: Promise<T>): Promise<T> {
    this.clear();
    this.#leftMs -= Date.now() - this.#armedAt;
    try {
      return await work;
    } finally {
      this.#last = Date.now();
      if (this.fired === undefined) this.#arm();
    }
  }

  #armIdle(ms: number): void {
    this.#idle = setTimeout(() => {
      const quiet = Date.now() - this.#last;
      if (quiet >= this.#idleMs) this.#fire(`No data arrived for ${this.#idleMs} ms`);
      else this.#armIdle(this.#idleMs - quiet);
    }, ms);
  }

  #fire(description: string): void {
    if (this.fired !== undefined) return;
    this.fired = description;
    this.clear();
    this.#controller.abort(new DOMException(description, "TimeoutError"));
  }

  /** Records activity (a chunk arrived). */
  touch(): void {
    this.#last = Date.now();
  }

  /** Stops both timers. */
  clear(): void {
    if (this.#total !== undefined) clearTimeout(this.#total);
    if (this.#idle !== undefined) clearTimeout(this.#idle);
  }
}
