/**
 * The code for tools, hooks and approvals loads on first need (a dynamic import: a browser program
 * whose runs have none never downloads it). A run without tools or hooks never asks for it; a run that
 * needs it and cannot load it (a chunk the browser could not fetch) ends with a typed error, its
 * conversation still consistent and its pause kept, while hooks whose failure policy is open let it go
 * on; an abort does not wait for a stalled load; the next run loads it again.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { SessionState } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, expectConsistent, says } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

let failLoad = true;
/** Loads asked for since the page opened. */
let loads = 0;
/** While set, a load waits for it (a download that stalls). */
let stall: Promise<void> | undefined;

/** Fresh modules (a page that has not loaded the machinery), whose load fails while `failLoad`. */
function newPage(): void {
  vi.resetModules();
  loads = 0;
  vi.doMock("../../src/agent/tool-machinery.ts", async (importOriginal) => {
    loads++;
    await stall;
    if (failLoad) throw new TypeError("Failed to fetch dynamically imported module: tool-machinery.js");
    return importOriginal();
  });
}

beforeEach(() => {
  failLoad = true;
  stall = undefined;
  newPage();
});

/** A download that stalls until the returned function is called. */
function stallLoads(): () => void {
  let release = (): void => {};
  stall = new Promise((resolve) => {
    release = resolve;
  });
  return release;
}

/** The package as a page that has not loaded the machinery yet gets it. */
const fresh = () => import("../../src/index.ts");

/** A tool (defined by the current page's package) that records whom it ran for. */
async function recordingTool(name: string, needsApproval = false) {
  const { defineTool } = await fresh();
  const ran: string[] = [];
  const tool = defineTool({
    name,
    description: `Sends to someone (${name})`,
    input: z.object({ to: z.string() }),
    needsApproval,
    execute: ({ to }) => {
      ran.push(to);
      return `${name}: ${to}`;
    },
  });
  return { tool, ran };
}

function options(script: ScriptedTurn[]) {
  const model = createScriptedModel({ script });
  return {
    model,
    options: {
      model: "anthropic/claude-sonnet-4-5" as const,
      apiKey: "k",
      fetch: model.fetch,
      retry: { maxRetries: 0 },
    },
  };
}

/** The state of a session paused on a "send" to ada that needs approval, made by a page that loads the code. */
async function pausedState(): Promise<SessionState> {
  failLoad = false;
  const { createAgentSession } = await fresh();
  const send = await recordingTool("send", true);
  const { options: base } = options([calls(["send", { to: "ada" }])]);
  const session = okValue(await createAgentSession({ ...base, tools: [send.tool] }));
  const result = await session.chat("tell ada");
  expect(result.ok && result.value.stopReason).toBe("approval");
  return JSON.parse(JSON.stringify(session.export())) as SessionState;
}

