/**
 * The bindings and variables the demo Worker reads (wrangler.toml, `.dev.vars`).
 *
 * @module
 */

/** The Worker's environment. Provider keys come from `.dev.vars` and never leave the Worker. */
export interface Env {
  /** Session records: `session:<id>` → {@link SessionRecord}. */
  SESSIONS: KVNamespace;
  /** One Durable Object per session runs its agent, one run at a time. */
  RUNNER: DurableObjectNamespace;
  /** One Durable Object per client counts its new sessions (see worker/client-limiter.ts). */
  LIMITER: DurableObjectNamespace<import("./client-limiter.ts").ClientLimiter>;
  ASSETS?: Fetcher;
  ANTHROPIC_API_KEY?: string;
  OPENAI_API_KEY?: string;
  /** For an OpenAI-compatible server (e.g. a local Ollama: http://127.0.0.1:11434/v1). */
  OPENAI_BASE_URL?: string;
  /** A Google Gemini API key (used when neither of the above is set). */
  GEMINI_API_KEY?: string;
  /** Overrides the default model of the chosen provider (`anthropic/…`, `openai/…`, `openai-responses/…`, `google/…`). */
  MODEL?: string;
  /** Milliseconds between the scripted model's streamed words (default 35; the bench sets 0). */
  DEMO_CHUNK_DELAY_MS?: string;
  /**
   * A lower cap on a stored session, in characters of JSON, than the default 64 Mi (MAX_SESSION_CHARS
   * in worker/session-store.ts); the Worker's tests set one so that reaching it is quick.
   */
  SESSION_MAX_CHARS?: string;
  /** Milliseconds a run goes on with no client attached before it is cancelled (default 15,000). */
  RUN_GRACE_MS?: string;
  /**
   * Sessions a client may create or import, as `"<count>/<seconds>"` (default `"20/60"`); the same
   * rate, counted apart, bounds the MCP servers it may try to add to sessions.
   */
  CREATE_RATE_LIMIT?: string;
  /** Requests a client may send the demo's MCP server at `/mcp`, as `"<count>/<seconds>"` (default `"120/60"`). */
  MCP_RATE_LIMIT?: string;
  /** Comma-separated origins allowed to call the API from another site. Default: none. */
  ALLOWED_ORIGINS?: string;
  /**
   * At least 16 characters: signs pending approvals and "always" permissions in every stored and
   * exported session, so an imported file can only carry approvals this deployment signed.
   */
  APPROVAL_SECRET?: string;
  /**
   * More MCP servers for the agent, beside the demo's own notes server: a JSON array of
   * `{ url, prefix?, headers? }` (put it in `.dev.vars` when headers hold a token), or a comma-separated
   * list of `url` or `prefix=url`.
   */
  MCP_SERVERS?: string;
  /**
   * An OTLP/HTTP endpoint (e.g. `http://127.0.0.1:4318`): when set, every run is traced with
   * OpenTelemetry and its spans are posted as JSON to `<endpoint>/v1/traces` after the run ends
   * (worker/telemetry.ts). Unset: no tracing.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  /**
   * Headers for the OTLP requests, as `key=value` pairs separated by commas, values percent-encoded
   * (e.g. `authorization=Bearer%20abc,x-team=demo`). Put it in `.dev.vars` when it holds a key.
   */
  OTEL_EXPORTER_OTLP_HEADERS?: string;
}

/**
 * A setting in milliseconds (`RUN_GRACE_MS`, `DEMO_CHUNK_DELAY_MS`): a finite number ≥ 0, else
 * `undefined` so the caller's default applies (unset, empty, negative, or not a number).
 */
export function millisecondsOf(setting: string | undefined): number | undefined {
  if (setting === undefined || setting.trim() === "") return undefined;
  const value = Number(setting);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}
