/**
 * The programs the size budget measures (bench/size/wisp-*.ts) are real programs: each one runs to
 * its end against the scripted model standing in for api.anthropic.com, and the agents' tool
 * answers 42. A program that only bundles but throws when run would make its size meaningless.
 */
import { afterEach, expect, it, vi } from "vitest";
import { createScriptedModel } from "../../src/testing/index.ts";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Runs one program (its top-level await included) with fetch answered by `model`; returns what it logged. */
async function runProgram(file: string, model: ReturnType<typeof createScriptedModel>): Promise<unknown[]> {
  vi.stubGlobal("fetch", model.fetch);
  const logged: unknown[] = [];
  vi.spyOn(console, "log").mockImplementation((value: unknown) => {
    logged.push(value);
  });
  await import(`../../bench/size/${file}`);
  return logged;
}

it("the streaming program streams its answer and logs the usage", async () => {
  const model = createScriptedModel({ script: [{ content: [{ type: "text", text: "A brown pelican." }] }] });
  const logged = await runProgram("wisp-stream.ts", model);
  expect(logged.slice(0, -1).join("")).toBe("A brown pelican.");
  expect(logged.at(-1)).toMatchObject({ output: expect.any(Number) });
  expect(model.requests[0]?.url).toBe("https://api.anthropic.com/v1/messages");
});

it.each(["wisp-agent.ts", "wisp-agent-zod-mini.ts"])("%s calls its zod tool and finishes", async (file) => {
  const model = createScriptedModel({
    script: [
      { content: [{ type: "tool_call", name: "calculator", args: { a: 6, b: 7 } }] },
      { content: [{ type: "text", text: "It is 42." }] },
    ],
  });
  const logged = await runProgram(file, model);
  expect(logged.at(-1)).toMatchObject({ ok: true, value: { text: "It is 42.", turns: 2 } });
  const body = model.requests[0]?.body as { tools?: { name: string; input_schema: unknown }[] } | undefined;
  const tool = body?.tools?.[0];
  expect(tool).toMatchObject({ name: "calculator", input_schema: { type: "object", required: ["a", "b"] } });
  expect(model.requests[1]?.bodyText).toContain('"content":"42"');
});
