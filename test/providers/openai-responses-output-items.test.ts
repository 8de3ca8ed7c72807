/**
 * Responses output items as servers other than OpenAI's send them: content that comes only whole in a
 * `.done` event (LM Studio), built-in tools that finish out of order (xAI), items never finished by
 * `output_item.done` but listed in the completed response (MCP list tools) — and what goes back on
 * the next turn.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/index.ts";
import { toResponsesInput } from "../../src/providers/openai-responses/request.ts";
import { replay } from "../support/replay.ts";
import { wildStreams } from "../support/wild-streams.ts";

const MODEL = "openai-responses/gpt-5";
const sse = (...events: object[]) =>
  new TextEncoder().encode(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(""));
const completed = (output: object[] = []) => ({
  type: "response.completed",
  response: { id: "resp_1", output, usage: { input_tokens: 5, output_tokens: 6 } },
});
const added = (output_index: number, item: object) => ({
  type: "response.output_item.added",
  output_index,
  item,
});
const done = (output_index: number, item: object) => ({
  type: "response.output_item.done",
  output_index,
  item,
});

const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "weather", arguments: "" };
const message = (text: string) => ({
  type: "message",
  id: "msg_1",
  role: "assistant",
  content: [{ type: "output_text", text, annotations: [] }],
});

describe("content that comes only whole, in a .done event", () => {
  it("a call's arguments only in function_call_arguments.done and the finished item (LM Studio)", async () => {
    const args = '{"location":"San Francisco"}';
    const { message: turn } = await replay(MODEL, [
      sse(
        added(0, call),
        { type: "response.function_call_arguments.done", item_id: "fc_1", output_index: 0, arguments: args },
        done(0, { ...call, arguments: args }),
        completed(),
      ),
    ]);
    expect(turn.content).toEqual([
      { type: "tool_call", id: "call_1", name: "weather", args: { location: "San Francisco" } },
    ]);
    expect(turn.stopReason).toBe("toolUse");
  });

  it("a call's arguments only in the finished item", async () => {
    const { message: turn } = await replay(MODEL, [
      sse(added(0, call), done(0, { ...call, arguments: '{"a":1}' }), completed()),
    ]);
    expect(turn.content).toMatchObject([{ type: "tool_call", args: { a: 1 } }]);
  });

  it("text only in output_text.done, then again in the finished item: once", async () => {
    const { message: turn, events } = await replay(MODEL, [
      sse(
        added(0, { ...message(""), content: [] }),
        {
          type: "response.output_text.done",
          item_id: "msg_1",
          output_index: 0,
          content_index: 0,
          text: "Hi there",
        },
        done(0, message("Hi there")),
        completed(),
      ),
    ]);
    expect(turn.content).toEqual([{ type: "text", text: "Hi there" }]);
    expect(events.filter((event) => event.type === "text-delta")).toEqual([
      { type: "text-delta", index: 0, delta: "Hi there" },
    ]);
  });

  it("text only in the finished item", async () => {
    const { message: turn } = await replay(MODEL, [sse(done(0, message("Whole")), completed())]);
    expect(turn.content).toEqual([{ type: "text", text: "Whole" }]);
    expect(turn.stopReason).toBe("complete");
  });

  it("a refusal only in refusal.done is a refusal", async () => {
    const { message: turn } = await replay(MODEL, [
      sse(
        { type: "response.refusal.done", item_id: "msg_1", output_index: 0, refusal: "I can't." },
        completed(),
      ),
    ]);
    expect(turn.content).toEqual([{ type: "text", text: "I can't." }]);
    expect(turn.stopReason).toBe("refusal");
  });

  it("streamed deltas are not repeated by the .done events that repeat them", async () => {
    const { message: turn } = await replay(MODEL, [
      sse(
        added(0, call),
        { type: "response.function_call_arguments.delta", output_index: 0, delta: '{"a":' },
        { type: "response.function_call_arguments.delta", output_index: 0, delta: "1}" },
        { type: "response.function_call_arguments.done", output_index: 0, arguments: '{"a":1}' },
        done(0, { ...call, arguments: '{"a":1}' }),
        { type: "response.output_text.delta", output_index: 1, delta: "Do" },
        { type: "response.output_text.delta", output_index: 1, delta: "ne" },
        { type: "response.output_text.done", output_index: 1, text: "Done" },
        done(1, message("Done")),
        completed(),
      ),
    ]);
    expect(turn.content).toEqual([
      { type: "tool_call", id: "call_1", name: "weather", args: { a: 1 } },
      { type: "text", text: "Done" },
    ]);
  });
});

describe("built-in items", () => {
  const search = (n: number, status: string) => ({ type: "web_search_call", id: `ws_${n}`, status });

  it("keep their output_index order when they finish out of order, and go back in it", async () => {
    const { message: turn, events } = await replay(MODEL, [
      sse(
        added(0, search(0, "in_progress")),
        added(1, search(1, "in_progress")),
        done(1, search(1, "completed")),
        done(0, search(0, "completed")),
        { type: "response.output_text.delta", output_index: 2, delta: "Found." },
        done(2, message("Found.")),
        completed(),
      ),
    ]);
    expect(turn.content).toEqual([
      { type: "provider", provider: "openai-responses", block: search(0, "completed") },
      { type: "provider", provider: "openai-responses", block: search(1, "completed") },
      { type: "text", text: "Found." },
    ]);
    // Each is announced when it finishes, at its place, as finished.
    expect(events.filter((event) => event.type === "provider-part")).toEqual([
      { type: "provider-part", index: 1, part: turn.content[1] },
      { type: "provider-part", index: 0, part: turn.content[0] },
    ]);
    expect(toResponsesInput([turn])).toEqual([
      search(0, "completed"),
      search(1, "completed"),
      { role: "assistant", content: "Found." },
    ]);
  });

  it("xAI's x_search recording goes back in the order its response lists its output", async () => {
    const recording = wildStreams().find((stream) => stream.name === "openai-responses/xai-x-search-tool");
    if (recording === undefined) throw new Error("the xai-x-search-tool recording is missing");
    const { message: turn } = await replay(recording.expected.model, [recording.bytes]);
    const text = new TextDecoder().decode(recording.bytes);
    const last = text.split("\n").findLast((line) => line.includes('"type":"response.completed"')) ?? "";
    const listed = (JSON.parse(last.slice("data: ".length)).response.output as JsonObject[])
      .filter((item) => item.type !== "message")
      .map((item) => item.id);
    const sent = toResponsesInput([turn]).flatMap((item) => (typeof item.id === "string" ? [item.id] : []));
    expect(sent).toEqual(listed);
  });

  it("an item added but never finished is finished from the completed response's output", async () => {
    const list = (label: string, tools: object[]) => ({
      type: "mcp_list_tools",
      id: `mcpl_${label}`,
      server_label: label,
      tools,
    });
    const tool = { name: "ask", input_schema: {} };
    const { message: turn } = await replay(MODEL, [
      sse(
        added(0, list("a", [])),
        added(1, list("b", [])),
        done(1, list("b", [tool])),
        completed([list("a", [tool]), list("b", [tool])]),
      ),
    ]);
    const blocks = turn.content.map((part) => (part.type === "provider" ? part.block : part));
    expect(blocks).toEqual([list("a", [tool]), list("b", [tool])]);
  });
});
