/**
 * Compaction as an overlay: the conversation stays whole in the session; requests send a summary of
 * the older messages, then the messages from `firstKeptId` on. Plain JSON, kept by export and restore.
 *
 * @module
 */

import type { AnySdkError } from "../errors/sdk-error.ts";
import type { Message, Usage, UserMessage } from "../types.ts";

/** Why a compaction happens: the next request would pass the threshold, or the provider refused its length. */
export type CompactionReason = "threshold" | "context-length";

/**
 * Older messages were summarized (`summarized` of them; the summary stands for them in requests,
 * the messages stay in the session), before `turn`, because of `reason`; `tokens` is the estimated
 * size of the request that set it off and `usage` the summary's own cost. Without a summary
 * (`summarized` 0, `error` set) the request goes as it was.
 */
export interface CompactionEvent {
  /** Identifies a compaction event. */
  type: "compaction";
  /** The turn (1-based) before which the compaction happened. */
  turn: number;
  /** What set it off. */
  reason: CompactionReason;
  /** How many messages the summary stands for; 0 when no summary was made. */
  summarized: number;
  /** The estimated size of the request that set it off, in tokens. */
  tokens: number;
  /**
   * What making the summary cost (it counts in the run's usage and budgets); absent when no model call was
   * made.
   */
  usage?: Usage;
  /** Why no summary was made, when none was; the request then goes as it was. */
  error?: AnySdkError;
}

/** The summary that stands for the messages before `firstKeptId` in requests. */
export interface CompactionState {
  /** The summary text, sent as the first user message of compacted requests. */
  summary: string;
  /** The first message sent as it is (a user message, or an assistant message after tool results). */
  firstKeptId: string;
  /** When it was made (epoch ms). */
  at: number;
}

/** The summary as the user message that opens a compacted request. */
function summaryMessage(state: CompactionState): UserMessage {
  return {
    id: `compaction-${state.at}`,
    role: "user",
    content: [{ type: "text", text: `Summary of the conversation so far:\n\n${state.summary}` }],
    timestamp: state.at,
  };
}

/** The messages a request sends: all of them, or the summary and the messages it keeps. */
export function requestMessages(messages: Message[], state: CompactionState | undefined): Message[] {
  if (state === undefined) return messages;
  const first = messages.findIndex((message) => message.id === state.firstKeptId);
  return first === -1 ? messages : [summaryMessage(state), ...messages.slice(first)];
}
