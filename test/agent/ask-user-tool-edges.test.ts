/**
 * The ask tool itself (ask-user-tool.ts): a bad `name` or `description` is a ConfigError naming it,
 * input that is not an object is refused in words the model reads, plan mode lets the tool pause the
 * run (asking changes nothing), and its `execute`, called outside a run, tells the model to go on.
 */
import { describe, expect, it } from "vitest";
import { askUserTool, runAgent } from "../../src/index.ts";
import { calls, says, scripted } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

const ASKED = {
  questions: [
    {
      question: "Which database?",
      header: "Database",
      options: [{ label: "PostgreSQL" }, { label: "SQLite" }],
      multiSelect: false,
    },
  ],
};

describe("askUserTool options", () => {
  it("a name that is not a string is a ConfigError, even one that reads as a valid name", () => {
    expect(() => askUserTool({ name: 42 as never })).toThrow(
      expect.objectContaining({
        _tag: "ConfigError",
        code: "CONFIG_INVALID",
        path: "name",
        message: "askUserTool: name must be 1 to 64 letters, digits, _ or -",
      }),
    );
  });

  it("a description that is not a string is a ConfigError naming it", () => {
    expect(() => askUserTool({ description: 5 as never })).toThrow(
      expect.objectContaining({
        _tag: "ConfigError",
        code: "CONFIG_INVALID",
        path: "description",
        message: "askUserTool: description must be a string",
      }),
    );
    expect(askUserTool({ description: "Ask when unsure." }).description).toBe("Ask when unsure.");
  });
});

describe("the ask tool's input and execution", () => {
  it("input that is not an object is refused as 'the input', in words the model reads", async () => {
    const tool = askUserTool();
    const parse = tool.parseArgs;
    if (parse === undefined) throw new Error("the ask tool parses its arguments");
    expect(await parse([] as never)).toEqual({
      ok: false,
      message: "the input must be an object { questions }",
    });
    expect(await parse({ ...ASKED, extra: 1 })).toEqual({ ok: false, message: "extra is not a known field" });
  });

  it("called outside a run, its execute tells the model to go on without an answer", async () => {
    const tool = askUserTool();
    const answer = await tool.execute(ASKED, { signal: new AbortController().signal } as never);
    expect(answer).toBe("The user could not be asked here: go on without their answer.");
  });

  it("plan mode lets it pause the run: asking has no side effects", async () => {
    const tool = askUserTool();
    expect(tool.sideEffects).toBe(false);
    const { options } = scripted([calls(["ask_user", ASKED]), says("done")]);
    const result = okValue(await runAgent(options({ tools: [tool], permissions: { mode: "plan" } })));
    expect(result.stopReason).toBe("question");
    expect(result.pendingQuestions?.[0]?.questions).toEqual(ASKED.questions);
  });
});
