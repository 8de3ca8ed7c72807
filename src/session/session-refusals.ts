/**
 * What a session answers a call it does not run: the failed result (`refusal`) and its errors
 * (SESSION_CLOSED, SESSION_BUSY, and ABORTED for a prompt or resume dropped before it ran).
 *
 * @module
 */

import type { AgentRunResult } from "../agent/agent-events.ts";
import { AbortError, type AnySdkError, ConfigError } from "../errors/sdk-error.ts";
import type { Message, ProviderId } from "../types.ts";
import { emptyUsage } from "../usage/usage.ts";

/** What a refusal reports of its session. */
export interface RefusingSession {
  readonly sessionId: string;
  readonly provider: ProviderId;
  readonly model: string;
  readonly messages: Message[];
}

/** The result of a call refused with `error`: nothing ran, and the partial run is empty. */
export function refusal(session: RefusingSession, error: AnySdkError): AgentRunResult {
  return {
    ok: false,
    error,
    partial: {
      text: "",
      messages: session.messages,
      toolCalls: [],
      usage: emptyUsage(),
      provider: session.provider,
      model: session.model,
      sessionId: session.sessionId,
      stopReason: "error",
      durationMs: 0,
      turns: 0,
    },
  };
}

/** SESSION_CLOSED: the session was closed. */
export function closedError(): ConfigError {
  return new ConfigError("The session is closed", { code: "SESSION_CLOSED" });
}

/**
 * SESSION_BUSY: a run is in flight and the call neither steers nor follows up (or, with `message`,
 * cannot be made while a run is in flight at all, and `path` names the option).
 */
export function busy(
  message = 'A run is in flight: pass mode "steer" or "followUp", or wait for it',
  path?: string,
): ConfigError {
  return new ConfigError(
    message,
    path === undefined ? { code: "SESSION_BUSY" } : { code: "SESSION_BUSY", path },
  );
}

const DROPPED = {
  aborted: "The session was aborted before this prompt or resume ran",
  drained: "Removed from the queue by drainQueue()",
  signal: "The prompt's signal aborted while it waited in the queue; it was not sent",
};

/** ABORTED, for a prompt or resume dropped before it ran: by `abort()`, `drainQueue()` or its signal. */
export function dropped(how: keyof typeof DROPPED): AbortError {
  return new AbortError(DROPPED[how], { code: "ABORTED" });
}
