/**
 * A session's runs one at a time (session-runs.ts), at their edges: an `id` already taken (by a
 * message, a stored branch's message or a queued prompt) is refused; the words of the refusal while
 * paused; a follow-up prompt sent during a resumed run, or with its own `output`, is queued; a
 * steered prompt whose signal aborts (before, or after another was steered) is never sent and takes
 * no other with it; a queued prompt whose signal aborts leaves the queue at once; a follow-up queued
 * behind a run that pauses waits for the resume; a prompt whose signal already aborted, sent to an
 * idle session, is a run aborted at once; steered prompts left when a run ends run next, in
 * the order they were sent.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  type AgentRunResult,
  type AgentSession,
  createAgentSession,
  defineTool,
  type SessionOptions,
  uncheckedModel,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, gate, says, sendNeedingApproval } from "../support/agent.ts";
import { countListeners } from "../support/leftovers.ts";
import { failure, okValue } from "../support/results.ts";

const MODEL = uncheckedModel("anthropic/claude-sonnet-4-5");

async function start(script: ScriptedTurn[], extra: Partial<SessionOptions> = {}) {
  const model = createScriptedModel({ script });
  const session = okValue(
    await createAgentSession({ model: MODEL, apiKey: "k", fetch: model.fetch, ...extra }),
  );
  return { model, session };
}

/** The texts of the user messages request `index` sent. */
function userTexts(model: ReturnType<typeof createScriptedModel>, index: number): string[] {
  const body = model.requests[index]?.body as { messages: Array<{ role: string; content: unknown }> };
  return body.messages
    .filter((message) => message.role === "user")
    .flatMap((message) =>
      typeof message.content === "string"
        ? [message.content]
        : (message.content as Array<{ type: string; text?: string }>).flatMap((part) =>
            part.type === "text" && part.text !== undefined ? [part.text] : [],
          ),
    );
}

describe("an id already taken", () => {
  it("by a message of the conversation is refused, saying so", async () => {
    const { session } = await start([says("one"), says("two")]);
    okValue(await session.chat("one", { id: "u1" }));
    const error = failure(await session.chat("two", { id: "u1" }));
    expect(error).toMatchObject({ code: "CONFIG_INVALID", path: "id" });
    expect(error.message).toBe("id u1 is already a message's id in this session: each message needs its own");
  });

  it("by a message of a stored branch is refused", async () => {
    const { session } = await start([says("one"), says("two"), says("three"), says("four")]);
    okValue(await session.chat("one", { id: "u1" }));
    okValue(await session.chat("two", { id: "u2" }));
    const firstReply = session.export().messages[1]?.id as string;
    okValue(await session.chat("three", { id: "u3", parentId: firstReply }));
    expect(session.snapshot().branches).toBe(2);
    expect(session.export().messages.map((message) => message.id)).not.toContain("u2");
    expect(failure(await session.chat("again", { id: "u2" }))).toMatchObject({ path: "id" });
    okValue(await session.chat("four", { id: "u4" }));
  });

  it("by a prompt queued behind the run is refused; another id is queued", async () => {
    const door = gate();
    const { session } = await start([calls(["gate", {}]), says("done"), says("q1"), says("q2")], {
      tools: [door.tool],
    });
    const running = session.chat("go");
    await door.hasStarted;
    const first = session.chat("first", { mode: "followUp", id: "q1" });
    const twice = session.chat("again", { mode: "followUp", id: "q1" });
    expect(session.snapshot().queued).toBe(1);
    expect(failure(await twice)).toMatchObject({ code: "CONFIG_INVALID", path: "id" });
    const second = session.chat("second", { mode: "followUp", id: "q2" });
    expect(session.snapshot().queued).toBe(2);
    door.release();
    okValue(await running);
    okValue(await first);
    okValue(await second);
  });
});

