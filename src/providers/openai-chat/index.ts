/**
 * The OpenAI Chat Completions provider, also for OpenAI-compatible servers.
 *
 * @module
 */

import type { Provider } from "../provider.ts";
import { buildOpenAIChatRequest } from "./request.ts";
import { createOpenAIChatStreamHandler } from "./stream.ts";

/** OpenAI Chat Completions (`/chat/completions`) and compatible servers. */
export const openAIChatProvider: Provider = {
  id: "openai-chat",
  defaultBaseURL: "https://api.openai.com/v1",
  buildRequest: buildOpenAIChatRequest,
  createStreamHandler: createOpenAIChatStreamHandler,
};
