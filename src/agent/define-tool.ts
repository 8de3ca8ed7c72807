/**
 * Tools: what the model may call. `defineTool` takes a Standard Schema (zod 4, valibot, arktype) for
 * the input, or a plain JSON Schema; the schema becomes the JSON Schema the provider sees, and the
 * model's arguments are validated against it before `execute` runs, so `execute` gets typed arguments.
 *
 * @module
 */

import { ConfigError } from "../errors/sdk-error.ts";
import { formatIssues } from "../schema/format-issues.ts";
import type { InferInput, InferOutput, StandardSchema } from "../schema/standard-schema.ts";
import { toolJsonSchema } from "../schema/tool-json-schema.ts";
import { PERMISSION_CLASS } from "../state/permission-syntax.ts";
import type { TelemetryContext } from "../telemetry/telemetry-options.ts";
import type { JsonObject, JsonValue, Message, ToolSpec } from "../types.ts";
import type { ToolContent } from "./tool-output.ts";

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  /** Aborts when the run is aborted or the tool's timeout expires. Pass it on to fetches. */
  signal: AbortSignal;
  /** The provider's id for this call (the `id` of its {@link ToolCallPart}). */
  toolCallId: string;
  /** The id of the session the run belongs to. */
  sessionId: string;
  /** The model turn (1-based) that asked for this call. */
  turn: number;
  /** The conversation so far. Read it; do not change it. */
  messages: readonly Message[];
  /**
   * With a `telemetry` option: the OpenTelemetry context of this call's `execute_tool` span. Pass it
   * as the parent of the tool's own spans (MCP tools do), so they join the run's trace.
   */
  telemetry?: TelemetryContext;
}

/**
 * What `execute` may return: text is sent as is, text with images as {@link toolContent} builds it,
 * any other JSON value as its JSON text.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: lets `execute` be a function that returns nothing
export type ToolOutput = string | JsonValue | ToolContent | undefined | void;

/** The arguments after validation, or what was wrong with them. */
export type ParsedArgs<Args> =
  | {
      /** The arguments are valid. */
      ok: true;
      /** The arguments as the schema outputs them (defaults filled in, transforms applied). */
      args: Args;
    }
  | {
      /** The arguments are invalid. */
      ok: false;
      /** What is wrong with them, field by field; the model is told it. */
      message: string;
    };

/**
 * A tool the agent can run. Build one with {@link defineTool}. `Tool<unknown>` accepts every tool,
 * whatever its arguments. `Name` is the tool's name as a literal type and `Input` the arguments as the
 * model sends them (the schema's input type); with them a run types its tool calls per tool.
 */
export interface Tool<Args = JsonObject, Name extends string = string, Input = Args> {
  /** The name the model calls the tool by. */
  readonly name: Name;
  /** What the tool does and when to use it, for the model. */
  readonly description: string;
  /** The JSON Schema of the input, as sent to the provider. */
  readonly inputSchema: JsonObject;
  /** Longest time `execute` may take; overrides the run's `toolTimeoutMs`. */
  readonly timeoutMs?: number;
  /** Whether a call waits for a person's approval before it runs (see {@link NeedsApproval}). */
  readonly needsApproval?: NeedsApproval<Args>;
  /**
   * `false` when the tool only reads (it changes nothing outside the run): a permission policy in
   * `plan` mode runs it. Absent or `true`: it may have side effects, and `plan` mode refuses it.
   */
  readonly sideEffects?: boolean;
  /**
   * The tool's permission class (`"edit"`, say): a permission policy in `acceptEdits` mode runs the
   * tools whose class it accepts without asking. Absent: no class.
   */
  readonly permissionClass?: string;
  /** Validates the model's arguments. Absent for plain JSON Schema tools, whose arguments pass as they are. */
  parseArgs?(args: JsonObject): Promise<ParsedArgs<Args>>;
  /** Runs the tool. A throw becomes an error result the model can read. */
  execute(args: Args, context: ToolContext): ToolOutput | Promise<ToolOutput>;
  /** Type-level only, never set at run time: the arguments as the model sends them. */
  readonly "~input"?: Input | undefined;
}

