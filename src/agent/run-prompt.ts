/**
 * One prompt through the loop: the `userPromptSubmit` hooks, the user message, then the turns.
 *
 * @module
 */

import type { UserContentPart } from "../types.ts";
import { runTurns } from "./agent-loop.ts";
import { endFrom, type LoopEnd } from "./loop-end.ts";
import type { LoopSetup, LoopTally } from "./run-context.ts";
import { appendMessages, type RunContext } from "./run-context.ts";
import { runHooks } from "./run-hooks.ts";
import { userMessage } from "./user-message.ts";

/** Text parts for hook-added context. */
export function contextParts(context: string[]): UserContentPart[] {
  return context.map((text) => ({ type: "text", text }));
}

/**
 * Submits `content` as the user's message and runs the turns. A `userPromptSubmit` hook may add
 * context to the message or stop the run; a stopped prompt is not added to the conversation, nor is
 * one whose run was aborted before it was submitted (with hooks or without: it was never sent).
 */
export async function runPrompt(
  run: RunContext,
  setup: LoopSetup,
  tally: LoopTally,
  content: UserContentPart[],
  promptId?: string,
): Promise<LoopEnd> {
  const prompt = userMessage(content, promptId);
  const submit = await runHooks(
    "userPromptSubmit",
    { sessionId: run.sessionId, messages: run.messages, turn: run.turn, prompt },
    run,
  );
  const ended = endFrom(run.signal.aborted ? { kind: "aborted" } : submit, run.signal);
  if (ended !== undefined) return ended;
  if (submit.kind === "go") prompt.content.push(...contextParts(submit.context));
  appendMessages(run, prompt);
  return runTurns(run, setup, tally);
}
