/**
 * The main thread's side of decisions (`answerQuestion`, decision-answerer.ts), driven directly: the
 * request a handler gets (its hints' defaults), which approval and question answers are refused here
 * and with what message, "no answer" passing as an answer, a missing handler, the outcome each kind's
 * failure reports — and, over a real MessageChannel, an answer that cannot be posted.
 */
import { afterEach, describe, expect, it } from "vitest";
import { answerQuestion } from "../../src/bridge/decision-answerer.ts";
import {
  type BridgeReport,
  connectSession,
  type DecisionHandlers,
  type DecisionRequest,
} from "../../src/bridge/index.ts";
import type { MainMessage, WorkerMessage } from "../../src/bridge/protocol.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { calls, says } from "../support/agent.ts";
import { channel, closePorts, send, serveScripted } from "../support/bridge-channel.ts";
import { okValue } from "../support/results.ts";

afterEach(closePorts);

const APPROVAL_SHAPE =
  "an approval is answered with { approved: true | false, reason?: string, args?: object }, got ";
const QUESTION_SHAPE =
  "a question is answered with { answers: [{ selected?, text? }, …] } or { unanswered: true, reason? }";

/** One question from the worker, answered by `handlers`: what was posted back and what was reported. */
async function answer(
  kind: string,
  handlers: DecisionHandlers | undefined,
  payload: unknown = {},
  accepts: (message: MainMessage) => boolean = () => true,
) {
  const question: Extract<WorkerMessage, { t: "decide" }> = {
    t: "decide",
    requestId: "request-1",
    kind,
    expectsDecision: true,
    canBlock: true,
    timeoutMs: 1000,
    payload,
  };
  const posted: { message: MainMessage; report: boolean | undefined }[] = [];
  const reports: BridgeReport[] = [];
  await answerQuestion(
    question,
    handlers,
    (message, report) => {
      posted.push({ message, report });
      return accepts(message);
    },
    (report) => reports.push(report),
  );
  return { posted: posted.map((post) => post.message), reports, flags: posted.map((post) => post.report) };
}

/** A question's payload with one single-choice question. */
const ASKED = {
  question: {
    toolCallId: "call-1",
    questions: [
      { question: "Which color?", header: "Color", options: [{ label: "Red" }, { label: "Blue" }] },
    ],
  },
};

describe("the request a handler gets", () => {
  it("carries the hints, with sessionId '' and turn 0 when the worker sent none", async () => {
    let seen: DecisionRequest | undefined;
    await answer("stop", {
      stop: (request) => {
        seen = request;
        return undefined;
      },
    });
    expect(seen).toMatchObject({
      requestId: "request-1",
      kind: "stop",
      rawKind: "stop",
      expectsDecision: true,
      canBlock: true,
      timeoutMs: 1000,
      sessionId: "",
      turn: 0,
    });
  });
});

describe("approval answers", () => {
  it("nothing is an answer (the worker denies): it is posted, and the port's own report is left off", async () => {
    const { posted, reports, flags } = await answer("approval", { approval: () => undefined });
    expect(posted).toEqual([{ t: "decision", requestId: "request-1", answer: undefined }]);
    expect(flags).toEqual([false]);
    expect(reports).toEqual([]);
  });

  it("a full answer is posted as given", async () => {
    const given = { approved: true, reason: "fine", args: { to: "Ada" } };
    const { posted, reports } = await answer("approval", { approval: () => given });
    expect(posted).toEqual([{ t: "decision", requestId: "request-1", answer: given }]);
    expect(reports).toEqual([]);
  });

  it.each([
    ["a function carrying approved", Object.assign(() => undefined, { approved: true })],
    ["a reason that is no string", { approved: true, reason: 5 }],
    ["args that are an array", { approved: true, args: ["Ada"] }],
    ["args that are a string", { approved: true, args: "Ada" }],
    ["args that are null", { approved: true, args: null }],
  ])("%s is refused, reported and posted as failed (the call is denied)", async (_, given) => {
    const { posted, reports } = await answer("approval", { approval: () => given as never });
    const why = posted[0]?.t === "decision" ? posted[0].failed : undefined;
    expect(why?.startsWith(APPROVAL_SHAPE)).toBe(true);
    expect(posted).toEqual([{ t: "decision", requestId: "request-1", failed: why }]);
    expect(reports).toEqual([
      {
        code: "DECISION_HANDLER_FAILED",
        message: `onDecision failed on the approval question (the call was denied): ${why}`,
        requestId: "request-1",
      },
    ]);
  });
});

