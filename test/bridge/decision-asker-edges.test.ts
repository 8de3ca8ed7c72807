/**
 * The worker's side of decisions (`DecisionAsker`, decision-asker.ts), driven directly: a question's
 * timeout (and "no limit" beyond the timer range), its abort (before or while it waits) and the
 * listener it leaves behind, answers that come late, twice or for nobody, how many expired ids are
 * remembered, and closing with questions open. The same over a real port is in bridge.test.ts.
 */
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_TIMER_MS } from "../../src/agent/deadline.ts";
import { type Asked, DecisionAsker } from "../../src/bridge/decision-asker.ts";
import type { BridgeReport } from "../../src/bridge/decisions.ts";
import type { WorkerMessage } from "../../src/bridge/protocol.ts";

afterEach(() => {
  vi.useRealTimers();
});

/** An asker with `timeouts`, what it posted and what it reported. */
function asker(timeouts: Record<string, number> = {}) {
  const posted: Extract<WorkerMessage, { t: "decide" }>[] = [];
  const reports: BridgeReport[] = [];
  const decisions = new DecisionAsker(
    timeouts,
    (message) => {
      if (message.t === "decide") posted.push(message);
    },
    (report) => reports.push(report),
  );
  /** The request id of the question posted `index`th. */
  const idOf = (index: number): string => {
    const question = posted[index];
    if (question === undefined) throw new Error(`no question ${index} was posted`);
    return question.requestId;
  };
  return { decisions, posted, reports, idOf };
}

