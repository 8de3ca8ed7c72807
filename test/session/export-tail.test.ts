/**
 * exportTail: what export() gives with only the messages from an index on, so a store can save a turn
 * without the whole conversation; joinStateTail puts the saved messages and a tail back together.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type AnyTool,
  createAgentSession,
  defineTool,
  joinStateTail,
  type Message,
  type SessionState,
  type SessionStateTail,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, gate, says } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

async function session(script: ScriptedTurn[], tools: AnyTool[] = [gate().tool]) {
  const model = createScriptedModel({ script });
  return okValue(
    await createAgentSession({
      model: "anthropic/claude-sonnet-5-5",
      apiKey: "k",
      fetch: model.fetch,
      tools,
    }),
  );
}

/** The tail without its own fields: what export() gives beside its messages. */
function headOf(tail: SessionStateTail) {
  const { messagesFrom: _, messageCount: __, previousId: ___, messages: ____, ...head } = tail;
  return head;
}

function headOfState(state: SessionState) {
  const { messages: _, ...head } = state;
  return head;
}

describe("exportTail", () => {
  it("gives export()'s state with the messages from `from` on, and the id before them", async () => {
    const s = await session([says("one"), says("two")]);
    await s.chat("first");
    const saved = s.export().messages;
    await s.chat("second");
    const tail = s.exportTail(saved.length);
    const whole = s.export();
    expect(headOf(tail)).toEqual(headOfState(whole));
    expect(tail.messagesFrom).toBe(2);
    expect(tail.messageCount).toBe(4);
    expect(tail.previousId).toBe(saved[1]?.id);
    expect(tail.messages).toEqual(whole.messages.slice(2));
    expect(joinStateTail(saved, tail)).toEqual(whole);
  });

  it("takes `from` beyond the end as the end, and a negative or odd one as 0", async () => {
    const s = await session([says("one")]);
    await s.chat("first");
    expect(s.exportTail(99)).toMatchObject({ messagesFrom: 2, messageCount: 2, messages: [] });
    expect(s.exportTail(-3)).toMatchObject({ messagesFrom: 0, messageCount: 2 });
    expect(s.exportTail(Number.NaN).messagesFrom).toBe(0);
    expect(s.exportTail(0).previousId).toBeUndefined();
    expect(s.exportTail(1.7).messagesFrom).toBe(1);
  });

  it("during a run leaves out the assistant message whose tool calls still run, as export() does", async () => {
    const { tool, hasStarted, release } = gate();
    const s = await session([calls(["gate", {}]), says("done")], [tool]);
    const run = s.chat("go");
    await hasStarted;
    const tail = s.exportTail(0);
    expect(tail.messages.map((message) => message.role)).toEqual(["user"]);
    expect(tail.messageCount).toBe(1);
    expect(tail).toEqual({ ...tail, ...s.exportTail(0) });
    expect(headOf(tail)).toEqual(headOfState(s.export()));
    release();
    await run;
    expect(s.exportTail(1).messages.map((message) => message.role)).toEqual([
      "assistant",
      "tool_result",
      "assistant",
    ]);
  });

  it("keeps a paused call's assistant message and the pending approvals", async () => {
    const send = defineTool({
      name: "send",
      description: "Sends",
      input: z.object({ to: z.string() }),
      needsApproval: true,
      execute: () => "sent",
    });
    const s = await session([calls(["send", { to: "ann" }])], [send]);
    const paused = await s.chat("send it");
    expect(paused.ok && paused.value.stopReason).toBe("approval");
    const tail = s.exportTail(1);
    expect(tail.messages.map((message) => message.role)).toEqual(["assistant"]);
    expect(tail.pendingApprovals).toHaveLength(1);
    expect(joinStateTail(s.export().messages.slice(0, 1), tail)).toEqual(s.export());
  });

  it("leaves out the metadata when asked (it is fixed at creation, so a store saves it once)", async () => {
    const model = createScriptedModel({ script: [says("one")] });
    const s = okValue(
      await createAgentSession({
        model: "anthropic/claude-sonnet-5-5",
        apiKey: "k",
        fetch: model.fetch,
        metadata: { transcript: ["line"] },
      }),
    );
    await s.chat("first");
    const without = s.exportTail(1, { metadata: false });
    expect("metadata" in without).toBe(false);
    expect(s.exportTail(1).metadata).toEqual({ transcript: ["line"] });
    expect({ ...without, metadata: { transcript: ["line"] } }).toEqual(s.exportTail(1));
  });

  it("is a copy: changing it changes nothing in the session", async () => {
    const s = await session([says("one")]);
    await s.chat("first");
    const tail = s.exportTail(0);
    (tail.messages[0] as Message & { id: string }).id = "changed";
    tail.metadata.x = 1;
    expect(s.export().messages[0]?.id).not.toBe("changed");
    expect(s.export().metadata).toEqual({});
  });
});

describe("joinStateTail", () => {
  it("refuses saved messages that do not line up with the tail (length or last id)", async () => {
    const s = await session([says("one"), says("two")]);
    await s.chat("first");
    const saved = s.export().messages;
    await s.chat("second");
    const tail = s.exportTail(2);
    expect(() => joinStateTail(saved.slice(0, 1), tail)).toThrow(
      expect.objectContaining({ _tag: "ConfigError", code: "CONFIG_INVALID", path: "messagesFrom" }),
    );
    const other = [saved[0] as Message, { ...(saved[1] as Message), id: "elsewhere" }];
    expect(() => joinStateTail(other, tail)).toThrow(/after message/);
    expect(joinStateTail([], s.exportTail(0))).toEqual(s.export());
  });
});
