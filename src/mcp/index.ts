/**
 * Layer `modules` (docs/architecture.md): the subpath entries: bridge, effect, formats, mcp, testing.
 *
 * `wisp-agent/mcp`: tools from MCP servers over Streamable HTTP, fetch-only — the same code in a
 * browser, a Worker (no `nodejs_compat`), Deno, Bun and Node. Tool arguments are checked without
 * code generation. See docs/mcp.md.
 *
 * @example
 * ```ts
 * import { connectMcp } from "wisp-agent/mcp";
 * const mcp = await connectMcp({ url: "http://127.0.0.1:3000/mcp", prefix: "notes_" });
 * if (mcp.ok) console.log(mcp.value.tools.map((tool) => tool.name));
 * ```
 *
 * @module wisp-agent/mcp
 */

export { McpToolFailure } from "./call-result.ts";
export {
  type ConnectMcpOptions,
  connectMcp,
  DEFAULT_MCP_TIMEOUT_MS,
  DEFAULT_MCP_TOTAL_TIMEOUT_FACTOR,
  type McpConnection,
} from "./connect-mcp.ts";
export type { McpElicitationHandler, McpElicitationRequest, McpElicitationResult } from "./elicitation.ts";
export {
  type CheckJsonSchemaOptions,
  checkJsonSchema,
  formatSchemaIssues,
  type SchemaIssue,
} from "./json-schema-check.ts";
export { MCP_AUTH_MAX_ATTEMPTS, type McpAuth, type McpAuthContext } from "./mcp-auth.ts";
export type { McpCloseOptions, McpProgress } from "./mcp-client.ts";
export { MCP_METADATA_KEY, type McpServerRecord, mcpMetadata, mcpServerRecord } from "./mcp-metadata.ts";
export type { McpSessionOptions } from "./mcp-options.ts";
export { type McpToolInfo, wispToolName } from "./mcp-tools.ts";
export type { TokenEndpointAuthMethod } from "./oauth/client-auth.ts";
export {
  type McpClientCredentialsOptions,
  type McpClientSecretCredentials,
  type McpPrivateKeyCredentials,
  mcpClientCredentials,
} from "./oauth/client-credentials.ts";
export type { JwtAlgorithm } from "./oauth/jwt-assertion.ts";
export { type FinishMcpOAuthOptions, finishMcpOAuth, mcpOAuth } from "./oauth/mcp-oauth.ts";
export type {
  McpAuthorizeContext,
  McpOAuthOptions,
  McpPreRegisteredClient,
} from "./oauth/mcp-oauth-options.ts";
export type { McpAuthReason } from "./oauth/oauth-failures.ts";
export type { McpClientMetadata } from "./oauth/registration.ts";
export { type McpAuthStorage, memoryAuthStorage } from "./oauth/storage.ts";
export type { McpPrompt, McpPromptArgument, McpPromptMessage, McpPromptResult } from "./prompts.ts";
export { MCP_LATEST_PROTOCOL_VERSION, MCP_PROTOCOL_VERSIONS } from "./protocol-versions.ts";
export {
  type McpResource,
  type McpResourceContents,
  type McpResourceTemplate,
  resourceParts,
} from "./resources.ts";
