/**
 * The worker's side of the hook feed: which connections observe, the hooks that tell them, and what
 * the run's events add (a run that waits for a person, a hook's decision and who made it).
 *
 * Each event's hook list starts with the feed: its first hook is wrapped so the feed is told before it
 * runs (or, with no hooks, one that only tells is added). So every occurrence is seen — even when a hook
 * then denies or stops — and the other hooks keep their names and places (`preToolUse#1` stays
 * `preToolUse#1`). Telling is posting a message to the connections that observe, each in a try: it
 * never changes what a hook returns, and with nobody observing it is one check.
 *
 * @module
 */

import type { AgentEvent } from "../agent/agent-events.ts";
import {
  type HookEntry,
  type HookEvent,
  type HookInputBase,
  type HookInputs,
  type Hooks,
  hookEntries,
  hookName,
} from "../agent/hooks.ts";
import { randomId } from "../message/random-id.ts";
import type { SessionOptions } from "../session/session-options.ts";
import type { HookFeedKind } from "./hook-feed.ts";
import type { WorkerMessage } from "./protocol.ts";

/** What the feed shows of a hook's input (never the whole conversation or the signal), by hook event. */
type Shown = { [E in HookEvent]: { kind: HookFeedKind; shown: (input: HookInputs[E]) => object } };

/** Every hook event of the SDK, in the feed: a new event without an entry here does not compile. */
const SHOWN: Shown = {
  sessionStart: { kind: "session-start", shown: () => ({}) },
  userPromptSubmit: { kind: "prompt-submit", shown: ({ prompt }) => ({ prompt }) },
  preToolUse: { kind: "tool-before", shown: ({ toolCall }) => ({ toolCall }) },
  postToolUse: { kind: "tool-after", shown: ({ toolCall, result }) => ({ toolCall, result }) },
  postToolUseFailure: {
    kind: "tool-failure",
    shown: ({ toolCall, result, error }) => ({ toolCall, result, error }),
  },
  stop: { kind: "stop", shown: ({ message, stopReason }) => ({ message, stopReason }) },
  preCompact: {
    kind: "compact-before",
    shown: ({ reason, tokens, older }) => ({ reason, tokens, olderCount: older.length }),
  },
  sessionEnd: { kind: "session-end", shown: ({ stopReason }) => ({ stopReason }) },
};

/** The feed of one served session. */
export class HookFeedSource {
  readonly #post: (message: WorkerMessage, to: string) => boolean;
  /** The public ids of the connections that observe. */
  readonly #observers = new Set<string>();

  /** `post` sends a message `to` one connection. */
  constructor(post: (message: WorkerMessage, to: string) => boolean) {
    this.#post = post;
  }

  /** Starts or stops sending the feed to connection `conn`. */
  observe(conn: string, on: boolean): void {
    if (on) this.#observers.add(conn);
    else this.#observers.delete(conn);
  }

  /** Sends an item of `kind` to every connection that observes. */
  tell(kind: string, payload: object): void {
    for (const conn of this.#observers) this.#post({ t: "feed", id: randomId(), kind, payload }, conn);
  }

  /**
   * `options` with every hook event telling the feed first. Hooks that are not hooks are left as they
   * are, for the session's own check to refuse.
   */
  observed(options: SessionOptions): SessionOptions {
    const own: unknown = options.hooks;
    if (own !== undefined && (typeof own !== "object" || own === null || Array.isArray(own))) return options;
    let hooks: Hooks = { ...options.hooks };
    for (const event of Object.keys(SHOWN) as HookEvent[]) hooks = this.#first(hooks, event);
    return { ...options, hooks };
  }

  /** `hooks` with `event`'s first hook telling the feed before it runs (or one that only tells). */
  #first<E extends HookEvent>(hooks: Hooks, event: E): Hooks {
    const { kind, shown } = SHOWN[event] as unknown as {
      kind: HookFeedKind;
      shown: (input: HookInputs[E]) => object;
    };
    const tell = (input: HookInputs[E]): void => {
      if (this.#observers.size === 0) return;
      const { sessionId, turn } = input as HookInputBase;
      this.tell(kind, { sessionId, turn, ...shown(input) });
    };
    const [first, ...rest] = hookEntries(hooks, event);
    if (first !== undefined && typeof (first as Partial<HookEntry<E>> | null)?.handler !== "function")
      return hooks;
    const entry: HookEntry<E> =
      first === undefined
        ? { name: "bridge-feed", handler: (input) => void tell(input) }
        : {
            ...first,
            name: hookName(first, event, 0),
            handler: (input) => {
              tell(input);
              return first.handler(input);
            },
          };
    return { ...hooks, [event]: [entry, ...rest] };
  }

  /**
   * What the feed takes from a run's events, for a session `sessionId`: a run that waits for a person
   * (`notification`), a hook's decision (`hook-decision`) and the permission policy's
   * (`permission-decision`). Call it with each event, in order.
   */
  tap(sessionId: string): (event: AgentEvent) => void {
    let turn = 0;
    return (event) => {
      if (event.type === "turn-start") turn = event.turn;
      if (this.#observers.size === 0) return;
      const hints = { sessionId, turn };
      if (event.type === "approval-requested") {
        const { approval } = event;
        this.tell("notification", {
          ...hints,
          waitsFor: "approval",
          message: `${approval.toolName} waits for your approval`,
          approval,
        });
      } else if (event.type === "question-requested") {
        const { question } = event;
        const count = question.questions.length;
        this.tell("notification", {
          ...hints,
          waitsFor: "question",
          message:
            count === 1 ? "A question waits for your answer" : `${count} questions wait for your answers`,
          question,
        });
      } else if (event.type === "hook-decision") {
        const { event: hookEvent, hook, decision, decidedBy } = event;
        this.tell("hook-decision", { ...hints, event: hookEvent, hook, decision, decidedBy });
      } else if (event.type === "permission-decision") {
        const { toolCall, verdict } = event;
        this.tell("permission-decision", { ...hints, toolCall, verdict, decidedBy: "policy" });
      }
    };
  }
}
