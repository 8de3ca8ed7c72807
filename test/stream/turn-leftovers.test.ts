/**
 * A turn leaves nothing behind: the abort listener it adds to the caller's signal is removed when the
 * turn ends, however it ends, so a signal kept for a whole program (a session's, a server's) does not
 * collect one listener per turn; the listener each attempt adds to the turn's own signal goes with the
 * attempt; and no timer Wisp started (the attempt's deadline and idle timer, a retry's wait, a drain)
 * is still pending once the turn is over.
 */
import { afterEach, describe, expect, it } from "vitest";
import { streamTurn, type TurnOptions } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import {
  countListeners,
  settleEventLoop,
  trackWispListeners,
  trackWispTimers,
} from "../support/leftovers.ts";

const hello = [
  { id: "u", role: "user" as const, content: [{ type: "text" as const, text: "hi" }], timestamp: 0 },
];
const ok: ScriptedTurn = { content: [{ type: "text", text: "fine, thanks" }] };
const overloaded: ScriptedTurn = { fault: { type: "http", status: 529 } };
const invalid: ScriptedTurn = { fault: { type: "http", status: 400 } };
const cut: ScriptedTurn = {
  content: [{ type: "text", text: "a b c" }],
  fault: { type: "reset", afterEvents: 4 },
};
const stalled: ScriptedTurn = {
  content: [{ type: "text", text: "a b c" }],
  fault: { type: "stall", afterEvents: 4 },
};

/** The ways a turn can end, each with the script that makes it end so. */
const ENDINGS: Array<{ name: string; script: ScriptedTurn[]; options?: Partial<TurnOptions>; abort?: true }> =
  [
    { name: "completes", script: [ok] },
    { name: "completes after retries", script: [overloaded, overloaded, ok] },
    { name: "fails without a retry", script: [invalid] },
    { name: "fails after its retries", script: [overloaded, overloaded, overloaded] },
    { name: "is cut mid-stream", script: [cut] },
    { name: "times out (idle)", script: [stalled], options: { idleTimeoutMs: 5 } },
    { name: "times out (total)", script: [stalled], options: { timeoutMs: 5 } },
    { name: "is aborted by turn.abort()", script: [stalled], abort: true },
  ];

function options(script: ScriptedTurn[], signal: AbortSignal, extra: Partial<TurnOptions> = {}): TurnOptions {
  return {
    model: "anthropic/claude-sonnet-4-5",
    fetch: createScriptedModel({ script }).fetch,
    retry: { maxRetries: 2, initialDelayMs: 1 },
    signal,
    ...extra,
  };
}

/** Runs a turn that ends as `ending` says; resolves with its message. */
async function endAs(ending: (typeof ENDINGS)[number], signal: AbortSignal) {
  const turn = streamTurn({ messages: hello }, options(ending.script, signal, ending.options));
  if (ending.abort) {
    // Aborted once its stream has started.
    for await (const event of turn) if (event.type === "text-delta") turn.abort();
  }
  return turn.message;
}

const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

describe("a long-lived signal passed to many turns", () => {
  it("ends with the listeners it had, after turns that end every way", async () => {
    const signal = new AbortController().signal;
    const listeners = countListeners(signal);
    const codes: Array<string | undefined> = [];
    for (let round = 0; round < 5; round++) {
      for (const ending of ENDINGS) {
        const message = await endAs(ending, signal);
        codes.push(message.error?.code);
        expect(listeners.live, `after a turn that ${ending.name}`).toBe(0);
      }
    }
    // Each turn did listen to the signal while it ran.
    expect(listeners.added).toBe(5 * ENDINGS.length);
    expect(codes.slice(0, ENDINGS.length)).toEqual([
      undefined,
      undefined,
      "INVALID_REQUEST",
      "OVERLOADED",
      "NETWORK",
      "TIMEOUT",
      "TIMEOUT",
      "ABORTED",
    ]);
  });

  it("still aborts the turn that is running (the listener was real)", async () => {
    const controller = new AbortController();
    const turn = streamTurn({ messages: hello }, options([stalled], controller.signal));
    for await (const event of turn) if (event.type === "text-delta") controller.abort();
    expect((await turn.message).error?.code).toBe("ABORTED");
  });
});

describe("inside one turn", () => {
  it.each(ENDINGS)("a turn that $name leaves no abort listener of Wisp's on any signal", async (ending) => {
    const tracker = trackWispListeners();
    stops.push(tracker.stop);
    await endAs(ending, new AbortController().signal);
    await settleEventLoop();
    tracker.stop();
    expect(tracker.added()).toBeGreaterThan(0);
    expect(tracker.left()).toEqual([]);
  });

  it.each(ENDINGS)("a turn that $name leaves no timer of Wisp's pending", async (ending) => {
    const timers = trackWispTimers();
    stops.push(timers.stop);
    await endAs(ending, new AbortController().signal);
    await settleEventLoop();
    timers.stop();
    expect(timers.started()).toBeGreaterThan(0);
    expect(timers.pending()).toEqual([]);
  });
});
