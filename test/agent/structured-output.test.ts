/**
 * Structured output with `output: schema`: each of the four APIs is asked in its native JSON mode,
 * beside tools (checked against the documented request schemas); the answer is validated by the schema
 * into `result.value.output`; partial objects stream as `output-partial` events; an answer the schema
 * refuses goes back to the model with the reason and, after the retries, the run ends OUTPUT_INVALID
 * with the raw text.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type { ZodType } from "zod";
import * as z from "zod";
import {
  type AgentEvent,
  createAgentSession,
  createSession,
  defineTool,
  runAgent,
  runAgentStream,
} from "../../src/index.ts";
import { calls, expectConsistent, requestBody, says, scripted } from "../support/agent.ts";
import { isPartOf } from "../support/json-parts.ts";
import {
  anthropicRequest,
  chatRequest,
  geminiRequest,
  responsesRequest,
} from "../support/request-schemas.ts";
import { okValue } from "../support/results.ts";

const City = z.object({ city: z.string(), celsius: z.number().int() });
const ANSWER = '{"city": "Oslo", "celsius": 21}';

const weather = defineTool({
  name: "weather",
  description: "The weather in a city",
  input: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: 21 °C`,
});

/** Where each API carries the schema in its request. */
const APIS: { model: string; schema: ZodType; native: (body: Record<string, unknown>) => unknown }[] = [
  {
    model: "anthropic/claude-sonnet-4-5",
    schema: anthropicRequest,
    native: (body) => (body.output_config as { format?: { schema?: unknown } })?.format?.schema,
  },
  {
    model: "openai/gpt-4o",
    schema: chatRequest,
    native: (body) => (body.response_format as { json_schema?: { schema?: unknown } })?.json_schema?.schema,
  },
  {
    model: "openai-responses/gpt-5",
    schema: responsesRequest,
    native: (body) => (body.text as { format?: { schema?: unknown } })?.format?.schema,
  },
  {
    model: "google/gemini-3-pro-preview",
    schema: geminiRequest(false),
    native: (body) => (body.generationConfig as { responseJsonSchema?: unknown })?.responseJsonSchema,
  },
];

describe.each(APIS)("on $model", ({ model, schema, native }) => {
  it("asks in the native mode beside tools, and gives the validated answer", async () => {
    const { model: scriptedModel, options } = scripted(
      [calls(["weather", { city: "Oslo" }]), says(ANSWER)],
      model,
    );
    const result = await runAgent(options({ tools: [weather], output: City }));
    if (!result.ok) throw result.error;
    expect(result.value.output).toEqual({ city: "Oslo", celsius: 21 });
    for (const index of [0, 1]) {
      const body = requestBody(scriptedModel, index);
      const parsed = schema.safeParse(body);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(native(body)).toMatchObject({ type: "object", properties: { city: { type: "string" } } });
      expect(body).toHaveProperty("tools");
    }
  });
});

it("Anthropic gets every object closed, as its structured outputs require", async () => {
  const { model, options } = scripted([says(ANSWER)]);
  await runAgent(options({ output: z.object({ place: z.object({ city: z.string() }) }) }));
  const sent = (requestBody(model, 0).output_config as { format: { schema: Record<string, any> } }).format
    .schema;
  expect(sent.additionalProperties).toBe(false);
  expect(sent.properties.place.additionalProperties).toBe(false);
});

it("Gemini before 3 with tools answers through a hidden answer tool it must call; a refused answer is sent back", async () => {
  const { model, options } = scripted(
    [
      calls(["weather", { city: "Oslo" }]),
      calls(["final_answer", { city: "Oslo", celsius: "warm" }]),
      calls(["final_answer", { city: "Oslo", celsius: 21 }]),
    ],
    "google/gemini-2.5-flash",
  );
  const result = await runAgent(options({ tools: [weather], output: City }));
  if (!result.ok) throw result.error;
  expect(result.value.output).toEqual({ city: "Oslo", celsius: 21 });
  expect(result.value.stopReason).toBe("complete");
  const body = requestBody(model, 0) as {
    tools: { functionDeclarations: { name: string }[] }[];
    toolConfig: unknown;
  };
  expect(body.tools[0]?.functionDeclarations.map((tool) => tool.name)).toEqual(["weather", "final_answer"]);
  expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY" } });
  expect(body).not.toHaveProperty("generationConfig");
  for (const index of [0, 1, 2])
    expect(geminiRequest(false).safeParse(requestBody(model, index)).success).toBe(true);
  // Every call is answered: the refused answer with the reason, the accepted one as received.
  expectConsistent(result.value.messages);
  const results = result.value.messages.filter((message) => message.role === "tool_result");
  expect(JSON.stringify(results.at(-2))).toContain("does not match the output schema: celsius");
  expect(JSON.stringify(results.at(-1))).toContain("Answer received.");
});

