/**
 * The text of a message: its text parts joined, everything else left out.
 *
 * @module
 */

import type { AssistantMessage } from "../types.ts";

/** The text parts of `message`, joined. */
export function textOf(message: AssistantMessage): string {
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}
