/**
 * A tool's input as JSON Schema, or a ConfigError that says exactly what to do: which schema
 * libraries describe themselves (zod ≥ 4.2 via Standard JSON Schema), what to upgrade or pass
 * instead (zod 3, zod 4.0/4.1, valibot), and which field cannot be represented (`z.date()`).
 *
 * @module
 */

import { messageOf } from "../errors/message-of.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import type { JsonObject } from "../types.ts";
import type { StandardSchema } from "./standard-schema.ts";

function invalid(message: string, path: string): ConfigError {
  return new ConfigError(message, { code: "CONFIG_INVALID", path });
}

/** zod's version as "major.minor" (zod 4 keeps it on `_zod.version`; zod 3 has `_def` and no `_zod`). */
function zodVersion(schema: unknown): string | undefined {
  const internals = (schema as { _zod?: { version?: { major?: number; minor?: number } } })._zod;
  if (internals?.version?.major !== undefined)
    return `${internals.version.major}.${internals.version.minor ?? 0}`;
  return (schema as { _def?: unknown })._def !== undefined ? "3" : undefined;
}

/** Why a schema without a converter has none, and what to do about it. */
function noConverter(tool: string, schema: StandardSchema): ConfigError {
  const vendor = schema["~standard"].vendor;
  const prefix = `Tool "${tool}": its input schema cannot describe itself as JSON Schema`;
  if (vendor === "zod") {
    const version = zodVersion(schema) ?? "older than 4.2";
    const how =
      version === "3"
        ? "pass inputSchema (a JSON Schema object)"
        : "pass inputSchema: z.toJSONSchema(schema)";
    return invalid(
      `${prefix} (zod ${version}; zod does from 4.2 on): upgrade with npm install zod@^4.2, or ${how}`,
      "input",
    );
  }
  if (vendor === "valibot") {
    return invalid(
      `${prefix} (valibot): pass inputSchema: toJsonSchema(schema) from @valibot/to-json-schema`,
      "input",
    );
  }
  return invalid(
    `${prefix} (${vendor}): pass inputSchema, a JSON Schema object describing the arguments`,
    "input",
  );
}

/** The fields of an object schema (zod keeps them on `shape`). */
function fieldsOf(schema: unknown): Record<string, unknown> | undefined {
  const shape = (schema as { shape?: unknown } | null)?.shape;
  return typeof shape === "object" && shape !== null ? (shape as Record<string, unknown>) : undefined;
}

/** The path of the first field whose own conversion fails, searching nested objects. */
function failingField(schema: unknown, path: string[] = [], depth = 0): string[] | undefined {
  const fields = fieldsOf(schema);
  if (fields === undefined || depth > 20) return undefined;
  for (const [key, field] of Object.entries(fields)) {
    const converter = (field as Partial<StandardSchema> | null)?.["~standard"]?.jsonSchema;
    if (converter === undefined) continue;
    try {
      converter.input({ target: "draft-2020-12" });
    } catch {
      return failingField(field, [...path, key], depth + 1) ?? [...path, key];
    }
  }
  return undefined;
}

/** The JSON Schema of a tool's input: `inputSchema` when given, else the schema's own conversion. */
export function toolJsonSchema(
  tool: string,
  input: StandardSchema | undefined,
  inputSchema: unknown,
): JsonObject {
  if (input !== undefined && typeof input?.["~standard"]?.validate !== "function") {
    throw invalid(
      `Tool "${tool}": input must be a Standard Schema (zod ≥ 4.2, valibot, arktype); for a plain JSON Schema pass inputSchema instead`,
      "input",
    );
  }
  if (inputSchema !== undefined) {
    if (typeof inputSchema !== "object" || inputSchema === null || Array.isArray(inputSchema)) {
      throw invalid(`Tool "${tool}": inputSchema must be a JSON Schema object`, "inputSchema");
    }
    return inputSchema as JsonObject;
  }
  if (input === undefined) throw invalid(`Tool "${tool}": give input (a schema) or inputSchema`, "input");
  const converter = input["~standard"]?.jsonSchema;
  if (converter === undefined) throw noConverter(tool, input);
  try {
    const { $schema: _, ...converted } = converter.input({ target: "draft-2020-12" });
    return converted as JsonObject;
  } catch (error) {
    const field = failingField(input);
    const where = field === undefined ? "its input" : `field "${field.join(".")}"`;
    throw invalid(
      `Tool "${tool}": ${where} cannot become JSON Schema (${messageOf(error)}); use a JSON type (a date as z.iso.datetime()), or pass inputSchema`,
      field === undefined ? "input" : `input.${field.join(".")}`,
    );
  }
}
