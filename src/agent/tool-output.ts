/**
 * Turns what a tool returned into the text sent back to the model.
 *
 * @module
 */

import type { ToolOutput } from "./define-tool.ts";

/** Text as is, nothing as `""`, any other value as its JSON text. Throws for values JSON cannot hold. */
export function toolOutputText(value: ToolOutput): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`The tool returned a ${typeof value}, which is not JSON`);
  return text;
}
