/**
 * A path through a Claude Code tree → Wisp messages. Claude Code writes each block of a response on
 * its own line, and a tool result on a line parented to its own tool_use line, so the lines of one
 * response are gathered by `message.id` and its results by `tool_use_id` — also those off the path,
 * which a walk up from the leaf alone would lose whenever the model called tools in parallel.
 *
 * @module
 */

import { storableId, storableUsage } from "../message/storable-values.ts";
import { mapAnthropicStopReason } from "../providers/anthropic/stop-reason.ts";
import { mergeAnthropicUsage } from "../providers/anthropic/usage.ts";
import type { AssistantMessage, Message, ToolResultPart, UserContentPart } from "../types.ts";
import { DEFAULT_PRICES } from "../usage/default-prices.ts";
import { costOf, findPrice } from "../usage/prices.ts";
import { emptyUsage } from "../usage/usage.ts";
import { assistantPart, contentBlocks, toolResultPart, userPart } from "./claude-code-blocks.ts";
import type { ClaudeCodeTree, TreeLine } from "./claude-code-tree.ts";
import { FALLBACK_MODEL, splitModel } from "./model-choice.ts";
import { contentKind, epochMs, objectField, stringField } from "./transcript-lines.ts";
import type { TranscriptWarning } from "./transcript-types.ts";

/** The messages of a path, the index of each one's last line, and every line they were read from. */
export interface PathMessages {
  messages: Message[];
  /** For each message: the index (among all lines) of the last line it was read from. */
  ends: number[];
  /** For each message: the number of its first line, for warnings. */
  lines: number[];
  /** Indexes of every line read into a message. */
  used: Set<number>;
}

function responseKey(node: TreeLine): string {
  return stringField(objectField(node.value, "message"), "id") ?? node.uuid;
}

/** Line types Claude Code writes (docs/transcript-formats.md 1.1); another type on the path is warned about. */
const KNOWN_TYPES = new Set([
  "user",
  "assistant",
  "system",
  "progress",
  "attachment",
  "summary",
  "file-history-snapshot",
  "queue-operation",
  "last-prompt",
  "custom-title",
  "ai-title",
  "tag",
  "agent-name",
  "agent-color",
  "agent-setting",
  "mode",
  "worktree-state",
  "pr-link",
  "attribution-snapshot",
  "content-replacement",
  "speculation-accept",
]);

/** The assistant message of one response's lines; a malformed block is skipped with a warning. */
function assistantMessage(
  group: TreeLine[],
  timestamp: number,
  warnings: TranscriptWarning[],
): AssistantMessage {
  const first = group[0] as TreeLine;
  const last = objectField((group.at(-1) as TreeLine).value, "message");
  // A reply Wisp wrote for another provider names it: "openai-responses/gpt-5.1".
  const named = splitModel(stringField(last, "model") ?? FALLBACK_MODEL);
  const foreign = named.provider !== undefined && named.provider !== "anthropic";
  const content = group.flatMap((node) => {
    const message = objectField(node.value, "message");
    const blocks = contentBlocks(message);
    const given = message?.content;
    // Content that is no list (or string) of blocks, or blocks that are no objects, are said, not lost quietly.
    const notBlocks = Array.isArray(given)
      ? given.length - blocks.length
      : typeof given === "string"
        ? 0
        : -1;
    if (notBlocks !== 0)
      warnings.push({
        line: node.line,
        message:
          notBlocks < 0
            ? `an assistant line whose content is ${contentKind(given)}; skipped`
            : notBlocks === 1
              ? "a block of an assistant line that is not an object; skipped"
              : `${notBlocks} blocks of an assistant line that are not objects; skipped`,
      });
    return blocks.flatMap((block) => {
      const part = assistantPart(block, foreign);
      if (part === undefined)
        warnings.push({ line: node.line, message: `a malformed ${String(block.type)} block; skipped` });
      return part ? [part] : [];
    });
  });
  const model = named.model ?? FALLBACK_MODEL;
  const usage = storableUsage(mergeAnthropicUsage(emptyUsage(), objectField(last, "usage") ?? {}));
  const price = findPrice(model, DEFAULT_PRICES);
  if (price) usage.costUsd = costOf(usage, price);
  const raw = stringField(last, "stop_reason");
  const stopSequence = stringField(last, "stop_sequence");
  const responseId = stringField(last, "id");
  return {
    id: storableId(first.uuid),
    role: "assistant",
    content,
    timestamp,
    provider: named.provider ?? "anthropic",
    model,
    usage,
    stopReason:
      raw !== undefined
        ? mapAnthropicStopReason(raw)
        : content.some((part) => part.type === "tool_call")
          ? "toolUse"
          : "complete",
    ...(raw !== undefined ? { rawStopReason: raw } : {}),
    ...(stopSequence !== undefined ? { stopSequence } : {}),
    ...(responseId !== undefined ? { responseId } : {}),
  };
}

