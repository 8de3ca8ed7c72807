/**
 * The check of the `telemetry` option: what Wisp calls must be there, so a wrong object is a
 * ConfigError at the start, not a TypeError in the middle of a run. Loaded with the telemetry code, it
 * imports nothing at run time (a lazily loaded module that shares a module with the package's entry
 * splits that module into a chunk every program downloads): the caller makes the ConfigError.
 *
 * @module
 */

function hasMethod(value: unknown, name: string): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Record<string, unknown>)[name] === "function"
  );
}

/** What is wrong with a `telemetry` option (the message and the path), or undefined. */
export function telemetryProblem(
  value: unknown,
  path: string,
): { message: string; path: string } | undefined {
  const { tracer, meter, parent, recordContent } = value as Record<string, unknown>;
  if (!hasMethod(tracer, "startSpan")) {
    return {
      message: `${path}.tracer must be an OpenTelemetry tracer (trace.getTracer("my-app"))`,
      path: `${path}.tracer`,
    };
  }
  if (meter !== undefined && !hasMethod(meter, "createHistogram")) {
    return {
      message: `${path}.meter must be an OpenTelemetry meter (metrics.getMeter("my-app"))`,
      path: `${path}.meter`,
    };
  }
  if (parent !== undefined && !hasMethod(parent, "getValue")) {
    return {
      message: `${path}.parent must be an OpenTelemetry context (context.active())`,
      path: `${path}.parent`,
    };
  }
  if (recordContent !== undefined && typeof recordContent !== "boolean") {
    return { message: `${path}.recordContent must be true or false`, path: `${path}.recordContent` };
  }
  return undefined;
}
