/**
 * The worker's side of the hook feed (src/bridge/hook-feed-source.ts), over a real MessageChannel: a
 * run paused on the ask tool's questions is told as a `notification` (one question, or how many), and
 * `hooks` that are not an object of hooks are left for the session's own check to refuse — the feed
 * never makes bad hooks good. The rest of the feed is in hook-feed.test.ts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { connectSession, type HookFeedEvent, serveSession } from "../../src/bridge/index.ts";
import { askUserTool } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls } from "../support/agent.ts";
import { channel, closePorts, serveScripted } from "../support/bridge-channel.ts";
import { failure, okValue } from "../support/results.ts";

afterEach(closePorts);

const question = (text: string) => ({
  question: text,
  header: "Pick",
  options: [{ label: "Red" }, { label: "Blue" }],
  multiSelect: false,
});

/** A session with the ask tool served on one end of a channel, connected on the other. */
async function bridged(script: ScriptedTurn[]) {
  const [workerSide, mainSide] = channel();
  const model = createScriptedModel({ script });
  serveScripted(workerSide, model, { tools: [askUserTool()] });
  return okValue(await connectSession(mainSide, { onReport: () => {} }));
}

describe("notifications of a run that waits for answers", () => {
  it("one question waits for your answer", async () => {
    const session = await bridged([calls(["ask_user", { questions: [question("Which color?")] }])]);
    const seen: HookFeedEvent[] = [];
    session.onHookEvent((event) => void seen.push(event));
    const paused = okValue(await session.chat("paint it"));
    expect(paused.stopReason).toBe("question");
    const notification = seen.find((event) => event.kind === "notification");
    expect(notification).toMatchObject({
      kind: "notification",
      waitsFor: "question",
      message: "A question waits for your answer",
      question: { questions: [{ question: "Which color?" }] },
      sessionId: session.sessionId,
      turn: 1,
    });
  });

  it("several questions wait for your answers, and the notification says how many", async () => {
    const session = await bridged([
      calls(["ask_user", { questions: [question("Which color?"), question("Which shade?")] }]),
    ]);
    const seen: HookFeedEvent[] = [];
    session.onHookEvent((event) => void seen.push(event));
    expect(okValue(await session.chat("paint it")).stopReason).toBe("question");
    expect(seen.filter((event) => event.kind === "notification")).toMatchObject([
      { waitsFor: "question", message: "2 questions wait for your answers" },
    ]);
  });
});

describe("hooks that are not hooks", () => {
  for (const [name, hooks] of [
    ["a number", 5],
    ["null", null],
    ["an array", [() => undefined]],
  ] as const) {
    it(`hooks that are ${name} are refused by the session, as without the bridge`, async () => {
      const [workerSide, mainSide] = channel();
      serveSession(workerSide, {
        model: "anthropic/claude-sonnet-5-5",
        apiKey: "k",
        hooks: hooks as never,
        onReport: () => {},
      });
      expect(failure(await connectSession(mainSide, { onReport: () => {} }))).toMatchObject({
        _tag: "ConfigError",
        code: "CONFIG_INVALID",
        path: "hooks",
      });
    });
  }
});
