/**
 * What crosses the port is structured-clone safe: an SdkError posted as it is would arrive as a plain
 * `Error` without `_tag`, `code` or `retryable`. Errors travel as their JSON (`toJSON()`) in the
 * places the SDK puts them — an event's `error`, a result's `error` — and are rebuilt as real
 * SdkErrors on the other side. Only those places are read, so a tool's arguments that happen to look
 * like an error stay data.
 *
 * @module
 */

import type { AgentEvent, AgentRunResult } from "../agent/agent-events.ts";
import { messageOf } from "../errors/message-of.ts";
import {
  type AnySdkError,
  isSdkError,
  RequestError,
  type SerializedSdkError,
  sdkErrorFromJSON,
} from "../errors/sdk-error.ts";

/** Any thrown value as the JSON of an SdkError (one that is not an SdkError becomes a RequestError). */
export function errorToWire(error: unknown): SerializedSdkError {
  if (isSdkError(error)) return error.toJSON();
  return new RequestError(`The other side of the bridge failed: ${messageOf(error)}`, {
    code: "UNKNOWN",
  }).toJSON();
}

/** A live SdkError from what {@link errorToWire} made; anything else is a RequestError saying so. */
export function errorFromWire(value: unknown): AnySdkError {
  // Of what structured cloning delivers, only an object can carry a string `_tag`.
  if (typeof (value as { _tag?: unknown } | null | undefined)?._tag === "string")
    return sdkErrorFromJSON(value as SerializedSdkError);
  return new RequestError(`The bridge received an error it cannot read: ${messageOf(value)}`, {
    code: "UNKNOWN",
  });
}

/** A run's result for the port: its error as JSON. */
function resultToWire(result: AgentRunResult): unknown {
  return result.ok ? result : { ...result, error: errorToWire(result.error) };
}

/** A run's result from the port, its error a live SdkError again. */
function resultFromWire(value: unknown): AgentRunResult {
  const result = value as AgentRunResult;
  return result.ok ? result : { ...result, error: errorFromWire(result.error) };
}

/** An event for the port: the errors it carries as JSON. */
export function eventToWire(event: AgentEvent): unknown {
  if (event.type === "run-end") return { ...event, result: resultToWire(event.result) };
  if ("error" in event && event.error !== undefined) return { ...event, error: errorToWire(event.error) };
  return event;
}

/** An event from the port, its errors live SdkErrors again. */
export function eventFromWire(value: unknown): AgentEvent {
  const event = value as AgentEvent;
  if (event.type === "run-end") return { ...event, result: resultFromWire(event.result) };
  if ("error" in event && event.error !== undefined)
    return { ...event, error: errorFromWire(event.error) } as AgentEvent;
  return event;
}