describe("the tool machinery, loaded on first need", () => {
  it("a run with neither tools nor hooks never needs it", async () => {
    const { runAgent } = await fresh();
    const { model, options: base } = options([says("Hello")]);
    const result = await runAgent({ ...base, prompt: "hi" });
    expect(result.ok && result.value.text).toBe("Hello");
    expect(model.requests).toHaveLength(1);
    expect(loads).toBe(0);
  });

  it("a tool call it cannot load for ends the run with a typed error; every call still has a result", async () => {
    const { runAgent } = await fresh();
    const echo = await recordingTool("echo");
    const { model, options: base } = options([calls(["echo", { to: "a" }]), says("done")]);
    const result = await runAgent({ ...base, prompt: "go", tools: [echo.tool] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error._tag).toBe("RequestError");
    expect(result.error.cause).toBeDefined();
    expect(result.partial?.stopReason).toBe("error");
    const messages = result.partial?.messages ?? [];
    expectConsistent(messages);
    expect(messages.at(-1)).toMatchObject({
      role: "tool_result",
      content: [{ isError: true, output: expect.stringContaining("the tool code could not be loaded") }],
    });
    expect(echo.ran).toEqual([]);
    expect(model.requests).toHaveLength(1);

    failLoad = false;
    const { model: next, options: again } = options([calls(["echo", { to: "b" }]), says("done")]);
    const retried = await runAgent({ ...again, prompt: "go", tools: [echo.tool] });
    expect(retried.ok && retried.value.text).toBe("done");
    expect(echo.ran).toEqual(["b"]);
    expect(next.requests).toHaveLength(2);
  });

  it("hooks it cannot load for fail under their policy: open ones let the run go on, a closed one ends it", async () => {
    const { runAgent, runAgentStream } = await fresh();
    const { options: open } = options([says("hi")]);
    const run = runAgentStream({ ...open, prompt: "go", hooks: { stop: function audit() {} } });
    const errors = [];
    for await (const event of run) if (event.type === "hook-error") errors.push(event);
    const answered = await run.result;
    expect(answered.ok && answered.value.text).toBe("hi");
    expect(errors).toMatchObject([
      { event: "stop", hook: "audit", policy: "open", error: { _tag: "HookError", code: "HOOK_FAILED" } },
    ]);

    const { model, options: closed } = options([says("never")]);
    const result = await runAgent({
      ...closed,
      prompt: "go",
      hooks: { userPromptSubmit: { name: "screen", handler: () => ({}), onFailure: "closed" } },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      _tag: "HookError",
      code: "HOOK_FAILED",
      details: { hook: "screen", event: "userPromptSubmit" },
    });
    expect(model.requests).toHaveLength(0);
  });

  it("an abort while the download stalls ends the run at once, every call answered", async () => {
    const { runAgentStream } = await fresh();
    const release = stallLoads();
    const echo = await recordingTool("echo");
    const { options: base } = options([calls(["echo", { to: "a" }]), says("done")]);
    const run = runAgentStream({ ...base, prompt: "go", tools: [echo.tool] });
    // The model turn is over: the loop now waits for the stalled download of the tool code.
    for await (const event of run) if (event.type === "turn-end") run.abort();
    const result = await run.result;
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("ABORTED");
    expectConsistent(result.partial?.messages ?? []);
    expect(echo.ran).toEqual([]);
    release();
  });

  it("a resume it cannot load for keeps the pause; the next resume runs the approved call", async () => {
    const paused = await pausedState();

    // Another page that has not loaded the machinery, and cannot yet.
    newPage();
    failLoad = true;
    const { createAgentSession } = await fresh();
    const send = await recordingTool("send", true);
    const sent = send.ran;
    const { model, options: base } = options([says("sent")]);
    const session = okValue(await createAgentSession({ ...base, tools: [send.tool], restore: paused }));
    const toolCallId = paused.pendingApprovals[0]?.toolCallId as string;

    const failed = await session.resume([{ toolCallId, approved: true }]);
    expect(failed.ok || failed.error._tag).toBe("RequestError");
    expect(sent).toEqual([]);
    expect(model.requests).toHaveLength(0);
    expect(session.export().pendingApprovals.map((approval) => approval.toolCallId)).toEqual([toolCallId]);

    failLoad = false;
    const resumed = await session.resume([{ toolCallId, approved: true }]);
    expect(resumed.ok && [resumed.value.stopReason, resumed.value.text]).toEqual(["complete", "sent"]);
    expect(sent).toEqual(["ada"]);
    expectConsistent(session.export().messages);
  });

  it("a resume aborted while the download stalls keeps the pause", async () => {
    const paused = await pausedState();
    newPage();
    failLoad = false;
    const release = stallLoads();
    const { createAgentSession } = await fresh();
    const send = await recordingTool("send", true);
    const { model, options: base } = options([says("sent")]);
    const session = okValue(await createAgentSession({ ...base, tools: [send.tool], restore: paused }));
    const toolCallId = paused.pendingApprovals[0]?.toolCallId as string;
    const controller = new AbortController();
    const resuming = session.resume([{ toolCallId, approved: true }], { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const aborted = await resuming;
    expect(aborted.ok || aborted.error.code).toBe("ABORTED");
    expect(send.ran).toEqual([]);
    expect(session.export().pendingApprovals.map((approval) => approval.toolCallId)).toEqual([toolCallId]);
    release();
    const resumed = await session.resume([{ toolCallId, approved: true }]);
    expect(resumed.ok && resumed.value.text).toBe("sent");
    expect(send.ran).toEqual(["ada"]);
    expect(model.requests).toHaveLength(1);
  });
});
