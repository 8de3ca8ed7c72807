/**
 * Claude Code transcripts (the real recordings in ../shared/fixtures/sessions) read into Wisp and
 * written back: the active branch with every parallel tool call, thinking signatures byte for byte,
 * usage from a response's last line, other branches reachable, and the file reproduced exactly.
 */
import { describe, expect, it } from "vitest";
import { fromClaudeCode, toClaudeCode } from "../../src/formats/index.ts";
import { parseSessionState } from "../../src/index.ts";
import type { AssistantMessage, Message } from "../../src/types.ts";
import { expectConsistent } from "../support/agent.ts";
import { fixtureText } from "../support/fixtures.ts";

const FILES = [
  "claude-code-short",
  "claude-code-tool-heavy",
  "claude-code-subagent-sidechain",
  "claude-code-compact-subagent",
];
const text = (name: string) => fixtureText(`sessions/${name}.jsonl`);
const lines = (name: string) =>
  text(name)
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));

async function read(jsonl: string, options = {}) {
  const result = await fromClaudeCode(jsonl, options);
  if (!result.ok) throw result.error;
  return result.value;
}

/** The conversation as an API sees it: roles and content, not ids or times. */
const conversation = (messages: Message[]) =>
  messages.map((message) => ({ role: message.role, content: message.content }));

describe.each(FILES)("%s", (name) => {
  it("reads into a state that restores, with every tool call answered and no warnings", async () => {
    const imported = await read(text(name));
    expect(imported.warnings).toEqual([]);
    expect(parseSessionState(JSON.parse(JSON.stringify(imported.state)))).toEqual(imported.state);
    expectConsistent(imported.state.messages);
  });

  it("without its source, reads the same conversation holding only the lines it needs", async () => {
    const kept = (await read(text(name))).state;
    const lean = (await read(text(name), { keepSource: false })).state;
    expect(lean.metadata).toEqual({});
    expect(lean).toEqual({ ...kept, metadata: {} });
  });

  it("writes back every line exactly as it was read", async () => {
    expect(toClaudeCode((await read(text(name))).state)).toBe(text(name));
  });

  it("written anew, reads back as the same conversation", async () => {
    const first = await read(text(name));
    const again = await read(toClaudeCode(first.state, { keepSource: false }));
    expect(again.warnings).toEqual([]);
    expect(conversation(again.state.messages)).toEqual(conversation(first.state.messages));
    expect(again.state.usage).toEqual(first.state.usage);
  });

  it("every tool_use and tool_result of the file's main conversation is in the state", async () => {
    const all = lines(name);
    const main = all.filter((line) => line.isSidechain === all.at(-1).isSidechain);
    const uses = main.flatMap((line) =>
      line.type === "assistant"
        ? line.message.content.filter((block: { type: string }) => block.type === "tool_use")
        : [],
    );
    const state = (await read(text(name))).state;
    const calls = state.messages.flatMap((message) => (message.role === "assistant" ? message.content : []));
    const results = state.messages.flatMap((message) =>
      message.role === "tool_result" ? message.content : [],
    );
    for (const use of uses) {
      expect(calls).toContainEqual({ type: "tool_call", id: use.id, name: use.name, args: use.input });
      expect(
        results.some((result) => result.toolCallId === use.id && result.output !== "No result provided"),
      ).toBe(true);
    }
  });
});

