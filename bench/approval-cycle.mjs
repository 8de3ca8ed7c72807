// Approvals: one pause/resume cycle on a 1,000-message session, as a server handling the approval in
// another request does it — export the paused session, JSON both ways, restore (validated, digests
// checked), resume (the approved tool runs, then one model turn) — against a plain chat turn on the
// same session, so what the cycle costs beyond the model call shows.
import { createAgentSession, defineTool, unwrap } from "wisp-agent";
import { createScriptedModel } from "wisp-agent/testing";
import { bigState } from "./session-state.mjs";
import { median, quantile } from "./stats.mjs";

const MESSAGES = 1_000;
const ROUNDS = 15;

const deploy = defineTool({
  name: "deploy",
  description: "Deploys a service",
  inputSchema: { type: "object", properties: { service: { type: "string" } } },
  needsApproval: true,
  execute: ({ service }) => `deployed ${service}`,
});

const call = { content: [{ type: "tool_call", name: "deploy", args: { service: "api" } }] };
const answer = (text) => ({ content: [{ type: "text", text }] });

async function round(base) {
  // Each round: pause, [export → JSON → restore → resume], and a plain turn; a script for the three turns.
  const model = createScriptedModel({ script: [call, answer("deployed"), answer("plain")] });
  const options = { apiKey: "k", fetch: model.fetch, tools: [deploy] };
  const first = unwrap(await createAgentSession({ ...options, restore: structuredClone(base) }));
  const paused = await first.chat("Deploy the api");
  const id = paused.ok ? paused.value.pendingApprovals?.[0]?.toolCallId : undefined;
  if (id === undefined) throw new Error("the run did not pause");

  const started = performance.now();
  const json = JSON.stringify(first.export());
  const second = unwrap(await createAgentSession({ ...options, restore: JSON.parse(json) }));
  const restored = performance.now();
  const resumed = await second.resume([{ toolCallId: id, approved: true }]);
  const ended = performance.now();
  if (!resumed.ok || resumed.value.text !== "deployed") throw new Error("the resume did not finish");

  const plainSession = unwrap(await createAgentSession({ ...options, restore: structuredClone(base) }));
  const plainStart = performance.now();
  const plain = await plainSession.chat("Say something");
  const plainEnd = performance.now();
  if (!plain.ok || plain.value.text !== "plain") throw new Error("the plain turn failed");
  return {
    restore: restored - started,
    resume: ended - restored,
    cycle: ended - started,
    plain: plainEnd - plainStart,
    bytes: json.length,
  };
}

/** Measures the cycle and returns the report section. */
export async function approvalCycleSection() {
  const base = bigState(MESSAGES);
  for (let warm = 0; warm < 3; warm++) await round(base);
  const rounds = [];
  for (let index = 0; index < ROUNDS; index++) rounds.push(await round(base));
  const row = (label, key) => {
    const values = rounds.map((entry) => entry[key]);
    return `| ${label} | ${median(values).toFixed(1)} (${quantile(values, 0.25).toFixed(1)}–${quantile(values, 0.75).toFixed(1)}) |`;
  };
  const beyond = rounds.map((entry) => entry.cycle - entry.plain);
  return `## Approvals: a pause/resume cycle on a ${MESSAGES.toLocaleString("en")}-message session

A session of ${MESSAGES.toLocaleString("en")} messages (${(rounds[0].bytes / 1e6).toFixed(2)} MB of JSON when paused) pauses on a tool
that needs approval. The cycle is what a server does when the approval arrives in another request:
\`export()\` + \`JSON.stringify\` + \`JSON.parse\` + \`createAgentSession({ restore })\` (full validation, the
pending call's digest checked), then \`resume\` — the tool runs and the scripted model (in process)
answers. "Beyond the model call" subtracts a plain \`chat\` turn on the same session. Median of
${ROUNDS} rounds (p25–p75) after three warm-up rounds, in ms. Target: under 20 ms beyond the model call.

| measure | ms |
|---|---:|
${row("export → JSON → restore of the paused session", "restore")}
${row("resume: the approved tool and one model turn", "resume")}
${row("the whole cycle", "cycle")}
${row("a plain chat turn on the same session (the model call)", "plain")}
| the cycle beyond the model call | **${median(beyond).toFixed(1)}** (${quantile(beyond, 0.25).toFixed(1)}–${quantile(beyond, 0.75).toFixed(1)}) |
`;
}
