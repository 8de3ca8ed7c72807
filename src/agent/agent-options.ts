/**
 * The options of an agent run: how to reach the model (everything `streamTurn` takes), the model
 * parameters, the tools and hooks, and the limits.
 *
 * @module
 */

import type { CompactionOptions } from "../compaction/compaction-options.ts";
import type { ModelOption } from "../providers/model-name.ts";
import type { StandardSchema } from "../schema/standard-schema.ts";
import type { TurnOptions } from "../stream/turn-options.ts";
import type { ImagePart, Message, PromptCache, ThinkingLevel, UserContentPart } from "../types.ts";
import type { AgentEvent } from "./agent-events.ts";
import type { Budget } from "./budget.ts";
import type { Hooks } from "./hooks.ts";
import type { PermissionPolicy } from "./permission-policy.ts";
import type { AnyTool } from "./typed-tool-call.ts";

/**
 * Everything that configures runs, apart from their input. Sessions keep this between runs. `T`, the
 * union of the tools' types, is inferred from `tools` and types the run's tool calls.
 */
export interface AgentConfig<T extends AnyTool = AnyTool, O = unknown>
  extends Omit<TurnOptions, "signal" | "onEvent"> {
  /** `"provider/model"`: `"anthropic/claude-sonnet-5-5"`, `"openai/gpt-5.5"`, `"google/gemini-2.5-pro"`. */
  model: ModelOption;
  /** Instructions sent as the system prompt of every turn; none when absent. */
  systemPrompt?: string;
  /** The tools the model may call, built with `defineTool` (or `connectMcp`). Default: none. */
  tools?: ReadonlyArray<T>;
  /** Hooks by event; their tool calls are typed by the run's tools (`T` is inferred from `tools` alone). */
  hooks?: NoInfer<Hooks<T>>;
  /** How hard the model thinks: mapped to Anthropic's budget_tokens, OpenAI's reasoning_effort. Default off. */
  thinking?: ThinkingLevel;
  /** The output limit per turn (the answer; Anthropic's thinking budget comes on top). */
  maxTokens?: number;
  /** Sampling temperature; the provider's default when absent. */
  temperature?: number;
  /** Strings that end a response when the model writes them. */
  stopSequences?: string[];
  /** Prompt caching: on unless `false`; see {@link PromptCache} for what each API gets. */
  cache?: PromptCache | false;
  /**
   * Structured output: a Standard Schema (zod 4.2+, arktype) the run's answer must match. Each API's
   * native JSON mode is used; the answer is validated by the schema and lands in `result.value.output`,
   * and `output-partial` events show it while it streams. An answer the schema refuses goes back to
   * the model with the reason, up to `outputRetries` times; then the run ends with OUTPUT_INVALID.
   */
  output?: StandardSchema<unknown, O>;
  /** How often the model may answer again after an answer the schema refused (default 2). */
  outputRetries?: number;
  /**
   * Compaction (off unless set; `true` for the defaults): when the next request would pass
   * `maxTokens` (or `fraction`, default 0.8, of the model's known context window), or the provider
   * refuses a request's length, older messages are summarized by the model and the summary stands for
   * them in later requests; the messages stay in the session. A `preCompact` hook may skip it or give
   * the summary. The summary's cost counts in usage and budgets.
   */
  compaction?: true | CompactionOptions;
  /** Model turns per run; default `DEFAULT_MAX_TURNS` (25). Reaching it ends the run with stopReason `maxTurns`. */
  maxTurns?: number;
  /**
   * Limits on this run's tokens and cost; going over one ends the run with stopReason `budget`. Default:
   * none.
   */
  budget?: Budget;
  /** Longest time one tool call may run, unless the tool sets its own (default 2 minutes). */
  toolTimeoutMs?: number;
  /** `parallel` (default) runs a turn's tool calls together; `sequential` one by one. */
  toolExecution?: "parallel" | "sequential";
  /** How often `stop` hooks may block the end of one run (default 3); after that the run ends. */
  maxStopBlocks?: number;
  /**
   * The permission policy: a mode and allow/deny lists of tool names and `*` patterns that decide tool
   * calls before hooks ask and approvals wait (see docs/permissions.md). A session keeps it in its
   * state; a restore without the option keeps the state's. Default: none (every call as its tool and
   * hooks say).
   */
  permissions?: PermissionPolicy;
}

/** The options of {@link runAgent} and {@link runAgentStream}. */
export interface AgentOptions<T extends AnyTool = AnyTool, O = unknown> extends AgentConfig<T, O> {
  /** The user's message: text, or text and image parts. */
  prompt: string | UserContentPart[];
  /** Images added to the prompt. */
  attachments?: ImagePart[];
  /** The conversation before the prompt (a previous run's `messages`, for example). */
  messages?: Message[];
  /**
   * Aborts the run: the turn, the tools and the hooks in flight; the result is an `AbortError` with the
   * partial result.
   */
  signal?: AbortSignal | undefined;
  /** Default: a new random UUID. */
  sessionId?: string;
  /**
   * Sees every event of the run as it happens — the same events `runAgentStream` yields, ending with
   * `run-end` — so a one-shot `runAgent` can be observed (logs, a progress bar, metrics). Called
   * synchronously; it should return quickly. A throw from it (or a returned promise that rejects)
   * before the run ends aborts the run, which fails with a HookError `HOOK_FAILED` (`details.hook` is
   * `"onEvent"`, `cause` what it threw; `run-end` carries the same Result), the partial run kept; the
   * run's own error stands if it failed first. A throw on `run-end` changes nothing: the run has ended.
   */
  onEvent?: NoInfer<(event: AgentEvent<T, O>) => unknown>;
}

/** The default per-call tool timeout. */
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;

/** The default bound on `stop` hooks blocking the end of a run. */
export const DEFAULT_MAX_STOP_BLOCKS = 3;

/**
 * Options for `runAgent` / `runAgentStream` declared apart from the call, keeping their types: the
 * tools' union `T` (which types tool calls, in events, results and hooks) and the structured output
 * `O` are inferred here as they are in the call, with no generics written by hand. It returns
 * `options` itself.
 *
 * @example
 * ```ts
 * const options = agentOptions({
 *   model: "anthropic/claude-sonnet-5-5",
 *   apiKey,
 *   prompt: "Weather in Oslo?",
 *   tools: [weather],
 *   hooks: { preToolUse: ({ toolCall }) => (toolCall.name === "weather" ? undefined : { decision: "deny", reason: "no" }) },
 * });
 * const result = await runAgent(options); // typed by `weather`
 * ```
 */
export function agentOptions<T extends AnyTool = AnyTool, O = unknown>(
  options: AgentOptions<T, O>,
): AgentOptions<T, O> {
  return options;
}
