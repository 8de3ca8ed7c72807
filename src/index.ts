/**
 * Layer `index` (docs/architecture.md): the package entry: public exports, listed by name.
 *
 * Wisp: a web-standards agent SDK. This entry point lists every public export by name.
 *
 * @example
 * ```ts
 * import { defineTool, runAgent } from "wisp-agent";
 * import { z } from "zod";
 * const add = defineTool({ name: "add", description: "Adds", input: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b });
 * const result = await runAgent({ model: "anthropic/claude-sonnet-5-5", apiKey, prompt: "2+3?", tools: [add] });
 * if (result.ok) console.log(result.value.text);
 * ```
 *
 * @module wisp-agent
 */

export type {
  AgentEvent,
  AgentResult,
  AgentRun,
  AgentRunResult,
  ToolCallRecord,
} from "./agent/agent-events.ts";
export type { AgentConfig, AgentOptions } from "./agent/agent-options.ts";
export { agentOptions, DEFAULT_MAX_STOP_BLOCKS, DEFAULT_TOOL_TIMEOUT_MS } from "./agent/agent-options.ts";
export type {
  ApprovalDecision,
  ApprovalDecisionFields,
  PendingApproval,
  StoredApproval,
  ToolPermissions,
  TypedPendingApproval,
} from "./agent/approvals.ts";
export type { AskUserInput, AskUserToolOptions } from "./agent/ask-user-tool.ts";
export { ASK_USER_TOOL_NAME, askUserTool } from "./agent/ask-user-tool.ts";
export type { Budget, BudgetDetails, BudgetScope } from "./agent/budget.ts";
export { DEFAULT_MAX_TURNS } from "./agent/budget.ts";
export type { DecidedBy } from "./agent/decided-by.ts";
export type {
  JsonSchemaToolDefinition,
  NeedsApproval,
  ParsedArgs,
  SchemaToolDefinition,
  Tool,
  ToolContext,
  ToolOutput,
} from "./agent/define-tool.ts";
export { defineTool } from "./agent/define-tool.ts";
export type {
  HookDecisions,
  HookEntry,
  HookEvent,
  HookFailurePolicy,
  HookHandler,
  HookInputBase,
  HookInputs,
  HookList,
  Hooks,
  PostToolUseDecision,
  PostToolUseFailureDecision,
  PreCompactDecision,
  PreToolUseDecision,
  PromptDecision,
  StopHookDecision,
  StopRunDecision,
} from "./agent/hooks.ts";
export { DEFAULT_HOOK_FAILURE_POLICY, DEFAULT_HOOK_TIMEOUTS } from "./agent/hooks.ts";
export type {
  PermissionMode,
  PermissionPolicy,
  PermissionRule,
  PermissionVerdict,
} from "./agent/permission-policy.ts";
export { DEFAULT_ACCEPT_CLASSES } from "./agent/permission-policy.ts";
export type {
  AnsweredReply,
  PendingQuestion,
  Question,
  QuestionAnswer,
  QuestionOption,
  QuestionReply,
  StoredQuestion,
  UnansweredReply,
} from "./agent/questions.ts";
export type { Err, Ok, Result } from "./agent/result.ts";
export type { TryCatchResult } from "./agent/result-helpers.ts";
export {
  all,
  andThen,
  err,
  isErr,
  isOk,
  map,
  mapErr,
  ok,
  tryCatch,
  unwrap,
  unwrapOr,
} from "./agent/result-helpers.ts";
export { runAgent, runAgentStream } from "./agent/run-agent.ts";
export type { ToolContent } from "./agent/tool-output.ts";
export { toolContent } from "./agent/tool-output.ts";
export type { AnyTool, ArgsOf, JsonShaped, ToolsOf, TypedToolCall } from "./agent/typed-tool-call.ts";
export type { CompactionOptions } from "./compaction/compaction-options.ts";
export type { CompactionEvent, CompactionReason, CompactionState } from "./compaction/compaction-state.ts";
export type { ProviderFailure, ThrownContext } from "./errors/classify.ts";
export {
  classifyProviderFailure,
  classifyThrown,
  isRetryableCode,
  retryAfterFromHeaders,
} from "./errors/classify.ts";
export { isNetworkFailure } from "./errors/network-failure.ts";
export { parseRetryDelay } from "./errors/retry-delay.ts";
export type {
  AnySdkError,
  BudgetErrorCode,
  ConfigErrorCode,
  ErrorCode,
  ErrorTag,
  FailedRequest,
  HookErrorCode,
  ParseErrorCode,
  ProviderErrorCode,
  RequestErrorCode,
  SdkErrorFields,
  SerializedCause,
  SerializedSdkError,
  ToolErrorCode,
} from "./errors/sdk-error.ts";
export {
  AbortError,
  BudgetError,
  ConfigError,
  HookError,
  isSdkError,
  ParseError,
  ProviderError,
  RequestError,
  SdkError,
  sdkErrorFromJSON,
  ToolError,
} from "./errors/sdk-error.ts";
export { toSdkError } from "./errors/to-sdk-error.ts";
export type { RetryOptions } from "./http/retry-policy.ts";
export { DEFAULT_RETRY } from "./http/retry-policy.ts";
export type {
  AnthropicModelId,
  GeminiModelId,
  KnownModelName,
  ModelName,
  ModelOption,
  OpenAIModelId,
  UncheckedModel,
} from "./providers/model-name.ts";
export { uncheckedModel } from "./providers/model-name.ts";
export type { CompatOptions } from "./providers/provider.ts";
export type { ProviderName } from "./providers/registry.ts";
export { resolveModel } from "./providers/registry.ts";
export { formatIssues } from "./schema/format-issues.ts";
export type { InferOutput, StandardIssue, StandardResult, StandardSchema } from "./schema/standard-schema.ts";
export type { AgentSession, ResumeOptions, SessionSnapshot } from "./session/agent-session.ts";
export { createAgentSession } from "./session/agent-session.ts";
export type { ExportOptions, SessionBranch } from "./session/branches.ts";
export type { CreateSessionOptions, MessageSession } from "./session/create-session.ts";
export { createSession, prompt } from "./session/create-session.ts";
export { joinStateTail } from "./session/join-state-tail.ts";
export { MIGRATIONS, parseSessionState } from "./session/parse-session-state.ts";
export type {
  AssistantSessionMessage,
  CanUseTool,
  CanUseToolContext,
  PermissionResult,
  ResultMessage,
  SendInput,
  SendUserMessage,
  SessionMessage,
  SystemInitMessage,
  UserSessionMessage,
} from "./session/session-messages.ts";
export type { ChatOptions, DeliveryMode, SessionOptions } from "./session/session-options.ts";
export { sessionOptions } from "./session/session-options.ts";
export type {
  QueuedPrompt,
  SessionParameters,
  SessionState,
  SessionStateTail,
  StoredBranch,
} from "./session/session-state.ts";
export { SESSION_STATE_VERSION } from "./session/session-state.ts";
export { MAX_STATE_MESSAGES, MAX_STATE_STRING } from "./state/state-limits.ts";
export type { TurnStream } from "./stream/stream-turn.ts";
export { streamTurn } from "./stream/stream-turn.ts";
export type { TurnOptions } from "./stream/turn-options.ts";
export type {
  Telemetry,
  TelemetryAttributes,
  TelemetryContext,
  TelemetryHistogram,
  TelemetryMeter,
  TelemetrySpan,
  TelemetrySpanContext,
  TelemetryTracer,
} from "./telemetry/telemetry-options.ts";
export type {
  AssistantContentPart,
  AssistantMessage,
  ContentPart,
  ImagePart,
  JsonObject,
  JsonValue,
  Message,
  ModelRequest,
  PromptCache,
  ProviderId,
  ProviderPart,
  RedactedThinkingPart,
  StopReason,
  TextPart,
  ThinkingLevel,
  ThinkingPart,
  ToolCallPart,
  ToolResultMessage,
  ToolResultPart,
  ToolSpec,
  TurnEvent,
  Usage,
  UserContentPart,
  UserMessage,
} from "./types.ts";
export { DEFAULT_PRICES } from "./usage/default-prices.ts";
export type { ModelPrice, PriceTable } from "./usage/prices.ts";
export { costOf, findPrice } from "./usage/prices.ts";
export { addUsage, emptyUsage, totalTokens } from "./usage/usage.ts";
