/**
 * What the demo's scripted model answers, request by request, on the Anthropic wire: which tool it
 * calls with which arguments for each kind of prompt (time, sums, send, ask me, notes, `call <tool>`),
 * how it sums up tool results (and when a newer prompt in the same message wins over them), and the
 * streamed answer to anything else.
 */
import { describe, expect, it } from "vitest";
import { demoModel } from "../demo-model.ts";
import { json, readEvents } from "./api.ts";

interface Answer {
  /** The text as streamed, chunk by chunk. */
  chunks: string[];
  /** The whole text. */
  text: string;
  /** The tool calls, in order, with their parsed arguments. */
  calls: { name: string; args: unknown }[];
}

/** One request to the demo model with the given wire messages (and tools offered, by name). */
async function answer(messages: unknown[], tools: string[] = []): Promise<Answer> {
  const body = {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    stream: true,
    messages,
    tools: tools.map((name) => ({ name, input_schema: { type: "object" } })),
  };
  const response = await demoModel(0).fetch("https://api.anthropic.com/v1/messages", json("POST", body));
  const { events } = await readEvents(response);
  const blocks: { type: string; name: string | undefined; text: string }[] = [];
  const chunks: string[] = [];
  for (const { event, data } of events) {
    const index = data.index as number;
    if (event === "content_block_start") {
      const block = data.content_block as { type: string; name?: string };
      blocks[index] = { type: block.type, name: block.name, text: "" };
    } else if (event === "content_block_delta") {
      const delta = data.delta as { type: string; text?: string; partial_json?: string };
      const block = blocks[index] as { text: string };
      if (delta.type === "text_delta") chunks.push(delta.text ?? "");
      block.text += delta.text ?? delta.partial_json ?? "";
    }
  }
  return {
    chunks,
    text: chunks.join(""),
    calls: blocks
      .filter((block) => block.type === "tool_use")
      .map((block) => ({ name: block.name ?? "", args: JSON.parse(block.text || "{}") })),
  };
}

/** The answer to one user prompt, sent as a plain string. */
function prompt(text: string, tools: string[] = []): Promise<Answer> {
  return answer([{ role: "user", content: text }], tools);
}

/** A tool_result block. */
function result(content: unknown, isError = false): Record<string, unknown> {
  const block: Record<string, unknown> = { type: "tool_result", tool_use_id: "toolu_01", is_error: isError };
  if (content !== undefined) block.content = content;
  return block;
}

/** The conversation so far: a prompt and the model's tool call, answered by `last`. */
function afterCall(last: unknown[]): unknown[] {
  return [
    { role: "user", content: "what is 40 + 2" },
    {
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_01", name: "calculator", input: { op: "add", a: 40, b: 2 } }],
    },
    { role: "user", content: last },
  ];
}

/** The demo model's answer to a prompt that calls no tool. */
function freeAnswer(said: string, message: number): string {
  return (
    `You said: "${said}". This is Wisp's scripted demo model (message ${message} of this session), ` +
    "streaming word by word from a Durable Object inside workerd. Ask for the time in a zone such as " +
    'Europe/Oslo, for a sum like 12 * 7, to send "hi" to Ada (which waits for your approval), or write ' +
    '"note: buy milk" and "list my notes" (the notes live on the demo\'s MCP server at /mcp), and it will ' +
    "call the demo's tools. Press Stop at any moment: the run is aborted for real, the partial answer is " +
    "kept, and the session stays consistent and exportable. Set ANTHROPIC_API_KEY or OPENAI_API_KEY in " +
    ".dev.vars to talk to a real model instead."
  );
}

const CHECK = "Let me check. ";

describe("the demo model's free answer", () => {
  it("echoes the prompt, counts the user's messages and explains the demo, streamed word by word", async () => {
    const reply = await answer([
      { role: "user", content: "hello" },
      { role: "assistant", content: [{ type: "text", text: "Hi." }] },
      { role: "user", content: [{ type: "text", text: "how are you" }] },
    ]);
    expect(reply.calls).toEqual([]);
    expect(reply.text).toBe(freeAnswer("how are you", 2));
    expect(reply.chunks.length).toBeGreaterThan(20);
    expect(reply.chunks.join("")).toBe(reply.text);
    for (const chunk of reply.chunks.slice(0, -1)) expect(chunk).toMatch(/^\S+\s+$/);
    expect(reply.chunks.at(-1)).toBe("instead.");
  });

  it("reads a prompt sent as a plain string, trimmed", async () => {
    expect((await prompt("  hello there  ")).text).toBe(freeAnswer("hello there", 1));
  });

  it("joins the prompt's text blocks with a space and skips blocks without text", async () => {
    const image = {
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
    };
    const reply = await answer([
      {
        role: "user",
        content: [image, { type: "text", text: "hello" }, { type: "text", text: "there" }],
      },
    ]);
    expect(reply.text).toBe(freeAnswer("hello there", 1));
  });
});

