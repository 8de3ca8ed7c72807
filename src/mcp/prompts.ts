/**
 * An MCP server's prompts (`prompts/list`, `prompts/get`): read into typed shapes (entries without a
 * name dropped, pages bounded), and a prompt's messages turned into parts of Wisp user messages, so
 * an app can offer a server's prompts as its own commands.
 *
 * @module
 */

import type { JsonObject, JsonValue, UserContentPart } from "../types.ts";
import { asObject } from "./as-object.ts";
import { contentParts } from "./call-result.ts";
import { listPages } from "./list-pages.ts";
import type { McpClient } from "./mcp-client.ts";

/** One argument a prompt takes. */
export interface McpPromptArgument {
  /** Its name, the key in `getPrompt`'s arguments. */
  name: string;
  /** What it is. */
  description?: string;
  /** Whether the prompt needs it. */
  required?: boolean;
}

/** A prompt as the server lists it. */
export interface McpPrompt {
  /** Its name: what `getPrompt` takes. */
  name: string;
  /** A human-readable name. */
  title?: string;
  /** What it does. */
  description?: string;
  /** The arguments it takes. */
  arguments: McpPromptArgument[];
}

/** One message of a prompt: its role and its content as Wisp user-message parts. */
export interface McpPromptMessage {
  /** Who says it: the person (`user`) or the model (`assistant`). */
  role: "user" | "assistant";
  /** Its content: text, images, and a note for what a model cannot take. */
  content: UserContentPart[];
}

/** A prompt filled in by the server (`prompts/get`). */
export interface McpPromptResult {
  /** The server's description of the filled-in prompt. */
  description?: string;
  /** Its messages, in order. */
  messages: McpPromptMessage[];
}

function readArgument(value: JsonValue): McpPromptArgument | undefined {
  const raw = asObject(value);
  if (raw === undefined || typeof raw.name !== "string" || raw.name === "") return undefined;
  const argument: McpPromptArgument = { name: raw.name };
  if (typeof raw.description === "string") argument.description = raw.description;
  if (typeof raw.required === "boolean") argument.required = raw.required;
  return argument;
}

function readPrompt(value: JsonValue): McpPrompt | undefined {
  const raw = asObject(value);
  if (raw === undefined || typeof raw.name !== "string" || raw.name === "") return undefined;
  const list = Array.isArray(raw.arguments) ? raw.arguments : [];
  const prompt: McpPrompt = { name: raw.name, arguments: list.flatMap((entry) => readArgument(entry) ?? []) };
  if (typeof raw.title === "string") prompt.title = raw.title;
  if (typeof raw.description === "string") prompt.description = raw.description;
  return prompt;
}

function readMessage(value: JsonValue): McpPromptMessage | undefined {
  const raw = asObject(value);
  const block = asObject(raw?.content);
  if (block === undefined || (raw?.role !== "user" && raw?.role !== "assistant")) return undefined;
  return { role: raw.role, content: contentParts([block]) };
}

/** Every prompt the server lists (`prompts/list`, page by page). */
export function listPrompts(client: McpClient, signal?: AbortSignal): Promise<McpPrompt[]> {
  return listPages(client, "prompts/list", "prompts", readPrompt, signal);
}

/** The prompt `name` filled in with `args` by the server (`prompts/get`). */
export async function getPrompt(
  client: McpClient,
  name: string,
  args: Readonly<Record<string, string>> | undefined,
  signal?: AbortSignal,
): Promise<McpPromptResult> {
  const params: JsonObject = { name };
  if (args !== undefined) params.arguments = { ...args };
  const result = await client.request("prompts/get", params, { signal });
  const messages = Array.isArray(result.messages) ? result.messages : [];
  const prompt: McpPromptResult = { messages: messages.flatMap((value) => readMessage(value) ?? []) };
  if (typeof result.description === "string") prompt.description = result.description;
  return prompt;
}
