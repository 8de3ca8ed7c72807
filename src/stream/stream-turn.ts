/**
 * Layer `stream` (docs/architecture.md): streamTurn: one model turn, its options, attempts, retries and events.
 *
 * `streamTurn`: one model turn, streamed. A normalized request goes in; normalized events come out as
 * an async iterable, and `.message` resolves to the final assistant message. After the call nothing
 * throws: every failure (bad config, HTTP error, network, timeout, malformed or cut stream, abort)
 * ends the stream with an `error` event that carries the partial message, and `.message` resolves to
 * that partial message with stopReason `error` or `aborted`.
 *
 * @module
 */

import { invalidOption } from "../config/option-checks.ts";
import { abortErrorFrom, classifyProviderFailure, classifyThrown } from "../errors/classify.ts";
import { checkFetchResult } from "../errors/fetch-result.ts";
import { describeValue } from "../errors/message-of.ts";
import { redactError } from "../errors/redact.ts";
import type { AnySdkError, FailedRequest } from "../errors/sdk-error.ts";
import { withFields } from "../errors/with-fields.ts";
import { abortableSleep } from "../http/abortable-sleep.ts";
import { AttemptTimer } from "../http/attempt-timer.ts";
import { readSse } from "../http/read-sse.ts";
import { NOT_RETRIED, retryDelay, retryPolicy } from "../http/retry-policy.ts";
import { safeUrl } from "../http/safe-url.ts";
import { MessageBuilder } from "../message/message-builder.ts";
import type { Provider, ProviderConfig } from "../providers/provider.ts";
import { loadProvider, resolveModel } from "../providers/registry.ts";
import type { AssistantMessage, ModelRequest, TurnEvent } from "../types.ts";
import { findPrice } from "../usage/prices.ts";
import { checkModelParameters, checkTurnInput, missingApiKey } from "./check-turn.ts";
import { checkTurnRequest } from "./check-turn-request.ts";
import { EventQueue } from "./event-queue.ts";
import { readBody, streamBody } from "./response-body.ts";
import type { TurnOptions } from "./turn-options.ts";

/** A streamed model turn. Iterate it once for events; `.message` works with or without iterating. */
export interface TurnStream extends AsyncIterable<TurnEvent> {
  /** The final (or partial) assistant message. Never rejects. */
  readonly message: Promise<AssistantMessage>;
  /** Aborts the turn (idempotent). */
  abort(reason?: unknown): void;
}

/** The turn-trace module, once a turn asked for it (a second `import()` would go through the loader again). */
let turnTrace: Promise<typeof import("../telemetry/turn-trace.ts")> | undefined;

const DEFAULT_TIMEOUT_MS = 600_000;

/** The caller's secrets: the key, and the values of headers that carry credentials. */
function secretsOf(options: TurnOptions): string[] {
  const secrets = options.apiKey === undefined ? [] : [options.apiKey];
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    // A value is a string: checkHeaders refused any other before the turn began.
    if (/authorization|api-key|token|secret/i.test(name)) {
      secrets.push(value, value.replace(/^Bearer\s+/i, ""));
    }
  }
  return secrets;
}
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

interface Attempt {
  provider: Provider;
  config: ProviderConfig;
  request: ModelRequest;
  options: TurnOptions;
  runSignal: AbortSignal;
  builder: MessageBuilder;
}

/**
 * One HTTP attempt, streaming into `builder`: resolves with what went wrong, classified (never
 * throws), or undefined when the answer arrived whole.
 */
async function attempt({
  provider,
  config,
  request,
  options,
  runSignal,
  builder,
}: Attempt): Promise<AnySdkError | undefined> {
  const controller = new AbortController();
  const forward = (): void => controller.abort(runSignal.reason);
  runSignal.addEventListener("abort", forward); // removed in finally
  const timer = new AttemptTimer(
    controller,
    options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
  );
  let failed: FailedRequest | undefined;
  let responded = false;
  try {
    const wire = provider.buildRequest(request, config);
    failed = { method: "POST", url: safeUrl(wire.url) };
    const doFetch = options.fetch ?? globalThis.fetch;
    const response = checkFetchResult(
      await doFetch(wire.url, {
        method: "POST",
        headers: wire.headers,
        body: JSON.stringify(wire.body),
        signal: controller.signal,
      }),
      { provider: provider.id, request: failed },
    );
    timer.touch();
    const read = { signal: controller.signal, onChunk: () => timer.touch() };
    if (!response.ok) {
      const body = await readBody(response, read);
      throw classifyProviderFailure({
        provider: provider.id,
        status: response.status,
        headers: response.headers,
        body,
        request: failed,
      });
    }
    responded = true;
    const body = await streamBody(response, provider.id, failed, read);
    const handler = provider.createStreamHandler(builder);
    // readSse delivers nothing after the terminal event, even in the same read (a gateway's
    // `data: [DONE]` after Anthropic's `message_stop` or the Responses' completion).
    await readSse(
      body,
      { onEvent: handler.onEvent, onChunk: read.onChunk, isDone: handler.isDone },
      read.signal,
    );
    handler.end();
    return undefined;
  } catch (thrown) {
    return classifyThrown(thrown, {
      provider: provider.id,
      signal: runSignal,
      timeout: timer.fired,
      request: failed,
      responded,
    });
  } finally {
    timer.clear();
    runSignal.removeEventListener("abort", forward);
  }
}