describe("claude-code-short", () => {
  it("one response over five lines is one message, blocks in file order, signature byte for byte", async () => {
    const state = (await read(text("claude-code-short"))).state;
    const reply = state.messages[1] as AssistantMessage;
    expect(reply.role).toBe("assistant");
    expect(reply.content.map((part) => part.type)).toEqual([
      "text",
      "thinking",
      "text",
      "tool_call",
      "tool_call",
    ]);
    const thinking = lines("claude-code-short").find(
      (line) => line.type === "assistant" && line.message.content[0].type === "thinking",
    ).message.content[0];
    expect(reply.content[1]).toEqual({
      type: "thinking",
      text: thinking.thinking,
      signature: thinking.signature,
    });
    expect(reply.responseId).toBe("msg_01MKH1ccEGrZGNPvu8pYiiQa");
    expect(reply.model).toBe("claude-opus-4-6");
  });

  it("both parallel results are paired, the rejected one as an error", async () => {
    const state = (await read(text("claude-code-short"))).state;
    const results = state.messages[2];
    expect(results?.role).toBe("tool_result");
    expect(results?.content).toHaveLength(2);
    expect(results?.content.map((part) => (part.type === "tool_result" ? part.isError : undefined))).toEqual([
      true,
      true,
    ]);
  });

  it("usage comes from a response's last line and is not summed over its lines", async () => {
    const all = lines("claude-code-short").filter((line) => line.type === "assistant");
    const last = all.at(-1).message.usage;
    const state = (await read(text("claude-code-short"))).state;
    expect(state.usage).toMatchObject({
      input: last.input_tokens,
      output: last.output_tokens,
      cacheRead: last.cache_read_input_tokens,
      cacheWrite: last.cache_creation_input_tokens,
    });
    expect(state.usage.costUsd).toBeGreaterThan(0);
    expect(state.turns).toBe(1);
  });
});

