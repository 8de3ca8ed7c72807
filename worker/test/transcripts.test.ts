/**
 * Importing other runtimes' transcripts into the demo and exporting sessions as them, inside workerd:
 * the format is told by content, a Claude Code file comes back line for line, a pi file continues and
 * exports, and a broken file is a 400 naming its problem.
 */
import { describe, expect, it } from "vitest";
import ccShort from "../../../shared/fixtures/sessions/claude-code-short.jsonl?raw";
import piLarge from "../../../shared/fixtures/sessions/pi-session-v1-large.jsonl?raw";
import { auth, call, createSession, readEvents, send } from "./api.ts";

function importBody(text: string, type = "application/x-ndjson"): RequestInit {
  return { method: "POST", headers: { "content-type": type }, body: text };
}

async function imported(text: string, type?: string) {
  const response = await call("/api/sessions/import", importBody(text, type));
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as {
    sessionId: string;
    token: string;
    format: string;
    warningCount: number;
  };
}

const exported = (session: { sessionId: string; token: string }, format?: string) =>
  call(`/api/sessions/${session.sessionId}/export${format ? `?format=${format}` : ""}`, auth(session.token));

describe("import", () => {
  it("a Claude Code transcript is detected, stored, and exports back line for line", async () => {
    const session = await imported(ccShort);
    expect([session.format, session.warningCount]).toEqual(["claude-code", 0]);
    const state = (await (await exported(session)).json()) as { messages: { role: string }[] };
    expect(state.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool_result",
      "user",
    ]);
    const back = await exported(session, "claude-code");
    expect(back.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    expect(back.headers.get("content-disposition")).toMatch(
      /^attachment; filename="claude-code-[\w-]+\.jsonl"$/,
    );
    expect(await back.text()).toBe(ccShort);
  });

  it("a pi file continues in the demo and exports as pi and as Claude Code", async () => {
    const session = await imported(piLarge, "text/plain");
    expect(session.format).toBe("pi");
    const { events } = await readEvents(await send(session, "Summarize"));
    expect(events.at(-1)?.event).toBe("run-end");
    const pi = await (await exported(session, "pi")).text();
    expect(pi.startsWith(piLarge)).toBe(true);
    expect(pi.slice(piLarge.length)).toContain("Summarize");
    const claude = await (await exported(session, "claude-code")).text();
    const lines = claude
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.at(-2).message.content).toBe("Summarize");
  });

  it("a Wisp session is still imported as JSON", async () => {
    const first = await imported(ccShort);
    const state = await (await exported(first)).text();
    const second = await imported(state, "application/json");
    expect(second.format).toBe("wisp");
  });

  it("a file with nothing to read is a 400 TRANSCRIPT_INVALID; an unknown export format is a 400", async () => {
    const bad = await call("/api/sessions/import", importBody('{"type":"session"}\n'));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: object }).error).toMatchObject({
      code: "TRANSCRIPT_INVALID",
      path: "line 1",
    });
    const session = await createSession();
    const wrong = await exported(session, "docx");
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: object }).error).toMatchObject({
      code: "INVALID_REQUEST",
      path: "format",
    });
  });

  it("a body of another media type is a 415", async () => {
    const response = await call("/api/sessions/import", importBody(ccShort, "application/pdf"));
    expect(response.status).toBe(415);
  });
});
