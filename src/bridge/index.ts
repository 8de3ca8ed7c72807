/**
 * Layer `modules` (docs/architecture.md): the subpath entries: bridge, effect, formats, mcp, testing.
 *
 * `wisp-agent/bridge`: a session behind a MessagePort. The session — its tools, hooks, provider key
 * and fetch — lives in a Web Worker or worker thread ({@link serveSession}); the main thread drives
 * it with the session's own shape and answers its questions ({@link connectSession}). Everything
 * that crosses is plain, structured-clone-safe data; errors arrive as real SdkErrors.
 *
 * @module wisp-agent/bridge
 */

export type { ServeBridgeOptions } from "./bridge-options.ts";
export {
  type ConnectSessionOptions,
  connectSession,
  type RemoteSession,
} from "./connect-session.ts";
export {
  type ApprovalAnswer,
  type BridgeReport,
  DECISION_KINDS,
  DEFAULT_DECISION_TIMEOUTS,
  type DecisionAnswer,
  type DecisionAnswers,
  type DecisionHandler,
  type DecisionHandlers,
  type DecisionHints,
  type DecisionKind,
  type DecisionRequest,
  type DecisionRequestOf,
  type QuestionDecision,
} from "./decisions.ts";
export type { BridgePort } from "./endpoint.ts";
export {
  HOOK_FEED_KINDS,
  type HookFeedEvent,
  type HookFeedHints,
  type HookFeedKind,
  type HookFeedListener,
} from "./hook-feed.ts";
export { BRIDGE_PROTOCOL_VERSION } from "./protocol.ts";
export { type ServeSessionOptions, type SessionServer, serveSession } from "./serve-session.ts";
