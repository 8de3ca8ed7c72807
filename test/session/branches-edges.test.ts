/**
 * Branches at their edges, through the public API: crafted states that restore or are refused (with
 * the path and the words a person reads), titles taken from awkward conversations, the order of the
 * list and of the stored branches after a switch, a compaction that a fork, a switch or a one-branch
 * export leaves behind, an active branch that another branch continues, and the refusals' messages.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  type AgentSession,
  type AssistantMessage,
  createAgentSession,
  defineTool,
  type Message,
  type SessionOptions,
  type SessionState,
  type StoredBranch,
} from "../../src/index.ts";
import { createScriptedModel, type RecordedRequest } from "../../src/testing/index.ts";
import { calls, gate, sendNeedingApproval } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

const T = 1_700_000_000_000;
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };

function user(id: string, text: string | string[], at = T): Message {
  const texts = typeof text === "string" ? [text] : text;
  return { id, role: "user", content: texts.map((words) => ({ type: "text", text: words })), timestamp: at };
}

function assistant(id: string, content: string | AssistantMessage["content"], at = T): Message {
  const parts: AssistantMessage["content"] =
    typeof content === "string" ? [{ type: "text", text: content }] : content;
  const toolUse = parts.some((part) => part.type === "tool_call");
  return {
    id,
    role: "assistant",
    content: parts,
    timestamp: at,
    provider: "anthropic",
    model: "claude-sonnet-5-5",
    usage,
    stopReason: toolUse ? "toolUse" : "complete",
  };
}

/** A tool call part (of the `lookup` tool). */
function call(id: string) {
  return { type: "tool_call" as const, id, name: "lookup", args: { q: "x" } };
}

function results(id: string, ...callIds: string[]): Message {
  return {
    id,
    role: "tool_result",
    content: callIds.map((toolCallId) => ({
      type: "tool_result",
      toolCallId,
      output: "found",
      isError: false,
    })),
    timestamp: T,
  };
}

/** A model that answers every prompt with `re: <prompt>`. */
function echoModel() {
  return createScriptedModel({
    respond: (request: RecordedRequest) => {
      const last = request.messages.findLast((message) => message.role === "user");
      const part = last?.content.find((candidate) => candidate.type === "text");
      return { content: [{ type: "text", text: `re: ${part?.type === "text" ? part.text : ""}` }] };
    },
  });
}

const lookup = defineTool({
  name: "lookup",
  description: "Looks up",
  input: z.object({ q: z.string() }),
  execute: () => "found",
});

function optionsFor(model = echoModel()): SessionOptions {
  return { model: "anthropic/claude-sonnet-5-5", apiKey: "k", fetch: model.fetch, tools: [lookup] };
}

/** A whole state with these messages and branches (and more fields), as a store would hand it back. */
async function crafted(
  messages: Message[],
  branches: StoredBranch[],
  extra: Partial<SessionState> = {},
): Promise<SessionState> {
  const fresh = okValue(await createAgentSession(optionsFor()));
  return JSON.parse(JSON.stringify({ ...fresh.export(), messages, branches, ...extra })) as SessionState;
}

/** Restores `state` into a new session, or gives the refusal. */
async function restore(state: SessionState, options = optionsFor()) {
  return createAgentSession({ ...options, restore: state });
}

async function restored(messages: Message[], branches: StoredBranch[], extra: Partial<SessionState> = {}) {
  return okValue(await restore(await crafted(messages, branches, extra)));
}

/** The ids of each stored branch: its parent, then its own messages. */
function shape(session: AgentSession): Array<[string | null, string[]]> {
  return (session.export().branches ?? []).map((branch) => [
    branch.parentId,
    branch.messages.map((message) => message.id),
  ]);
}

/** A conversation with one answered tool call: u1 → a1 (text and call c1) → r1 → a2. */
const withCall = () => [
  user("u1", "look"),
  assistant("a1", [{ type: "text", text: "Let me look." }, call("c1")]),
  results("r1", "c1"),
  assistant("a2", "found it"),
];

describe("restored branches: what is accepted", () => {
  it("accepts a branch that answers its parent's tool calls with other results", async () => {
    const session = await restored(withCall(), [
      { parentId: "a1", messages: [results("r9", "c1"), assistant("a9", "found another")] },
    ]);
    expect(session.branches().map((branch) => branch.leafId)).toEqual(["a2", "a9"]);
    okValue(session.switchBranch("a9"));
    expect(session.export().messages.map((message) => message.id)).toEqual(["u1", "a1", "r9", "a9"]);
  });
});

