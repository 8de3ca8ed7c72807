/**
 * checkReplies (src/session/check-replies.ts) called directly with a crafted paused turn: the shape
 * checks of one reply and their messages and details, a reply to an approval, to a used or unknown
 * call, answers that do not fit their questions, a decision that names a question, and two replies
 * to two questions in one resume.
 */
import { describe, expect, it } from "vitest";
import type { Paused, StoredApproval } from "../../src/agent/approvals.ts";
import { MAX_QUESTION_TEXT } from "../../src/agent/question-checks.ts";
import type { StoredQuestion } from "../../src/agent/questions.ts";
import { ConfigError, type Message } from "../../src/index.ts";
import { checkReplies } from "../../src/session/check-replies.ts";

function question(toolCallId: string): StoredQuestion {
  return {
    toolCallId,
    toolName: "ask_user",
    questions: [
      {
        question: "Which database?",
        header: "Database",
        options: [{ label: "Postgres" }, { label: "SQLite" }],
        multiSelect: false,
      },
    ],
    digest: "d",
  } as StoredQuestion;
}

function approval(toolCallId: string): StoredApproval {
  return { toolCallId, toolName: "send", args: {}, digest: "d" } as StoredApproval;
}

function paused(questions: StoredQuestion[], approvals: StoredApproval[] = []): Paused {
  return { approvals, questions, results: [] } as Paused;
}

function refusal(
  input: unknown[],
  turn: Paused = paused([question("q")]),
  messages: Message[] = [],
): ConfigError {
  const result = checkReplies(input, turn, messages);
  expect(result).toBeInstanceOf(ConfigError);
  return result as ConfigError;
}

describe("the shape of a reply", () => {
  it("names an unknown field as an answer field", () => {
    const error = refusal([{ toolCallId: "q", answers: [{ text: "x" }], because: "x" }]);
    expect(error).toMatchObject({ code: "APPROVAL_INVALID", path: "decisions.0.because" });
    expect(error.message).toMatch(/^Unknown answer field "because"/);
  });

  it("refuses answers together with unanswered", () => {
    expect(refusal([{ toolCallId: "q", answers: [{ text: "x" }], unanswered: true }])).toMatchObject({
      code: "APPROVAL_INVALID",
      path: "decisions.0.unanswered",
      message: "decisions.0 gives answers and says it is unanswered",
      details: { toolCallId: "q", kind: "question" },
    });
  });

  it("refuses a reason without unanswered", () => {
    expect(refusal([{ toolCallId: "q", answers: [{ text: "x" }], reason: "busy" }])).toMatchObject({
      path: "decisions.0.reason",
      message: "decisions.0.reason goes with unanswered: true",
      details: { toolCallId: "q", kind: "question" },
    });
  });

  it("bounds the reason of an unanswered reply", () => {
    expect(
      refusal([{ toolCallId: "q", unanswered: true, reason: "x".repeat(MAX_QUESTION_TEXT + 1) }]),
    ).toMatchObject({
      path: "decisions.0.reason",
      message: `decisions.0.reason must be at most ${MAX_QUESTION_TEXT} characters`,
      details: { toolCallId: "q", kind: "question" },
    });
  });

  it("refuses answers that do not fit the questions, with the answer's path", () => {
    expect(refusal([{ toolCallId: "q", answers: [] }])).toMatchObject({
      path: "decisions.0.answers",
      message: "decisions.0.answers must be an array of 1 answer, one per question",
      details: { toolCallId: "q", kind: "question" },
    });
  });
});

describe("a reply to a call that is not a waiting question", () => {
  it("tells a pending approval apart, pointing at its toolCallId", () => {
    expect(
      refusal([{ toolCallId: "a", unanswered: true }], paused([question("q")], [approval("a")])),
    ).toMatchObject({
      path: "decisions.0.toolCallId",
      message: "Tool call a waits for approval, not answers: decide it with { toolCallId, approved }",
      details: { toolCallId: "a", kind: "question" },
    });
  });

  it("is unknown when no approval or question has its id, whatever else waits", () => {
    for (const turn of [paused([question("q")]), paused([question("q")], [approval("a")])]) {
      expect(refusal([{ toolCallId: "x", unanswered: true }], turn)).toMatchObject({
        path: "decisions.0.toolCallId",
        message: "Tool call x is not a question waiting for answers",
        details: { toolCallId: "x", replayed: false, kind: "question" },
      });
    }
  });

  it("is a replay when the conversation already holds its result", () => {
    const messages = [
      {
        role: "tool_result",
        content: [{ type: "tool_result", toolCallId: "x", toolName: "ask_user", output: "Postgres" }],
      } as Message,
    ];
    expect(refusal([{ toolCallId: "x", unanswered: true }], paused([question("q")]), messages)).toMatchObject(
      {
        message: "Tool call x was already answered (an answer is used once)",
        details: { toolCallId: "x", replayed: true },
      },
    );
  });
});

describe("replies and decisions together", () => {
  it("refuses a decision that names a question, naming the call", () => {
    expect(refusal([{ toolCallId: "q", approved: true }])).toMatchObject({
      path: "decisions.0",
      details: { toolCallId: "q", kind: "question" },
    });
  });

  it("lets decisions pass when no question waits", () => {
    expect(checkReplies([{ toolCallId: "a", approved: true }], paused([], [approval("a")]), [])).toEqual([]);
  });

  it("takes one reply for each of two questions, and refuses a second for one", () => {
    const turn = paused([question("q"), question("r")]);
    expect(
      checkReplies(
        [
          { toolCallId: "q", answers: [{ selected: ["SQLite"] }] },
          { toolCallId: "r", unanswered: true },
        ],
        turn,
        [],
      ),
    ).toEqual([
      { toolCallId: "q", answers: [{ selected: ["SQLite"] }] },
      { toolCallId: "r", unanswered: true },
    ]);
    expect(
      refusal(
        [
          { toolCallId: "q", unanswered: true },
          { toolCallId: "q", unanswered: true },
        ],
        turn,
      ),
    ).toMatchObject({
      path: "decisions.1.toolCallId",
      message: "Tool call q is answered twice",
      details: { toolCallId: "q", kind: "question" },
    });
  });
});
