/**
 * A cancel that reaches the SessionRunner while a run is still being set up (worker/session-runner.ts
 * #start: the session loads, the MCP servers connect): the run ends aborted before it calls the model;
 * a delete meanwhile waits for a run the session refuses to let it go, then answers.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { RunnerCommand, SessionRunner } from "../session-runner.ts";
import { createSession, readEvents } from "./api.ts";

function send(sessionId: string, command: RunnerCommand): Promise<Response> {
  const stub = env.RUNNER.get(env.RUNNER.idFromName(sessionId)) as DurableObjectStub<SessionRunner>;
  return stub.fetch("http://runner/", { method: "POST", body: JSON.stringify(command) });
}

describe("a cancel while a run is set up", () => {
  it("ends the run aborted before the model answers", async () => {
    const { sessionId } = await createSession();
    const run = send(sessionId, { op: "run", sessionId, text: "Hello" });
    const cancel = send(sessionId, { op: "cancel" });
    expect(await (await cancel).json()).toEqual({ cancelled: true });
    const { events } = await readEvents(await run);
    expect(events.some((event) => event.event === "text-delta")).toBe(false);
    expect(events.at(-1)).toMatchObject({
      event: "run-end",
      data: { ok: false, error: { code: "ABORTED" } },
    });
  });
});

describe("a delete while a refused run is set up", () => {
  it("answers 204 once the refusal has let the session go", async () => {
    const { sessionId } = await createSession();
    const run = send(sessionId, { op: "run", sessionId, text: "Hello", parentId: "no-such-message" });
    const deleted = send(sessionId, { op: "delete", sessionId });
    expect((await deleted).status).toBe(204);
    expect((await run).status).toBe(400);
  });
});
