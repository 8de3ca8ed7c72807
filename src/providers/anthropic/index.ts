/**
 * The Anthropic Messages API provider.
 *
 * @module
 */

import type { Provider } from "../provider.ts";
import { buildAnthropicRequest } from "./request.ts";
import { createAnthropicStreamHandler } from "./stream.ts";

/** Anthropic Messages (`/v1/messages`). */
export const anthropicProvider: Provider = {
  id: "anthropic",
  defaultBaseURL: "https://api.anthropic.com",
  buildRequest: buildAnthropicRequest,
  createStreamHandler: createAnthropicStreamHandler,
};
