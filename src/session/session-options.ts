/**
 * The options of an agent session, and how a restored state and the caller's options combine into
 * the configuration of its runs.
 *
 * @module
 */

import { AGENT_CONFIG_OPTIONS, BUDGET_OPTIONS, sessionIdProblem } from "../agent/agent-option-table.ts";
import type { AgentConfig } from "../agent/agent-options.ts";
import { noWebCrypto } from "../agent/approval-digest.ts";
import type { Budget } from "../agent/budget.ts";
import type { AnyTool } from "../agent/typed-tool-call.ts";
import {
  invalidOption,
  notObjectOption,
  notSignalOption,
  notStringOption,
  oneOfOption,
} from "../config/option-checks.ts";
import { checkOptions, nestedTable, type OptionTable } from "../config/option-table.ts";
import { notAnObject } from "../config/unknown-option.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import { isPlainJson, MAX_JSON_DEPTH } from "../message/storable-values.ts";
import type { ModelOption } from "../providers/model-name.ts";
import type { StandardSchema } from "../schema/standard-schema.ts";
import { checkModelOption } from "../stream/connection-options.ts";
import type { TelemetryContext } from "../telemetry/telemetry-options.ts";
import type { ImagePart, JsonObject } from "../types.ts";
import type { SessionState } from "./session-state.ts";

/**
 * The options of {@link createAgentSession}. Everything `runAgent` takes except the prompt. `T`, the
 * union of the tools' types, is inferred from `tools` and types the session's tool calls; `O`, from
 * `output`, types its runs' structured output.
 */
export interface SessionOptions<T extends AnyTool = AnyTool, O = unknown>
  extends Omit<AgentConfig<T, O>, "model"> {
  /** Required unless `restore` names it; given with `restore`, it moves the session to this model. */
  model?: ModelOption;
  /** A state from `session.export()` (after any JSON round trip). Validated; invalid is a ConfigError. */
  restore?: SessionState | unknown;
  /** Default: the restored one, or a new random UUID. */
  sessionId?: string;
  /** Plain JSON kept in the state for the caller; merged over a restored state's metadata. */
  metadata?: JsonObject;
  /**
   * Signs the approvals this session's runs wait for (HMAC-SHA-256), and refuses, on restore, a state
   * whose pending approvals are not signed with it. Set it when a state passes through hands you do
   * not trust (a browser, a client's storage); keep it on the server.
   */
  approvalSecret?: string | undefined;
  /**
   * Limits on what the whole session spends, over all its runs (`budget` limits each run). What was
   * spent is the session's `usage`, kept in its state, and the limits are kept there too: a restored
   * session goes on counting (the option, given again, replaces the kept limits). A run that would
   * start with nothing left ends at once, sending nothing; one that goes over ends after that turn;
   * both with a BudgetError `BUDGET_EXCEEDED` whose `details.scope` is `"session"`. Its `usage` is only
   * as trustworthy as the state restored: keep states where clients cannot edit them.
   */
  sessionBudget?: Budget;
}

/** `metadata`: plain JSON, checked as a restore checks it, so that what the session stores it can restore. */
function metadataProblem(value: unknown, path: string): ConfigError | undefined {
  return (
    notObjectOption(value, path) ??
    (isPlainJson(value)
      ? undefined
      : invalidOption(
          `${path} must be plain JSON nested at most ${MAX_JSON_DEPTH} levels deep (no undefined values, BigInts, non-finite numbers, Dates, Maps or class instances)`,
          path,
        ))
  );
}

/**
 * A session's options declared apart from `createAgentSession` (the common case for a session reused
 * across requests), keeping their types: the tools' union `T` and the structured output `O` are
 * inferred as in the call, so hooks and results stay typed with no generics written by hand. It
 * returns `options` itself.
 */
export function sessionOptions<T extends AnyTool = AnyTool, O = unknown>(
  options: SessionOptions<T, O>,
): SessionOptions<T, O> {
  return options;
}

/** How a prompt is delivered while a run is in flight. */
export type DeliveryMode = "steer" | "followUp";

