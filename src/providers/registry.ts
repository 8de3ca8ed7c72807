/**
 * Provider lookup by id, and model-string resolution (`"anthropic/claude-sonnet-5-5"`).
 *
 * @module
 */

import { ConfigError } from "../errors/sdk-error.ts";
import type { ProviderId } from "../types.ts";
import { anthropicProvider } from "./anthropic/index.ts";
import { openAIChatProvider } from "./openai-chat/index.ts";
import type { Provider } from "./provider.ts";

const PROVIDERS: Record<ProviderId, Provider> = {
  anthropic: anthropicProvider,
  "openai-chat": openAIChatProvider,
};

/** Names accepted for a provider besides its id. */
const ALIASES: Record<string, ProviderId> = { openai: "openai-chat" };

/** A provider name as the caller may write it: an id or an alias (`openai`). */
export type ProviderName = ProviderId | "openai";

/** The provider and bare model id that a model option names. */
export interface ResolvedModel {
  provider: Provider;
  model: string;
}

/**
 * Resolves `model` (`"provider/model"`, or a bare model with `provider`) to a provider and model id.
 * Throws ConfigError(CONFIG_INVALID) for an unknown provider or an empty model.
 */
export function resolveModel(model: string, provider?: ProviderName): ResolvedModel {
  let name: string | undefined = provider;
  let id = model;
  const slash = model.indexOf("/");
  if (name === undefined && slash > 0) {
    name = model.slice(0, slash);
    id = model.slice(slash + 1);
  }
  if (name === undefined) {
    throw new ConfigError(`No provider in model "${model}": write "provider/model" or pass provider`, {
      code: "CONFIG_INVALID",
      path: "model",
    });
  }
  const providerId = ALIASES[name] ?? name;
  const found = PROVIDERS[providerId as ProviderId];
  if (found === undefined) {
    throw new ConfigError(
      `Unknown provider "${name}" (known: ${Object.keys(PROVIDERS).join(", ")}, openai)`,
      {
        code: "CONFIG_INVALID",
        path: "provider",
      },
    );
  }
  if (id.trim() === "")
    throw new ConfigError("The model id is empty", { code: "CONFIG_INVALID", path: "model" });
  return { provider: found, model: id };
}