/**
 * Whether a tool call waits for a person: `true` for every call, or a function of the validated
 * arguments (`false` lets the call run). A call that waits ends the run with stopReason `approval`;
 * `session.resume` decides it. A function that throws fails the call (it does not run).
 */
export type NeedsApproval<Args> =
  | boolean
  // Method syntax, so a tool of specific arguments is still a Tool<unknown> (as `execute` is).
  | {
      /** Decides one call from its validated arguments: `true` makes it wait for a person. */
      check(args: Args, context: ToolContext): boolean | Promise<boolean>;
    }["check"];

interface ToolBase<Name extends string> {
  /** Letters, digits, `_` and `-`, at most 64 characters (what every provider accepts). */
  name: Name;
  /** What the tool does and when to use it; the model reads it to decide when to call the tool. */
  description: string;
  /**
   * Longest time `execute` may take, in milliseconds; overrides the run's `toolTimeoutMs` (default 2
   * minutes).
   */
  timeoutMs?: number;
  /**
   * `false` declares that the tool only reads: it changes nothing outside the run, so a permission
   * policy in `plan` mode lets it run. Default: it may have side effects (`plan` mode refuses it).
   */
  sideEffects?: boolean;
  /**
   * The tool's permission class, such as `"edit"` for a tool that edits the user's files: a permission
   * policy in `acceptEdits` mode runs the classes it accepts (default `["edit"]`) without asking.
   * Letters, digits, `_` and `-`, at most 64 characters.
   */
  permissionClass?: string;
}

/** A tool whose input is a Standard Schema (a zod 4 object, for example). */
export interface SchemaToolDefinition<S extends StandardSchema, Name extends string = string>
  extends ToolBase<Name> {
  /** The schema of the arguments: it is sent as JSON Schema, and validates and types the arguments. */
  input: S;
  /** Whether a call waits for a person's approval before it runs. Default: it does not. */
  needsApproval?: NeedsApproval<InferOutput<S>>;
  /** The JSON Schema to send, for schemas that cannot convert themselves (zod/mini: `toJSONSchema(schema)`). */
  inputSchema?: JsonObject;
  /** Runs the tool with the validated arguments. A throw becomes an error result the model can read. */
  execute(args: InferOutput<S>, context: ToolContext): ToolOutput | Promise<ToolOutput>;
}

