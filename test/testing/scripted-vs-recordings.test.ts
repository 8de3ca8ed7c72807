/**
 * The scripted model speaks the real wire formats: for the same content as a recording, it sends the
 * same events in the same order, with the same JSON structure. Ids, timestamps and token counts
 * differ by nature and are compared by type only; fields that only newer API versions add are listed
 * and skipped.
 */
import { describe, expect, it } from "vitest";
import { createScriptedModel, type ScriptPart } from "../../src/testing/index.ts";
import { fixtureText } from "../support/fixtures.ts";

interface Event {
  event: string | undefined;
  data: unknown;
}

function parseSse(text: string): Event[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((block) => {
      let event: string | undefined;
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      return { event, raw: data.join("\n") };
    })
    .filter((entry) => entry.raw !== "")
    .map(({ event, raw }) => ({ event, data: raw === "[DONE]" ? raw : JSON.parse(raw) }));
}

/** Fields real recordings carry that the scripted model leaves out (newer API additions, telemetry). */
const RECORDING_ONLY = new Set([
  "cache_creation",
  "service_tier",
  "inference_geo",
  "stop_details",
  "caller",
  "obfuscation",
]);
/** Fields whose values are content and must match exactly. */
const EXACT = new Set([
  "type",
  "text",
  "thinking",
  "partial_json",
  "name",
  "stop_reason",
  "role",
  "content",
  "finish_reason",
  "object",
  "arguments",
  "refusal",
  "index",
  "input",
  "status",
  "delta",
  "call_id",
  "finishReason",
  "thought",
  "output_index",
  "content_index",
]);

/** Fields that real servers send as a string or as null (older models have no system_fingerprint). */
const NULLABLE_STRING = new Set(["system_fingerprint"]);

function shape(value: unknown, key = ""): unknown {
  if (NULLABLE_STRING.has(key)) return "string|null";
  if (Array.isArray(value)) return value.map((item) => shape(item));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [child, inner] of Object.entries(value))
      if (!RECORDING_ONLY.has(child)) out[child] = shape(inner, child);
    return out;
  }
  if (EXACT.has(key) || value === null) return value;
  return typeof value;
}

async function speak(
  url: string,
  body: object,
  content: ScriptPart[],
  stopReason?: string,
): Promise<Event[]> {
  const model = createScriptedModel({
    script: [stopReason === undefined ? { content } : { content, stopReason }],
  });
  const response = await model.fetch(url, { method: "POST", body: JSON.stringify(body) });
  return parseSse(await response.text());
}

/** The content parts of an Anthropic recording, with its exact delta pieces. */
function anthropicScript(events: Event[]): ScriptPart[] {
  const parts: ScriptPart[] = [];
  for (const { data } of events) {
    const event = data as Record<string, any>;
    if (event.type === "content_block_start") {
      const block = event.content_block;
      if (block.type === "text") parts.push({ type: "text", text: [] });
      if (block.type === "thinking") parts.push({ type: "thinking", text: [] });
      if (block.type === "tool_use")
        parts.push({ type: "tool_call", name: block.name, id: block.id, args: {}, chunks: [] });
    }
    if (event.type === "content_block_delta") {
      const part = parts.at(-1) as any;
      const delta = event.delta;
      if (delta.type === "text_delta" || delta.type === "thinking_delta")
        part.text.push(delta.text ?? delta.thinking);
      if (delta.type === "signature_delta") part.signature = delta.signature;
      if (delta.type === "input_json_delta" && delta.partial_json !== "")
        part.chunks.push(delta.partial_json);
    }
  }
  return parts;
}

/** The content parts of a Chat Completions recording (choice 0), with its exact pieces. */
function openAIScript(events: Event[]): ScriptPart[] {
  const parts: ScriptPart[] = [];
  for (const { data } of events) {
    if (data === "[DONE]") continue;
    const delta = (data as any).choices?.[0]?.delta;
    if (delta?.content) {
      if (parts.at(-1)?.type !== "text") parts.push({ type: "text", text: [] });
      ((parts.at(-1) as any).text as string[]).push(delta.content);
    }
    for (const call of delta?.tool_calls ?? []) {
      if (call.id)
        parts.push({ type: "tool_call", id: call.id, name: call.function.name, args: {}, chunks: [] });
      else (parts.at(-1) as any).chunks.push(call.function.arguments);
    }
  }
  return parts;
}

/** The content parts of a Responses recording, with its exact pieces. */
function responsesScript(events: Event[]): ScriptPart[] {
  const parts: ScriptPart[] = [];
  for (const { data } of events) {
    const event = data as Record<string, any>;
    if (event.type === "response.output_item.added" && event.item.type === "message")
      parts.push({ type: "text", text: [] });
    if (event.type === "response.output_item.added" && event.item.type === "reasoning")
      parts.push({ type: "thinking", text: [], signature: event.item.encrypted_content });
    if (event.type === "response.output_item.added" && event.item.type === "function_call")
      parts.push({ type: "tool_call", name: event.item.name, id: event.item.call_id, args: {}, chunks: [] });
    if (event.type === "response.output_text.delta")
      ((parts.at(-1) as any).text as string[]).push(event.delta);
    if (event.type === "response.function_call_arguments.delta")
      (parts.at(-1) as any).chunks.push(event.delta);
    if (event.type === "response.function_call_arguments.done")
      (parts.at(-1) as any).args = JSON.parse(event.arguments);
  }
  return parts;
}

