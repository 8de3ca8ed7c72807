/**
 * Questions (issue 40): the model asks the person structured questions through the opt-in ask tool.
 * In the style of approvals.test.ts, every answer here goes through export → JSON → restore into a
 * new session object first, as it would on another machine.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { questionDigest } from "../../src/agent/question-digest.ts";
import {
  type AgentEvent,
  type AgentSession,
  askUserTool,
  createAgentSession,
  defineTool,
  type PendingQuestion,
  parseSessionState,
  type QuestionReply,
  runAgent,
  type SessionOptions,
  type SessionState,
  type StoredQuestion,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, expectConsistent, says } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

const SECRET = "a-server-side-secret-of-some-length";

/** What the model asks: a single-choice and a multi-choice question. */
const ASKED = {
  questions: [
    {
      question: "Which database should the app use?",
      header: "Database",
      options: [
        { label: "PostgreSQL", description: "Relational, the default" },
        { label: "SQLite", description: "One file, no server" },
      ],
      multiSelect: false,
    },
    {
      question: "Which features do you want?",
      header: "Features",
      options: [{ label: "Auth" }, { label: "Search" }, { label: "Billing" }],
      multiSelect: true,
    },
  ],
};

function lookupTool() {
  const ran: unknown[] = [];
  const tool = defineTool({
    name: "lookup",
    description: "Looks something up",
    input: z.object({ q: z.string() }),
    execute: (args) => {
      ran.push(args);
      return `found ${args.q}`;
    },
  });
  return { tool, ran };
}

function sendTool() {
  const ran: unknown[] = [];
  const tool = defineTool({
    name: "send",
    description: "Sends a message",
    input: z.object({ to: z.string() }),
    needsApproval: true,
    execute: (args) => {
      ran.push(args);
      return `sent to ${args.to}`;
    },
  });
  return { tool, ran };
}

async function start(script: ScriptedTurn[], extra: Partial<SessionOptions> = {}) {
  const model = createScriptedModel({ script });
  const options: SessionOptions = {
    model: "anthropic/claude-sonnet-5-5",
    apiKey: "k",
    fetch: model.fetch,
    retry: { maxRetries: 0 },
    tools: [askUserTool()],
    ...extra,
  };
  const session = okValue(await createAgentSession(options));
  return { model, options, session };
}

/** The session as another machine would get it: exported, through JSON, restored into a new object. */
async function moved(session: AgentSession, options: SessionOptions): Promise<AgentSession> {
  const json = JSON.stringify(session.export());
  return okValue(await createAgentSession({ ...options, restore: JSON.parse(json) }));
}

/** The tool_result blocks of the last request the model received, in order. */
function lastToolResults(model: ReturnType<typeof createScriptedModel>): Array<Record<string, unknown>> {
  const body = model.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
  return body.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as Array<Record<string, unknown>>).filter((block) => block.type === "tool_result")
      : [],
  );
}

/** The text of a tool_result block as the Anthropic request carries it. */
function textOf(block: Record<string, unknown> | undefined): string {
  const content = block?.content;
  if (typeof content === "string") return content;
  return (content as Array<{ text?: string }>).map((part) => part.text ?? "").join("");
}

/** The first pending question of `state` (the test fails when there is none). */
function firstQuestion(state: SessionState): StoredQuestion {
  const question = state.pendingQuestions?.[0];
  if (question === undefined) throw new Error("no pending question");
  return question;
}

/** A session paused on the two questions; `state` is its export through JSON. */
async function pausedOnQuestions(extra: Partial<SessionOptions> = {}) {
  const started = await start([calls(["ask_user", ASKED]), says("set up")], extra);
  const paused = okValue(await started.session.chat("set up my app"));
  const state = JSON.parse(JSON.stringify(started.session.export())) as SessionState;
  const id = paused.pendingQuestions?.[0]?.toolCallId as string;
  return { ...started, paused, state, id };
}

