/**
 * Layer `state` (docs/architecture.md): a stored conversation's shape, limits and tool-call pairing, checked on restore.
 *
 * The shape a restored SessionState must have, checked by Wisp's own small shape checker (fast on
 * megabytes of messages, and no schema library in a browser bundle). The limits keep a hostile or
 * corrupted file from exhausting memory later.
 *
 * @module
 */

import { isPlainJson, MAX_ID_LENGTH } from "../message/storable-values.ts";
import { imageProblem } from "../message/tool-image.ts";
import type { ImagePart, Message } from "../types.ts";
import { checkPermissionPolicyShape } from "./permission-shape.ts";
import {
  array,
  boolean,
  type Check,
  number,
  object,
  oneOf,
  optional,
  refine,
  satisfies,
  string,
  variant,
} from "./shape-check.ts";
import { MAX_STATE_MESSAGES, MAX_STATE_STRING } from "./state-limits.ts";

const text = string(0, MAX_STATE_STRING);
const anyString = string();
const id = string(1, MAX_ID_LENGTH);
/** A token count or turn count: what Wisp stores is always a non-negative safe integer. */
const count = refine(
  number(),
  (value) => Number.isSafeInteger(value) && value >= 0,
  "a non-negative integer",
);
const dollars = number({ min: 0 });
const time = number({ min: 0 });
// Checked in place, not copied: a copy would make a `__proto__` key that JSON.parse made an own key
// an inherited one, and tool arguments would then no longer match their approval digest.
const json = satisfies<Record<string, unknown>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value) && isPlainJson(value),
  "a JSON object",
);
const providerId = oneOf(["anthropic", "openai-chat", "openai-responses", "google"]);

const usage = object({
  input: count,
  output: count,
  cacheRead: count,
  cacheWrite: count,
  reasoning: count,
  costUsd: optional(dollars),
});

const textPart = object({
  type: oneOf(["text"]),
  text,
  citations: optional(array((value) => value)),
  signature: optional(text),
});
const imagePart = refine(
  object<ImagePart>({
    type: oneOf(["image"]),
    data: optional(text),
    mimeType: optional(anyString),
    url: optional(text),
  }),
  (image) => image.data !== undefined || image.url !== undefined,
  "an image with data or a url",
);
const toolCallPart = object({
  type: oneOf(["tool_call"]),
  id,
  name: anyString,
  args: json,
  rawArgs: optional(text),
  signature: optional(text),
});
const toolResultPart = object({
  type: oneOf(["tool_result"]),
  toolCallId: id,
  toolName: optional(anyString),
  output: text,
  images: optional(
    refine(
      array(refine(imagePart, (image) => imageProblem(image) === undefined, "an image every provider takes")),
      (images) => images.length > 0,
      "at least one image",
    ),
  ),
  isError: boolean,
});
const thinkingPart = object({ type: oneOf(["thinking"]), text, signature: optional(text) });
const redactedPart = object({ type: oneOf(["redacted_thinking"]), data: text });
const providerPart = object({ type: oneOf(["provider"]), provider: providerId, block: json });

const serializedError = object({
  _tag: anyString,
  name: anyString,
  code: anyString,
  message: anyString,
  retryable: boolean,
  status: optional(number()),
  retryAfterMs: optional(number()),
  provider: optional(anyString),
  requestId: optional(anyString),
  providerCode: optional(anyString),
  path: optional(anyString),
  details: optional(json),
  request: optional(object({ method: anyString, url: anyString })),
  attempts: optional(number()),
  causeCode: optional(anyString),
  cause: optional(json),
});

const userContent = array(variant("type", { text: textPart, image: imagePart }));