describe("branches, sidechains and compaction", () => {
  const envelope = {
    isSidechain: false,
    userType: "external",
    cwd: "/p",
    sessionId: "s-1",
    version: "2.1.39",
    gitBranch: "",
  };
  const user = (uuid: string, parentUuid: string | null, content: string, extra = {}) => ({
    parentUuid,
    ...envelope,
    type: "user",
    message: { role: "user", content },
    uuid,
    timestamp: "2026-01-01T00:00:00.000Z",
    ...extra,
  });
  const reply = (uuid: string, parentUuid: string, id: string, text: string) => ({
    parentUuid,
    ...envelope,
    message: {
      model: "claude-sonnet-4-5",
      id,
      type: "message",
      role: "assistant",
      content: [{ type: "text", text }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 2 },
    },
    type: "assistant",
    uuid,
    timestamp: "2026-01-01T00:00:01.000Z",
  });
  const jsonl = (...objects: object[]) => `${objects.map((line) => JSON.stringify(line)).join("\n")}\n`;

  it("a rewound prompt is a branch the caller can read instead", async () => {
    const file = jsonl(
      user("u1", null, "first question"),
      reply("a1", "u1", "msg_1", "first answer"),
      user("u2", "a1", "abandoned follow-up"),
      reply("a2", "u2", "msg_2", "abandoned answer"),
      user("u3", "a1", "edited follow-up"),
      reply("a3", "u3", "msg_3", "kept answer"),
    );
    const active = await read(file);
    expect(active.leaf).toBe("a3");
    expect(JSON.stringify(active.state.messages)).not.toContain("abandoned");
    expect(active.branches).toEqual([{ leaf: "a2", line: 4, sidechain: false }]);
    const other = await read(file, { leaf: "a2" });
    expect(JSON.stringify(other.state.messages)).toContain("abandoned answer");
    expect(JSON.stringify(other.state.messages)).not.toContain("kept answer");
    const unknown = await fromClaudeCode(file, { leaf: "nope" });
    expect(!unknown.ok && [unknown.error._tag, unknown.error.code, unknown.error.path]).toEqual([
      "ConfigError",
      "CONFIG_INVALID",
      "leaf",
    ]);
  });

  it("the model's context starts at the last compaction's summary; older lines stay in the file", async () => {
    const file = jsonl(
      user("u1", null, "old question"),
      reply("a1", "u1", "msg_1", "old answer"),
      {
        parentUuid: null,
        logicalParentUuid: "a1",
        ...envelope,
        type: "system",
        subtype: "compact_boundary",
        content: "Conversation compacted",
        level: "info",
        timestamp: "2026-01-01T00:01:00.000Z",
        uuid: "c1",
        isMeta: false,
        compactMetadata: { trigger: "auto", preTokens: 1000 },
      },
      user("u2", "c1", "This session is being continued… Summary: the user asked an old question.", {
        isCompactSummary: true,
        isVisibleInTranscriptOnly: true,
      }),
      user("u3", "u2", "new question"),
      reply("a3", "u3", "msg_3", "new answer"),
    );
    const imported = await read(file);
    expect(imported.state.messages.map((message) => message.role)).toEqual(["user", "user", "assistant"]);
    expect(JSON.stringify(imported.state.messages)).toContain("Summary: the user asked");
    expect(JSON.stringify(imported.state.messages)).not.toContain("old answer");
    expect(toClaudeCode(imported.state)).toBe(file);
    expect((await read(file, { keepSource: false })).state).toEqual({ ...imported.state, metadata: {} });
  });

  it("without its source, a read across compactions lists the same branches and sidechains from before them", async () => {
    const boundary = (uuid: string, logicalParentUuid: string) => ({
      parentUuid: null,
      logicalParentUuid,
      ...envelope,
      type: "system",
      subtype: "compact_boundary",
      content: "Conversation compacted",
      uuid,
      compactMetadata: { trigger: "auto", preTokens: 1000 },
    });
    const summary = (uuid: string, parentUuid: string) =>
      user(uuid, parentUuid, "Summary so far", { isCompactSummary: true, isVisibleInTranscriptOnly: true });
    const file = jsonl(
      user("u1", null, "first question"),
      reply("a1", "u1", "msg_1", "first answer"),
      reply("a1b", "u1", "msg_1b", "an answer left behind by a rewind"),
      { ...user("s1", "a1", "a subagent's task"), isSidechain: true, agentId: "ab12" },
      boundary("c1", "a1"),
      summary("u2", "c1"),
      reply("a2", "u2", "msg_2", "second answer"),
      user("u3b", "a2", "a prompt rewound after the first compaction"),
      boundary("c2", "a2"),
      summary("u4", "c2"),
      user("u5", "u4", "last question"),
      reply("a5", "u5", "msg_5", "last answer"),
    );
    const kept = await read(file);
    const lean = await read(file, { keepSource: false });
    expect(lean.branches.map((branch) => branch.leaf)).toEqual(["a1b", "s1", "u3b"]);
    expect(lean.branches).toEqual(kept.branches);
    expect(lean.branches[1]).toEqual({ leaf: "s1", line: 4, sidechain: true, agentId: "ab12" });
    expect([lean.leaf, lean.warnings]).toEqual([kept.leaf, kept.warnings]);
    expect(lean.state).toEqual({ ...kept.state, metadata: {} });
    expect(conversation(lean.state.messages).map((message) => message.role)).toEqual([
      "user",
      "user",
      "assistant",
    ]);
  });

  it("a subagent file reads its own conversation; in a main file subagent leaves are branches", async () => {
    const sidechain = await read(text("claude-code-subagent-sidechain"));
    expect(sidechain.state.messages.length).toBeGreaterThan(5);
    const main = lines("claude-code-short").map((line) => JSON.stringify(line));
    const sub = text("claude-code-compact-subagent").trimEnd().split("\n");
    const mixed = await read(`${[...main, ...sub].join("\n")}\n`);
    expect(mixed.state.model).toBe("claude-opus-4-6");
    expect(mixed.leaf).toBe((await read(text("claude-code-short"))).leaf);
    const sideLeaves = mixed.branches.filter((branch) => branch.sidechain);
    expect(sideLeaves.length).toBeGreaterThan(0);
    expect(sideLeaves.every((branch) => branch.agentId?.startsWith("acompact-"))).toBe(true);
    const chosen = await read(`${[...main, ...sub].join("\n")}\n`, { leaf: sideLeaves.at(-1)?.leaf });
    expect(JSON.stringify(chosen.state.messages)).toContain("<summary>");
  });
});
