/**
 * The OpenAI Chat Completions provider, also for OpenAI-compatible servers.
 *
 * @module
 */

import { OPENAI_PRICES } from "../../usage/openai-prices.ts";
import type { Provider } from "../provider.ts";
import { buildOpenAIChatRequest } from "./request.ts";
import { createOpenAIChatStreamHandler } from "./stream.ts";

/** OpenAI Chat Completions (`/chat/completions`) and compatible servers. */
export const openAIChatProvider: Provider = {
  id: "openai-chat",
  defaultBaseURL: "https://api.openai.com/v1",
  prices: OPENAI_PRICES,
  buildRequest: buildOpenAIChatRequest,
  createStreamHandler: createOpenAIChatStreamHandler,
};
