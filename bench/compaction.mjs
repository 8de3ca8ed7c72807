// Compaction (issue 20): the time it adds to a turn beyond its model call, on a 1,000-message session
// restored from a state, beside the same turn without compaction. "Hook summary" gives the summary
// from a preCompact hook (no model call: Wisp's own work — choosing where to cut, estimating the
// request, the overlay); "model summary" asks the (in-process, instant) scripted model for it, so it
// adds the transcript and the summary's request and stream.
import { createAgentSession, unwrap } from "wisp-agent";
import { createScriptedModel } from "wisp-agent/testing";
import { bigState } from "./session-state.mjs";
import { median, quantile } from "./stats.mjs";

const MESSAGES = 1_000;
const ROUNDS = 9;

async function turn(state, compaction) {
  const model = createScriptedModel({
    respond: () => ({ content: [{ type: "text", text: "A summary, or an answer." }] }),
  });
  const session = unwrap(
    await createAgentSession({
      model: "anthropic/claude-sonnet-5-5",
      apiKey: "k",
      fetch: model.fetch,
      restore: state,
      ...(compaction === "model" ? { compaction: { maxTokens: 100 } } : {}),
      ...(compaction === "hook"
        ? {
            compaction: { maxTokens: 100 },
            hooks: { preCompact: () => ({ summary: "What happened so far." }) },
          }
        : {}),
    }),
  );
  const start = performance.now();
  let prompted = start;
  let compacted = 0;
  const run = session.stream("Go on");
  for await (const event of run) {
    if (event.type === "message" && event.message.role === "user") prompted = performance.now();
    if (event.type === "compaction") compacted = performance.now() - prompted;
  }
  const result = await run.result;
  if (!result.ok) throw result.error;
  if (compaction !== undefined && session.export().compaction === undefined) throw new Error("no compaction");
  return { turn: performance.now() - start, compaction: compacted };
}

/** @returns {Promise<string>} the section's markdown */
export async function compactionSection() {
  const state = JSON.parse(JSON.stringify(bigState(MESSAGES)));
  const samples = { none: [], hook: [], model: [] };
  for (let round = 0; round < ROUNDS + 2; round++) {
    for (const kind of ["none", "hook", "model"]) {
      const ms = await turn(state, kind === "none" ? undefined : kind);
      if (round >= 2) samples[kind].push(ms);
    }
  }
  const spread = (values) =>
    `${median(values).toFixed(2)} (${quantile(values, 0.25).toFixed(2)}–${quantile(values, 0.75).toFixed(2)})`;
  const row = (label, kind) =>
    `| ${label} | ${kind === "none" ? "–" : spread(samples[kind].map((sample) => sample.compaction))} | ${spread(samples[kind].map((sample) => sample.turn))} |`;
  return `## Compaction: the time it adds to a turn

A ${MESSAGES.toLocaleString("en-US")}-message session restored from a state, one turn against the
in-process scripted model, with and without compaction (\`maxTokens: 100\`, so the turn compacts
first). "Hook summary": a \`preCompact\` hook gives the summary, no model call — Wisp's own work.
"Model summary": the scripted model writes it — Wisp's work plus the transcript and the summary's
request and stream (an instant model). Median of ${ROUNDS} interleaved rounds after two warm-up
rounds, ms (p25–p75).

| turn | the compaction, ms | the whole turn, ms |
|---|---:|---:|
${row("without compaction", "none")}
${row("compacting, hook summary", "hook")}
${row("compacting, model summary", "model")}

The compaction is timed from the prompt joining the conversation to the \`compaction\` event (the hook,
or the summary's request and stream, included); the whole turn from \`stream()\` to its result.
`;
}
