/**
 * Every Anthropic recording in ../shared/fixtures/anthropic replays to the right normalized message,
 * whole and re-chunked at random byte boundaries. Expected values were read off the recordings.
 */
import { describe, expect, it } from "vitest";
import type {
  AssistantMessage,
  ProviderPart,
  TextPart,
  ThinkingPart,
  ToolCallPart,
} from "../../src/index.ts";
import { chunksToSse, fixtureBytes } from "../support/fixtures.ts";
import { replay } from "../support/replay.ts";
import { itReplaysRecordings, type RecordingCase } from "../support/replay-cases.ts";

const parts = <T extends AssistantMessage["content"][number]["type"]>(message: AssistantMessage, type: T) =>
  message.content.filter((part) => part.type === type);
const text = (message: AssistantMessage) =>
  (parts(message, "text") as TextPart[]).map((part) => part.text).join("");

const cases: RecordingCase[] = [
  {
    file: "anthropic/text-sonnet-4-5.sse",
    check(message) {
      expect(message.content).toEqual([{ type: "text", text: "- Captain\n- Scoop" }]);
      expect(message.stopReason).toBe("complete");
      expect(message.rawStopReason).toBe("end_turn");
      expect(message.responseId).toBe("msg_01KHTDfhXSbjLyGST1qLVLV3");
      expect(message.usage).toMatchObject({ input: 17, output: 10, cacheRead: 0, cacheWrite: 0 });
      // claude-sonnet-4-5 at $3 / $15 per million tokens.
      expect(message.usage.costUsd).toBeCloseTo((17 * 3 + 10 * 15) / 1e6, 12);
    },
  },
  {
    file: "anthropic/stop-sequence.sse",
    check(message) {
      expect(text(message)).toBe(
        '\ndef pelican():\n    return "A large waterbird with a long bill and a throat pouch for catching fish."\n',
      );
      expect(message.stopReason).toBe("complete");
      expect(message.rawStopReason).toBe("stop_sequence");
      expect(message.stopSequence).toBe("```");
      expect(message.usage).toMatchObject({ input: 16, output: 28 });
    },
  },
  {
    file: "anthropic/tool-use-parallel-no-args.sse",
    check(message) {
      expect(message.content).toEqual([
        { type: "tool_call", id: "toolu_01LtHJmixrs9NcWQkK8hu8hj", name: "pelican_name_generator", args: {} },
        { type: "tool_call", id: "toolu_01N8a4jWyf116qKTMqKKmjyt", name: "pelican_name_generator", args: {} },
      ]);
      expect(message.stopReason).toBe("toolUse");
      expect(message.usage).toMatchObject({ input: 542, output: 62 });
    },
  },
  {
    file: "anthropic/thinking-signature.sse",
    check(message) {
      const [thinking, answer] = message.content as [ThinkingPart, TextPart];
      expect(thinking.type).toBe("thinking");
      expect(thinking.text.startsWith("The user wants two names for a pet pelican")).toBe(true);
      expect(thinking.text).toHaveLength(289);
      expect(thinking.signature).toHaveLength(656);
      expect(thinking.signature?.startsWith("EuYDCmMIDBgCKkC05Zda4P+Cdk/LQKE+")).toBe(true);
      expect(answer).toEqual({
        type: "text",
        text: '1. **Pouch** - references their iconic bill pouch\n2. **Pelé** - playful take on "pelican"',
      });
      expect(message.stopReason).toBe("complete");
      expect(message.usage).toMatchObject({ input: 46, output: 133 });
    },
  },
  {
    file: "anthropic/thinking-then-tool-use.sse",
    check(message) {
      expect(message.content.map((part) => part.type)).toEqual(["thinking", "tool_call"]);
      const thinking = message.content[0] as ThinkingPart;
      expect(thinking.text).toHaveLength(180);
      expect(thinking.signature).toHaveLength(524);
      expect(message.content[1]).toEqual({
        type: "tool_call",
        id: "toolu_01825dXWLSoJwCst1qTsiWdb",
        name: "fixed_version",
        args: {},
      });
      expect(message.stopReason).toBe("toolUse");
      expect(message.usage).toMatchObject({ input: 598, output: 92, reasoning: 53 });
    },
  },
  {
    file: "anthropic/redacted-thinking.sse",
    check(message) {
      expect(message.content.map((part) => part.type)).toEqual([
        "redacted_thinking",
        "redacted_thinking",
        "text",
      ]);
      for (const part of message.content.slice(0, 2)) {
        expect(part.type === "redacted_thinking" && part.data.length > 100).toBe(true);
      }
      expect(text(message)).toHaveLength(359);
      expect(text(message).startsWith("I notice that you've sent what appears to be")).toBe(true);
      expect(message.usage).toMatchObject({ input: 92, output: 189 });
    },
  },
  {
    file: "anthropic/server-tool-code-execution.sse",
    check(message) {
      expect(message.content.map((part) => part.type)).toEqual([
        "thinking",
        "text",
        "provider",
        "provider",
        "text",
      ]);
      const [use, result] = message.content.slice(2, 4) as [ProviderPart, ProviderPart];
      expect(use.provider).toBe("anthropic");
      expect(use.block).toEqual({
        type: "server_tool_use",
        id: "srvtoolu_01MwXaweAHve88x6s3Fc8x6Q",
        name: "bash_code_execution",
        input: { command: 'echo "65465-6544 * 65464-6+1.02255" | bc -l' },
      });
      expect(result.block.type).toBe("bash_code_execution_tool_result");
      expect(result.block.tool_use_id).toBe("srvtoolu_01MwXaweAHve88x6s3Fc8x6Q");
      expect((result.block.content as { stdout: string }).stdout).toBe("-428330955.97745\n");
      expect((message.content[0] as ThinkingPart).signature).toHaveLength(320);
      expect(message.stopReason).toBe("complete");
      expect(message.usage).toMatchObject({ input: 4714, output: 304 });
    },
  },
  {
    file: "anthropic/server-tool-web-search.sse",
    check(message) {
      expect(parts(message, "text")).toHaveLength(18);
      const provider = parts(message, "provider") as ProviderPart[];
      expect(provider.map((part) => part.block.type)).toEqual([
        "server_tool_use",
        "web_search_tool_result",
        "server_tool_use",
        "web_search_tool_result",
      ]);
      expect(provider[0]?.block.input).toEqual({ query: "top world news today" });
      expect(provider[2]?.block.input).toEqual({ query: "breaking news headlines August 14 2025" });
      const citations = (parts(message, "text") as TextPart[]).flatMap((part) => part.citations ?? []);
      expect(citations).toHaveLength(9);
      expect(message.usage).toMatchObject({ input: 31772, output: 644 });
      expect(message.stopReason).toBe("complete");
    },
  },
  {
    file: "anthropic/pause-turn-web-search.sse",
    check(message) {
      expect(message.content).toHaveLength(25);
      expect(parts(message, "thinking")).toHaveLength(1);
      expect(parts(message, "text")).toHaveLength(3);
      const blocks = (parts(message, "provider") as ProviderPart[]).map((part) => part.block.type);
      expect(blocks.filter((type) => type === "server_tool_use")).toHaveLength(11);
      expect(blocks.filter((type) => type === "web_search_tool_result")).toHaveLength(10);
      expect((message.content[2] as ProviderPart).block.input).toEqual({
        query: "San Francisco weather today",
      });
      expect(message.stopReason).toBe("pauseTurn");
      expect(message.rawStopReason).toBe("pause_turn");
      expect(message.usage).toMatchObject({ input: 404500, output: 943, reasoning: 261 });
    },
  },
  {
    file: "anthropic/text-then-tool-use-input-json-delta.sse",
    check(message) {
      expect(message.content).toEqual([
        { type: "text", text: "I'll check the current weather in Paris for you." },
        {
          type: "tool_call",
          id: "toolu_01NRLabsLyVHZPKxbKvkfSMn",
          name: "get_weather",
          args: { location: "Paris" },
        },
      ]);
      expect(message.stopReason).toBe("toolUse");
      expect(message.usage).toMatchObject({ input: 377, output: 65 });
    },
  },
  {
    file: "anthropic/max-tokens-mid-tool-input.sse",
    check(message) {
      expect(text(message)).toHaveLength(135);
      const call = message.content[1] as ToolCallPart;
      expect(call.type).toBe("tool_call");
      expect(call.name).toBe("make_file");
      // The arguments were cut off by max_tokens: nothing parsed, the raw text kept.
      expect(call.args).toEqual({});
      expect(
        call.rawArgs?.startsWith('{"filename": "taxes.txt", "lines_of_text": [\n"# COMPREHENSIVE TAX GUIDE'),
      ).toBe(true);
      expect(call.rawArgs?.endsWith('\n"Filing taxes')).toBe(true);
      expect(message.stopReason).toBe("maxTokens");
      expect(message.usage).toMatchObject({ input: 450, output: 124 });
    },
  },
];

