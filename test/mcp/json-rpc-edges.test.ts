/**
 * The JSON-RPC helpers at their edges: an error answer without a message is read with a placeholder
 * message (and its code kept), and a request made without params carries no `params` member.
 */
import { describe, expect, it } from "vitest";
import { rpcRequest, sortIncoming } from "../../src/mcp/json-rpc.ts";

describe("sortIncoming", () => {
  it("reads an error answer without a message as '(no message)', keeping its code and data", () => {
    expect(sortIncoming({ jsonrpc: "2.0", id: 4, error: { code: -32000, data: { why: 1 } } })).toEqual([
      { kind: "error", id: 4, error: { code: -32000, message: "(no message)", data: { why: 1 } } },
    ]);
  });
});

describe("rpcRequest", () => {
  it("makes a JSON-RPC 2.0 request with no params member when given none, and with them when given", () => {
    expect(rpcRequest(3, "ping")).toStrictEqual({ jsonrpc: "2.0", id: 3, method: "ping" });
    expect(rpcRequest("a", "tools/list", { cursor: "c" })).toStrictEqual({
      jsonrpc: "2.0",
      id: "a",
      method: "tools/list",
      params: { cursor: "c" },
    });
  });
});

describe("sortIncoming, on what is not a JSON-RPC 2.0 message", () => {
  it("refuses null, alone or in a batch, without throwing", () => {
    expect(sortIncoming(null)).toBeUndefined();
    expect(sortIncoming([null])).toBeUndefined();
  });

  it("reads null params as no params", () => {
    expect(sortIncoming({ jsonrpc: "2.0", method: "notifications/progress", params: null })).toEqual([
      { kind: "notification", method: "notifications/progress", params: {} },
    ]);
  });

  it('refuses a response without jsonrpc "2.0"', () => {
    expect(sortIncoming({ id: 1, result: {} })).toBeUndefined();
    expect(sortIncoming({ jsonrpc: "1.0", id: 1, result: {} })).toBeUndefined();
  });
});
