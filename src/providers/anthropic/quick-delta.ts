/**
 * The events that make up almost all of an Anthropic stream, read without `JSON.parse` when they come
 * in the compact form Anthropic sends (see quick-json.ts): a text, thinking or tool-argument delta,
 *
 * `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}`
 *
 * with or without the spaces Anthropic pads before the last braces, when the event is at most
 * {@link QUICK_ANTHROPIC_MAX_CHARS} long.
 *
 * @module
 */

import type { EventData } from "../parse-event-data.ts";
import { INDEX, matchWhole, SPACE, STRING, unquoted, wholeForm } from "../quick-json.ts";

/**
 * The longest event read here (see `matchWhole`): a delta of about 170 characters. Measured in V8
 * against `JSON.parse`, this reader takes 0.45 of its time on an 8-character delta, 0.9 on a
 * 200-character one and 1.3 on a 400-character one.
 */
export const QUICK_ANTHROPIC_MAX_CHARS = 256;

/** The delta's type and its one field, captured together so that a type cannot take another's field. */
const FORM = wholeForm(
  `\\{"type":"content_block_delta","index":${INDEX},"delta":\\{"type":"(text_delta","text|input_json_delta","partial_json|thinking_delta","thinking)":${STRING}${SPACE}\\}${SPACE}\\}${SPACE}`,
);

/**
 * `data` (an event's `data:` text) as `JSON.parse` reads it, when it is a text, thinking or argument
 * delta in the compact form; else undefined, and the caller parses it.
 */
export function quickAnthropicDelta(data: string): EventData | undefined {
  const match = matchWhole(FORM, data, QUICK_ANTHROPIC_MAX_CHARS);
  if (match === null) return undefined;
  const [, index, typeAndField, inside] = match as unknown as [string, string, string, string];
  const value = unquoted(inside);
  if (value === undefined) return undefined;
  // Literal shapes (a computed key would make a slow dictionary object): te(xt), th(inking), in(put).
  const delta =
    typeAndField[1] === "e"
      ? { type: "text_delta", text: value }
      : typeAndField[1] === "h"
        ? { type: "thinking_delta", thinking: value }
        : { type: "input_json_delta", partial_json: value };
  return { type: "content_block_delta", index: Number(index), delta };
}
