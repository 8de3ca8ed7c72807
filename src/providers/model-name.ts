/**
 * `ModelName`: the `model` option's type. Any `"provider/model"` string type-checks; the models Wisp
 * knows (those with a built-in price) autocomplete.
 *
 * @module
 */

import type { ProviderName } from "./registry.ts";

/** Anthropic models Wisp knows by name (any other id works too). */
export type AnthropicModelId =
  | "claude-fable-5-1"
  | "claude-opus-5-5"
  | "claude-opus-5"
  | "claude-sonnet-5-5"
  | "claude-sonnet-5"
  | "claude-haiku-5-5"
  | "claude-opus-4-8"
  | "claude-opus-4-7"
  | "claude-opus-4-6"
  | "claude-sonnet-4-6"
  | "claude-opus-4-5"
  | "claude-sonnet-4-5"
  | "claude-haiku-4-5";

/** OpenAI models Wisp knows by name (any other id works too). */
export type OpenAIModelId =
  | "gpt-6.1-sol"
  | "gpt-5.6-sol"
  | "gpt-5.6-terra"
  | "gpt-5.6-luna"
  | "gpt-5.5"
  | "gpt-5.4"
  | "gpt-5.4-mini"
  | "gpt-5"
  | "gpt-5-mini"
  | "gpt-5-nano"
  | "gpt-4.1"
  | "gpt-4.1-mini"
  | "o4-mini";

/** Gemini models Wisp knows by name (any other id works too). */
export type GeminiModelId =
  | "gemini-3-pro-preview"
  | "gemini-2.5-pro"
  | "gemini-2.5-flash"
  | "gemini-2.5-flash-lite";

/** The `"provider/model"` names that autocomplete. */
export type KnownModelName =
  | `anthropic/${AnthropicModelId}`
  | `openai/${OpenAIModelId}`
  | `openai-chat/${OpenAIModelId}`
  | `openai-responses/${OpenAIModelId}`
  | `google/${GeminiModelId}`
  | `gemini/${GeminiModelId}`;

/**
 * A model as the `model` option takes it: `"provider/model"`, where provider is one of
 * {@link ProviderName}. Known models autocomplete; any other model id type-checks as well
 * (`"openai/llama3.2"` for an OpenAI-compatible server). A model name held in a `string` variable goes
 * through {@link uncheckedModel}.
 *
 * (The `& Record<never, never>` keeps TypeScript from folding the known names into the pattern, which
 * would lose their autocompletion.)
 */
export type ModelName = KnownModelName | (`${ProviderName}/${string}` & Record<never, never>);

declare const unchecked: unique symbol;

/**
 * A model name the compiler does not check: what {@link uncheckedModel} gives. Its provider prefix is
 * checked when the run starts instead (an unknown one is a ConfigError at `provider`).
 */
export type UncheckedModel = string & {
  /** A type-only brand (no such property exists at run time): only `uncheckedModel` makes one. */
  readonly [unchecked]: true;
};

/**
 * What the `model` option accepts: a {@link ModelName} — a literal whose provider prefix the compiler
 * checks (`"antropic/claude-sonnet-5-5"` is a type error, with "Did you mean" for a near miss; known models
 * autocomplete; any model id after a known prefix works) — or, through the explicit escape
 * {@link uncheckedModel}, any string (a model read from configuration or the environment, a bare id
 * given with `provider`), checked when the run starts.
 */
export type ModelOption = ModelName | UncheckedModel;

/**
 * The escape from the compile-time check of `model`: takes any string (from configuration, the
 * environment, a user's choice) as a model name, to be checked when the run starts.
 *
 * @example
 * ```ts
 * const result = await runAgent({ model: uncheckedModel(settings.model), apiKey, prompt: "Hi" });
 * ```
 */
export function uncheckedModel(name: string): UncheckedModel {
  return name as UncheckedModel;
}
