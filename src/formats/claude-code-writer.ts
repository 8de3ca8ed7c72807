/**
 * Wisp messages → Claude Code transcript lines, written the way Claude Code writes them: each block of
 * a reply on its own line sharing the reply's `message.id`, each tool result on a user line parented
 * to its tool_use line, every line carrying the session's envelope (`sessionId`, `cwd`, `version`, …).
 *
 * @module
 */

import { toolCallIdFor } from "../message/tool-call-ids.ts";
import { imageBlock, TOOL_USE_ID } from "../providers/anthropic/request.ts";
import type {
  AssistantContentPart,
  AssistantMessage,
  JsonObject,
  Message,
  StopReason,
  ToolResultMessage,
  UserMessage,
} from "../types.ts";
import { thinkingMarker } from "./claude-code-blocks.ts";
import { qualifiedModel } from "./model-choice.ts";
import { derivedUuid } from "./stable-ids.ts";
import { isoTime, LineBuffer, type TranscriptWriter } from "./transcript-writer.ts";
import { checkClaudeCodeCursor, checkedMessage, checkedSessionId } from "./writer-input.ts";

/** Where a Claude Code writer stands: the line to parent the next one on, and the calls awaiting results. */
export interface ClaudeCodeCursor {
  /** The uuid of the last line written (null before the first). */
  parentUuid: string | null;
  /** Tool call id → uuid of its tool_use line, for calls whose result is not written yet. */
  calls: Record<string, string>;
}

/** Options for {@link claudeCodeWriter}. */
export interface ClaudeCodeWriterOptions {
  /** The session id every line carries. */
  sessionId: string;
  /** The working directory Claude Code shows and resumes the session in (default `/`). */
  cwd?: string;
  /** The Claude Code version the lines claim (default `2.1.39`, the newest in Wisp's fixtures). */
  version?: string;
  /** The git branch every line claims (default empty, as Claude Code writes outside a repository). */
  gitBranch?: string;
  /** Continue after lines written before (a writer's `cursor`). */
  cursor?: ClaudeCodeCursor;
  /**
   * Envelope fields to copy onto every line instead of the defaults (Wisp takes them from the last
   * line of a file it read: `userType`, `isSidechain`, `agentId`, `slug`, …).
   */
  envelope?: JsonObject;
}

const ANTHROPIC_STOP: Partial<Record<StopReason, string>> = {
  complete: "end_turn",
  maxTokens: "max_tokens",
  toolUse: "tool_use",
  pauseTurn: "pause_turn",
  refusal: "refusal",
};

/** The Anthropic block for a part, or undefined for what a Claude Code file cannot carry. */
function block(part: AssistantContentPart, own: boolean): JsonObject | undefined {
  switch (part.type) {
    case "text":
      return own && part.citations
        ? { type: "text", text: part.text, citations: part.citations }
        : { type: "text", text: part.text };
    case "thinking":
      // A signature goes back only to the provider that made it; other thinking is kept as marked text.
      if (own && part.signature) return { type: "thinking", thinking: part.text, signature: part.signature };
      return part.text === "" ? undefined : { type: "text", text: thinkingMarker(part.text) };
    case "redacted_thinking":
      return own ? { type: "redacted_thinking", data: part.data } : undefined;
    case "tool_call":
      return { type: "tool_use", id: toolCallIdFor(part.id, TOOL_USE_ID), name: part.name, input: part.args };
    case "provider":
      return part.provider === "anthropic" ? part.block : undefined;
  }
}

/**
 * A writer of Claude Code transcript lines. Append each message as the session makes it and
 * `flush()` the new lines onto the end of the file.
 *
 * @example
 * ```ts no-run
 * import { claudeCodeWriter } from "wisp-agent/formats";
 *
 * const writer = claudeCodeWriter({ sessionId: session.id, cwd: "/home/me/project" });
 * for (const message of result.value.messages) writer.append(message);
 * await appendToFile(writer.flush());
 * ```
 */
