// Streams shaped like the real recordings in ../shared/fixtures, at any length. Each scenario takes a
// recording, keeps its framing byte for byte (Anthropic's space padding inside `data:`, its `ping`
// events, Gemini's `": "` spacing and \r\n line ends, OpenAI's key order, obfuscation fields and
// usage objects) and repeats its delta events with new text: words with multi-byte characters (so a
// 16 KB write splits them), quotes, backslashes and newlines (so JSON escapes are decoded). Only the
// string values are replaced, in place; the "done" events that repeat the whole text or arguments
// (Responses) are given the whole generated value, and sequence numbers run on.
import { readFileSync } from "node:fs";

const FIXTURES = new URL("../../shared/fixtures/", import.meta.url);

/** Words of generated text: ASCII, accents, CJK, emoji, and characters JSON must escape. */
const WORDS = [
  "The ",
  "naïve ",
  "café ",
  "日本語の",
  "テキスト ",
  "🚀 ",
  '"quoted" ',
  "line\n",
  "tab\t",
  "back\\slash ",
  "über ",
  "Ωmega ",
  "plain ",
  "words ",
  "streaming ",
  "here. ",
];

/** The blocks of a recorded SSE file: `{ event?, data }`, with `data` as the raw recorded text. */
function recording(path) {
  const text = readFileSync(new URL(path, FIXTURES), "utf8").replaceAll("\r\n", "\n");
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((line) => line.startsWith("event: "))?.slice(7);
      const data = lines
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
        .join("\n");
      return { event, data };
    });
}

const STRING = '"(?:[^"\\\\]|\\\\.)*"';

/** `raw` with the first string value of `key` replaced by `value` (formatting kept). */
function setString(raw, key, value) {
  const pattern = new RegExp(`("${key}":\\s*)${STRING}`);
  if (!pattern.test(raw)) throw new Error(`no string "${key}" in ${raw.slice(0, 80)}`);
  return raw.replace(pattern, (_, prefix) => prefix + JSON.stringify(value));
}

/** `raw` with every string value of `key` replaced by `value`. */
function setEveryString(raw, key, value) {
  return raw.replace(
    new RegExp(`("${key}":\\s*)${STRING}`, "g"),
    (_, prefix) => prefix + JSON.stringify(value),
  );
}

/** `raw` with the number of `key` replaced by `value`, when it has one. */
function setNumber(raw, key, value) {
  return raw.replace(new RegExp(`("${key}":\\s*)\\d+`), (_, prefix) => prefix + value);
}

function frame(block, lineEnd) {
  const eventLine = block.event === undefined ? "" : `event: ${block.event}${lineEnd}`;
  return `${eventLine}data: ${block.data}${lineEnd}${lineEnd}`;
}

/** Splits a recording around its delta events: head, the recorded deltas (templates), tail. */
function around(blocks, isDelta) {
  const first = blocks.findIndex(isDelta);
  const last = blocks.findLastIndex(isDelta);
  if (first < 0) throw new Error("the recording has no delta event");
  return {
    head: blocks.slice(0, first),
    templates: blocks.slice(first, last + 1).filter(isDelta),
    tail: blocks.slice(last + 1),
  };
}

/** `count` pieces of text, word by word. */
function textPieces(count) {
  return Array.from({ length: count }, (_, index) => WORDS[index % WORDS.length]);
}

/** Tool arguments (a JSON object as text) cut into `count` fragments of about 16 characters. */
function argumentFragments(count) {
  const items = [];
  let length = 0;
  for (let index = 0; length < count * 16; index++) {
    const item = { id: index, note: `${WORDS[index % WORDS.length]}${WORDS[(index * 7) % WORDS.length]}` };
    items.push(item);
    length += JSON.stringify(item).length + 1;
  }
  const json = JSON.stringify({ items });
  const size = Math.ceil(json.length / count);
  return Array.from({ length: count }, (_, index) => json.slice(index * size, (index + 1) * size));
}