/** The options of one `chat` or `stream` call. */
export interface ChatOptions<O = unknown> {
  /** Aborts this prompt's run (or takes a queued prompt out of the queue). */
  signal?: AbortSignal | undefined;
  /**
   * While a run is in flight: `steer` delivers the prompt at the run's next safe point (after the
   * running tools finish); `followUp` queues it for after the run. Without a mode, a second prompt
   * while a run is in flight is a ConfigError `SESSION_BUSY`.
   */
  mode?: DeliveryMode;
  /** Images added to the prompt, after its content. */
  attachments?: ImagePart[];
  /** The id of the user message this prompt becomes (and of its queue entry). Default: a random UUID. */
  id?: string;
  /**
   * Structured output for this run (overrides the session's `output`): the answer lands validated in
   * `result.value.output`. Not for a steered prompt, which joins the run in flight.
   */
  output?: StandardSchema<unknown, O>;
  /**
   * With the session's `telemetry`: the context whose span is this run's parent (the request that
   * asked for it, say), over `telemetry.parent`. Across the bridge it travels as a W3C `traceparent`.
   */
  traceParent?: TelemetryContext;
  /**
   * Forks the conversation: the prompt continues from the message with this id (of the active
   * branch), or from the start with `null`, and what came after that message is kept as a branch
   * (`session.branches()`). The id of the conversation's last message continues it as usual. Refused
   * with a ConfigError — `BRANCH_INVALID` for an id that names no message of the active branch or one
   * whose tool calls wait for results, SESSION_BUSY while a run is in flight, APPROVAL_PENDING while
   * paused — and nothing changes.
   */
  parentId?: string | null | undefined;
}

/** Options of `session.resume`: what `chat` takes that applies to a resumed run. */
export interface ResumeOptions<O = unknown> {
  /** Aborts the resumed run (the approved tools receive it). */
  signal?: AbortSignal | undefined;
  /**
   * Structured output for the resumed run: the answer lands validated in `result.value.output`.
   * Default: the output the paused run had (its chat's, or the session's).
   */
  output?: StandardSchema<unknown, O>;
  /** The context whose span is the resumed run's parent (see `ChatOptions.traceParent`). */
  traceParent?: TelemetryContext;
}

/** Every option of {@link createAgentSession}, in the order they are checked. */
export const SESSION_OPTIONS: OptionTable<SessionOptions> = {
  ...AGENT_CONFIG_OPTIONS,
  // Optional here: a restored state may name it.
  model: checkModelOption,
  restore: null,
  sessionId: sessionIdProblem,
  metadata: metadataProblem,
  sessionBudget: nestedTable(BUDGET_OPTIONS),
  approvalSecret: (value, path) =>
    typeof value === "string" && value.length >= 16
      ? noWebCrypto(path)
      : invalidOption(`${path} must be a string of at least 16 characters`, path),
};

/** Every option of `chat` and `stream`, in the order they are checked. */
export const CHAT_OPTIONS: OptionTable<ChatOptions> = {
  mode: oneOfOption(["steer", "followUp"]),
  signal: notSignalOption,
  id: notStringOption,
  attachments: null,
  output: null,
  // Checked with the session's telemetry when the run loads it (telemetry-problem.ts).
  traceParent: null,
  parentId: (value, path) => (value === null ? undefined : notStringOption(value, path)),
};

/** Every option of `resume`. */
export const RESUME_OPTIONS: OptionTable<ResumeOptions> = {
  signal: notSignalOption,
  output: null,
  // Checked with the session's telemetry when the run loads it (telemetry-problem.ts).
  traceParent: null,
};

/**
 * The first problem with the options of one `chat` or `stream` call, or undefined: not an object, an
 * unknown key (`{ sigal }`, with "did you mean"), a `mode` that is neither `steer` nor `followUp`, a
 * `signal` that is no AbortSignal, an `id` that is no string. `attachments` are checked with the prompt.
 */
export function checkChatOptions(options: unknown): ConfigError | undefined {
  if (options === undefined) return undefined;
  return notAnObject(options, "The chat options") ?? checkOptions(CHAT_OPTIONS, options as object);
}

/** The first problem with the options of one `resume` call (`{ signal?, output? }`), or undefined. */
export function checkResumeOptions(options: unknown): ConfigError | undefined {
  if (options === undefined) return undefined;
  return notAnObject(options, "The resume options") ?? checkOptions(RESUME_OPTIONS, options as object);
}

const PARAMETER_KEYS = ["maxTokens", "temperature", "stopSequences", "maxTurns"] as const;

/** The run configuration: the caller's options over what the restored state remembers. */
export function sessionConfig(options: SessionOptions, state: SessionState | undefined): AgentConfig {
  const {
    restore: _,
    sessionId: __,
    metadata: ___,
    approvalSecret: ____,
    sessionBudget: _____,
    ...rest
  } = options;
  const model = options.model ?? (state ? (`${state.provider}/${state.model}` as const) : undefined);
  if (model === undefined) {
    throw new ConfigError("A session needs a model (or a state to restore)", {
      code: "CONFIG_INVALID",
      path: "model",
    });
  }
  const config: AgentConfig = { ...rest, model };
  if (state === undefined) return config;
  if (config.systemPrompt === undefined && state.systemPrompt !== undefined)
    config.systemPrompt = state.systemPrompt;
  if (config.thinking === undefined && state.thinking !== undefined) config.thinking = state.thinking;
  for (const key of PARAMETER_KEYS) {
    const value = state.parameters[key];
    if (config[key] === undefined && value !== undefined) Object.assign(config, { [key]: value });
  }
  return config;
}