describe("restored branches: what is refused, where and why", () => {
  const refusals: Array<[string, () => [Message[], StoredBranch[]], string, string]> = [
    [
      "a branch after a message whose tool calls it leaves unanswered",
      () => [withCall(), [{ parentId: "a1", messages: [user("u9", "x")] }]],
      "branches.0.parentId",
      "tool call c1 has no result",
    ],
    [
      "a branch whose first message makes tool calls answered by nothing",
      () => [
        [user("u1", "one"), assistant("a1", "re: one")],
        [{ parentId: "a1", messages: [assistant("a9", [call("c9")]), user("u9", "x")] }],
      ],
      "branches.0.messages.0",
      "tool call c9 has no result",
    ],
    [
      "a branch from the start whose second message's tool calls go unanswered",
      () => [
        [user("u1", "one"), assistant("a1", "re: one")],
        [{ parentId: null, messages: [user("u8", "eight"), assistant("a8", [call("c8")]), user("u9", "x")] }],
      ],
      "branches.0.messages.1",
      "tool call c8 has no result",
    ],
    [
      "a branch that starts with tool results",
      () => [
        [user("u1", "one"), assistant("a1", "re: one")],
        [{ parentId: "a1", messages: [results("r9", "c1")] }],
      ],
      "branches.0.messages.0",
      "tool results that answer no tool call before them",
    ],
    [
      "a parent that is in no branch",
      () => [[user("u1", "one")], [{ parentId: "ghost", messages: [user("u2", "two")] }]],
      "branches.0.parentId",
      "message ghost is in no branch of the conversation",
    ],
    [
      "an id that repeats in the active branch",
      () => [
        [user("u1", "one"), assistant("a1", "re"), user("u1", "again")],
        [{ parentId: null, messages: [user("u2", "two")] }],
      ],
      "messages.2.id",
      "message id u1 appears twice in the conversation",
    ],
    [
      "branches whose parent links form a cycle",
      () => [
        [user("u1", "one")],
        [
          { parentId: "b0", messages: [user("a0", "a")] },
          { parentId: "a0", messages: [user("b0", "b")] },
        ],
      ],
      "branches.0.parentId",
      "the branches' parent links form a cycle at b0",
    ],
  ];

  for (const [what, build, path, words] of refusals) {
    it(`refuses ${what} (at ${path})`, async () => {
      const [messages, branches] = build();
      const error = failure(await restore(await crafted(messages, branches)));
      expect(error).toMatchObject({
        _tag: "ConfigError",
        code: "CONFIG_INVALID",
        path,
        message: `Invalid session state at ${path}: ${words}`,
      });
    });
  }
});

describe("branch titles", () => {
  const long = `${"word ".repeat(30)}end`;
  const exact = "x".repeat(120);

  async function titled() {
    return restored(
      [
        user("u1", "one", T),
        assistant("a1", "re: one", T + 1),
        user("u2", "two", T + 2),
        assistant("a2", "re: two", T + 3),
      ],
      [
        // No prompt of its own: its first text.
        { parentId: "u1", messages: [assistant("answer-only", "another answer", T + 4)] },
        // No prompt, and a first message with no text: the first message that has some.
        {
          parentId: "u1",
          messages: [
            assistant("a8", [call("c8")], T + 5),
            results("r8", "c8"),
            assistant("done", "done", T + 5),
          ],
        },
        // A prompt with no words comes before the real one.
        {
          parentId: null,
          messages: [user("u7", "   ", T + 6), assistant("a7", "ok", T + 6), user("real", "real", T + 6)],
        },
        // Blank text parts are skipped, and the text is trimmed.
        { parentId: null, messages: [user("padded", ["  ", "  padded prompt  "], T + 7)] },
        { parentId: null, messages: [user("long", long, T + 8)] },
        { parentId: null, messages: [user("exact", exact, T + 9)] },
      ],
    );
  }

  it("are the first prompt after the fork, else the first text, trimmed and cut at 120 characters", async () => {
    const session = await titled();
    const titles = Object.fromEntries(session.branches().map((branch) => [branch.leafId, branch.title]));
    expect(titles).toEqual({
      // The active branch's own messages start with the answer it shares its fork with: its prompt wins.
      a2: "two",
      "answer-only": "another answer",
      done: "done",
      real: "real",
      padded: "padded prompt",
      long: `${long.slice(0, 119)}…`,
      exact,
    });
    expect(titles.long).toHaveLength(120);
  });

  it("of an empty conversation: one empty, active branch", async () => {
    const session = okValue(await createAgentSession(optionsFor()));
    expect(session.branches()).toEqual([
      { leafId: null, parentId: null, title: "", messageCount: 0, active: true },
    ]);
  });
});

