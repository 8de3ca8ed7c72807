/**
 * parseSessionState at its edges: what migrating an old version does to the model name, the refusals
 * of a state that is not an object or has a bad version, the nesting limit's exact depth, and each
 * refusal of a crafted paused turn (approvals, held calls and held results that do not fit the
 * conversation's last message) with the path and words a person reads.
 */
import { describe, expect, it } from "vitest";
import { parseSessionState } from "../../src/index.ts";
import { MAX_STATE_DEPTH } from "../../src/state/check-messages.ts";
import { NO_USAGE, sessionState } from "../support/session-state.ts";

const usage = NO_USAGE;
const digest = "0".repeat(64);

const base = { ...sessionState({ model: "m" }) } as Record<string, unknown> & {
  messages: unknown[];
  pendingApprovals: unknown[];
  pendingResults: unknown[];
};

const user = (id: string) => ({ id, role: "user", content: [{ type: "text", text: "go" }], timestamp: 1 });
const assistant = (id: string, ...callIds: string[]) => ({
  id,
  role: "assistant",
  content: callIds.map((callId) => ({ type: "tool_call", id: callId, name: "send", args: {} })),
  timestamp: 1,
  provider: "anthropic",
  model: "m",
  usage,
  stopReason: callIds.length > 0 ? "toolUse" : "complete",
});
const approval = (toolCallId: string, extra: Record<string, unknown> = {}) => ({
  toolCallId,
  toolName: "send",
  args: {},
  requestedAt: 1,
  digest,
  ...extra,
});
const result = (toolCallId: string) => ({
  type: "tool_result",
  toolCallId,
  output: "done",
  isError: false,
});

/** The ConfigError parseSessionState throws for `state`. */
function refusal(state: unknown): { code?: string; path?: string; message: string } {
  try {
    parseSessionState(state);
  } catch (error) {
    return error as { code?: string; path?: string; message: string };
  }
  throw new Error("expected the state to be refused");
}

/** A paused state: the last message (`a`) called `calls`, and these wait or are held. */
function paused(calls: string[], extra: Record<string, unknown>) {
  return { ...base, messages: [user("u"), assistant("a", ...calls)], ...extra };
}

describe("migrating version 0", () => {
  it("keeps the slashes of a model name after the provider", () => {
    const state = parseSessionState({ ...base, version: 0, model: "openai-chat/org/custom-model" });
    expect(state.provider).toBe("openai-chat");
    expect(state.model).toBe("org/custom-model");
  });

  it("a state with no model string becomes an empty provider, refused by name", () => {
    const { model: _, ...noModel } = base;
    expect(refusal({ ...noModel, version: 0 })).toMatchObject({
      code: "CONFIG_INVALID",
      path: "provider",
      message: expect.stringContaining('got ""'),
    });
  });
});

describe("a state that cannot be read", () => {
  it.each([
    ["null", null],
    ["an array", []],
    ["a string", "{}"],
  ])("%s is not an object, at the root", (_, value) => {
    expect(refusal(value)).toMatchObject({
      code: "CONFIG_INVALID",
      path: "",
      message: expect.stringContaining("expected an object"),
    });
  });

  it.each([
    ["missing", undefined],
    ["a fraction", 1.5],
    ["a string", "2"],
  ])("a version %s is refused", (_, version) => {
    expect(refusal({ ...base, version })).toMatchObject({
      path: "version",
      message: expect.stringContaining("expected an integer version"),
    });
  });

  it("a version from a newer Wisp is refused, saying which version this one reads", () => {
    expect(refusal({ ...base, version: 3 })).toMatchObject({
      path: "version",
      message: expect.stringContaining("version 3 was written by a newer Wisp (this one reads up to 2)"),
    });
  });

  it("a version no migration starts from is refused", () => {
    expect(refusal({ ...base, version: -1 })).toMatchObject({
      path: "version",
      message: expect.stringContaining("version -1 cannot be migrated"),
    });
  });
});

describe("the nesting limit", () => {
  /** `{ a: { a: … } }`, `levels` deep. */
  function nested(levels: number): Record<string, unknown> {
    let value: Record<string, unknown> = {};
    for (let level = 0; level < levels; level++) value = { a: value };
    return value;
  }

  it(`a field whose objects reach ${MAX_STATE_DEPTH} levels with the state's own is refused as too deep`, () => {
    expect(refusal({ ...base, metadata: nested(MAX_STATE_DEPTH - 1) })).toMatchObject({
      path: "metadata",
      message: expect.stringContaining(`nested deeper than ${MAX_STATE_DEPTH} levels`),
    });
  });
});

