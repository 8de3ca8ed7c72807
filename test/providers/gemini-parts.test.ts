/**
 * Gemini parts beyond text and whole function calls: Vertex's streamed `partialArgs` whose last
 * piece carries arguments itself (no `willContinue`, no empty `functionCall: {}` after it), and the
 * built-in tools' parts (`toolCall` / `toolResponse` with thought signatures, `executableCode`), kept
 * whole and sent back as they came.
 */
import { describe, expect, it } from "vitest";
import { toGeminiContents } from "../../src/providers/google/request.ts";
import { replay } from "../support/replay.ts";

const MODEL = "google/gemini-3-pro-preview";
const crlf = (...chunks: object[]) =>
  new TextEncoder().encode(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join(""));
const candidate = (parts: object[], finishReason?: string) => ({
  candidates: [{ content: { role: "model", parts }, ...(finishReason ? { finishReason } : {}) }],
});
const piece = (jsonPath: string, value: object, willContinue = true) => ({
  functionCall: { partialArgs: [{ jsonPath, ...value }], ...(willContinue ? { willContinue } : {}) },
});

describe("Vertex's streamed arguments", () => {
  const start = (name: string) => ({ functionCall: { name, willContinue: true } });

  it("keeps the arguments of a last piece without willContinue, ended by the finish reason", async () => {
    for (const ending of [
      [candidate([piece("$.items[1]", { stringValue: "b" }, false)]), candidate([{ text: "" }], "STOP")],
      [candidate([piece("$.items[1]", { stringValue: "b" }, false)], "STOP")],
    ]) {
      const { message } = await replay(MODEL, [
        crlf(candidate([start("write")]), candidate([piece("$.items[0]", { stringValue: "a" })]), ...ending),
      ]);
      expect(message.content).toMatchObject([
        { type: "tool_call", name: "write", args: { items: ["a", "b"] } },
      ]);
      expect(message.stopReason).toBe("toolUse");
    }
  });

  it("ends a streamed call at the next part: a second call, or text", async () => {
    const { message } = await replay(MODEL, [
      crlf(
        candidate([start("first")]),
        candidate([piece("$.n", { numberValue: 1 }, false)]),
        candidate([start("second")]),
        candidate([piece("$.n", { numberValue: 2 }, false)]),
        candidate([{ text: "Both called." }], "STOP"),
      ),
    ]);
    expect(message.content).toMatchObject([
      { type: "tool_call", name: "first", args: { n: 1 } },
      { type: "tool_call", name: "second", args: { n: 2 } },
      { type: "text", text: "Both called." },
    ]);
  });
});

describe("built-in tool parts", () => {
  const toolCall = { toolCall: { toolType: "FILE_SEARCH", id: "t1" }, thoughtSignature: "sig-call" };
  const toolResponse = {
    toolResponse: { toolType: "FILE_SEARCH", id: "t1" },
    thoughtSignature: "sig-response",
  };
  const code = { executableCode: { language: "PYTHON", code: "print(1)\n" } };

  it("are kept whole, signatures and all, in their place, and go back to Gemini as they came", async () => {
    const { message, events } = await replay(MODEL, [
      crlf(
        candidate([toolCall]),
        candidate([toolResponse]),
        candidate([code]),
        candidate([{ text: "Paris." }]),
        candidate([{ text: "", thoughtSignature: "sig-text" }], "STOP"),
      ),
    ]);
    expect(message.content).toEqual([
      { type: "provider", provider: "google", block: toolCall },
      { type: "provider", provider: "google", block: toolResponse },
      { type: "provider", provider: "google", block: code },
      { type: "text", text: "Paris.", signature: "sig-text" },
    ]);
    expect(message.stopReason).toBe("complete");
    expect(events.filter((event) => event.type === "provider-part").map((event) => event.index)).toEqual([
      0, 1, 2,
    ]);
    expect(toGeminiContents([message])).toEqual([
      {
        role: "model",
        parts: [toolCall, toolResponse, code, { text: "Paris.", thoughtSignature: "sig-text" }],
      },
    ]);
  });

  it("a signature alone, on a part of its own, still goes with the part before it", async () => {
    const { message } = await replay(MODEL, [
      crlf(candidate([{ text: "Hi" }]), candidate([{ thoughtSignature: "sig" }], "STOP")),
    ]);
    expect(message.content).toEqual([{ type: "text", text: "Hi", signature: "sig" }]);
  });
});
