/**
 * JSON parsing of SSE `data:` payloads with a typed failure: malformed JSON becomes a ParseError
 * (STREAM_MALFORMED) that names the provider and shows the start of the bad payload.
 *
 * @module
 */

import { ParseError } from "../errors/sdk-error.ts";

/** A JSON object from a stream event. */
export type EventData = Record<string, unknown>;

/** Parses `data` as a JSON object or throws ParseError. */
export function parseEventData(data: string, provider: string): EventData {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    throw new ParseError(`Malformed JSON in the ${provider} stream: ${data.slice(0, 120)}`, {
      code: "STREAM_MALFORMED",
      provider,
      cause: error,
    });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ParseError(`Expected a JSON object in the ${provider} stream: ${data.slice(0, 120)}`, {
      code: "STREAM_MALFORMED",
      provider,
    });
  }
  return value as EventData;
}

/** Reads a property as an object, or undefined. */
export function objectAt(value: unknown, key: string): EventData | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const child = (value as EventData)[key];
  return typeof child === "object" && child !== null && !Array.isArray(child)
    ? (child as EventData)
    : undefined;
}

/** Reads a property as a string, or undefined. */
export function stringAt(value: EventData | undefined, key: string): string | undefined {
  const child = value?.[key];
  return typeof child === "string" ? child : undefined;
}

/** Reads a property as a finite number, or 0. */
export function numberAt(value: EventData | undefined, key: string): number {
  const child = value?.[key];
  return typeof child === "number" && Number.isFinite(child) ? child : 0;
}

/** The error thrown when a stream ends before its terminal event. */
export function truncatedStream(provider: string, detail: string): ParseError {
  return new ParseError(`The ${provider} stream ended before ${detail}`, {
    code: "STREAM_TRUNCATED",
    retryable: true,
    provider,
  });
}