describe("while paused", () => {
  const send = sendNeedingApproval;

  it("a prompt is refused, naming every waiting call", async () => {
    const { session } = await start([calls(["send", { to: "a" }], ["send", { to: "b" }])], { tools: [send] });
    const paused = okValue(await session.chat("go"));
    const ids = (paused.pendingApprovals ?? []).map((approval) => approval.toolCallId);
    expect(ids).toHaveLength(2);
    const error = failure(await session.chat("more"));
    expect(error).toMatchObject({ code: "APPROVAL_PENDING", details: { toolCallIds: ids } });
    expect(error.message).toBe(
      `Tool calls wait for approval (${ids.join(", ")}): decide them with resume() before sending a prompt`,
    );
  });

  it("a follow-up sent during the resumed run is queued and runs after it", async () => {
    let session: AgentSession | undefined;
    let followUp: Promise<AgentRunResult> | undefined;
    const sendAndFollow = defineTool({
      name: "send",
      description: "Sends",
      input: z.object({ to: z.string() }),
      needsApproval: true,
      execute: () => {
        followUp = (session as AgentSession).chat("and then?", { mode: "followUp" });
        return "sent";
      },
    });
    const started = await start([calls(["send", { to: "a" }]), says("sent it"), says("then this")], {
      tools: [sendAndFollow],
    });
    session = started.session;
    const paused = okValue(await session.chat("go"));
    const toolCallId = paused.pendingApprovals?.[0]?.toolCallId as string;
    expect(okValue(await session.resume([{ toolCallId, approved: true }])).text).toBe("sent it");
    expect(okValue(await (followUp as Promise<AgentRunResult>)).text).toBe("then this");
  });

  it("a follow-up queued behind a run that pauses waits for the resume", async () => {
    const door = gate();
    const { model, session } = await start(
      [calls(["gate", {}], ["send", { to: "a" }]), says("sent"), says("followed")],
      { tools: [door.tool, send] },
    );
    const running = session.chat("go");
    await door.hasStarted;
    const followUp = session.chat("later", { mode: "followUp" });
    door.release();
    const paused = okValue(await running);
    expect(paused.stopReason).toBe("approval");
    expect(model.requests).toHaveLength(1);
    expect(session.snapshot()).toMatchObject({ queued: 1, status: "idle" });
    const toolCallId = paused.pendingApprovals?.[0]?.toolCallId as string;
    expect(okValue(await session.resume([{ toolCallId, approved: true }])).text).toBe("sent");
    expect(okValue(await followUp).text).toBe("followed");
    expect(userTexts(model, 2).at(-1)).toBe("later");
  });
});

describe("output during a run", () => {
  it("is refused for a steered prompt, saying why, and queued with a follow-up", async () => {
    const door = gate();
    const { session } = await start([calls(["gate", {}]), says("done")], { tools: [door.tool] });
    const running = session.chat("go");
    await door.hasStarted;
    const output = z.object({ answer: z.string() });
    const steered = failure(await session.chat("steer", { mode: "steer", output }));
    expect(steered).toMatchObject({ code: "CONFIG_INVALID", path: "output" });
    expect(steered.message).toBe(
      "output cannot be given to a steered prompt: it joins the run in flight, whose output is set",
    );
    const queued = session.chat("later", { mode: "followUp", output });
    expect(session.snapshot().queued).toBe(1);
    expect(session.drainQueue().map((prompt) => prompt.content)).toEqual([[{ type: "text", text: "later" }]]);
    expect(failure(await queued)).toMatchObject({ code: "ABORTED" });
    door.release();
    okValue(await running);
  });
});

describe("a steered prompt whose signal aborts", () => {
  it("is never sent, and takes no other steered prompt with it", async () => {
    const first = gate("first");
    const second = gate("second");
    const { model, session } = await start([calls(["first", {}]), calls(["second", {}]), says("done")], {
      tools: [first.tool, second.tool],
    });
    const running = session.chat("go");
    await first.hasStarted;
    const kept = new AbortController();
    const dropped = new AbortController();
    void session.chat("s0", { mode: "steer", signal: kept.signal });
    void session.chat("s1", { mode: "steer", signal: dropped.signal });
    void session.chat("s-already", { mode: "steer", signal: AbortSignal.abort() });
    dropped.abort();
    first.release();
    await second.hasStarted;
    // s0 went with the second request; a prompt steered now waits for the third.
    void session.chat("s2", { mode: "steer" });
    // s0's signal aborting after it was sent drops nothing else.
    kept.abort();
    second.release();
    okValue(await running);
    expect(userTexts(model, 1)).toEqual(["go", "s0"]);
    expect(userTexts(model, 2)).toEqual(["go", "s0", "s2"]);
  });
});

