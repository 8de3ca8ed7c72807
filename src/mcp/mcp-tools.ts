/**
 * MCP tools as Wisp tools: `tools/list` read page by page, each tool's name made one every provider
 * accepts (with an optional prefix), its arguments checked against its `inputSchema` by Wisp's own
 * JSON Schema checker (no code generation), and its calls sent as `tools/call` with the run's signal.
 *
 * @module
 */

import type { Tool } from "../agent/define-tool.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import type { JsonObject, JsonValue } from "../types.ts";
import { asObject } from "./as-object.ts";
import { callResultOutput } from "./call-result.ts";
import { checkJsonSchema, formatSchemaIssues } from "./json-schema-check.ts";
import { listPages } from "./list-pages.ts";
import type { McpClient, McpProgress } from "./mcp-client.ts";
import { annotationPermissions } from "./mcp-permissions.ts";

/** A tool as the MCP server describes it in `tools/list`. */
export interface McpToolInfo {
  /** The server's name for it (the Wisp tool's name may differ: prefixed, made provider-safe). */
  name: string;
  /** A human-readable name; the tool's description falls back to it. */
  title?: string;
  /**
   * What the tool does, sent to the model as the Wisp tool's description (default: the title, or `The MCP
   * tool <name>`).
   */
  description?: string;
  /**
   * The JSON Schema of the tool's arguments; Wisp checks the model's arguments against it before the call.
   */
  inputSchema: JsonObject;
  /** The JSON Schema of the tool's `structuredContent`; a result that does not match fails the call. */
  outputSchema?: JsonObject;
  /**
   * The server's hints about the tool (`readOnlyHint`, `destructiveHint`, …), as it sent them; a
   * `needsApproval` function can go by them, and a permission policy does (see mcp-permissions.ts).
   */
  annotations?: JsonObject;
}

/** What the Wisp tools of one connection share. */
export interface McpToolContext {
  client: McpClient;
  prefix: string;
  needsApproval?: boolean | ((tool: McpToolInfo) => boolean) | undefined;
  onProgress?: ((tool: string, progress: McpProgress) => void) | undefined;
  onResult?: ((tool: string, result: JsonObject) => void) | undefined;
}

/** Reads one tool descriptor; undefined for one without a name. */
function toolInfo(value: JsonValue): McpToolInfo | undefined {
  const raw = asObject(value);
  if (raw === undefined || typeof raw.name !== "string" || raw.name === "") return undefined;
  const info: McpToolInfo = { name: raw.name, inputSchema: asObject(raw.inputSchema) ?? { type: "object" } };
  if (typeof raw.title === "string") info.title = raw.title;
  if (typeof raw.description === "string") info.description = raw.description;
  const outputSchema = asObject(raw.outputSchema);
  if (outputSchema !== undefined) info.outputSchema = outputSchema;
  const annotations = asObject(raw.annotations);
  if (annotations !== undefined) info.annotations = annotations;
  return info;
}

/** Every tool the server lists, following `nextCursor` page by page. */
export function listMcpTools(client: McpClient, signal?: AbortSignal): Promise<McpToolInfo[]> {
  return listPages(client, "tools/list", "tools", toolInfo, signal);
}

/** `prefix + name` with every character providers refuse turned into `_`, at most 64 characters. */
export function wispToolName(prefix: string, name: string): string {
  return `${prefix}${name}`.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

/** One MCP tool as a Wisp tool. */
function toWispTool(info: McpToolInfo, context: McpToolContext): Tool<JsonObject> {
  const name = wispToolName(context.prefix, info.name);
  const inputSchema: JsonObject = { ...info.inputSchema, type: "object" };
  const { needsApproval } = context;
  const waits = typeof needsApproval === "function" ? needsApproval(info) : needsApproval === true;
  return {
    ...(waits ? { needsApproval: true } : {}),
    ...annotationPermissions(info.annotations),
    name,
    description: info.description ?? info.title ?? `The MCP tool ${info.name}`,
    inputSchema,
    async parseArgs(args) {
      const issues = checkJsonSchema(inputSchema, args);
      return issues.length === 0 ? { ok: true, args } : { ok: false, message: formatSchemaIssues(issues) };
    },
    async execute(args, { signal, telemetry }) {
      const onProgress = context.onProgress;
      const result = await context.client.request(
        "tools/call",
        { name: info.name, arguments: args },
        {
          signal,
          onProgress: onProgress === undefined ? undefined : (progress) => onProgress(name, progress),
          parent: telemetry,
        },
      );
      context.onResult?.(name, result);
      return callResultOutput(result, info.outputSchema);
    },
  };
}

/** The Wisp tools of a server's list; a ConfigError when two would share a name. */
export function toWispTools(infos: readonly McpToolInfo[], context: McpToolContext): Tool<JsonObject>[] {
  const byName = new Map<string, string>();
  return infos.map((info) => {
    const tool = toWispTool(info, context);
    const earlier = byName.get(tool.name);
    if (earlier !== undefined) {
      throw new ConfigError(
        `The MCP tools "${earlier}" and "${info.name}" would both be called "${tool.name}" (provider-safe names are letters, digits, _ and -, at most 64)`,
        { code: "CONFIG_INVALID", path: "tools" },
      );
    }
    byName.set(tool.name, info.name);
    return tool;
  });
}
