/**
 * SessionState: everything needed to continue a conversation elsewhere, as plain JSON. Functions
 * (tools, hooks, fetch) and secrets (API keys) are never part of it: the caller passes them again when
 * restoring.
 *
 * @module
 */

import type { JsonObject, Message, ProviderId, ThinkingLevel, Usage, UserContentPart } from "../types.ts";

/** The version {@link SessionState} has today. */
export const SESSION_STATE_VERSION = 1;

/** A prompt waiting for the run in flight to end. */
export interface QueuedPrompt {
  id: string;
  content: UserContentPart[];
  queuedAt: number;
}

/** Model parameters that shape every request of the session. */
export interface SessionParameters {
  maxTokens?: number;
  temperature?: number;
  stopSequences?: string[];
  maxTurns?: number;
}

/** A session as plain JSON: `JSON.parse(JSON.stringify(state))` restores to the same session. */
export interface SessionState {
  version: typeof SESSION_STATE_VERSION;
  sessionId: string;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
  provider: ProviderId;
  /** The bare model id (`claude-sonnet-5-5`). */
  model: string;
  systemPrompt?: string;
  thinking?: ThinkingLevel;
  parameters: SessionParameters;
  /** The conversation, with thinking signatures and provider blocks verbatim. */
  messages: Message[];
  /** Summed over every run of the session, with cost in USD when known. */
  usage: Usage;
  /** Model turns over every run. */
  turns: number;
  /** Follow-up prompts not yet run. */
  queue: QueuedPrompt[];
  /** Whatever the caller attached; Wisp does not read it. */
  metadata: JsonObject;
}