describe("the order of branches", () => {
  /** Two branches whose own first messages were written in the same millisecond. */
  async function sameMillisecond() {
    return restored(
      [
        user("u1", "one", T),
        assistant("a1", "re: one", T + 1),
        user("q-b", "b", T + 5),
        assistant("m-b", "re: b", T + 6),
      ],
      [{ parentId: "a1", messages: [user("q-a", "a", T + 5), assistant("m-a", "re: a", T + 6)] }],
    );
  }

  it("lists branches written in the same millisecond by leaf id, whichever is active", async () => {
    const session = await sameMillisecond();
    const listed = () => session.branches().map((branch) => [branch.leafId, branch.active]);
    expect(listed()).toEqual([
      ["m-a", false],
      ["m-b", true],
    ]);
    okValue(session.switchBranch("m-a"));
    expect(listed()).toEqual([
      ["m-a", true],
      ["m-b", false],
    ]);
  });

  it("after a switch stores the other branches in their order, then the one active before", async () => {
    const session = await restored(
      [user("u1", "one"), assistant("a1", "re: one"), user("u4", "four"), assistant("a4", "re: four")],
      [
        { parentId: "a1", messages: [user("u2", "two"), assistant("a2", "re: two")] },
        // One message of its own: another answer to u4.
        { parentId: "u4", messages: [assistant("a5", "four again")] },
      ],
    );
    okValue(session.switchBranch("a2"));
    expect(shape(session)).toEqual([
      ["a1", ["u4", "a5"]],
      ["u4", ["a4"]],
    ]);
  });

  it("after a switch stores a branch that another continues together with it, ending at a leaf", async () => {
    const session = await restored(
      [user("a", "a")],
      [
        { parentId: null, messages: [user("x", "x")] },
        { parentId: "x", messages: [user("y", "y")] },
        { parentId: null, messages: [user("q", "q")] },
      ],
    );
    okValue(session.switchBranch("q"));
    expect(shape(session)).toEqual([
      [null, ["x", "y"]],
      [null, ["a"]],
    ]);
  });
});

describe("an active branch that another branch continues", () => {
  // a1 ends the active branch, and the stored branch continues from it.
  const state = () =>
    crafted(
      [user("u0", "zero"), assistant("a0", "re: zero"), user("u1", "one"), assistant("a1", "re: one")],
      [{ parentId: "a1", messages: [user("u2", "two"), assistant("a2", "re: two")] }],
    );

  it("is listed as active, can be switched to (nothing changes) and exported alone", async () => {
    const session = okValue(await restore(await state()));
    expect(session.branches().find((branch) => branch.leafId === "a1")).toMatchObject({ active: true });
    const before = session.export();
    expect(okValue(session.switchBranch("a1")).find((branch) => branch.active)?.leafId).toBe("a1");
    expect(session.export()).toEqual(before);
    const alone = session.export({ branch: "a1" });
    expect(alone.branches).toBeUndefined();
    expect(alone.messages.map((message) => message.id)).toEqual(["u0", "a0", "u1", "a1"]);
  });
});

