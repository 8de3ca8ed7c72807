/**
 * The OpenAI Responses provider.
 *
 * @module
 */

import type { Provider } from "../provider.ts";
import { buildResponsesRequest } from "./request.ts";
import { createResponsesStreamHandler } from "./stream.ts";

/** OpenAI Responses (`/responses`), stateless. Model strings: `openai-responses/gpt-5`. */
export const openAIResponsesProvider: Provider = {
  id: "openai-responses",
  defaultBaseURL: "https://api.openai.com/v1",
  buildRequest: buildResponsesRequest,
  createStreamHandler: createResponsesStreamHandler,
};
