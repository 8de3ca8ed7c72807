/**
 * The providers' own compaction (`compaction: { native: true }`): Anthropic gets the
 * `compact_20260112` edit and its beta header, OpenAI Responses its `context_management`; the
 * compaction block or item the server streams is kept verbatim and sent back on the next request, to
 * that provider only; Wisp makes no summary of its own then. Streams are written as the providers'
 * references describe them (Anthropic: the summary in one `compaction_delta`).
 */
import { expect, it } from "vitest";
import { createAgentSession } from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { anthropicRequest, responsesRequest } from "../support/request-schemas.ts";
import { okValue } from "../support/results.ts";

type Sent = { url: string; headers: Headers; body: Record<string, unknown> };

/** A fetch that answers each request with the next SSE text, recording what was sent. */
function server(streams: string[]) {
  const sent: Sent[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    sent.push({ url, headers: new Headers(init.headers), body: JSON.parse(String(init.body)) });
    return new Response(streams[sent.length - 1] ?? "", { headers: { "content-type": "text/event-stream" } });
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}

const sse = (events: [string, object][]) =>
  events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join("");

const anthropicTurn = (blocks: object[], deltas: object[], text: string) =>
  sse([
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "claude-opus-4-6",
          content: [],
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      },
    ],
    ...blocks.flatMap((block, index): [string, object][] => [
      ["content_block_start", { type: "content_block_start", index, content_block: block }],
      ["content_block_delta", { type: "content_block_delta", index, delta: deltas[index] }],
      ["content_block_stop", { type: "content_block_stop", index }],
    ]),
    [
      "message_delta",
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 5 } },
    ],
    ["message_stop", { type: "message_stop" }],
  ]).replace("TEXT", text);

/** An Anthropic turn that compacted: its compaction block (the summary in one delta), then "Hello.". */
const compactingTurn = () =>
  anthropicTurn(
    [
      { type: "compaction", content: null },
      { type: "text", text: "" },
    ],
    [
      { type: "compaction_delta", content: "SERVER SUMMARY" },
      { type: "text_delta", text: "TEXT" },
    ],
    "Hello.",
  );

it("Anthropic: the compact edit and beta header are sent; the compaction block goes back verbatim", async () => {
  const { fetch, sent } = server([
    compactingTurn(),
    anthropicTurn([{ type: "text", text: "" }], [{ type: "text_delta", text: "TEXT" }], "Again."),
  ]);
  const session = okValue(
    await createAgentSession({
      model: "anthropic/claude-opus-4-6",
      apiKey: "k",
      fetch,
      compaction: { native: true, maxTokens: 60_000, instructions: "Keep the numbers." },
    }),
  );
  expect((await session.chat("Hi")).ok).toBe(true);
  expect((await session.chat("And?")).ok).toBe(true);
  expect(sent[0]?.headers.get("anthropic-beta")).toBe("compact-2026-01-12");
  expect(sent[0]?.body.context_management).toEqual({
    edits: [
      {
        type: "compact_20260112",
        trigger: { type: "input_tokens", value: 60_000 },
        instructions: "Keep the numbers.",
      },
    ],
  });
  const second = sent[1]?.body as { messages: { role: string; content: Record<string, unknown>[] }[] };
  const reply = second.messages[1]?.content ?? [];
  expect(reply[0]).toMatchObject({ type: "compaction", content: "SERVER SUMMARY" });
  expect(anthropicRequest.safeParse(second).success).toBe(true);
  // No summary request of Wisp's own: two requests, both the conversation's.
  expect(sent).toHaveLength(2);
});

it("OpenAI Responses: context_management is sent; the encrypted compaction item goes back in the input", async () => {
  const item = { type: "compaction", id: "cmp_1", encrypted_content: "gAAAA-opaque" };
  const responses = (text: string, extra: object[]) =>
    sse([
      ["response.created", { type: "response.created", response: { id: "resp_1", model: "gpt-5" } }],
      ...extra.map((done, index): [string, object] => [
        "response.output_item.done",
        { type: "response.output_item.done", output_index: index, item: done },
      ]),
      [
        "response.output_text.delta",
        {
          type: "response.output_text.delta",
          output_index: extra.length,
          item_id: "msg_1",
          content_index: 0,
          delta: text,
        },
      ],
      [
        "response.completed",
        {
          type: "response.completed",
          response: { id: "resp_1", status: "completed", usage: { input_tokens: 10, output_tokens: 3 } },
        },
      ],
    ]);
  const { fetch, sent } = server([responses("Hello.", [item]), responses("Again.", [])]);
  const session = okValue(
    await createAgentSession({
      model: "openai-responses/gpt-5",
      apiKey: "k",
      fetch,
      compaction: { native: true, maxTokens: 100_000 },
    }),
  );
  expect((await session.chat("Hi")).ok).toBe(true);
  expect((await session.chat("And?")).ok).toBe(true);
  expect(sent[0]?.body.context_management).toEqual([{ type: "compaction", compact_threshold: 100_000 }]);
  const input = sent[1]?.body.input as Record<string, unknown>[];
  expect(input).toContainEqual(item);
  expect(responsesRequest.safeParse(sent[1]?.body).success).toBe(true);
});