describe("Anthropic recordings", () => {
  itReplaysRecordings("anthropic/claude-sonnet-4-5", cases, [1, 2, 3]);

  it("takes the later input_tokens from message_delta over message_start (compatible endpoint)", async () => {
    const { message } = await replay("anthropic/claude-opus-4-5", [
      chunksToSse("anthropic/compat-message-delta-input-tokens.chunks.jsonl"),
    ]);
    expect(message.content).toEqual([{ type: "text", text: "pong" }]);
    expect(message.usage).toMatchObject({ input: 61, output: 2 });
    expect(message.stopReason).toBe("complete");
  });

  it("emits text events in order with indexes matching the final content", async () => {
    const { events, message } = await replay("anthropic/claude-sonnet-4-5", [
      fixtureBytes("anthropic/text-then-tool-use-input-json-delta.sse"),
    ]);
    const types = events.map((event) => event.type).filter((type) => type !== "usage");
    expect(types[0]).toBe("turn-start");
    expect(types[1]).toBe("text-start");
    expect(types.indexOf("text-end")).toBeLessThan(types.indexOf("tool-call-start"));
    const toolCall = events.find((event) => event.type === "tool-call");
    expect(toolCall).toEqual({ type: "tool-call", index: 1, toolCall: message.content[1] });
    const deltas = events.filter((event) => event.type === "text-delta").map((event) => event.delta);
    expect(deltas.join("")).toBe("I'll check the current weather in Paris for you.");
  });
});
