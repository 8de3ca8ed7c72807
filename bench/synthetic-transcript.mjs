// A Claude Code transcript of any size, made from the real recording claude-code-tool-heavy.jsonl:
// its lines repeated with fresh uuids, tool ids and message ids each time, each copy chained to the
// last line of the one before, and a compaction (a `compact_boundary` line and its summary) every
// `compactEvery` bytes, as a long Claude Code session has. Produced chunk by chunk, so a reader can
// be fed 50 MB without the file ever being held whole.
import { readFileSync } from "node:fs";

const FIXTURE = new URL("../../shared/fixtures/sessions/claude-code-tool-heavy.jsonl", import.meta.url);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const PROVIDER_ID = /\b(toolu_|msg_|req_)([A-Za-z0-9]+)/g;

const template = readFileSync(FIXTURE, "utf8").trimEnd().split("\n");
const parsed = template.map((line) => JSON.parse(line));
const sessionId = parsed.find((line) => typeof line.sessionId === "string").sessionId;
const rootUuid = parsed.find((line) => typeof line.uuid === "string" && line.parentUuid === null).uuid;
const lastUuid = parsed.findLast((line) => typeof line.uuid === "string").uuid;

/** The uuid `uuid` becomes in copy `copy`: its last 12 hex digits replaced by the copy's number. */
function copied(uuid, copy) {
  return uuid === sessionId ? uuid : `${uuid.slice(0, 24)}${copy.toString(16).padStart(12, "0")}`;
}

/** Copy `copy` of the recording's lines, its root line parented on `parent`. */
function copyOf(copy, parent) {
  return template.map((line) => {
    let text = line.replace(UUID, (uuid) => copied(uuid, copy)).replace(PROVIDER_ID, `$1$2c${copy}`);
    if (parent !== null && line.includes(`"uuid":"${rootUuid}"`)) {
      text = text.replace('"parentUuid":null', `"parentUuid":"${parent}"`);
    }
    return text;
  });
}

/** A compaction: the boundary line (no parent, the previous leaf as its logical parent) and the summary. */
function compaction(index, leaf) {
  const boundary = `c0mpac7-${String(index).padStart(4, "0")}-4000-8000-000000000000`;
  const summary = `5umm4ry-${String(index).padStart(4, "0")}-4000-8000-000000000000`;
  const envelope = { isSidechain: false, userType: "external", cwd: "/work", sessionId, version: "2.1.0" };
  return [
    JSON.stringify({
      parentUuid: null,
      logicalParentUuid: leaf,
      ...envelope,
      type: "system",
      subtype: "compact_boundary",
      content: "Conversation compacted",
      level: "info",
      timestamp: "2026-01-01T00:00:00.000Z",
      uuid: boundary,
      isMeta: false,
      compactMetadata: { trigger: "auto", preTokens: 160000 },
    }),
    JSON.stringify({
      parentUuid: boundary,
      ...envelope,
      type: "user",
      message: {
        role: "user",
        content: `This session is being continued. Summary ${index}: files were read and edited.`,
      },
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
      uuid: summary,
      timestamp: "2026-01-01T00:00:00.000Z",
    }),
    summary,
  ];
}

/**
 * Chunks of a transcript of about `bytes` UTF-8 bytes (whole lines, each chunk one copy of the
 * recording), with a compaction every `compactEvery` bytes.
 */
export function* syntheticClaudeCode(bytes, compactEvery = 4 * 1024 * 1024) {
  const encoder = new TextEncoder();
  let written = 0;
  let sinceCompaction = 0;
  let parent = null;
  for (let copy = 1; written < bytes; copy++) {
    const lines = [];
    if (sinceCompaction >= compactEvery) {
      const [boundary, summary, leaf] = compaction(copy, copied(lastUuid, copy - 1));
      lines.push(boundary, summary);
      parent = leaf;
      sinceCompaction = 0;
    }
    lines.push(...copyOf(copy, parent));
    parent = copied(lastUuid, copy);
    const chunk = `${lines.join("\n")}\n`;
    const size = encoder.encode(chunk).length;
    written += size;
    sinceCompaction += size;
    yield chunk;
  }
}

/** A ReadableStream of text giving `chunks` (an iterable, read as the stream is), calling `onPull` each time. */
export function textStream(chunks, onPull = () => {}) {
  const iterator = chunks[Symbol.iterator]();
  return new ReadableStream({
    pull(controller) {
      onPull();
      const next = iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
}
