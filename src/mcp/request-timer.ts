/**
 * The timeout of one MCP request: `timeoutMs` of silence ends it, progress from the server restarts
 * that wait, and `maxTotalTimeoutMs` from the start ends it however much progress keeps coming.
 *
 * @module
 */

/** The two limits of one request, in ms. */
export interface RequestLimits {
  timeoutMs: number;
  maxTotalTimeoutMs: number;
}

/** A running timeout: restart it on progress, stop it when the request settles. */
export interface RequestTimer {
  /** Starts the `timeoutMs` wait again (never past the total cap). */
  restart(): void;
  stop(): void;
  /** Why the request was ended, once it timed out. */
  readonly reason: string | undefined;
}

/** Starts the timeout of request `method`; when it runs out, `controller` aborts with a TimeoutError. */
export function startRequestTimer(
  method: string,
  limits: RequestLimits,
  controller: AbortController,
): RequestTimer {
  const deadline = Date.now() + limits.maxTotalTimeoutMs;
  let reason: string | undefined;
  const fire = (message: string): void => {
    reason = message;
    controller.abort(new DOMException(message, "TimeoutError"));
  };
  const arm = (): ReturnType<typeof setTimeout> => {
    const left = deadline - Date.now();
    if (left > limits.timeoutMs)
      return setTimeout(
        () => fire(`MCP ${method} took longer than ${limits.timeoutMs} ms`),
        limits.timeoutMs,
      );
    const total = `MCP ${method} took longer than ${limits.maxTotalTimeoutMs} ms in all, progress notwithstanding`;
    return setTimeout(() => fire(total), Math.max(0, left));
  };
  let timer = arm();
  return {
    restart() {
      clearTimeout(timer);
      if (reason === undefined) timer = arm();
    },
    stop() {
      clearTimeout(timer);
    },
    get reason() {
      return reason;
    },
  };
}
