/**
 * Putting a session back together from what a store kept: the messages saved before, and the tail of
 * the session's last export (`AgentSession.exportTail`).
 *
 * @module
 */

import { ConfigError } from "../errors/sdk-error.ts";
import type { Message } from "../types.ts";
import type { SessionState, SessionStateTail } from "./session-state.ts";

/**
 * The whole {@link SessionState}: `before` (the first `tail.messagesFrom` messages, as saved earlier)
 * followed by the tail's messages. Throws a ConfigError `CONFIG_INVALID` (path `messagesFrom`) when
 * `before` does not line up with the tail: another length, or a last message whose id is not
 * `tail.previousId` — the store then needs a whole export instead.
 *
 * @example
 * ```ts
 * import { createAgentSession, joinStateTail, uncheckedModel } from "wisp-agent";
 *
 * const created = await createAgentSession({ model: uncheckedModel("anthropic/claude-sonnet-4-5"), apiKey: "…" });
 * if (!created.ok) throw created.error;
 * const session = created.value;
 * const saved = session.export().messages; // what a store holds
 * await session.chat("Hello");
 * const state = joinStateTail(saved, session.exportTail(saved.length));
 * ```
 */
export function joinStateTail(before: readonly Message[], tail: SessionStateTail): SessionState {
  const { messagesFrom, messageCount: _, previousId, messages, ...rest } = tail;
  const lines = before.length === messagesFrom && before.at(-1)?.id === previousId;
  if (!lines) {
    throw new ConfigError(
      `The saved messages do not line up with the tail: ${before.length} saved, the tail starts at ${messagesFrom}` +
        (before.length === messagesFrom ? ` after message ${previousId ?? "(none)"}` : ""),
      { code: "CONFIG_INVALID", path: "messagesFrom" },
    );
  }
  return { ...rest, messages: [...before, ...messages] };
}
