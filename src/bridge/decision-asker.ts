/**
 * Asks the main thread for decisions and waits for the answers: each question gets a request id and
 * the kind's timeout; an answer for an id this side does not know (or no longer waits for) is
 * ignored and reported.
 *
 * @module
 */

import { MAX_TIMER_MS } from "../agent/deadline.ts";
import { randomId } from "../message/random-id.ts";
import type { BridgeReport } from "./decisions.ts";
import type { WorkerMessage } from "./protocol.ts";

/** How a question ended: an answer (maybe `undefined`), or none — and why, and whether time ran out. */
export type Asked = { answered: true; answer: unknown } | { answered: false; why: string; timedOut?: true };

/** How many expired request ids are remembered, to tell a late answer from an unknown one. */
const REMEMBERED = 256;

/** The worker's side of decisions. */
export class DecisionAsker {
  readonly #timeouts: Readonly<Record<string, number>>;
  readonly #post: (message: WorkerMessage) => void;
  readonly #report: (report: BridgeReport) => void;
  readonly #waiting = new Map<string, (asked: Asked) => void>();
  readonly #expired = new Set<string>();

  constructor(
    timeouts: Readonly<Record<string, number>>,
    post: (message: WorkerMessage) => void,
    report: (report: BridgeReport) => void,
  ) {
    this.#timeouts = timeouts;
    this.#post = post;
    this.#report = report;
  }

  /** How long a question of `kind` waits for its answer. */
  timeoutOf(kind: string): number {
    return this.#timeouts[kind] ?? 10_000;
  }

  /** Asks a question of `kind` and waits for the answer, the kind's timeout, or `signal`. */
  ask(kind: string, payload: object, signal: AbortSignal): Promise<Asked> {
    const requestId = randomId();
    const timeoutMs = this.timeoutOf(kind);
    return new Promise<Asked>((resolve) => {
      const settle = (asked: Asked) => {
        // The Workers types take no undefined (the runtimes all ignore it).
        if (timer !== undefined) clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.#waiting.delete(requestId);
        if (!asked.answered) this.#forget(requestId);
        resolve(asked);
      };
      const onAbort = () => settle({ answered: false, why: "the run was aborted" });
      // A longer delay (or Infinity) would fire at once: it means "wait as long as it takes".
      const timer =
        timeoutMs > MAX_TIMER_MS
          ? undefined
          : setTimeout(() => {
              this.#report({
                code: "DECISION_TIMEOUT",
                message: `no ${kind} decision from the main thread within ${timeoutMs} ms`,
                requestId,
              });
              settle({ answered: false, why: `no answer within ${timeoutMs} ms`, timedOut: true });
            }, timeoutMs);
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort);
      this.#waiting.set(requestId, settle);
      this.#post({
        t: "decide",
        requestId,
        kind,
        expectsDecision: true,
        canBlock: true,
        timeoutMs,
        payload,
      });
    });
  }

  #forget(requestId: string): void {
    this.#expired.add(requestId);
    if (this.#expired.size > REMEMBERED) this.#expired.delete(this.#expired.values().next().value as string);
  }

  /** The main side's answer to `requestId` (or its handler's failure). */
  answer(requestId: unknown, answer: unknown, failed: string | undefined): void {
    const settle = typeof requestId === "string" ? this.#waiting.get(requestId) : undefined;
    if (settle === undefined) {
      const expired = typeof requestId === "string" && this.#expired.has(requestId);
      this.#report({
        code: expired ? "DECISION_EXPIRED" : "DECISION_UNKNOWN",
        message: expired
          ? `a decision for request ${String(requestId)} came after it expired; ignored`
          : `a decision for unknown request ${String(requestId)}; ignored`,
        ...(typeof requestId === "string" ? { requestId } : {}),
      });
      return;
    }
    settle(
      failed === undefined
        ? { answered: true, answer }
        : { answered: false, why: `its handler failed: ${failed}` },
    );
  }

  /** Settles every open question as unanswered (the bridge is closing). */
  close(): void {
    for (const settle of [...this.#waiting.values()]) settle({ answered: false, why: "the bridge closed" });
  }
}