const userMessage = object({ id, role: oneOf(["user"]), content: userContent, timestamp: time });
const assistantMessage = object({
  id,
  role: oneOf(["assistant"]),
  content: array(
    variant("type", {
      text: textPart,
      tool_call: toolCallPart,
      thinking: thinkingPart,
      redacted_thinking: redactedPart,
      provider: providerPart,
    }),
  ),
  timestamp: time,
  provider: providerId,
  model: anyString,
  usage,
  stopReason: oneOf([
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
  rawStopReason: optional(anyString),
  stopSequence: optional(anyString),
  responseId: optional(anyString),
  error: optional(serializedError),
});
const toolResultMessage = object({
  id,
  role: oneOf(["tool_result"]),
  content: array(toolResultPart),
  timestamp: time,
});

/** One message of a conversation, by its role. */
export const checkMessage: Check<Message> = variant("role", {
  user: userMessage,
  assistant: assistantMessage,
  tool_result: toolResultMessage,
});

/** A conversation: the messages of a SessionState, or the `messages` given to `runAgent`. */
export const checkMessageList: Check<Message[]> = array(checkMessage, MAX_STATE_MESSAGES);

const hexDigest = satisfies<string>(
  (value) => typeof value === "string" && /^[0-9a-f]{64}$/.test(value),
  "64 lowercase hex digits",
);
const positiveInteger = number({ integer: true, above: 0 });

/** A SessionState of version 2 (the shape only; the conversation's rules are checked after). */
export const checkSessionStateShape: Check<object> = object({
  version: oneOf([2]),
  sessionId: id,
  createdAt: time,
  updatedAt: time,
  provider: providerId,
  model: string(1),
  systemPrompt: optional(text),
  thinking: optional(oneOf(["off", "minimal", "low", "medium", "high"])),
  // What the SDK would refuse to run with is refused here, so an import cannot make a dead session.
  parameters: object({
    maxTokens: optional(positiveInteger),
    temperature: optional(number({ min: 0, max: 2 })),
    stopSequences: optional(array(anyString)),
    maxTurns: optional(positiveInteger),
    sessionBudget: optional(
      object({ maxTokens: optional(number({ min: 0 })), maxCostUsd: optional(dollars) }),
    ),
  }),
  messages: checkMessageList,
  usage,
  turns: count,
  queue: array(object({ id, content: userContent, queuedAt: time })),
  metadata: json,
  pendingApprovals: array(
    object({
      toolCallId: id,
      toolName: anyString,
      args: json,
      reason: optional(text),
      requestedAt: time,
      holds: optional(array(id)),
      digest: hexDigest,
      signature: optional(hexDigest),
    }),
  ),
  pendingResults: array(toolResultPart),
  pendingQuestions: optional(
    array(
      object({
        toolCallId: id,
        toolName: anyString,
        // The questions' own rules (counts, distinct labels) are checked on restore (restore-questions.ts).
        questions: array(
          object({
            question: text,
            header: text,
            options: array(object({ label: text, description: optional(text) })),
            multiSelect: boolean,
          }),
        ),
        requestedAt: time,
        holds: optional(array(id)),
        digest: hexDigest,
        signature: optional(hexDigest),
      }),
    ),
  ),
  compaction: optional(
    object({ summary: refine(text, (value) => value.trim() !== "", "a summary"), firstKeptId: id, at: time }),
  ),
  toolPermissions: satisfies<Record<string, "allow" | "deny">>(
    (value) =>
      typeof value === "object" &&
      value !== null &&
      Object.getPrototypeOf(value) === Object.prototype &&
      Object.values(value).every((rule) => rule === "allow" || rule === "deny"),
    'tool names mapped to "allow" or "deny"',
  ),
  toolPermissionsSignature: optional(hexDigest),
  permissions: optional(checkPermissionPolicyShape),
  permissionsSignature: optional(hexDigest),
  // Forks: how the branches connect is checked after the shape (session/branches.ts).
  branches: optional(
    array(
      object({
        parentId: satisfies<string | null>((value) => value === null || isId(value), "a message id or null"),
        messages: refine(checkMessageList, (messages) => messages.length > 0, "at least one message"),
      }),
      MAX_STATE_MESSAGES,
    ),
  ),
});

/** Whether a value is a message id as a stored state holds it. */
function isId(value: unknown): boolean {
  return typeof value === "string" && value.length >= 1 && value.length <= MAX_ID_LENGTH;
}