it("an answer through the hidden answer tool streams as output-partial too; text beside it does not", async () => {
  const { options } = scripted(
    [
      {
        content: [
          { type: "text", text: '{"city": "Bergen", "celsius": 9}' },
          { type: "tool_call", name: "final_answer", args: { city: "Oslo", celsius: 21 } },
        ],
      },
    ],
    "google/gemini-2.5-flash",
  );
  const run = runAgentStream(options({ tools: [weather], output: City }));
  const partials: unknown[] = [];
  for await (const event of run as AsyncIterable<AgentEvent>)
    if (event.type === "output-partial") partials.push(event.partial);
  const result = await run.result;
  expect(result.ok && result.value.output).toEqual({ city: "Oslo", celsius: 21 });
  expect(partials.length).toBeGreaterThan(0);
  for (const partial of partials) expect(isPartOf(partial, { city: "Oslo", celsius: 21 })).toBe(true);
  expect(partials.at(-1)).toEqual({ city: "Oslo", celsius: 21 });
});

it("streams partial objects, each its own copy and a part of the answer, and the final value", async () => {
  const Cities = z.object({ cities: z.array(z.object({ name: z.string(), celsius: z.number() })) });
  const answer = JSON.stringify({
    cities: Array.from({ length: 40 }, (_, index) => ({ name: `City number ${index}`, celsius: index })),
  });
  const { options } = scripted([says(answer)]);
  const run = runAgentStream(options({ output: Cities }));
  const partials: unknown[] = [];
  let deltas = 0;
  for await (const event of run as AsyncIterable<AgentEvent>) {
    if (event.type === "text-delta") deltas++;
    if (event.type === "output-partial") partials.push(event.partial);
    await new Promise((resolve) => setTimeout(resolve, 0)); // a consumer slower than the stream
  }
  // Copies, not one growing object: read later, each is still what it was when sent.
  const texts = partials.map((partial) => JSON.stringify(partial));
  expect(new Set(texts).size).toBe(texts.length);
  expect(texts.length).toBeGreaterThanOrEqual(3);
  expect(texts.length).toBeLessThan(deltas / 2);
  for (const partial of partials) expect(isPartOf(partial, JSON.parse(answer))).toBe(true);
  expect(texts.at(-1)).toBe(answer);
  const result = await run.result;
  expect(result.ok && result.value.output).toEqual(JSON.parse(answer));
});

it("an answer in a Markdown fence streams its partial objects too, the fence left out", async () => {
  const Cities = z.object({ cities: z.array(z.object({ name: z.string(), celsius: z.number() })) });
  const value = {
    cities: Array.from({ length: 20 }, (_, index) => ({ name: `City ${index}`, celsius: index })),
  };
  for (const opening of ["```json\n", "```\n", "  ```json  \r\n"]) {
    const { options } = scripted([says(`${opening}${JSON.stringify(value, null, 1)}\n\`\`\``)]);
    const run = runAgentStream(options({ output: Cities }));
    const partials: unknown[] = [];
    for await (const event of run as AsyncIterable<AgentEvent>)
      if (event.type === "output-partial") partials.push(event.partial);
    expect(partials.length, opening).toBeGreaterThanOrEqual(3);
    // Each sent once: the closing fence after the whole value sends nothing more.
    const texts = partials.map((partial) => JSON.stringify(partial));
    expect(new Set(texts).size).toBe(texts.length);
    for (const partial of partials) expect(isPartOf(partial, value)).toBe(true);
    expect(partials.at(-1)).toEqual(value);
    const result = await run.result;
    expect(result.ok && result.value.output).toEqual(value);
  }
  // However the fence's lines are cut: the opening split, the closing one in the value's last piece,
  // the whole answer in one piece.
  const json = JSON.stringify(value);
  const cuts = [
    ["``", "`", "json", "\n", json.slice(0, 40), json.slice(40, 200), json.slice(200), "\n```"],
    ["\n\n", "  ``", "`json  ", "\r", "\n", json.slice(0, 100), `${json.slice(100)}\n\`\`\``],
    [`\`\`\`json\n${json}\n\`\`\``],
  ];
  for (const pieces of cuts) {
    const { options } = scripted([says(pieces)]);
    const run = runAgentStream(options({ output: Cities }));
    const partials: unknown[] = [];
    for await (const event of run as AsyncIterable<AgentEvent>)
      if (event.type === "output-partial") partials.push(event.partial);
    expect(partials.at(-1), pieces.join("|").slice(0, 40)).toEqual(value);
    expect((await run.result).ok).toBe(true);
  }
  // A first line of backticks that does not end within 64 characters is not taken for a fence.
  {
    const { options } = scripted([says(["```", "json", " ".repeat(70), "\n", json, "\n```"])]);
    const run = runAgentStream(options({ output: Cities }));
    let partials = 0;
    for await (const event of run as AsyncIterable<AgentEvent>)
      if (event.type === "output-partial") partials++;
    expect(partials).toBe(0);
    expect((await run.result).ok).toBe(true); // the final check still reads it
  }
  // A fence of another language is not JSON: no partials, and the answer is refused as before.
  const { options } = scripted([says("```python\n{}\n```"), says("```python\n{}\n```")]);
  const run = runAgentStream(options({ output: Cities, outputRetries: 1 }));
  let partials = 0;
  for await (const event of run as AsyncIterable<AgentEvent>) if (event.type === "output-partial") partials++;
  expect(partials).toBe(0);
  expect(await run.result).toMatchObject({ ok: false, error: { code: "OUTPUT_INVALID" } });
});

