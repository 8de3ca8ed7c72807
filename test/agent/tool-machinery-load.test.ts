/**
 * The code for tools, hooks and approvals loads on first need (a dynamic import: a browser program
 * whose runs have none never downloads it). A run without tools or hooks works when it cannot be
 * loaded at all; a run that needs it and cannot load it (a chunk the browser could not fetch) ends
 * with a typed error, its conversation still consistent and its pause kept; the next run loads it.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { SessionState } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, expectConsistent, says } from "../support/agent.ts";

let failLoad = true;

/** Fresh modules (a page that has not loaded the machinery), whose load fails while `failLoad`. */
function newPage(): void {
  vi.resetModules();
  vi.doMock("../../src/agent/tool-machinery.ts", async (importOriginal) => {
    if (failLoad) throw new TypeError("Failed to fetch dynamically imported module: tool-machinery.js");
    return importOriginal();
  });
}

beforeEach(() => {
  failLoad = true;
  newPage();
});

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
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      fetch: model.fetch,
      retry: { maxRetries: 0 },
    },
  };
}

describe("the tool machinery, loaded on first need", () => {
  it("a run with neither tools nor hooks never needs it", async () => {
    const { runAgent } = await fresh();
    const { model, options: base } = options([says("Hello")]);
    const result = await runAgent({ ...base, prompt: "hi" });
    expect(result.ok && result.value.text).toBe("Hello");
    expect(model.requests).toHaveLength(1);
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

  it("hooks it cannot load for end the run with a HookError before the prompt is sent", async () => {
    const { runAgent } = await fresh();
    const { model, options: base } = options([says("never")]);
    const result = await runAgent({ ...base, prompt: "go", hooks: { userPromptSubmit: () => ({}) } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      _tag: "HookError",
      code: "HOOK_FAILED",
      details: { event: "userPromptSubmit" },
    });
    expect(model.requests).toHaveLength(0);
  });

  it("a resume it cannot load for keeps the pause; the next resume runs the approved call", async () => {
    failLoad = false;
    const paused = await (async () => {
      const { createAgentSession } = await fresh();
      const send = await recordingTool("send", true);
      const { options: base } = options([calls(["send", { to: "ada" }])]);
      const session = await createAgentSession({ ...base, tools: [send.tool] });
      const result = await session.chat("tell ada");
      expect(result.ok && result.value.stopReason).toBe("approval");
      return JSON.parse(JSON.stringify(session.export())) as SessionState;
    })();

    // Another page that has not loaded the machinery, and cannot yet.
    newPage();
    failLoad = true;
    const { createAgentSession } = await fresh();
    const send = await recordingTool("send", true);
    const sent = send.ran;
    const { model, options: base } = options([says("sent")]);
    const session = await createAgentSession({ ...base, tools: [send.tool], restore: paused });
    const toolCallId = paused.pendingApprovals[0]?.toolCallId as string;

    const failed = await session.resume([{ toolCallId, approved: true }]);
    expect(failed.ok).toBe(false);
    expect(sent).toEqual([]);
    expect(model.requests).toHaveLength(0);
    expect(session.export().pendingApprovals.map((approval) => approval.toolCallId)).toEqual([toolCallId]);

    failLoad = false;
    const resumed = await session.resume([{ toolCallId, approved: true }]);
    expect(resumed.ok && [resumed.value.stopReason, resumed.value.text]).toEqual(["complete", "sent"]);
    expect(sent).toEqual(["ada"]);
    expectConsistent(session.export().messages);
  });
});
