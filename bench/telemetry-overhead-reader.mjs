// One workload in one variant, alone in this process (bench/telemetry-overhead.mjs starts one process per
// workload, variant and repetition). Runs the workload WARMUP times untimed (the first run is checked:
// the whole answer, the tool calls made, and with a tracer the spans ended), then TIMED times, each
// measured as this process's own CPU time (`process.cpuUsage()`: user + system, all of its threads, so
// its garbage collection counts) and as wall time. Prints one JSON line: { cpu, wall } in ms.
//   node bench/telemetry-overhead-reader.mjs <workload> <variant> <wisp index.js> <warmup> <timed>
// Workloads:
//   turn   streamTurn over the scripted model (in-process fetch, Anthropic's wire format): one text answer
//          streamed in 20,000 pieces of 4–10 ASCII characters, read with for await
//   tools  runAgent: the model calls one tool per turn for 10 turns, then answers (11 model turns, 10
//          tool executions), the scripted model in this process behind its in-process fetch (instant:
//          no socket, no HTTP)
//   tools-http  the same run, the same model, but in another process behind a real HTTP server on
//          127.0.0.1 (bench/telemetry-overhead-server.mjs), reached with the runtime's own fetch: what a
//          run against a provider does, minus the network's wait (the model's CPU is not counted)
// Variants:
//   none    no telemetry option
//   noop    telemetry: { tracer } whose spans do nothing: Wisp's own part of tracing
//   traced  telemetry: { tracer } from the OpenTelemetry SDK's BasicTracerProvider with a
//           SimpleSpanProcessor and an exporter that drops the spans (span creation and the processor's
//           work count; export I/O does not)
//   batch   the same with the SDK's BatchSpanProcessor (what the OpenTelemetry docs advise for production)
// The scripted model always comes from this tree's dist/ (so two builds of Wisp are measured against the
// same model); the Wisp under test (streamTurn, runAgent, defineTool) from <wisp index.js>. Only the
// variant's own modules are loaded: "none" never imports OpenTelemetry.
import { pathToFileURL } from "node:url";

const TESTING = new URL("../dist/src/testing/index.js", import.meta.url).href;
export const TURN_EVENTS = 20_000;
export const TOOL_TURNS = 10;
const MODEL = "anthropic/claude-sonnet-4-5";
const hello = [{ id: "u", role: "user", content: [{ type: "text", text: "go" }], timestamp: 0 }];

/** `count` deterministic ASCII pieces of 4–10 characters: a space, then letters. */
export function pieces(count) {
  let state = 7;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  return Array.from({ length: count }, () => {
    const length = 4 + Math.floor(next() * 7);
    let piece = " ";
    while (piece.length < length) piece += "abcdefghijklmnopqrstuvwxyz"[Math.floor(next() * 26)];
    return piece;
  });
}

/** A tracer whose spans go through the SDK's SimpleSpanProcessor to an exporter that drops them. */
async function droppingTracer() {
  const { BasicTracerProvider, SimpleSpanProcessor } = await import("@opentelemetry/sdk-trace-base");
  const exporter = {
    ended: 0,
    export(spans, done) {
      exporter.ended += spans.length;
      done({ code: 0 });
    },
    shutdown: () => Promise.resolve(),
    forceFlush: () => Promise.resolve(),
  };
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer("wisp-bench"), exporter };
}

/** A tracer whose spans do nothing: what Wisp's own part of tracing costs, without any SDK's. */
function noopTracer() {
  const exporter = { ended: 0 };
  const span = {
    setAttribute: () => span,
    setAttributes: () => span,
    addEvent: () => span,
    setStatus: () => span,
    recordException: () => undefined,
    spanContext: () => ({ traceId: "0".repeat(31) + "1", spanId: "0".repeat(15) + "1", traceFlags: 1 }),
    isRecording: () => true,
    updateName: () => span,
    end: () => {
      exporter.ended++;
    },
  };
  return { tracer: { startSpan: () => span }, exporter };
}

/** A tracer whose spans go through the SDK's BatchSpanProcessor (what production setups use) to a dropping exporter. */
async function batchingTracer() {
  const { BasicTracerProvider, BatchSpanProcessor } = await import("@opentelemetry/sdk-trace-base");
  const exporter = {
    ended: 0,
    export(spans, done) {
      exporter.ended += spans.length;
      done({ code: 0 });
    },
    shutdown: () => Promise.resolve(),
    forceFlush: () => Promise.resolve(),
  };
  const processor = new BatchSpanProcessor(exporter);
  const provider = new BasicTracerProvider({ spanProcessors: [processor] });
  return { tracer: provider.getTracer("wisp-bench"), exporter, flush: () => processor.forceFlush() };
}

