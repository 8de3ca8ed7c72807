/**
 * SharedWork at its edges: how many callers still wait (two giving up one after the other leave the
 * third its answer), a caller's signal aborting after it got its answer, a work that ends after every
 * caller gave up (or just as the last one does) not dropping the work a newer request started, and a
 * caller that had given up already leaving no unhandled rejection behind.
 */
import { describe, expect, it } from "vitest";
import { SharedWork } from "../../../src/mcp/oauth/shared-work.ts";

/** Works that end when told to: each call's signal, and how to end it. */
function works() {
  const calls: Array<{ signal: AbortSignal; promise: Promise<string>; finish: (value: string) => void }> = [];
  const work = (signal: AbortSignal): Promise<string> => {
    let finish: (value: string) => void = () => {};
    const promise = new Promise<string>((resolve) => {
      finish = resolve;
    });
    calls.push({ signal, promise, finish });
    return promise;
  };
  return { work, calls };
}

describe("SharedWork counting its callers", () => {
  it("keeps the work going while one of three callers still waits, after the other two gave up in turn", async () => {
    const shared = new SharedWork<string>();
    const { work, calls } = works();
    const [one, two, three] = [new AbortController(), new AbortController(), new AbortController()];
    const first = shared.run("server", one.signal, work);
    const second = shared.run("server", two.signal, work);
    const third = shared.run("server", three.signal, work);
    one.abort(new Error("one"));
    await expect(first).rejects.toThrow("one");
    two.abort(new Error("two"));
    await expect(second).rejects.toThrow("two");
    expect(calls).toHaveLength(1);
    expect(calls[0]?.signal.aborted).toBe(false);
    calls[0]?.finish("tokens");
    await expect(third).resolves.toBe("tokens");
  });

  it("does not abort a finished work when a caller's signal aborts after it got its answer", async () => {
    const shared = new SharedWork<string>();
    const { work, calls } = works();
    const caller = new AbortController();
    const answer = shared.run("server", caller.signal, work);
    calls[0]?.finish("tokens");
    await expect(answer).resolves.toBe("tokens");
    caller.abort(new Error("the request's timeout fires later"));
    expect(calls[0]?.signal.aborted).toBe(false);
  });
});

describe("SharedWork after every caller gave up", () => {
  it("a work that ends late does not drop the work a newer request started meanwhile", async () => {
    const shared = new SharedWork<string>();
    const { work, calls } = works();
    const caller = new AbortController();
    const gaveUp = shared.run("server", caller.signal, work);
    caller.abort(new Error("timed out"));
    await expect(gaveUp).rejects.toThrow("timed out");
    const newer = shared.run("server", new AbortController().signal, work);
    // The first work ends anyway, after its only caller gave up.
    calls[0]?.finish("late");
    await calls[0]?.promise;
    const joining = shared.run("server", new AbortController().signal, work);
    expect(calls).toHaveLength(2);
    calls[1]?.finish("fresh");
    await expect(newer).resolves.toBe("fresh");
    await expect(joining).resolves.toBe("fresh");
  });

  it("a caller giving up just as the work ends does not drop the work a newer request started", async () => {
    const shared = new SharedWork<string>();
    const { work, calls } = works();
    const caller = new AbortController();
    const first = shared.run("server", caller.signal, work).catch((error: unknown) => error);
    let newer: Promise<string> | undefined;
    // Runs once the work has ended and left, before its caller hears of it.
    const ended = calls[0]?.promise.then(() => {
      newer = shared.run("server", new AbortController().signal, work);
      caller.abort(new Error("gave up"));
    });
    calls[0]?.finish("first");
    await ended;
    await first;
    const joining = shared.run("server", new AbortController().signal, work);
    expect(calls).toHaveLength(2);
    calls[1]?.finish("second");
    await expect(newer).resolves.toBe("second");
    await expect(joining).resolves.toBe("second");
  });

  it("a caller that had given up already leaves no unhandled rejection, whatever the work does", async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", record);
    try {
      const shared = new SharedWork<string>();
      const gone = new AbortController();
      gone.abort(new Error("gone"));
      await expect(
        shared.run("server", gone.signal, async () => {
          throw new Error("the authorization server is down");
        }),
      ).rejects.toThrow("gone");
      // Unhandled rejections are reported after the microtasks: let a macrotask pass.
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", record);
    }
  });
});

describe("a caller that had given up already", () => {
  it("starts nothing: no work runs for nobody", async () => {
    const shared = new SharedWork<string>();
    const started: AbortSignal[] = [];
    const gone = new AbortController();
    gone.abort(new Error("gone"));
    await expect(
      shared.run("server", gone.signal, (signal) => {
        started.push(signal);
        return new Promise<string>(() => {});
      }),
    ).rejects.toThrow("gone");
    expect(started).toEqual([]);
  });
});
