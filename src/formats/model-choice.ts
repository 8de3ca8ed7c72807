/**
 * Which provider and model a read transcript continues with. Claude Code lines name a model only, and
 * Wisp writes the replies of other providers into them as `"provider/model"`, so a model name is
 * split when its prefix is a Wisp provider (or an alias such as `openai`); anything else is a bare
 * model id of the format's own provider.
 *
 * @module
 */

import { resolveModel } from "../providers/registry.ts";
import type { ProviderId } from "../types.ts";

/** The model a transcript with no assistant reply continues with, unless the caller names one. */
export const FALLBACK_MODEL = "claude-sonnet-4-5";

/** A provider and model, either possibly unknown. */
export interface ModelChoice {
  provider?: ProviderId | undefined;
  model?: string | undefined;
}

/** `name` split into provider and model when it starts with a Wisp provider; else the bare model. */
export function splitModel(name: string): ModelChoice {
  if (name.indexOf("/") <= 0) return { model: name };
  try {
    return resolveModel(name);
  } catch {
    return { model: name }; // "meta-llama/…": a model id with a slash, not a provider
  }
}

/** How a reply's model is written into a Claude Code line: bare for Anthropic, else `provider/model`. */
export function qualifiedModel(provider: ProviderId, model: string): string {
  return provider === "anthropic" ? model : `${provider}/${model}`;
}

/**
 * The session's provider and model: what the file names, else the caller's `model` option
 * (`"provider/model"`, or a bare id of the provider the file names, else Anthropic's), else
 * Anthropic's {@link FALLBACK_MODEL}. A provider the file names without a model is kept only with a
 * model named for it.
 */
export function continueWith(
  found: ModelChoice,
  option: string | undefined,
): { provider: ProviderId; model: string } {
  const chosen = found.model !== undefined ? found : option !== undefined ? splitModel(option) : undefined;
  if (chosen?.model === undefined) return { provider: "anthropic", model: FALLBACK_MODEL };
  return { provider: chosen.provider ?? found.provider ?? "anthropic", model: chosen.model };
}
