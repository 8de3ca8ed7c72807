/**
 * The edges of what MCP content becomes: notes for blocks without a URI or type, resource links,
 * neighbouring texts joined, error results' text, the name and messages of McpToolFailure, and sizes
 * at the KiB boundary.
 */
import { describe, expect, it } from "vitest";
import { callResultOutput, contentParts, McpToolFailure } from "../../src/mcp/call-result.ts";
import type { JsonObject } from "../../src/types.ts";

const PNG = "iVBORw0KGgo=";

/** The McpToolFailure `callResultOutput` throws for `result`. */
function failure(result: JsonObject, outputSchema?: JsonObject): McpToolFailure {
  try {
    callResultOutput(result, outputSchema);
  } catch (error) {
    if (error instanceof McpToolFailure) return error;
    throw error;
  }
  throw new Error("callResultOutput did not throw");
}

describe("contentParts", () => {
  it("joins neighbouring texts into one part, one per line", () => {
    const blocks = [
      { type: "text", text: "a" },
      { type: "text", text: "b" },
      { type: "text", text: "c" },
    ];
    expect(contentParts(blocks)).toEqual([{ type: "text", text: "a\nb\nc" }]);
  });

  it("takes a text block without text as empty text", () => {
    expect(contentParts([{ type: "text" }])).toEqual([{ type: "text", text: "" }]);
  });

  it("notes a resource link with its URI and name, and without them", () => {
    const text = (block: JsonObject) => contentParts([block]);
    expect(text({ type: "resource_link", uri: "file:///a.txt", name: "a.txt" })).toEqual([
      { type: "text", text: '[resource link file:///a.txt "a.txt"]' },
    ]);
    expect(text({ type: "resource_link", uri: "file:///a.txt" })).toEqual([
      { type: "text", text: "[resource link file:///a.txt]" },
    ]);
    expect(text({ type: "resource_link", name: 7 })).toEqual([{ type: "text", text: "[resource link ]" }]);
  });

  it("notes blocks without a mimeType or URI, and blocks of a kind it does not know", () => {
    expect(contentParts([{ type: "audio", data: "QUJD" }])).toEqual([
      { type: "text", text: "[audio , 3 bytes, not shown as text]" },
    ]);
    expect(contentParts([{ type: "resource", resource: { text: "hi" } }])).toEqual([
      { type: "text", text: "[resource ]\nhi" },
    ]);
    expect(contentParts([{ type: "hologram" }])).toEqual([{ type: "text", text: "[hologram content]" }]);
  });

  it("takes as an image only an image block or a resource, not another block carrying a blob", () => {
    expect(contentParts([{ type: "video", mimeType: "image/png", blob: PNG }])).toEqual([
      { type: "text", text: "[video content]" },
    ]);
  });
});

describe("callResultOutput", () => {
  it("gives sizes of 1024 bytes and more in KiB", () => {
    const audio = (data: string) => ({ content: [{ type: "audio", mimeType: "audio/wav", data }] });
    expect(callResultOutput(audio(`${"A".repeat(1366)}==`), undefined)).toBe(
      "[audio audio/wav, 1.0 KiB, not shown as text]",
    );
    expect(callResultOutput(audio("A".repeat(1364)), undefined)).toBe(
      "[audio audio/wav, 1023 bytes, not shown as text]",
    );
  });

  it("throws an error result's text, one block per line, as an McpToolFailure", () => {
    const error = failure({
      isError: true,
      content: [
        { type: "text", text: "first" },
        { type: "text", text: "second" },
      ],
    });
    expect(error.message).toBe("first\nsecond");
    expect(error.name).toBe("McpToolFailure");
    expect(String(error)).toBe("McpToolFailure: first\nsecond");
  });

  it("says the server reported an error when an error result has no text", () => {
    expect(failure({ isError: true, content: [] }).message).toBe("the MCP server reported an error");
  });

  it("says structuredContent is missing when the tool has an outputSchema", () => {
    expect(failure({ content: [{ type: "text", text: "hi" }] }, { type: "object" }).message).toBe(
      "the MCP server returned no structuredContent, but the tool has an outputSchema",
    );
  });

  it("checks content even when structuredContent is there", () => {
    expect(failure({ content: [{ text: "no type" }], structuredContent: { n: 1 } }).message).toBe(
      "the MCP server's result is malformed: content[0] is not a content block with a type",
    );
  });

  it("shows at most 100 characters of content that is not an array", () => {
    const content = "x".repeat(300);
    expect(failure({ content }).message).toBe(
      `the MCP server's result is malformed: content must be an array of content blocks, got ${JSON.stringify(content).slice(0, 100)}`,
    );
  });
});
