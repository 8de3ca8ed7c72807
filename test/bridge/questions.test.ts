/**
 * Questions across the bridge (issue 40), over a real MessageChannel: without a `question` handler
 * the worker's run pauses and the main thread resumes it with answers; with one, the main thread
 * answers while the run waits, and no answer in time (or a bad one) ends the question unanswered.
 * The same in real workers is in questions-runtimes.test.ts.
 */
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import {
  type BridgeReport,
  type ConnectSessionOptions,
  connectSession,
  type DecisionRequest,
} from "../../src/bridge/index.ts";
import { askUserTool } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, says } from "../support/agent.ts";
import { ASK_COLOR, serveScripted } from "../support/bridge-channel.ts";
import { failure, okValue } from "../support/results.ts";

const ports: MessagePort[] = [];
afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

async function bridged(script: ScriptedTurn[], connect: ConnectSessionOptions = {}) {
  const { port1: workerSide, port2: mainSide } = new MessageChannel();
  ports.push(workerSide, mainSide);
  const model = createScriptedModel({ script });
  const reports: BridgeReport[] = [];
  serveScripted(workerSide, model, {
    tools: [askUserTool()],
    onReport: (report) => reports.push(report),
  });
  const mainReports: BridgeReport[] = [];
  const session = okValue(
    await connectSession(mainSide, { onReport: (report) => mainReports.push(report), ...connect }),
  );
  return { model, session, reports, mainReports };
}

describe("questions across the port", () => {
  it("without a question handler the run pauses as in-process; resume with answers goes on", async () => {
    const { session, model } = await bridged([calls(["ask_user", ASK_COLOR]), says("painted")]);
    const paused = okValue(await session.chat("paint it"));
    expect(paused.stopReason).toBe("question");
    expect(paused.pendingQuestions?.[0]?.questions).toEqual(ASK_COLOR.questions);
    const state = okValue(await session.export());
    expect(state.pendingQuestions?.[0]?.digest).toMatch(/^[0-9a-f]{64}$/);
    const id = paused.pendingQuestions?.[0]?.toolCallId as string;
    const wrong = await session.resume([{ toolCallId: id, answers: [{ selected: ["Green"] }] }]);
    expect(failure(wrong)).toMatchObject({ _tag: "ConfigError", code: "APPROVAL_INVALID" });
    const resumed = okValue(await session.resume([{ toolCallId: id, answers: [{ selected: ["Blue"] }] }]));
    expect([resumed.stopReason, resumed.text]).toEqual(["complete", "painted"]);
    expect(resumed.toolCalls[0]?.result.output).toBe(
      'The user answered your questions:\n- "Which color?": Blue',
    );
    expect(model.requests).toHaveLength(2);
  });

  it("a question handler answers while the run waits: the request carries its hints, the answer is the result", async () => {
    const seen: DecisionRequest[] = [];
    const { session } = await bridged([calls(["ask_user", ASK_COLOR]), says("painted")], {
      onDecision: {
        question: (request) => {
          seen.push(request);
          return { answers: [{ selected: ["Red"], text: "bright" }] };
        },
      },
    });
    const result = okValue(await session.chat("paint it"));
    expect(result.stopReason).toBe("complete");
    expect(result.pendingQuestions).toBeUndefined();
    expect(result.toolCalls[0]?.result).toMatchObject({
      isError: false,
      output: 'The user answered your questions:\n- "Which color?": Red and wrote "bright"',
    });
    expect(seen).toEqual([
      expect.objectContaining({
        kind: "question",
        rawKind: "question",
        expectsDecision: true,
        canBlock: true,
        timeoutMs: 300_000,
        sessionId: session.sessionId,
        question: {
          toolCallId: expect.any(String),
          toolName: "ask_user",
          questions: ASK_COLOR.questions,
          requestedAt: expect.any(Number),
        },
      }),
    ]);
  });

  it("the person may decline: the model reads that the questions went unanswered", async () => {
    const { session } = await bridged([calls(["ask_user", ASK_COLOR]), says("ok")], {
      onDecision: { question: () => ({ unanswered: true, reason: "closed the dialog" }) },
    });
    const result = okValue(await session.chat("paint it"));
    expect(result.toolCalls[0]?.result).toMatchObject({
      isError: true,
      output:
        "The user did not answer your questions (closed the dialog). Do not assume an answer: go on without one, or ask again later.",
    });
  });

  it("no answer in time ends the question unanswered — never a made-up answer — and a late answer is ignored", async () => {
    let late: (() => void) | undefined;
    const { session, reports } = await bridged([calls(["ask_user", ASK_COLOR]), says("ok")], {
      decisionTimeoutsMs: { question: 50 },
      onDecision: {
        question: () =>
          new Promise((resolve) => {
            late = () => resolve({ answers: [{ selected: ["Red"] }] });
          }),
      },
    });
    const result = okValue(await session.chat("paint it"));
    expect(result.stopReason).toBe("complete");
    expect(result.toolCalls[0]?.result).toMatchObject({
      isError: true,
      output: expect.stringMatching(/^The user did not answer your questions \(.*no answer within 50 ms\)/),
    });
    late?.();
    await expect
      .poll(() => reports.map((report) => report.code))
      .toEqual(["DECISION_TIMEOUT", "DECISION_EXPIRED"]);
  });

  it("an answer that does not fit the questions is reported on the main thread and ends the question unanswered", async () => {
    const { session, mainReports } = await bridged([calls(["ask_user", ASK_COLOR]), says("ok")], {
      onDecision: { question: () => ({ answers: [{ selected: ["Red", "Blue"] }] }) },
    });
    const result = okValue(await session.chat("paint it"));
    expect(result.toolCalls[0]?.result).toMatchObject({
      isError: true,
      output: expect.stringContaining("The user did not answer your questions"),
    });
    expect(mainReports).toEqual([
      expect.objectContaining({
        code: "DECISION_HANDLER_FAILED",
        message: expect.stringMatching(/question went unanswered.*more than one option/),
      }),
    ]);
  });
});
