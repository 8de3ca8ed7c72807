/**
 * The events that make up almost all of a Responses stream, read without `JSON.parse` when they come in
 * one of the compact forms OpenAI has sent (see quick-json.ts): a text, refusal, reasoning or
 * function-argument delta at most {@link QUICK_RESPONSES_MAX_CHARS} long, its keys in today's order,
 *
 * `{"type":"response.output_text.delta","content_index":0,"delta":"Hi","item_id":"msg_…","logprobs":[],
 * "obfuscation":"…","output_index":0,"sequence_number":4}`
 * `{"type":"response.function_call_arguments.delta","sequence_number":5,"item_id":"fc_…",
 * "output_index":1,"delta":"{\"a","obfuscation":"…"}`
 *
 * or in the earlier order without the obfuscation padding and sequence numbers. The object it gives
 * holds what the handler reads (the type, the output index and the delta). The recordings hold text
 * and argument deltas only; reasoning summary deltas carry a `summary_index` no form here takes, so
 * they go to `JSON.parse`.
 *
 * @module
 */

import type { EventData } from "../parse-event-data.ts";
import { INDEX, INTEGER, matchWhole, PLAIN, STRING, unquoted, wholeForm } from "../quick-json.ts";

/** The orders the fields come in: today's two (text, arguments), and the earlier one for both. */
const ORDERS = [
  `"content_index":${INTEGER},"delta":${STRING},"item_id":${PLAIN},"logprobs":\\[\\],"obfuscation":${PLAIN},"output_index":${INDEX},"sequence_number":${INTEGER}`,
  `"sequence_number":${INTEGER},"item_id":${PLAIN},"output_index":${INDEX},"delta":${STRING},"obfuscation":${PLAIN}`,
  `"item_id":${PLAIN},"output_index":${INDEX},(?:"content_index":${INTEGER},)?"delta":${STRING}`,
];

/** The event types read here: each a text, refusal, reasoning or argument delta, by its middle name. */
export const QUICK_RESPONSES_TYPES = [
  "output_text",
  "function_call_arguments",
  "refusal",
  "reasoning_summary_text",
  "reasoning_text",
];

/**
 * Each type by the length of its middle name: they differ (11, 23, 7, 22, 14), and a lookup by length
 * costs nothing where one by name hashes it, 6% of an argument stream. A type added with a length
 * already taken would replace the other here; the tests read every type, so it would show there.
 */
const TYPES = new Map(QUICK_RESPONSES_TYPES.map((name) => [name.length, `response.${name}.delta`]));

/**
 * The longest event read here (see `matchWhole`): a delta of about 230 characters. Measured in V8
 * against `JSON.parse`, this reader takes 0.45 of its time on an 8-character delta, 0.7 on a
 * 200-character one and 1.0 on a 400-character one.
 */
export const QUICK_RESPONSES_MAX_CHARS = 448;

const FORM = wholeForm(
  `\\{"type":"response\\.(${QUICK_RESPONSES_TYPES.join("|")})\\.delta",(?:${ORDERS.join("|")})\\}`,
);

/**
 * `data` (an event's `data:` text) as the handler would read it from `JSON.parse`, when it is a delta
 * in a compact form; else undefined, and the caller parses it.
 */
export function quickResponsesDelta(data: string): EventData | undefined {
  const match = matchWhole(FORM, data, QUICK_RESPONSES_MAX_CHARS);
  if (match === null) return undefined;
  // Today's text order captures the delta before the index; the others the index first. (The tests
  // read every order, so a capture added to a piece of quick-json.ts would show there.)
  const index = match[3] ?? match[4] ?? match[6];
  const delta = unquoted(match[2] ?? match[5] ?? match[7] ?? "");
  if (delta === undefined) return undefined;
  // The type as this module's own string: the handler's switch then compares it at once.
  return { type: TYPES.get(match[1]?.length ?? 0), output_index: Number(index), delta };
}