describe("the conversation's rules", () => {
  it("an unpaired call before a paused turn is refused", () => {
    const state = {
      ...base,
      messages: [user("u1"), assistant("a1", "c1"), user("u2"), assistant("a2", "c2")],
      pendingApprovals: [approval("c2")],
    };
    expect(refusal(state).message).toMatch(/c1/);
  });

  it("a compaction that keeps from no message is refused", () => {
    expect(
      refusal({ ...base, messages: [user("u")], compaction: { summary: "s", firstKeptId: "gone", at: 1 } }),
    ).toMatchObject({
      path: "compaction.firstKeptId",
      message: expect.stringContaining("the compaction keeps from a message that is not in messages"),
    });
  });

  it("results held with nothing paused are refused", () => {
    expect(refusal({ ...base, messages: [user("u")], pendingResults: [result("c1")] })).toMatchObject({
      path: "pendingResults",
      message: expect.stringContaining("results held for a pause, but nothing waits for approval"),
    });
  });
});

describe("a message id that repeats", () => {
  it("is refused also when the state has no branches (the branch list would otherwise fail on it later)", () => {
    const state = { ...base, messages: [user("u"), assistant("a"), user("u"), assistant("b")] };
    expect(refusal(state)).toMatchObject({ code: "CONFIG_INVALID", path: "messages.2.id" });
    expect(refusal(state).message).toContain("appears twice");
  });
});

describe("a crafted paused turn", () => {
  it("approvals after a message that made no calls are refused", () => {
    const state = { ...base, messages: [user("u"), assistant("a")], pendingApprovals: [approval("c1")] };
    expect(refusal(state)).toMatchObject({
      path: "pendingApprovals",
      message: expect.stringContaining("approvals pending, but the last message made no tool calls"),
    });
    expect(refusal({ ...state, messages: [user("u")] }).path).toBe("pendingApprovals");
  });

  it.each([
    [
      "an approval of a call the last message did not make",
      paused(["c1"], { pendingApprovals: [approval("x")] }),
      "pendingApprovals.0",
      "tool call x is not one of the last message's",
    ],
    [
      "an approval under another tool's name",
      paused(["c1"], { pendingApprovals: [approval("c1", { toolName: "delete" })] }),
      "pendingApprovals.0",
      'tool call c1 is a call of "send"',
    ],
    [
      "a call pending twice",
      paused(["c1"], { pendingApprovals: [approval("c1"), approval("c1")] }),
      "pendingApprovals.1",
      "tool call c1 is pending twice",
    ],
    [
      "a held call the last message did not make",
      paused(["c1", "c2"], { pendingApprovals: [approval("c1", { holds: ["x"] })] }),
      "pendingApprovals.0.holds.0",
      "tool call x is not one of the last message's",
    ],
    [
      "a held call that is also pending",
      paused(["c1", "c2"], { pendingApprovals: [approval("c1", { holds: ["c1"] })] }),
      "pendingApprovals.0.holds.0",
      "tool call c1 is answered twice",
    ],
    [
      "a held result for a call the last message did not make",
      paused(["c1", "c2"], { pendingApprovals: [approval("c1")], pendingResults: [result("x")] }),
      "pendingResults.0",
      "tool call x is not one of the last message's",
    ],
    [
      "a held result for a call that is pending",
      paused(["c1", "c2"], { pendingApprovals: [approval("c1")], pendingResults: [result("c1")] }),
      "pendingResults.0",
      "tool call c1 is answered twice",
    ],
    [
      "a call neither pending, held nor answered",
      paused(["c1", "c2"], { pendingApprovals: [approval("c1")] }),
      "messages.1",
      "tool call c2 has no result",
    ],
  ])("%s is refused", (_, state, path, message) => {
    expect(refusal(state)).toMatchObject({
      code: "CONFIG_INVALID",
      path,
      message: expect.stringContaining(message),
    });
  });

  it("a paused turn whose every call is pending, held or answered is read as it is", () => {
    const state = paused(["c1", "c2", "c3"], {
      pendingApprovals: [approval("c1", { holds: ["c2"] })],
      pendingResults: [result("c3")],
    });
    expect(parseSessionState(state)).toEqual(state);
  });
});
