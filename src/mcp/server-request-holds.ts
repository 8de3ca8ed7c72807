/**
 * The clocks of one request to the server, stopped while the app answers a question of the server's
 * (`elicitation/create`) or while a person signs in (OAuth): their time is not the server's. Holds
 * may overlap (two questions at once, a question during a sign-in); the clocks stop at the first and
 * start again after the last, and never once the request has ended.
 *
 * @module
 */

import type { AttemptTimer } from "../http/attempt-timer.ts";

/** Overlapping holds of one request's {@link AttemptTimer}. */
export class RequestHolds {
  readonly #timer: AttemptTimer;
  #count = 0;
  #release: (() => void) | undefined;
  #held: Promise<unknown> | undefined;
  #ended = false;

  constructor(timer: AttemptTimer) {
    this.#timer = timer;
  }

  /** Runs `work` with the request's clocks stopped (unless the request ended); resolves as `work` does. */
  async hold<T>(work: Promise<T>): Promise<T> {
    if (this.#ended) return work;
    if (this.#count++ === 0) {
      const released = new Promise<void>((resolve) => {
        this.#release = resolve;
      });
      this.#held = this.#timer.hold(released);
    }
    try {
      return await work;
    } finally {
      if (!this.#ended && --this.#count === 0) this.#release?.();
    }
  }

  /**
   * The request ended: holds still open are let go, and this resolves once the timer has taken them
   * back, so that clearing it afterwards leaves no clock running.
   */
  async end(): Promise<void> {
    this.#ended = true;
    if (this.#count === 0) return;
    this.#count = 0;
    this.#release?.();
    await this.#held;
  }
}
