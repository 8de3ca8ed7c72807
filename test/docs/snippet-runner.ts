/**
 * Runs documentation snippets one after another in this Node process and writes a JSON report.
 *
 *   node --experimental-strip-types --no-warnings test/docs/snippet-runner.ts REPORT SNIPPET…
 *
 * The world a snippet runs in (the convention the docs are written to):
 * - `process.env.ANTHROPIC_API_KEY`, `OPENAI_API_KEY` and `GEMINI_API_KEY` hold placeholder keys;
 * - `globalThis.fetch` is a fresh scripted model per snippet, speaking whichever wire format the request
 *   is for (a loopback URL, `http://127.0.0.1:…`, still goes to the real network, so a snippet may serve
 *   its own scripted model). The model answers a request that offers tools, and has no tool result yet,
 *   with a call of the first tool (arguments made from its JSON Schema); a request that asks for
 *   structured output with JSON made from its schema; everything else with "A scripted answer.";
 * - everything a snippet prints is captured; anything written to stderr, a throw, an unhandled
 *   rejection, or taking longer than {@link TIME_LIMIT_MS} fails it.
 */
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { JsonObject, JsonValue } from "../../src/index.ts";
import { createScriptedModel, type RecordedRequest, type ScriptedTurn } from "../../src/testing/index.ts";

/** How long one snippet may run (`WISP_SNIPPET_TIME_LIMIT_MS` overrides it, for the harness's own test). */
export const TIME_LIMIT_MS = Number(process.env.WISP_SNIPPET_TIME_LIMIT_MS ?? 5_000);

/** What one snippet did. */
export interface SnippetReport {
  file: string;
  stdout: string;
  stderr: string;
  error?: string;
  durationMs: number;
  /** Requests the scripted model answered. */
  requests: number;
}

const KEYS = { ANTHROPIC_API_KEY: "sk-ant-docs", OPENAI_API_KEY: "sk-docs", GEMINI_API_KEY: "docs-key" };

/** Arguments that satisfy a JSON Schema (the common shapes: objects, numbers, strings, enums). */
export function sampleOf(schema: JsonValue | undefined, counter = { next: 6 }): JsonValue {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return null;
  if (Array.isArray(schema.enum)) return schema.enum[0] ?? null;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "object" || typeof schema.properties === "object") {
    const properties = (schema.properties ?? {}) as JsonObject;
    const required = Array.isArray(schema.required) ? schema.required : Object.keys(properties);
    const value: JsonObject = {};
    for (const name of required) value[String(name)] = sampleOf(properties[String(name)], counter);
    return value;
  }
  if (type === "number" || type === "integer") return counter.next++;
  if (type === "boolean") return true;
  if (type === "array") return [];
  return "Oslo";
}

/** The first tool a request offers, in any of the four wire formats. */
function firstTool(body: JsonObject): { name: string; schema: JsonValue | undefined } | undefined {
  const tools = Array.isArray(body.tools) ? (body.tools as JsonObject[]) : [];
  const tool = tools[0];
  if (tool === undefined) return undefined;
  const declaration = (tool.functionDeclarations as JsonObject[] | undefined)?.[0]; // Gemini
  const entry = declaration ?? (tool.function as JsonObject | undefined) ?? tool; // Chat Completions
  const name = entry.name;
  if (typeof name !== "string") return undefined;
  return { name, schema: entry.input_schema ?? entry.parameters ?? entry.parametersJsonSchema };
}

const TOOL_RESULT = /"tool_result"|"role":"tool"|"function_call_output"|"functionResponse"/;

/** A property of a JSON object, when `value` is one. */
function field(value: JsonValue | undefined, key: string): JsonValue | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value[key] : undefined;
}

/**
 * The JSON Schema a request asks the answer to match (structured output), in any of the four wire
 * formats: Anthropic's `output_config.format`, Chat Completions' `response_format`, Responses'
 * `text.format`, Gemini's `generationConfig.responseJsonSchema`.
 */
export function outputSchema(body: JsonObject): JsonValue | undefined {
  return (
    field(field(body.output_config, "format"), "schema") ??
    field(field(body.response_format, "json_schema"), "schema") ??
    field(field(body.text, "format"), "schema") ??
    field(body.generationConfig, "responseJsonSchema")
  );
}

/** The scripted answer to a documentation snippet's request. */
export function answer(request: RecordedRequest): ScriptedTurn {
  const body = (request.body ?? {}) as JsonObject;
  const tool = firstTool(body);
  if (tool !== undefined && !TOOL_RESULT.test(request.bodyText)) {
    return { content: [{ type: "tool_call", name: tool.name, args: sampleOf(tool.schema) as JsonObject }] };
  }
  const schema = outputSchema(body);
  if (schema !== undefined) return { content: [{ type: "text", text: JSON.stringify(sampleOf(schema)) }] };
  return { content: [{ type: "text", text: "A scripted answer." }] };
}

async function main(reportPath: string, files: string[]): Promise<void> {
  const realFetch = globalThis.fetch;
  const out = process.stdout.write.bind(process.stdout);
  const reports: SnippetReport[] = [];
  let current: SnippetReport | undefined;
  const capture =
    (key: "stdout" | "stderr") =>
    (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      if (current === undefined) return out(chunk);
      current[key] += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
      const callback = rest.find((item) => typeof item === "function") as (() => void) | undefined;
      callback?.();
      return true;
    };
  process.stdout.write = capture("stdout") as typeof process.stdout.write;
  process.stderr.write = capture("stderr") as typeof process.stderr.write;
  const fail = (error: unknown): void => {
    if (current === undefined) return;
    current.error ??= error instanceof Error ? (error.stack ?? error.message) : String(error);
  };
  process.on("uncaughtException", fail);
  process.on("unhandledRejection", fail);
  Object.assign(process.env, KEYS);

  for (const file of files) {
    const model = createScriptedModel({ respond: answer });
    globalThis.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      return url.hostname === "127.0.0.1" ? realFetch(input, init) : model.fetch(input, init);
    };
    const report: SnippetReport = { file, stdout: "", stderr: "", durationMs: 0, requests: 0 };
    current = report;
    const started = performance.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not finish within ${TIME_LIMIT_MS} ms`)), TIME_LIMIT_MS);
    });
    try {
      await Promise.race([import(pathToFileURL(file).href), timeout]);
    } catch (error) {
      fail(error);
    } finally {
      clearTimeout(timer);
    }
    report.durationMs = Math.round(performance.now() - started);
    report.requests = model.requests.length;
    reports.push(report);
    current = undefined;
  }
  globalThis.fetch = realFetch;
  writeFileSync(reportPath, JSON.stringify(reports, null, 2));
  // A snippet may leave a timer or a socket behind; the report is written, so leave.
  process.exit(0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [reportPath, ...files] = process.argv.slice(2);
  if (reportPath === undefined) throw new Error("usage: snippet-runner.ts REPORT SNIPPET…");
  await main(reportPath, files);
}
