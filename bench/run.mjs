// npm run bench: every benchmark, one section each, written to bench/results.md.
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { abortLatencySection } from "./abort-latency.mjs";
import { agentLoopSection } from "./agent-loop.mjs";
import { approvalCycleSection } from "./approval-cycle.mjs";
import { bridgeSection } from "./bridge.mjs";
import { bundleSizeSection } from "./bundle-size.mjs";
import { compactionSection } from "./compaction.mjs";
import { decodingSection } from "./decoding.mjs";
import { decodingCpuSection } from "./decoding-cpu.mjs";
import { decodingHonestSection } from "./decoding-honest.mjs";
import { formatsSection } from "./formats.mjs";
import { mcpSection } from "./mcp.mjs";
import { partialJsonSection } from "./partial-json.mjs";
import { promptCacheSection } from "./prompt-cache.mjs";
import { sessionStateSection } from "./session-state.mjs";
import { telemetryOverheadSection } from "./telemetry-overhead.mjs";
import { workerSection } from "./worker.mjs";
import { workerScalingSection } from "./worker-scaling.mjs";

const sections = [];
for (const section of [
  decodingSection,
  decodingCpuSection,
  decodingHonestSection,
  agentLoopSection,
  abortLatencySection,
  sessionStateSection,
  approvalCycleSection,
  bridgeSection,
  formatsSection,
  mcpSection,
  partialJsonSection,
  promptCacheSection,
  telemetryOverheadSection,
  compactionSection,
  workerSection,
  workerScalingSection,
  bundleSizeSection,
]) {
  const text = await section();
  console.log(text);
  sections.push(text);
}
const report = `# Benchmarks

Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench\` on this machine (${cpus().length} cores), Node ${process.version}.

${sections.join("\n")}`;
writeFileSync(new URL("./results.md", import.meta.url), report);
