/**
 * Images in tool results cross the transcript formats: a Wisp session whose tool returned an image
 * is written as Claude Code and as pi and reads back with the image in the result; a transcript whose
 * tool result holds an image keeps it as an image, and one a provider would refuse becomes a note.
 */
import { describe, expect, it } from "vitest";
import { fromClaudeCode, fromPi, toClaudeCode, toPi } from "../../src/formats/index.ts";
import {
  createAgentSession,
  type ImagePart,
  type SessionState,
  type ToolResultMessage,
} from "../../src/index.ts";
import { says, scripted } from "../support/agent.ts";
import { anthropicRequest } from "../support/request-schemas.ts";
import { okValue } from "../support/results.ts";
import { stateWithImage } from "../support/tool-images.ts";

const IMAGE: ImagePart = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" };

const sessionWithImage = () => stateWithImage(IMAGE, "The page");

const resultOf = (messages: SessionState["messages"]) =>
  (messages.find((message) => message.role === "tool_result") as ToolResultMessage).content[0];

describe.each([
  ["Claude Code", toClaudeCode, fromClaudeCode],
  ["pi", toPi, fromPi],
] as const)("%s", (_name, write, read) => {
  it("writes a tool result's image and reads it back as an image", async () => {
    const state = await sessionWithImage();
    const file = write(state);
    expect(file).toContain(IMAGE.data);
    const back = await read(file);
    if (!back.ok) throw back.error;
    expect(back.value.warnings).toEqual([]);
    expect(resultOf(back.value.state.messages)).toMatchObject({ output: "The page", images: [IMAGE] });
  });
});

/** A Claude Code transcript: a Read of an image file answered with an image block. */
function claudeCodeTranscript(image: Record<string, unknown>): string {
  const base = { sessionId: "s1", cwd: "/w", version: "2.0.0", userType: "external", isSidechain: false };
  return [
    {
      ...base,
      type: "user",
      uuid: "u1",
      parentUuid: null,
      timestamp: "2026-01-01T00:00:00.000Z",
      message: { role: "user", content: "Read pic.png" },
    },
    {
      ...base,
      type: "assistant",
      uuid: "a1",
      parentUuid: "u1",
      timestamp: "2026-01-01T00:00:01.000Z",
      message: {
        id: "msg_1",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [{ type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "/w/pic.png" } }],
        stop_reason: "tool_use",
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    },
    {
      ...base,
      type: "user",
      uuid: "r1",
      parentUuid: "a1",
      timestamp: "2026-01-01T00:00:02.000Z",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: [image] }] },
    },
  ]
    .map((line) => JSON.stringify(line))
    .join("\n");
}

it("a Claude Code image tool result is read as an image, and a continued request sends it", async () => {
  const read = await fromClaudeCode(
    claudeCodeTranscript({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: IMAGE.data },
    }),
  );
  if (!read.ok) throw read.error;
  expect(resultOf(read.value.state.messages)).toMatchObject({ output: "", images: [IMAGE] });

  const { model } = scripted([says("A picture.")]);
  const session = okValue(
    await createAgentSession({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      fetch: model.fetch,
      restore: read.value.state,
    }),
  );
  expect((await session.chat("What is in it?")).ok).toBe(true);
  const body = model.requests[0]?.body;
  expect(anthropicRequest.safeParse(body).success).toBe(true);
  expect(JSON.stringify(body)).toContain(
    `"type":"image","source":{"type":"base64","media_type":"image/png","data":"${IMAGE.data}"}`,
  );
});

it("an image a provider would refuse is kept as a note, not as an image", async () => {
  const read = await fromClaudeCode(
    claudeCodeTranscript({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "not base64!" },
    }),
  );
  if (!read.ok) throw read.error;
  const result = resultOf(read.value.state.messages);
  expect(result).not.toHaveProperty("images");
  expect(result?.output).toBe(
    "[image omitted: image data that is not standard base64 (give the data alone: no data: prefix, not base64url)]",
  );
});
