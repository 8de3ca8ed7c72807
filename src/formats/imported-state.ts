/**
 * The SessionState a transcript becomes: its messages (every tool call answered, as every API
 * requires), usage summed over the assistant replies, and the checks of a restore — so what an
 * import returns always restores.
 *
 * @module
 */

import type { Result } from "../agent/result.ts";
import { ConfigError, ParseError } from "../errors/sdk-error.ts";
import { nestsDeeperThan, storableId } from "../message/storable-values.ts";
import { parseSessionState } from "../session/parse-session-state.ts";
import { SESSION_STATE_VERSION, type SessionState } from "../session/session-state.ts";
import { MAX_STATE_DEPTH } from "../state/check-messages.ts";
import type { Message, ProviderId, ThinkingLevel, ToolResultPart } from "../types.ts";
import { addUsage, emptyUsage } from "../usage/usage.ts";
import { type TranscriptSource, withSource } from "./transcript-source.ts";
import type { TranscriptWarning } from "./transcript-types.ts";

/** What a reader found, before it becomes a SessionState. */
export interface ReadConversation {
  sessionId: string;
  messages: Message[];
  provider: ProviderId;
  model: string;
  thinking?: ThinkingLevel;
  source?: TranscriptSource;
}

/**
 * `messages` paired as every API requires: each tool call answered exactly once by the message right
 * after it. A call the file has no result for (a run cut off, a result on a lost line) gets an error
 * result saying so; a result that answers no call of the reply before it is dropped. Each repair is a
 * warning.
 */
export function answerEveryCall(
  messages: Message[],
  lineOf: (message: Message) => number,
  warnings: TranscriptWarning[],
): Message[] {
  const paired: Message[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool_result") continue;
    paired.push(message);
    if (message.role !== "assistant") continue;
    const calls = message.content.flatMap((part) => (part.type === "tool_call" ? [part] : []));
    const next = messages[index + 1];
    const given = next?.role === "tool_result" ? next.content : [];
    const byId = new Map<string, ToolResultPart>();
    for (const part of given) {
      if (!byId.has(part.toolCallId) && calls.some((call) => call.id === part.toolCallId))
        byId.set(part.toolCallId, part);
      else if (next)
        warnings.push({
          line: lineOf(next),
          message: `a result for tool call ${part.toolCallId}, which the reply before it did not make (or answered already); skipped`,
        });
    }
    if (calls.length === 0) continue;
    for (const call of calls)
      if (!byId.has(call.id))
        warnings.push({
          line: lineOf(message),
          message: `tool call ${call.id} has no result; it reads as failed`,
        });
    paired.push({
      id: next?.role === "tool_result" ? next.id : `${message.id}-unanswered`,
      role: "tool_result",
      timestamp: next?.role === "tool_result" ? next.timestamp : message.timestamp,
      content: calls.map(
        (call) =>
          byId.get(call.id) ?? {
            type: "tool_result",
            toolCallId: call.id,
            toolName: call.name,
            output: "No result provided",
            isError: true,
          },
      ),
    });
  }
  for (const [index, message] of messages.entries())
    if (message.role === "tool_result" && messages[index - 1]?.role !== "assistant")
      warnings.push({ line: lineOf(message), message: "tool results that follow no reply; skipped" });
  return paired;
}

/**
 * Where each of `messages` ends in the file: a message that was read at the index its reader gave, a
 * result filled in by {@link answerEveryCall} where the call it answers ends.
 */
export function messagesFrom(
  messages: readonly Message[],
  read: readonly Message[],
  ends: readonly number[],
): [id: string, lastLine: number][] {
  const endOf = new Map(read.map((message, index) => [message.id, ends[index] ?? 0]));
  let previous = 0;
  return messages.map((message) => {
    previous = endOf.get(message.id) ?? previous;
    return [message.id, previous];
  });
}

/** The conversation as a checked SessionState, or a ParseError if it is not one (a reader's fault). */
export function importedState(
  read: ReadConversation,
  warnings: TranscriptWarning[],
): Result<SessionState, ParseError, { warnings: TranscriptWarning[] }> {
  let usage = emptyUsage();
  let turns = 0;
  let createdAt = Number.POSITIVE_INFINITY;
  let updatedAt = 0;
  for (const message of read.messages) {
    createdAt = Math.min(createdAt, message.timestamp);
    updatedAt = Math.max(updatedAt, message.timestamp);
    if (message.role !== "assistant") continue;
    usage = addUsage(usage, message.usage);
    turns++;
  }
  if (createdAt > updatedAt) createdAt = updatedAt;
  const state: SessionState = {
    version: SESSION_STATE_VERSION,
    sessionId: storableId(read.sessionId),
    createdAt,
    updatedAt,
    provider: read.provider,
    model: read.model,
    ...(read.thinking !== undefined ? { thinking: read.thinking } : {}),
    parameters: {},
    messages: read.messages,
    usage,
    turns,
    queue: [],
    metadata: {},
    pendingApprovals: [],
    pendingResults: [],
    toolPermissions: {},
  };
  try {
    const checked = parseSessionState(state);
    // The kept lines are JSON.parse output, so plain JSON already; only their depth is checked.
    if (read.source !== undefined && nestsDeeperThan(read.source.lines, MAX_STATE_DEPTH - 4))
      warnings.push({
        line: 0,
        message: `a line nests deeper than ${MAX_STATE_DEPTH - 4} levels: the file's lines are not kept, so a write makes new ones`,
      });
    else if (read.source !== undefined) checked.metadata = withSource(checked.metadata, read.source);
    return { ok: true, value: checked };
  } catch (cause) {
    const message = cause instanceof ConfigError ? cause.message : String(cause);
    return {
      ok: false,
      error: new ParseError(`The transcript did not make a valid session: ${message}`, {
        code: "TRANSCRIPT_INVALID",
        cause,
      }),
      partial: { warnings },
    };
  }
}
