/**
 * A Gemini request body (what providers/google/request.ts sends) read back into Wisp's terms: the
 * model is the one the URL names (`…/models/{model}:streamGenerateContent`), `systemInstruction` the
 * system prompt, `tools[].functionDeclarations` the tools, and `contents` the conversation: a `model`
 * turn is an assistant message, a `user` turn a user message, or a tool_result message when it holds
 * `functionResponse` parts.
 *
 * Gemini's calls and responses carry no ids (Wisp sends none; Gemini pairs them by name and order), so
 * the n-th function call of the conversation (0-based) gets the id `gemini-call-<n>`, and each response
 * the id of the earliest call of its name not yet answered (`gemini-result-<n>` when there is none).
 * An id the body does carry (`functionCall.id`, `functionResponse.id`) is used as it is.
 *
 * Structured output through the hidden answer tool (Gemini before 3, with tools): the `final_answer`
 * declaration is left out of the tools, and the instruction Wisp adds to the system prompt for a
 * schema that is no object is left out of the prompt. Calls of `final_answer` stay in the conversation,
 * as Wisp keeps them.
 *
 * What the wire does not carry, and so does not come back:
 * - the tool-call ids (above), and the signature of another provider's call (Wisp sends the
 *   documented `skip_thought_signature_validator` for it; that one is left out);
 * - thinking and provider parts of another provider (not sent), and a reply with nothing sendable;
 * - which result an image belongs to before Gemini 3 (the images follow all the responses of the turn):
 *   they go to the turn's last result (from Gemini 3 on they ride inside their own response);
 * - an image's unknown MIME type (sent as `image/png`), `generationConfig` (the response schema,
 *   token limit, temperature, stop sequences and thinking) and `toolConfig`.
 *
 * Parts Wisp has no part for (`executableCode`, `codeExecutionResult`, …) in a model turn come back
 * as `provider` parts, verbatim.
 *
 * @module
 */

import { ANSWER_TOOL } from "../output/answer-tool.ts";
import { FOREIGN_CALL_SIGNATURE } from "../providers/google/request.ts";
import type {
  AssistantContentPart,
  ImagePart,
  JsonObject,
  ToolResultPart,
  UserContentPart,
} from "../types.ts";
import {
  isObject,
  objects,
  type ReadRequest,
  recordedTool,
  stringOf,
  systemText,
  WireConversation,
} from "./wire-conversation.ts";

/** The start of the instruction Wisp adds to the system prompt for a structured answer it cannot ask for otherwise. */
const SCHEMA_INSTRUCTION =
  "When you give your final answer, answer with only a JSON value matching this JSON Schema: ";

/** The model a Gemini URL names; `""` when it names none. */
function geminiModelOf(url: string): string {
  try {
    const name = /\/models\/([^/:]+):/.exec(new URL(url).pathname)?.[1];
    return name === undefined ? "" : decodeURIComponent(name);
  } catch {
    return "";
  }
}

/** An `inlineData` or `fileData` part as an image part; undefined for any other part. */
function imageOf(part: JsonObject): ImagePart | undefined {
  if (isObject(part.inlineData)) {
    const data = stringOf(part.inlineData.data) ?? "";
    const mimeType = stringOf(part.inlineData.mimeType);
    return mimeType === undefined ? { type: "image", data } : { type: "image", data, mimeType };
  }
  if (isObject(part.fileData)) {
    const url = stringOf(part.fileData.fileUri) ?? "";
    const mimeType = stringOf(part.fileData.mimeType);
    return mimeType === undefined ? { type: "image", url } : { type: "image", url, mimeType };
  }
  return undefined;
}

/** The calls and responses of one conversation, paired as Gemini pairs them. */
class CallPairing {
  #calls = 0;
  #results = 0;
  /** Calls not yet answered: id and name, in order. */
  readonly #open: { id: string; name: string }[] = [];

  /** The id of a call named `name`. */
  call(name: string, id: string | undefined): string {
    const callId = id ?? `gemini-call-${this.#calls}`;
    this.#calls++;
    this.#open.push({ id: callId, name });
    return callId;
  }

