/**
 * pi session files read into Wisp and written back: the real 1 MB version 1 recording reproduced
 * exactly, a new version 3 file that reads back as the same conversation, and the version 2/3 tree
 * (branches, compaction, custom, branch-summary and shell entries) read the way pi builds its context.
 */
import { describe, expect, it } from "vitest";
import { fromPi, toClaudeCode, toPi } from "../../src/formats/index.ts";
import { parseSessionState } from "../../src/index.ts";
import type { Message } from "../../src/types.ts";
import { expectConsistent } from "../support/agent.ts";
import { fixtureText } from "../support/fixtures.ts";

const LARGE = fixtureText("sessions/pi-session-v1-large.jsonl");
const LARGE_LINES = LARGE.trimEnd()
  .split("\n")
  .map((line) => JSON.parse(line));

async function read(jsonl: string, options = {}) {
  const result = await fromPi(jsonl, options);
  if (!result.ok) throw result.error;
  return result.value;
}

const conversation = (messages: Message[]) =>
  messages.map((message) => ({
    role: message.role,
    content: message.content,
    ...(message.role === "assistant" ? { usage: message.usage, stopReason: message.stopReason } : {}),
  }));

describe("the version 1 recording", () => {
  it("reads every message into a state that restores", async () => {
    const imported = await read(LARGE);
    const state = imported.state;
    expect(parseSessionState(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expectConsistent(state.messages);
    const messages = LARGE_LINES.filter((line) => line.type === "message");
    const byRole = (role: string) => messages.filter((line) => line.message.role === role).length;
    expect(state.messages.filter((message) => message.role === "user")).toHaveLength(byRole("user"));
    expect(state.messages.filter((message) => message.role === "assistant")).toHaveLength(
      byRole("assistant"),
    );
    const results = state.messages.flatMap((message) =>
      message.role === "tool_result" ? message.content : [],
    );
    expect(results.filter((part) => part.output !== "No result provided")).toHaveLength(byRole("toolResult"));
    // The only warnings are calls of failed or aborted replies that never got a result.
    for (const warning of imported.warnings) {
      expect(warning.message).toMatch(/has no result/);
      expect(["aborted", "error"]).toContain(LARGE_LINES[warning.line - 1].message.stopReason);
    }
    expect(state.model).toBe("claude-sonnet-4-5");
    const lastLevel = LARGE_LINES.findLast((line) => line.type === "thinking_level_change").thinkingLevel;
    expect(state.thinking).toBe(lastLevel);
  });

  it("keeps costs, stop reasons, errors and the one signed thinking block", async () => {
    const state = (await read(LARGE)).state;
    const replies = LARGE_LINES.filter(
      (line) => line.type === "message" && line.message.role === "assistant",
    );
    const total = replies.reduce((sum, line) => sum + line.message.usage.cost.total, 0);
    expect(state.usage.costUsd).toBeCloseTo(total, 9);
    const thinking = replies
      .flatMap((line) => line.message.content)
      .find((block) => block.type === "thinking");
    const parts = state.messages.flatMap((message) => (message.role === "assistant" ? message.content : []));
    expect(parts).toContainEqual({
      type: "thinking",
      text: thinking.thinking,
      signature: thinking.thinkingSignature,
    });
    const aborted = state.messages.filter(
      (message) => message.role === "assistant" && message.stopReason === "aborted",
    );
    expect(aborted.length).toBe(replies.filter((line) => line.message.stopReason === "aborted").length);
    expect(
      aborted.every((message) => message.role === "assistant" && message.error?.code === "ABORTED"),
    ).toBe(true);
  });

  it("writes back byte for byte, and a continued session appends version 1 entries", async () => {
    const state = (await read(LARGE)).state;
    expect(toPi(state)).toBe(LARGE);
    const reply: Message = {
      id: "new-reply",
      role: "assistant",
      content: [{ type: "text", text: "Continued in Wisp." }],
      timestamp: 1_800_000_000_000,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, reasoning: 0, costUsd: 0.000105 },
      stopReason: "complete",
    };
    const prompt: Message = {
      id: "new-prompt",
      role: "user",
      content: [{ type: "text", text: "Go on" }],
      timestamp: 1_800_000_000_000,
    };
    const written = toPi({ ...state, messages: [...state.messages, prompt, reply] });
    expect(written.startsWith(LARGE)).toBe(true);
    const added = written
      .slice(LARGE.length)
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(added.map((line) => Object.keys(line))).toEqual([
      ["type", "timestamp", "message"],
      ["type", "timestamp", "message"],
    ]);
    const again = (await read(written)).state;
    expect(again.messages.slice(-2).map((message) => message.content)).toEqual([
      prompt.content,
      reply.content,
    ]);
  });

  it("a session that dropped messages it read is written anew as version 3: version 1 cannot branch", async () => {
    const state = (await read(LARGE)).state;
    const cut = state.messages.findIndex((message, index) => index > 10 && message.role === "user");
    const prompt: Message = {
      id: "rewound-prompt",
      role: "user",
      content: [{ type: "text", text: "Instead, do this" }],
      timestamp: 1_800_000_000_000,
    };
    const rewound = [...state.messages.slice(0, cut), prompt];
    const written = toPi({ ...state, messages: rewound });
    expect(JSON.parse(written.slice(0, written.indexOf("\n")))).toMatchObject({
      type: "session",
      version: 3,
    });
    const again = await read(written);
    expect(conversation(again.state.messages)).toEqual(conversation(rewound));
    expect(again.branches).toEqual([]);
  });

  it("written into Claude Code or anew, keeps the project's working directory", async () => {
    const state = (await read(LARGE)).state;
    const cwd = LARGE_LINES[0].cwd;
    expect(cwd).toBe("/Users/badlogic/workspaces/pi-mono");
    expect(JSON.parse(toPi(state, { keepSource: false }).split("\n")[0] as string).cwd).toBe(cwd);
    const claude = toClaudeCode(state)
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(new Set(claude.map((line) => line.cwd))).toEqual(new Set([cwd]));
    expect(
      JSON.parse(toPi(state, { keepSource: false, cwd: "/elsewhere" }).split("\n")[0] as string).cwd,
    ).toBe("/elsewhere");
  });

  it("written anew as version 3, reads back as the same conversation", async () => {
    const first = (await read(LARGE)).state;
    const fresh = toPi(first, { keepSource: false, cwd: "/work" });
    const header = JSON.parse(fresh.slice(0, fresh.indexOf("\n")));
    expect(header).toMatchObject({ type: "session", version: 3, id: first.sessionId, cwd: "/work" });
    const ids = fresh
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((line) => JSON.parse(line).id);
    expect(ids.every((id) => /^[0-9a-f]{8}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const again = await read(fresh);
    expect(conversation(again.state.messages)).toEqual(conversation(first.messages));
    expect([again.state.model, again.state.thinking]).toEqual([first.model, first.thinking]);
  });
});

describe("the version 3 tree", () => {
  let clock = Date.parse("2026-01-01T00:00:00.000Z");
  const entry = (id: string, parentId: string | null, fields: object) => ({
    type: "message",
    id,
    parentId,
    timestamp: new Date(clock++).toISOString(),
    ...fields,
  });
  const user = (id: string, parentId: string | null, text: string) =>
    entry(id, parentId, { message: { role: "user", content: text, timestamp: clock } });
  const reply = (id: string, parentId: string, text: string) =>
    entry(id, parentId, {
      message: {
        role: "assistant",
        content: [{ type: "text", text }],
        api: "openai-completions",
        provider: "openai",
        model: "gpt-4o-mini",
        usage: {
          input: 1,
          output: 1,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 2,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: "stop",
        timestamp: clock,
      },
    });
  const header = {
    type: "session",
    version: 3,
    id: "8d1c2a3b-0000-4000-8000-000000000001",
    timestamp: "2026-01-01T00:00:00.000Z",
    cwd: "/p",
  };
  const jsonl = (...objects: object[]) => `${objects.map((line) => JSON.stringify(line)).join("\n")}\n`;

  it("the leaf is the last entry; other leaves are branches, readable by id", async () => {
    const file = jsonl(
      header,
      user("a1", null, "q1"),
      reply("a2", "a1", "first try"),
      user("a3", "a1", "q1 again"),
      reply("a4", "a3", "second try"),
    );
    const imported = await read(file);
    expect(imported.leaf).toBe("a4");
    expect(imported.state.provider).toBe("openai-chat");
    expect(JSON.stringify(imported.state.messages)).not.toContain("first try");
    expect(imported.branches).toEqual([{ leaf: "a2", line: 3, sidechain: false }]);
    expect(JSON.stringify((await read(file, { leaf: "a2" })).state.messages)).toContain("first try");
    expect(toPi(imported.state)).toBe(file);
  });

  it("compaction, branch summaries, custom messages and shell runs read the way pi sends them", async () => {
    const file = jsonl(
      header,
      user("b1", null, "old"),
      reply("b2", "b1", "old answer"),
      user("b3", "b2", "kept question"),
      reply("b4", "b3", "kept answer"),
      {
        type: "compaction",
        id: "b5",
        parentId: "b4",
        timestamp: "2026-01-01T00:01:00.000Z",
        summary: "They talked.",
        firstKeptEntryId: "b3",
        tokensBefore: 5000,
      },
      {
        type: "branch_summary",
        id: "b6",
        parentId: "b5",
        timestamp: "2026-01-01T00:01:01.000Z",
        fromId: "b2",
        summary: "A detour.",
      },
      {
        type: "custom_message",
        customType: "note",
        content: "A note from an extension",
        display: true,
        details: null,
        id: "b7",
        parentId: "b6",
        timestamp: "2026-01-01T00:01:02.000Z",
      },
      entry("b8", "b7", {
        message: {
          role: "bashExecution",
          command: "ls",
          output: "a.txt",
          exitCode: 1,
          cancelled: false,
          truncated: false,
          timestamp: clock,
        },
      }),
      {
        type: "custom",
        customType: "state",
        data: { x: 1 },
        id: "b9",
        parentId: "b8",
        timestamp: "2026-01-01T00:01:03.000Z",
      },
      {
        type: "label",
        id: "b10",
        parentId: "b9",
        timestamp: "2026-01-01T00:01:04.000Z",
        targetId: "b3",
        label: "here",
      },
      {
        type: "thinking_level_change",
        id: "b11",
        parentId: "b10",
        timestamp: "2026-01-01T00:01:05.000Z",
        thinkingLevel: "xhigh",
      },
      { type: "future_entry", id: "b12", parentId: "b11", timestamp: "2026-01-01T00:01:06.000Z" },
      user("b13", "b12", "new question"),
    );
    const imported = await read(file);
    const texts = imported.state.messages.map((message) =>
      message.content.map((part) => (part.type === "text" ? part.text : part.type)).join(""),
    );
    expect(texts[0]).toContain("<summary>\nThey talked.\n</summary>");
    expect(texts.slice(1, 3)).toEqual(["kept question", "kept answer"]);
    expect(texts[3]).toContain("A detour.");
    expect(texts[4]).toBe("A note from an extension");
    expect(texts[5]).toContain("Ran `ls`");
    expect(texts[5]).toContain("exited with code 1");
    expect(texts[6]).toBe("new question");
    expect(texts.join()).not.toContain("old answer");
    expect(imported.state.thinking).toBe("high");
    expect(imported.warnings).toEqual([{ line: 13, message: expect.stringContaining("future_entry") }]);
    expect(toPi(imported.state)).toBe(file);
  });
});
