/**
 * Provider lookup by id, and model-string resolution (`"anthropic/claude-sonnet-5-5"`).
 *
 * @module
 */

import { ConfigError } from "../errors/sdk-error.ts";
import type { ProviderId } from "../types.ts";
import type { Provider } from "./provider.ts";

/**
 * Each provider is loaded on first use, so a program bundled with code splitting downloads only the
 * wire formats it talks to (a bundle without splitting simply inlines them).
 */
const PROVIDERS: Record<ProviderId, () => Promise<Provider>> = {
  anthropic: () => import("./anthropic/index.ts").then((module) => module.anthropicProvider),
  "openai-chat": () => import("./openai-chat/index.ts").then((module) => module.openAIChatProvider),
  "openai-responses": () =>
    import("./openai-responses/index.ts").then((module) => module.openAIResponsesProvider),
  google: () => import("./google/index.ts").then((module) => module.geminiProvider),
};

const loaded = new Map<ProviderId, Promise<Provider>>();

/**
 * Loads the provider of a resolved model: imported once, then the same promise every turn. A load
 * that fails (a chunk a browser could not fetch) is forgotten, so the next turn tries again.
 */
export function loadProvider(id: ProviderId): Promise<Provider> {
  let provider = loaded.get(id);
  if (provider === undefined) {
    provider = PROVIDERS[id]();
    loaded.set(id, provider);
    provider.catch(() => loaded.delete(id));
  }
  return provider;
}

/** Names accepted for a provider besides its id. */
const ALIASES: Record<string, ProviderId> = { openai: "openai-chat", gemini: "google" };

/** A provider name as the caller may write it: an id or an alias (`openai`). */
export type ProviderName = ProviderId | "openai" | "gemini";

/** The provider id and bare model id that a model option names. */
export interface ResolvedModel {
  provider: ProviderId;
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
  if (!Object.hasOwn(PROVIDERS, providerId)) {
    throw new ConfigError(
      `Unknown provider "${name}" (known: ${[...Object.keys(PROVIDERS), ...Object.keys(ALIASES)].join(", ")})`,
      {
        code: "CONFIG_INVALID",
        path: "provider",
      },
    );
  }
  if (id.trim() === "")
    throw new ConfigError("The model id is empty", { code: "CONFIG_INVALID", path: "model" });
  return { provider: providerId as ProviderId, model: id };
}
