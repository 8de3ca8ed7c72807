// The bridge (wisp-agent/bridge): a 20,000-event stream read across a worker_threads port against the
// same run read in-process, and the round trip of one decision (a tool call's approval asked of the
// main thread and answered at once), timed in the worker from question posted to answer received.
import { MessageChannel, Worker } from "node:worker_threads";
import { createAgentSession, unwrap } from "wisp-agent";
import { connectSession } from "wisp-agent/bridge";
import { createScriptedModel } from "wisp-agent/testing";
import { median, quantile } from "./stats.mjs";

const PIECES = 20_000;
const ROUNDS = 9;
const CALLS = 200;
const WORKER = new URL("./bridge-worker.mjs", import.meta.url);

const worker = new Worker(WORKER);
worker.unref();

/** A port to a new session served by the (warm) worker. */
function serve(pieces, calls) {
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ serve: port2, pieces, calls }, [port2]);
  return port1;
}

/** Reads every event of `run`; the count and the milliseconds from the call to run-end. */
async function readAll(run, started) {
  let events = 0;
  let text = "";
  for await (const event of run) {
    events++;
    if (event.type === "text-delta") text += event.delta;
  }
  return { events, text, ms: performance.now() - started };
}

async function inProcess() {
  const text = Array.from({ length: PIECES }, (_, n) => `w${n} `);
  const model = createScriptedModel({ script: [{ content: [{ type: "text", text }] }] });
  const session = unwrap(
    await createAgentSession({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      fetch: model.fetch,
    }),
  );
  const started = performance.now();
  return readAll(session.stream("go"), started);
}

async function bridged() {
  const port = serve(PIECES, 0);
  const session = unwrap(await connectSession(port));
  const started = performance.now();
  const read = await readAll(session.stream("go"), started);
  await session.close();
  port.close();
  return read;
}

async function decisionTrips() {
  const port = serve(0, CALLS);
  const session = unwrap(
    await connectSession(port, {
      onDecision: { approval: () => ({ approved: true }) },
    }),
  );
  const result = await session.chat("go");
  if (!result.ok || result.value.toolCalls.length !== CALLS) throw new Error("the approval run failed");
  const trips = await new Promise((resolve) => {
    worker.once("message", (message) => resolve(message.trips));
    worker.postMessage("trips?");
  });
  await session.close();
  port.close();
  return trips;
}

/** Measures the bridge and returns the report section. */
export async function bridgeSection() {
  for (let warm = 0; warm < 2; warm++) {
    await inProcess();
    await bridged();
  }
  const local = [];
  const remote = [];
  for (let round = 0; round < ROUNDS; round++) {
    local.push(await inProcess());
    remote.push(await bridged());
  }
  if (remote.some((read) => read.text !== local[0].text)) throw new Error("the bridge lost text");
  const ms = (reads) => reads.map((read) => read.ms);
  const rate = (reads) => (local[0].events / median(ms(reads))) * 1000;
  const received = median(remote.map((read) => read.events));
  const ratios = remote.map((read, index) => read.ms / local[index].ms);
  await decisionTrips();
  const trips = await decisionTrips();
  return `## The bridge: a session in a worker thread

A ${PIECES.toLocaleString("en")}-delta answer (${local[0].events.toLocaleString("en")} events) streamed from an in-process
scripted model, read with \`for await\` in the same thread (\`session.stream\`) and across a Node
\`worker_threads\` port (\`connectSession\` → \`serveSession\`, default window of 256 events in flight).
Median of ${ROUNDS} rounds after two warm-ups; one worker thread serves a new session per round on a
transferred \`MessagePort\` (connecting is not timed).
Events/s counts the run's ${local[0].events.toLocaleString("en")} events; across the port the reader received a median of
${received.toLocaleString("en")} messages, because deltas that wait for credit merge (the text is checked equal).

| read | ms (p25–p75) | events/s |
|---|---:|---:|
| in-process | ${median(ms(local)).toFixed(1)} (${quantile(ms(local), 0.25).toFixed(1)}–${quantile(ms(local), 0.75).toFixed(1)}) | ${Math.round(rate(local)).toLocaleString("en")} |
| across the port | ${median(ms(remote)).toFixed(1)} (${quantile(ms(remote), 0.25).toFixed(1)}–${quantile(ms(remote), 0.75).toFixed(1)}) | ${Math.round(rate(remote)).toLocaleString("en")} |
| the bridge's cost | **${median(ratios).toFixed(2)}×** | target under 1.5× |

One decision's round trip: ${CALLS} sequential tool calls that each need approval, asked of the main
thread and answered at once by \`onDecision\`; timed in the worker from the question posted to the
answer received. Median **${median(trips).toFixed(3)} ms** (p25–p75 ${quantile(trips, 0.25).toFixed(3)}–${quantile(trips, 0.75).toFixed(3)}, p99 ${quantile(trips, 0.99).toFixed(3)}); target under 2 ms.
`;
}
