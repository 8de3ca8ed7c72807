/**
 * The incremental writers: a session written turn by turn — each request with a new writer made from
 * the last one's cursor, an approval pause between a call and its result — gives the same file as
 * writing the whole session at once, and that file reads back as the session's conversation.
 */
import { describe, expect, it } from "vitest";
import {
  type ClaudeCodeCursor,
  claudeCodeWriter,
  fromClaudeCode,
  fromPi,
  type PiCursor,
  piWriter,
  toClaudeCode,
  toPi,
} from "../../src/formats/index.ts";
import {
  type AgentSession,
  createAgentSession,
  defineTool,
  type Message,
  type SessionState,
} from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { calls, says } from "../support/agent.ts";
import { fixtureText } from "../support/fixtures.ts";
import { okValue } from "../support/results.ts";

const remove = defineTool({
  name: "remove",
  description: "Deletes a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
  needsApproval: true,
  execute: (args) => `removed ${String(args.path)}`,
});
const list = defineTool({
  name: "list",
  description: "Lists files",
  inputSchema: { type: "object", properties: {} },
  execute: () => "a.txt b.txt",
});

/** A session over three requests: a tool turn, a pause for approval, the resume; new messages after each. */
async function sessionInRequests(): Promise<{ steps: Message[][]; state: SessionState }> {
  const model = createScriptedModel({
    script: [calls(["list", {}]), says("Two files."), calls(["remove", { path: "a.txt" }]), says("Removed.")],
  });
  const options = {
    model: "anthropic/claude-sonnet-4-5" as const,
    apiKey: "k",
    fetch: model.fetch,
    tools: [list, remove],
  };
  let state: SessionState | undefined;
  const steps: Message[][] = [];
  const record = async (step: (session: AgentSession) => Promise<unknown>) => {
    const session = okValue(await createAgentSession(state ? { ...options, restore: state } : options));
    const before = state?.messages.length ?? 0;
    await step(session);
    state = JSON.parse(JSON.stringify(session.export())) as SessionState;
    steps.push(state.messages.slice(before));
  };
  await record((session) => session.chat("What is here?"));
  await record((session) => session.chat("Delete a.txt"));
  const pending = state?.pendingApprovals[0]?.toolCallId as string;
  await record((session) => session.resume([{ toolCallId: pending, approved: true }]));
  return { steps, state: state as SessionState };
}

describe("claudeCodeWriter", () => {
  it("turn by turn, each request with a new writer from the cursor, equals writing the session at once", async () => {
    const { steps, state } = await sessionInRequests();
    let file = "";
    let cursor: ClaudeCodeCursor | undefined;
    for (const step of steps) {
      const writer = claudeCodeWriter({ sessionId: state.sessionId, ...(cursor ? { cursor } : {}) });
      for (const message of step) writer.append(message);
      file += writer.flush();
      cursor = JSON.parse(JSON.stringify(writer.cursor));
    }
    expect(file).toBe(toClaudeCode(state));
    const read = await fromClaudeCode(file);
    expect(read.ok && read.value.warnings).toEqual([]);
    expect(read.ok && read.value.state.messages.map((message) => message.content)).toEqual(
      state.messages.map((message) => message.content),
    );
  });

  it("a result written after a pause is parented to its tool_use line", async () => {
    const { steps, state } = await sessionInRequests();
    const lines = toClaudeCode(state)
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    const use = lines.find((line) => line.message.content[0]?.name === "remove");
    const result = lines.find((line) => line.message.content[0]?.tool_use_id === use.message.content[0].id);
    expect(result.parentUuid).toBe(use.uuid);
    expect(result.sourceToolAssistantUUID).toBe(use.uuid);
    expect(steps[1]?.at(-1)?.role).toBe("assistant");
  });

  it("appending after close is a ConfigError", () => {
    const writer = claudeCodeWriter({ sessionId: "s" });
    writer.close();
    expect(() =>
      writer.append({ id: "u", role: "user", content: [{ type: "text", text: "hi" }], timestamp: 0 }),
    ).toThrow(expect.objectContaining({ _tag: "ConfigError", code: "CONFIG_INVALID" }));
  });
});

