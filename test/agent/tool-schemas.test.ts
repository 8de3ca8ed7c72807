/**
 * Tool schemas with the real libraries: zod ≥ 4.2 describes itself; zod 3, zod 4.0 / 4.1 and valibot
 * without `inputSchema` get a ConfigError saying what to do; a field that cannot become JSON Schema is
 * named; a tool without name, description or execute is refused at `defineTool`, and `runAgent`
 * handed such an object anyway answers with a ConfigError.
 */
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod-v3";
import { z as z40 } from "zod-v4-0";
import { z as z41 } from "zod-v4-1";
import { z as z42 } from "zod-v4-2";
import { defineTool, runAgent } from "../../src/index.ts";
import { says, scripted } from "../support/agent.ts";

function refusal(define: () => unknown): { _tag?: string; path?: string; message: string } {
  try {
    define();
  } catch (error) {
    return error as { _tag?: string; path?: string; message: string };
  }
  throw new Error("expected defineTool to refuse");
}

const base = { name: "lookup", description: "Looks up a word", execute: () => "ok" };

describe("zod versions", () => {
  it.each([
    ["4.2", () => z42.object({ word: z42.string() })],
    ["current", () => z.object({ word: z.string() })],
  ])("zod %s converts itself: the JSON Schema is what the provider receives", async (_version, input) => {
    const tool = defineTool({ ...base, input: input() });
    expect(tool.inputSchema).toEqual({
      type: "object",
      properties: { word: { type: "string" } },
      required: ["word"],
    });
  });

  it.each([
    [
      "3",
      () => z3.object({ word: z3.string() }),
      /zod 3; zod does from 4\.2 on\): upgrade with npm install zod@\^4\.2, or pass inputSchema \(a JSON Schema object\)/,
    ],
    [
      "4.0",
      () => z40.object({ word: z40.string() }),
      /zod 4\.0; zod does from 4\.2 on\): .*pass inputSchema: z\.toJSONSchema\(schema\)/,
    ],
    [
      "4.1",
      () => z41.object({ word: z41.string() }),
      /zod 4\.1; zod does from 4\.2 on\): upgrade with npm install zod@\^4\.2/,
    ],
  ])(
    "zod %s without inputSchema is a ConfigError that says to upgrade or pass inputSchema",
    (_version, input, words) => {
      const error = refusal(() => defineTool({ ...base, input: input() as never }));
      expect(error).toMatchObject({ _tag: "ConfigError", path: "input" });
      expect(error.message).toMatch(/^Tool "lookup": its input schema cannot describe itself as JSON Schema/);
      expect(error.message).toMatch(words);
    },
  );

  it("zod 4.1 with inputSchema works, and validates with zod 4.1", async () => {
    const input = z41.object({ word: z41.string() });
    const tool = defineTool({ ...base, input, inputSchema: z41.toJSONSchema(input) as never });
    expect(await tool.parseArgs?.({ word: 3 })).toMatchObject({ ok: false });
    expect(await tool.parseArgs?.({ word: "wisp" })).toEqual({ ok: true, args: { word: "wisp" } });
  });
});

describe("valibot", () => {
  it("without inputSchema names @valibot/to-json-schema", () => {
    const error = refusal(() => defineTool({ ...base, input: v.object({ word: v.string() }) }));
    expect(error.message).toContain("pass inputSchema: toJsonSchema(schema) from @valibot/to-json-schema");
  });

  it("with inputSchema validates with valibot", async () => {
    const tool = defineTool({
      ...base,
      input: v.object({ word: v.string() }),
      inputSchema: { type: "object", properties: { word: { type: "string" } } },
    });
    expect(await tool.parseArgs?.({ word: "x" })).toEqual({ ok: true, args: { word: "x" } });
  });
});

describe("fields that cannot become JSON Schema", () => {
  it.each([
    [
      "a date",
      z.object({ when: z.date() }),
      "input.when",
      /field "when" cannot become JSON Schema \(Date cannot be represented/,
    ],
    [
      "a nested bigint",
      z.object({ trip: z.object({ cost: z.bigint() }) }),
      "input.trip.cost",
      /field "trip\.cost"/,
    ],
  ])("%s is a ConfigError naming the tool and the field", (_name, input, path, words) => {
    const error = refusal(() => defineTool({ ...base, input }));
    expect(error).toMatchObject({ _tag: "ConfigError", path });
    expect(error.message).toMatch(/^Tool "lookup": /);
    expect(error.message).toMatch(words);
  });
});

const one = () => 1;
const INCOMPLETE: Array<[string, unknown, string]> = [
  ["no name", { description: "d", inputSchema: { type: "object" }, execute: one }, "name"],
  ["no description", { name: "t", inputSchema: { type: "object" }, execute: one }, "description"],
  ["no execute", { name: "t", description: "d", inputSchema: { type: "object" } }, "execute"],
  [
    "an input that is no schema",
    { name: "t", description: "d", input: { word: "string" }, execute: one },
    "input",
  ],
];

describe("incomplete definitions", () => {
  it.each(INCOMPLETE)("%s is refused at defineTool", (_name, definition, path) => {
    expect(refusal(() => defineTool(definition as never))).toMatchObject({ _tag: "ConfigError", path });
  });

  it("runAgent given a hand-made tool without execute answers with a ConfigError", async () => {
    const { options } = scripted([says("hi")]);
    const result = await runAgent(
      options({ tools: [{ name: "t", description: "d", inputSchema: { type: "object" } } as never] }),
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ _tag: "ConfigError", path: "tools.0" });
  });
});