describe("a compaction and the branches", () => {
  const compaction = (firstKeptId: string) => ({
    compaction: { summary: "earlier talk", firstKeptId, at: T },
  });

  it("a fork keeps a compaction whose first kept message it keeps", async () => {
    const session = await restored(four(), [], compaction("u1"));
    okValue(await session.chat("deux", { parentId: "a1" }));
    expect(session.export().compaction).toMatchObject({ firstKeptId: "u1" });
  });

  it("a fork forgets a compaction whose first kept message goes to the other branch", async () => {
    const session = await restored(four(), [], compaction("u2"));
    okValue(await session.chat("deux", { parentId: "a1" }));
    expect(session.export().compaction).toBeUndefined();
    // Forgotten, not hidden: switching back does not bring it back.
    okValue(session.switchBranch("a2"));
    expect(session.export().messages.map((message) => message.id)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(session.export().compaction).toBeUndefined();
  });

  it("a fork whose prompt was never sent gives back the compaction it forgot", async () => {
    const session = await restored(four(), [], compaction("u2"));
    const before = session.export();
    failure(await session.chat("deux", { parentId: "a1", signal: AbortSignal.abort() }));
    expect(session.export()).toMatchObject({ messages: before.messages, compaction: before.compaction });
    expect(session.export().branches).toBeUndefined();
  });

  it("a switch forgets a compaction whose first kept message is not on the branch switched to", async () => {
    const session = await restored(
      four(),
      [{ parentId: "a1", messages: [user("u3", "three"), assistant("a3", "re: three")] }],
      compaction("u2"),
    );
    okValue(session.switchBranch("a3"));
    okValue(session.switchBranch("a2"));
    expect(session.export().compaction).toBeUndefined();
  });

  it("exporting another branch keeps the compaction only when its first kept message is on it", async () => {
    const branches = [{ parentId: "a1", messages: [user("u3", "three"), assistant("a3", "re: three")] }];
    const shared = await restored(four(), branches, compaction("u1"));
    expect(shared.export({ branch: "a3" }).compaction).toMatchObject({ firstKeptId: "u1" });
    const own = await restored(four(), branches, compaction("u2"));
    const cut = own.export({ branch: "a3" });
    expect(cut.compaction).toBeUndefined();
    expect("compaction" in cut).toBe(false);
    okValue(await restore(JSON.parse(JSON.stringify(cut))));
  });
});

describe("refusals, in the words a person reads", () => {
  it("refuses to fork after a message with text and tool calls: they need their results next", async () => {
    const session = await restored(withCall(), []);
    expect(failure(await session.chat("x", { parentId: "a1" }))).toMatchObject({
      code: "BRANCH_INVALID",
      path: "parentId",
      message: "parentId a1 names a message whose tool calls need their results next: fork after those",
    });
    expect(session.export().branches).toBeUndefined();
  });

  it("refuses a parentId that names no message of the active branch", async () => {
    const session = await restored(four(), []);
    expect(failure(await session.chat("x", { parentId: "ghost" }))).toMatchObject({
      code: "BRANCH_INVALID",
      path: "parentId",
      message:
        "parentId ghost names no message of the active branch: to continue another branch, switchBranch() to it first",
    });
  });

  it("refuses a fork and a switch while a run is in flight, saying when to do them", async () => {
    const door = gate();
    const model = createScriptedModel({
      script: [calls(["gate", {}]), { content: [{ type: "text", text: "ok" }] }],
    });
    const session = okValue(await createAgentSession({ ...optionsFor(model), tools: [door.tool] }));
    const running = session.chat("go");
    await door.hasStarted;
    expect(failure(await session.chat("x", { parentId: null }))).toMatchObject({
      code: "SESSION_BUSY",
      path: "parentId",
      message: "A run is in flight: fork when it has ended (a prompt queued behind it cannot fork)",
    });
    expect(failure(session.switchBranch("anything"))).toMatchObject({
      code: "SESSION_BUSY",
      path: "leafId",
      message: "A run is in flight: switch branches when it has ended",
    });
    door.release();
    okValue(await running);
  });

  it("refuses a switch while tool calls wait for approval, saying how to go on", async () => {
    const send = sendNeedingApproval;
    const model = createScriptedModel({ script: [calls(["send", { to: "x" }])] });
    const session = okValue(await createAgentSession({ ...optionsFor(model), tools: [send] }));
    expect(okValue(await session.chat("send it")).stopReason).toBe("approval");
    expect(failure(session.switchBranch(session.export().messages[0]?.id ?? ""))).toMatchObject({
      code: "APPROVAL_PENDING",
      message: "Tool calls wait for approval or answers: decide them with resume() before switching branches",
    });
  });

  it("refuses a switch to a leaf id that is not a string, or to no branch's last message", async () => {
    const session = await restored(four(), []);
    expect(failure(session.switchBranch(3 as never))).toMatchObject({
      code: "BRANCH_INVALID",
      path: "leafId",
      message: "switchBranch takes a branch's leaf id (a string)",
    });
    expect(failure(session.switchBranch("a1"))).toMatchObject({
      code: "BRANCH_INVALID",
      path: "leafId",
      message: "a1 is not the last message of a branch",
    });
    expect(() => session.export({ branch: "u2" })).toThrow(
      expect.objectContaining({ path: "branch", message: "u2 is not the last message of a branch" }),
    );
  });
});

/** Four messages, two exchanges: u1 → a1, u2 → a2. */
function four(): Message[] {
  return [user("u1", "one"), assistant("a1", "re: one"), user("u2", "two"), assistant("a2", "re: two")];
}
