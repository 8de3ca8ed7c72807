/** The keys OAuth state is stored under: one per item and server URL (without its fragment), and issuer. */
import { describe, expect, it } from "vitest";
import { storageKey } from "../../../src/mcp/oauth/storage.ts";

describe("storageKey", () => {
  it("keys by the server URL without its fragment, and by the issuer only when given", () => {
    expect(storageKey("tokens", "https://mcp.example.com/mcp#part")).toBe(
      "wisp-mcp-oauth:tokens:https://mcp.example.com/mcp",
    );
    expect(storageKey("client", "https://mcp.example.com/mcp", "https://auth.example.com")).toBe(
      "wisp-mcp-oauth:client:https://mcp.example.com/mcp:https://auth.example.com",
    );
  });
});
