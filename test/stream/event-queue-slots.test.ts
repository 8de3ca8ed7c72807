/**
 * The event queue lets go of each event as soon as its reader has it, not only once the reader has
 * caught up: a reader that lags behind a fast producer holds the unread events only (each read
 * clears its slot), and a reader that stops early (`break`) lets go of the unread ones too. Checked
 * with WeakRefs and V8's own collector (node:v8 turns `gc` on for this file), while the queue and its
 * unread events are still alive.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { streamTurn, type TurnEvent } from "../../src/index.ts";
import { EventQueue } from "../../src/stream/event-queue.ts";
import { createScriptedModel } from "../../src/testing/index.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** How many of `refs` still reach their object once the current job is over and the heap collected. */
async function alive(refs: WeakRef<object>[]): Promise<number> {
  // A WeakRef keeps its target until the job that made or read it ends.
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  gc();
  return refs.filter((ref) => ref.deref() !== undefined).length;
}

/** A queue holding `count` fresh objects, with WeakRefs to each (the queue is all that keeps them). */
function filledQueue(count: number): { queue: EventQueue<{ n: number }>; refs: WeakRef<{ n: number }>[] } {
  const queue = new EventQueue<{ n: number }>();
  const refs: WeakRef<{ n: number }>[] = [];
  for (let n = 0; n < count; n++) {
    const value = { n };
    refs.push(new WeakRef(value));
    queue.push(value);
  }
  return { queue, refs };
}

/** Reads `count` values from `iterator`, keeping none of them; returns their numbers. */
async function readSome(iterator: AsyncIterator<{ n: number }>, count: number): Promise<number[]> {
  const seen: number[] = [];
  for (let index = 0; index < count; index++) {
    const result = await iterator.next();
    if (result.done) break;
    seen.push(result.value.n);
  }
  return seen;
}

describe("EventQueue", () => {
  it("a lagging reader: the events it has read are collectable, the unread ones kept and delivered", async () => {
    const { queue, refs } = filledQueue(200);
    const iterator = queue[Symbol.asyncIterator]();
    expect(await readSome(iterator, 120)).toEqual(Array.from({ length: 120 }, (_, n) => n));
    // The reader is behind (80 events still buffered): the 120 it has are not held by the queue.
    expect(await alive(refs.slice(0, 120))).toBe(0);
    expect(await alive(refs.slice(120))).toBe(80);
    // The rest arrive whole and in order, after more pushes too.
    queue.push({ n: 200 });
    queue.close();
    expect(await readSome(iterator, 1000)).toEqual(Array.from({ length: 81 }, (_, n) => 120 + n));
    expect(await alive(refs)).toBe(0);
  });

  it("a reader that stops early lets go of the events it never read", async () => {
    const { queue, refs } = filledQueue(100);
    const iterator = queue[Symbol.asyncIterator]();
    await readSome(iterator, 10);
    await iterator.return?.();
    expect(await alive(refs)).toBe(0);
    // Nothing more is delivered or taken in.
    queue.push({ n: 100 });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it("the check can fail: events the reader keeps are still alive", async () => {
    const { queue, refs } = filledQueue(50);
    const iterator = queue[Symbol.asyncIterator]();
    const kept: Array<{ n: number }> = [];
    for (let index = 0; index < 20; index++) {
      const result = await iterator.next();
      if (!result.done) kept.push(result.value);
    }
    expect(await alive(refs)).toBe(50);
    expect(kept).toHaveLength(20);
  });
});

describe("streamTurn's events", () => {
  const hello = [
    { id: "u", role: "user" as const, content: [{ type: "text" as const, text: "hi" }], timestamp: 0 },
  ];
  const TEXT = Array.from({ length: 300 }, (_, index) => `word${index} `).join("");

  /**
   * A finished turn whose events were all buffered before anyone read them, and WeakRefs to each
   * event in the order the turn queued them (EventQueue's `push` is watched while the turn runs).
   */
  async function finishedTurn() {
    const refs: WeakRef<TurnEvent>[] = [];
    const push = EventQueue.prototype.push;
    EventQueue.prototype.push = function (this: EventQueue<unknown>, value: unknown) {
      refs.push(new WeakRef(value as TurnEvent));
      push.call(this, value);
    };
    try {
      const model = createScriptedModel({ script: [{ content: [{ type: "text", text: TEXT }] }] });
      const turn = streamTurn(
        { messages: hello },
        { model: "anthropic/claude-sonnet-4-5", fetch: model.fetch, retry: { maxRetries: 0 } },
      );
      const message = await turn.message;
      expect(message.content).toEqual([{ type: "text", text: TEXT }]);
      expect(refs.length).toBeGreaterThan(300);
      return { turn, refs };
    } finally {
      EventQueue.prototype.push = push;
    }
  }

  /** Reads `count` events and drops them (in a frame of its own, which ends: nothing of it is kept). */
  async function skip(iterator: AsyncIterator<TurnEvent>, count: number): Promise<void> {
    for (let index = 0; index < count; index++) await iterator.next();
  }

  /** Reads up to the first text delta, then `break`s (in a frame of its own, which ends). */
  async function breakAtFirstDelta(turn: AsyncIterable<TurnEvent>): Promise<void> {
    for await (const event of turn) if (event.type === "text-delta") break;
  }

  it("read part-way, the events read are collectable while the turn holds the rest", async () => {
    const { turn, refs } = await finishedTurn();
    const iterator = turn[Symbol.asyncIterator]();
    await skip(iterator, 150);
    expect(await alive(refs.slice(0, 150))).toBe(0);
    expect(await alive(refs.slice(150))).toBe(refs.length - 150);
    // The rest arrive, in order, up to the turn's end.
    const rest: TurnEvent["type"][] = [];
    for (let result = await iterator.next(); !result.done; result = await iterator.next())
      rest.push(result.value.type);
    expect(rest).toHaveLength(refs.length - 150);
    expect(rest.at(-1)).toBe("turn-end");
    expect(await alive(refs)).toBe(0);
  });

  it("a `break` lets go of the events never read, while the turn lives on", async () => {
    const { turn, refs } = await finishedTurn();
    await breakAtFirstDelta(turn);
    expect(await alive(refs)).toBe(0);
    // The turn itself is still here, its message whole.
    expect((await turn.message).content).toEqual([{ type: "text", text: TEXT }]);
  });
});

describe("the event queue's early return", () => {
  it("tells its owner a reader stopped only while the stream was open", async () => {
    let stopped = 0;
    const open = new EventQueue<number>(() => stopped++);
    open.push(1);
    await open[Symbol.asyncIterator]().return?.();
    expect(stopped).toBe(1);

    const closed = new EventQueue<number>(() => stopped++);
    closed.push(1);
    closed.close();
    await closed[Symbol.asyncIterator]().return?.();
    expect(stopped).toBe(1); // the stream had ended: nothing to stop
  });
});