it("a session moved to another API sends no provider compaction, and Wisp's own applies there", async () => {
  const { fetch, sent } = server([compactingTurn()]);
  const first = okValue(
    await createAgentSession({
      model: "anthropic/claude-opus-4-6",
      apiKey: "k",
      fetch,
      compaction: { native: true },
    }),
  );
  await first.chat("Hi");
  const state = JSON.parse(JSON.stringify(first.export()));
  const other = server([
    sse([
      [
        "response.completed",
        {
          type: "response.completed",
          response: { id: "r", status: "completed", usage: { input_tokens: 1, output_tokens: 1 } },
        },
      ],
    ]),
  ]);
  const moved = okValue(
    await createAgentSession({
      model: "openai/gpt-4o",
      apiKey: "k",
      fetch: other.fetch,
      restore: state,
      compaction: { native: true },
    }),
  );
  await moved.chat("And?");
  const body = JSON.stringify(other.sent[0]?.body);
  expect(body).not.toContain("SERVER SUMMARY");
  expect(body).not.toContain("context_management");
  expect(sent).toHaveLength(1);
});

/** A scripted model whose first answer compacts (with `summary`) and says "Hello.", then says "Again.". */
function compactingModel(summary: string) {
  return createScriptedModel({
    script: [
      {
        content: [
          { type: "compaction", summary },
          { type: "text", text: "Hello." },
        ],
      },
      { content: [{ type: "text", text: "Again." }] },
    ],
  });
}

it("the scripted model speaks both providers' compaction, and a session sends it back", async () => {
  for (const [model, schema, sentBack] of [
    ["anthropic/claude-opus-4-6", anthropicRequest, '"type":"compaction","content":"SCRIPTED SUMMARY"'],
    ["openai-responses/gpt-5", responsesRequest, '"type":"compaction","encrypted_content":"gAAAAB'],
  ] as const) {
    const scripted = compactingModel("SCRIPTED SUMMARY");
    const session = okValue(
      await createAgentSession({
        model,
        apiKey: "k",
        fetch: scripted.fetch,
        compaction: { native: true, maxTokens: 80_000 },
      }),
    );
    const first = await session.chat("Hi");
    if (!first.ok) throw first.error;
    expect(first.value.text).toBe("Hello.");
    expect((await session.chat("And?")).ok).toBe(true);
    const body = scripted.requests[1]?.body;
    expect(JSON.stringify(body)).toContain(sentBack);
    expect(schema.safeParse(body).success).toBe(true);
  }
});

it("the compaction beta joins the caller's own betas, and goes with a compaction block sent back later", async () => {
  const scripted = compactingModel("SUMMARY");
  const first = okValue(
    await createAgentSession({
      model: "anthropic/claude-opus-4-6",
      apiKey: "k",
      fetch: scripted.fetch,
      headers: { "Anthropic-Beta": "context-1m-2025-08-07" },
      compaction: { native: true },
    }),
  );
  await first.chat("Hi");
  expect(scripted.requests[0]?.headers["anthropic-beta"]).toBe("context-1m-2025-08-07,compact-2026-01-12");
  // Restored without native compaction: the block still goes back, so its beta does too.
  const later = okValue(
    await createAgentSession({
      model: "anthropic/claude-opus-4-6",
      apiKey: "k",
      fetch: scripted.fetch,
      restore: JSON.parse(JSON.stringify(first.export())),
    }),
  );
  await later.chat("And?");
  expect(scripted.requests[1]?.headers["anthropic-beta"]).toBe("compact-2026-01-12");
  expect(scripted.requests[1]?.body).not.toHaveProperty("context_management");
});

it("Anthropic's compaction iterations are counted: billed, but left out of the top-level usage", async () => {
  const { fetch } = server([
    sse([
      [
        "message_start",
        {
          type: "message_start",
          message: {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "claude-opus-4-6",
            content: [],
            usage: { input_tokens: 45000, output_tokens: 1 },
          },
        },
      ],
      [
        "content_block_start",
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      ],
      [
        "content_block_delta",
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Ok." } },
      ],
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      [
        "message_delta",
        {
          type: "message_delta",
          delta: { stop_reason: "end_turn" },
          usage: {
            input_tokens: 45000,
            output_tokens: 1234,
            iterations: [
              { type: "compaction", input_tokens: 180000, output_tokens: 3500 },
              { type: "message", input_tokens: 23000, output_tokens: 1000 },
            ],
          },
        },
      ],
      ["message_stop", { type: "message_stop" }],
    ]),
  ]);
  const session = okValue(
    await createAgentSession({
      model: "anthropic/claude-opus-4-6",
      apiKey: "k",
      fetch,
      compaction: { native: true },
    }),
  );
  const result = await session.chat("Hi");
  if (!result.ok) throw result.error;
  expect(result.value.usage).toMatchObject({ input: 45000 + 180000, output: 1234 + 3500 });
});