describe("question answers", () => {
  it("nothing is an answer (the question goes unanswered in the worker): it is posted", async () => {
    const { posted, reports } = await answer("question", { question: () => undefined }, ASKED);
    expect(posted).toEqual([{ t: "decision", requestId: "request-1", answer: undefined }]);
    expect(reports).toEqual([]);
  });

  it("unanswered, with or without a reason, is posted as given", async () => {
    for (const given of [{ unanswered: true }, { unanswered: true, reason: "busy" }] as const) {
      const { posted, reports } = await answer("question", { question: () => given }, ASKED);
      expect(posted).toEqual([{ t: "decision", requestId: "request-1", answer: given }]);
      expect(reports).toEqual([]);
    }
  });

  it.each([
    ["a string", "Red", `${QUESTION_SHAPE}, got "Red"`],
    [
      "unanswered with a reason that is no string",
      { unanswered: true, reason: 5 },
      `${QUESTION_SHAPE}: reason must be a string`,
    ],
    [
      "answers that are no array",
      { answers: "Red" },
      `${QUESTION_SHAPE}: answers must be an array of 1 answer, one per question`,
    ],
  ])("%s is refused with what is wrong (the question goes unanswered)", async (_, given, why) => {
    const { posted, reports } = await answer("question", { question: () => given as never }, ASKED);
    expect(posted).toEqual([{ t: "decision", requestId: "request-1", failed: why }]);
    expect(reports).toEqual([
      {
        code: "DECISION_HANDLER_FAILED",
        message: `onDecision failed on the question question (the question went unanswered): ${why}`,
        requestId: "request-1",
      },
    ]);
  });
});

describe("a handler that cannot answer", () => {
  it("is missing: reported by kind, and a kind that does not fail closed goes on", async () => {
    const { posted, reports } = await answer("tool-after", {});
    const why = "no onDecision.tool-after handler on the main thread";
    expect(posted).toEqual([{ t: "decision", requestId: "request-1", failed: why }]);
    expect(reports).toEqual([
      {
        code: "DECISION_HANDLER_FAILED",
        message: `onDecision failed on the tool-after question (the run went on): ${why}`,
        requestId: "request-1",
      },
    ]);
  });

  it("gives an answer the port refuses: reported once, as the handler's failure", async () => {
    const { posted, reports } = await answer(
      "stop",
      { stop: () => ({}) },
      {},
      (message) => message.t !== "decision" || message.failed !== undefined,
    );
    const why = "its answer could not be posted (is it plain data?)";
    expect(posted).toEqual([
      { t: "decision", requestId: "request-1", answer: {} },
      { t: "decision", requestId: "request-1", failed: why },
    ]);
    expect(reports).toEqual([
      {
        code: "DECISION_HANDLER_FAILED",
        message: `onDecision failed on the stop question (the run went on): ${why}`,
        requestId: "request-1",
      },
    ]);
  });

  it("over a real port, an approval that cannot be cloned denies the call and is reported once", async () => {
    const [workerSide, mainSide] = channel();
    const model = createScriptedModel({ script: [calls(["send", { to: "Ada" }]), says("done")] });
    serveScripted(workerSide, model, { tools: [send] });
    const reports: BridgeReport[] = [];
    const session = okValue(
      await connectSession(mainSide, {
        onReport: (report) => reports.push(report),
        onDecision: { approval: () => ({ approved: true, args: { to: (() => "Ada") as never } }) },
      }),
    );
    const result = okValue(await session.chat("mail Ada"));
    expect(result.toolCalls[0]?.result.isError).toBe(true);
    expect(reports.map((report) => [report.code, report.message])).toEqual([
      [
        "DECISION_HANDLER_FAILED",
        "onDecision failed on the approval question (the call was denied): its answer could not be posted (is it plain data?)",
      ],
    ]);
    await session.close();
  });
});