describe("the model asks, the run pauses", () => {
  it("ends ok with stopReason question; the questions are in the result, the events and the state", async () => {
    const lookup = lookupTool();
    const events: AgentEvent[] = [];
    const { model, options, session } = await start(
      [calls(["lookup", { q: "stack" }], ["ask_user", ASKED]), says("done")],
      { tools: [askUserTool(), lookup.tool] },
    );
    const run = session.stream("set up my app");
    for await (const event of run) events.push(event);
    const paused = okValue(await run.result);
    expect(paused.stopReason).toBe("question");
    expect(paused.pendingApprovals).toEqual([]);
    const expected: PendingQuestion = {
      toolCallId: expect.any(String),
      toolName: "ask_user",
      questions: ASKED.questions,
      requestedAt: expect.any(Number),
    };
    expect(paused.pendingQuestions).toEqual([expected]);
    expect(events.filter((event) => event.type === "question-requested")).toEqual([
      { type: "question-requested", question: expected },
    ]);
    expect(events.some((event) => event.type === "tool-start" && event.toolCall.name === "ask_user")).toBe(
      false,
    );
    expect(lookup.ran).toEqual([{ q: "stack" }]);
    expect(model.requests).toHaveLength(1);
    expect(session.snapshot()).toMatchObject({ status: "idle", pendingApprovals: 0, pendingQuestions: 1 });
    const state = session.export();
    expect(state.pendingQuestions).toHaveLength(1);
    expect(state.pendingQuestions?.[0]?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(state.pendingResults.map((result) => result.output)).toEqual(["found stack"]);
    // Nothing is asked again or sent on restore, and the restored session exports the same state.
    const restored = await moved(session, options);
    expect(model.requests).toHaveLength(1);
    expect(restored.export()).toEqual(JSON.parse(JSON.stringify(state)));
  });

  it("a hook that asks for every call does not gate the ask tool: the person is asked the questions once", async () => {
    const { model, session } = await start([calls(["ask_user", ASKED]), says("done")], {
      hooks: { preToolUse: () => ({ decision: "ask", reason: "every call is checked" }) },
    });
    const paused = okValue(await session.chat("set up my app"));
    expect(paused.stopReason).toBe("question");
    expect(paused.pendingApprovals).toEqual([]);
    expect(paused.pendingQuestions).toHaveLength(1);
    const id = paused.pendingQuestions?.[0]?.toolCallId as string;
    const done = okValue(
      await session.resume([{ toolCallId: id, answers: [{ selected: ["SQLite"] }, { selected: ["Auth"] }] }]),
    );
    expect(done.stopReason).toBe("complete");
    expect(textOf(lastToolResults(model)[0])).toContain("SQLite");
  });

  it("answered on another machine, the model reads the answers and the run goes on", async () => {
    const { model, options, session, id } = await pausedOnQuestions();
    const elsewhere = await moved(session, options);
    const resumed = okValue(
      await elsewhere.resume([
        {
          toolCallId: id,
          answers: [{ selected: ["SQLite"] }, { selected: ["Auth", "Search"], text: "and dark mode" }],
        },
      ]),
    );
    expect([resumed.stopReason, resumed.text]).toEqual(["complete", "set up"]);
    expect(resumed.pendingQuestions).toBeUndefined();
    const [result] = lastToolResults(model);
    expect(result?.is_error).toBeFalsy();
    expect(textOf(result)).toBe(
      [
        "The user answered your questions:",
        '- "Which database should the app use?": SQLite',
        '- "Which features do you want?": Auth, Search and wrote "and dark mode"',
      ].join("\n"),
    );
    expect(resumed.toolCalls.map((record) => [record.toolCall.name, record.result.isError])).toEqual([
      ["ask_user", false],
    ]);
    const state = elsewhere.export();
    expect(state.pendingQuestions).toBeUndefined();
    expectConsistent(state.messages);
  });

  it("unanswered is an outcome the model reads as such, never a made-up answer", async () => {
    const { model, options, session, id } = await pausedOnQuestions();
    const elsewhere = await moved(session, options);
    const resumed = okValue(
      await elsewhere.resume([{ toolCallId: id, unanswered: true, reason: "dismissed" }]),
    );
    expect(resumed.stopReason).toBe("complete");
    const [result] = lastToolResults(model);
    expect(result?.is_error).toBe(true);
    expect(textOf(result)).toBe(
      "The user did not answer your questions (dismissed). Do not assume an answer: go on without one, or ask again later.",
    );
  });

  it("malformed questions get an error result the model reads, not a pause", async () => {
    const tooMany = {
      questions: [1, 2, 3, 4, 5].map((n) => ({ ...ASKED.questions[0], question: `Q${n}?` })),
    };
    const oneOption = {
      questions: [{ question: "Sure?", header: "Sure", options: [{ label: "Yes" }], multiSelect: false }],
    };
    const extra = { questions: ASKED.questions, urgent: true };
    const repeated = {
      questions: [{ ...ASKED.questions[0], options: [{ label: "A" }, { label: "A" }] }],
    };
    const { model, session } = await start([
      calls(["ask_user", tooMany], ["ask_user", oneOption], ["ask_user", extra], ["ask_user", repeated]),
      says("I will not ask"),
    ]);
    const result = okValue(await session.chat("go"));
    expect(result.stopReason).toBe("complete");
    expect(result.pendingQuestions).toBeUndefined();
    const messages = lastToolResults(model).map((block) => [block.is_error, textOf(block)]);
    expect(messages).toEqual([
      [true, expect.stringContaining("questions must be an array of 1 to 4 questions")],
      [true, expect.stringContaining("questions.0.options must be an array of 2 to 4 options")],
      [true, expect.stringContaining("urgent is not a known field")],
      [true, expect.stringContaining('questions.0.options.1.label repeats the label "A"')],
    ]);
  });

  it("runAgent pauses the same way (a session resumes it)", async () => {
    const model = createScriptedModel({ script: [calls(["ask_user", ASKED])] });
    const result = okValue(
      await runAgent({
        model: "anthropic/claude-sonnet-5-5",
        apiKey: "k",
        fetch: model.fetch,
        prompt: "go",
        tools: [askUserTool()],
      }),
    );
    expect(result.stopReason).toBe("question");
    expect(result.pendingQuestions?.[0]?.questions).toEqual(ASKED.questions);
  });

  it("chat while a question waits is APPROVAL_PENDING naming it; nothing is sent", async () => {
    const { model, session, id } = await pausedOnQuestions();
    const refused = await session.chat("never mind");
    expect(!refused.ok && refused.error).toMatchObject({
      code: "APPROVAL_PENDING",
      details: { toolCallIds: [id] },
      message: expect.stringContaining("wait for the user's answers"),
    });
    expect(model.requests).toHaveLength(1);
  });
});

describe("answers that do not fit are refused, and the pause stays", () => {
  it.each([
    [
      "an option the question does not have",
      [{ selected: ["MySQL"] }, { text: "none" }],
      "decisions.0.answers.0.selected.0",
    ],
    [
      "two picks for a single-choice question",
      [{ selected: ["SQLite", "PostgreSQL"] }, { text: "x" }],
      "decisions.0.answers.0.selected",
    ],
    ["too few answers", [{ selected: ["SQLite"] }], "decisions.0.answers"],
    [
      "an answer with nothing in it",
      [{ selected: ["SQLite"] }, { selected: [], text: "  " }],
      "decisions.0.answers.1",
    ],
    [
      "the same option twice",
      [{ selected: ["SQLite"] }, { selected: ["Auth", "Auth"] }],
      "decisions.0.answers.1.selected.1",
    ],
    [
      "an unknown answer field",
      [{ selected: ["SQLite"] }, { picked: ["Auth"] }],
      "decisions.0.answers.1.picked",
    ],
  ])("%s is APPROVAL_INVALID at its path", async (_, answers, path) => {
    const { model, options, session, id } = await pausedOnQuestions();
    const elsewhere = await moved(session, options);
    const refused = await elsewhere.resume([{ toolCallId: id, answers } as QuestionReply]);
    expect(failure(refused)).toMatchObject({
      _tag: "ConfigError",
      code: "APPROVAL_INVALID",
      path,
      details: { toolCallId: id, kind: "question" },
    });
    expect(model.requests).toHaveLength(1);
    expect(elsewhere.export().pendingQuestions).toHaveLength(1);
  });

  it("an unanswered reply's reason past the bound of an answer's text is refused (it would join the conversation)", async () => {
    const { model, session, id } = await pausedOnQuestions();
    const long = "x".repeat(2_001);
    expect(failure(await session.resume([{ toolCallId: id, unanswered: true, reason: long }]))).toMatchObject(
      {
        code: "APPROVAL_INVALID",
        path: "decisions.0.reason",
      },
    );
    expect(model.requests).toHaveLength(1);
    const done = okValue(
      await session.resume([{ toolCallId: id, unanswered: true, reason: "x".repeat(2_000) }]),
    );
    expect(done.stopReason).toBe("complete");
  });

  it("a decision for a question, an answer for nothing, both answers and unanswered, or a replay are refused", async () => {
    const { model, options, session, id } = await pausedOnQuestions();
    const elsewhere = await moved(session, options);
    const cases: Array<[unknown[], Record<string, unknown>]> = [
      [
        [{ toolCallId: id, approved: true }],
        { path: "decisions.0", message: expect.stringContaining("asks the user questions") },
      ],
      [[{ toolCallId: "nope", unanswered: true }], { path: "decisions.0.toolCallId" }],
      [[{ toolCallId: id, unanswered: true, answers: [] }], { path: "decisions.0.unanswered" }],
      [[{ toolCallId: id, unanswered: false }], { path: "decisions.0.unanswered" }],
      [
        [{ toolCallId: id, reason: "x", answers: [{ selected: ["SQLite"] }, { text: "t" }] }],
        { path: "decisions.0.reason" },
      ],
      [
        [
          { toolCallId: id, unanswered: true },
          { toolCallId: id, unanswered: true },
        ],
        { path: "decisions.1.toolCallId", message: expect.stringContaining("answered twice") },
      ],
    ];
    for (const [decisions, expected] of cases) {
      const refused = await elsewhere.resume(decisions as QuestionReply[]);
      expect(failure(refused)).toMatchObject({ code: "APPROVAL_INVALID", ...expected });
    }
    expect(model.requests).toHaveLength(1);
    // Used once, an answer replayed against the same object is refused as a replay.
    okValue(await elsewhere.resume([{ toolCallId: id, unanswered: true }]));
    const replayed = await elsewhere.resume([{ toolCallId: id, unanswered: true }]);
    expect(failure(replayed)).toMatchObject({ code: "APPROVAL_INVALID", details: { replayed: true } });
    expect(model.requests).toHaveLength(2);
  });
});

describe("questions and approvals in the same turn", () => {
  it("pause once with both pending (stopReason approval); each is answered its own way, results in the model's order", async () => {
    const send = sendTool();
    const { model, options, session } = await start(
      [calls(["send", { to: "ada" }], ["ask_user", ASKED]), says("both done")],
      { tools: [askUserTool(), send.tool] },
    );
    const paused = okValue(await session.chat("go"));
    expect(paused.stopReason).toBe("approval");
    const approvalId = paused.pendingApprovals?.[0]?.toolCallId as string;
    const questionId = paused.pendingQuestions?.[0]?.toolCallId as string;
    expect([approvalId, questionId].every((id) => typeof id === "string")).toBe(true);
    // An answer given for the approval is refused with a pointer to the right shape.
    const wrong = await (await moved(session, options)).resume([
      { toolCallId: approvalId, unanswered: true },
    ]);
    expect(failure(wrong)).toMatchObject({
      code: "APPROVAL_INVALID",
      message: expect.stringContaining("waits for approval"),
    });
    // Answering only the question pauses again, now on the approval alone.
    const first = await moved(session, options);
    const again = okValue(
      await first.resume([
        { toolCallId: questionId, answers: [{ selected: ["PostgreSQL"] }, { selected: ["Auth"] }] },
      ]),
    );
    expect(again.stopReason).toBe("approval");
    expect(again.pendingQuestions).toBeUndefined();
    expect(send.ran).toEqual([]);
    const second = await moved(first, options);
    const done = okValue(await second.resume([{ toolCallId: approvalId, approved: true }]));
    expect([done.stopReason, done.text]).toEqual(["complete", "both done"]);
    expect(send.ran).toEqual([{ to: "ada" }]);
    expect(lastToolResults(model).map((block) => textOf(block).split("\n")[0])).toEqual([
      "sent to ada",
      "The user answered your questions:",
    ]);
    expectConsistent(second.export().messages);
  });

  it("one resume may decide the approval and answer the question together", async () => {
    const send = sendTool();
    const { options, session } = await start(
      [calls(["ask_user", ASKED], ["send", { to: "bob" }]), says("ok")],
      { tools: [askUserTool(), send.tool] },
    );
    const paused = okValue(await session.chat("go"));
    const elsewhere = await moved(session, options);
    const done = okValue(
      await elsewhere.resume([
        {
          toolCallId: paused.pendingApprovals?.[0]?.toolCallId as string,
          approved: false,
          reason: "not bob",
        },
        { toolCallId: paused.pendingQuestions?.[0]?.toolCallId as string, unanswered: true },
      ]),
    );
    expect(done.stopReason).toBe("complete");
    expect(send.ran).toEqual([]);
    expect(done.toolCalls.map((record) => [record.toolCall.name, record.result.isError])).toEqual([
      ["ask_user", true],
      ["send", true],
    ]);
  });

  it("with sequential tools a question holds the calls after it; answered, they run in order", async () => {
    const lookup = lookupTool();
    const { model, options, session } = await start(
      [calls(["lookup", { q: "a" }], ["ask_user", ASKED], ["lookup", { q: "b" }]), says("in order")],
      { tools: [askUserTool(), lookup.tool], toolExecution: "sequential" },
    );
    const paused = okValue(await session.chat("go"));
    expect(paused.stopReason).toBe("question");
    expect(lookup.ran).toEqual([{ q: "a" }]);
    const state = session.export();
    const ids = (state.messages.at(-1)?.content ?? []).flatMap((part) =>
      part.type === "tool_call" ? [part.id] : [],
    );
    expect(state.pendingQuestions?.[0]?.holds).toEqual([ids[2]]);
    const elsewhere = await moved(session, options);
    const done = okValue(
      await elsewhere.resume([
        { toolCallId: ids[1] as string, answers: [{ text: "you pick" }, { selected: ["Billing"] }] },
      ]),
    );
    expect(done.text).toBe("in order");
    expect(lookup.ran).toEqual([{ q: "a" }, { q: "b" }]);
    expect(lastToolResults(model).map((block) => textOf(block).split("\n")[0])).toEqual([
      "found a",
      "The user answered your questions:",
      "found b",
    ]);
  });
});

describe("safe by construction", () => {
  it("questions edited after the pause are refused on restore (APPROVAL_TAMPERED)", async () => {
    const { options, state } = await pausedOnQuestions();
    const edited = structuredClone(state);
    firstQuestion(edited).questions[0]!.options[0]!.label = "Oracle";
    expect(failure(await createAgentSession({ ...options, restore: edited }))).toMatchObject({
      _tag: "ConfigError",
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingQuestions.0",
    });
  });

  it("a question sealed as if it were an approval is refused (the digests are kept apart)", async () => {
    const { options, state } = await pausedOnQuestions();
    const question = firstQuestion(state);
    const posing = structuredClone(state);
    delete posing.pendingQuestions;
    posing.pendingApprovals = [
      {
        toolCallId: question.toolCallId,
        toolName: question.toolName,
        args: { questions: question.questions } as never,
        requestedAt: question.requestedAt,
        digest: question.digest,
      },
    ];
    expect(failure(await createAgentSession({ ...options, restore: posing }))).toMatchObject({
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingApprovals.0",
    });
  });

  it("a question that breaks the ask tool's rules is refused even with a recomputed digest", async () => {
    const { options, state } = await pausedOnQuestions();
    const crafted = structuredClone(state);
    const question = firstQuestion(crafted);
    question.questions[0]!.options = [{ label: "Only one" }];
    question.digest = await questionDigest(crafted.sessionId, question);
    expect(failure(await createAgentSession({ ...options, restore: crafted }))).toMatchObject({
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingQuestions.0.questions.0.options",
    });
  });

  it("with approvalSecret, questions are signed; unsigned, forged or secret-less restores are refused", async () => {
    const { options, state, id, model } = await pausedOnQuestions({ approvalSecret: SECRET });
    const question = firstQuestion(state);
    expect(question.signature).toMatch(/^[0-9a-f]{64}$/);
    const unsigned = structuredClone(state);
    delete (firstQuestion(unsigned) as { signature?: string }).signature;
    expect(failure(await createAgentSession({ ...options, restore: unsigned }))).toMatchObject({
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingQuestions.0",
    });
    // A forger who edits the questions and recomputes the (public) digest still lacks the secret.
    const forged = structuredClone(state);
    const forgedQuestion = firstQuestion(forged);
    forgedQuestion.questions[0]!.question = "May I delete the database?";
    forgedQuestion.digest = await questionDigest(forged.sessionId, forgedQuestion);
    expect(failure(await createAgentSession({ ...options, restore: forged }))).toMatchObject({
      code: "APPROVAL_TAMPERED",
      message: expect.stringContaining("signature is not valid"),
    });
    const { approvalSecret: _, ...forgetful } = options;
    expect(failure(await createAgentSession({ ...forgetful, restore: state }))).toMatchObject({
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingQuestions.0.signature",
      details: { reason: "secret-missing" },
    });
    // With the secret, the state restores and is answered.
    const restored = okValue(await createAgentSession({ ...options, restore: state }));
    const done = okValue(await restored.resume([{ toolCallId: id, unanswered: true }]));
    expect(done.stopReason).toBe("complete");
    expect(model.requests).toHaveLength(2);
  });

  it("a paused state restored under a new session id is verified under its own, then bound to the new one", async () => {
    const { options, state, id } = await pausedOnQuestions({ approvalSecret: SECRET });
    const copy = okValue(await createAgentSession({ ...options, sessionId: "the-copy", restore: state }));
    const exported = copy.export();
    expect(exported.sessionId).toBe("the-copy");
    expect(exported.pendingQuestions?.[0]?.digest).not.toBe(state.pendingQuestions?.[0]?.digest);
    const again = okValue(
      await createAgentSession({ ...options, restore: JSON.parse(JSON.stringify(exported)) }),
    );
    const done = okValue(
      await again.resume([{ toolCallId: id, answers: [{ selected: ["SQLite"] }, { selected: ["Search"] }] }]),
    );
    expect(done.stopReason).toBe("complete");
  });

  it.each([
    [
      "a question about a call the last message never made",
      (state: SessionState) => {
        (state.pendingQuestions?.[0] as { toolCallId: string }).toolCallId = "made-up";
      },
      "pendingQuestions.0",
    ],
    [
      "a question under another tool's name",
      (state: SessionState) => {
        (state.pendingQuestions?.[0] as { toolName: string }).toolName = "lookup";
      },
      "pendingQuestions.0",
    ],
    [
      "a question the state also holds as an approval",
      (state: SessionState) => {
        const question = firstQuestion(state);
        state.pendingApprovals = [{ ...question, args: {} }];
      },
      "pendingQuestions.0",
    ],
    [
      "a question whose options are not objects",
      (state: SessionState) => {
        (state.pendingQuestions?.[0]?.questions[0] as { options: unknown }).options = ["a", "b"];
      },
      "pendingQuestions.0.questions.0.options.0",
    ],
    [
      "no question waiting, with the question's call left without a result",
      (state: SessionState) => {
        delete state.pendingQuestions;
      },
      "messages.1",
    ],
  ])("a state with %s is CONFIG_INVALID", async (_, tamper, path) => {
    const { state } = await pausedOnQuestions();
    tamper(state);
    expect(() => parseSessionState(state)).toThrow(expect.objectContaining({ code: "CONFIG_INVALID", path }));
  });

  it("a state without pendingQuestions (an older export) restores unchanged", async () => {
    const { options, session } = await start([says("hi")]);
    await session.chat("hi");
    const state = JSON.parse(JSON.stringify(session.export())) as SessionState;
    expect("pendingQuestions" in state).toBe(false);
    const restored = okValue(await createAgentSession({ ...options, restore: state }));
    expect(restored.export()).toEqual(state);
  });
});

describe("askUserTool", () => {
  it("takes another name; a bad name is a ConfigError", async () => {
    const tool = askUserTool({ name: "clarify" });
    expect(tool.name).toBe("clarify");
    expect(() => askUserTool({ name: "no spaces" as "x" })).toThrow(
      expect.objectContaining({ _tag: "ConfigError", code: "CONFIG_INVALID", path: "name" }),
    );
    const { session } = await start([calls(["clarify", ASKED])], { tools: [tool] });
    const paused = okValue(await session.chat("go"));
    expect(paused.pendingQuestions?.[0]?.toolName).toBe("clarify");
  });

  it("types resume's answers", () => {
    expectTypeOf<AgentSession["resume"]>()
      .parameter(0)
      .toEqualTypeOf<Array<Parameters<AgentSession["resume"]>[0][number]>>();
    expectTypeOf<{ toolCallId: string; answers: [{ selected: ["a"] }] }>().toMatchTypeOf<QuestionReply>();
    expectTypeOf<{ toolCallId: string; unanswered: true }>().toMatchTypeOf<QuestionReply>();
    expectTypeOf<{ toolCallId: string; unanswered: false }>().not.toMatchTypeOf<QuestionReply>();
  });
});
