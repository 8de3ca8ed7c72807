/**
 * The request bodies of the four wire APIs, as their documentation describes them — what each
 * accepts, and the constraints that make a continued conversation fail with a 400 when broken
 * (tool results that answer no call, ids of the wrong form, thinking without its signature, a
 * Gemini 3 function call without a thought signature). Written from the API references, not from our
 * own output: Anthropic Messages, OpenAI Chat Completions and Responses (openai-node's request types),
 * and Gemini's `GenerateContentRequest`.
 */
import * as z from "zod";

const text = z.object({ type: z.literal("text"), text: z.string().min(1) }).strict();
/** Anthropic's cache breakpoint: `ephemeral`, with a five-minute (default) or one-hour life. */
const cacheControl = z
  .object({ type: z.literal("ephemeral"), ttl: z.enum(["5m", "1h"]).optional() })
  .strict()
  .optional();
/** Anthropic answers 400 "text content blocks must contain non-whitespace text" to an empty or blank block. */
const anthropicText = z
  .object({
    type: z.literal("text"),
    text: z.string().regex(/\S/, "text content blocks must contain non-whitespace text"),
    cache_control: cacheControl,
  })
  .strict();
const anthropicImage = z
  .object({
    type: z.literal("image"),
    source: z.union([
      z
        .object({
          type: z.literal("base64"),
          // The types Anthropic takes; data it cannot read is a 400.
          media_type: z.enum(["image/jpeg", "image/png", "image/gif", "image/webp"]),
          data: z.string().min(1),
        })
        .strict(),
      z.object({ type: z.literal("url"), url: z.string() }).strict(),
    ]),
    cache_control: cacheControl,
  })
  .strict();
/** Anthropic's documented tool_use id form. */
const toolUseId = z.string().regex(/^[a-zA-Z0-9_-]+$/);
const anthropicBlock = z.discriminatedUnion("type", [
  anthropicText,
  anthropicImage,
  z
    .object({
      type: z.literal("tool_use"),
      id: toolUseId,
      name: z.string(),
      input: z.record(z.string(), z.unknown()),
      cache_control: cacheControl,
    })
    .strict(),
  z
    .object({
      type: z.literal("tool_result"),
      tool_use_id: toolUseId,
      content: z.union([z.string(), z.array(z.union([anthropicText, anthropicImage]))]),
      is_error: z.boolean().optional(),
      cache_control: cacheControl,
    })
    .strict()
    // "all content must be type 'text' if 'is_error' is true"
    .refine(
      (block) =>
        block.is_error !== true ||
        typeof block.content === "string" ||
        block.content.every((part) => part.type === "text"),
      "an error tool_result holds only text",
    ),
  z.object({ type: z.literal("thinking"), thinking: z.string(), signature: z.string().min(1) }).strict(),
  z.object({ type: z.literal("redacted_thinking"), data: z.string().min(1) }).strict(),
  // Server-side compaction's summary, sent back as it came (compact-2026-01-12).
  z.object({ type: z.literal("compaction"), content: z.string(), cache_control: cacheControl }).strict(),
]);