describe("piWriter", () => {
  it("turn by turn from cursors equals writing the session at once, and reads back the same", async () => {
    const { steps, state } = await sessionInRequests();
    let file = "";
    let cursor: PiCursor | undefined;
    for (const step of steps) {
      const writer = piWriter({
        sessionId: state.sessionId,
        createdAt: state.createdAt,
        provider: state.provider,
        model: state.model,
        ...(cursor ? { cursor } : {}),
      });
      for (const message of step) writer.append(message);
      file += writer.flush();
      cursor = JSON.parse(JSON.stringify(writer.cursor));
    }
    expect(file).toBe(toPi(state));
    const read = await fromPi(file);
    expect(read.ok && read.value.warnings).toEqual([]);
    expect(read.ok && read.value.state.messages.map((message) => message.content)).toEqual(
      state.messages.map((message) => message.content),
    );
    expect(read.ok && read.value.state.usage).toEqual(state.usage);
  });

  it("flush hands out each line once", () => {
    const writer = piWriter({ sessionId: "s", createdAt: 0 });
    const header = writer.flush();
    expect(JSON.parse(header)).toMatchObject({ type: "session", version: 3, id: "s" });
    writer.append({ id: "u", role: "user", content: [{ type: "text", text: "hi" }], timestamp: 0 });
    const line = writer.flush();
    expect(JSON.parse(line)).toMatchObject({ type: "message", parentId: null, message: { role: "user" } });
    expect(writer.flush()).toBe("");
    expect(writer.close()).toBe("");
  });
});

describe("what the writers refuse", () => {
  const refusal = (write: () => unknown) => {
    try {
      write();
    } catch (error) {
      return error as { _tag?: string; code?: string; path?: string };
    }
    return undefined;
  };
  const hello: Message = { id: "m1", role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 };

  it("a message that is not one, a missing session id or a cursor of the wrong shape is a ConfigError naming it", () => {
    const made = [
      () => claudeCodeWriter({ sessionId: "s" }).append({} as Message),
      () => piWriter({ sessionId: "s" }).append(null as unknown as Message),
      () => claudeCodeWriter({} as { sessionId: string }),
      () => claudeCodeWriter({ sessionId: "s", cursor: { bogus: 1 } as unknown as ClaudeCodeCursor }),
      () => piWriter({ sessionId: "s", cursor: { version: 7, parentId: null } }),
      () => toClaudeCode({} as SessionState),
      () => toPi({ sessionId: "s", messages: [] } as unknown as SessionState),
    ].map(refusal);
    expect(made.map((error) => [error?._tag, error?.code, error?.path])).toEqual([
      ["ConfigError", "CONFIG_INVALID", "message.role"],
      ["ConfigError", "CONFIG_INVALID", "message"],
      ["ConfigError", "CONFIG_INVALID", "sessionId"],
      ["ConfigError", "CONFIG_INVALID", "cursor.parentUuid"],
      ["ConfigError", "CONFIG_INVALID", "cursor.version"],
      ["ConfigError", "CONFIG_INVALID", "state"],
      ["ConfigError", "CONFIG_INVALID", "metadata"],
    ]);
  });

  it("a refused message writes nothing, and the writer goes on", () => {
    const writer = piWriter({ sessionId: "s", cursor: { version: 3, parentId: null } });
    expect(refusal(() => writer.append({ role: "user" } as Message))).toBeDefined();
    expect(writer.flush()).toBe("");
    writer.append(hello);
    expect(writer.flush().split("\n")).toHaveLength(2);
  });

  it("lines kept under another format's name are not written back as that format", async () => {
    const read = await fromClaudeCode(fixtureText("sessions/claude-code-short.jsonl"));
    if (!read.ok) throw read.error;
    const state = read.value.state;
    const mislabelled = {
      ...state,
      metadata: { ...state.metadata, transcript: { ...(state.metadata.transcript as object), format: "pi" } },
    } as SessionState;
    const pi = toPi(mislabelled);
    expect(JSON.parse(pi.slice(0, pi.indexOf("\n")))).toMatchObject({ type: "session", version: 3 });
  });
});
