// The Worker scaling bench's tools (bench/worker-scaling.mjs): the workerd process's CPU time and
// bytes written, read from /proc; the demo API calls it makes; and sessions of any length to import.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

/** Clock ticks a second of /proc's utime and stime (USER_HZ): 100 on Linux unless getconf says else. */
export const TICKS_PER_SECOND = (() => {
  try {
    const hz = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
    return Number.isInteger(hz) && hz > 0 ? hz : 100;
  } catch {
    return 100;
  }
})();

/** `/proc/<pid>/stat`'s command name and fields after it (field 3 on), or undefined once it is gone. */
function statOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    return { comm: stat.slice(stat.indexOf("(") + 1, close), fields: stat.slice(close + 2).split(" ") };
  } catch {
    return undefined;
  }
}

/** The children of `pid`: from /proc/<pid>/task/<tid>/children, else by every process's parent id. */
function childrenOf(pid) {
  try {
    const children = [];
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      if (text !== "") children.push(...text.split(" ").map(Number));
    }
    return children;
  } catch {
    return readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .filter((child) => statOf(child)?.fields[1] === String(pid));
  }
}

/** The `workerd` processes among this process's descendants (the Workers this process started). */
export function workerdPids() {
  const found = [];
  const queue = childrenOf(process.pid);
  while (queue.length > 0) {
    const pid = queue.shift();
    if (statOf(pid)?.comm === "workerd") found.push(pid);
    queue.push(...childrenOf(pid));
  }
  return found.sort((a, b) => a - b);
}

/**
 * What `pids` have used so far: CPU time in ms (utime + stime, whole ticks) and the bytes they passed to
 * write calls (`wchar` of /proc/<pid>/io: files and sockets alike; undefined where it cannot be read).
 */
export function usageOf(pids) {
  let ticks = 0;
  let written = 0;
  for (const pid of pids) {
    const stat = statOf(pid);
    if (stat === undefined) throw new Error(`workerd ${pid} is gone`);
    ticks += Number(stat.fields[11]) + Number(stat.fields[12]);
    try {
      written += Number(/^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))[1]);
    } catch {
      written = Number.NaN;
    }
  }
  return { cpuMs: (ticks * 1000) / TICKS_PER_SECOND, written: Number.isNaN(written) ? undefined : written };
}

/** What `pids` used while `work` ran (plus `settleMs` after it), with `work`'s result and wall time. */
export async function measured(work, settleMs = 0) {
  const pids = workerdPids();
  if (pids.length === 0) throw new Error("no workerd process found among this process's descendants");
  const before = usageOf(pids);
  const started = performance.now();
  const result = await work();
  const wallMs = performance.now() - started;
  if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
  const after = usageOf(pids);
  const written =
    before.written === undefined || after.written === undefined ? undefined : after.written - before.written;
  return { result, wallMs, cpuMs: after.cpuMs - before.cpuMs, written };
}

/** A TCP port free right now on 127.0.0.1, for a Worker to be started on twice. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** An API answer that is not the expected status, as "HTTP 413 SESSION_TOO_LARGE". */
async function failure(response) {
  const text = await response.text();
  let code = "";
  try {
    code = JSON.parse(text).error?.code ?? "";
  } catch {
    code = text.slice(0, 60);
  }
  return `HTTP ${response.status}${code ? ` ${code}` : ""}`;
}

/** A new empty session: `{ sessionId, token }`. */
export async function createSession(url) {
  const response = await fetch(`${url}/api/sessions`, { method: "POST" });
  if (response.status !== 201) throw new Error(`create: ${await failure(response)}`);
  return response.json();
}

/** Imports `body` (a string) as `contentType`: `{ ok: true, session }` or `{ ok: false, error }`. */
export async function importSession(url, body, contentType) {
  const response = await fetch(`${url}/api/sessions/import`, {
    method: "POST",
    headers: { "content-type": contentType },
    body,
  });
  if (response.status !== 201) return { ok: false, error: await failure(response) };
  return { ok: true, session: await response.json() };
}

