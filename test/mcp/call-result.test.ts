/**
 * What a `tools/call` result becomes: images as images, and size notes for binary content the model
 * cannot take (audio, other blobs, an image a provider would refuse), on hostile data too.
 */
import { describe, expect, it } from "vitest";
import { toolAnswer } from "../../src/agent/tool-answer.ts";
import { callResultOutput } from "../../src/mcp/call-result.ts";

const audio = (data: string) => ({ content: [{ type: "audio", mimeType: "audio/wav", data }] });
const image = (data: string) => ({ content: [{ type: "image", mimeType: "image/png", data }] });

describe("callResultOutput", () => {
  it("gives the size of base64 data without its padding", () => {
    expect(callResultOutput(audio("QUJD"), undefined)).toBe("[audio audio/wav, 3 bytes, not shown as text]");
    expect(callResultOutput(audio("QUI="), undefined)).toBe("[audio audio/wav, 2 bytes, not shown as text]");
    expect(callResultOutput(audio("QQ=="), undefined)).toBe("[audio audio/wav, 1 bytes, not shown as text]");
  });

  it("keeps images and embedded image resources as images, after the text", () => {
    const result = {
      content: [
        { type: "text", text: "two pictures" },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
        { type: "resource", resource: { uri: "pic://2", mimeType: "image/jpeg", blob: "/9j/4AAQSkZJRg==" } },
      ],
    };
    expect(toolAnswer(callResultOutput(result, undefined))).toEqual({
      text: "two pictures",
      images: [
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        { type: "image", data: "/9j/4AAQSkZJRg==", mimeType: "image/jpeg" },
      ],
    });
  });

  it("notes an image a provider would refuse instead of sending it, and an error result's images", () => {
    const notImage = { content: [{ type: "image", mimeType: "text/html", data: "QUJD" }] };
    expect(callResultOutput(notImage, undefined)).toBe("[image text/html, 3 bytes, not shown as text]");
    expect(callResultOutput(image("not base64!"), undefined)).toMatch(/^\[image image\/png, \d+ bytes/);
    const svg = { content: [{ type: "image", mimeType: "image/svg+xml", data: "PHN2Zz48L3N2Zz4=" }] };
    expect(callResultOutput(svg, undefined)).toBe("[image image/svg+xml, 11 bytes, not shown as text]");
    const empty = {
      content: [{ type: "resource", resource: { uri: "x:/e", mimeType: "image/png", blob: "" } }],
    };
    expect(callResultOutput(empty, undefined)).toBe(
      "[resource x:/e (image/png), 0 bytes of binary data, not shown as text]",
    );
    expect(() => callResultOutput({ ...image("QUJD"), isError: true }, undefined)).toThrow(
      "[image image/png, 3 bytes, not shown as text]",
    );
  });

  it.each([
    [{ content: "hello" }, 'content must be an array of content blocks, got "hello"'],
    [{}, "content must be an array of content blocks, got nothing"],
    [{ content: [{ text: "no type" }] }, "content[0] is not a content block with a type"],
    [{ content: [{ type: "text", text: "ok" }, 5] }, "content[1] is not a content block with a type"],
    [{ content: [{ type: "text" }] }, "content[0] is a text block without text"],
  ])("a malformed result %j fails the call instead of answering nothing", (result, problem) => {
    expect(() => callResultOutput(result as never, undefined)).toThrow(
      `the MCP server's result is malformed: ${problem}`,
    );
  });

  it("takes a result with only structuredContent, and an empty content array", () => {
    expect(callResultOutput({ structuredContent: { celsius: 21 } }, undefined)).toBe('{"celsius":21}');
    expect(callResultOutput({ content: [] }, undefined)).toBe("");
  });

  it("sizes data of many = followed by another character in one pass (it used to take quadratic time)", () => {
    const hostile = `${"=".repeat(400_000)}A`;
    expect(callResultOutput(image(hostile), undefined)).toBe(
      "[image image/png, 293.0 KiB, not shown as text]",
    );
    const blob = { type: "resource", resource: { uri: "x:/b", blob: "=".repeat(400_000) } };
    expect(callResultOutput({ content: [blob] }, undefined)).toBe(
      "[resource x:/b, 0 bytes of binary data, not shown as text]",
    );
  });
});
