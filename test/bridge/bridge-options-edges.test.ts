/**
 * The bridge's own options (bridge-options.ts), as connectSession and serveSession report them: the
 * messages a user reads for decision timeouts, decision handlers, the window and a second argument
 * that is not an object, and every entry of a kind map checked (not only the first).
 */
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { connectSession, serveSession } from "../../src/bridge/index.ts";
import { failure } from "../support/results.ts";

const ports: MessagePort[] = [];
afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

function mainSide(): MessagePort {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  return port2;
}

async function refused(options: unknown) {
  return failure(await connectSession(mainSide(), options as never));
}

describe("decision timeouts", () => {
  it("not an object: the message says what is wanted and what came", async () => {
    expect(await refused({ decisionTimeoutsMs: 5 })).toMatchObject({
      code: "CONFIG_INVALID",
      path: "decisionTimeoutsMs",
      message: "decisionTimeoutsMs must be an object of milliseconds per decision kind, got 5",
    });
  });

  it("an unknown kind is named as a decision kind, with a guess", async () => {
    expect(await refused({ decisionTimeoutsMs: { aproval: 5 } })).toMatchObject({
      path: "decisionTimeoutsMs.aproval",
      message: 'Unknown decision kind "aproval" — did you mean "approval"?',
    });
  });

  it("every kind is checked, not only the first", async () => {
    expect(await refused({ decisionTimeoutsMs: { approval: 5, question: "soon" } })).toMatchObject({
      path: "decisionTimeoutsMs.question",
    });
    expect(() =>
      serveSession(mainSide(), { model: "anthropic/x", decisionTimeoutsMs: { stop: 1, approval: -1 } }),
    ).toThrow(expect.objectContaining({ path: "decisionTimeoutsMs.approval" }));
  });
});

describe("decision handlers", () => {
  it("an unknown kind is named as a decision kind, with a guess", async () => {
    expect(await refused({ onDecision: { approvals: () => {} } })).toMatchObject({
      path: "onDecision.approvals",
      message: 'Unknown decision kind "approvals" — did you mean "approval"?',
    });
  });

  it("every handler is checked, not only the first", async () => {
    expect(await refused({ onDecision: { approval: () => {}, question: 5 } })).toMatchObject({
      path: "onDecision.question",
    });
  });
});

describe("the window", () => {
  it("1 is a window; 0 and fractions are not, and the message says why", async () => {
    expect(
      await refused({ window: 1, connectTimeoutMs: 1 }),
      "a valid window: only the handshake fails",
    ).toMatchObject({ code: "BRIDGE_CLOSED" });
    for (const [window, shown] of [
      [0, "0"],
      [1.5, "1.5"],
    ] as const)
      expect(await refused({ window })).toMatchObject({
        code: "CONFIG_INVALID",
        path: "window",
        message: `window must be a whole number of events ≥ 1, got ${shown}`,
      });
  });
});

describe("the second argument", () => {
  it("not an object: the message names connectSession's second argument", async () => {
    expect(await refused(5)).toMatchObject({
      code: "CONFIG_INVALID",
      message: "connectSession's second argument must be an object of options, got number",
    });
  });
});