describe("the demo model's tool calls", () => {
  it("asks the clock for the zone the prompt names, and for UTC when it names none", async () => {
    const oslo = await prompt("What time is it in Europe/Oslo?");
    expect(oslo.text).toBe(CHECK);
    expect(oslo.calls).toEqual([{ name: "clock", args: { timeZone: "Europe/Oslo" } }]);
    expect((await prompt("time in America/New_York please")).calls).toEqual([
      { name: "clock", args: { timeZone: "America/New_York" } },
    ]);
    expect((await prompt("what time is it")).calls).toEqual([{ name: "clock", args: { timeZone: "UTC" } }]);
  });

  it("passes a sum's operands, decimals and all, with or without spaces around the operator", async () => {
    expect((await prompt("what is 1.25 * 2.75")).calls).toEqual([
      { name: "calculator", args: { op: "multiply", a: 1.25, b: 2.75 } },
    ]);
    expect((await prompt("12*34")).calls).toEqual([
      { name: "calculator", args: { op: "multiply", a: 12, b: 34 } },
    ]);
  });

  it("sends the quoted text to the named recipient, or a greeting when nothing is quoted", async () => {
    expect((await prompt('send "hi" to Ada')).calls).toEqual([
      { name: "send_message", args: { to: "Ada", text: "hi" } },
    ]);
    expect((await prompt("send a greeting to  Ada")).calls).toEqual([
      { name: "send_message", args: { to: "Ada", text: "Hello from Wisp" } },
    ]);
  });

  it('calls ask_user with the two demo questions on "ask me"', async () => {
    const reply = await prompt("Ask me what I would like");
    expect(reply.text).toBe(CHECK);
    expect(reply.calls).toHaveLength(1);
    expect(reply.calls[0]?.name).toBe("ask_user");
    const args = reply.calls[0]?.args as { questions: { header: string; multiSelect: boolean }[] };
    expect(args.questions.map((question) => [question.header, question.multiSelect])).toEqual([
      ["Drink", false],
      ["Extras", true],
    ]);
  });
});

describe("the demo model's note calls", () => {
  it('saves "note: …" with a title of its first six words, however the words are spaced', async () => {
    const reply = await prompt("note:buy  milk and eggs and bread and jam");
    expect(reply.text).toBe(CHECK);
    expect(reply.calls).toEqual([
      {
        name: "notes_add",
        args: { title: "buy milk and eggs and bread", text: "buy  milk and eggs and bread and jam" },
      },
    ]);
  });

  it("cuts a long note to 2,000 characters and its title to 80", async () => {
    const word = "x".repeat(50);
    const long = Array.from({ length: 50 }, () => word).join(" ");
    const reply = await prompt(`note: ${long}`);
    expect(reply.calls).toEqual([
      { name: "notes_add", args: { title: long.slice(0, 80), text: long.slice(0, 2_000) } },
    ]);
  });

  it('saves the quoted text of "remember", trimmed', async () => {
    expect((await prompt('remember "  buy milk  " for me')).calls).toEqual([
      { name: "notes_add", args: { title: "buy milk", text: "buy milk" } },
    ]);
  });

  it('saves nothing for "note:" in the middle of a prompt or at the end of a longer word', async () => {
    expect((await prompt("here is a note: buy milk")).text).toBe(freeAnswer("here is a note: buy milk", 1));
    expect((await prompt("footnote: buy milk")).calls).toEqual([]);
  });

  it('reads the note "read note <id>" names, however it is spaced', async () => {
    expect((await prompt("read note abc-123")).calls).toEqual([
      { name: "notes_read", args: { id: "abc-123" } },
    ]);
    expect((await prompt("please read note   n42")).calls).toEqual([
      { name: "notes_read", args: { id: "n42" } },
    ]);
  });
});

describe("the demo model's `call <tool>`", () => {
  it("calls an offered tool with the JSON arguments given, or none", async () => {
    const tools = ["lookup"];
    const reply = await prompt('call lookup {"city": "Oslo", "days": 2}', tools);
    expect(reply.text).toBe(CHECK);
    expect(reply.calls).toEqual([{ name: "lookup", args: { city: "Oslo", days: 2 } }]);
    expect((await prompt("call lookup", tools)).calls).toEqual([{ name: "lookup", args: {} }]);
    expect((await prompt("CALL   lookup{}", tools)).calls).toEqual([{ name: "lookup", args: {} }]);
  });

  it("calls nothing unless the prompt is exactly `call <tool> [args]`", async () => {
    const tools = ["lookup"];
    for (const text of ["please call lookup", "recall lookup", "call lookup now", "call lookup."]) {
      expect((await prompt(text, tools)).text).toBe(freeAnswer(text, 1));
    }
  });
});

describe("the demo model after tool results", () => {
  it("sums up each result, text parts joined, errors marked", async () => {
    const image = {
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
    };
    const reply = await answer(
      afterCall([
        result("42"),
        result([{ type: "text", text: "4" }, image, { type: "text", text: "2" }]),
        result("no such zone", true),
        result(undefined),
      ]),
    );
    expect(reply.calls).toEqual([]);
    expect(reply.text).toBe(
      "Here is what the tools said: 42; 42; that failed (no such zone); . Anything else?",
    );
    expect(reply.chunks.at(-1)).toBe("else?");
  });

  it("sums up the results when only blank text, or text without a text field, follows them", async () => {
    const summary = "Here is what the tools said: 42. Anything else?";
    expect((await answer(afterCall([result("42"), { type: "text", text: "  " }]))).text).toBe(summary);
    expect((await answer(afterCall([result("42"), { type: "text" }]))).text).toBe(summary);
    const odd = { type: "document", text: "what time is it" };
    expect((await answer(afterCall([result("42"), odd]))).text).toBe(summary);
  });

  it("sums up the results when the text comes before them (an older prompt)", async () => {
    const reply = await answer(afterCall([{ type: "text", text: "what time is it" }, result("42")]));
    expect(reply.text).toBe("Here is what the tools said: 42. Anything else?");
  });

  it("answers a new prompt that follows the results in the same message, not the results", async () => {
    const reply = await answer(afterCall([result("42"), { type: "text", text: "what time is it" }]));
    expect(reply.calls).toEqual([{ name: "clock", args: { timeZone: "UTC" } }]);
  });
});
