/**
 * The options of an agent session, and how a restored state and the caller's options combine into
 * the configuration of its runs.
 *
 * @module
 */

import type { AgentConfig } from "../agent/agent-options.ts";
import type { AnyTool } from "../agent/typed-tool-call.ts";
import { didYouMean } from "../config/did-you-mean.ts";
import { invalidOption, notSignalOption, notStringOption } from "../config/option-checks.ts";
import { showValue } from "../config/show-value.ts";
import { notAnObject, unknownOption } from "../config/unknown-option.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import type { ModelOption } from "../providers/model-name.ts";
import type { StandardSchema } from "../schema/standard-schema.ts";
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
}

/** How a prompt is delivered while a run is in flight. */
export type DeliveryMode = "steer" | "followUp";

/** The options of one `chat` or `stream` call. */
export interface ChatOptions<O = unknown> {
  signal?: AbortSignal | undefined;
  /**
   * While a run is in flight: `steer` delivers the prompt at the run's next safe point (after the
   * running tools finish); `followUp` queues it for after the run. Without a mode, a second prompt
   * while a run is in flight is a ConfigError `SESSION_BUSY`.
   */
  mode?: DeliveryMode;
  attachments?: ImagePart[];
  /** The id of the user message this prompt becomes (and of its queue entry). Default: a random UUID. */
  id?: string;
  /**
   * Structured output for this run (overrides the session's `output`): the answer lands validated in
   * `result.value.output`. Not for a steered prompt, which joins the run in flight.
   */
  output?: StandardSchema<unknown, O>;
}

/** Every option of `chat` and `stream`, for the unknown-key check (see `checkChatOptions`). */
export const CHAT_OPTION_KEYS = [
  "signal",
  "mode",
  "attachments",
  "id",
  "output",
] as const satisfies ReadonlyArray<keyof ChatOptions>;

// Adding an option to ChatOptions without listing it above fails to compile here.
const _everyChatOption: [Exclude<keyof ChatOptions, (typeof CHAT_OPTION_KEYS)[number]>] extends [never]
  ? true
  : never = true;
void _everyChatOption;

/**
 * The first problem with the options of one `chat` or `stream` call, or undefined: not an object, an
 * unknown key (`{ sigal }`, with "did you mean"), a `mode` that is neither `steer` nor `followUp`, a
 * `signal` that is no AbortSignal, an `id` that is no string. `attachments` are checked with the prompt.
 */
export function checkChatOptions(options: unknown): ConfigError | undefined {
  if (options === undefined) return undefined;
  const problem =
    notAnObject(options, "The chat options") ?? unknownOption(options as object, CHAT_OPTION_KEYS);
  if (problem !== undefined) return problem;
  const { mode, signal, id } = options as Record<string, unknown>;
  if (mode !== undefined && mode !== "steer" && mode !== "followUp") {
    const guess = typeof mode === "string" ? didYouMean(mode, ["steer", "followUp"]) : undefined;
    return invalidOption(
      `mode must be "steer" or "followUp", got ${showValue(mode)}${guess ? ` — did you mean "${guess}"?` : ""}`,
      "mode",
    );
  }
  return notSignalOption(signal, "signal") ?? notStringOption(id, "id");
}

/** The first problem with the options of one `resume` call (`{ signal? }`), or undefined. */
export function checkResumeOptions(options: unknown): ConfigError | undefined {
  if (options === undefined) return undefined;
  return (
    notAnObject(options, "The resume options") ??
    unknownOption(options as object, ["signal"]) ??
    notSignalOption((options as { signal?: unknown }).signal, "signal")
  );
}

const PARAMETER_KEYS = ["maxTokens", "temperature", "stopSequences", "maxTurns"] as const;

/** The run configuration: the caller's options over what the restored state remembers. */
export function sessionConfig(options: SessionOptions, state: SessionState | undefined): AgentConfig {
  const { restore: _, sessionId: __, metadata: ___, approvalSecret: ____, ...rest } = options;
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