it("a refused answer's partials keep their turn; the next answer's come under the next turn", async () => {
  const Point = z.object({ x: z.number(), label: z.string() });
  const refused = JSON.stringify({ x: "not a number", label: "a label long enough to stream in parts" });
  const accepted = JSON.stringify({ x: 1, label: "a label long enough to stream in parts" });
  const { options } = scripted([says(refused), says(accepted)]);
  const run = runAgentStream(options({ output: Point }));
  const partials: { turn: number; partial: unknown }[] = [];
  for await (const event of run as AsyncIterable<AgentEvent>)
    if (event.type === "output-partial") partials.push({ turn: event.turn, partial: event.partial });
  const turns = [...new Set(partials.map((event) => event.turn))];
  expect(turns).toHaveLength(2);
  expect(partials.filter((event) => event.turn === turns[0]).at(-1)?.partial).toEqual(JSON.parse(refused));
  expect(partials.at(-1)).toEqual({ turn: turns[1], partial: JSON.parse(accepted) });
  const result = await run.result;
  expect(result.ok && result.value.output).toEqual(JSON.parse(accepted));
});

it("the model is asked for what the schema takes in (a transform's input), and gets what it gives out", async () => {
  const Flag = z.object({ ok: z.stringbool() });
  const { model, options } = scripted([says('{"ok": "yes"}')]);
  const result = await runAgent(options({ output: Flag }));
  expect(result.ok && result.value.output).toEqual({ ok: true });
  const sent = (requestBody(model, 0).output_config as { format: { schema: any } }).format.schema;
  expect(sent.properties.ok.type).toBe("string");
});

it("Anthropic gets no constraint it refuses, and a property named like one stays", async () => {
  const Strict = z.object({
    count: z.number().int().min(1).max(9),
    pattern: z.string().min(2).regex(/^a/),
    tags: z.array(z.string()).min(2).max(5),
  });
  const { model, options } = scripted([says('{"count": 3, "pattern": "ab", "tags": ["x", "y"]}')]);
  const result = await runAgent(options({ output: Strict }));
  expect(result.ok).toBe(true);
  const sent = JSON.stringify((requestBody(model, 0).output_config as { format: unknown }).format);
  for (const keyword of ["minimum", "maximum", "minLength", '"pattern":"', "maxItems", '"minItems":2'])
    expect(sent).not.toContain(keyword);
  expect(sent).toContain('"pattern":{"type":"string"}');
  expect(anthropicRequest.safeParse(requestBody(model, 0)).success).toBe(true);
});

it("output retries stop at maxTurns too", async () => {
  const { model, options } = scripted([says("no"), says("no"), says("no")]);
  const result = await runAgent(options({ output: City, maxTurns: 1 }));
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.error.code).toBe("OUTPUT_INVALID");
  expect(model.requests).toHaveLength(1);
});

it("an answer the schema refuses goes back with the reason, and the corrected one is taken", async () => {
  const { model, options } = scripted([says('{"city": "Oslo", "celsius": "warm"}'), says(ANSWER)]);
  const result = await runAgent(options({ output: City }));
  if (!result.ok) throw result.error;
  expect(result.value.output).toEqual({ city: "Oslo", celsius: 21 });
  const retry = JSON.stringify(requestBody(model, 1));
  expect(retry).toContain("does not match the output schema: celsius");
});

