/**
 * Which model the demo's sessions talk to: a real provider when its key is set, else the scripted
 * demo model. Keys stay here: they are passed to the SDK per run and never stored or sent on.
 *
 * @module
 */

import { type ModelOption, type SessionOptions, uncheckedModel } from "wisp-agent";
import { DEMO_MODEL, demoModel } from "./demo-model.ts";
import { DEMO_TOOLS } from "./demo-tools.ts";
import { type Env, millisecondsOf } from "./env.ts";
import { workerTelemetry } from "./telemetry.ts";

const SYSTEM_PROMPT =
  "You are the assistant of Wisp's demo. Be brief. Use the clock for times, the calculator for arithmetic, send_message to send a message (the user approves each one), ask_user when you need the user to choose, and the notes_ tools (an MCP server) to keep notes.";

/** The model sessions run on: `MODEL`, or the chosen provider's default, or the scripted demo model. */
export function configuredModel(env: Env): string {
  if (env.ANTHROPIC_API_KEY) return env.MODEL ?? "anthropic/claude-sonnet-4-5";
  if (env.OPENAI_API_KEY) return env.MODEL ?? "openai/gpt-4o-mini";
  if (env.GEMINI_API_KEY) return env.MODEL ?? "google/gemini-2.5-flash";
  return DEMO_MODEL;
}

/** Whether runs use the embedded scripted model (no provider key set). */
export function isScripted(env: Env): boolean {
  return !env.ANTHROPIC_API_KEY && !env.OPENAI_API_KEY && !env.GEMINI_API_KEY;
}

/** `telemetry: { tracer }` when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, else nothing. */
function telemetryOption(env: Env): Pick<SessionOptions, "telemetry"> {
  const telemetry = workerTelemetry(env);
  return telemetry === undefined ? {} : { telemetry: { tracer: telemetry.tracer } };
}

/** The session options for a run, from the environment. */
export function agentOptions(env: Env): SessionOptions & { model: ModelOption; tools: typeof DEMO_TOOLS } {
  const common = {
    // From the environment (MODEL), so the run checks it, not the compiler.
    model: uncheckedModel(configuredModel(env)),
    tools: DEMO_TOOLS,
    systemPrompt: SYSTEM_PROMPT,
    maxTurns: 8,
    retry: { maxRetries: 2 },
    approvalSecret: env.APPROVAL_SECRET || undefined,
    // Stored sessions grow without end: older turns are summarized before a request nears the model's
    // context window (the messages stay in KV; prompt caching is on by default).
    compaction: true as const,
    // With OTEL_EXPORTER_OTLP_ENDPOINT: every run traced (worker/telemetry.ts; the runner flushes its spans).
    ...telemetryOption(env),
  };
  if (env.ANTHROPIC_API_KEY) return { ...common, apiKey: env.ANTHROPIC_API_KEY };
  if (env.OPENAI_API_KEY) {
    const options = { ...common, apiKey: env.OPENAI_API_KEY };
    return env.OPENAI_BASE_URL ? { ...options, baseURL: env.OPENAI_BASE_URL } : options;
  }
  if (env.GEMINI_API_KEY) return { ...common, apiKey: env.GEMINI_API_KEY };
  return {
    ...common,
    // No apiKey: a run with its own `fetch` needs none (the scripted model reads no key).
    fetch: demoModel(millisecondsOf(env.DEMO_CHUNK_DELAY_MS)).fetch,
  };
}
