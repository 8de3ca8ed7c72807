/**
 * When `resume` is refused before it looks at its decisions (session-resume.ts): on a closed
 * session (SESSION_CLOSED), while a run is in flight (SESSION_BUSY); and while a resume's decisions
 * are being checked, a prompt or a second resume is SESSION_BUSY, and the first resume goes on.
 */
import { describe, expect, it } from "vitest";
import { createAgentSession, uncheckedModel } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, gate, says, sendNeedingApproval } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

const MODEL = uncheckedModel("anthropic/claude-sonnet-4-5");

const send = sendNeedingApproval;

async function paused(script: ScriptedTurn[] = []) {
  const model = createScriptedModel({ script: [calls(["send", { to: "ada" }]), ...script] });
  const session = okValue(
    await createAgentSession({ model: MODEL, apiKey: "k", fetch: model.fetch, tools: [send] }),
  );
  const result = okValue(await session.chat("tell ada"));
  const toolCallId = result.pendingApprovals?.[0]?.toolCallId as string;
  return { model, session, toolCallId };
}

describe("a resume refused before its decisions are read", () => {
  it("on a closed session: SESSION_CLOSED", async () => {
    const { model, session, toolCallId } = await paused();
    await session.close();
    const error = failure(await session.resume([{ toolCallId, approved: true }]));
    expect(error).toMatchObject({ code: "SESSION_CLOSED" });
    // Closed comes first: decisions that would be refused are not even read.
    expect(failure(await session.resume([{ toolCallId: "nope", approved: true }]))).toMatchObject({
      code: "SESSION_CLOSED",
    });
    expect(model.requests).toHaveLength(1);
  });

  it("while a run is in flight: SESSION_BUSY", async () => {
    const { tool, hasStarted, release } = gate();
    const model = createScriptedModel({ script: [calls(["gate", {}]), says("done")] });
    const session = okValue(
      await createAgentSession({ model: MODEL, apiKey: "k", fetch: model.fetch, tools: [tool] }),
    );
    const running = session.chat("go");
    await hasStarted;
    expect(failure(await session.resume([]))).toMatchObject({ code: "SESSION_BUSY" });
    release();
    okValue(await running);
  });
});

describe("while a resume's decisions are being checked", () => {
  it("a prompt and a second resume are SESSION_BUSY, and the resume runs", async () => {
    const { model, session, toolCallId } = await paused([says("sent it")]);
    const resumed = session.resume([{ toolCallId, approved: true }]);
    const prompt = session.chat("anything else?");
    const again = session.resume([{ toolCallId, approved: true }]);
    expect(failure(await prompt)).toMatchObject({ code: "SESSION_BUSY" });
    expect(failure(await again)).toMatchObject({ code: "SESSION_BUSY" });
    expect(okValue(await resumed).text).toBe("sent it");
    expect(model.requests).toHaveLength(2);
  });
});