/** Builds a body: head, one delta per piece (cycling the recorded templates), tail. */
function build({ head, templates, tail }, pieces, key, lineEnd, extra = {}) {
  const out = head.map((block) => frame(block, lineEnd));
  pieces.forEach((piece, index) => {
    if (extra.every !== undefined && index > 0 && index % extra.every === 0)
      out.push(frame(extra.insert, lineEnd));
    const template = templates[index % templates.length];
    out.push(frame({ event: template.event, data: setString(template.data, key, piece) }, lineEnd));
  });
  for (const block of tail)
    out.push(frame({ event: block.event, data: extra.finish?.(block.data) ?? block.data }, lineEnd));
  return out.join("");
}

/** Renumbers `sequence_number` across a Responses body, in order. */
function renumber(body) {
  let next = 0;
  return body.replace(/("sequence_number":)\d+/g, (_, prefix) => prefix + next++);
}

/**
 * A Responses stream: the recording's `deltaEvent`s replaced by `pieces`; the done events' `wholeKey`
 * (the text, or the arguments) set to the whole value; sequence numbers renumbered.
 */
function responses(file, deltaEvent, wholeKey, pieces) {
  const parts = around(recording(file), (block) => block.event === deltaEvent);
  const whole = pieces.join("");
  const body = build(parts, pieces, "delta", "\n", {
    finish: (data) => setEveryString(data, wholeKey, whole),
  });
  return { api: "responses", kind: wholeKey === "text" ? "text" : "tool", body: renumber(body), pieces };
}

const anthropicPing = () =>
  recording("anthropic/text-sonnet-4-5.sse").find((block) => block.event === "ping");

