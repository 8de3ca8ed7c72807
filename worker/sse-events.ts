/**
 * What the browser receives for a run: a few small SSE events made from the SDK's AgentEvents (the
 * whole conversation in `run-end` would be large, and the page needs only what it shows).
 *
 * @module
 */

import type { AgentEvent } from "wisp-agent";

/** One SSE event: its name and JSON data. */
export interface SseEvent {
  event: string;
  data: unknown;
}

/** The SSE event for an AgentEvent, or undefined for events the page does not need. */
export function sseEventOf(event: AgentEvent): SseEvent | undefined {
  switch (event.type) {
    case "run-start":
      return {
        event: "run-start",
        data: { sessionId: event.sessionId, model: `${event.provider}/${event.model}` },
      };
    case "turn-start":
      return { event: "turn-start", data: { turn: event.turn } };
    case "text-delta":
      return { event: "text-delta", data: { delta: event.delta } };
    case "thinking-delta":
      return { event: "thinking-delta", data: { delta: event.delta } };
    case "tool-call":
      return {
        event: "tool-call",
        data: { id: event.toolCall.id, name: event.toolCall.name, args: event.toolCall.args },
      };
    case "tool-result":
      return {
        event: "tool-result",
        data: {
          id: event.toolCall.id,
          name: event.toolCall.name,
          output: event.result.output,
          isError: event.result.isError === true,
        },
      };
    case "approval-requested": {
      const { approval } = event;
      // An absent reason is left out of the frame: JSON drops `undefined`.
      return {
        event: "approval-requested",
        data: {
          id: approval.toolCallId,
          name: approval.toolName,
          args: approval.args,
          reason: approval.reason,
        },
      };
    }
    case "question-requested": {
      const { question } = event;
      return {
        event: "question-requested",
        data: { id: question.toolCallId, name: question.toolName, questions: question.questions },
      };
    }
    case "retry":
      return {
        event: "retry",
        data: { attempt: event.attempt, delayMs: event.delayMs, code: event.error.code },
      };
    case "turn-end":
      return { event: "usage", data: { usage: event.message.usage } };
    case "run-end": {
      const { result } = event;
      const value = result.ok ? result.value : result.partial;
      const data: Record<string, unknown> = {
        ok: result.ok,
        stopReason: value.stopReason,
        text: value.text,
        turns: value.turns,
        usage: value.usage,
        durationMs: value.durationMs,
      };
      if (!result.ok) data.error = { code: result.error.code, message: result.error.message };
      return { event: "run-end", data };
    }
    default:
      return undefined;
  }
}

const encoder = new TextEncoder();

/** JSON with U+2028 / U+2029 escaped, so a reader that splits lines on them too still sees one line. */
function lineSafeJson(data: unknown): string {
  return JSON.stringify(data).replace(/[\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
}

/** The bytes of one SSE event, with its `id` when given. */
export function sseFrame({ event, data }: SseEvent, id?: string): Uint8Array {
  const idLine = id === undefined ? "" : `id: ${id}\n`;
  return encoder.encode(`${idLine}event: ${event}\ndata: ${lineSafeJson(data)}\n\n`);
}
