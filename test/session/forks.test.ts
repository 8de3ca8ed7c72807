/**
 * Forks (issue 40): a prompt sent with a `parentId` continues from that message and keeps what came
 * after it as a branch. Every step that matters goes through export → JSON → restore into a new
 * session object first, as it would on another machine.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  type AgentSession,
  createAgentSession,
  createSession,
  defineTool,
  type Message,
  parseSessionState,
  type SessionOptions,
  type SessionState,
} from "../../src/index.ts";
import { createScriptedModel, type RecordedRequest } from "../../src/testing/index.ts";
import { calls, expectConsistent, gate } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

/** The text of a message's first text part. */
function textOf(message: Message | undefined): string {
  const part = message?.content.find((candidate) => candidate.type === "text");
  return part?.type === "text" ? part.text : "";
}

/** A model that answers every prompt with `re: <prompt>`, and remembers what each request sent. */
function echoModel() {
  return createScriptedModel({
    respond: (request: RecordedRequest) => {
      const last = request.messages.findLast((message) => message.role === "user");
      return { content: [{ type: "text", text: `re: ${textOf(last)}` }] };
    },
  });
}

async function start(extra: Partial<SessionOptions> = {}) {
  const model = echoModel();
  const options: SessionOptions = {
    model: "anthropic/claude-sonnet-5-5",
    apiKey: "k",
    fetch: model.fetch,
    retry: { maxRetries: 0 },
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

/** The texts of a conversation, in order. */
function texts(messages: readonly Message[]): string[] {
  return messages.map(textOf);
}

/** The conversation the model was sent in the last request, as texts. */
function lastSent(model: ReturnType<typeof echoModel>): string[] {
  return texts(model.requests.at(-1)?.messages ?? []);
}

/**
 * Waits a few milliseconds, so the next message is written in a later millisecond than the last (the
 * branches are listed by when their own first message was written).
 */
const later = () => new Promise((resolve) => setTimeout(resolve, 3));

/** A session with two exchanges: "one" → "re: one", "two" → "re: two"; then a later millisecond. */
async function twoExchanges(extra: Partial<SessionOptions> = {}) {
  const started = await start(extra);
  okValue(await started.session.chat("one"));
  okValue(await started.session.chat("two"));
  await later();
  return started;
}

describe("forking a conversation", () => {
  it("continues from the parent and keeps what came after it as a branch, across export and restore", async () => {
    const { model, options, session } = await twoExchanges();
    const [, firstAnswer, secondPrompt] = session.export().messages;
    const forked = await session.chat("deux", { parentId: firstAnswer?.id ?? "" });
    expect(okValue(forked).text).toBe("re: deux");
    // The model saw the shared prefix and the new prompt, not the abandoned exchange.
    expect(lastSent(model)).toEqual(["one", "re: one", "deux"]);

    const state = session.export();
    expect(texts(state.messages)).toEqual(["one", "re: one", "deux", "re: deux"]);
    expect(state.branches).toEqual([
      {
        parentId: firstAnswer?.id,
        messages: [expect.objectContaining({ id: secondPrompt?.id }), expect.anything()],
      },
    ]);
    expect(texts(state.branches?.[0]?.messages ?? [])).toEqual(["two", "re: two"]);

    const restored = await moved(session, options);
    expect(restored.export()).toEqual(state);
    okValue(await restored.chat("trois"));
    expect(lastSent(model)).toEqual(["one", "re: one", "deux", "re: deux", "trois"]);
    expectConsistent(restored.export().messages);
  });

  it("lists the branches with their fork point, first prompt, size and which is active", async () => {
    const { session } = await twoExchanges();
    const [, firstAnswer] = session.export().messages;
    okValue(await session.chat("deux", { parentId: firstAnswer?.id ?? "" }));
    const branches = session.branches();
    expect(branches).toEqual([
      expect.objectContaining({ parentId: firstAnswer?.id, title: "two", messageCount: 4, active: false }),
      expect.objectContaining({ parentId: firstAnswer?.id, title: "deux", messageCount: 4, active: true }),
    ]);
    expect(branches[1]?.leafId).toBe(session.snapshot().lastMessageId);
    expect(session.snapshot().branches).toBe(branches.length);
  });

  it("with the last message's id, or none, continues as usual: no branch", async () => {
    const { session } = await twoExchanges();
    okValue(await session.chat("three", { parentId: session.snapshot().lastMessageId ?? "" }));
    expect(session.export().branches).toBeUndefined();
    expect(session.branches()).toEqual([
      expect.objectContaining({ parentId: null, title: "one", messageCount: 6, active: true }),
    ]);
  });

  it("with null starts the conversation anew and keeps the old one whole", async () => {
    const { model, session } = await twoExchanges();
    okValue(await session.chat("fresh", { parentId: null }));
    expect(lastSent(model)).toEqual(["fresh"]);
    const state = session.export();
    expect(state.branches?.[0]?.parentId).toBeNull();
    expect(texts(state.branches?.[0]?.messages ?? [])).toEqual(["one", "re: one", "two", "re: two"]);
    expect(session.branches().map((branch) => [branch.title, branch.parentId])).toEqual([
      ["one", null],
      ["fresh", null],
    ]);
  });

  it("switches between branches, each time continuing the one switched to, after a restore", async () => {
    const { model, options, session } = await twoExchanges();
    const [, firstAnswer] = session.export().messages;
    okValue(await session.chat("deux", { parentId: firstAnswer?.id ?? "" }));
    const old = session.branches().find((branch) => !branch.active);

    const restored = await moved(session, options);
    const switched = okValue(restored.switchBranch(old?.leafId ?? ""));
    expect(switched.find((branch) => branch.active)?.title).toBe("two");
    expect(texts(restored.export().messages)).toEqual(["one", "re: one", "two", "re: two"]);
    expect(texts(restored.export().branches?.[0]?.messages ?? [])).toEqual(["deux", "re: deux"]);

    const again = await moved(restored, options);
    okValue(await again.chat("three"));
    expect(lastSent(model)).toEqual(["one", "re: one", "two", "re: two", "three"]);
    expect(again.branches().map((branch) => [branch.title, branch.active])).toEqual([
      ["two", true],
      ["deux", false],
    ]);
  });

  it("forks a branch of a branch, and every leaf stays reachable", async () => {
    const { options, session } = await twoExchanges();
    const [first, firstAnswer] = session.export().messages;
    okValue(await session.chat("deux", { parentId: firstAnswer?.id ?? "" }));
    const deuxAnswer = session.export().messages.at(-1);
    okValue(await session.chat("trois", { parentId: deuxAnswer?.id ?? "" }));
    okValue(await session.chat("drei", { parentId: deuxAnswer?.id ?? "" }));
    okValue(await session.chat("uno", { parentId: first?.id ?? "" }));
    const restored = await moved(session, options);
    const leaves = restored.branches();
    expect(leaves.map((branch) => branch.title).sort()).toEqual(["drei", "trois", "two", "uno"]);
    for (const leaf of leaves) {
      okValue(restored.switchBranch(leaf.leafId ?? ""));
      const state = restored.export();
      expect(state.messages.at(-1)?.id).toBe(leaf.leafId);
      expect(state.messages).toHaveLength(leaf.messageCount);
      expectConsistent(state.messages);
      // Every message is stored once: the active path and the branches' own messages.
      const stored = [...state.messages, ...(state.branches ?? []).flatMap((branch) => branch.messages)];
      expect(new Set(stored.map((message) => message.id)).size).toBe(stored.length);
      expect(stored).toHaveLength(12);
      expect(() => parseSessionState(JSON.parse(JSON.stringify(state)))).not.toThrow();
    }
  });

  it("exports one branch alone, and the whole session by default", async () => {
    const { options, session } = await twoExchanges();
    const [, firstAnswer] = session.export().messages;
    okValue(await session.chat("deux", { parentId: firstAnswer?.id ?? "" }));
    const old = session.branches().find((branch) => !branch.active);
    const alone = session.export({ branch: old?.leafId ?? "" });
    expect(alone.branches).toBeUndefined();
    expect(texts(alone.messages)).toEqual(["one", "re: one", "two", "re: two"]);
    const restored = okValue(
      await createAgentSession({ ...options, restore: JSON.parse(JSON.stringify(alone)) }),
    );
    expect(restored.branches()).toHaveLength(1);
    expect(session.export().branches).toHaveLength(1);
    expect(() => session.export({ branch: firstAnswer?.id ?? "" })).toThrow(
      expect.objectContaining({ code: "BRANCH_INVALID", path: "branch" }),
    );
  });

  it("an older state, with no branches, restores unchanged and lists one branch", async () => {
    const { options, session } = await twoExchanges();
    const state = session.export();
    expect("branches" in state).toBe(false);
    const restored = okValue(
      await createAgentSession({ ...options, restore: JSON.parse(JSON.stringify(state)) }),
    );
    expect(restored.export()).toEqual(state);
  });
});

describe("a forked prompt that never reaches the conversation", () => {
  // The fork is undone: else the active branch would end where the stored branch goes on, and once
  // switched away from it could not be switched back to (it is no branch's last message).
  const cases = [
    ["its signal aborted before it was sent", {}, { signal: AbortSignal.abort() }],
    [
      "a userPromptSubmit hook stopped it",
      {
        hooks: {
          userPromptSubmit: [
            ({ prompt }: { prompt: Message }) =>
              textOf(prompt) === "deux" ? { decision: "stop" as const } : undefined,
          ],
        },
      },
      {},
    ],
  ] as const;
  it.each(cases)("(%s) leaves the conversation as it was", async (_, extra, chat) => {
    const { model, options, session } = await twoExchanges(extra as Partial<SessionOptions>);
    const [, firstAnswer] = session.export().messages;
    const before = session.export();
    const requests = model.requests.length;
    await session.chat("deux", { parentId: firstAnswer?.id ?? "", ...chat });
    expect(model.requests).toHaveLength(requests);
    expect(session.export().messages).toEqual(before.messages);
    expect(session.export().branches).toBeUndefined();
    expect(session.branches()).toEqual([
      expect.objectContaining({ title: "one", messageCount: 4, active: true }),
    ]);
    // A fork made afterwards works as any other: both branches reachable, after a restore too.
    okValue(await session.chat("trois", { parentId: firstAnswer?.id ?? "" }));
    const restored = await moved(session, options);
    const leaves = restored.branches().map((branch) => branch.leafId ?? "");
    expect(leaves).toHaveLength(2);
    for (const leaf of leaves)
      expect(okValue(restored.switchBranch(leaf)).find((b) => b.active)?.leafId).toBe(leaf);
  });

  it("is undone before run-end is heard, so an export there has the conversation as it is", async () => {
    const { session } = await twoExchanges();
    const [, firstAnswer] = session.export().messages;
    const before = session.export().messages;
    let atEnd: SessionState | undefined;
    const run = session.stream("deux", { parentId: firstAnswer?.id ?? "", signal: AbortSignal.abort() });
    for await (const event of run) if (event.type === "run-end") atEnd = session.export();
    expect(atEnd?.messages).toEqual(before);
    expect(atEnd?.branches).toBeUndefined();
  });
});

describe("forks that cannot be made", () => {
  it("refuses a parentId that names no message of the active branch, changing nothing", async () => {
    const { model, session } = await twoExchanges();
    const [, firstAnswer] = session.export().messages;
    okValue(await session.chat("deux", { parentId: firstAnswer?.id ?? "" }));
    const before = session.export();
    const abandoned = before.branches?.[0]?.messages[1]?.id ?? "";
    const requests = model.requests.length;
    for (const parentId of ["no-such-message", abandoned]) {
      const error = failure(await session.chat("x", { parentId }));
      expect(error).toMatchObject({ _tag: "ConfigError", code: "BRANCH_INVALID", path: "parentId" });
    }
    expect(failure(await session.chat("x", { parentId: 7 as never })).code).toBe("CONFIG_INVALID");
    expect(session.export()).toEqual(before);
    expect(model.requests).toHaveLength(requests);
  });

  it("refuses to fork after a message whose tool calls need their results next", async () => {
    const lookup = defineTool({
      name: "lookup",
      description: "Looks up",
      input: z.object({ q: z.string() }),
      execute: () => "found",
    });
    const model = createScriptedModel({
      script: [calls(["lookup", { q: "x" }]), { content: [{ type: "text", text: "done" }] }],
    });
    const session = okValue(
      await createAgentSession({
        model: "anthropic/claude-sonnet-5-5",
        apiKey: "k",
        fetch: model.fetch,
        tools: [lookup],
      }),
    );
    okValue(await session.chat("look"));
    const call = session.export().messages[1];
    expect(call?.role).toBe("assistant");
    const error = failure(await session.chat("x", { parentId: call?.id ?? "" }));
    expect(error).toMatchObject({ code: "BRANCH_INVALID", path: "parentId" });
    expect(session.export().branches).toBeUndefined();
  });

  it("refuses a fork while a run is in flight (SESSION_BUSY), whatever the mode", async () => {
    const door = gate();
    const model = createScriptedModel({
      script: [calls(["gate", {}]), { content: [{ type: "text", text: "ok" }] }],
    });
    const session = okValue(
      await createAgentSession({
        model: "anthropic/claude-sonnet-5-5",
        apiKey: "k",
        fetch: model.fetch,
        tools: [door.tool],
      }),
    );
    const running = session.chat("go");
    await door.hasStarted;
    for (const mode of ["followUp", "steer", undefined] as const) {
      const error = failure(await session.chat("x", { parentId: null, ...(mode ? { mode } : {}) }));
      expect(error.code).toBe("SESSION_BUSY");
    }
    expect(failure(session.switchBranch(session.snapshot().lastMessageId ?? "")).code).toBe("SESSION_BUSY");
    door.release();
    okValue(await running);
    expect(session.export().branches).toBeUndefined();
  });

  it("refuses to fork or switch while tool calls wait for approval (APPROVAL_PENDING)", async () => {
    const send = defineTool({
      name: "send",
      description: "Sends",
      input: z.object({ to: z.string() }),
      needsApproval: true,
      execute: () => "sent",
    });
    const model = createScriptedModel({
      script: [{ content: [{ type: "text", text: "hi" }] }, calls(["send", { to: "x" }])],
    });
    const options: SessionOptions = {
      model: "anthropic/claude-sonnet-5-5",
      apiKey: "k",
      fetch: model.fetch,
      tools: [send],
    };
    const session = okValue(await createAgentSession(options));
    okValue(await session.chat("hello"));
    const paused = okValue(await session.chat("send it"));
    expect(paused.stopReason).toBe("approval");
    const restored = await moved(session, options);
    const firstAnswer = restored.export().messages[1];
    expect(failure(await restored.chat("x", { parentId: firstAnswer?.id ?? "" })).code).toBe(
      "APPROVAL_PENDING",
    );
    expect(failure(restored.switchBranch(firstAnswer?.id ?? "")).code).toBe("APPROVAL_PENDING");
    expect(restored.export().branches).toBeUndefined();
  });

  it("refuses a prompt id that a message of any branch already has (the state stays restorable)", async () => {
    const { options, session } = await start();
    okValue(await session.chat("one", { id: "u1" }));
    expect(failure(await session.chat("again", { id: "u1" }))).toMatchObject({
      code: "CONFIG_INVALID",
      path: "id",
    });
    okValue(await session.chat("two", { id: "u2" }));
    const firstAnswer = session.export().messages[1]?.id ?? "";
    await later();
    // An edit that re-sends the edited prompt's own id: u2 now lives in the branch the fork keeps.
    expect(failure(await session.chat("two, edited", { id: "u2", parentId: firstAnswer })).code).toBe(
      "CONFIG_INVALID",
    );
    okValue(await session.chat("two, edited", { id: "u3", parentId: firstAnswer }));
    expect(session.branches()).toHaveLength(2);
    const restored = await moved(session, options);
    expect(restored.branches()).toEqual(session.branches());
  });

  it("exports another branch while the active one is paused: nothing that waits comes with it", async () => {
    const send = defineTool({
      name: "send",
      description: "Sends",
      input: z.object({ to: z.string() }),
      needsApproval: true,
      execute: () => "sent",
    });
    const model = createScriptedModel({
      script: [
        { content: [{ type: "text", text: "hi" }] },
        { content: [{ type: "text", text: "ok" }] },
        calls(["send", { to: "x" }]),
      ],
    });
    const options: SessionOptions = {
      model: "anthropic/claude-sonnet-5-5",
      apiKey: "k",
      fetch: model.fetch,
      tools: [send],
    };
    const session = okValue(await createAgentSession(options));
    okValue(await session.chat("hello"));
    okValue(await session.chat("first"));
    const other = session.export().messages.at(-1)?.id ?? "";
    await later();
    okValue(await session.chat("send it", { parentId: session.export().messages[1]?.id ?? "" }));
    expect(session.export().pendingApprovals).toHaveLength(1);
    const cut = session.export({ branch: other });
    expect(cut.pendingApprovals).toEqual([]);
    expect(cut.pendingQuestions).toBeUndefined();
    okValue(await createAgentSession({ ...options, restore: JSON.parse(JSON.stringify(cut)) }));
  });

  it("refuses to switch to an id that is no branch's last message", async () => {
    const { session } = await twoExchanges();
    const [first] = session.export().messages;
    for (const leaf of ["nope", first?.id ?? "", 3 as never]) {
      expect(failure(session.switchBranch(leaf)).code).toBe("BRANCH_INVALID");
    }
  });
});

describe("crafted branches are refused at restore", () => {
  async function forkedState(): Promise<{ state: SessionState; options: SessionOptions }> {
    const { options, session } = await twoExchanges();
    const [, firstAnswer] = session.export().messages;
    okValue(await session.chat("deux", { parentId: firstAnswer?.id ?? "" }));
    okValue(await session.chat("drei", { parentId: firstAnswer?.id ?? "" }));
    return { state: JSON.parse(JSON.stringify(session.export())) as SessionState, options };
  }

  const cases: Array<[string, (state: SessionState) => void, string]> = [
    [
      "a parent that is in no branch",
      (state) => {
        (state.branches?.[0] as { parentId: string }).parentId = "ghost";
      },
      "branches.0.parentId",
    ],
    [
      "an id that repeats",
      (state) => {
        const branch = state.branches?.[0];
        if (branch?.messages[0]) branch.messages[0].id = state.messages[0]?.id ?? "";
      },
      "branches.0.messages.0.id",
    ],
    [
      "branches whose parents form a cycle",
      (state) => {
        const [a, b] = state.branches ?? [];
        if (a && b) {
          a.parentId = b.messages[0]?.id ?? "";
          b.parentId = a.messages[0]?.id ?? "";
        }
      },
      "branches.0.parentId",
    ],
    [
      "an empty branch",
      (state) => {
        if (state.branches?.[0]) state.branches[0].messages = [];
      },
      "branches.0.messages",
    ],
    [
      "a branch that is not a list",
      (state) => {
        (state as { branches: unknown }).branches = { parentId: null };
      },
      "branches",
    ],
    [
      "a parent id that is not a string",
      (state) => {
        (state.branches?.[0] as { parentId: unknown }).parentId = 42;
      },
      "branches.0.parentId",
    ],
    [
      "a branch that starts with tool results",
      (state) => {
        const branch = state.branches?.[0];
        if (branch)
          branch.messages.unshift({
            id: "tr-1",
            role: "tool_result",
            content: [{ type: "tool_result", toolCallId: "c1", output: "x", isError: false }],
            timestamp: 1,
          });
      },
      "branches.0.messages.0",
    ],
  ];

  for (const [what, craft, path] of cases) {
    it(`refuses ${what} (CONFIG_INVALID at ${path})`, async () => {
      const { state, options } = await forkedState();
      expect(() => parseSessionState(JSON.parse(JSON.stringify(state)))).not.toThrow();
      craft(state);
      const restored = await createAgentSession({ ...options, restore: state });
      expect(failure(restored)).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID", path });
    });
  }
});

describe("createSession: send with parentUuid", () => {
  it("a null parentUuid (a client's first message carries one) continues: it does not restart", async () => {
    const model = echoModel();
    const options = { model: "anthropic/claude-sonnet-5-5", apiKey: "k", fetch: model.fetch } as const;
    const session = okValue(await createSession(options));
    const drain = async () => {
      for await (const _ of session.receive()) {
        // drain
      }
    };
    okValue(await session.send({ type: "user", message: "one", parentUuid: null }));
    await drain();
    okValue(await session.send({ type: "user", message: "two", parentUuid: null }));
    await drain();
    expect(lastSent(model)).toEqual(["one", "re: one", "two"]);
    expect(session.branches()).toHaveLength(1);
  });

  it("forks at parentUuid and lists, switches and exports the branches", async () => {
    const model = echoModel();
    const options = { model: "anthropic/claude-sonnet-5-5", apiKey: "k", fetch: model.fetch } as const;
    const session = okValue(await createSession(options));
    const drain = async () => {
      const got = [];
      for await (const message of session.receive()) got.push(message);
      return got;
    };
    okValue(await session.send("one"));
    const first = await drain();
    const answer = first.find((message) => message.type === "assistant");
    okValue(await session.send("two"));
    await drain();
    await later();
    okValue(await session.send({ type: "user", message: "deux", parentUuid: answer?.uuid ?? null }));
    const forked = await drain();
    const reply = forked.find((message) => message.type === "assistant");
    expect(reply?.type === "assistant" && textOf(reply.message)).toBe("re: deux");
    expect(lastSent(model)).toEqual(["one", "re: one", "deux"]);
    const branches = session.branches();
    expect(branches.map((branch) => [branch.title, branch.active])).toEqual([
      ["two", false],
      ["deux", true],
    ]);
    okValue(session.switchBranch(branches[0]?.leafId ?? ""));
    okValue(await session.send("three"));
    const after = await drain();
    expect(lastSent(model)).toEqual(["one", "re: one", "two", "re: two", "three"]);
    const next = after.find((message) => message.type === "assistant");
    // The answer's parent is the prompt, which continues the branch switched to.
    expect(next?.type === "assistant" && next.parentUuid).toBe(session.export().messages.at(-2)?.id);
    await session.close();
  });
});
