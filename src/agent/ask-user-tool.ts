/**
 * The ask tool: opt-in (`tools: [askUserTool()]`), it lets the model ask the person 1–4 structured
 * questions mid-run, in Claude Code's AskUserQuestion shape. A call with valid questions pauses the
 * run (stopReason `question`); malformed questions get an error result the model reads, not a pause.
 *
 * @module
 */

import { ConfigError } from "../errors/sdk-error.ts";
import type { JsonObject } from "../types.ts";
import type { ParsedArgs, Tool } from "./define-tool.ts";
import { checkQuestions, MAX_QUESTION_LABEL, MAX_QUESTION_TEXT } from "./question-checks.ts";
import type { Question } from "./questions.ts";

/** The ask tool's name unless another is given. */
export const ASK_USER_TOOL_NAME = "ask_user";

/** The ask tool's arguments: the questions. */
export interface AskUserInput {
  /** 1–4 questions, each with 2–4 options. */
  questions: Question[];
}

/** Options of {@link askUserTool}. */
export interface AskUserToolOptions<Name extends string = typeof ASK_USER_TOOL_NAME> {
  /** The tool's name (default `ask_user`), for a session whose tools already have one by that name. */
  name?: Name;
  /** What the model is told about the tool (default: when to ask, and how). */
  description?: string;
}

const DESCRIPTION =
  "Ask the user 1 to 4 multiple-choice questions when you need their decision or preference to go on " +
  "(which option to take, what they meant). Each question has a short header and 2 to 4 options; set " +
  "multiSelect when several options may be picked together. The user can always answer in their own words " +
  "instead. The answers come back as this tool's result; do not guess them.";

const OPTION_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    label: { type: "string", description: "The choice, in 1 to 5 words", maxLength: MAX_QUESTION_LABEL },
    description: { type: "string", description: "What this choice means", maxLength: MAX_QUESTION_TEXT },
  },
  required: ["label"],
  additionalProperties: false,
};

const INPUT_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    questions: {
      type: "array",
      minItems: 1,
      maxItems: 4,
      items: {
        type: "object",
        properties: {
          question: { type: "string", description: "The whole question", maxLength: MAX_QUESTION_TEXT },
          header: {
            type: "string",
            description: 'A very short label for the question ("Database")',
            maxLength: MAX_QUESTION_LABEL,
          },
          options: { type: "array", minItems: 2, maxItems: 4, items: OPTION_SCHEMA },
          multiSelect: { type: "boolean", description: "Whether several options may be picked" },
        },
        required: ["question", "header", "options", "multiSelect"],
        additionalProperties: false,
      },
    },
  },
  required: ["questions"],
  additionalProperties: false,
};

/** The ask tools made by {@link askUserTool}: the loop pauses on their calls instead of running them. */
const askTools = new WeakSet<object>();

/** Whether `tool` is an ask tool made by {@link askUserTool} (its valid calls pause the run). */
export function isAskUserTool(tool: object): boolean {
  return askTools.has(tool);
}

/** Copies of ask tools whose calls are answered before they run (see {@link answeredAskTool}). */
const answeredCopies = new WeakSet<object>();

/**
 * A copy of the ask tool `tool` whose calls run `execute` instead of pausing the run: for a caller
 * that has the person's answers before the call runs (the bridge asks the main thread from a
 * `preToolUse` hook). Its calls still count as questions to the person (see {@link asksThePerson}).
 */
export function answeredAskTool(
  tool: Tool<unknown, string, unknown>,
  execute: Tool<unknown, string, unknown>["execute"],
): Tool<unknown, string, unknown> {
  const copy = { ...tool, execute };
  answeredCopies.add(copy);
  return copy;
}

/**
 * Whether a call of `tool` asks the person (an ask tool, or an answered copy of one): their answers
 * are the approval, so a `preToolUse` hook's "ask" on it asks nothing more.
 */
export function asksThePerson(tool: object): boolean {
  return askTools.has(tool) || answeredCopies.has(tool);
}

async function parseArgs(args: JsonObject): Promise<ParsedArgs<AskUserInput>> {
  const checked = checkQuestions(args);
  if (!Array.isArray(checked)) {
    const where = checked.path === "" ? "the input" : checked.path;
    return { ok: false, message: `${where} ${checked.problem}` };
  }
  return { ok: true, args: { questions: checked } };
}

/**
 * The built-in tool that lets the model ask the person structured questions. Add it to `tools`: a
 * call of it pauses the run with stopReason `question` and the questions in `pendingQuestions` (the
 * session's state keeps them, sealed like approvals), and `session.resume([{ toolCallId, answers }])`
 * gives the model the answers (or `{ toolCallId, unanswered: true }`, that there are none).
 * Over the bridge, an `onDecision.question` handler on the main thread answers while the run waits.
 *
 * @example
 * ```ts
 * const session = await createAgentSession({ model, apiKey, tools: [askUserTool()] });
 * const paused = await session.value.chat("Set up the project; ask me what you need to know.");
 * if (paused.ok && paused.value.stopReason === "question") {
 *   const [asked] = paused.value.pendingQuestions ?? [];
 *   await session.value.resume([{ toolCallId: asked.toolCallId, answers: [{ selected: ["PostgreSQL"] }] }]);
 * }
 * ```
 */
export function askUserTool<Name extends string = typeof ASK_USER_TOOL_NAME>(
  options: AskUserToolOptions<Name> = {},
): Tool<AskUserInput, Name, AskUserInput> {
  const name = (options.name ?? ASK_USER_TOOL_NAME) as Name;
  if (typeof name !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(name))
    throw new ConfigError("askUserTool: name must be 1 to 64 letters, digits, _ or -", {
      code: "CONFIG_INVALID",
      path: "name",
    });
  if (options.description !== undefined && typeof options.description !== "string")
    throw new ConfigError("askUserTool: description must be a string", {
      code: "CONFIG_INVALID",
      path: "description",
    });
  const tool: Tool<AskUserInput, Name, AskUserInput> = {
    name,
    description: options.description ?? DESCRIPTION,
    inputSchema: INPUT_SCHEMA,
    // Asking changes nothing: the permission policy's `plan` mode lets it run.
    sideEffects: false,
    parseArgs,
    // Never reached in a run: the loop pauses on the call instead (see run-tool-calls.ts).
    execute: () => "The user could not be asked here: go on without their answer.",
  };
  askTools.add(tool);
  return tool;
}
