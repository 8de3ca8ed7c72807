/**
 * Every Gemini recording in ../shared/fixtures/gemini replays to the right normalized message (or the
 * right typed error), whole and re-chunked at random byte boundaries, including Vertex's streamed
 * `partialArgs`; the finish reasons no recording holds (MAX_TOKENS, SAFETY, MALFORMED_FUNCTION_CALL,
 * a blocked prompt, a cut stream) come out right. Expected values were read off the recordings.
 */
import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "../../src/index.ts";
import { fixtureJson, fixtureText } from "../support/fixtures.ts";
import { replay, replayError } from "../support/replay.ts";
import { itReplaysRecordings, type RecordingCase } from "../support/replay-cases.ts";

const MODEL = "google/gemini-2.5-pro";
const crlf = (...chunks: object[]) =>
  new TextEncoder().encode(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join(""));
const candidate = (parts: object[], finishReason?: string) => ({
  candidates: [{ content: { role: "model", parts }, ...(finishReason ? { finishReason } : {}) }],
});
const signature = (message: AssistantMessage, index: number) => {
  const part = message.content[index];
  return part && "signature" in part ? part.signature : undefined;
};

const cases: RecordingCase[] = [
  {
    file: "gemini/text.sse",
    check(message) {
      expect(message.content).toEqual([{ type: "text", text: "The capital of France is Paris.\n" }]);
      expect(message.stopReason).toBe("complete");
      expect(message.rawStopReason).toBe("STOP");
      expect(message.responseId).toBe("w1peaMz6INOvnvgPgYfPiQY");
      // The last chunk's snapshot (promptTokenCount went 15 → 13 in this recording).
      expect(message.usage).toMatchObject({ input: 13, output: 8, reasoning: 0 });
    },
  },
  {
    file: "gemini/function-call-single-chunk.sse",
    check(message) {
      expect(message.content).toMatchObject([
        { type: "tool_call", name: "get_capital", args: { country: "France" } },
      ]);
      expect(message.stopReason).toBe("toolUse"); // finishReason STOP, with a function call
      expect(message.usage).toMatchObject({ input: 52, output: 5 });
    },
  },
  {
    file: "gemini/function-call-thought-signature.sse",
    check(message) {
      // The trailing empty text part carries nothing and is not kept.
      expect(message.content).toMatchObject([{ type: "tool_call", name: "get_country", args: {} }]);
      expect(signature(message, 0)).toMatch(/^EpwICpkIAXLI2nxlU6gsWZaZ/);
      expect(message.usage).toMatchObject({ input: 29, output: 212, reasoning: 202 });
      expect(message.stopReason).toBe("toolUse");
    },
  },
  {
    file: "gemini/text-after-function-response.sse",
    check(message) {
      expect(message.content).toEqual([{ type: "text", text: "The capital of Mexico is Mexico City." }]);
      expect(message.usage).toMatchObject({ input: 257, output: 8 });
    },
  },
  {
    file: "gemini/thought-parts.sse",
    check(message) {
      expect(message.content.map((part) => part.type)).toEqual(["thinking", "text"]);
      expect(message.content[0]).toMatchObject({
        text: expect.stringMatching(/^\*\*Clarifying User Goals\*\*/),
      });
      expect(message.content[1]).toMatchObject({ text: expect.stringMatching(/^This is a great question!/) });
      expect(signature(message, 1)).toMatch(/^CiIB0e2Kb6Syj1a961EfbWv4W5C8RgAA/);
      expect(message.usage).toMatchObject({ input: 34, output: 469 + 787, reasoning: 787 });
    },
  },
  {
    file: "gemini/vertex-partial-args.chunks.jsonl",
    check(message) {
      expect(message.content).toMatchObject([
        { type: "tool_call", name: "getWeather", args: { location: "Boston" } },
        { type: "tool_call", name: "getWeather", args: { location: "San Francisco" } },
      ]);
      expect(signature(message, 0)).toMatch(/^CiMBjz1rX25KieIB4d4AwFn8/);
      expect(message.usage).toMatchObject({ input: 26, output: 23 + 132, reasoning: 132 });
      expect(message.stopReason).toBe("toolUse");
    },
  },
];

describe("Gemini recordings", () => {
  it("the recordings are \\r\\n framed (what the parser must survive)", () => {
    expect(fixtureText("gemini/text.sse")).toContain("\r\n\r\n");
  });

  itReplaysRecordings(MODEL, cases, [1, 2, 3, 4, 5]);

  it("429 RESOURCE_EXHAUSTED is RATE_LIMITED and waits the body's retryDelay", async () => {
    const body = fixtureJson("gemini/error-429-resource-exhausted.body.json");
    const message = await replayError(MODEL, body, 429);
    expect(message.error).toMatchObject({ code: "RATE_LIMITED", retryable: true, retryAfterMs: 34_400 });
  });

  it("404 NOT_FOUND for a model is MODEL_NOT_FOUND", async () => {
    const recorded = fixtureJson<{ response: { body: unknown } }>("gemini/error-404-not-found.json");
    const message = await replayError(MODEL, recorded.response.body, 404);
    expect(message.error).toMatchObject({ code: "MODEL_NOT_FOUND", status: 404, retryable: false });
  });

  it("MAX_TOKENS, SAFETY and a blocked prompt end the turn as they should", async () => {
    const long = await replay(MODEL, [crlf(candidate([{ text: "Once upon" }], "MAX_TOKENS"))]);
    expect(long.message.stopReason).toBe("maxTokens");
    const unsafe = await replay(MODEL, [crlf({ candidates: [{ content: {}, finishReason: "SAFETY" }] })]);
    expect(unsafe.message).toMatchObject({ stopReason: "refusal", rawStopReason: "SAFETY", content: [] });
    const blocked = await replay(MODEL, [crlf({ promptFeedback: { blockReason: "PROHIBITED_CONTENT" } })]);
    expect(blocked.message).toMatchObject({ stopReason: "refusal", rawStopReason: "PROHIBITED_CONTENT" });
  });

  it("MALFORMED_FUNCTION_CALL fails the turn with a retryable error; a stream with no finish is truncated", async () => {
    const malformed = await replay(MODEL, [crlf(candidate([], "MALFORMED_FUNCTION_CALL"))]);
    expect(malformed.message.error).toMatchObject({
      code: "SERVER_ERROR",
      retryable: true,
      providerCode: "MALFORMED_FUNCTION_CALL",
    });
    const cut = await replay(MODEL, [crlf(candidate([{ text: "Hel" }]))]);
    expect(cut.message.error).toMatchObject({ code: "STREAM_TRUNCATED" });
    expect(cut.message.content).toEqual([{ type: "text", text: "Hel" }]);
  });

  it("an error inside the stream is a typed error", async () => {
    const { message } = await replay(MODEL, [
      crlf({ error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } }),
    ]);
    expect(message.error).toMatchObject({ code: "OVERLOADED", retryable: true });
  });
});
