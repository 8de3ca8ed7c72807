/**
 * Edges of the late-bound MCP tool stand-ins (worker/late-bound-tools.ts): toolsKey tells timeouts and
 * approval needs apart, an approval check falls back to "no approval" when the bound tool has none, and
 * a stand-in parses arguments only when its tool did.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject, Tool, ToolContext } from "wisp-agent";
import { lateBoundTools, toolsKey } from "../late-bound-tools.ts";

function tool(name: string, extra: Partial<Tool<JsonObject>> = {}): Tool<JsonObject> {
  return {
    name,
    description: `the ${name} tool`,
    inputSchema: { type: "object" },
    execute: () => name,
    ...extra,
  };
}

const context = {} as ToolContext;

describe("toolsKey", () => {
  it("differs when a tool's timeout does", () => {
    const keys = [tool("a"), tool("a", { timeoutMs: 5_000 }), tool("a", { timeoutMs: 9_000 })].map((one) =>
      toolsKey([one]),
    );
    expect(new Set(keys).size).toBe(3);
    expect(toolsKey([tool("a", { timeoutMs: 5_000 })])).toBe(toolsKey([tool("a", { timeoutMs: 5_000 })]));
  });

  it("differs when a tool's need for approval does", () => {
    const keys = [
      tool("a"),
      tool("a", { needsApproval: false }),
      tool("a", { needsApproval: true }),
      tool("a", { needsApproval: () => true }),
    ].map((one) => toolsKey([one]));
    expect(keys[0]).toBe(keys[1]);
    expect(new Set(keys).size).toBe(3);
  });
});

describe("lateBoundTools", () => {
  it("asks no approval when the tool bound now has no approval check", () => {
    const late = lateBoundTools([tool("send", { needsApproval: () => true })]);
    const check = late.tools[0]?.needsApproval as (args: JsonObject, context: ToolContext) => boolean;
    expect(check({}, context)).toBe(true);
    late.bind([tool("send")]);
    expect(check({}, context)).toBe(false);
  });

  it("gives a stand-in no argument parsing when its tool had none, whatever is bound later", () => {
    const late = lateBoundTools([tool("plain")]);
    late.bind([tool("plain", { parseArgs: async () => ({ ok: false, message: "refused" }) })]);
    expect(late.tools[0]?.parseArgs).toBeUndefined();
    expect(late.tools[0]).not.toHaveProperty("parseArgs");
  });
});
