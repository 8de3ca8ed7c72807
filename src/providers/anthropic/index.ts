/**
 * The Anthropic Messages API provider.
 *
 * @module
 */

import { ANTHROPIC_PRICES } from "../../usage/anthropic-prices.ts";
import type { Provider } from "../provider.ts";
import { buildAnthropicRequest } from "./request.ts";
import { createAnthropicStreamHandler } from "./stream.ts";

/** Anthropic Messages (`/v1/messages`). */
export const anthropicProvider: Provider = {
  id: "anthropic",
  defaultBaseURL: "https://api.anthropic.com",
  prices: ANTHROPIC_PRICES,
  buildRequest: buildAnthropicRequest,
  createStreamHandler: createAnthropicStreamHandler,
};
