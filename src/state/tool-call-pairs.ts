/**
 * The rule every sendable conversation keeps: an assistant message's tool calls are answered, each
 * exactly once, by the tool_result message right after it.
 *
 * @module
 */

import type { Message } from "../types.ts";

/** The first broken pairing in `messages`, as a path and a description, or undefined. */
export function unpairedToolCall(
  messages: readonly Message[],
): { path: string; problem: string } | undefined {
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool_result" && messages[index - 1]?.role !== "assistant") {
      return { path: `messages.${index}`, problem: "tool results that follow no assistant message" };
    }
    if (message.role !== "assistant") continue;
    const calls = message.content.flatMap((part) => (part.type === "tool_call" ? [part.id] : []));
    if (calls.length === 0) continue;
    const next = messages[index + 1];
    const answered = next?.role === "tool_result" ? next.content.map((part) => part.toolCallId) : [];
    const missing = calls.find((id) => !answered.includes(id));
    if (missing !== undefined)
      return { path: `messages.${index}`, problem: `tool call ${missing} has no result` };
    if (answered.length !== calls.length) {
      return {
        path: `messages.${index + 1}`,
        problem: "results that answer no tool call of the message before",
      };
    }
  }
  return undefined;
}

/**
 * The length of the longest prefix of `messages` that is sendable: a trailing assistant message whose
 * tool calls are still running is left out (export during a run gives the last completed turn).
 */
export function sendableLength(messages: readonly Message[]): number {
  const last = messages.at(-1);
  const running = last?.role === "assistant" && last.content.some((part) => part.type === "tool_call");
  return running ? messages.length - 1 : messages.length;
}