/** Whether `promise` has settled, after the microtasks queued so far ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe("a question's time limit", () => {
  it("ends the question unanswered and reports DECISION_TIMEOUT with the kind and the limit", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { decisions, reports, idOf } = asker({ approval: 50 });
    const asked = decisions.ask("approval", {}, new AbortController().signal);
    vi.advanceTimersByTime(50);
    await expect(asked).resolves.toEqual({ answered: false, why: "no answer within 50 ms", timedOut: true });
    expect(reports).toEqual([
      {
        code: "DECISION_TIMEOUT",
        message: "no approval decision from the main thread within 50 ms",
        requestId: idOf(0),
      },
    ]);
  });

  it("is cleared by the answer: nothing is reported when the limit passes afterwards", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { decisions, reports, idOf } = asker({ approval: 50 });
    const asked = decisions.ask("approval", {}, new AbortController().signal);
    decisions.answer(idOf(0), { approved: true }, undefined);
    await expect(asked).resolves.toEqual({ answered: true, answer: { approved: true } });
    vi.advanceTimersByTime(100);
    expect(vi.getTimerCount()).toBe(0);
    expect(reports).toEqual([]);
  });

  it("still applies at exactly the largest timer delay; only beyond it there is no limit", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { decisions } = asker({ approval: MAX_TIMER_MS, question: MAX_TIMER_MS + 1 });
    const atLimit = decisions.ask("approval", {}, new AbortController().signal);
    const beyond = decisions.ask("question", {}, new AbortController().signal);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    await expect(atLimit).resolves.toMatchObject({ answered: false, timedOut: true });
    expect(await settled(beyond)).toBe(false);
    decisions.close();
    await expect(beyond).resolves.toEqual({ answered: false, why: "the bridge closed" });
  });
});

describe("aborting the run", () => {
  it("ends a waiting question unanswered, and its id then counts as expired", async () => {
    const { decisions, reports, idOf } = asker();
    const controller = new AbortController();
    const asked = decisions.ask("tool-before", {}, controller.signal);
    controller.abort();
    await expect(asked).resolves.toEqual({ answered: false, why: "the run was aborted" });
    decisions.answer(idOf(0), {}, undefined);
    expect(reports).toEqual([
      {
        code: "DECISION_EXPIRED",
        message: `a decision for request ${idOf(0)} came after it expired; ignored`,
        requestId: idOf(0),
      },
    ]);
  });

  it("before the question is asked: it is never posted and ends at once", async () => {
    const { decisions, posted } = asker();
    const controller = new AbortController();
    controller.abort();
    const asked = decisions.ask("approval", {}, controller.signal);
    expect(await settled(asked)).toBe(true);
    await expect(asked).resolves.toEqual({ answered: false, why: "the run was aborted" });
    expect(posted).toEqual([]);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("no longer matters once the question is answered: its listener is gone", async () => {
    const { decisions, reports, idOf } = asker();
    const controller = new AbortController();
    const asked = decisions.ask("approval", {}, controller.signal);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    decisions.answer(idOf(0), { approved: false }, undefined);
    await expect(asked).resolves.toEqual({ answered: true, answer: { approved: false } });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    controller.abort();
    // Answered, not expired: a second answer is for an unknown request.
    decisions.answer(idOf(0), { approved: true }, undefined);
    expect(reports.map((report) => report.code)).toEqual(["DECISION_UNKNOWN"]);
  });
});

describe("answers this side does not wait for", () => {
  it("a second answer to an answered question is for an unknown request, not an expired one", async () => {
    const { decisions, reports, idOf } = asker();
    const asked = decisions.ask("stop", {}, new AbortController().signal);
    decisions.answer(idOf(0), undefined, undefined);
    await expect(asked).resolves.toEqual({ answered: true, answer: undefined });
    decisions.answer(idOf(0), undefined, undefined);
    expect(reports).toEqual([
      {
        code: "DECISION_UNKNOWN",
        message: `a decision for unknown request ${idOf(0)}; ignored`,
        requestId: idOf(0),
      },
    ]);
  });

  it("an id never asked is unknown; one that is no string is reported without a requestId", () => {
    const { decisions, reports } = asker();
    decisions.answer("nobody-asked", {}, undefined);
    decisions.answer(42, {}, undefined);
    expect(reports).toEqual([
      {
        code: "DECISION_UNKNOWN",
        message: "a decision for unknown request nobody-asked; ignored",
        requestId: "nobody-asked",
      },
      { code: "DECISION_UNKNOWN", message: "a decision for unknown request 42; ignored" },
    ]);
  });

  it("a handler's failure ends the question unanswered, with why", async () => {
    const { decisions, idOf } = asker();
    const asked = decisions.ask("approval", {}, new AbortController().signal);
    decisions.answer(idOf(0), undefined, "it threw");
    await expect(asked).resolves.toEqual({ answered: false, why: "its handler failed: it threw" });
  });

  it("the last 256 expired ids are remembered as expired; older ones become unknown", async () => {
    const { decisions, reports, idOf } = asker();
    const questions: Promise<Asked>[] = [];
    for (let index = 0; index < 257; index++) {
      const controller = new AbortController();
      questions.push(decisions.ask("stop", {}, controller.signal));
      controller.abort();
    }
    await Promise.all(questions);
    decisions.answer(idOf(0), undefined, undefined);
    decisions.answer(idOf(1), undefined, undefined);
    decisions.answer(idOf(256), undefined, undefined);
    expect(reports.map((report) => report.code)).toEqual([
      "DECISION_UNKNOWN",
      "DECISION_EXPIRED",
      "DECISION_EXPIRED",
    ]);
  });
});

describe("closing", () => {
  it("ends every open question unanswered, and their ids count as expired", async () => {
    const { decisions, reports, idOf } = asker();
    const first = decisions.ask("approval", {}, new AbortController().signal);
    const second = decisions.ask("question", {}, new AbortController().signal);
    decisions.close();
    await expect(Promise.all([first, second])).resolves.toEqual([
      { answered: false, why: "the bridge closed" },
      { answered: false, why: "the bridge closed" },
    ]);
    decisions.answer(idOf(1), {}, undefined);
    expect(reports.map((report) => report.code)).toEqual(["DECISION_EXPIRED"]);
  });
});