it("after its retries, the run ends OUTPUT_INVALID with the raw text, and the conversation stays whole", async () => {
  const { options } = scripted([says("not json"), says("still not"), says('{"city": 1}')]);
  const result = await runAgent(options({ output: City, outputRetries: 2 }));
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error).toMatchObject({
    _tag: "ParseError",
    code: "OUTPUT_INVALID",
    details: { text: '{"city": 1}' },
  });
  expect(result.error.message).toMatch(/after 3 answers/);
  expect(result.partial.messages.map((message) => message.role)).toEqual([
    "user",
    "assistant",
    "user",
    "assistant",
    "user",
    "assistant",
  ]);
  expect(result.partial.output).toBeUndefined();
});

it("a fenced answer is read; a schema that cannot become JSON Schema is a ConfigError", async () => {
  const { options } = scripted([says(`\`\`\`json\n${ANSWER}\n\`\`\``)]);
  const fenced = await runAgent(options({ output: City }));
  expect(fenced.ok && fenced.value.output).toEqual({ city: "Oslo", celsius: 21 });
  // One fenced block inside prose (a model that ignored the JSON mode) is read too.
  const chatty = await runAgent(
    scripted([says(`Here you go:\n\`\`\`json\n${ANSWER}\n\`\`\`\nEnjoy!`)]).options({ output: City }),
  );
  expect(chatty.ok && chatty.value.output).toEqual({ city: "Oslo", celsius: 21 });
  // Two blocks: which one was meant is unknown, so the answer is refused (and the model asked again).
  const two = `A:\n\`\`\`json\n${ANSWER}\n\`\`\`\nB:\n\`\`\`json\n${ANSWER}\n\`\`\``;
  const { model: asked, options: twice } = scripted([says(two), says(ANSWER)]);
  const retried = await runAgent(twice({ output: City }));
  expect(retried.ok && retried.value.output).toEqual({ city: "Oslo", celsius: 21 });
  expect(asked.requests).toHaveLength(2);
  const mute = { "~standard": { version: 1, vendor: "valibot", validate: (value: unknown) => ({ value }) } };
  const refused = await runAgent(scripted([says(ANSWER)]).options({ output: mute as never }));
  expect(refused.ok).toBe(false);
  if (!refused.ok) expect(refused.error).toMatchObject({ code: "CONFIG_INVALID", path: "output" });
});

/** A tool whose calls wait for approval. */
const deploy = defineTool({
  name: "deploy",
  description: "Deploys",
  inputSchema: { type: "object", properties: {} },
  needsApproval: true,
  execute: () => "deployed",
});

