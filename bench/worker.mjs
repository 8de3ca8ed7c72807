// The demo Worker under load: requests per second and latency of a full short chat turn (create is
// done up front; a turn is POST message → SSE to run-end: a tool call and an answer, two model turns,
// KV saves) against the real local Worker with the scripted model, at 1 and 32 concurrent clients;
// then how many SSE runs it holds open at once.
import { quantile } from "./stats.mjs";

const TURNS_PER_CLIENT = { 1: 60, 32: 12 };
const HOLD_STEPS = [100, 200, 400, 800];
/** The long answer streams for about 3.9 s (110 words at 35 ms): all must be streaming well within it. */
const ALL_OPEN_WITHIN_MS = 3000;

async function createSession(url) {
  const response = await fetch(`${url}/api/sessions`, { method: "POST" });
  if (response.status !== 201) throw new Error(`create: HTTP ${response.status}`);
  return response.json();
}

function post(url, session, text, signal) {
  return fetch(`${url}/api/sessions/${session.sessionId}/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${session.token}` },
    body: JSON.stringify({ text }),
    signal,
  });
}

/** Reads the SSE body until `stop(text so far)` is true or it ends; returns the text read. */
async function readUntil(response, stop) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += value;
    if (stop(text)) {
      await reader.cancel();
      return text;
    }
  }
}

