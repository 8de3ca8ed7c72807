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
  readonly #controller: AbortController;

  constructor(controller: AbortController, timeoutMs: number, idleTimeoutMs: number) {
    this.#controller = controller;
    this.#idleMs = idleTimeoutMs;
    if (Number.isFinite(timeoutMs) && timeoutMs > 0) {
      this.#total = setTimeout(() => this.#fire(`The request took longer than ${timeoutMs} ms`), timeoutMs);
    }
    if (Number.isFinite(idleTimeoutMs) && idleTimeoutMs > 0) this.#armIdle(idleTimeoutMs);
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
