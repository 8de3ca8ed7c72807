/**
 * The spans of one run, made from its events: `invoke_agent` for the run (the parent of the rest),
 * `chat` per model turn ({@link TurnTrace}), `execute_tool` per tool call; approvals asked for and
 * decided, compaction, hook failures and prompt-cache misses as events of the run's span. Loaded only
 * by runs given `telemetry`.
 *
 * @module
 */

import { providerName, recordError, SPAN_KIND, usageAttributes } from "../telemetry/gen-ai.ts";
import type {
  Telemetry,
  TelemetryAttributes,
  TelemetryContext,
  TelemetrySpan,
} from "../telemetry/telemetry-options.ts";
import { telemetryProblem } from "../telemetry/telemetry-problem.ts";
import { contextWithSpan } from "../telemetry/trace-context.ts";
import { type TurnRequest, TurnTrace } from "../telemetry/turn-trace.ts";
import type { ProviderId, TurnEvent } from "../types.ts";
import type { AgentEvent } from "./agent-events.ts";
import type { AgentConfig } from "./agent-options.ts";
import type { ApprovalDecision } from "./approvals.ts";

/** What a run's trace knows of the run before it starts. */
export interface TracedRun {
  telemetry: Telemetry;
  maxTokens?: number | undefined;
  temperature?: number | undefined;
  stopSequences?: string[] | undefined;
  /** The `baseURL` option, when given (an OpenAI-compatible server's: its host is `server.address`). */
  baseURL?: string | undefined;
  /** A resume's decisions: recorded on the run's span (who decided, what). */
  decisions?: readonly ApprovalDecision[] | undefined;
}

/** One run's spans; {@link observe} each event before it is emitted. */
export class RunTrace {
  readonly #run: TracedRun;
  #span: TelemetrySpan | undefined;
  #context: TelemetryContext | undefined;
  #turn: TurnTrace | undefined;
  readonly #tools = new Map<string, TelemetrySpan>();
  #provider: ProviderId | undefined;
  #prompted = false;

  constructor(run: TracedRun) {
    this.#run = run;
  }

  /** The context of a tool call's `execute_tool` span (the tool's own work is its child). */
  toolContext(toolCallId: string): TelemetryContext | undefined {
    const span = this.#tools.get(toolCallId);
    return span === undefined ? this.#context : contextWithSpan(this.#run.telemetry.parent, span);
  }

  /**
   * The run's telemetry with the run's span as the parent: what a model call the run makes outside its
   * turns (compaction's summary) is traced with, so its `chat` span sits in the run's trace.
   */
  childTelemetry(): Telemetry {
    const context = this.#context;
    return context === undefined ? this.#run.telemetry : { ...this.#run.telemetry, parent: context };
  }

