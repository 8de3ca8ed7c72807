/**
 * The headers of a streamed JSON request to a provider.
 *
 * @module
 */

import type { ProviderConfig } from "./provider.ts";

/**
 * JSON in, server-sent events out, the API key in `keyHeader` (as `keyValue(key)`), then the caller's
 * own headers, which override Wisp's.
 */
export function requestHeaders(
  config: ProviderConfig,
  keyHeader: string,
  keyValue: (key: string) => string = (key) => key,
): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream" };
  if (config.apiKey !== undefined) headers[keyHeader] = keyValue(config.apiKey);
  return Object.assign(headers, config.headers);
}
