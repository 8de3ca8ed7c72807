/**
 * What a tool returns that cannot be sent back as it is (tool-answer.ts), seen as the call's error
 * result: a `toolContent`-marked object without string text or without an image array, and a value
 * JSON cannot hold (a function). tool-images.test.ts covers well-formed `toolContent`.
 */
import { describe, expect, it } from "vitest";
import { defineTool, runAgent } from "../../src/index.ts";
import { calls, says, scripted } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

/** The result output of one call to a tool that returns `value`. */
async function outputFor(value: unknown): Promise<[string, boolean] | undefined> {
  const odd = defineTool({
    name: "odd",
    description: "Returns something odd",
    inputSchema: { type: "object" },
    execute: () => value as never,
  });
  const { options } = scripted([calls(["odd", {}]), says("ok")]);
  const [record] = okValue(await runAgent(options({ tools: [odd] }))).toolCalls;
  return record === undefined ? undefined : [record.result.output, record.result.isError];
}

const MARK = Symbol.for("wisp.toolContent");

describe("a tool's answer that cannot be sent", () => {
  it("toolContent whose text is not a string fails the call", async () => {
    expect(await outputFor({ [MARK]: true, text: 42, images: [] })).toEqual([
      'Tool "odd" failed: The tool returned toolContent without text or images',
      true,
    ]);
  });

  it("toolContent without an image array fails the call", async () => {
    expect(await outputFor({ [MARK]: true, text: "a page" })).toEqual([
      'Tool "odd" failed: The tool returned toolContent without text or images',
      true,
    ]);
  });

  it("a value JSON cannot hold fails the call, naming its type", async () => {
    expect(await outputFor(() => "hi")).toEqual([
      'Tool "odd" failed: The tool returned a function, which is not JSON',
      true,
    ]);
  });
});
