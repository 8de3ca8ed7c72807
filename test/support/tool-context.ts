/**
 * The context a tool's `execute` receives, for tests (and the bench) that call a tool directly
 * instead of through a run.
 */
import type { Message } from "../../src/types.ts";

/** A tool call's context: the run's signal (a fresh one by default), ids, turn 1, no messages. */
export function toolContext(signal: AbortSignal = new AbortController().signal) {
  return { signal, toolCallId: "c", sessionId: "s", turn: 1, messages: [] as Message[] };
}
