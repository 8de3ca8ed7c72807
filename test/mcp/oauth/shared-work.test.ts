/**
 * Work concurrent requests share (one authorization, one refresh): one request giving up does not fail
 * the others, and the work stops only when every one of them has given up.
 */
import { describe, expect, it } from "vitest";
import { SharedWork } from "../../../src/mcp/oauth/shared-work.ts";

/** Work that resolves when told to, recording its signal. */
function controllable() {
  let finish: (value: string) => void = () => {};
  const signals: AbortSignal[] = [];
  const work = (signal: AbortSignal) => {
    signals.push(signal);
    return new Promise<string>((resolve) => {
      finish = resolve;
    });
  };
  return { work, signals, finish: (value: string) => finish(value) };
}

describe("SharedWork", () => {
  it("runs once for concurrent callers; the first giving up leaves the others their answer", async () => {
    const shared = new SharedWork<string>();
    const { work, signals, finish } = controllable();
    const first = new AbortController();
    const a = shared.run("server", first.signal, work);
    const b = shared.run("server", new AbortController().signal, work);
    first.abort(new Error("the first request timed out"));
    await expect(a).rejects.toThrow("the first request timed out");
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(false);
    finish("tokens");
    await expect(b).resolves.toBe("tokens");
  });

  it("stops the work once every caller gave up, and starts it afresh for the next", async () => {
    const shared = new SharedWork<string>();
    const { work, signals } = controllable();
    const callers = [new AbortController(), new AbortController()];
    const runs = callers.map((caller) => shared.run("server", caller.signal, work).catch((error) => error));
    callers[0]?.abort(new Error("one"));
    expect(signals[0]?.aborted).toBe(false);
    callers[1]?.abort(new Error("two"));
    expect(signals[0]?.aborted).toBe(true);
    await Promise.all(runs);
    void shared.run("server", new AbortController().signal, work);
    expect(signals).toHaveLength(2);
  });

  it("keeps different keys apart, and refuses a caller already aborted without starting anything", async () => {
    const shared = new SharedWork<string>();
    const { work, signals } = controllable();
    void shared.run("a", new AbortController().signal, work);
    void shared.run("b", new AbortController().signal, work);
    expect(signals).toHaveLength(2);
    const gone = new AbortController();
    gone.abort(new Error("gone"));
    await expect(shared.run("c", gone.signal, work)).rejects.toThrow("gone");
  });
});
