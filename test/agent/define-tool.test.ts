/**
 * defineTool: zod schemas become the JSON Schema the provider sees, arguments are typed, bad
 * definitions are ConfigErrors at definition time.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import * as zm from "zod/mini";
import { ConfigError, defineTool, type JsonObject, type Tool, type ToolContext } from "../../src/index.ts";

describe("defineTool", () => {
  it("converts a zod schema with zod's own converter, without $schema", () => {
    const tool = defineTool({
      name: "get_weather",
      description: "Weather",
      input: z.object({ city: z.string().describe("City name"), days: z.number().int().min(1).optional() }),
      execute: () => "sunny",
    });
    expect(tool.inputSchema).toEqual({
      type: "object",
      properties: {
        city: { type: "string", description: "City name" },
        days: { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
      },
      required: ["city"],
    });
  });

  it("gives execute typed arguments", () => {
    const tool = defineTool({
      name: "add",
      description: "Adds",
      input: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }, context) => {
        expectTypeOf(a).toEqualTypeOf<number>();
        expectTypeOf(context).toEqualTypeOf<ToolContext>();
        return a + b;
      },
    });
    expectTypeOf(tool).toEqualTypeOf<Tool<{ a: number; b: number }, "add">>();
    const asUnknown: Tool<unknown> = tool;
    expect(asUnknown.name).toBe("add");
  });

  it("validates arguments and says what is wrong in one line", async () => {
    const tool = defineTool({
      name: "t",
      description: "",
      input: z.object({ city: z.string(), days: z.number().max(7) }),
      execute: () => "",
    });
    expect(await tool.parseArgs?.({ city: "Oslo", days: 3 })).toEqual({
      ok: true,
      args: { city: "Oslo", days: 3 },
    });
    const bad = await tool.parseArgs?.({ city: 1, days: 9 });
    expect(bad?.ok).toBe(false);
    expect(bad).toMatchObject({ message: expect.stringMatching(/^city: .*expected string.*; days: .*<=7/) });
  });

  it("accepts a plain JSON Schema tool, whose arguments pass unvalidated", () => {
    const schema = { type: "object", properties: { q: { type: "string" } } };
    const tool = defineTool({
      name: "search",
      description: "Search",
      inputSchema: schema,
      execute: (args) => args,
    });
    expect(tool.inputSchema).toBe(schema);
    expect(tool.parseArgs).toBeUndefined();
    expectTypeOf(tool).toEqualTypeOf<Tool<JsonObject, "search">>();
  });

  it("asks for inputSchema when the schema cannot convert itself (zod/mini), and validates with the schema given that", async () => {
    const define = () =>
      defineTool({ name: "m", description: "", input: zm.object({ a: zm.string() }), execute: () => "" });
    expect(define).toThrow(ConfigError);
    expect(define).toThrow(/pass inputSchema/);
    const tool = defineTool({
      name: "m",
      description: "",
      input: zm.object({ a: zm.string() }),
      inputSchema: { type: "object", properties: { a: { type: "string" } } },
      execute: ({ a }) => a,
    });
    expect(tool.inputSchema).toEqual({ type: "object", properties: { a: { type: "string" } } });
    // The zod/mini schema validates what the model sends: good arguments pass, bad ones are issues.
    expect(await tool.parseArgs?.({ a: "x" })).toEqual({ ok: true, args: { a: "x" } });
    const bad = await tool.parseArgs?.({ a: 5 });
    expect(bad?.ok).toBe(false);
    expect(bad?.ok === false && bad.message).toMatch(/^a: /);
  });

  it("rejects names providers refuse and schemas that are not objects", () => {
    expect(() =>
      defineTool({ name: "has space", description: "", inputSchema: { type: "object" }, execute: () => "" }),
    ).toThrow(expect.objectContaining({ code: "CONFIG_INVALID", path: "name" }));
    expect(() =>
      defineTool({
        name: "x".repeat(65),
        description: "",
        inputSchema: { type: "object" },
        execute: () => "",
      }),
    ).toThrow(ConfigError);
    expect(() => defineTool({ name: "s", description: "", input: z.string(), execute: () => "" })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", path: "inputSchema.type" }),
    );
  });
});