/** A tool described by a plain JSON Schema; its arguments are not validated. */
export interface JsonSchemaToolDefinition<Name extends string = string> extends ToolBase<Name> {
  /** The JSON Schema of the arguments (an object schema), sent to the provider as it is. */
  inputSchema: JsonObject;
  /** Whether a call waits for a person's approval before it runs. Default: it does not. */
  needsApproval?: NeedsApproval<JsonObject>;
  /**
   * Runs the tool with the model's arguments, unvalidated. A throw becomes an error result the model can
   * read.
   */
  execute(args: JsonObject, context: ToolContext): ToolOutput | Promise<ToolOutput>;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function invalid(message: string, path: string): ConfigError {
  return new ConfigError(message, { code: "CONFIG_INVALID", path });
}

/**
 * Defines a tool. With `input` (a Standard Schema such as a zod ≥ 4.2 object) the arguments are
 * validated and typed; with `inputSchema` alone they arrive as plain JSON. Throws a ConfigError at
 * definition time for a missing name, description or execute, or an input that cannot become JSON
 * Schema (the message says what to do: upgrade zod, pass `inputSchema`, or change the named field).
 *
 * @example
 * ```ts
 * const weather = defineTool({
 *   name: "get_weather",
 *   description: "Current weather for a city",
 *   input: z.object({ city: z.string() }),
 *   execute: async ({ city }, { signal }) => (await fetch(`https://wttr.in/${city}?format=3`, { signal })).text(),
 * });
 * ```
 */
export function defineTool<S extends StandardSchema, Name extends string>(
  definition: SchemaToolDefinition<S, Name>,
): Tool<InferOutput<S>, Name, InferInput<S>>;
export function defineTool<Name extends string>(
  definition: JsonSchemaToolDefinition<Name>,
): Tool<JsonObject, Name>;
export function defineTool(
  definition: SchemaToolDefinition<StandardSchema> | JsonSchemaToolDefinition,
): Tool<unknown> {
  if (typeof definition !== "object" || definition === null) {
    throw invalid("defineTool needs an object: { name, description, input, execute }", "");
  }
  const { name } = definition;
  if (typeof name !== "string" || !TOOL_NAME.test(name)) {
    throw invalid(`Tool name ${JSON.stringify(name) ?? "(missing)"} must match ${TOOL_NAME.source}`, "name");
  }
  if (typeof definition.description !== "string") {
    throw invalid(
      `Tool "${name}" needs a description (a string the model reads to decide when to call it)`,
      "description",
    );
  }
  if (typeof definition.execute !== "function") {
    throw invalid(`Tool "${name}" needs an execute function`, "execute");
  }
  const inputSchema = toolJsonSchema(
    name,
    "input" in definition ? definition.input : undefined,
    definition.inputSchema,
  );
  if (inputSchema.type !== "object") {
    throw invalid(`Tool "${definition.name}": the input schema must describe an object`, "inputSchema.type");
  }
  const tool: Tool<unknown> = {
    name: definition.name,
    description: definition.description,
    inputSchema,
    execute: definition.execute as Tool<unknown>["execute"],
  };
  if (definition.timeoutMs !== undefined) Object.assign(tool, { timeoutMs: definition.timeoutMs });
  const permission = toolPermissionProblem(definition);
  if (permission !== undefined) throw permission;
  for (const key of ["sideEffects", "permissionClass"] as const)
    if (definition[key] !== undefined) Object.assign(tool, { [key]: definition[key] });
  const { needsApproval } = definition;
  if (needsApproval !== undefined) {
    if (typeof needsApproval !== "boolean" && typeof needsApproval !== "function")
      throw invalid(`Tool "${name}": needsApproval must be true, false or a function`, "needsApproval");
    Object.assign(tool, { needsApproval });
  }
  if ("input" in definition) {
    const validate = definition.input["~standard"].validate;
    tool.parseArgs = async (args) => {
      const result = await validate(args);
      return result.issues === undefined
        ? { ok: true, args: result.value }
        : { ok: false, message: formatIssues(result.issues) };
    };
  }
  return tool;
}

/**
 * The first problem with a tool's `sideEffects` (a boolean) and `permissionClass` (letters, digits, `_`
 * and `-`, at most 64), as a ConfigError at `path` + the field; undefined when both are fine or absent.
 */
export function toolPermissionProblem(
  tool: { name?: unknown; sideEffects?: unknown; permissionClass?: unknown },
  path = "",
): ConfigError | undefined {
  const { sideEffects, permissionClass } = tool;
  const name = JSON.stringify(tool.name);
  if (sideEffects !== undefined && typeof sideEffects !== "boolean")
    return invalid(`Tool ${name}: sideEffects must be true or false`, `${path}sideEffects`);
  if (
    permissionClass !== undefined &&
    !(typeof permissionClass === "string" && PERMISSION_CLASS.test(permissionClass))
  )
    return invalid(
      `Tool ${name}: permissionClass must be 1 to 64 letters, digits, _ or -`,
      `${path}permissionClass`,
    );
  return undefined;
}

/** The provider-facing description of a tool. */
export function toolSpec(tool: Tool<unknown>): ToolSpec {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}
