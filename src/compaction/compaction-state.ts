/**
 * Compaction as an overlay: the conversation stays whole in the session; requests send a summary of
 * the older messages, then the messages from `firstKeptId` on. Plain JSON, kept by export and restore.
 *
 * @module
 */

import type { Message, UserMessage } from "../types.ts";

/** The summary that stands for the messages before `firstKeptId` in requests. */
export interface CompactionState {
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
