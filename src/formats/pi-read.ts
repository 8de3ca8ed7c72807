/**
 * `fromPi`: a pi coding agent session file (JSONL, versions 1 to 3) read into a Wisp SessionState.
 *
 * @module
 */

import type { Message } from "../types.ts";
import { answerEveryCall, importedState, messagesFrom } from "./imported-state.ts";
import { continueWith } from "./model-choice.ts";
import { piConversation } from "./pi-context.ts";
import { PI_VERSION, providerOfPi } from "./pi-messages.ts";
import { type PiEntry, piEntries, piPath } from "./pi-tree.ts";
import { failedRead, noLines, unknownLeaf, unreadable } from "./read-failure.ts";
import { inLineOrder, type ObjectLine, objectLines, stringField } from "./transcript-lines.ts";
import type { ReadTranscriptOptions, ReadTranscriptResult, TranscriptWarning } from "./transcript-types.ts";

/**
 * Reads a pi session file (`~/.pi/agent/sessions/…/<time>_<id>.jsonl`) into a SessionState holding
 * the conversation pi would continue: the path to the file's last entry, from its last compaction's
 * summary on, with the model and thinking level last chosen on it. Other leaves (abandoned branches)
 * are listed in `branches`; read one with `{ leaf }`. With `keepSource` (the default) every line is
 * kept, so `toPi` gives the file back as it was, followed by what the session added.
 *
 * Never throws: a bad line is skipped with a warning naming its number; a file without a pi header
 * on its first line is a ParseError `TRANSCRIPT_INVALID` (pi itself would discard it).
 *
 * @param input The file's text, or a stream of it (read lazily, line by line).
 *
 * @example
 * ```ts no-run
 * import { fromPi } from "wisp-agent/formats";
 *
 * const read = await fromPi(await file.text());
 * if (read.ok) console.log(read.value.state.messages.length, read.value.warnings);
 * ```
 */
export async function fromPi(
  input: string | ReadableStream<string>,
  options: ReadTranscriptOptions = {},
): Promise<ReadTranscriptResult> {
  // `null` from plain JavaScript reads as no options, not a rejection.
  options ??= {};
  const warnings: TranscriptWarning[] = [];
  let lines: ObjectLine[];
  try {
    lines = await objectLines(input, warnings);
  } catch (cause) {
    return failedRead(cause, warnings);
  }
  const header = lines[0];
  if (header === undefined) return noLines(warnings);
  if (header.value.type !== "session" || typeof header.value.id !== "string")
    return unreadable(
      `Line ${header.line} is not a pi session header ({"type":"session","id":…}); pi would discard this file`,
      warnings,
      header.line,
    );
  const version = typeof header.value.version === "number" ? header.value.version : 1;
  if (version > PI_VERSION)
    warnings.push({
      line: header.line,
      message: `version ${version} is newer than ${PI_VERSION}; read as ${PI_VERSION}`,
    });
  const entries = piEntries(lines, version, warnings);
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const leaf = options.leaf !== undefined ? byId.get(options.leaf) : entries.at(-1);
  if (leaf === undefined && options.leaf !== undefined) return unknownLeaf(options.leaf, warnings);
  const path = leaf ? piPath(byId, leaf, warnings) : [];
  const read = piConversation(path, entries, warnings);
  const lineOf = new Map<Message, number>(
    read.messages.map((message, index) => [message, read.lines[index] ?? 0]),
  );
  const messages = answerEveryCall(read.messages, (message) => lineOf.get(message) ?? 0, warnings);
  const parents = new Set(entries.map((entry) => entry.parent));
  const onPath = new Set(path);
  const headerProvider = stringField(header.value, "provider");
  const continued = continueWith(
    {
      provider:
        read.provider ?? (headerProvider !== undefined ? providerOfPi(undefined, headerProvider) : undefined),
      model: read.model ?? stringField(header.value, "modelId"),
    },
    options.model,
  );
  const state = importedState(
    {
      sessionId: header.value.id,
      messages,
      ...continued,
      ...(read.thinking ? { thinking: read.thinking } : {}),
      ...(options.keepSource !== false
        ? {
            source: {
              format: "pi",
              lines: lines.map((line) => line.value),
              messages: messagesFrom(messages, read.messages, read.ends),
            },
          }
        : {}),
    },
    warnings,
  );
  if (!state.ok) return state;
  return {
    ok: true,
    value: {
      state: state.value,
      format: "pi",
      leaf: leaf?.id ?? "",
      branches: entries
        .filter((entry: PiEntry) => !parents.has(entry.id) && !onPath.has(entry))
        .map((entry) => ({ leaf: entry.id, line: entry.line, sidechain: false })),
      warnings: inLineOrder(warnings),
    },
  };
}
