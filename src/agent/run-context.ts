/**
 * The state one run shares between the loop, the tool runner and the hooks.
 *
 * @module
 */

import type { CompactionState } from "../compaction/compaction-state.ts";
import type { Message, UserMessage } from "../types.ts";
import type { AgentEvent } from "./agent-events.ts";
import type { ToolPermissions } from "./approvals.ts";
import type { Tool } from "./define-tool.ts";
import type { Hooks } from "./hooks.ts";
import type { PrefixWatch } from "./prefix-watch.ts";

/** What the parts of a run share. `messages` and `turn` change as the run goes on. */
export interface RunContext {
  sessionId: string;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
  hooks: Hooks | undefined;
  /** The conversation, appended to as the run goes. */
  messages: Message[];
  /** Model turns made so far in this run. */
  turn: number;
  tools: ReadonlyMap<string, Tool<unknown>>;
  toolTimeoutMs: number;
  /** Run a turn's tool calls one after another instead of together. */
  sequentialTools: boolean;
  /** Standing answers per tool ("always allow" / "always deny"), the session's; changed by resume. */
  permissions?: ToolPermissions;
  /** Messages to deliver at the next safe point (after a turn's tools, or when the model stops). */
  takeSteering?: () => UserMessage[];
  /** The previous request of the session (or run), to tell a prompt-cache miss and why. */
  prefix?: PrefixWatch;
  /** The summary that stands for older messages in requests, once the conversation was compacted. */
  compaction?: CompactionState;
  /** Told of each new compaction (a session keeps it). */
  onCompaction?: (state: CompactionState) => void;
}

/** Appends messages to the conversation and reports each in a `message` event. */
export function appendMessages(run: Pick<RunContext, "messages" | "emit">, ...messages: Message[]): void {
  for (const message of messages) {
    run.messages.push(message);
    run.emit({ type: "message", message });
  }
}