/**
 * Streams one model turn.
 *
 * @example
 * ```ts
 * const turn = streamTurn(
 *   { messages: [{ id: "1", role: "user", content: [{ type: "text", text: "Hi" }], timestamp: Date.now() }] },
 *   { model: "anthropic/claude-sonnet-5-5", apiKey },
 * );
 * for await (const event of turn) if (event.type === "text-delta") print(event.delta);
 * const message = await turn.message; // stopReason, usage, content
 * ```
 */
export function streamTurn(request: ModelRequest, options: TurnOptions): TurnStream {
  // Checked before anything else reads them: plain JavaScript may pass anything.
  const problem = checkTurnInput(request, options) ?? checkTurnRequest(request);
  if (problem !== undefined) options = {} as TurnOptions;
  const run = new AbortController();
  const queue = new EventQueue<TurnEvent>(() =>
    run.abort(new DOMException("The consumer stopped reading the stream", "AbortError")),
  );
  let emit = options.onEvent ?? ((event: TurnEvent): void => queue.push(event));
  const userSignal = options.signal;
  const forward = (): void => run.abort(userSignal?.reason);
  if (userSignal?.aborted) run.abort(userSignal.reason);
  else userSignal?.addEventListener("abort", forward); // removed when the turn ends

  const execute = async (): Promise<AssistantMessage> => {
    let resolved: ReturnType<typeof resolveModel>;
    try {
      if (problem !== undefined) throw problem;
      resolved = resolveModel(options.model, options.provider);
    } catch (error) {
      // No provider could be resolved: the partial message names the model as given.
      return new MessageBuilder("anthropic", describeValue(options.model ?? ""), emit).fail(
        error as AnySdkError,
      );
    }
    const { model } = resolved;
    const refused =
      missingApiKey(options, resolved.provider) ?? checkModelParameters(request, resolved.provider);
    if (refused !== undefined) return new MessageBuilder(resolved.provider, model, emit).fail(refused);
    let provider: Provider;
    try {
      provider = await loadProvider(resolved.provider);
    } catch (error) {
      // The provider's code could not be loaded (a browser chunk that failed to download).
      const builder = new MessageBuilder(resolved.provider, model, emit);
      return builder.fail(classifyThrown(error, { provider: resolved.provider, signal: run.signal }));
    }
    let price = findPrice(
      model,
      options.prices ? { ...provider.prices, ...options.prices } : provider.prices,
    );
    // One-hour cache entries are written at twice the input price (the table has five minutes'). Only
    // Anthropic takes a TTL and reports cache writes (the others' usage has none), so no provider check.
    if (price && request.cache && request.cache.ttl === "1h")
      price = { ...price, cacheWrite: price.input * 2 };
    const config: ProviderConfig = { model, baseURL: options.baseURL ?? provider.defaultBaseURL };
    if (options.apiKey !== undefined) config.apiKey = options.apiKey;
    if (options.headers !== undefined) config.headers = options.headers;
    if (options.compat !== undefined) config.compat = options.compat;
    const policy = retryPolicy(options.retry);
    const secrets = secretsOf(options);
    const { telemetry } = options;
    if (telemetry !== undefined) {
      // Loaded only by turns that trace: every event goes through the turn's span before it is emitted.
      turnTrace ??= import("../telemetry/turn-trace.ts").catch((error: unknown) => {
        turnTrace = undefined;
        throw error;
      });
      const traced = (await turnTrace).traceTurn(
        emit,
        telemetry,
        request,
        provider.id,
        model,
        config.baseURL,
      );
      if ("message" in traced)
        return new MessageBuilder(provider.id, model, emit).fail(invalidOption(traced.message, traced.path));
      emit = traced.emit;
    }
    emit({ type: "turn-start", provider: provider.id, model });

    for (let attemptNumber = 0; ; attemptNumber++) {
      const builder = new MessageBuilder(provider.id, model, emit, price);
      if (run.signal.aborted) return builder.fail(abortErrorFrom(run.signal, provider.id));
      const error = await attempt({ provider, config, request, options, runSignal: run.signal, builder });
      if (error === undefined) return builder.finish();
      const delay =
        builder.hasOutput || run.signal.aborted ? NOT_RETRIED : retryDelay(error, attemptNumber, policy);
      if (typeof delay !== "number") {
        // After retries, say how many attempts were made; and why a retryable error was not retried.
        const note = (attemptNumber > 0 ? ` — after ${attemptNumber + 1} attempts` : "") + delay.why;
        const attempts = attemptNumber > 0 ? { attempts: attemptNumber + 1 } : {};
        const tried = note === "" ? error : withFields(error, attempts, note);
        return builder.fail(redactError(tried, secrets));
      }
      emit({
        type: "retry",
        attempt: attemptNumber + 1,
        delayMs: delay,
        error: redactError(error, secrets),
      });
      if (!(await abortableSleep(delay, run.signal)))
        return builder.fail(abortErrorFrom(run.signal, provider.id));
    }
  };

  const message = execute().finally(() => {
    userSignal?.removeEventListener("abort", forward);
    queue.close();
  });

  return {
    message,
    abort: (reason?: unknown) => run.abort(reason ?? new DOMException("The turn was aborted", "AbortError")),
    [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
  };
}
