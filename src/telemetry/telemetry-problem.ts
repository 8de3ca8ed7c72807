/**
 * The check of the `telemetry` option: what Wisp calls must be there, so a wrong object is a
 * ConfigError at the start, not a TypeError in the middle of a run.
 *
 * @module
 */

import { invalidOption } from "../config/option-checks.ts";
import type { ConfigError } from "../errors/sdk-error.ts";

function hasMethod(value: unknown, name: string): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Record<string, unknown>)[name] === "function"
  );
}

/** What is wrong with a `telemetry` option, or undefined. */
export function telemetryProblem(value: unknown, path: string): ConfigError | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null) {
    return invalidOption(`${path} must be an object { tracer, meter?, parent?, recordContent? }`, path);
  }
  const { tracer, meter, parent, recordContent } = value as Record<string, unknown>;
  if (!hasMethod(tracer, "startSpan")) {
    return invalidOption(
      `${path}.tracer must be an OpenTelemetry tracer (trace.getTracer("my-app"))`,
      `${path}.tracer`,
    );
  }
  if (meter !== undefined && !hasMethod(meter, "createHistogram")) {
    return invalidOption(
      `${path}.meter must be an OpenTelemetry meter (metrics.getMeter("my-app"))`,
      `${path}.meter`,
    );
  }
  if (parent !== undefined && !hasMethod(parent, "getValue")) {
    return invalidOption(
      `${path}.parent must be an OpenTelemetry context (context.active())`,
      `${path}.parent`,
    );
  }
  if (recordContent !== undefined && typeof recordContent !== "boolean") {
    return invalidOption(`${path}.recordContent must be true or false`, `${path}.recordContent`);
  }
  return undefined;
}

/** What is wrong with a `traceParent` option (an OpenTelemetry context), or undefined. */
export function traceParentProblem(value: unknown, path: string): ConfigError | undefined {
  if (value === undefined || hasMethod(value, "getValue")) return undefined;
  return invalidOption(`${path} must be an OpenTelemetry context (context.active())`, path);
}
