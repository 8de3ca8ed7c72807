/**
 * Progress of requests in flight: each request that asks for it gets a progress token in its
 * params' `_meta`, and each `notifications/progress` for that token restarts the request's timeout
 * and reaches its `onProgress`.
 *
 * @module
 */

import type { JsonObject } from "../types.ts";
import { asObject } from "./as-object.ts";

/** A progress report of a request in flight (`notifications/progress`). */
export interface McpProgress {
  /** How far the request has got; grows with every report (its unit is the server's). */
  progress: number;
  /** What `progress` counts up to, when the server knows it. */
  total?: number;
  /** What the server is doing, in words. */
  message?: string;
}

/** The requests in flight that asked for progress, by token. */
export class ProgressTracker {
  /** What restarts each request's timeout. */
  readonly #restarts = new Map<string, () => void>();
  readonly #handlers = new Map<string, (progress: McpProgress) => void>();

  /** With `onProgress`, registers it under `token` and puts the token in the params' `_meta`. */
  track(
    token: string,
    params: JsonObject | undefined,
    onProgress: ((progress: McpProgress) => void) | undefined,
    restart: () => void,
  ): JsonObject | undefined {
    if (onProgress === undefined) return params;
    this.#handlers.set(token, onProgress);
    this.#restarts.set(token, restart);
    return { ...params, _meta: { ...asObject(params?._meta), progressToken: token } };
  }

  /** Forgets `token` once its request ended. */
  forget(token: string): void {
    this.#restarts.delete(token);
    this.#handlers.delete(token);
  }

  /** A `notifications/progress`: restarts its request's timeout and tells its `onProgress`. */
  receive(params: JsonObject): void {
    const token = String(params.progressToken);
    this.#restarts.get(token)?.();
    const handler = this.#handlers.get(token);
    if (handler === undefined || typeof params.progress !== "number") return;
    const progress: McpProgress = { progress: params.progress };
    if (typeof params.total === "number") progress.total = params.total;
    if (typeof params.message === "string") progress.message = params.message;
    handler(progress);
  }
}
