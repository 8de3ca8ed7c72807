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
import { calls, requestBody, says, scripted } from "../support/agent.ts";
import {
  anthropicRequest,
  chatRequest,
  geminiRequest,
  responsesRequest,
} from "../support/request-schemas.ts";

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
      expect(body).toHaveProperty(model.startsWith("google/") ? "tools" : "tools");
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

it("Gemini before 3 with tools is told the schema (it cannot combine a response schema with tools)", async () => {
  const { model, options } = scripted([says(ANSWER)], "google/gemini-2.5-flash");
  const result = await runAgent(options({ tools: [weather], output: City }));
  expect(result.ok && result.value.output).toEqual({ city: "Oslo", celsius: 21 });
  const body = requestBody(model, 0) as {
    generationConfig?: unknown;
    systemInstruction: { parts: { text: string }[] };
  };
  expect(body.generationConfig).toBeUndefined();
  expect(body.systemInstruction.parts.at(-1)?.text).toContain('"celsius"');
  expect(geminiRequest(false).safeParse(body).success).toBe(true);
});

it("streams partial objects, each a part of the answer, and the final value", async () => {
  const { options } = scripted([says(ANSWER)]);
  const run = runAgentStream(options({ output: City }));
  const partials: string[] = [];
  for await (const event of run as AsyncIterable<AgentEvent>)
    if (event.type === "output-partial") partials.push(JSON.stringify(event.partial));
  // The object appears before it is complete, grows, and ends as the answer.
  expect(partials[0]).toBe("{}");
  expect(new Set(partials).size).toBeGreaterThanOrEqual(3);
  expect(partials.at(-1)).toBe('{"city":"Oslo","celsius":21}');
  const result = await run.result;
  expect(result.ok && result.value.output).toEqual({ city: "Oslo", celsius: 21 });
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
  const mute = { "~standard": { version: 1, vendor: "valibot", validate: (value: unknown) => ({ value }) } };
  const refused = await runAgent(scripted([says(ANSWER)]).options({ output: mute as never }));
  expect(refused.ok).toBe(false);
  if (!refused.ok) expect(refused.error).toMatchObject({ code: "CONFIG_INVALID", path: "output" });
});

describe("sessions", () => {
  it("a session's output applies to every run; chat's own output overrides it for one run, typed", async () => {
    const Count = z.object({ count: z.number() });
    const { model } = scripted([says(ANSWER), says('{"count": 3}')]);
    const session = await createAgentSession({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      fetch: model.fetch,
      output: City,
    });
    const first = await session.chat("Weather?");
    expect(first.ok && first.value.output).toEqual({ city: "Oslo", celsius: 21 });
    const second = await session.chat("How many?", { output: Count });
    if (!second.ok) throw second.error;
    expectTypeOf(second.value.output).toEqualTypeOf<{ count: number } | undefined>();
    expect(second.value.output).toEqual({ count: 3 });
    expect(JSON.stringify(requestBody(model, 1))).toContain('"count"');
  });

  it("createSession's result message carries the output", async () => {
    const { model } = scripted([says(ANSWER)]);
    await using session = await createSession({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      fetch: model.fetch,
      output: City,
    });
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
