/**
 * The end of a finished run's retention (worker/session-runner.ts #attach): its events can be
 * reattached to until five minutes after it ended, not at that very millisecond. Date is faked (only Date).
 */
import { afterEach, expect, it, vi } from "vitest";
import { auth, call, createSession, refusal } from "./api.ts";
import { runEnd } from "./conversations.ts";

afterEach(() => {
  vi.useRealTimers();
});

it("a finished run's events are gone exactly five minutes after it ended: 404 NO_RUN", async () => {
  const session = await createSession();
  vi.useFakeTimers({ toFake: ["Date"] });
  const ended = Date.now();
  await runEnd(session, "Hello");
  vi.setSystemTime(ended + 5 * 60_000);
  const response = await call(`/api/sessions/${session.sessionId}/events`, auth(session.token));
  expect(response.status).toBe(404);
  expect((await refusal(response))[1].code).toBe("NO_RUN");
});
