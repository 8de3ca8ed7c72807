/**
 * Telling an import's format apart (worker/transcript-import.ts), through the import route: a JSON
 * `null` is a (malformed) Wisp state, a pi header without a final newline is still pi, a file with
 * nothing in it is a 400 without a line, and a body of another media type is told what to send.
 */
import { describe, expect, it } from "vitest";
import { call } from "./api.ts";

function importing(text: string, type = "application/x-ndjson"): Promise<Response> {
  return call("/api/sessions/import", { method: "POST", headers: { "content-type": type }, body: text });
}

async function errorOf(response: Response): Promise<{ code: string; message: string; path?: string }> {
  return ((await response.json()) as { error: { code: string; message: string; path?: string } }).error;
}

describe("import format detection", () => {
  it("reads a JSON null as a Wisp state, refused by the state's own check, not as a transcript", async () => {
    const response = await importing("null", "application/json");
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).not.toBe("TRANSCRIPT_INVALID");
    expect(error.code).toBe("CONFIG_INVALID");
  });

  it("reads a one-line pi file without a final newline as pi", async () => {
    const header = JSON.stringify({
      type: "session",
      version: 3,
      id: "one-line",
      timestamp: "2025-01-01T00:00:00.000Z",
      cwd: "/",
    });
    const response = await importing(header);
    const body = await response.text();
    expect(response.status, body).toBe(201);
    expect((JSON.parse(body) as { format: string }).format).toBe("pi");
  });

  it("answers an empty file with a 400 TRANSCRIPT_INVALID that names no line", async () => {
    const response = await importing("");
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("TRANSCRIPT_INVALID");
    expect(error.path).toBeUndefined();
  });

  it("tells a body of another media type which types to send", async () => {
    const response = await importing("{}", "text/html");
    expect(response.status).toBe(415);
    expect((await errorOf(response)).message).toBe(
      "Send the body as application/json or application/x-ndjson",
    );
  });
});
