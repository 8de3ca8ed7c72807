/**
 * The main thread's heartbeat: while anything waits on the worker, a ping each tick, and the worker
 * counts as gone when a ping stays unanswered for `workerTimeoutMs` worth of ticks.
 *
 * @module
 */

import { MAX_TIMER_MS } from "../agent/deadline.ts";

/** What {@link WorkerWatch} needs of its connection. */
export interface WatchedWorker {
  /** How long the worker may stay silent (`workerTimeoutMs`), read each time the watch starts. */
  silenceLimitMs(): number;
  /** Whether anything (a run, a call) still waits on the worker; the watch stops when nothing does. */
  busy(): boolean;
  /** Posts a ping. */
  ping(): void;
  /** The worker stayed silent too long: `why` says so. */
  giveUp(why: string): void;
}

/** Watches for a silent worker while anything waits on it. */
export class WorkerWatch {
  readonly #worker: WatchedWorker;
  /** Heartbeat ticks since a ping went unanswered (undefined: none waits). Ticks, not wall time, so a
   *  busy or throttled main thread never takes a slow answer for a gone worker. */
  #unanswered: number | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  /** A watch on `worker`, not started yet. */
  constructor(worker: WatchedWorker) {
    this.#worker = worker;
  }

  /**
   * Starts the heartbeat unless it runs: a ping each tick, and the worker counts as gone when a ping
   * stays unanswered for the limit's worth of ticks.
   */
  watch(): void {
    if (this.#heartbeat !== undefined) return;
    const limit = this.#worker.silenceLimitMs();
    if (limit > MAX_TIMER_MS) return;
    const tick = Math.max(10, Math.min(1000, limit / 4));
    const patience = Math.ceil(limit / tick);
    this.#unanswered = undefined;
    this.#heartbeat = setInterval(() => {
      if (!this.#worker.busy()) {
        this.stop();
        return;
      }
      if (this.#unanswered === undefined) {
        this.#unanswered = 0;
        this.#worker.ping();
      } else if (++this.#unanswered >= patience) {
        this.#worker.giveUp(`the worker did not answer for ${limit} ms`);
      }
    }, tick);
  }

  /** The worker said something: it is there. */
  heard(): void {
    this.#unanswered = undefined;
  }

  /** Stops the heartbeat. */
  stop(): void {
    // The Workers types take no undefined (the runtimes all ignore it).
    if (this.#heartbeat !== undefined) clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }
}
