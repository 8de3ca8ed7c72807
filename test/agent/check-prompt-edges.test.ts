/**
 * A run's input at its edges (check-prompt.ts), through runAgent and session.chat: what a missing,
 * mistyped or empty prompt and a bad content part or attachment say and where they point, every bad
 * part of a list found (not only the first), and a prompt of images alone sent as it is.
 */
import { describe, expect, it } from "vitest";
import { type AgentOptions, createAgentSession, runAgent } from "../../src/index.ts";
import { requestBody, says, scripted } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

/** The ConfigError of a run with `extra` added to working options; nothing may have been sent. */
async function refusal(extra: Record<string, unknown>) {
  const { model, options } = scripted([says("hi")]);
  const result = await runAgent({ ...options(), ...extra } as AgentOptions);
  expect(model.requests).toHaveLength(0);
  return failure(result);
}

const PNG = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" } as const;

describe("the prompt", () => {
  it("missing or null is required, saying what it may be", async () => {
    for (const prompt of [undefined, null]) {
      expect(await refusal({ prompt })).toMatchObject({
        code: "CONFIG_INVALID",
        path: "prompt",
        message: "prompt is required: a string, or an array of text and image parts",
      });
    }
  });

  it("of another type names the type it got", async () => {
    expect(await refusal({ prompt: 42 })).toMatchObject({
      path: "prompt",
      message: "prompt must be a string or an array of parts, got number",
    });
  });

  it("given to session.chat is checked the same way, at the path prompt", async () => {
    const session = okValue(await createAgentSession({ model: "anthropic/claude-sonnet-4-5", apiKey: "k" }));
    expect(failure(await session.chat(42 as never))).toMatchObject({
      path: "prompt",
      message: "prompt must be a string or an array of parts, got number",
    });
    expect(failure(await session.chat(undefined as never))).toMatchObject({
      path: "prompt",
      message: "prompt is required: a string, or an array of text and image parts",
    });
    expect(session.export().messages).toEqual([]);
  });

  it("with only white space is empty; white space around words is not", async () => {
    expect(await refusal({ prompt: " \n\t " })).toMatchObject({
      path: "prompt",
      message: "The prompt is empty: give it text or an image",
    });
    const { options } = scripted([says("hello")]);
    expect(okValue(await runAgent(options({ prompt: " hi\n" }))).text).toBe("hello");
  });
});

describe("content parts", () => {
  it.each([
    ["a number", 5, "prompt.0", "expected a content part object"],
    [
      "a text part whose text is no string",
      { type: "text", text: 5 },
      "prompt.0.text",
      "text must be a string",
    ],
    ["an image without data or url", { type: "image" }, "prompt.0", "an image needs data (base64) or a url"],
    [
      "a part of an unknown type",
      { type: "audio" },
      "prompt.0.type",
      'expected type "text" or "image", got "audio"',
    ],
  ])("%s is refused at %s", async (_name, part, path, message) => {
    expect(await refusal({ prompt: [part] })).toMatchObject({ path, message });
  });

  it("a bad part after a good one is found", async () => {
    expect(await refusal({ prompt: [{ type: "text", text: "look" }, { type: "image" }] })).toMatchObject({
      path: "prompt.1",
      message: "an image needs data (base64) or a url",
    });
  });

  it("a prompt of an image alone, inline or by url, is sent", async () => {
    const byUrl = { type: "image", url: "https://example.com/cat.png" } as const;
    for (const [image, sent] of [
      [PNG, PNG.data],
      [byUrl, byUrl.url],
    ] as const) {
      const { model, options } = scripted([says("a cat")]);
      const result = await runAgent(options({ prompt: [image] }));
      expect(okValue(result).text).toBe("a cat");
      expect(JSON.stringify(requestBody(model))).toContain(sent);
    }
  });
});

describe("attachments", () => {
  it("that are not an array say what they must be", async () => {
    expect(await refusal({ attachments: "cat.png" })).toMatchObject({
      path: "attachments",
      message: "attachments must be an array of image parts",
    });
  });

  it.each([
    ["a text part", { type: "text", text: "hi" }],
    ["null", null],
    ["a string", "cat.png"],
  ])("%s is no image part", async (_name, part) => {
    expect(await refusal({ attachments: [part] })).toMatchObject({
      code: "CONFIG_INVALID",
      path: "attachments.0",
      message: "expected an image part",
    });
  });

  it("a bad image after a good one is found", async () => {
    expect(await refusal({ attachments: [PNG, { type: "image", data: 5 }] })).toMatchObject({
      path: "attachments.1",
      message: "an image needs data (base64) or a url",
    });
  });
});
