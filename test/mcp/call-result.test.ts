/**
 * The text a `tools/call` result becomes: the size notes for binary content, on hostile data too.
 */
import { describe, expect, it } from "vitest";
import { callResultText } from "../../src/mcp/call-result.ts";

const image = (data: string) => ({ content: [{ type: "image", mimeType: "image/png", data }] });

describe("callResultText", () => {
  it("gives the size of base64 data without its padding", () => {
    expect(callResultText(image("QUJD"), undefined)).toBe("[image image/png, 3 bytes, not shown as text]");
    expect(callResultText(image("QUI="), undefined)).toBe("[image image/png, 2 bytes, not shown as text]");
    expect(callResultText(image("QQ=="), undefined)).toBe("[image image/png, 1 bytes, not shown as text]");
  });

  it("sizes data of many = followed by another character in one pass (it used to take quadratic time)", () => {
    const hostile = `${"=".repeat(400_000)}A`;
    expect(callResultText(image(hostile), undefined)).toBe("[image image/png, 293.0 KiB, not shown as text]");
    const blob = { type: "resource", resource: { uri: "x:/b", blob: "=".repeat(400_000) } };
    expect(callResultText({ content: [blob] }, undefined)).toBe(
      "[resource x:/b, 0 bytes of binary data, not shown as text]",
    );
  });
});