/** Starts bench/telemetry-overhead-server.mjs (it stops when this process's end closes its stdin): its URL. */
async function startModelServer() {
  const { spawn } = await import("node:child_process");
  const server = spawn(
    process.execPath,
    [new URL("telemetry-overhead-server.mjs", import.meta.url).pathname],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const url = await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.once("exit", (code) => reject(new Error(`the model server exited ${code}`)));
    server.stdout.once("data", (data) => resolve(String(data).trim()));
  });
  // Its pipes must not keep this process alive: when this process ends, its stdin closes and it stops.
  for (const handle of [server, server.stdin, server.stdout]) handle.unref();
  return url;
}

/** The workload: an async function that runs it once and returns what to check. */
async function makeWorkload(workload, variant, wispPath) {
  const wisp = await import(pathToFileURL(wispPath).href);
  const { createScriptedModel } = await import(TESTING);
  const traced =
    variant === "traced"
      ? await droppingTracer()
      : variant === "batch"
        ? await batchingTracer()
        : variant === "noop"
          ? noopTracer()
          : undefined;
  if (variant !== "none" && traced === undefined) throw new Error(`no variant "${variant}"`);
  const telemetry = traced === undefined ? {} : { telemetry: { tracer: traced.tracer } };
  // The batch processor exports later: flush it before counting what the first run ended.
  const spans = async () => {
    await traced?.flush?.();
    return traced?.exporter.ended ?? 0;
  };
  if (workload === "turn") {
    const text = pieces(TURN_EVENTS);
    const expected = text.join("");
    return async () => {
      const model = createScriptedModel({ script: [{ content: [{ type: "text", text }] }] });
      const turn = wisp.streamTurn(
        { messages: hello },
        { model: MODEL, apiKey: "k", fetch: model.fetch, ...telemetry },
      );
      let deltas = 0;
      for await (const event of turn) if (event.type === "text-delta") deltas++;
      const message = await turn.message;
      const answer = message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      return { ok: answer === expected && deltas === TURN_EVENTS, spans: await spans(), expectSpans: 1 };
    };
  }
  if (workload !== "tools" && workload !== "tools-http") throw new Error(`no workload "${workload}"`);
  const { z } = await import("zod");
  const add = wisp.defineTool({
    name: "add",
    description: "Adds two numbers",
    input: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => String(a + b),
  });
  const script = [
    ...Array.from({ length: TOOL_TURNS }, (_, index) => ({
      content: [{ type: "tool_call", name: "add", args: { a: index, b: 1 } }],
    })),
    { content: [{ type: "text", text: "Done: ten sums." }] },
  ];
  // tools-http: the model is another process's server on 127.0.0.1, reached with the runtime's fetch.
  const server = workload === "tools-http" ? await startModelServer() : undefined;
  return async () => {
    const transport =
      server === undefined ? { fetch: createScriptedModel({ script }).fetch } : { baseURL: server };
    const result = await wisp.runAgent({
      model: wisp.uncheckedModel(MODEL),
      apiKey: "k",
      ...transport,
      prompt: "Add ten times.",
      tools: [add],
      retry: { maxRetries: 0 },
      ...telemetry,
    });
    const ok =
      result.ok &&
      result.value.toolCalls.length === TOOL_TURNS &&
      result.value.turns === TOOL_TURNS + 1 &&
      result.value.text === "Done: ten sums.";
    // invoke_agent, a chat span per model turn, an execute_tool span per call.
    return { ok, spans: await spans(), expectSpans: 1 + (TOOL_TURNS + 1) + TOOL_TURNS };
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [workload, variant, wispPath, warmup, timed] = process.argv.slice(2);
  const run = await makeWorkload(workload, variant, wispPath);
  const first = await run();
  if (!first.ok) throw new Error(`${workload} (${variant}) did not run as scripted`);
  const wanted = variant === "none" ? 0 : first.expectSpans;
  if (first.spans !== wanted)
    throw new Error(`${workload} (${variant}): ${first.spans} spans, not ${wanted}`);
  for (let call = 1; call < Number(warmup); call++) await run();
  const cpu = [];
  const wall = [];
  for (let call = 0; call < Number(timed); call++) {
    const cpuStart = process.cpuUsage();
    const wallStart = performance.now();
    await run();
    const wallMs = performance.now() - wallStart;
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
    wall.push(wallMs);
  }
  process.stdout.write(`${JSON.stringify({ cpu, wall })}\n`);
}
