/**
 * Layer `output` (docs/architecture.md): structured output: the answer's schema and check, the incremental JSON parser.
 *
 * Structured output in a run, loaded only by runs that ask for it (`output: schema`): the JSON Schema
 * the provider is asked to answer in, the partial value shown while an answer streams, and the check
 * of the final answer — always re-validated by the schema, since providers drop some constraints.
 *
 * @module
 */

import { messageOf } from "../errors/message-of.ts";
import { ConfigError, ParseError } from "../errors/sdk-error.ts";
import { formatIssues } from "../schema/format-issues.ts";
import type { StandardSchema } from "../schema/standard-schema.ts";
import type {
  JsonObject,
  JsonValue,
  OutputFormat,
  ToolCallPart,
  ToolResultPart,
  TurnEvent,
} from "../types.ts";
import { ANSWER_TOOL, usesAnswerTool } from "./answer-tool.ts";
import { PartialJson } from "./partial-json.ts";

/** How often the model may answer again after an answer the schema refuses (the default). */
const DEFAULT_OUTPUT_RETRIES = 2;

/** The outcome of checking a final answer. */
type OutputCheck = { ok: true; value: unknown } | { ok: false; problem: string };

/** What the loop uses for a run with structured output. */
export interface RunOutput {
  format: OutputFormat;
  /** Answers the schema may refuse before the run ends with OUTPUT_INVALID. */
  retries: number;
  /**
   * Reads an event of `turn`: the answer's text as it streams (the text, or the hidden answer tool's
   * arguments where the answer comes that way); returns a snapshot of the value so far when it grew
   * enough since the last one (or is whole), else undefined.
   */
  partial(turn: number, event: TurnEvent): JsonValue | undefined;
  /** Checks a final answer's text against the schema. */
  check(text: string): Promise<OutputCheck>;
  /** The error a run ends with when its answers stayed wrong: OUTPUT_INVALID, with the last answer. */
  invalid(problem: string, text: string, answers: number): ParseError;
  /** What the model is told after a refused answer. */
  retryPrompt(problem: string): string;
  /** The call of the hidden answer tool among `calls`, if the model gave its answer that way. */
  answerCall(calls: readonly ToolCallPart[]): ToolCallPart | undefined;
  /** The result `call` gets in a turn answered by `answer`: the verdict for it, "not run" for others. */
  answerResult(call: ToolCallPart, answer: ToolCallPart, verdict: OutputCheck): ToolResultPart;
}

/** The JSON Schema of `schema`'s output, or a ConfigError saying why there is none. */
function jsonSchemaOf(schema: StandardSchema): JsonObject {
  if (typeof schema?.["~standard"]?.validate !== "function")
    throw new ConfigError("output must be a Standard Schema (zod ≥ 4.2, arktype, …)", {
      code: "CONFIG_INVALID",
      path: "output",
    });
  const converter = schema["~standard"].jsonSchema;
  // What the model writes is what validation takes in (a transform may change it on the way out).
  const convert = converter?.input ?? converter?.output;
  if (convert === undefined)
    throw new ConfigError(
      `output: this ${schema["~standard"].vendor} schema cannot describe itself as JSON Schema (zod does from 4.2 on; a zod/mini or valibot schema does not)`,
      { code: "CONFIG_INVALID", path: "output" },
    );
  try {
    const { $schema: _, ...converted } = convert.call(converter, { target: "draft-2020-12" });
    return converted as JsonObject;
  } catch (error) {
    throw new ConfigError(`output cannot become JSON Schema: ${messageOf(error)}`, {
      code: "CONFIG_INVALID",
      path: "output",
    });
  }
}

/** Whether `line` opens a Markdown fence around JSON: ` ``` ` or ` ```json `, spaces around it allowed. */
const opensFence = (line: string): boolean => /^```(?:json)?$/.test(line.trim());

/**
 * What the Markdown fences of `text` hold: blocks that open with a line of ` ``` ` or ` ```json ` and
 * close with a line of ` ``` `. One pass over the lines, so hostile text costs linear time.
 */
function fencedBlocks(text: string): string[] {
  const lines = text.split("\n");
  const blocks: string[] = [];
  let opened = -1;
  lines.forEach((line, index) => {
    if (opened === -1) {
      if (opensFence(line)) opened = index;
    } else if (line.trim() === "```") {
      blocks.push(lines.slice(opened + 1, index).join("\n"));
      opened = -1;
    }
  });
  return blocks;
}

/**
 * The answer's JSON text. A Markdown fence around it, which some models add, is taken off; so is the
 * prose around the one fenced block of an answer that is not JSON itself (a model that ignored the
 * JSON mode). An answer with more than one fenced block is left whole: which one was meant is unknown.
 */
function answerJson(text: string): string {
  const trimmed = text.trim();
  const whole = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(trimmed);
  if (whole !== null) return whole[1] ?? "";
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) return trimmed;
  const blocks = fencedBlocks(trimmed);
  return blocks.length === 1 ? (blocks[0] ?? trimmed) : trimmed;
}

/** The longest first line taken for a fence's opening line while its end has not come. */
const MAX_FENCE_LINE = 64;

/**
 * Where the JSON of a text answer begins, told from its start `lead` (leading whitespace trimmed):
 * past a Markdown fence's opening line (` ``` ` or ` ```json `) when one opens it, as {@link answerJson}
 * reads it, else at its start; undefined while that cannot be told yet. A first line that grows past
 * {@link MAX_FENCE_LINE} characters without ending is not taken for a fence (so each fragment costs a
 * bounded amount however the answer starts).
 */