  /** The id of the call a response of `name` answers. */
  result(name: string, id: string | undefined): string {
    const at = this.#open.findIndex((call) => (id === undefined ? call.name === name : call.id === id));
    const call = at === -1 ? undefined : this.#open.splice(at, 1)[0];
    return id ?? call?.id ?? `gemini-result-${this.#results++}`;
  }
}

function modelPart(part: JsonObject, pairing: CallPairing): AssistantContentPart {
  const signature = stringOf(part.thoughtSignature);
  const signed = signature === undefined ? {} : { signature };
  if (isObject(part.functionCall)) {
    const name = stringOf(part.functionCall.name) ?? "";
    return {
      type: "tool_call",
      id: pairing.call(name, stringOf(part.functionCall.id)),
      name,
      args: isObject(part.functionCall.args) ? part.functionCall.args : {},
      ...(signature === FOREIGN_CALL_SIGNATURE ? {} : signed),
    };
  }
  const text = stringOf(part.text);
  if (text !== undefined) return { type: part.thought === true ? "thinking" : "text", text, ...signed };
  return { type: "provider", provider: "google", block: part };
}

function toolResult(response: JsonObject, pairing: CallPairing): ToolResultPart {
  const name = stringOf(response.name) ?? "";
  const answer = isObject(response.response) ? response.response : {};
  const error = answer.error;
  const output = error !== undefined ? error : (answer.output ?? answer);
  const images = objects(response.parts).flatMap((part) => imageOf(part) ?? []);
  return {
    type: "tool_result",
    toolCallId: pairing.result(name, stringOf(response.id)),
    toolName: name,
    output: typeof output === "string" ? output : JSON.stringify(output),
    ...(images.length > 0 ? { images } : {}),
    isError: error !== undefined,
  };
}

/** A `user` turn: its function responses as tool results (images after them go to the last), else user content. */
function readUser(parts: JsonObject[], conversation: WireConversation, pairing: CallPairing): void {
  const results: ToolResultPart[] = [];
  const content: UserContentPart[] = [];
  for (const part of parts) {
    const image = imageOf(part);
    const last = results.at(-1);
    if (isObject(part.functionResponse)) results.push(toolResult(part.functionResponse, pairing));
    else if (image !== undefined && last !== undefined) last.images = [...(last.images ?? []), image];
    else if (image !== undefined) content.push(image);
    else if (typeof part.text === "string") content.push({ type: "text", text: part.text });
  }
  for (const result of results) conversation.toolResult(result);
  conversation.user(content);
}

/** The tools offered, without the hidden answer tool of structured output. */
function toolsOf(body: JsonObject): ReadRequest["tools"] {
  const config = isObject(body.toolConfig) ? body.toolConfig.functionCallingConfig : undefined;
  const forced = isObject(config) && config.mode === "ANY";
  return objects(body.tools)
    .flatMap((tool) => objects(tool.functionDeclarations))
    .filter((declaration) => !(forced && declaration.name === ANSWER_TOOL))
    .flatMap(
      (declaration) =>
        recordedTool(
          declaration.name,
          declaration.description,
          declaration.parametersJsonSchema ?? declaration.parameters,
        ) ?? [],
    );
}

/** Reads the body of request `index` (0-based) to Gemini's `streamGenerateContent` at `url`. */
export function readGeminiRequest(body: JsonObject, index: number, url: string): ReadRequest {
  const model = geminiModelOf(url);
  const conversation = new WireConversation(index, "google", model);
  const pairing = new CallPairing();
  for (const content of objects(body.contents)) {
    const parts = objects(content.parts);
    if (content.role === "model") conversation.assistant(parts.map((part) => modelPart(part, pairing)));
    else readUser(parts, conversation, pairing);
  }
  const instruction = isObject(body.systemInstruction) ? body.systemInstruction : {};
  const system = objects(instruction.parts)
    .map((part) => stringOf(part.text))
    .filter((text): text is string => text !== undefined && !text.startsWith(SCHEMA_INSTRUCTION));
  const read: ReadRequest = { model, messages: conversation.messages, tools: toolsOf(body) };
  const systemPrompt = systemText(system);
  if (systemPrompt !== undefined) read.systemPrompt = systemPrompt;
  return read;
}
