/**
 * The checks of a run's input: its prompt (text, or text and image parts) and attachments, as plain
 * JavaScript can get them wrong, and a prompt with nothing to send.
 *
 * @module
 */

import { invalidOption as invalid } from "../config/option-checks.ts";
import { showValue } from "../config/show-value.ts";
import type { ConfigError } from "../errors/sdk-error.ts";
import type { UserContentPart } from "../types.ts";

/** A ConfigError when `value` is not a user content part (`{ type: "text", text }` or an image). */
function badPart(value: unknown, path: string): ConfigError | undefined {
  const part = value as { type?: unknown; text?: unknown; data?: unknown; url?: unknown } | null;
  if (typeof part !== "object" || part === null) return invalid("expected a content part object", path);
  if (part.type === "text")
    return typeof part.text === "string" ? undefined : invalid("text must be a string", `${path}.text`);
  if (part.type === "image") {
    return typeof part.data === "string" || typeof part.url === "string"
      ? undefined
      : invalid("an image needs data (base64) or a url", path);
  }
  return invalid(`expected type "text" or "image", got ${showValue(part.type)}`, `${path}.type`);
}

/** A ConfigError when `prompt` (required) is not a string or an array of content parts. */
export function promptProblem(prompt: unknown, path = "prompt"): ConfigError | undefined {
  if (prompt === undefined || prompt === null) {
    return invalid(`${path} is required: a string, or an array of text and image parts`, path);
  }
  if (typeof prompt === "string") return undefined;
  if (!Array.isArray(prompt))
    return invalid(`${path} must be a string or an array of parts, got ${typeof prompt}`, path);
  for (const [index, part] of prompt.entries()) {
    const problem = badPart(part, `${path}.${index}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** A ConfigError when `attachments` is set but not an array of image parts. */
export function attachmentsProblem(attachments: unknown, path = "attachments"): ConfigError | undefined {
  if (attachments === undefined) return undefined;
  if (!Array.isArray(attachments)) return invalid(`${path} must be an array of image parts`, path);
  for (const [index, part] of attachments.entries()) {
    const problem =
      (part as { type?: unknown })?.type === "image"
        ? badPart(part, `${path}.${index}`)
        : invalid("expected an image part", `${path}.${index}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * A ConfigError when `prompt` is not a string or an array of content parts, or `attachments` is not an
 * array of images — the shapes plain JavaScript can get wrong.
 */
export function checkPromptInput(prompt: unknown, attachments: unknown): ConfigError | undefined {
  return promptProblem(prompt) ?? attachmentsProblem(attachments);
}

/**
 * Returns a ConfigError when a prompt has nothing to send: no text and no image. An image part always
 * counts: every way in has checked that it has data or a url (badPart, the restored state's shape).
 */
export function checkPrompt(content: UserContentPart[]): ConfigError | undefined {
  const hasContent = content.some((part) => part.type !== "text" || part.text.trim() !== "");
  return hasContent ? undefined : invalid("The prompt is empty: give it text or an image", "prompt");
}
