/**
 * What the export route gives: the stored session as Wisp JSON (the default), or as a Claude Code
 * transcript or a pi session file, ready to save where that tool looks for sessions.
 *
 * @module
 */

import type { SessionState } from "wisp-agent";
import { toClaudeCode, toPi } from "wisp-agent/formats";
import { ApiError } from "./api-error.ts";
import type { ImportFormat } from "./transcript-import.ts";

const FORMATS: readonly ImportFormat[] = ["wisp", "claude-code", "pi"];

/** The `format` query parameter, checked: absent means Wisp JSON; anything unknown is a 400. */
export function exportFormat(value: string | undefined): ImportFormat {
  if (value === undefined) return "wisp";
  if ((FORMATS as readonly string[]).includes(value)) return value as ImportFormat;
  throw new ApiError(400, "INVALID_REQUEST", `format must be one of ${FORMATS.join(", ")}`, "format");
}

/** The session as a JSONL download in `format`. */
export function transcriptResponse(state: SessionState, format: "claude-code" | "pi"): Response {
  const text = format === "pi" ? toPi(state) : toClaudeCode(state);
  return new Response(text, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${format}-${state.sessionId.replace(/[^\w-]/g, "_")}.jsonl"`,
    },
  });
}
