/**
 * Exporting a session as another tool's transcript (worker/transcript-export.ts): an unknown format is
 * refused with the formats there are, and the download's file name keeps the session id's word
 * characters and dashes and replaces every other character with `_`.
 */
import { describe, expect, it } from "vitest";
import { fromClaudeCode } from "wisp-agent/formats";
import ccShort from "../../../shared/fixtures/sessions/claude-code-short.jsonl?raw";
import { ApiError } from "../api-error.ts";
import { exportFormat, transcriptResponse } from "../transcript-export.ts";

describe("exportFormat", () => {
  it("refuses an unknown format, naming the formats there are", () => {
    let thrown: unknown;
    try {
      exportFormat("docx");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({
      status: 400,
      code: "INVALID_REQUEST",
      message: "format must be one of wisp, claude-code, pi",
      path: "format",
    });
  });
});

describe("transcriptResponse", () => {
  it("names the file after the format and the session id, other characters replaced with _", async () => {
    const read = await fromClaudeCode(ccShort);
    if (!read.ok) throw read.error;
    const state = { ...read.value.state, sessionId: "Ab_9-x.y/z w" };
    expect(transcriptResponse(state, "pi").headers.get("content-disposition")).toBe(
      'attachment; filename="pi-Ab_9-x_y_z_w.jsonl"',
    );
    expect(transcriptResponse(state, "claude-code").headers.get("content-disposition")).toBe(
      'attachment; filename="claude-code-Ab_9-x_y_z_w.jsonl"',
    );
  });
});
