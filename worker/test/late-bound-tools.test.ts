/**
 * The stand-ins the kept session gets for a run's MCP tools: each calls the tool of the same name that
 * was bound last, and toolsKey tells tool lists the model would see differently apart.
 */

import { describe, expect, it } from "vitest";
import type { JsonObject, Tool, ToolContext } from "wisp-agent";
import { lateBoundTools, toolsKey } from "../late-bound-tools.ts";

function tool(name: string, answer: string, extra: Partial<Tool<JsonObject>> = {}): Tool<JsonObject> {
  return {
    name,
    description: `the ${name} tool`,
    inputSchema: { type: "object" },
    execute: () => answer,
    ...extra,
  };
}

const context = {} as ToolContext;

describe("lateBoundTools", () => {
  it("calls the tool bound last, by name; one no longer bound fails the call with a clear error", async () => {
    const late = lateBoundTools([tool("notes_add", "first run")]);
    expect(await late.tools[0]?.execute({}, context)).toBe("first run");
    late.bind([tool("notes_add", "second run")]);
    expect(await late.tools[0]?.execute({}, context)).toBe("second run");
    late.bind([]);
    expect(() => late.tools[0]?.execute({}, context)).toThrow(
      "The tool notes_add is not connected in this run",
    );
  });

  it("keeps what the model and the loop see: name, description, schema, timeout, approval, argument parsing", async () => {
    const parsed = { ok: true as const, args: { parsed: true } };
    const original = tool("send", "sent", {
      timeoutMs: 5_000,
      needsApproval: (args) => args.urgent === true,
      parseArgs: async () => parsed,
    });
    const [standIn] = lateBoundTools([original]).tools;
    expect(standIn).toMatchObject({
      name: "send",
      description: "the send tool",
      inputSchema: { type: "object" },
      timeoutMs: 5_000,
    });
    const check = standIn?.needsApproval as (args: JsonObject, context: ToolContext) => boolean;
    expect([check({ urgent: true }, context), check({}, context)]).toEqual([true, false]);
    expect(await standIn?.parseArgs?.({})).toBe(parsed);
    expect(lateBoundTools([tool("plain", "x", { needsApproval: true })]).tools[0]?.needsApproval).toBe(true);
  });
});

describe("toolsKey", () => {
  it("is the same for the same tools, and differs when a name, description, schema or approval does", () => {
    const base = [tool("a", "1"), tool("b", "2")];
    expect(toolsKey(base)).toBe(toolsKey([tool("a", "other answer"), tool("b", "2")]));
    expect(toolsKey(base)).not.toBe(toolsKey([tool("a", "1")]));
    expect(toolsKey(base)).not.toBe(toolsKey([tool("a", "1", { description: "new" }), tool("b", "2")]));
    expect(toolsKey(base)).not.toBe(
      toolsKey([tool("a", "1", { inputSchema: { type: "object", required: ["x"] } }), tool("b", "2")]),
    );
    expect(toolsKey(base)).not.toBe(toolsKey([tool("a", "1", { needsApproval: true }), tool("b", "2")]));
  });
});
