/**
 * mcpServerRecord reading records back from a session's metadata: the record for the URL asked for
 * (not the first one kept), none for a URL not kept, records without a protocol version skipped, and
 * an empty session id left out.
 */
import { describe, expect, it } from "vitest";
import { MCP_METADATA_KEY, mcpServerRecord } from "../../src/mcp/index.ts";

const ONE = "https://one.example/mcp";
const TWO = "https://two.example/mcp";

describe("mcpServerRecord", () => {
  it("finds the record kept for the URL asked for, not another server's", () => {
    const metadata = {
      [MCP_METADATA_KEY]: [
        { url: ONE, sessionId: "s-1", protocolVersion: "2025-06-18" },
        { url: TWO, sessionId: "s-2", protocolVersion: "2025-11-25" },
      ],
    };
    expect(mcpServerRecord(metadata, TWO)).toEqual({
      url: TWO,
      sessionId: "s-2",
      protocolVersion: "2025-11-25",
    });
    expect(mcpServerRecord(metadata, ONE)).toEqual({
      url: ONE,
      sessionId: "s-1",
      protocolVersion: "2025-06-18",
    });
    expect(mcpServerRecord(metadata, "https://three.example/mcp")).toBeUndefined();
  });

  it("skips a record with an empty protocol version", () => {
    const metadata = { [MCP_METADATA_KEY]: [{ url: ONE, sessionId: "s-1", protocolVersion: "" }] };
    expect(mcpServerRecord(metadata, ONE)).toBeUndefined();
  });

  it("leaves an empty session id out of the record", () => {
    const metadata = { [MCP_METADATA_KEY]: [{ url: ONE, sessionId: "", protocolVersion: "2025-11-25" }] };
    const record = mcpServerRecord(metadata, ONE);
    expect(record).toEqual({ url: ONE, protocolVersion: "2025-11-25" });
    expect(record !== undefined && "sessionId" in record).toBe(false);
  });
});