/** The scenarios: name → (count) → { path, body, pieces }. `path` is what the server answers on. */
export const SCENARIOS = {
  "anthropic text": (count) => {
    const blocks = recording("anthropic/text-sonnet-4-5.sse");
    const parts = around(blocks, (block) => block.event === "content_block_delta");
    const pieces = textPieces(count);
    const body = build(parts, pieces, "text", "\n", {
      every: 1000,
      insert: anthropicPing(),
      finish: (data) => setNumber(data, "output_tokens", count),
    });
    return { api: "anthropic", kind: "text", body, pieces };
  },
  "anthropic tool": (count) => {
    const blocks = recording("anthropic/text-then-tool-use-input-json-delta.sse");
    const parts = around(blocks, (block) => /"partial_json":"[^"]/.test(block.data));
    const pieces = argumentFragments(count);
    const body = build(parts, pieces, "partial_json", "\n", { every: 1000, insert: anthropicPing() });
    return { api: "anthropic", kind: "tool", body, pieces };
  },
  "openai chat text": (count) => {
    const blocks = recording("openai-chat/text-include-usage.sse");
    const parts = around(blocks, (block) => /"delta":\{"content":"[^"]/.test(block.data));
    const pieces = textPieces(count);
    return { api: "openai", kind: "text", body: build(parts, pieces, "content", "\n"), pieces };
  },
  "openai chat tool": (count) => {
    const blocks = recording("openai-chat/parallel-tool-calls-include-usage.sse");
    const parts = around(blocks, (block) =>
      /"tool_calls":\[\{"index":0,"function":\{"arguments":"/.test(block.data),
    );
    const pieces = argumentFragments(count);
    return { api: "openai", kind: "tool", body: build(parts, pieces, "arguments", "\n"), pieces };
  },
  "responses text": (count) =>
    responses("openai-responses/text-simple.sse", "response.output_text.delta", "text", textPieces(count)),
  "responses tool": (count) =>
    responses(
      "openai-responses/function-call.sse",
      "response.function_call_arguments.delta",
      "arguments",
      argumentFragments(count),
    ),
  "gemini text": (count) => {
    const blocks = recording("gemini/text.sse");
    const parts = around(blocks, (block) => !block.data.includes("finishReason"));
    // The last recorded chunk (with finishReason) carries the end of the text: it becomes a piece too.
    const pieces = textPieces(count - 1);
    const body = build(parts, pieces, "text", "\r\n", {
      finish: (data) => setString(data, "text", "the end."),
    });
    return { api: "gemini", kind: "text", body, pieces: [...pieces, "the end."] };
  },
};

/** The request path each API answers on. */
export const PATHS = {
  anthropic: "/v1/messages",
  openai: "/v1/chat/completions",
  responses: "/v1/responses",
  gemini: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
};

/**
 * What a Wisp reader takes from each of its events: the text, the thinking (when `out` keeps it), and
 * the first tool call's arguments, as the raw reader does (parallel calls); `finishTurn` waits for the
 * turn's message and fails on its error.
 */
export const takeWisp = (out) => (event) => {
  if (event.type === "text-delta") out.text += event.delta;
  else if (event.type === "thinking-delta" && "thinking" in out) out.thinking += event.delta;
  else if (event.type === "tool-call-delta" && event.index === (out.toolIndex ??= event.index))
    out.args += event.delta;
};

/** The output of a Wisp reader once its turn's message is in (its error thrown). */
export async function finishTurn(turn, out) {
  const message = await turn.message;
  if (message.error) throw new Error(message.error.message);
  return out;
}

/**
 * What a raw reader takes from one parsed event of each API: the text, and the first tool call's
 * arguments (decoding.mjs, decoding-cpu.mjs); and the thinking, for a reader whose output keeps it
 * (decoding-honest-reader.mjs).
 */
export const TAKE = {
  anthropic(event, out) {
    if (event.type !== "content_block_delta") return;
    const delta = event.delta;
    if (delta.type === "text_delta") out.text += delta.text;
    else if (delta.type === "input_json_delta") out.args += delta.partial_json;
    else if (delta.type === "thinking_delta" && "thinking" in out) out.thinking += delta.thinking;
  },
  openai(event, out) {
    const delta = event.choices?.[0]?.delta;
    if (delta === undefined) return;
    if (delta.content) out.text += delta.content;
    if (delta.tool_calls)
      for (const call of delta.tool_calls) if (call.index === 0) out.args += call.function?.arguments ?? "";
  },
  responses(event, out) {
    if (event.type === "response.output_text.delta") out.text += event.delta;
    else if (event.type === "response.function_call_arguments.delta") out.args += event.delta;
  },
  gemini(event, out) {
    for (const part of event.candidates?.[0]?.content?.parts ?? []) if (part.text) out.text += part.text;
  },
};

/**
 * Reads one stream of `api` (`anthropic`, `responses`, `openai`) at `base` with the official client
 * (`clients.Anthropic` or `clients.OpenAI`, a new client per call) into `out`, as {@link TAKE} does.
 */
export async function takeOfficial(api, base, clients, out) {
  if (api === "anthropic") {
    const client = new clients.Anthropic({ apiKey: "k", baseURL: base, maxRetries: 0 });
    const stream = await client.messages.create({
      model: "claude-sonnet-5-5",
      max_tokens: 10,
      stream: true,
      messages: [{ role: "user", content: "go" }],
    });
    for await (const event of stream) TAKE.anthropic(event, out);
    return out;
  }
  const client = new clients.OpenAI({ apiKey: "k", baseURL: `${base}/v1`, maxRetries: 0 });
  if (api === "responses") {
    const stream = await client.responses.create({ model: "gpt-5", stream: true, input: "go" });
    for await (const event of stream) TAKE.responses(event, out);
    return out;
  }
  const stream = await client.chat.completions.create({
    model: "gpt-4o",
    stream: true,
    messages: [{ role: "user", content: "go" }],
  });
  for await (const chunk of stream) TAKE.openai(chunk, out);
  return out;
}