export function claudeCodeWriter(options: ClaudeCodeWriterOptions): TranscriptWriter<ClaudeCodeCursor> {
  checkedSessionId(options?.sessionId);
  checkClaudeCodeCursor(options.cursor);
  const buffer = new LineBuffer();
  let parentUuid = options.cursor?.parentUuid ?? null;
  const calls = new Map(Object.entries(options.cursor?.calls ?? {}));
  const envelope: JsonObject = options.envelope ?? {
    isSidechain: false,
    userType: "external",
    cwd: options.cwd ?? "/",
    sessionId: options.sessionId,
    version: options.version ?? "2.1.39",
    gitBranch: options.gitBranch ?? "",
  };

  const line = (parent: string | null, uuid: string, fields: JsonObject, timestamp: number): void => {
    buffer.push({ parentUuid: parent, ...envelope, ...fields, uuid, timestamp: isoTime(timestamp) });
  };
  const user = (message: UserMessage): void => {
    const only = message.content[0];
    const content =
      message.content.length === 1 && only?.type === "text"
        ? only.text
        : message.content.map(
            (part): JsonObject =>
              part.type === "text" ? { type: "text", text: part.text } : imageBlock(part),
          );
    const uuid = derivedUuid(options.sessionId, message.id);
    line(parentUuid, uuid, { type: "user", message: { role: "user", content } }, message.timestamp);
    parentUuid = uuid;
  };
  const assistant = (message: AssistantMessage): void => {
    const own = message.provider === "anthropic";
    const blocks = message.content.flatMap((part): JsonObject[] => {
      const converted = block(part, own);
      return converted ? [converted] : [];
    });
    const usage = {
      input_tokens: message.usage.input,
      cache_creation_input_tokens: message.usage.cacheWrite,
      cache_read_input_tokens: message.usage.cacheRead,
      output_tokens: message.usage.output,
    };
    const id = message.responseId ?? `msg_${derivedUuid(options.sessionId, message.id).replaceAll("-", "")}`;
    for (const [index, content] of blocks.entries()) {
      const last = index === blocks.length - 1;
      const body = {
        model: qualifiedModel(message.provider, message.model),
        id,
        type: "message",
        role: "assistant",
        content: [content],
        stop_reason: last ? (ANTHROPIC_STOP[message.stopReason] ?? null) : null,
        stop_sequence: last ? (message.stopSequence ?? null) : null,
        usage,
      };
      const uuid = derivedUuid(options.sessionId, message.id, String(index));
      if (content.type === "tool_use") calls.set(content.id as string, uuid);
      line(parentUuid, uuid, { message: body, type: "assistant" }, message.timestamp);
      parentUuid = uuid;
    }
  };
  const results = (message: ToolResultMessage): void => {
    for (const part of message.content) {
      const id = toolCallIdFor(part.toolCallId, TOOL_USE_ID);
      const source = calls.get(id);
      calls.delete(id);
      const uuid = derivedUuid(options.sessionId, message.id, id);
      const result: JsonObject = {
        tool_use_id: id,
        type: "tool_result",
        content: part.images?.length
          ? [
              ...(part.output === "" ? [] : [{ type: "text", text: part.output }]),
              ...part.images.map(imageBlock),
            ]
          : part.output,
        is_error: part.isError,
      };
      line(
        source ?? parentUuid,
        uuid,
        {
          type: "user",
          message: { role: "user", content: [result] },
          toolUseResult: part.isError ? `Error: ${part.output}` : part.output,
          ...(source ? { sourceToolAssistantUUID: source } : {}),
        },
        message.timestamp,
      );
      parentUuid = uuid;
    }
  };

  return {
    append(input: Message): void {
      const message = checkedMessage(input);
      if (message.role === "user") user(message);
      else if (message.role === "assistant") assistant(message);
      else results(message);
    },
    flush: () => buffer.flush(),
    close: () => buffer.close(),
    get cursor(): ClaudeCodeCursor {
      return { parentUuid, calls: Object.fromEntries(calls) };
    },
  };
}