/** Anthropic Messages (`POST /v1/messages`). */
export const anthropicRequest = z
  .object({
    model: z.string(),
    max_tokens: z.number().int().positive(),
    messages: z.array(
      z
        .object({
          role: z.enum(["user", "assistant"]),
          content: z.union([z.string(), z.array(anthropicBlock).min(1)]),
        })
        .strict(),
    ),
    system: z.union([z.string(), z.array(anthropicText)]).optional(),
    stream: z.literal(true),
    temperature: z.number().optional(),
    stop_sequences: z.array(z.string()).optional(),
    thinking: z.unknown().optional(),
    output_config: z
      .object({
        effort: z.string().optional(),
        // Structured outputs: the answer is JSON matching the schema.
        format: z
          .object({ type: z.literal("json_schema"), schema: z.record(z.string(), z.unknown()) })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
    tools: z.array(z.unknown()).optional(),
    context_management: z
      .object({
        edits: z.array(
          z
            .object({
              type: z.literal("compact_20260112"),
              trigger: z
                .object({ type: z.literal("input_tokens"), value: z.number().int().min(50_000) })
                .strict()
                .optional(),
              instructions: z.string().optional(),
              pause_after_compaction: z.boolean().optional(),
            })
            .strict(),
        ),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    // At most four cache breakpoints in a request (tools, system and messages together).
    const marks = JSON.stringify(body).split('"cache_control":').length - 1;
    if (marks > 4) ctx.addIssue({ code: "custom", message: `${marks} cache_control blocks; at most 4` });
    // Every tool_result answers a tool_use of the assistant message just before it.
    body.messages.forEach((message, index) => {
      if (message.role !== "user" || typeof message.content === "string") return;
      const previous = body.messages[index - 1];
      const calls = new Set(
        Array.isArray(previous?.content)
          ? previous.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []))
          : [],
      );
      for (const block of message.content) {
        if (block.type === "tool_result" && !calls.has(block.tool_use_id)) {
          ctx.addIssue({
            code: "custom",
            message: `tool_result ${block.tool_use_id} answers no tool_use`,
            path: ["messages", index],
          });
        }
      }
    });
  });

/** OpenAI's structured-output schema (Chat's `json_schema`, Responses' `text.format`): a name, the schema. */
const jsonSchemaFormat = z.object({
  name: z.string().regex(/^[\w-]{1,64}$/),
  schema: z.record(z.string(), z.unknown()),
  strict: z.boolean().optional(),
});

/** OpenAI Chat Completions (`POST /chat/completions`). */
export const chatRequest = z
  .object({
    model: z.string(),
    stream: z.literal(true),
    stream_options: z.object({ include_usage: z.boolean() }).strict().optional(),
    messages: z.array(
      z.union([
        z.object({ role: z.enum(["system", "developer"]), content: z.string() }).strict(),
        z
          .object({
            role: z.literal("user"),
            content: z.union([
              z.string(),
              z.array(
                z.union([
                  text,
                  z
                    .object({
                      type: z.literal("image_url"),
                      image_url: z.object({ url: z.string() }).strict(),
                    })
                    .strict(),
                ]),
              ),
            ]),
          })
          .strict(),
        z
          .object({
            role: z.literal("assistant"),
            content: z.string().nullable(),
            tool_calls: z
              .array(
                z
                  .object({
                    id: z.string().max(40),
                    type: z.literal("function"),
                    function: z.object({ name: z.string(), arguments: z.string() }).strict(),
                  })
                  .strict(),
              )
              .optional(),
          })
          .strict(),
        z.object({ role: z.literal("tool"), tool_call_id: z.string().max(40), content: z.string() }).strict(),
      ]),
    ),
    max_tokens: z.number().optional(),
    max_completion_tokens: z.number().optional(),
    temperature: z.number().optional(),
    reasoning_effort: z.string().optional(),
    prompt_cache_key: z.string().max(1024).optional(),
    prompt_cache_retention: z.enum(["in_memory", "24h"]).optional(),
    response_format: z
      .object({
        type: z.literal("json_schema"),
        json_schema: jsonSchemaFormat.strict(),
      })
      .strict()
      .optional(),
    stop: z.array(z.string()).optional(),
    tools: z.array(z.unknown()).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    // A tool message answers a call of the latest assistant message with tool_calls, and those calls
    // are all answered by the tool messages right after it, before any other message.
    let open = new Set<string>();
    let unanswered = new Set<string>();
    body.messages.forEach((message, index) => {
      if (message.role !== "tool" && unanswered.size > 0) {
        ctx.addIssue({
          code: "custom",
          message: `tool calls ${[...unanswered].join(", ")} are not answered right after the assistant message`,
          path: ["messages", index],
        });
      }
      if (message.role === "assistant") {
        open = new Set(message.tool_calls?.map((call) => call.id) ?? []);
        unanswered = new Set(open);
      } else if (message.role === "tool") {
        if (!open.has(message.tool_call_id)) {
          ctx.addIssue({
            code: "custom",
            message: `tool message ${message.tool_call_id} answers no call`,
            path: ["messages", index],
          });
        }
        unanswered.delete(message.tool_call_id);
      } else unanswered = new Set();
    });
  });

const responsesInput = z.union([
  z.object({ type: z.literal("input_text"), text: z.string() }).strict(),
  z
    .object({
      type: z.literal("input_image"),
      image_url: z.string(),
      detail: z.enum(["low", "high", "auto"]),
    })
    .strict(),
]);

const responsesItem = z.union([
  z
    .object({
      role: z.literal("user"),
      content: z.array(responsesInput),
    })
    .strict(),
  z.object({ role: z.literal("assistant"), content: z.string() }).strict(),
  z
    .object({
      type: z.literal("function_call"),
      call_id: z.string().min(1),
      name: z.string(),
      arguments: z.string(),
    })
    .strict(),
  z
    .object({
      type: z.literal("function_call_output"),
      call_id: z.string().min(1),
      // Text, or text, image and file inputs (a tool that returns images).
      output: z.union([z.string(), z.array(responsesInput).min(1)]),
    })
    .strict(),
  // Server-side compaction's item, opaque, sent back as it came.
  z
    .object({
      type: z.literal("compaction"),
      id: z.string().optional(),
      encrypted_content: z.string().min(1),
    })
    .strict(),
  // A reasoning item goes back as the API produced it: its id, summary and encrypted content.
  z
    .object({
      type: z.literal("reasoning"),
      id: z.string().startsWith("rs_"),
      summary: z.array(z.object({ type: z.literal("summary_text"), text: z.string() }).strict()),
      encrypted_content: z.string().min(1).nullable().optional(),
      status: z.string().optional(),
    })
    .strict(),
]);

/** OpenAI Responses (`POST /responses`). */
export const responsesRequest = z
  .object({
    model: z.string(),
    input: z.array(responsesItem),
    stream: z.literal(true),
    store: z.boolean(),
    include: z.array(z.literal("reasoning.encrypted_content")).optional(),
    instructions: z.string().optional(),
    max_output_tokens: z.number().optional(),
    temperature: z.number().optional(),
    reasoning: z.object({ effort: z.string(), summary: z.string() }).strict().optional(),
    prompt_cache_key: z.string().max(1024).optional(),
    prompt_cache_retention: z.enum(["in_memory", "24h"]).optional(),
    context_management: z
      .array(
        z.object({ type: z.literal("compaction"), compact_threshold: z.number().int().positive() }).strict(),
      )
      .optional(),
    text: z
      .object({
        format: jsonSchemaFormat.extend({ type: z.literal("json_schema") }).strict(),
      })
      .strict()
      .optional(),
    tools: z.array(z.unknown()).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    const calls = new Set<string>();
    body.input.forEach((item, index) => {
      if ("type" in item && item.type === "function_call") calls.add(item.call_id);
      if ("type" in item && item.type === "function_call_output" && !calls.has(item.call_id)) {
        ctx.addIssue({
          code: "custom",
          message: `function_call_output ${item.call_id} answers no call`,
          path: ["input", index],
        });
      }
    });
  });

const geminiInline = z
  .object({ inlineData: z.object({ mimeType: z.string(), data: z.string() }).strict() })
  .strict();
const geminiFile = z
  .object({ fileData: z.object({ fileUri: z.string(), mimeType: z.string() }).strict() })
  .strict();

const geminiPart = z.union([
  z
    .object({ text: z.string(), thought: z.boolean().optional(), thoughtSignature: z.string().optional() })
    .strict(),
  geminiInline,
  geminiFile,
  z
    .object({
      functionCall: z
        .object({ name: z.string(), args: z.record(z.string(), z.unknown()), id: z.string().optional() })
        .strict(),
      thoughtSignature: z.string().optional(),
    })
    .strict(),
  z
    .object({
      functionResponse: z
        .object({
          name: z.string(),
          response: z.record(z.string(), z.unknown()),
          id: z.string().optional(),
          // A multimodal function response's media (Gemini 3): inline data or a file URI each.
          parts: z
            .array(z.union([geminiInline, geminiFile]))
            .min(1)
            .optional(),
        })
        .strict(),
    })
    .strict(),
]);

/** Gemini `GenerateContentRequest` (`POST …:streamGenerateContent?alt=sse`); `gemini3` adds its signature rule. */
export const geminiRequest = (gemini3: boolean) =>
  z
    .object({
      contents: z.array(
        z.object({ role: z.enum(["user", "model"]), parts: z.array(geminiPart).min(1) }).strict(),
      ),
      systemInstruction: z
        .object({ parts: z.array(z.object({ text: z.string() }).strict()) })
        .strict()
        .optional(),
      generationConfig: z.record(z.string(), z.unknown()).optional(),
      tools: z.array(z.unknown()).optional(),
      toolConfig: z
        .object({
          functionCallingConfig: z
            .object({
              mode: z.enum(["AUTO", "ANY", "NONE", "VALIDATED"]),
              allowedFunctionNames: z.array(z.string()).optional(),
            })
            .strict(),
        })
        .strict()
        .optional(),
    })
    .strict()
    .superRefine((body, ctx) => {
      body.contents.forEach((content, index) => {
        const calls = content.parts.filter((part) => "functionCall" in part);
        // Gemini 3 rejects a function call without the thought signature (the first call of a turn).
        if (gemini3 && calls.length > 0 && !("thoughtSignature" in (calls[0] as object))) {
          ctx.addIssue({
            code: "custom",
            message: "a function call without a thoughtSignature",
            path: ["contents", index],
          });
        }
        // Function responses answer the previous model turn's calls, one each.
        const responses = content.parts.filter((part) => "functionResponse" in part).length;
        if (responses > 0) {
          const previous =
            body.contents[index - 1]?.parts.filter((part) => "functionCall" in part).length ?? 0;
          if (previous !== responses) {
            ctx.addIssue({
              code: "custom",
              message: `${responses} responses for ${previous} calls`,
              path: ["contents", index],
            });
          }
        }
      });
    });