/**
 * A Responses event without what varies by API version: the response snapshot keeps its core fields
 * (newer versions add a dozen settings echoes), and `sequence_number` / `logprobs` are dropped when
 * the recording predates them.
 */
function responsesCore(data: unknown, recordedHasSequence: boolean): unknown {
  const event = { ...(data as Record<string, any>) };
  if (event.response) {
    const { id, object, created_at, status, error, incomplete_details, model, output, usage } =
      event.response;
    event.response = { id, object, created_at, status, error, incomplete_details, model, output, usage };
  }
  const dated = new Set(recordedHasSequence ? [] : ["sequence_number", "logprobs"]);
  return JSON.parse(JSON.stringify(event, (key, value) => (dated.has(key) ? undefined : value)));
}

/** The content parts of a Gemini recording, and the thinking it counted without showing. */
function geminiScript(events: Event[]): { content: ScriptPart[]; reasoning: number } {
  const content: ScriptPart[] = [];
  let reasoning = 0;
  for (const { data } of events) {
    reasoning = (data as any).usageMetadata?.thoughtsTokenCount ?? reasoning;
    for (const part of (data as any).candidates?.[0]?.content?.parts ?? []) {
      const previous = content.at(-1) as any;
      if (part.functionCall) {
        content.push({ type: "tool_call", name: part.functionCall.name, args: part.functionCall.args });
        if (part.thoughtSignature) (content.at(-1) as any).signature = part.thoughtSignature;
      } else if (part.text === "") {
        // The empty closing chunk of Gemini 3 is the voice's own doing.
      } else if (part.thought) {
        if (previous?.type !== "thinking") content.push({ type: "thinking", text: [] });
        (content.at(-1) as any).text.push(part.text);
      } else {
        // A signature on the first answer part belongs to the thinking before it.
        if (part.thoughtSignature && previous?.type === "thinking")
          previous.signature = part.thoughtSignature;
        if (previous?.type !== "text") content.push({ type: "text", text: [] });
        (content.at(-1) as any).text.push(part.text);
      }
    }
  }
  return { content, reasoning };
}

describe("the scripted model matches the recordings event for event", () => {
  for (const file of [
    "openai-responses/text-simple.sse",
    "openai-responses/function-call.sse",
    "openai-responses/reasoning-then-function-call.sse",
    "openai-responses/text-after-function-output.sse",
  ]) {
    it(`OpenAI Responses: ${file}`, async () => {
      const recorded = parseSse(fixtureText(file));
      const hasSequence = (recorded[0]?.data as any)?.sequence_number !== undefined;
      const spoken = await speak(
        "https://api.openai.com/v1/responses",
        { model: "gpt-5", stream: true },
        responsesScript(recorded),
      );
      expect(spoken.map((e) => e.event)).toEqual(recorded.map((e) => e.event));
      const core = (events: Event[]) => events.map((e) => shape(responsesCore(e.data, hasSequence)));
      expect(core(spoken)).toEqual(core(recorded));
    });
  }

  for (const file of [
    "gemini/text.sse",
    "gemini/function-call-single-chunk.sse",
    "gemini/thought-parts.sse",
    "gemini/function-call-thought-signature.sse",
    "gemini/text-after-function-response.sse",
  ]) {
    it(`Gemini: ${file}`, async () => {
      const recorded = parseSse(fixtureText(file));
      const version = (recorded[0]?.data as any)?.modelVersion as string;
      const { content, reasoning } = geminiScript(recorded);
      const scripted = createScriptedModel({ script: [{ content, usage: { reasoning } }] });
      const url = `https://generativelanguage.googleapis.com/v1beta/models/${version}:streamGenerateContent?alt=sse`;
      const response = await scripted.fetch(url, { method: "POST", body: JSON.stringify({ contents: [] }) });
      const spoken = parseSse(await response.text());
      expect(spoken.map((e) => e.event)).toEqual(recorded.map((e) => e.event));
      expect(spoken.map((e) => shape(e.data))).toEqual(recorded.map((e) => shape(e.data)));
    });
  }

  for (const file of [
    "anthropic/text-sonnet-4-5.sse",
    "anthropic/thinking-signature.sse",
    "anthropic/tool-use-parallel-no-args.sse",
  ]) {
    it(`Anthropic: ${file}`, async () => {
      const recorded = parseSse(fixtureText(file));
      const messageDelta = recorded.find((e) => (e.data as any).type === "message_delta")?.data as any;
      const stop: string = messageDelta.delta.stop_reason;
      const spoken = await speak(
        "https://api.anthropic.com/v1/messages",
        { model: "claude-sonnet-4-5", stream: true },
        anthropicScript(recorded),
        stop,
      );
      expect(spoken.map((e) => e.event)).toEqual(recorded.map((e) => e.event));
      expect(spoken.map((e) => shape(e.data))).toEqual(recorded.map((e) => shape(e.data)));
    });
  }

  for (const file of [
    "openai-chat/text-include-usage.sse",
    "openai-chat/parallel-tool-calls-include-usage.sse",
  ]) {
    it(`OpenAI Chat Completions: ${file}`, async () => {
      const recorded = parseSse(fixtureText(file));
      const spoken = await speak(
        "https://api.openai.com/v1/chat/completions",
        { model: "gpt-4o-mini", stream: true, stream_options: { include_usage: true } },
        openAIScript(recorded),
      );
      expect(spoken.map((e) => e.event)).toEqual(recorded.map((e) => e.event));
      expect(spoken.map((e) => shape(e.data))).toEqual(recorded.map((e) => shape(e.data)));
    });
  }
});
