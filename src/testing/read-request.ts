/**
 * A request the scripted model received, read back into Wisp's terms: the body of each wire API goes
 * to its reader (read-anthropic-request.ts, read-openai-chat-request.ts,
 * read-openai-responses-request.ts, read-gemini-request.ts), and the tool results the request sends
 * are taken from the conversation. Reading never throws: a body that is no JSON object, an unknown
 * API, or anything a reader trips over gives the empty reading, so `respond` is always called.
 *
 * @module
 */

import type { Message, ToolResultPart } from "../types.ts";
import { readAnthropicRequest } from "./read-anthropic-request.ts";
import { readGeminiRequest } from "./read-gemini-request.ts";
import { readOpenAIChatRequest } from "./read-openai-chat-request.ts";
import { readOpenAIResponsesRequest } from "./read-openai-responses-request.ts";
import type { RecordedRequest } from "./script.ts";
import { isObject, type ReadRequest } from "./wire-conversation.ts";

/** The fields of a {@link RecordedRequest} that say the request in Wisp's terms. */
export type RequestInWispTerms = Pick<
  RecordedRequest,
  "model" | "messages" | "systemPrompt" | "tools" | "toolResults"
>;

/**
 * The tool results sent after the model's last turn: those of the tool_result messages after the last
 * assistant message (on the wire, the request's last message; a user message may follow them).
 */
function lastToolResults(messages: Message[]): ToolResultPart[] {
  const results: ToolResultPart[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message === undefined || message.role === "assistant") break;
    if (message.role === "tool_result") results.unshift(...message.content);
  }
  return results;
}

function readBody(
  provider: RecordedRequest["provider"],
  body: unknown,
  url: string,
  index: number,
): ReadRequest | undefined {
  if (!isObject(body)) return undefined;
  switch (provider) {
    case "anthropic":
      return readAnthropicRequest(body, index);
    case "openai-chat":
      return readOpenAIChatRequest(body, index);
    case "openai-responses":
      return readOpenAIResponsesRequest(body, index);
    case "google":
      return readGeminiRequest(body, index, url);
    default:
      return undefined;
  }
}

/**
 * Reads request `index` (0-based) to `provider` at `url`, whose parsed JSON body is `body`, into Wisp's
 * terms. Never throws: what cannot be read gives `model: ""` and empty lists.
 */
export function readRequest(
  provider: RecordedRequest["provider"],
  body: unknown,
  url: string,
  index: number,
): RequestInWispTerms {
  let read: ReadRequest | undefined;
  try {
    read = readBody(provider, body, url, index);
  } catch {
    read = undefined;
  }
  if (read === undefined) return { model: "", messages: [], tools: [], toolResults: [] };
  return { ...read, toolResults: lastToolResults(read.messages) };
}
