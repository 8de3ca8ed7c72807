/**
 * A run nobody watches (worker/session-runner.ts #onIdle): after the grace period it is cancelled, and
 * the saved answer it cut says why, with the grace period. Runs in "worker-paced" (35 ms a word).
 */
import { expect, it } from "vitest";
import { createSession, readEvents, send } from "./api.ts";
import { exported, until } from "./conversations.ts";

it("a run cancelled for want of a client keeps why in its saved answer's error", async () => {
  const session = await createSession();
  const controller = new AbortController();
  const { reader } = await readEvents(
    await send(session, "Tell me about Wisp", controller.signal),
    (event) => event.event === "text-delta",
  );
  await reader.cancel();
  controller.abort();
  await until(async () => lastOf(await exported(session)).stopReason === "aborted");
  const last = lastOf(await exported(session));
  expect(last.error?.cause).toMatchObject({
    name: "AbortError",
    message: "No client was attached for 1000 ms",
  });
});

/** The last message of an export, with the fields an assistant message that ended may carry. */
function lastOf(state: { messages: readonly unknown[] }): {
  stopReason?: string;
  error?: { cause?: unknown };
} {
  return (state.messages.at(-1) ?? {}) as { stopReason?: string; error?: { cause?: unknown } };
}