/** One full turn: ok when the run ended ok. */
async function chatTurn(url, session) {
  const started = performance.now();
  const response = await post(url, session, "What is 2 + 3?");
  if (response.status !== 200) return { ok: false, ms: performance.now() - started };
  const text = await readUntil(response, () => false);
  const ok = /event: run-end\ndata: \{"ok":true/.test(text);
  return { ok, ms: performance.now() - started };
}

async function load(url, clients) {
  const sessions = await Promise.all(Array.from({ length: clients }, () => createSession(url)));
  for (const session of sessions) await chatTurn(url, session); // warm-up
  const latencies = [];
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    sessions.map(async (session) => {
      for (let turn = 0; turn < TURNS_PER_CLIENT[clients]; turn++) {
        const { ok, ms } = await chatTurn(url, session);
        latencies.push(ms);
        if (!ok) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    clients,
    turns: latencies.length,
    rps: latencies.length / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors,
  };
}

/** Opens `count` slow runs at once; true when every one streamed text while all were still open. */
async function hold(url, count) {
  const sessions = await Promise.all(Array.from({ length: count }, () => createSession(url)));
  const controllers = sessions.map(() => new AbortController());
  let ended = 0;
  const started = performance.now();
  const results = await Promise.allSettled(
    sessions.map(async (session, index) => {
      const response = await post(url, session, "Tell me about Wisp", controllers[index].signal);
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      while (!text.includes("event: text-delta")) {
        const { done, value } = await reader.read();
        if (done) {
          ended++;
          throw new Error("ended early");
        }
        text += value;
      }
      return reader;
    }),
  );
  const ms = performance.now() - started;
  const open = results.filter((result) => result.status === "fulfilled").length;
  for (const controller of controllers) controller.abort();
  return { count, open, ended, ms, held: open === count && ms < ALL_OPEN_WITHIN_MS };
}

/** Parses SSE text into `{ id, event, data }` events (complete events only). */
function eventsOf(text) {
  return text
    .split("\n\n")
    .filter((block) => /^data: /m.test(block))
    .map((block) => ({
      id: /^id: (.*)$/m.exec(block)?.[1],
      event: /^event: (.*)$/m.exec(block)?.[1],
      data: JSON.parse(/^data: (.*)$/m.exec(block)[1]),
    }));
}

/**
 * The reconnect storm: `clients` runs at once, each client drops its connection mid-answer, waits a
 * moment and reattaches with Last-Event-ID. Every client must end with the complete answer, and the
 * event ids it saw must be 1, 2, 3, … with nothing missing or repeated.
 */
async function reconnectStorm(url, clients) {
  const sessions = await Promise.all(Array.from({ length: clients }, () => createSession(url)));
  const reattachMs = [];
  const outcomes = await Promise.all(
    sessions.map(async (session, index) => {
      const response = await post(url, session, "Tell me about Wisp");
      const dropAfter = 5 + (index % 10);
      // Read whole events only: cut at the last blank line, as a client's SSE parser would.
      const first = await readUntil(
        response,
        (text) => (text.match(/event: text-delta/g) ?? []).length >= dropAfter,
      );
      const seen = eventsOf(first.slice(0, first.lastIndexOf("\n\n") + 2));
      await new Promise((resolve) => setTimeout(resolve, 100 + ((index * 37) % 400)));
      const started = performance.now();
      const again = await fetch(`${url}/api/sessions/${session.sessionId}/events`, {
        headers: { authorization: `Bearer ${session.token}`, "last-event-id": seen.at(-1).id },
      });
      let firstByte;
      const rest = await readUntil(again, () => {
        firstByte ??= performance.now() - started;
        return false;
      });
      reattachMs.push(firstByte ?? performance.now() - started);
      const all = [...seen, ...eventsOf(rest)];
      const numbers = all.map((event) => Number(event.id.split(":")[1]));
      const duplicated = numbers.length - new Set(numbers).size;
      const missing = Math.max(...numbers) - new Set(numbers).size;
      const end = all.at(-1);
      const text = all
        .filter((event) => event.event === "text-delta")
        .map((event) => event.data.delta)
        .join("");
      const complete = end?.event === "run-end" && end.data.ok === true && text === end.data.text;
      return { complete, duplicated, missing };
    }),
  );
  return {
    clients,
    complete: outcomes.filter((outcome) => outcome.complete).length,
    duplicated: outcomes.reduce((sum, outcome) => sum + outcome.duplicated, 0),
    missing: outcomes.reduce((sum, outcome) => sum + outcome.missing, 0),
    reattachP50: quantile(reattachMs, 0.5),
    reattachP99: quantile(reattachMs, 0.99),
  };
}

/** The bench opens hundreds of sessions from one address: lift the per-client creation limit. */
const BENCH_RATE = "1000000/60";

export async function workerSection() {
  // Loaded here, not at the top: wrangler's import alone slows the sections that run before this one.
  const { startWorker } = await import("../worker/e2e/start-worker.ts");
  const fast = await startWorker({ DEMO_CHUNK_DELAY_MS: "0", CREATE_RATE_LIMIT: BENCH_RATE });
  const rows = [];
  try {
    for (const clients of [1, 32]) rows.push(await load(fast.url, clients));
  } finally {
    await fast.stop();
  }
  // The default 35 ms between words: the long answer streams for about 4 s, so runs overlap.
  const slow = await startWorker({ CREATE_RATE_LIMIT: BENCH_RATE });
  const holds = [];
  try {
    for (const count of HOLD_STEPS) {
      const result = await hold(slow.url, count);
      holds.push(result);
      if (!result.held) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await slow.stop();
  }
  const storm = await startWorker({ CREATE_RATE_LIMIT: BENCH_RATE });
  let reconnect;
  try {
    reconnect = await reconnectStorm(storm.url, 32);
  } finally {
    await storm.stop();
  }
  const held = holds.filter((h) => h.held).at(-1)?.count ?? 0;
  return `## Demo Worker (wrangler local mode, scripted model)

A full short chat turn: \`POST /api/sessions/:id/messages\` "What is 2 + 3?" → SSE until \`run-end\`
(the Durable Object runs two model turns with a calculator call and saves to KV after each). Scripted
model with no delay between words. Each client owns one session and sends its turns one after another.

| clients | turns | turns/s | p50 ms | p99 ms | errors |
| --- | --- | --- | --- | --- | --- |
${rows.map((r) => `| ${r.clients} | ${r.turns} | ${r.rps.toFixed(1)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} |`).join("\n")}

Concurrent open SSE runs: one session each, the long answer at the default 35 ms per word (about
3.9 s per run); a step holds when every run has streamed text within ${ALL_OPEN_WITHIN_MS} ms of the first request, so
all were open at once. ${holds.map((h) => `${h.count} runs: ${h.open} streaming after ${h.ms.toFixed(0)} ms`).join("; ")}.
Held: **${held}** (the steps stop at ${HOLD_STEPS.at(-1)}).

Reconnect storm: ${reconnect.clients} clients stream the long answer at once; each drops its connection
after 5–14 words, waits 100–500 ms and reattaches with \`Last-Event-ID\`. Complete answers:
**${reconnect.complete} of ${reconnect.clients}**; duplicated events: **${reconnect.duplicated}**; missing events:
**${reconnect.missing}**; reattach to first byte p50 ${reconnect.reattachP50.toFixed(1)} ms, p99 ${reconnect.reattachP99.toFixed(1)} ms.
`;
}
