/**
 * The `chat` span of one model turn, made from the turn's events: started at `turn-start`, given the
 * response's id, model, finish reason and token counts at `turn-end` (or the error at `error`), retries
 * as events; with a meter, the turn's duration and tokens as GenAI client metrics.
 *
 * @module
 */

import type { AssistantMessage, ModelRequest, ProviderId, TurnEvent } from "../types.ts";
import { genAiInstruments, providerName, recordError, SPAN_KIND, usageAttributes } from "./gen-ai.ts";
import type { Telemetry, TelemetryAttributes, TelemetryContext, TelemetrySpan } from "./telemetry-options.ts";
import { telemetryProblem } from "./telemetry-problem.ts";

/** The request parameters a `chat` span records. */
export interface TurnRequest {
  provider: ProviderId;
  model: string;
  maxTokens?: number | undefined;
  temperature?: number | undefined;
  stopSequences?: string[] | undefined;
  /** The turn's number in its run, when it belongs to one. */
  turn?: number;
  /** The base URL requests go to (its host is `server.address`: tells OpenAI-compatible servers apart). */
  baseURL?: string | undefined;
}

/** The host of `url`, or undefined. */
function hostOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}

/** The parts of an answer worth recording as content: text, and the tool calls. */
function outputMessages(message: AssistantMessage): string {
  const parts = message.content.flatMap((part): Array<Record<string, unknown>> => {
    if (part.type === "text") return [{ type: "text", content: part.text }];
    if (part.type === "tool_call")
      return [{ type: "tool_call", id: part.id, name: part.name, arguments: part.args }];
    return [];
  });
  return JSON.stringify([
    { role: "assistant", parts, finish_reason: message.rawStopReason ?? message.stopReason },
  ]);
}

/** One model turn's span: feed it the turn's events; it ends itself at `turn-end` or `error`. */
export class TurnTrace {
  readonly #telemetry: Telemetry;
  readonly #span: TelemetrySpan;
  readonly #request: TurnRequest;
  readonly #started = Date.now();
  #ended = false;

  constructor(telemetry: Telemetry, request: TurnRequest, parent: TelemetryContext | undefined) {
    this.#telemetry = telemetry;
    this.#request = request;
    const attributes: TelemetryAttributes = {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": providerName(request.provider),
      "gen_ai.request.model": request.model,
      "gen_ai.request.max_tokens": request.maxTokens,
      "gen_ai.request.temperature": request.temperature,
      "gen_ai.request.stop_sequences": request.stopSequences,
      "wisp.turn": request.turn,
      "server.address": hostOf(request.baseURL),
    };
    this.#span = telemetry.tracer.startSpan(
      `chat ${request.model}`,
      { kind: SPAN_KIND.client, attributes },
      parent,
    );
  }

  /** Records what the event says; ends the span at the turn's last event. */
  observe(event: TurnEvent): void {
    if (event.type === "retry") {
      this.#span.addEvent("wisp.retry", {
        "wisp.retry.attempt": event.attempt,
        "wisp.retry.delay_ms": event.delayMs,
        "error.type": event.error.code,
      });
    } else if (event.type === "turn-end") this.#end(event.message);
    else if (event.type === "error") this.#end(event.message, event.error);
  }

  /** Ends the span if the turn's events stopped before its end (the run was torn down). */
  end(): void {
    if (!this.#ended) {
      this.#ended = true;
      this.#span.end();
    }
  }

  #end(message: AssistantMessage, error?: { code: string; message: string }): void {
    if (this.#ended) return;
    const span = this.#span;
    const attributes: TelemetryAttributes = {
      "gen_ai.response.model": message.model,
      "gen_ai.response.id": message.responseId,
      "gen_ai.response.finish_reasons": [message.rawStopReason ?? message.stopReason],
      ...usageAttributes(message.usage),
    };
    if (this.#telemetry.recordContent === true)
      attributes["gen_ai.output.messages"] = outputMessages(message);
    span.setAttributes(attributes);
    if (error !== undefined) recordError(span, error);
    this.end();
    const meter = this.#telemetry.meter;
    if (meter === undefined) return;
    const { duration, tokens } = genAiInstruments(meter);
    const common: TelemetryAttributes = {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": providerName(this.#request.provider),
      "gen_ai.request.model": this.#request.model,
      "gen_ai.response.model": message.model,
    };
    duration.record(
      (Date.now() - this.#started) / 1000,
      error === undefined ? common : { ...common, "error.type": error.code },
    );
    const usage = message.usage;
    tokens.record(usage.input + usage.cacheRead + usage.cacheWrite, {
      ...common,
      "gen_ai.token.type": "input",
    });
    tokens.record(usage.output, { ...common, "gen_ai.token.type": "output" });
  }
}

/**
 * Traces a standalone turn: checks the option, then returns `emit` wrapped so every event goes through
 * the turn's `chat` span first, a child of `telemetry.parent`; or what is wrong with the option.
 */
export function traceTurn(
  emit: (event: TurnEvent) => void,
  telemetry: Telemetry,
  request: ModelRequest,
  provider: ProviderId,
  model: string,
  baseURL: string,
): { emit: (event: TurnEvent) => void } | { message: string; path: string } {
  const wrong = telemetryProblem(telemetry, "telemetry");
  if (wrong !== undefined) return wrong;
  const { maxTokens, temperature, stopSequences } = request;
  const trace = new TurnTrace(
    telemetry,
    { provider, model, maxTokens, temperature, stopSequences, baseURL },
    telemetry.parent,
  );
  return {
    emit: (event) => {
      trace.observe(event);
      emit(event);
    },
  };
}
