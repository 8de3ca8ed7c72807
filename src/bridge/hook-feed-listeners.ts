/**
 * The main thread's side of the hook feed: the listeners of one connection, the `observe` messages
 * that start the worker's feed with the first listener and stop it with the last, and each item the
 * worker sends turned into a {@link HookFeedEvent} and handed to every listener, each isolated.
 *
 * @module
 */

import { invalidOption } from "../config/option-checks.ts";
import { messageOf } from "../errors/message-of.ts";
import type { BridgeReport } from "./decisions.ts";
import { HOOK_FEED_KINDS, type HookFeedEvent, type HookFeedListener } from "./hook-feed.ts";
import type { MainMessage, WorkerMessage } from "./protocol.ts";

/** The worker's item as listeners get it: the payload, then the hints no payload can change. */
function feedEventOf(item: Extract<WorkerMessage, { t: "feed" }>): HookFeedEvent {
  const payload = (typeof item.payload === "object" && item.payload !== null ? item.payload : {}) as Record<
    string,
    unknown
  >;
  const known = (HOOK_FEED_KINDS as readonly string[]).includes(item.kind);
  return {
    sessionId: "",
    turn: 0,
    ...payload,
    ...(known ? {} : { payload: item.payload }),
    requestId: item.id,
    rawKind: item.kind,
    kind: known ? item.kind : "unknown",
    expectsDecision: false,
    canBlock: false,
    timeoutMs: 0,
  } as HookFeedEvent;
}

/** One connection's feed listeners. */
export class HookFeedListeners {
  /** Each subscription is its own entry, so the same function added twice is told twice and removed once per call. */
  readonly #listeners: Array<{ listener: HookFeedListener }> = [];
  readonly #post: (message: MainMessage) => boolean;
  readonly #report: (report: BridgeReport) => void;

  /** `post` sends to the worker; `report` is told of a listener that failed. */
  constructor(post: (message: MainMessage) => boolean, report: (report: BridgeReport) => void) {
    this.#post = post;
    this.#report = report;
  }

  /**
   * Adds `listener`; returns the function that removes it (idempotent). The first listener starts the
   * worker's feed for this connection, removing the last stops it. A listener that is not a function is
   * a ConfigError.
   */
  add(listener: HookFeedListener): () => void {
    if (typeof listener !== "function")
      throw invalidOption(
        `onHookEvent takes a function (event) => void, got ${listener === null ? "null" : typeof listener}`,
        "listener",
      );
    const entry = { listener };
    this.#listeners.push(entry);
    if (this.#listeners.length === 1) this.#post({ t: "observe", on: true });
    return () => {
      const index = this.#listeners.indexOf(entry);
      if (index < 0) return;
      this.#listeners.splice(index, 1);
      if (this.#listeners.length === 0) this.#post({ t: "observe", on: false });
    };
  }

  /** Hands the worker's item to every listener; one that throws or rejects is reported, the others still told. */
  receive(item: Extract<WorkerMessage, { t: "feed" }>): void {
    if (this.#listeners.length === 0) return;
    const event = feedEventOf(item);
    for (const { listener } of [...this.#listeners]) {
      try {
        const returned = listener(event) as { then?: unknown } | undefined;
        if (typeof returned?.then === "function")
          (returned as PromiseLike<unknown>).then(undefined, (error: unknown) => this.#failed(event, error));
      } catch (error) {
        this.#failed(event, error);
      }
    }
  }

  #failed(event: HookFeedEvent, error: unknown): void {
    this.#report({
      code: "HOOK_LISTENER_FAILED",
      message: `an onHookEvent listener failed on a ${event.rawKind} item (nothing else changed): ${messageOf(error)}`,
      requestId: event.requestId,
    });
  }
}
