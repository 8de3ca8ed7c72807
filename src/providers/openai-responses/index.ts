/**
 * The OpenAI Responses provider.
 *
 * @module
 */

import { OPENAI_PRICES } from "../../usage/openai-prices.ts";
import type { Provider } from "../provider.ts";
import { buildResponsesRequest } from "./request.ts";
import { createResponsesStreamHandler } from "./stream.ts";

/** OpenAI Responses (`/responses`), stateless. Model strings: `openai-responses/gpt-5`. */
export const openAIResponsesProvider: Provider = {
  id: "openai-responses",
  defaultBaseURL: "https://api.openai.com/v1",
  prices: OPENAI_PRICES,
  buildRequest: buildResponsesRequest,
  createStreamHandler: createResponsesStreamHandler,
};
