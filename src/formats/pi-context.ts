/**
 * A path of pi entries → the conversation the model sees, as pi builds it: the last compaction's
 * summary first, then the entries it kept and those after it; custom messages, branch summaries and
 * shell runs as user messages; model and thinking level from the last change on the path.
 *
 * @module
 */

import { storableId } from "../message/storable-values.ts";
import type { Message, ProviderId, ThinkingLevel, ToolResultMessage } from "../types.ts";
import { piAssistant, piToolResult, piUserContent, providerOfPi } from "./pi-messages.ts";
import type { PiEntry } from "./pi-tree.ts";
import { contentKind, epochMs, objectField, stringField } from "./transcript-lines.ts";
import type { TranscriptWarning } from "./transcript-types.ts";

/** The words pi puts around a compaction summary when it sends it to the model. */
function compactionText(summary: string): string {
  return `The conversation history before this point was compacted into the following summary:\n\n<summary>\n${summary}\n</summary>`;
}

/** The words pi puts around a branch summary. */
function branchText(summary: string): string {
  return `The following is a summary of a branch that this conversation came back from:\n\n<summary>\n${summary}\n</summary>`;
}

/** The text pi sends for a shell command the user ran (`!command`). */
function shellText(message: Record<string, unknown>): string {
  let text = `Ran \`${String(message.command ?? "")}\`\n\`\`\`\n${String(message.output ?? "")}\n\`\`\``;
  if (message.cancelled === true) text += "\n\n(command cancelled)";
  else if (typeof message.exitCode === "number" && message.exitCode !== 0)
    text += `\n\nCommand exited with code ${message.exitCode}`;
  return text;
}

/** The conversation of a path, with where each message ends and the session's model settings. */
export interface PiConversation {
  messages: Message[];
  ends: number[];
  lines: number[];
  provider?: ProviderId | undefined;
  model?: string | undefined;
  thinking?: ThinkingLevel | undefined;
}

const KNOWN = new Set([
  "message",
  "thinking_level_change",
  "model_change",
  "compaction",
  "branch_summary",
  "custom",
  "custom_message",
  "label",
  "session_info",
]);

function thinkingLevel(value: unknown): ThinkingLevel | undefined {
  if (value === "xhigh") return "high";
  return value === "off" || value === "minimal" || value === "low" || value === "medium" || value === "high"
    ? value
    : undefined;
}

/** Where the conversation starts: after the path's last compaction, from the entry it kept first. */
function visible(
  path: PiEntry[],
  all: PiEntry[],
  warnings: TranscriptWarning[],
): { start: PiEntry[]; summary?: PiEntry } {
  const at = path.findLastIndex((entry) => entry.type === "compaction");
  if (at === -1) return { start: path };
  const compaction = path[at] as PiEntry;
  const keptId = stringField(compaction.value, "firstKeptEntryId");
  const keptIndex = compaction.value.firstKeptEntryIndex;
  // Version 1 counts the header as entry 0.
  const kept =
    keptId !== undefined
      ? path.findIndex((entry) => entry.id === keptId)
      : typeof keptIndex === "number"
        ? path.findIndex((entry) => entry === all.find((candidate) => candidate.index === keptIndex))
        : -1;
  if (kept === -1 && (keptId !== undefined || keptIndex !== undefined))
    warnings.push({
      line: compaction.line,
      message: "the first entry this compaction kept is not on the path; the conversation starts after it",
    });
  const before = kept === -1 || kept > at ? [] : path.slice(kept, at);
  return { start: [...before, ...path.slice(at + 1)], summary: compaction };
}

/** Reads the conversation of `path` (all entries of the file in `all`). */
export function piConversation(
  path: PiEntry[],
  all: PiEntry[],
  warnings: TranscriptWarning[],
): PiConversation {
  const read: PiConversation = { messages: [], ends: [], lines: [] };
  for (const entry of path) {
    // Settings come from the whole path, compacted part included, as pi reads them.
    if (entry.type === "thinking_level_change")
      read.thinking = thinkingLevel(entry.value.thinkingLevel) ?? read.thinking;
    if (entry.type === "model_change") {
      read.provider = providerOfPi(undefined, stringField(entry.value, "provider"));
      read.model = stringField(entry.value, "modelId") ?? read.model;
    }
    if (!KNOWN.has(entry.type))
      warnings.push({
        line: entry.line,
        message: `an entry of type ${JSON.stringify(entry.value.type) ?? "undefined"} (a newer pi?); kept, not read`,
      });
  }
  const { start, summary } = visible(path, all, warnings);
  let time = 0;
  const push = (message: Message, entry: PiEntry): void => {
    read.messages.push(message);
    read.ends.push(entry.index);
    read.lines.push(entry.line);
  };
  const userText = (entry: PiEntry, text: string): void =>
    push(
      { id: storableId(entry.id), role: "user", content: [{ type: "text", text }], timestamp: time },
      entry,
    );

  if (summary) {
    time = epochMs(summary.value.timestamp, time);
    userText(summary, compactionText(String(summary.value.summary ?? "")));
  }
  for (const entry of start) {
    time = epochMs(entry.value.timestamp, time);
    if (entry.type === "branch_summary") userText(entry, branchText(String(entry.value.summary ?? "")));
    if (entry.type === "custom_message") {
      const content = piUserContent(entry.value.content);
      if (content.length > 0)
        push({ id: storableId(entry.id), role: "user", content, timestamp: time }, entry);
    }
    if (entry.type !== "message") continue;
    const message = objectField(entry.value, "message") ?? {};
    time = epochMs(message.timestamp, time);
    const role = stringField(message, "role");
    if (role === "assistant") {
      const reply = piAssistant(message, storableId(entry.id), time, entry.line, warnings);
      push(reply, entry);
      read.provider = reply.provider;
      if (reply.model !== "") read.model = reply.model;
    } else if (role === "toolResult") {
      const last = read.messages.at(-1);
      if (last?.role === "tool_result") {
        last.content.push(piToolResult(message));
        read.ends[read.ends.length - 1] = entry.index;
      } else if (last?.role === "assistant") {
        const results: ToolResultMessage = {
          id: storableId(entry.id),
          role: "tool_result",
          content: [piToolResult(message)],
          timestamp: time,
        };
        push(results, entry);
      } else warnings.push({ line: entry.line, message: "a tool result that follows no reply; skipped" });
    } else if (role === "user" || role === "custom" || role === "hookMessage") {
      const content = piUserContent(message.content);
      if (content.length > 0)
        push({ id: storableId(entry.id), role: "user", content, timestamp: time }, entry);
      else
        warnings.push({
          line: entry.line,
          message: `a ${role} message with no text or image Wisp keeps (its content is ${contentKind(message.content)}); skipped`,
        });
    } else if (role === "bashExecution") {
      if (message.excludeFromContext !== true) userText(entry, shellText(message));
    } else
      warnings.push({
        line: entry.line,
        message: `a message of role ${JSON.stringify(role)}; kept, not read`,
      });
  }
  return read;
}
