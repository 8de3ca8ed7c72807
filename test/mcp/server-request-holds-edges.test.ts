/**
 * RequestHolds: the request's clocks stop at the first hold and start again after the last, an end
 * lets open holds go (and waits until the timer has taken them back), and nothing holds them once
 * the request has ended. The timer is a recording stand-in for AttemptTimer.
 */
import { describe, expect, it } from "vitest";
import type { AttemptTimer } from "../../src/http/attempt-timer.ts";
import { RequestHolds } from "../../src/mcp/server-request-holds.ts";

/** A timer that records when its clocks stop and start again. */
function recordingTimer(): { timer: AttemptTimer; events: string[] } {
  const events: string[] = [];
  const timer = {
    async hold<T>(work: Promise<T>): Promise<T> {
      events.push("stopped");
      try {
        return await work;
      } finally {
        events.push("started");
      }
    },
  } as unknown as AttemptTimer;
  return { timer, events };
}

describe("RequestHolds", () => {
  it("end lets a hold still open go, and resolves once the clocks have started again", async () => {
    const { timer, events } = recordingTimer();
    const holds = new RequestHolds(timer);
    void holds.hold(new Promise(() => {}));
    await holds.end();
    expect(events).toEqual(["stopped", "started"]);
  });

  it("once the request has ended, a hold runs its work without stopping the clocks", async () => {
    const { timer, events } = recordingTimer();
    const holds = new RequestHolds(timer);
    await holds.end();
    await expect(holds.hold(Promise.resolve("answered"))).resolves.toBe("answered");
    expect(events).toEqual([]);
  });

  it("a hold that ends after the request ended does not stop the clocks of a later hold", async () => {
    const { timer, events } = recordingTimer();
    const holds = new RequestHolds(timer);
    let answer = (): void => {};
    const first = holds.hold(
      new Promise<void>((resolve) => {
        answer = resolve;
      }),
    );
    await holds.end();
    answer();
    await first;
    await holds.hold(Promise.resolve());
    expect(events).toEqual(["stopped", "started"]);
  });
});
