/**
 * Builds user messages from what callers pass: a string or content parts, plus attachments.
 *
 * @module
 */

import { randomId } from "../message/random-id.ts";
import type { ImagePart, UserContentPart, UserMessage } from "../types.ts";

/** A new user message holding `content`, with a random id unless one is given. */
export function userMessage(content: UserContentPart[], id: string = randomId()): UserMessage {
  return { id, role: "user", content, timestamp: Date.now() };
}

/** The content parts of a prompt: its text or parts, then the attachments. */
export function promptContent(
  prompt: string | UserContentPart[],
  attachments: ImagePart[] = [],
): UserContentPart[] {
  const parts: UserContentPart[] =
    typeof prompt === "string" ? [{ type: "text", text: prompt }] : [...prompt];
  return [...parts, ...attachments];
}
