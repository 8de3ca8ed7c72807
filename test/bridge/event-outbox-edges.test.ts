/**
 * The worker side's flow control of a run's events (src/bridge/event-outbox.ts), driven directly: only
 * `window` events go before credit is granted, a grant sends exactly that many of what waits, in order,
 * a grant that is not a positive number changes nothing, deltas merge only with the same part's, and
 * `drained` resolves once `end` was called and nothing waits (or `discard` dropped it) — never before.
 * The same outbox behind a real port is in bridge.test.ts (slow consumers).
 */
import { describe, expect, it } from "vitest";
import { EventOutbox } from "../../src/bridge/event-outbox.ts";

/** An outbox of `window` whose sent events are kept in `sent`. */
function outbox(window: number) {
  const sent: object[] = [];
  const box = new EventOutbox(window, (event) => sent.push(event));
  return { box, sent };
}

/** Whether `promise` has settled (without waiting for it to). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  const pending = Symbol("pending");
  return (await Promise.race([promise, Promise.resolve(pending)])) !== pending;
}

const event = (n: number) => ({ type: "step", n });

describe("credit", () => {
  it("sends `window` events at once, holds the rest, and a grant sends that many of them, in order", () => {
    const { box, sent } = outbox(1);
    box.push(event(1));
    box.push(event(2));
    box.push(event(3));
    expect(sent).toEqual([event(1)]);
    expect(box.waiting).toBe(2);

    box.grant(1);
    expect(sent).toEqual([event(1), event(2)]);
    expect(box.waiting).toBe(1);

    box.grant(1);
    expect(sent).toEqual([event(1), event(2), event(3)]);
    expect(box.waiting).toBe(0);
    // The credit is spent: the next event waits again.
    box.push(event(4));
    expect(sent).toHaveLength(3);
    expect(box.waiting).toBe(1);
  });

  it("a grant that is zero, negative or not a number changes nothing: the next grant of 1 sends one", () => {
    for (const bad of [0, -1, Number.NaN]) {
      const { box, sent } = outbox(1);
      box.push(event(1));
      box.push(event(2));
      box.push(event(3));
      box.grant(bad);
      expect(sent, `after grant(${bad})`).toEqual([event(1)]);
      box.grant(1);
      expect(sent, `grant(1) after grant(${bad})`).toEqual([event(1), event(2)]);
    }
  });

  it("a window of 0 means no limit", () => {
    const { box, sent } = outbox(0);
    for (let n = 1; n <= 100; n++) box.push(event(n));
    expect(sent).toHaveLength(100);
    expect(box.waiting).toBe(0);
  });
});

describe("merging deltas that wait", () => {
  it("joins consecutive deltas of the same part, never of another type or another part", () => {
    const { box, sent } = outbox(1);
    box.push({ type: "text-start", index: 0 });
    box.push({ type: "text-delta", index: 0, delta: "Hel" });
    box.push({ type: "text-delta", index: 0, delta: "lo" });
    box.push({ type: "thinking-delta", index: 0, delta: "hm" });
    box.push({ type: "text-delta", index: 1, delta: "other" });
    box.push({ type: "text-delta", index: 1, delta: " part" });
    box.push({ type: "text-delta", index: 2, delta: "third" });
    box.push({ type: "step" });
    box.push({ type: "step" });
    expect(box.waiting).toBe(6);
    box.grant(10);
    expect(sent).toEqual([
      { type: "text-start", index: 0 },
      { type: "text-delta", index: 0, delta: "Hello" },
      { type: "thinking-delta", index: 0, delta: "hm" },
      { type: "text-delta", index: 1, delta: "other part" },
      { type: "text-delta", index: 2, delta: "third" },
      { type: "step" },
      { type: "step" },
    ]);
  });
});

describe("drained", () => {
  it("resolves at end() when nothing waits", async () => {
    const { box } = outbox(1);
    box.push(event(1));
    expect(await settled(box.drained)).toBe(false);
    box.end();
    expect(await settled(box.drained)).toBe(true);
  });

  it("after end() with events waiting, resolves only once a grant sent the last of them", async () => {
    const { box, sent } = outbox(1);
    box.push(event(1));
    box.push(event(2));
    box.push(event(3));
    box.end();
    expect(await settled(box.drained)).toBe(false);
    box.grant(1);
    expect(await settled(box.drained)).toBe(false);
    box.grant(1);
    expect(sent).toHaveLength(3);
    expect(await settled(box.drained)).toBe(true);
  });

  it("does not resolve when a grant empties the queue before end() was called", async () => {
    const { box, sent } = outbox(1);
    box.push(event(1));
    box.push(event(2));
    box.grant(1);
    expect(sent).toHaveLength(2);
    expect(box.waiting).toBe(0);
    expect(await settled(box.drained)).toBe(false);
  });

  it("discard() drops what waits and resolves it, and a later grant sends nothing", async () => {
    const { box, sent } = outbox(1);
    box.push(event(1));
    box.push(event(2));
    box.discard();
    expect(box.waiting).toBe(0);
    expect(await settled(box.drained)).toBe(true);
    box.grant(5);
    expect(sent).toEqual([event(1)]);
  });
});
