/**
 * Images in tool results: a tool returns text and images with `toolContent`; the result keeps them,
 * each of the four APIs gets them where it takes them (checked against the documented request
 * schemas), the session exports and restores them, and an image a provider would refuse fails the
 * call instead of entering the conversation.
 */
import { describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import {
  createAgentSession,
  defineTool,
  type ImagePart,
  parseSessionState,
  runAgent,
  type ToolResultMessage,
  toolContent,
  uncheckedModel,
} from "../../src/index.ts";
import { calls, expectConsistent, requestBody, says, scripted } from "../support/agent.ts";
import {
  anthropicRequest,
  chatRequest,
  geminiRequest,
  responsesRequest,
} from "../support/request-schemas.ts";
import { okValue } from "../support/results.ts";
import { screenshotResult, screenshotTool, stateWithImage } from "../support/tool-images.ts";

/** A 1×1 PNG. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const IMAGE: ImagePart = { type: "image", data: PNG, mimeType: "image/png" };

const TEXT = "The page as it is now";
const screenshot = screenshotTool(IMAGE, TEXT);
const clock = defineTool({
  name: "clock",
  description: "Tells the time",
  inputSchema: { type: "object", properties: {} },
  execute: () => "noon",
});

const APIS: { model: string; schema: ZodType }[] = [
  { model: "anthropic/claude-sonnet-4-5", schema: anthropicRequest },
  { model: "openai/gpt-4o", schema: chatRequest },
  { model: "openai-responses/gpt-5", schema: responsesRequest },
  { model: "google/gemini-3-pro-preview", schema: geminiRequest(false) },
];

/** Where each API carries the image of a tool result, found in the request body. */
function imagesSent(model: string, body: Record<string, unknown>): unknown[] {
  const json = JSON.parse(JSON.stringify(body));
  if (model.startsWith("anthropic/")) {
    return json.messages
      .flatMap((message: { content: unknown }) => (Array.isArray(message.content) ? message.content : []))
      .filter((block: { type: string }) => block.type === "tool_result")
      .flatMap((block: { content: unknown }) => (Array.isArray(block.content) ? block.content : []))
      .filter((block: { type: string }) => block.type === "image");
  }
  if (model.startsWith("openai/")) {
    return json.messages
      .filter((message: { role: string }) => message.role === "user")
      .flatMap((message: { content: unknown }) => (Array.isArray(message.content) ? message.content : []))
      .filter((part: { type: string }) => part.type === "image_url");
  }
  if (model.startsWith("openai-responses/")) {
    return json.input
      .filter((item: { type?: string }) => item.type === "function_call_output")
      .flatMap((item: { output: unknown }) => (Array.isArray(item.output) ? item.output : []))
      .filter((part: { type: string }) => part.type === "input_image");
  }
  return json.contents
    .flatMap((content: { parts: unknown[] }) => content.parts)
    .flatMap((part: { functionResponse?: { parts?: unknown[] } }) => part.functionResponse?.parts ?? []);
}

describe.each(APIS)("a tool that returns an image, on $model", ({ model, schema }) => {
  it("keeps the image in its result and sends it where the API takes it", async () => {
    const { model: scriptedModel, options } = scripted(
      [calls(["screenshot", {}], ["clock", {}]), says("A blank page at noon.")],
      model,
    );
    const result = await runAgent(options({ tools: [screenshot, clock] }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const results = result.value.messages.find(
      (message) => message.role === "tool_result",
    ) as ToolResultMessage;
    expect(results.content[0]).toMatchObject({ output: "The page as it is now", images: [IMAGE] });
    expect(results.content[1]).not.toHaveProperty("images");
    expectConsistent(result.value.messages);

    const body = requestBody(scriptedModel, 1);
    const parsed = schema.safeParse(body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const sent = imagesSent(model, body);
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0])).toContain(PNG);
    expect(JSON.stringify(body)).toContain("The page as it is now");
  });
});

it("Chat Completions: the images follow every tool message of the turn, named by their call", async () => {
  const { model: scriptedModel, options } = scripted(
    [calls(["screenshot", {}], ["clock", {}], ["screenshot", {}]), says("Done.")],
    "openai/gpt-4o",
  );
  const result = await runAgent(options({ tools: [screenshot, clock] }));
  expect(result.ok).toBe(true);
  const messages = requestBody(scriptedModel, 1).messages as { role: string; content: unknown }[];
  expect(messages.map((message) => message.role)).toEqual([
    "user",
    "assistant",
    "tool",
    "tool",
    "tool",
    "user",
  ]);
  const images = messages.at(-1)?.content as { type: string; text?: string }[];
  expect(images.map((part) => part.type)).toEqual(["text", "image_url", "text", "image_url"]);
  const ids = messages
    .filter((message) => message.role === "tool")
    .map((m) => (m as never as { tool_call_id: string }).tool_call_id);
  expect(images[0]?.text).toContain(ids[0]);
  expect(images[2]?.text).toContain(ids[2]);
});

it("a session with tool images exports, restores and continues on another API", async () => {
  const state = await stateWithImage(IMAGE, TEXT);
  expect(parseSessionState(state).messages[2]).toMatchObject({ content: [{ images: [IMAGE] }] });

  for (const { model, schema } of APIS.slice(1)) {
    const next = scripted([says("Still blank.")], model);
    const continued = okValue(
      await createAgentSession({
        model: uncheckedModel(model),
        apiKey: "k",
        fetch: next.model.fetch,
        tools: [screenshot],
        restore: state,
      }),
    );
    expect((await continued.chat("And now?")).ok).toBe(true);
    const body = requestBody(next.model, 0);
    expect(schema.safeParse(body).success).toBe(true);
    expect(imagesSent(model, body)).toHaveLength(1);
  }
});

it("a restored state whose tool result holds a malformed image is refused with a typed error", async () => {
  const state = await stateWithImage(IMAGE, TEXT);
  for (const images of [
    "x",
    [],
    [{ type: "image", data: "PHN2Zz48L3N2Zz4=", mimeType: "image/svg+xml" }],
    [{ type: "image", url: "" }],
    [{ type: "image" }],
    [{ type: "text", text: "no" }],
    [{ type: "image", data: 5 }],
  ]) {
    (screenshotResult(state) as { images: unknown }).images = images;
    expect(() => parseSessionState(state), JSON.stringify(images)).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", path: expect.stringContaining("images") }),
    );
  }
});