function jsonStart(lead: string): { json: string; fenced: boolean } | undefined {
  if ("```".startsWith(lead)) return undefined; // nothing yet, or backticks that may open a fence
  if (!lead.startsWith("```")) return { json: lead, fenced: false };
  const lineEnd = lead.indexOf("\n");
  if (lineEnd === -1) return lead.length > MAX_FENCE_LINE ? { json: lead, fenced: false } : undefined;
  return opensFence(lead.slice(0, lineEnd))
    ? { json: lead.slice(lineEnd + 1), fenced: true }
    : { json: lead, fenced: false };
}

/**
 * Prepares a run's structured output; throws ConfigError for a schema that cannot be sent, or for a
 * tool of the run named like the hidden answer tool when the run needs it.
 */
export function runOutput(
  schema: StandardSchema,
  retries = DEFAULT_OUTPUT_RETRIES,
  run: { provider: string; model: string; toolNames: readonly string[] } = {
    provider: "",
    model: "",
    toolNames: [],
  },
): RunOutput {
  const format: OutputFormat = { name: "answer", schema: jsonSchemaOf(schema) };
  const viaTool = usesAnswerTool(run.provider, run.model, run.toolNames.length > 0, format.schema);
  if (viaTool && run.toolNames.includes(ANSWER_TOOL))
    throw new ConfigError(
      `A tool is named "${ANSWER_TOOL}", the name structured output's hidden answer tool needs on this model: rename it`,
      { code: "CONFIG_INVALID", path: "tools" },
    );
  let parser: PartialJson | undefined;
  let parserTurn = 0;
  // The content index of this turn's answer tool call, when the answer comes through it.
  let answerIndex: number | undefined;
  // Text read this turn, and how much of it the last snapshot had.
  let read = 0;
  let shown = 0;
  // A text answer's start, until it is known whether a fence opens it (then undefined); and whether one did.
  let lead: string | undefined;
  let fenced = false;
  // The last snapshot sent, as JSON.
  let sent = "";
  return {
    format,
    retries,
    partial(turn, event) {
      if (parser === undefined || parserTurn !== turn) {
        parser = new PartialJson();
        parserTurn = turn;
        answerIndex = undefined;
        read = 0;
        shown = 0;
        lead = viaTool ? undefined : "";
        fenced = false;
        sent = "";
      }
      if (viaTool && event.type === "tool-call-start" && event.name === ANSWER_TOOL)
        answerIndex ??= event.index;
      let delta = viaTool
        ? event.type === "tool-call-delta" && event.index === answerIndex
          ? event.delta
          : undefined
        : event.type === "text-delta"
          ? event.delta
          : undefined;
      if (delta === undefined) return undefined;
      if (lead !== undefined) {
        lead = (lead + delta).trimStart();
        const start = jsonStart(lead);
        if (start === undefined) return undefined;
        lead = undefined;
        fenced = start.fenced;
        delta = start.json;
      }
      parser.push(delta);
      read += delta.length;
      // After a fenced answer's whole value comes its closing fence: not JSON, but the value is whole.
      const whole = parser.complete || (fenced && parser.whole);
      if ((parser.error !== undefined && !whole) || parser.value === undefined) return undefined;
      // A snapshot (its own copy, so it stays as it was) once the text grew by 5% or 32 characters
      // since the last one, and when the value is whole: the copies cost a constant times the text.
      if (!whole && read - shown < Math.max(32, shown / 20)) return undefined;
      shown = read;
      // Never the same value twice: what grew may have been only spaces, or a fence's closing line.
      const snapshot = JSON.stringify(parser.value);
      if (snapshot === sent) return undefined;
      sent = snapshot;
      return JSON.parse(snapshot) as JsonValue;
    },
    async check(text) {
      let value: unknown;
      try {
        value = JSON.parse(answerJson(text));
      } catch (error) {
        return { ok: false, problem: `the answer is not JSON (${messageOf(error)})` };
      }
      const result = await schema["~standard"].validate(value);
      if (result.issues !== undefined) return { ok: false, problem: formatIssues(result.issues) };
      return { ok: true, value: result.value };
    },
    invalid(problem, text, answers) {
      return new ParseError(
        `The answer does not match the output schema after ${answers} ${answers === 1 ? "answer" : "answers"}: ${problem}`,
        { code: "OUTPUT_INVALID", details: { text: text.slice(0, 100_000), problem } },
      );
    },
    retryPrompt(problem) {
      return `Your answer does not match the output schema: ${problem}. Answer again with only the JSON.`;
    },
    answerCall: (calls) => (viaTool ? calls.find((call) => call.name === ANSWER_TOOL) : undefined),
    answerResult(call, answer, verdict) {
      const refused = !verdict.ok || call !== answer;
      const text =
        call !== answer
          ? "Tool call not run: the final answer was given in the same turn"
          : verdict.ok
            ? "Answer received."
            : `Your answer does not match the output schema: ${verdict.problem}. Call ${ANSWER_TOOL} again with a corrected answer.`;
      return {
        type: "tool_result",
        toolCallId: call.id,
        toolName: call.name,
        output: text,
        isError: refused,
      };
    },
  };
}