describe("sessions", () => {
  it("a per-call output applies again when its paused run is resumed; a steered prompt may not set one", async () => {
    const { model } = scripted([calls(["deploy", {}]), says("not json"), says(ANSWER)]);
    const session = okValue(
      await createAgentSession({
        model: "anthropic/claude-sonnet-4-5",
        apiKey: "k",
        fetch: model.fetch,
        tools: [deploy],
      }),
    );
    const paused = await session.chat("Deploy, then report", { output: City });
    expect(paused.ok && paused.value.stopReason).toBe("approval");
    const toolCallId = (paused.ok && paused.value.pendingApprovals?.[0]?.toolCallId) as string;
    const resumed = await session.resume([{ toolCallId, approved: true }]);
    if (!resumed.ok) throw resumed.error;
    expect(resumed.value.output).toEqual({ city: "Oslo", celsius: 21 });
    expect(requestBody(model, 1)).toHaveProperty("output_config.format");

    const busy = okValue(
      await createAgentSession({
        model: "anthropic/claude-sonnet-4-5",
        apiKey: "k",
        fetch: scripted([{ ...says("slow"), delayMs: 50 }]).model.fetch,
      }),
    );
    const first = busy.chat("Go");
    const steered = await busy.chat("Also", { mode: "steer", output: City });
    expect(steered.ok).toBe(false);
    if (!steered.ok) expect(steered.error).toMatchObject({ code: "CONFIG_INVALID", path: "output" });
    await first;
  });

  it("resume takes its own output: the resumed run's answer is validated by it, and typed", async () => {
    const Report = z.object({ deployed: z.boolean() });
    const { model } = scripted([calls(["deploy", {}]), says('{"deployed": true}')]);
    const session = okValue(
      await createAgentSession({
        model: "anthropic/claude-sonnet-4-5",
        apiKey: "k",
        fetch: model.fetch,
        tools: [deploy],
      }),
    );
    const paused = await session.chat("Deploy");
    const toolCallId = (paused.ok && paused.value.pendingApprovals?.[0]?.toolCallId) as string;
    const resumed = await session.resume([{ toolCallId, approved: true }], { output: Report });
    if (!resumed.ok) throw resumed.error;
    expectTypeOf(resumed.value.output).toEqualTypeOf<{ deployed: boolean } | undefined>();
    expect(resumed.value.output).toEqual({ deployed: true });
    expect(requestBody(model, 1)).toHaveProperty("output_config.format");
    expect(requestBody(model, 0)).not.toHaveProperty("output_config");
    const bad = await session.resume([], { output: Report, outputs: Report } as never);
    expect(!bad.ok && bad.error).toMatchObject({ code: "CONFIG_INVALID", path: "outputs" });
  });

  it("a session's output applies to every run; chat's own output overrides it for one run, typed", async () => {
    const Count = z.object({ count: z.number() });
    const { model } = scripted([says(ANSWER), says('{"count": 3}')]);
    const session = okValue(
      await createAgentSession({
        model: "anthropic/claude-sonnet-4-5",
        apiKey: "k",
        fetch: model.fetch,
        output: City,
      }),
    );
    const first = await session.chat("Weather?");
    if (first.ok)
      expectTypeOf(first.value.output).toEqualTypeOf<{ city: string; celsius: number } | undefined>();
    expect(first.ok && first.value.output).toEqual({ city: "Oslo", celsius: 21 });
    const second = await session.chat("How many?", { output: Count });
    if (!second.ok) throw second.error;
    expectTypeOf(second.value.output).toEqualTypeOf<{ count: number } | undefined>();
    expect(second.value.output).toEqual({ count: 3 });
    expect(JSON.stringify(requestBody(model, 1))).toContain('"count"');
  });

  it("createSession's result message carries the output", async () => {
    const { model } = scripted([says(ANSWER)]);
    await using session = okValue(
      await createSession({
        model: "anthropic/claude-sonnet-4-5",
        apiKey: "k",
        fetch: model.fetch,
        output: City,
      }),
    );
    await session.send("Weather?");
    const results = [];
    for await (const message of session.receive()) if (message.type === "result") results.push(message);
    expect(results[0]?.output).toEqual({ city: "Oslo", celsius: 21 });
  });
});

it("runAgent types result.value.output by the schema", async () => {
  const { options } = scripted([says(ANSWER)]);
  const result = await runAgent({ ...options(), output: City });
  if (!result.ok) throw result.error;
  expectTypeOf(result.value.output).toEqualTypeOf<{ city: string; celsius: number } | undefined>();
  expect(result.value.output?.celsius).toBe(21);
});

it("a tool of the caller's named final_answer runs as any tool; where the hidden tool is needed, the name is refused", async () => {
  const own = defineTool({
    name: "final_answer",
    description: "The caller's own tool",
    inputSchema: { type: "object", properties: {} },
    execute: () => "ran",
  });
  const { options } = scripted([calls(["final_answer", {}]), says(ANSWER)]);
  const result = await runAgent(options({ tools: [own], output: City }));
  if (!result.ok) throw result.error;
  expect(result.value.toolCalls[0]?.result.output).toBe("ran");
  expect(result.value.output).toEqual({ city: "Oslo", celsius: 21 });

  const gemini = scripted([says(ANSWER)], "google/gemini-2.5-flash");
  const refused = await runAgent(gemini.options({ tools: [own], output: City }));
  expect(refused.ok).toBe(false);
  if (!refused.ok) expect(refused.error).toMatchObject({ code: "CONFIG_INVALID", path: "tools" });
  expect(gemini.model.requests).toHaveLength(0);
});

it("an answer given through the hidden tool still meets the stop hooks: a block sends the model back", async () => {
  const { model, options } = scripted(
    [
      calls(["weather", { city: "Oslo" }]),
      calls(["final_answer", { city: "Oslo", celsius: 20 }]),
      calls(["final_answer", { city: "Oslo", celsius: 21 }]),
    ],
    "google/gemini-2.5-flash",
  );
  let stops = 0;
  const result = await runAgent(
    options({
      tools: [weather],
      output: City,
      hooks: {
        stop: () =>
          ++stops === 1 ? { decision: "block", reason: "Check the temperature again." } : undefined,
      },
    }),
  );
  if (!result.ok) throw result.error;
  expect(stops).toBe(2);
  expect(result.value.output).toEqual({ city: "Oslo", celsius: 21 });
  expect(JSON.stringify(requestBody(model, 2))).toContain("Check the temperature again.");
  expectConsistent(result.value.messages);
});