describe("an image a provider would refuse fails the call and stays out of the conversation", () => {
  it.each([
    ["a data: URL as data", { type: "image", data: `data:image/png;base64,${PNG}` }, /not standard base64/],
    ["neither data nor url", { type: "image", mimeType: "image/png" }, /data or url/],
    ["a mimeType that is not an image", { type: "image", data: PNG, mimeType: "text/html" }, /mimeType/],
    ["something that is not an image", { type: "text", text: "hi" }, /data or url/],
    ["empty data", { type: "image", data: "" }, /without data/],
    ["data of a wrong length", { type: "image", data: "iVBORw0KGgoAA" }, /not standard base64/],
    [
      "an SVG",
      { type: "image", data: "PHN2Zz48L3N2Zz4=", mimeType: "image/svg+xml" },
      /not PNG, JPEG, GIF or WebP/,
    ],
    [
      "a JPEG called a PNG",
      { type: "image", data: "/9j/4AAQSkZJRg==", mimeType: "image/png" },
      /is not its type, image\/jpeg/,
    ],
    ["more than 5 MB", { type: "image", data: `iVBORw0KGgo${"A".repeat(6_999_989)}` }, /larger than 5 MB/],
    ["a URL that is not http(s)", { type: "image", url: "not a url" }, /not http\(s\)/],
  ])("%s", async (_what, image, message) => {
    const bad = defineTool({
      name: "bad",
      description: "Returns a broken image",
      inputSchema: { type: "object", properties: {} },
      execute: () => toolContent({ text: "look", images: [image as ImagePart] }),
    });
    const { model: scriptedModel, options } = scripted([calls(["bad", {}]), says("It failed.")]);
    const result = await runAgent(options({ tools: [bad] }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const answer = (result.value.messages.find((m) => m.role === "tool_result") as ToolResultMessage)
      .content[0];
    expect(answer?.isError).toBe(true);
    expect(answer?.output).toMatch(message);
    expect(answer).not.toHaveProperty("images");
    expect(anthropicRequest.safeParse(requestBody(scriptedModel, 1)).success).toBe(true);
  });
});

it("a postToolUse hook that replaces the output replaces the images too; one that adds context keeps them", async () => {
  const run = async (decision: { output?: string; context?: string }) => {
    const { options } = scripted([calls(["screenshot", {}]), says("Ok.")]);
    const result = await runAgent(
      options({ tools: [screenshot], hooks: { postToolUse: [{ handler: () => decision }] } }),
    );
    if (!result.ok) throw result.error;
    return (result.value.messages.find((m) => m.role === "tool_result") as ToolResultMessage).content[0];
  };
  const replaced = await run({ output: "[redacted]" });
  expect(replaced?.output).toBe("[redacted]");
  expect(replaced).not.toHaveProperty("images");
  const added = await run({ context: "Taken at noon." });
  expect(added?.output).toContain("Taken at noon.");
  expect(added?.images).toEqual([IMAGE]);
});

it("toolContent with no images is plain text, and a url image is kept as a url", async () => {
  const tool = defineTool({
    name: "pic",
    description: "A picture",
    inputSchema: { type: "object", properties: {} },
    execute: (_args, context) =>
      context.turn === 1
        ? toolContent({ text: "nothing", images: [] })
        : // data: null beside the URL (plain JavaScript): the URL is what is kept.
          toolContent({ images: [{ type: "image", data: null as never, url: "https://example.com/a.png" }] }),
  });
  const { options } = scripted([calls(["pic", {}]), calls(["pic", {}]), says("Ok.")]);
  const result = await runAgent(options({ tools: [tool] }));
  if (!result.ok) throw result.error;
  const answers = result.value.messages
    .filter((m): m is ToolResultMessage => m.role === "tool_result")
    .map((m) => m.content[0]);
  expect(answers[0]).toMatchObject({ output: "nothing", isError: false });
  expect(answers[0]).not.toHaveProperty("images");
  expect(answers[1]).toMatchObject({
    output: "",
    images: [{ type: "image", url: "https://example.com/a.png" }],
  });
});

it("Anthropic gets only the text of an error result that holds images (it refuses images there)", async () => {
  const state = await stateWithImage(IMAGE, TEXT);
  screenshotResult(state).isError = true;
  const { model } = scripted([says("Seen.")]);
  const restored = okValue(
    await createAgentSession({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      fetch: model.fetch,
      restore: state,
    }),
  );
  expect((await restored.chat("Again")).ok).toBe(true);
  const body = requestBody(model, 0);
  expect(anthropicRequest.safeParse(body).success).toBe(true);
  expect(JSON.stringify(body)).not.toContain(PNG);
});

it("Gemini before 3 gets the images after the function responses, not inside them", async () => {
  const { model: scriptedModel, options } = scripted(
    [calls(["screenshot", {}]), says("Blank.")],
    "google/gemini-2.5-flash",
  );
  expect((await runAgent(options({ tools: [screenshot] }))).ok).toBe(true);
  const body = requestBody(scriptedModel, 1) as { contents: { parts: Record<string, unknown>[] }[] };
  expect(geminiRequest(false).safeParse(body).success).toBe(true);
  const parts = body.contents.at(-1)?.parts ?? [];
  expect(parts.map((part) => Object.keys(part)[0])).toEqual(["functionResponse", "inlineData"]);
  expect(parts[0]?.functionResponse).not.toHaveProperty("parts");
  expect(parts[1]).toEqual({ inlineData: { mimeType: "image/png", data: PNG } });
});