/** The session's export read whole: `{ ok, chars, text }` (`error` when refused). */
export async function exportSession(url, session, format) {
  const query = format === undefined ? "" : `?format=${format}`;
  const response = await fetch(`${url}/api/sessions/${session.sessionId}/export${query}`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  if (response.status !== 200) return { ok: false, error: await failure(response) };
  const text = await response.text();
  return { ok: true, chars: text.length, text };
}

/** The data of the last `event` in SSE text, or undefined. */
function lastEvent(text, event) {
  const data = [...text.matchAll(new RegExp(`^event: ${event}\\ndata: (.*)$`, "gm"))].at(-1)?.[1];
  return data === undefined ? undefined : JSON.parse(data);
}

/**
 * One chat turn: POST the message, read the SSE stream to its end. `{ ok, error?, savedChars?,
 * messageCount?, messagesBefore? }`; ok only when the run ended ok and its state was saved.
 */
export async function chatTurn(url, session, text = "What is 2 + 3?") {
  const response = await fetch(`${url}/api/sessions/${session.sessionId}/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${session.token}` },
    body: JSON.stringify({ text }),
  });
  if (response.status !== 200) return { ok: false, error: await failure(response) };
  const events = await response.text();
  const start = lastEvent(events, "run-start");
  const end = lastEvent(events, "run-end");
  if (end === undefined) return { ok: false, error: "no run-end" };
  const error = !end.ok
    ? `run failed: ${end.error?.code ?? end.stopReason}`
    : end.saved === false
      ? `not saved: ${end.saveError ?? "?"}`
      : undefined;
  return {
    ok: error === undefined,
    ...(error === undefined ? {} : { error }),
    savedChars: typeof end.savedChars === "number" ? end.savedChars : undefined,
    messageCount: end.messageCount,
    messagesBefore: start?.messagesBefore,
  };
}

// Words for made-up conversation text. None of the scripted model's cues (worker/demo-model.ts: time,
// clock, date, hour, send, note, remember, list, show, digits around an operator), so a prompt or the
// compaction summary's request never makes it call a tool.
const WORDS = (
  "the agent reads a config file and checks whether its cache layer keeps values after a restart so we " +
  "compare results with the previous run because our stream parser handles partial chunks before writing " +
  "output into storage while the worker waits for approval from each user then retries its request once " +
  "more which explains latency spikes in logs around deploys; maybe schema validation or retry budget " +
  "matters less than batching small writes together under load with fewer round trips overall"
).split(" ");

/** About `chars` characters of sentences, the same for the same `seed`. */
function prose(chars, seed) {
  let state = (seed * 2654435761) >>> 0 || 1;
  const words = [];
  let length = 0;
  let sentence = 0;
  while (length < chars) {
    state = (state * 1103515245 + 12345) >>> 0;
    let word = WORDS[(state >>> 8) % WORDS.length];
    if (sentence === 0) word = word[0].toUpperCase() + word.slice(1);
    sentence = (sentence + 1) % (8 + (state % 9));
    if (sentence === 0) word += ".";
    words.push(word);
    length += word.length + 1;
  }
  return words.join(" ");
}

/**
 * `template` (a session's export) with `count` messages: user prompts of ~200 characters and assistant
 * answers of ~600, alternating. Each answer reports the usage a provider would: the whole conversation
 * before it as input (4 characters a token), so compaction sees the session's real size.
 */
export function sessionOfLength(template, count) {
  const messages = [];
  const started = Date.now() - count * 60_000;
  const total = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, costUsd: 0 };
  let context = Math.ceil((template.systemPrompt ?? "").length / 4);
  for (let index = 0; index < count; index++) {
    const timestamp = started + index * 60_000;
    if (index % 2 === 0) {
      const text = prose(200, index);
      context += Math.ceil(text.length / 4);
      messages.push({ id: `u-${index}`, role: "user", content: [{ type: "text", text }], timestamp });
      continue;
    }
    const text = prose(600, index);
    const output = Math.ceil(text.length / 4);
    const usage = {
      input: context,
      output,
      cacheRead: 0,
      cacheWrite: 0,
      reasoning: 0,
      costUsd: (context * 3 + output * 15) / 1e6,
    };
    for (const key of Object.keys(total)) total[key] += usage[key];
    context += output;
    messages.push({
      id: `a-${index}`,
      role: "assistant",
      content: [{ type: "text", text }],
      timestamp,
      provider: template.provider,
      model: template.model,
      usage,
      stopReason: "complete",
    });
  }
  return {
    ...template,
    createdAt: started,
    updatedAt: started + count * 60_000,
    usage: total,
    turns: Math.floor(count / 2),
    messages,
  };
}