  /** Records what the event says. */
  observe(event: AgentEvent): void {
    switch (event.type) {
      case "run-start":
        this.#start(event.sessionId, event.provider, event.model);
        return;
      case "turn-start":
        this.#turn?.end();
        this.#turn = this.#startTurn(event.turn, event.model);
        return;
      case "retry":
      case "turn-end":
      case "error":
        this.#turn?.observe(event as TurnEvent);
        return;
      case "message":
        if (!this.#prompted && event.message.role === "user") {
          this.#prompted = true;
          if (this.#run.telemetry.recordContent === true) {
            const parts = event.message.content.map(
              (part): Record<string, string> =>
                part.type === "text" ? { type: "text", content: part.text } : { type: part.type },
            );
            this.#span?.setAttributes({ "gen_ai.input.messages": JSON.stringify([{ role: "user", parts }]) });
          }
        }
        return;
      case "tool-start":
        this.#startTool(event.toolCall.id, event.toolCall.name, event.toolCall.args);
        return;
      case "tool-result":
        this.#endTool(event.toolCall.id, event.result.output, event.error);
        return;
      case "approval-requested":
        this.#span?.addEvent("wisp.approval.requested", {
          "gen_ai.tool.name": event.approval.toolName,
          "gen_ai.tool.call.id": event.approval.toolCallId,
          // A reason is content (it may quote the arguments): only when content is recorded.
          "wisp.approval.reason":
            this.#run.telemetry.recordContent === true ? event.approval.reason : undefined,
        });
        return;
      case "question-requested":
        this.#span?.addEvent("wisp.question.requested", {
          "gen_ai.tool.name": event.question.toolName,
          "gen_ai.tool.call.id": event.question.toolCallId,
          "wisp.question.count": event.question.questions.length,
        });
        return;
      case "hook-error":
        this.#span?.addEvent("wisp.hook.error", {
          "wisp.hook.event": event.event,
          "wisp.hook.name": event.hook,
          "error.type": event.error.code,
          "wisp.hook.policy": event.policy,
        });
        return;
      case "compaction":
        this.#span?.addEvent("wisp.compaction", {
          "wisp.compaction.reason": event.reason,
          "wisp.compaction.summarized": event.summarized,
          "wisp.compaction.tokens": event.tokens,
        });
        return;
      case "cache-miss":
        this.#span?.addEvent("wisp.cache_miss", {
          "wisp.turn": event.turn,
          "wisp.cache_miss.reason": event.reason,
        });
        return;
      case "run-end":
        this.#end(event);
        return;
      default:
        return;
    }
  }

  #start(sessionId: string, provider: ProviderId, model: string): void {
    const { telemetry, decisions } = this.#run;
    this.#provider = provider;
    const attributes: TelemetryAttributes = {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.provider.name": providerName(provider),
      "gen_ai.request.model": model,
      "gen_ai.conversation.id": sessionId,
    };
    if (decisions !== undefined) attributes["wisp.resume"] = true;
    const span = telemetry.tracer.startSpan(
      "invoke_agent",
      { kind: SPAN_KIND.internal, attributes },
      telemetry.parent,
    );
    this.#span = span;
    this.#context = contextWithSpan(telemetry.parent, span);
    for (const decision of decisions ?? []) {
      span.addEvent("wisp.approval.decided", {
        "gen_ai.tool.call.id": decision.toolCallId,
        "wisp.approval.approved": decision.approved,
        "wisp.approval.decided_by": decision.decidedBy,
        "wisp.approval.always": decision.always,
        "wisp.approval.reason": telemetry.recordContent === true ? decision.reason : undefined,
      });
    }
  }

  #startTurn(turn: number, model: string): TurnTrace {
    const request: TurnRequest = {
      provider: this.#provider ?? "anthropic",
      model,
      maxTokens: this.#run.maxTokens,
      temperature: this.#run.temperature,
      stopSequences: this.#run.stopSequences,
      baseURL: this.#run.baseURL,
      turn,
    };
    return new TurnTrace(this.#run.telemetry, request, this.#context);
  }

  #startTool(id: string, name: string, args: unknown): void {
    const attributes: TelemetryAttributes = {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": name,
      "gen_ai.tool.call.id": id,
      "gen_ai.tool.type": "function",
    };
    if (this.#run.telemetry.recordContent === true)
      attributes["gen_ai.tool.call.arguments"] = JSON.stringify(args);
    const span = this.#run.telemetry.tracer.startSpan(
      `execute_tool ${name}`,
      { kind: SPAN_KIND.internal, attributes },
      this.#context,
    );
    this.#tools.set(id, span);
  }

  #endTool(id: string, content: unknown, error?: { code: string; message: string }): void {
    const span = this.#tools.get(id);
    if (span === undefined) return;
    this.#tools.delete(id);
    if (this.#run.telemetry.recordContent === true) {
      span.setAttributes({ "gen_ai.tool.call.result": JSON.stringify(content) });
    }
    if (error !== undefined) recordError(span, error);
    span.end();
  }

  #end(event: Extract<AgentEvent, { type: "run-end" }>): void {
    this.#turn?.end();
    for (const span of this.#tools.values()) span.end();
    this.#tools.clear();
    const span = this.#span;
    if (span === undefined) return;
    const result = event.result;
    const value = result.ok ? result.value : result.partial;
    span.setAttributes({
      ...usageAttributes(value.usage),
      "gen_ai.response.finish_reasons": [value.stopReason],
      "wisp.turns": value.turns,
      "wisp.approval.pending": value.pendingApprovals?.length,
      "wisp.cost_usd": value.usage.costUsd,
    });
    if (!result.ok) recordError(span, result.error);
    span.end();
  }
}

/**
 * Traces `run` (its config has `telemetry`): checks the option, then sends every event through a
 * {@link RunTrace} before it is emitted and gives the run the trace (for its tools' contexts). Returns
 * what is wrong with the option instead, when something is (the caller makes it a ConfigError).
 */
export function traceRun(
  run: { emit: (event: AgentEvent) => void; trace?: RunTrace },
  config: AgentConfig,
  decisions: readonly ApprovalDecision[] | undefined,
): { message: string; path: string } | undefined {
  const wrong = telemetryProblem(config.telemetry, "telemetry");
  if (wrong !== undefined || config.telemetry === undefined) return wrong;
  const trace = new RunTrace({
    telemetry: config.telemetry,
    maxTokens: config.maxTokens,
    temperature: config.temperature,
    stopSequences: config.stopSequences,
    baseURL: config.baseURL,
    decisions,
  });
  const emit = run.emit;
  run.emit = (event) => {
    trace.observe(event);
    emit(event);
  };
  run.trace = trace;
  return undefined;
}
