/**
 * What the session list shows of a session (worker/session-summary.ts): the title taken from the first
 * prompt (its text parts only, whitespace collapsed, cut at 80 characters), kept once set; the cost
 * rounded to a millionth of a dollar; and `paused` for an idle session with approvals or questions
 * waiting.
 */
import { describe, expect, it } from "vitest";
import type { Message, StoredApproval, StoredQuestion } from "wisp-agent";
import { type SessionSummary, summaryOf } from "../session-summary.ts";

type Tail = Parameters<typeof summaryOf>[1];
/** The fields of a tail that a summary reads. */
type Read = Pick<
  Tail,
  | "messagesFrom"
  | "messages"
  | "messageCount"
  | "pendingApprovals"
  | "pendingQuestions"
  | "usage"
  | "createdAt"
  | "updatedAt"
>;

function tail(over: Partial<Read> = {}): Tail {
  const read: Read = {
    messagesFrom: 0,
    messages: [],
    messageCount: 0,
    pendingApprovals: [],
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    createdAt: 1,
    updatedAt: 2,
    ...over,
  };
  return read as Tail;
}

function user(...content: Extract<Message, { role: "user" }>["content"]): Message {
  return { id: "m", role: "user", content, timestamp: 1 };
}

const text = (value: string) => ({ type: "text" as const, text: value });

function titleOf(message: Message, previous?: SessionSummary): string {
  return summaryOf("s", tail({ messages: [message], messageCount: 1 }), previous, "idle").title;
}

describe("the title", () => {
  it("joins the first prompt's text parts with a space and leaves its images out", () => {
    expect(
      titleOf(user(text("look at"), { type: "image", url: "https://example.com/a.png" }, text("this"))),
    ).toBe("look at this");
    expect(titleOf(user(text("one"), text("two")))).toBe("one two");
  });

  it("collapses whitespace and trims the ends", () => {
    expect(titleOf(user(text("  \n hello \t  world \n ")))).toBe("hello world");
  });

  it("keeps a title of exactly 80 characters whole and cuts a longer one to 79 and an ellipsis", () => {
    const exact = "x".repeat(80);
    expect(titleOf(user(text(exact)))).toBe(exact);
    expect(titleOf(user(text(`${exact}y`)))).toBe(`${"x".repeat(79)}…`);
  });

  it("reads only the first 320 characters of the prompt, before collapsing its whitespace", () => {
    expect(titleOf(user(text(`start${" ".repeat(400)}end`)))).toBe("start");
  });

  it("is empty for a tail that does not start at the first message, without a previous title", () => {
    const later = tail({ messagesFrom: 2, messages: [user(text("a later prompt"))], messageCount: 3 });
    expect(summaryOf("s", later, undefined, "idle").title).toBe("");
    const previous = summaryOf(
      "s",
      tail({ messages: [user(text("   "))], messageCount: 1 }),
      undefined,
      "idle",
    );
    expect(previous.title).toBe("");
    expect(summaryOf("s", later, previous, "idle").title).toBe("");
  });

  it("stays once set", () => {
    const first = summaryOf(
      "s",
      tail({ messages: [user(text("first"))], messageCount: 1 }),
      undefined,
      "idle",
    );
    expect(titleOf(user(text("second")), first)).toBe("first");
  });
});

describe("the usage", () => {
  it("shows the cost rounded to a millionth of a dollar, and the token counts", () => {
    const usage = { input: 10, output: 20, cacheRead: 3, cacheWrite: 4, reasoning: 5, costUsd: 0.0123456789 };
    expect(summaryOf("s", tail({ usage }), undefined, "idle").usage).toEqual({
      input: 10,
      output: 20,
      costUsd: 0.012346,
    });
    const whole = { ...usage, costUsd: 2.5 };
    expect(summaryOf("s", tail({ usage: whole }), undefined, "idle").usage.costUsd).toBe(2.5);
  });
});

describe("the status", () => {
  const approval = {} as StoredApproval;
  const question = {} as StoredQuestion;

  it("is paused for an idle session with an approval or a question waiting", () => {
    expect(summaryOf("s", tail({ pendingApprovals: [approval] }), undefined, "idle").status).toBe("paused");
    expect(summaryOf("s", tail({ pendingQuestions: [question] }), undefined, "idle").status).toBe("paused");
    expect(
      summaryOf("s", tail({ pendingApprovals: [approval], pendingQuestions: [question] }), undefined, "idle")
        .status,
    ).toBe("paused");
  });

  it("is idle with nothing waiting, and a running or closed session keeps its status", () => {
    expect(summaryOf("s", tail({ pendingQuestions: [] }), undefined, "idle").status).toBe("idle");
    expect(summaryOf("s", tail({ pendingApprovals: [approval] }), undefined, "running").status).toBe(
      "running",
    );
    expect(summaryOf("s", tail({ pendingQuestions: [question] }), undefined, "closed").status).toBe("closed");
  });
});
