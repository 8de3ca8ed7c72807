/**
 * ServerRequests at its edges: a handler that throws something other than an Error is answered with
 * a generic internal error (a cancel without a reason: server-requests.test.ts); a handler's long
 * error message cut short; the refusal past the cap, word for word; more requests than the cap
 * answered one after another; a question given up settling even when its handler ignores its signal;
 * and a server that reuses an id still able to cancel the second request.
 */
import { describe, expect, it } from "vitest";
import { MAX_SERVER_REQUESTS, ServerRequests } from "../../src/mcp/server-requests.ts";
import type { JsonObject } from "../../src/types.ts";

/** Lets every pending promise job run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * ServerRequests with three methods: "quick" answers `{ ok: true }`, "slow" answers `{}` once its
 * signal aborts, "stuck" never answers; every answer sent and every handler's signal recorded.
 */
function answering() {
  const sent: JsonObject[] = [];
  const signals: AbortSignal[] = [];
  const requests = new ServerRequests(
    new Map([
      ["quick", async () => ({ ok: true })],
      [
        "slow",
        (_params: JsonObject, signal: AbortSignal) => {
          signals.push(signal);
          return new Promise<JsonObject>((resolve) =>
            signal.addEventListener("abort", () => resolve({}), { once: true }),
          );
        },
      ],
      [
        "stuck",
        (_params: JsonObject, signal: AbortSignal) => {
          signals.push(signal);
          return new Promise<JsonObject>(() => {});
        },
      ],
    ]),
    (answer) => sent.push(answer),
  );
  return { sent, signals, requests };
}

describe("ServerRequests", () => {
  it("answers a handler that throws a non-Error with -32603 and a generic message", async () => {
    const sent: JsonObject[] = [];
    const requests = new ServerRequests(
      new Map([
        [
          "odd",
          async () => {
            throw "a string, not an Error";
          },
        ],
      ]),
      (answer) => sent.push(answer),
    );
    await requests.answer(7, "odd", {});
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: 7, error: { code: -32603, message: "The client could not answer" } },
    ]);
  });

  it("answers a handler's error with the first 1000 characters of its message", async () => {
    const sent: JsonObject[] = [];
    const requests = new ServerRequests(
      new Map([
        [
          "long",
          async () => {
            throw new Error(`${"a".repeat(1_000)}${"b".repeat(500)}`);
          },
        ],
      ]),
      (answer) => sent.push(answer),
    );
    await requests.answer(1, "long", {});
    expect(sent).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "a".repeat(1_000) } }]);
  });

  it(`refuses a request past the cap with a JSON-RPC 2.0 internal error saying it answers at most ${MAX_SERVER_REQUESTS} at once`, () => {
    const { sent, requests } = answering();
    for (let id = 1; id <= MAX_SERVER_REQUESTS + 1; id++) requests.answer(id, "stuck", {});
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        id: MAX_SERVER_REQUESTS + 1,
        error: {
          code: -32603,
          message: `The client answers at most ${MAX_SERVER_REQUESTS} requests at once`,
        },
      },
    ]);
  });

  it(`answers more than ${MAX_SERVER_REQUESTS} requests one after another`, async () => {
    const { sent, requests } = answering();
    for (let id = 1; id <= MAX_SERVER_REQUESTS + 2; id++) await requests.answer(id, "quick", {});
    expect(sent).toEqual(
      Array.from({ length: MAX_SERVER_REQUESTS + 2 }, (_, index) => ({
        jsonrpc: "2.0",
        id: index + 1,
        result: { ok: true },
      })),
    );
  });

  it("settles a question given up (cancelled, its id reused, the connection closed) though its handler ignores its signal", async () => {
    const { signals, requests } = answering();
    const settled = (question: Promise<void> | undefined) =>
      Promise.race([question?.then(() => "settled"), settle().then(() => "pending")]);
    const cancelled = requests.answer(1, "stuck", {});
    requests.cancel(1, "no longer needed");
    const reused = requests.answer(2, "stuck", {});
    requests.answer(2, "stuck", {});
    const closed = requests.answer(3, "stuck", {});
    requests.cancelAll();
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true, true, true]);
    expect(await Promise.all([settled(cancelled), settled(reused), settled(closed)])).toEqual([
      "settled",
      "settled",
      "settled",
    ]);
  });

  it("still cancels the second request of a reused id after the first one's handler settled", async () => {
    const { sent, signals, requests } = answering();
    requests.answer(1, "slow", {});
    requests.answer(1, "slow", {}); // the first is given up, and its handler settles
    await settle();
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
    requests.cancel(1, "no longer needed");
    expect(signals[1]?.aborted).toBe(true);
    await settle();
    expect(sent).toEqual([]);
  });

  it("aborts a running handler's signal with the reason that the connection closed, and sends its late answer nowhere", async () => {
    const { sent, signals, requests } = answering();
    requests.answer(1, "slow", {});
    requests.cancelAll();
    expect(signals[0]?.reason).toEqual(new Error("The MCP connection closed"));
    await settle();
    expect(sent).toEqual([]);
  });
});
