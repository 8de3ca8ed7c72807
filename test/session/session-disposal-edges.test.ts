/**
 * How a session stops (session-disposal.ts): the reason a running tool's signal carries after
 * `abort()` (the caller's, or a DOMException AbortError saying the session was aborted) and after
 * `close()` (one saying it was closed); and `sessionEnd` fires on close only for a session that ran.
 */
import { describe, expect, it } from "vitest";
import { type AgentSession, createAgentSession, defineTool, uncheckedModel } from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { calls, says } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

const MODEL = uncheckedModel("anthropic/claude-sonnet-4-5");

/** A session whose model calls a tool that waits for its signal to abort, and what that signal said. */
async function waiting() {
  let started: () => void = () => {};
  const hasStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  const reasons: unknown[] = [];
  const tool = defineTool({
    name: "wait",
    description: "Waits to be aborted",
    inputSchema: { type: "object" },
    execute: (_args, { signal }) =>
      new Promise<string>((resolve) => {
        signal.addEventListener("abort", () => {
          reasons.push(signal.reason);
          resolve("stopped");
        });
        started();
      }),
  });
  const model = createScriptedModel({ script: [calls(["wait", {}]), says("done")] });
  const session = okValue(
    await createAgentSession({ model: MODEL, apiKey: "k", fetch: model.fetch, tools: [tool] }),
  );
  const run = session.chat("go");
  await hasStarted;
  return { session, run, reasons };
}

describe("the reason a running tool's signal carries", () => {
  it("abort() without a reason: a DOMException AbortError saying the session was aborted", async () => {
    const { session, run, reasons } = await waiting();
    session.abort();
    await run;
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toBeInstanceOf(DOMException);
    expect(reasons[0]).toMatchObject({ name: "AbortError", message: "The session was aborted" });
  });

  it("abort(reason): the caller's reason", async () => {
    const { session, run, reasons } = await waiting();
    const reason = new Error("the user left");
    session.abort(reason);
    await run;
    expect(reasons).toEqual([reason]);
  });

  it("close(): a DOMException AbortError saying the session was closed", async () => {
    const { session, run, reasons } = await waiting();
    await session.close();
    await run;
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatchObject({ name: "AbortError", message: "The session was closed" });
  });
});

describe("sessionEnd on close", () => {
  async function session(ends: string[]): Promise<AgentSession> {
    const model = createScriptedModel({ script: [says("hi")] });
    return okValue(
      await createAgentSession({
        model: MODEL,
        apiKey: "k",
        fetch: model.fetch,
        hooks: { sessionEnd: ({ stopReason }) => void ends.push(stopReason) },
      }),
    );
  }

  it("does not fire for a session that never ran", async () => {
    const ends: string[] = [];
    await (await session(ends)).close();
    expect(ends).toEqual([]);
  });

  it("fires once for a session that ran", async () => {
    const ends: string[] = [];
    const ran = await session(ends);
    okValue(await ran.chat("hello"));
    await ran.close();
    await ran.close();
    expect(ends).toEqual(["complete"]);
  });
});
