/**
 * A session whose tool returned an image, for the tests of images in tool results.
 */
import { expect } from "vitest";
import {
  createAgentSession,
  defineTool,
  type ImagePart,
  type SessionState,
  type ToolResultMessage,
  type ToolResultPart,
  toolContent,
} from "../../src/index.ts";
import { calls, says, scripted } from "./agent.ts";
import { okValue } from "./results.ts";

/** A `screenshot` tool that returns `text` and `image`. */
export function screenshotTool(image: ImagePart, text: string) {
  return defineTool({
    name: "screenshot",
    description: "Captures the page",
    inputSchema: { type: "object", properties: {} },
    execute: () => toolContent({ text, images: [image] }),
  });
}

/** The exported state (through JSON) of an Anthropic session whose screenshot tool returned `image`. */
export async function stateWithImage(image: ImagePart, text: string): Promise<SessionState> {
  const { model } = scripted([calls(["screenshot", {}]), says("Blank.")]);
  const session = okValue(
    await createAgentSession({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      fetch: model.fetch,
      tools: [screenshotTool(image, text)],
    }),
  );
  expect((await session.chat("Look")).ok).toBe(true);
  return JSON.parse(JSON.stringify(session.export()));
}

/** The screenshot's result in a state from {@link stateWithImage}, to change for a test. */
export function screenshotResult(state: SessionState): ToolResultPart {
  return (state.messages[2] as ToolResultMessage).content[0] as ToolResultPart;
}
