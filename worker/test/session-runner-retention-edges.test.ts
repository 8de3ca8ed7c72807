/**
 * How long a finished run's events stay to reattach to (worker/session-runner.ts #attach): five
 * minutes after the run ended, then 404 NO_RUN. The clock is faked (Date only) for the second half.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { auth, call, createSession, refusal } from "./api.ts";
import { runEnd } from "./conversations.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("a finished run's events", () => {
  it("can be reattached to for five minutes, and no longer", async () => {
    const session = await createSession();
    await runEnd(session, "Hello");
    const events = () => call(`/api/sessions/${session.sessionId}/events`, auth(session.token));
    const soon = await events();
    expect(soon.status).toBe(200);
    await soon.body?.cancel();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 4 * 60_000);
    const within = await events();
    expect(within.status).toBe(200);
    await within.body?.cancel();
    vi.setSystemTime(Date.now() + 60_000 + 1_000);
    const [status, error] = await refusal(await events());
    expect([status, error.code]).toEqual([404, "NO_RUN"]);
  });
});
