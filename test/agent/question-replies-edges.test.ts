/**
 * Answering the ask tool's questions on resume, as the model and the caller see it: the exact text of
 * answers (written text trimmed, text alone, blank text after a pick) and of an unanswered reply
 * (no reason, a blank reason), the record of the answered call when it was not the turn's first call,
 * and the seal of a pending question (question-digest.ts): its digest and signature are fixed
 * functions of what was asked, and an unsigned question is refused where signed pauses are required.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { canonicalJson } from "../../src/agent/approval-digest.ts";
import { sealQuestion } from "../../src/agent/question-digest.ts";
import {
  askUserTool,
  createAgentSession,
  defineTool,
  type QuestionReply,
  type SessionOptions,
  type SessionState,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, says, TWO_QUESTIONS } from "../support/agent.ts";
import { hmacHex, sha256Hex } from "../support/digests.ts";
import { failure, okValue } from "../support/results.ts";

const ASKED = { questions: TWO_QUESTIONS };

const lookup = defineTool({
  name: "lookup",
  description: "Looks something up",
  input: z.object({ q: z.string() }),
  execute: (args) => `found ${args.q}`,
});

/** A session paused on ASKED (after `first`, other calls of the same turn), with its options and model. */
async function paused(
  first: Array<[string, Record<string, unknown>]> = [],
  extra: Partial<SessionOptions> = {},
) {
  const script: ScriptedTurn[] = [calls(...first, ["ask_user", ASKED]), says("done")];
  const model = createScriptedModel({ script });
  const options: SessionOptions = {
    model: "anthropic/claude-sonnet-5-5",
    apiKey: "k",
    fetch: model.fetch,
    retry: { maxRetries: 0 },
    tools: [askUserTool(), lookup],
    ...extra,
  };
  const session = okValue(await createAgentSession(options));
  const result = okValue(await session.chat("set up my app"));
  expect(result.stopReason).toBe("question");
  const id = result.pendingQuestions?.[0]?.toolCallId as string;
  return { model, options, session, id };
}

/** The text and error flag of the last tool_result block the model received. */
function lastToolResult(model: ReturnType<typeof createScriptedModel>): { text: string; isError: boolean } {
  const body = model.requests.at(-1)?.body as { messages: Array<{ content: unknown }> };
  const blocks = body.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as Array<Record<string, unknown>>).filter((block) => block.type === "tool_result")
      : [],
  );
  const block = blocks.at(-1);
  const content = block?.content;
  const text =
    typeof content === "string"
      ? content
      : (content as Array<{ text?: string }>).map((part) => part.text ?? "").join("");
  return { text, isError: block?.is_error === true };
}

/** What the model reads after `reply` (minus its toolCallId) answers the paused questions. */
async function modelReads(reply: Record<string, unknown>) {
  const { model, session, id } = await paused();
  okValue(await session.resume([{ toolCallId: id, ...reply } as QuestionReply]));
  return lastToolResult(model);
}

describe("the text the model reads for answers", () => {
  it("written text is trimmed; text alone reads 'wrote'; blank text after a pick is left out", async () => {
    expect(
      await modelReads({ answers: [{ text: "  Something managed  " }, { selected: ["Auth"], text: "   " }] }),
    ).toEqual({
      text: [
        "The user answered your questions:",
        '- "Which database?": wrote "Something managed"',
        '- "Which features?": Auth',
      ].join("\n"),
      isError: false,
    });
  });

  it("an unanswered reply without a reason, or with a blank one, names no reason", async () => {
    const plain =
      "The user did not answer your questions. Do not assume an answer: go on without one, or ask again later.";
    expect(await modelReads({ unanswered: true })).toEqual({ text: plain, isError: true });
    expect(await modelReads({ unanswered: true, reason: "   " })).toEqual({ text: plain, isError: true });
  });
});

describe("the answered call", () => {
  it("is the ask tool's call even when another call of the turn came first", async () => {
    const { session, id } = await paused([["lookup", { q: "stack" }]]);
    const events: Array<{ type: string; toolCall?: { id: string; name: string } }> = [];
    const run = session.resumeStream([
      { toolCallId: id, answers: [{ selected: ["SQLite"] }, { text: "none" }] },
    ]);
    for await (const event of run) events.push(event as (typeof events)[number]);
    const done = okValue(await run.result);
    expect(done.toolCalls.map((record) => [record.toolCall.id, record.toolCall.name])).toEqual([
      [id, "ask_user"],
    ]);
    expect(
      events.filter((event) => event.type === "tool-result").map((event) => event.toolCall?.name),
    ).toEqual(["ask_user"]);
  });
});

describe("the seal of a pending question", () => {
  it("its digest and signature are tagged 'question', so states sealed by one version restore on the next", async () => {
    const question = {
      toolCallId: "call-1",
      toolName: "ask_user",
      questions: ASKED.questions,
      requestedAt: 1_700_000_000_000,
    };
    const sealed = await sealQuestion("session-1", question, "a-secret");
    const digest = await sha256Hex(
      canonicalJson(["question", "session-1", "call-1", "ask_user", ASKED.questions]),
    );
    expect(sealed.digest).toBe(digest);
    expect(sealed.signature).toBe(await hmacHex("a-secret", `["question","${digest}",1700000000000]`));
  });

  it("an unsigned question restored where signed pauses are required is refused, saying why", async () => {
    const { options, session, id } = await paused();
    const state = JSON.parse(JSON.stringify(session.export())) as SessionState;
    const refused = failure(
      await createAgentSession({ ...options, approvalSecret: "a-server-side-secret", restore: state }),
    );
    expect(refused).toMatchObject({
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingQuestions.0",
      message: `Pending question of tool call ${id} is refused: it is not signed, and this session requires signed pauses`,
    });
  });
});