describe("a prompt whose signal already aborted, sent to an idle session", () => {
  it("is a run aborted at once (it never waited in a queue), and nothing is sent", async () => {
    const { model, session } = await start([says("never")]);
    const error = failure(await session.chat("go", { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ code: "ABORTED", message: "The run was aborted" });
    expect(model.requests).toHaveLength(0);
  });

  // Without hooks the prompt used to stay in the conversation with no reply, so the next prompt
  // followed it as a second user message; with a hook it was never added.
  it.each([
    ["without hooks", {}],
    ["with a sessionStart hook", { hooks: { sessionStart: [() => undefined] } }],
    ["with a userPromptSubmit hook", { hooks: { userPromptSubmit: [() => undefined] } }],
  ] as const)("%s, leaves the conversation as it was", async (_, extra) => {
    const { model, session } = await start([says("hi")], extra as Partial<SessionOptions>);
    failure(await session.chat("never sent", { signal: AbortSignal.abort() }));
    expect(session.export().messages).toEqual([]);
    okValue(await session.chat("again"));
    expect(userTexts(model, 0)).toEqual(["again"]);
    expect(session.export().messages.map((message) => message.role)).toEqual(["user", "assistant"]);
  });
});

describe("a queued prompt whose signal aborts", () => {
  it("leaves the queue at once, ABORTED, and never reaches the conversation", async () => {
    const door = gate();
    const { model, session } = await start([calls(["gate", {}]), says("done"), says("q0")], {
      tools: [door.tool],
    });
    const running = session.chat("go");
    await door.hasStarted;
    const signal = new AbortController();
    const q0 = session.chat("q0", { mode: "followUp" });
    const q1 = session.chat("q1", { mode: "followUp", signal: signal.signal });
    signal.abort();
    expect(session.snapshot().queued).toBe(1);
    const error = failure(await q1);
    expect(error).toMatchObject({ code: "ABORTED" });
    expect(error.message).toBe("The prompt's signal aborted while it waited in the queue; it was not sent");
    door.release();
    okValue(await running);
    okValue(await q0);
    expect(model.requests).toHaveLength(3);
    expect(JSON.stringify(session.export().messages)).not.toContain('"q1"');
  });
});

describe("a long-lived signal given with queued and steered prompts", () => {
  it("keeps no listener once the prompts have run: a page's one signal for every prompt does not grow", async () => {
    const door = gate();
    const { session } = await start([calls(["gate", {}]), says("done"), says("q0"), says("q1")], {
      tools: [door.tool],
    });
    const page = new AbortController();
    const listeners = countListeners(page.signal);
    const running = session.chat("go");
    await door.hasStarted;
    const steered = session.chat("s0", { mode: "steer", signal: page.signal });
    const q0 = session.chat("q0", { mode: "followUp", signal: page.signal });
    const q1 = session.chat("q1", { mode: "followUp", signal: page.signal });
    expect(listeners.added).toBeGreaterThan(0);
    door.release();
    for (const run of [running, steered, q0, q1]) okValue(await run);
    expect(listeners.live).toBe(0);
  });
});

describe("steered prompts left when the run ends", () => {
  it("run next, in the order they were sent", async () => {
    const { model, session } = await start(
      [calls(["none", {}]), says("to s1"), says("to s2"), says("to the last")],
      { maxTurns: 1 },
    );
    const running = session.chat("go");
    // Both join the run in flight, which ends (at its turn limit) before any safe point.
    const s1 = session.chat("s1", { mode: "steer" });
    const s2 = session.chat("s2", { mode: "steer" });
    expect(failure(await running)).toMatchObject({ code: "MAX_TURNS" });
    expect(await s1).toBe(await running);
    expect(await s2).toBe(await running);
    // Queued behind what runs now: once it ends, the steered prompts have run.
    expect(okValue(await session.chat("last", { mode: "followUp" })).text).toBe("to the last");
    expect(model.requests).toHaveLength(4);
    expect([1, 2, 3].map((index) => userTexts(model, index).at(-1))).toEqual(["s1", "s2", "last"]);
  });
});