/** Reads the messages of `path`, gathering each response's lines and results from the whole tree. */
export function pathMessages(
  tree: ClaudeCodeTree,
  path: TreeLine[],
  warnings: TranscriptWarning[],
): PathMessages {
  const responses = new Map<string, TreeLine[]>();
  const results = new Map<string, TreeLine>();
  for (const node of tree.ordered) {
    if (node.type === "assistant") {
      const key = responseKey(node);
      const group = responses.get(key);
      if (group) group.push(node);
      else responses.set(key, [node]);
    } else if (node.type === "user") {
      for (const block of contentBlocks(objectField(node.value, "message"))) {
        const id = stringField(block, "tool_use_id");
        if (block.type === "tool_result" && id !== undefined && !results.has(storableId(id)))
          results.set(storableId(id), node);
      }
    }
  }

  const read: PathMessages = { messages: [], ends: [], lines: [], used: new Set() };
  const answered = new Set<string>();
  let time = 0;
  const push = (message: Message, first: number, end: number): void => {
    read.messages.push(message);
    read.lines.push(first);
    read.ends.push(end);
  };
  /** The user parts of a line (not its tool results), with a warning for each block skipped. */
  const userParts = (node: TreeLine): UserContentPart[] =>
    contentBlocks(objectField(node.value, "message")).flatMap((block) => {
      if (block.type === "tool_result") return [];
      const part = userPart(block);
      if (part === undefined)
        warnings.push({
          line: node.line,
          message: `a ${String(block.type)} block has no Wisp form; skipped`,
        });
      return part ? [part] : [];
    });

  for (const node of path) {
    if (!KNOWN_TYPES.has(node.type ?? ""))
      warnings.push({
        line: node.line,
        message: `a line of type ${JSON.stringify(node.value.type) ?? "undefined"} (a newer Claude Code?); kept, not read`,
      });
    if (read.used.has(node.index) || (node.type !== "user" && node.type !== "assistant")) continue;
    time = epochMs(node.value.timestamp, time);
    if (node.type === "assistant") {
      const group = (responses.get(responseKey(node)) ?? [node]).filter((line) => !read.used.has(line.index));
      for (const line of group) read.used.add(line.index);
      const message = assistantMessage(group, time, warnings);
      push(message, node.line, (group.at(-1) as TreeLine).index);
      const resultParts: ToolResultPart[] = [];
      const resultLines: TreeLine[] = [];
      for (const part of message.content) {
        if (part.type !== "tool_call") continue;
        const line = results.get(part.id);
        if (line === undefined || answered.has(part.id)) continue;
        answered.add(part.id);
        const block = contentBlocks(objectField(line.value, "message")).find(
          (candidate) =>
            candidate.type === "tool_result" && storableId(String(candidate.tool_use_id)) === part.id,
        );
        if (block) resultParts.push(toolResultPart(block, part.name));
        if (!resultLines.includes(line)) resultLines.push(line);
      }
      if (resultLines.length === 0) continue;
      for (const line of resultLines) read.used.add(line.index);
      const first = resultLines[0] as TreeLine;
      const end = Math.max(...resultLines.map((line) => line.index));
      time = epochMs(first.value.timestamp, time);
      push(
        { id: storableId(first.uuid), role: "tool_result", content: resultParts, timestamp: time },
        first.line,
        end,
      );
      // A line that holds a result may also hold text ("[Request interrupted by user]").
      const extra = resultLines.flatMap(userParts);
      if (extra.length > 0)
        push(
          { id: storableId(`${first.uuid}-text`), role: "user", content: extra, timestamp: time },
          first.line,
          end,
        );
      continue;
    }
    read.used.add(node.index);
    for (const block of contentBlocks(objectField(node.value, "message")))
      if (block.type === "tool_result")
        warnings.push({
          line: node.line,
          message: `a result for tool call ${String(block.tool_use_id)}, which no reply before it made; skipped`,
        });
    const content = userParts(node);
    if (content.length > 0)
      push({ id: storableId(node.uuid), role: "user", content, timestamp: time }, node.line, node.index);
    else if (contentBlocks(objectField(node.value, "message")).length === 0)
      warnings.push({ line: node.line, message: "a user line with no message content; skipped" });
  }
  return read;
}
