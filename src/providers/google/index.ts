/**
 * The Google Gemini provider.
 *
 * @module
 */

import { GEMINI_PRICES } from "../../usage/gemini-prices.ts";
import type { Provider } from "../provider.ts";
import { buildGeminiRequest } from "./request.ts";
import { createGeminiStreamHandler } from "./stream.ts";

/** Google Gemini (`streamGenerateContent`). Model strings: `google/gemini-2.5-pro` (or `gemini/…`). */
export const geminiProvider: Provider = {
  id: "google",
  defaultBaseURL: "https://generativelanguage.googleapis.com/v1beta",
  prices: GEMINI_PRICES,
  buildRequest: buildGeminiRequest,
  createStreamHandler: createGeminiStreamHandler,
};
