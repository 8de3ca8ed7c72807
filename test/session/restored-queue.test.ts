/**
 * What a restored state may make a session do: a restored queue is held, never run by itself (an
 * imported state must not make a server spend money unasked), stays in the export until drained, and
 * the run's totals are in the session before anyone hears the run ended.
 */
import { describe, expect, it } from "vitest";
import { createAgentSession, type SessionState } from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { says } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

const base = { model: "anthropic/claude-sonnet-4-5" as const, apiKey: "k" };

async function stateWithQueue(count: number): Promise<SessionState> {
  const session = okValue(await createAgentSession(base));
  const state = session.export();
  for (let index = 0; index < count; index++) {
    state.queue.push({ id: `q${index}`, content: [{ type: "text", text: `hidden ${index}` }], queuedAt: 1 });
  }
  return JSON.parse(JSON.stringify(state));
}

describe("a restored queue", () => {
  it("is not run: the next prompt runs alone, and exactly one request is sent", async () => {
    const model = createScriptedModel({ script: [says("one"), says("two"), says("three")] });
    const restored = okValue(
      await createAgentSession({
        ...base,
        fetch: model.fetch,
        restore: await stateWithQueue(50),
      }),
    );
    const result = await restored.chat("mine");
    expect(result.ok && result.value.text).toBe("one");
    expect(model.requests).toHaveLength(1);
    expect(JSON.stringify(model.requests[0]?.body)).not.toContain("hidden");
  });

  it("stays in the export, and drainQueue hands it to the caller", async () => {
    const model = createScriptedModel({ script: [says("one")] });
    const restored = okValue(
      await createAgentSession({
        ...base,
        fetch: model.fetch,
        restore: await stateWithQueue(3),
      }),
    );
    await restored.chat("mine");
    expect(restored.export().queue.map((prompt) => prompt.id)).toEqual(["q0", "q1", "q2"]);
    expect(restored.snapshot().queued).toBe(3);
    expect(restored.drainQueue().map((prompt) => prompt.id)).toEqual(["q0", "q1", "q2"]);
    expect(restored.export().queue).toEqual([]);
  });
});

describe("a run's totals", () => {
  it("are in the export when run-end is heard: turns, usage and updatedAt", async () => {
    const model = createScriptedModel({ script: [says("hello")] });
    const old = { ...(await stateWithQueue(0)), createdAt: 1, updatedAt: 1 };
    const session = okValue(await createAgentSession({ ...base, fetch: model.fetch, restore: old }));
    let atRunEnd: SessionState | undefined;
    const run = session.stream("hi");
    for await (const event of run) if (event.type === "run-end") atRunEnd = session.export();
    await run.result;
    expect(atRunEnd?.turns).toBe(1);
    expect(atRunEnd?.usage.output).toBeGreaterThan(0);
    expect(atRunEnd?.updatedAt).toBeGreaterThan(1);
    expect(session.export().turns).toBe(1); // counted once, not again when the run settles
    expect(session.export().usage).toEqual(atRunEnd?.usage);
  });
});
