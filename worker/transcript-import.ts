/**
 * What the import route accepts: a Wisp session (SessionState JSON), a Claude Code transcript or a pi
 * session file (JSONL), told apart by their content, not by what the client calls them.
 *
 * @module
 */

import { parseSessionState, type SessionState } from "wisp-agent";
import { fromClaudeCode, fromPi, type TranscriptWarning } from "wisp-agent/formats";
import { ApiError, MAX_IMPORT_BODY, readText } from "./api-error.ts";

/** The formats an import may be in. */
export type ImportFormat = "wisp" | "claude-code" | "pi";

/** An import, read: the state to store, its format, and the lines the reader skipped or repaired. */
export interface ReadImport {
  state: SessionState;
  format: ImportFormat;
  warnings: TranscriptWarning[];
}

const TYPES = [/^application\/json\b/i, /^application\/(x-)?(nd)?jsonl?\b/i, /^text\/plain\b/i];

/**
 * The format of an import body. One JSON value is Wisp's state, unless it is a single transcript line
 * (an object with a string `type`, as every Claude Code and pi line has and a SessionState has not), so
 * a malformed state is still answered with the state's own error and path. Anything else is JSONL: pi's
 * when its first line is a `session` header, Claude Code's otherwise.
 */
function detectFormat(text: string): ImportFormat {
  try {
    const whole: unknown = JSON.parse(text);
    const isLine =
      typeof whole === "object" && whole !== null && typeof (whole as { type?: unknown }).type === "string";
    if (!isLine) return "wisp";
  } catch {
    // Not one JSON value: JSONL.
  }
  const first = text.slice(0, text.indexOf("\n") === -1 ? text.length : text.indexOf("\n"));
  try {
    const line: unknown = JSON.parse(first);
    if (typeof line === "object" && line !== null && (line as { type?: unknown }).type === "session")
      return "pi";
  } catch {
    // A first line that is not JSON: the Claude Code reader reports it by number.
  }
  return "claude-code";
}

/** Reads an import request's body in whichever of the three formats it is; 400 with the reason when unreadable. */
export async function readImport(request: Request): Promise<ReadImport> {
  const text = await readText(request, MAX_IMPORT_BODY, TYPES, "application/json or application/x-ndjson");
  const format = detectFormat(text);
  if (format === "wisp") {
    // A ConfigError names the first bad path: the app answers 400.
    return { state: parseSessionState(JSON.parse(text)), format, warnings: [] };
  }
  const read = format === "pi" ? await fromPi(text) : await fromClaudeCode(text);
  if (!read.ok) {
    const line = read.error.details?.line;
    throw new ApiError(
      400,
      "TRANSCRIPT_INVALID",
      read.error.message,
      typeof line === "number" ? `line ${line}` : undefined,
    );
  }
  return { state: read.value.state, format, warnings: read.value.warnings };
}
