/**
 * What a session answers a call it does not run (session-refusals.ts, session-permissions.ts): a chat
 * on a closed session and one while a run is in flight fail with messages that say why and an empty
 * partial run; setPermissions during a run or without a policy is refused, naming `permissions`.
 */
import { describe, expect, it } from "vitest";
import { createAgentSession, type SessionOptions } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, gate, says } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

async function start(script: ScriptedTurn[], extra: Partial<SessionOptions> = {}) {
  const model = createScriptedModel({ script });
  return okValue(
    await createAgentSession({
      model: "anthropic/claude-sonnet-5-5",
      apiKey: "k",
      fetch: model.fetch,
      retry: { maxRetries: 0 },
      ...extra,
    }),
  );
}

describe("refused runs", () => {
  it("a chat on a closed session fails with SESSION_CLOSED and an empty partial run", async () => {
    const session = await start([says("never")]);
    await session.close();
    const run = await session.chat("hello");
    expect(run.ok).toBe(false);
    if (run.ok) return;
    expect(run.error).toMatchObject({ code: "SESSION_CLOSED", message: "The session is closed" });
    expect(run.partial).toMatchObject({ text: "", toolCalls: [], turns: 0, stopReason: "error" });
  });

  it("a chat while a run is in flight says how to queue it", async () => {
    const { tool, hasStarted, release } = gate();
    const session = await start([calls(["gate", {}]), says("done")], { tools: [tool] });
    const first = session.chat("go");
    await hasStarted;
    const second = await session.chat("again");
    expect(!second.ok && second.error).toMatchObject({
      code: "SESSION_BUSY",
      message: 'A run is in flight: pass mode "steer" or "followUp", or wait for it',
    });
    release();
    expect((await first).ok).toBe(true);
    await session.close();
  });
});

describe("setPermissions refused", () => {
  it("during a run, saying when it can change", async () => {
    const { tool, hasStarted, release } = gate();
    const session = await start([calls(["gate", {}]), says("done")], { tools: [tool] });
    const run = session.chat("go");
    await hasStarted;
    expect(failure(await session.setPermissions({ mode: "bypass" }))).toMatchObject({
      code: "SESSION_BUSY",
      path: "permissions",
      message: "A run is in flight: change the permission policy between runs (when this run has ended)",
    });
    release();
    await run;
    await session.close();
  });

  it("without a policy, saying what it takes", async () => {
    const session = await start([]);
    expect(failure(await session.setPermissions(undefined as never))).toMatchObject({
      code: "CONFIG_INVALID",
      path: "permissions",
      message: "setPermissions needs a policy object ({ mode, allow, deny, acceptClasses })",
    });
  });
});
