/**
 * `fromClaudeCode`: a Claude Code session transcript (JSONL) read into a Wisp SessionState.
 *
 * @module
 */

import { randomId } from "../message/random-id.ts";
import type { JsonObject, JsonValue, Message } from "../types.ts";
import { pathMessages } from "./claude-code-messages.ts";
import {
  activeLeaf,
  branchOf,
  claudeCodeTree,
  leaves,
  pathTo,
  warnOffPathCycles,
} from "./claude-code-tree.ts";
import { answerEveryCall, importedState, messagesFrom } from "./imported-state.ts";
import { continueWith } from "./model-choice.ts";
import { failedRead, noLines, unknownLeaf, unreadable } from "./read-failure.ts";
import { inLineOrder, type ObjectLine, objectLines, stringField } from "./transcript-lines.ts";
import type { TranscriptSource } from "./transcript-source.ts";
import type { ReadTranscriptOptions, ReadTranscriptResult, TranscriptWarning } from "./transcript-types.ts";

/** The fields of a line the reader uses; the rest (envelopes, progress data, tool outputs for display) is dropped. */
const USED = [
  "uuid",
  "parentUuid",
  "type",
  "subtype",
  "isSidechain",
  "agentId",
  "sessionId",
  "timestamp",
  "message",
] as const;

/** What a line before the last compaction keeps: enough to list it as a branch, nothing to read it. */
const SKELETON = ["uuid", "parentUuid", "type", "isSidechain", "agentId"] as const;

/** Only the fields of `value` named in `keys`, in a new object. */
function picked(value: JsonObject, keys: readonly string[]): JsonObject {
  const kept: JsonObject = {};
  for (const key of keys) if (key in value) kept[key] = value[key] as JsonValue;
  return kept;
}

/**
 * What a read that keeps no source holds of each line: the fields it uses, and nothing of a line that
 * is not in the tree. At a compaction boundary of the main conversation the lines before it are cut
 * down to their place in the tree (the active conversation starts after the boundary, so they can
 * only be listed as branches): memory is the conversation since the last compaction plus a few short
 * strings per older line, not the file.
 */
function lean(): (value: JsonObject, kept: ObjectLine[]) => JsonObject | undefined {
  let segmentStart = 0;
  return (value, kept) => {
    if (typeof value.uuid !== "string") return undefined;
    if (value.type === "system" && value.subtype === "compact_boundary" && value.isSidechain !== true) {
      for (let index = segmentStart; index < kept.length; index++) {
        const older = kept[index] as ObjectLine;
        kept[index] = { line: older.line, value: picked(older.value, SKELETON) };
      }
      segmentStart = kept.length;
    }
    return picked(value, USED);
  };
}

/**
 * Reads a Claude Code transcript (`~/.claude/projects/<project>/<session>.jsonl`, or a subagent's
 * file) into a SessionState holding its active branch: the conversation that ends at the last reply
 * or prompt, walked back by `parentUuid` to its start or its last compaction. A response written over
 * several lines becomes one message, and every tool result is paired with its call. Other branches and
 * subagent conversations are listed in `branches` (read one with `{ leaf }`), and with `keepSource`
 * (the default) every line of the file is kept, so `toClaudeCode` gives the same lines back.
 *
 * Never throws: a bad line is skipped with a warning naming its number; a file with nothing to read
 * is a ParseError `TRANSCRIPT_INVALID`.
 *
 * @param input The file's text, or a stream of it (read lazily, line by line).
 *
 * @example
 * ```ts no-run
 * import { createAgentSession } from "wisp-agent";
 * import { fromClaudeCode } from "wisp-agent/formats";
 *
 * const read = await fromClaudeCode(await file.text());
 * if (!read.ok) throw read.error;
 * for (const warning of read.value.warnings) console.warn(`line ${warning.line}: ${warning.message}`);
 * const created = await createAgentSession({ restore: read.value.state, apiKey });
 * ```
 */
export async function fromClaudeCode(
  input: string | ReadableStream<string>,
  options: ReadTranscriptOptions = {},
): Promise<ReadTranscriptResult> {
  // `null` from plain JavaScript reads as no options, not a rejection.
  options ??= {};
  const warnings: TranscriptWarning[] = [];
  let lines: ObjectLine[];
  const keepSource = options.keepSource !== false;
  let objects = 0;
  const keep = keepSource || options.leaf !== undefined ? (value: JsonObject) => value : lean();
  try {
    lines = await objectLines(input, warnings, (value, kept) => {
      objects++;
      return keep(value, kept);
    });
  } catch (cause) {
    return failedRead(cause, warnings);
  }
  if (objects === 0) return noLines(warnings);
  const tree = claudeCodeTree(lines, warnings);
  const leaf = options.leaf !== undefined ? tree.byUuid.get(options.leaf) : activeLeaf(tree);
  if (leaf === undefined) {
    if (options.leaf !== undefined) return unknownLeaf(options.leaf, warnings);
    return unreadable(
      "The transcript holds no user or assistant line with a uuid: it is not a Claude Code session",
      warnings,
    );
  }
  const path = pathTo(tree, leaf, warnings);
  warnOffPathCycles(tree, path, warnings);
  const read = pathMessages(tree, path, warnings);
  const lineOf = new Map<Message, number>(
    read.messages.map((message, index) => [message, read.lines[index] ?? 0]),
  );
  const messages = answerEveryCall(read.messages, (message) => lineOf.get(message) ?? 0, warnings);
  if (messages.length === 0)
    return unreadable(
      "No line of the transcript holds a message Wisp can read (the warnings say why)",
      warnings,
      leaf.line,
    );
  const onPath = new Set(path.map((node) => node.index));
  const source: TranscriptSource = {
    format: "claude-code",
    lines: lines.map((line) => line.value),
    messages: messagesFrom(messages, read.messages, read.ends),
  };
  const last = messages.findLast(
    (message) => message.role === "assistant" && message.model !== "<synthetic>",
  );
  const continued = continueWith(
    last?.role === "assistant" ? { provider: last.provider, model: last.model } : {},
    options.model,
  );
  const state = importedState(
    {
      sessionId: stringField(leaf.value, "sessionId") ?? randomId(),
      messages,
      ...continued,
      ...(keepSource ? { source } : {}),
    },
    warnings,
  );
  if (!state.ok) return state;
  return {
    ok: true,
    value: {
      state: state.value,
      format: "claude-code",
      leaf: leaf.uuid,
      branches: leaves(tree)
        .filter((node) => node !== leaf && !onPath.has(node.index) && !read.used.has(node.index))
        .map(branchOf),
      warnings: inLineOrder(warnings),
    },
  };
}
