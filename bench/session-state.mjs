// Sessions: export + JSON.stringify + JSON.parse + restore (validated) of a 10,000-message session,
// and the heap an idle session costs beyond its messages.
import { createAgentSession, unwrap } from "wisp-agent";
import { median } from "./stats.mjs";

const MESSAGES = 10_000;
const ROUNDS = 7;
const SESSIONS = 1_000;

/**
 * A SessionState of `count` messages: user, assistant with signed thinking and a tool call, tool
 * result, assistant answer — repeated.
 */
export function bigState(count = MESSAGES) {
  const messages = [];
  const usage = { input: 120, output: 40, cacheRead: 0, cacheWrite: 0, reasoning: 0, costUsd: 0.00096 };
  for (let index = 0; messages.length < count; index++) {
    const id = `toolu_${String(index).padStart(8, "0")}`;
    const base = {
      timestamp: 1_790_000_000_000 + index,
      provider: "anthropic",
      model: "claude-sonnet-5-5",
      usage,
    };
    messages.push(
      {
        id: `u${index}`,
        role: "user",
        content: [{ type: "text", text: `Question ${index}: what is in file ${index}.txt?` }],
        timestamp: base.timestamp,
      },
      {
        ...base,
        id: `a${index}`,
        role: "assistant",
        stopReason: "toolUse",
        content: [
          { type: "thinking", text: "I should read the file first.", signature: "EqQBCkYIBxgCKkB".repeat(8) },
          { type: "text", text: "Let me read it." },
          { type: "tool_call", id, name: "read_file", args: { path: `${index}.txt` } },
        ],
      },
      {
        id: `r${index}`,
        role: "tool_result",
        content: [
          {
            type: "tool_result",
            toolCallId: id,
            toolName: "read_file",
            output: "lorem ipsum ".repeat(20),
            isError: false,
          },
        ],
        timestamp: base.timestamp,
      },
      {
        ...base,
        id: `b${index}`,
        role: "assistant",
        stopReason: "complete",
        content: [{ type: "text", text: `File ${index} holds lorem ipsum.` }],
      },
    );
  }
  return {
    version: 1,
    sessionId: "bench",
    createdAt: 1_790_000_000_000,
    updatedAt: 1_790_000_000_000,
    provider: "anthropic",
    model: "claude-sonnet-5-5",
    parameters: {},
    messages,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    turns: count / 2,
    queue: [],
    metadata: {},
  };
}

async function roundTrip(session) {
  const start = performance.now();
  const json = JSON.stringify(session.export());
  const restored = unwrap(await createAgentSession({ apiKey: "k", restore: JSON.parse(json) }));
  const ms = performance.now() - start;
  if (restored.export().messages.length !== MESSAGES) throw new Error("lost messages");
  return { ms, bytes: json.length };
}

function heapPerIdleSession() {
  if (typeof globalThis.gc !== "function") return undefined;
  const sessions = [];
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  return (async () => {
    for (let index = 0; index < SESSIONS; index++) {
      sessions.push(await createAgentSession({ model: "anthropic/claude-sonnet-5-5", apiKey: "k" }));
    }
    globalThis.gc();
    const after = process.memoryUsage().heapUsed;
    if (sessions.length !== SESSIONS) throw new Error("unreachable");
    return (after - before) / SESSIONS;
  })();
}

/** Measures sessions and returns the report section. */
export async function sessionStateSection() {
  const session = unwrap(await createAgentSession({ apiKey: "k", restore: bigState() }));
  await roundTrip(session); // warm-up
  const runs = [];
  for (let round = 0; round < ROUNDS; round++) runs.push(await roundTrip(session));
  const ms = median(runs.map((run) => run.ms));
  const heap = await heapPerIdleSession();
  return `## Sessions: export → JSON → restore, and idle cost

A ${MESSAGES.toLocaleString("en")}-message session (user, assistant with signed thinking and a tool call, tool
result, assistant answer; ${(runs[0].bytes / 1e6).toFixed(1)} MB of JSON): \`export()\` + \`JSON.stringify\` +
\`JSON.parse\` + \`createAgentSession({ restore })\` with full validation. Median of ${ROUNDS} rounds after a
warm-up. Target: under 200 ms.

| measure | value |
|---|---:|
| export + JSON + restore, ${MESSAGES.toLocaleString("en")} messages | ${ms.toFixed(1)} ms |
| heap per idle session (new, no messages; ${SESSIONS} sessions) | ${heap === undefined ? "n/a (run with --expose-gc)" : `${(heap / 1024).toFixed(1)} KB`} |
`;
}
