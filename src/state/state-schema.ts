/**
 * The zod/mini schema a restored SessionState must pass. zod/mini keeps this check small in a
 * browser bundle; the limits keep a hostile or corrupted file from exhausting memory later.
 *
 * @module
 */

import * as z from "zod/mini";
import { isPlainJson, MAX_ID_LENGTH } from "../stream/storable-values.ts";
import { MAX_STATE_MESSAGES, MAX_STATE_STRING } from "./state-limits.ts";

const text = z.string().check(z.maxLength(MAX_STATE_STRING));
const id = z.string().check(z.minLength(1), z.maxLength(MAX_ID_LENGTH));
/** A token count or turn count: what Wisp stores is always a non-negative safe integer. */
const count = z
  .number()
  .check(z.refine((value) => Number.isSafeInteger(value) && value >= 0, "a non-negative integer"));
const dollars = z.number().check(z.gte(0));
const time = z.number().check(z.gte(0));
// Checked in place, not copied: a copy through a record schema would drop a `__proto__` key that
// JSON.parse made an own key, and tool arguments would then no longer match their approval digest.
const json = z.custom<Record<string, unknown>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value) && isPlainJson(value),
  "a JSON object",
);
const providerId = z.enum(["anthropic", "openai-chat", "openai-responses", "google"]);

const usage = z.object({
  input: count,
  output: count,
  cacheRead: count,
  cacheWrite: count,
  reasoning: count,
  costUsd: z.optional(dollars),
});

const textPart = z.object({
  type: z.literal("text"),
  text,
  citations: z.optional(z.array(z.unknown())),
  signature: z.optional(text),
});
const imagePart = z.object({
  type: z.literal("image"),
  data: z.optional(text),
  mimeType: z.optional(z.string()),
  url: z.optional(text),
});
const toolCallPart = z.object({
  type: z.literal("tool_call"),
  id,
  name: z.string(),
  args: json,
  rawArgs: z.optional(text),
  signature: z.optional(text),
});
const toolResultPart = z.object({
  type: z.literal("tool_result"),
  toolCallId: id,
  toolName: z.optional(z.string()),
  output: text,
  isError: z.boolean(),
});
const thinkingPart = z.object({ type: z.literal("thinking"), text, signature: z.optional(text) });
const redactedPart = z.object({ type: z.literal("redacted_thinking"), data: text });
const providerPart = z.object({ type: z.literal("provider"), provider: providerId, block: json });

const serializedError = z.object({
  _tag: z.string(),
  name: z.string(),
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  status: z.optional(z.number()),
  retryAfterMs: z.optional(z.number()),
  provider: z.optional(z.string()),
  requestId: z.optional(z.string()),
  providerCode: z.optional(z.string()),
  path: z.optional(z.string()),
  details: z.optional(json),
  request: z.optional(z.object({ method: z.string(), url: z.string() })),
  attempts: z.optional(z.number()),
  causeCode: z.optional(z.string()),
  cause: z.optional(json),
});

const userMessage = z.object({
  id,
  role: z.literal("user"),
  content: z.array(z.discriminatedUnion("type", [textPart, imagePart])),
  timestamp: time,
});
const assistantMessage = z.object({
  id,
  role: z.literal("assistant"),
  content: z.array(
    z.discriminatedUnion("type", [textPart, toolCallPart, thinkingPart, redactedPart, providerPart]),
  ),
  timestamp: time,
  provider: providerId,
  model: z.string(),
  usage,
  stopReason: z.enum([
    "complete",
    "maxTokens",
    "toolUse",
    "pauseTurn",
    "refusal",
    "aborted",
    "error",
    "budget",
    "maxTurns",
    "hookStop",
  ]),
  rawStopReason: z.optional(z.string()),
  stopSequence: z.optional(z.string()),
  responseId: z.optional(z.string()),
  error: z.optional(serializedError),
});
const toolResultMessage = z.object({
  id,
  role: z.literal("tool_result"),
  content: z.array(toolResultPart),
  timestamp: time,
});

/** A conversation: the messages of a SessionState, or the `messages` given to `runAgent`. */
export const messagesSchema = z
  .array(z.discriminatedUnion("role", [userMessage, assistantMessage, toolResultMessage]))
  .check(z.maxLength(MAX_STATE_MESSAGES));

const hexDigest = z.string().check(z.regex(/^[0-9a-f]{64}$/));

/** A SessionState of version 2. */
export const sessionStateSchema = z.object({
  version: z.literal(2),
  sessionId: id,
  createdAt: time,
  updatedAt: time,
  provider: providerId,
  model: z.string().check(z.minLength(1)),
  systemPrompt: z.optional(text),
  thinking: z.optional(z.enum(["off", "minimal", "low", "medium", "high"])),
  // What the SDK would refuse to run with is refused here, so an import cannot make a dead session.
  parameters: z.object({
    maxTokens: z.optional(z.int().check(z.positive())),
    temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
    stopSequences: z.optional(z.array(z.string())),
    maxTurns: z.optional(z.int().check(z.positive())),
  }),
  messages: messagesSchema,
  usage,
  turns: count,
  queue: z.array(
    z.object({ id, content: z.array(z.discriminatedUnion("type", [textPart, imagePart])), queuedAt: time }),
  ),
  metadata: json,
  pendingApprovals: z.array(
    z.object({
      toolCallId: id,
      toolName: z.string(),
      args: json,
      reason: z.optional(text),
      requestedAt: time,
      digest: hexDigest,
      signature: z.optional(hexDigest),
    }),
  ),
  pendingResults: z.array(toolResultPart),
  toolPermissions: z.custom<Record<string, "allow" | "deny">>(
    (value) =>
      typeof value === "object" &&
      value !== null &&
      Object.getPrototypeOf(value) === Object.prototype &&
      Object.values(value).every((rule) => rule === "allow" || rule === "deny"),
    'tool names mapped to "allow" or "deny"',
  ),
  toolPermissionsSignature: z.optional(hexDigest),
});
