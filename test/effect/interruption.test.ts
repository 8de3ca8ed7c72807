/**
 * Interruption: a fiber running runAgentEffect, or consuming runAgentStreamEffect, that is interrupted
 * (or stops early) aborts the run; the upstream connection closes — seen by the scripted model served
 * on real loopback HTTP — and the interruption completes only after the run has settled.
 */
import { Deferred, Effect, Exit, Fiber, Stream } from "effect";
import { describe, expect, it } from "vitest";
import { runAgentEffect, runAgentStreamEffect } from "../../src/effect/index.ts";
import { type AgentEvent, type AgentOptions, defineTool } from "../../src/index.ts";
import { calls, says, scripted } from "../support/agent.ts";
import { loopbackModel } from "../support/loopback.ts";
import { STALLED, signal, watchedFetch } from "./watched.ts";

const loopback = loopbackModel();
const model = loopback.model;

/** Run options against the loopback server; `ended` turns true when the run's sessionEnd hook fires. */
function overLoopback(extra: Partial<AgentOptions> = {}) {
  const watched = watchedFetch();
  const state = { ended: false, responded: watched.responded };
  const options: AgentOptions = {
    model: "anthropic/claude-sonnet-4-5",
    baseURL: loopback.url,
    apiKey: "k",
    prompt: "go",
    retry: { maxRetries: 0 },
    fetch: watched.fetch,
    hooks: {
      sessionEnd: () => {
        state.ended = true;
      },
    },
    ...extra,
  };
  return { options, state };
}

describe("interrupting runAgentEffect", () => {
  it("aborts the run mid-stream and closes the upstream connection", async () => {
    model.push(STALLED);
    const disconnected = model.nextDisconnect();
    const { options, state } = overLoopback();
    const fiber = Effect.runFork(runAgentEffect(options));
    await state.responded;
    const exit = await Effect.runPromise(Fiber.interrupt(fiber).pipe(Effect.andThen(Fiber.await(fiber))));
    expect(Exit.hasInterrupts(exit)).toBe(true);
    // The run settled (its sessionEnd hooks ran) before the interruption completed.
    expect(state.ended).toBe(true);
    await disconnected;
  });

  it("aborts a tool in flight and completes once the run has settled", async () => {
    let toolSignal: AbortSignal | undefined;
    const started = signal();
    const waits = defineTool({
      name: "waits",
      description: "Waits until aborted",
      inputSchema: { type: "object" },
      execute: (_args, { signal }) =>
        new Promise<string>((_resolve, reject) => {
          toolSignal = signal;
          started.resolve();
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
    });
    let ended = false;
    const { options } = scripted([calls(["waits", {}]), says("never")]);
    const fiber = Effect.runFork(
      runAgentEffect(options({ tools: [waits], hooks: { sessionEnd: () => void (ended = true) } })),
    );
    await started.promise;
    await Effect.runPromise(Fiber.interrupt(fiber));
    expect(toolSignal?.aborted).toBe(true);
    expect(ended).toBe(true);
  });

  it("times out with Effect.timeout by interrupting the run, connection closed", async () => {
    model.push(STALLED);
    const disconnected = model.nextDisconnect();
    const { options, state } = overLoopback();
    const error = await Effect.runPromise(
      Effect.flip(runAgentEffect(options).pipe(Effect.timeout("50 millis"))),
    );
    expect(error).toMatchObject({ _tag: "TimeoutError" });
    expect(state.ended).toBe(true);
    await disconnected;
  });
});

describe("runAgentStreamEffect", () => {
  it("streams every event of a successful run, ending with its run-end", async () => {
    const { options } = scripted([says("Hello there")]);
    const events = await Effect.runPromise(Stream.runCollect(runAgentStreamEffect(options())));
    const types = events.map((event) => event.type);
    expect(types[0]).toBe("run-start");
    expect(types).toContain("text-delta");
    expect(events.at(-1)).toMatchObject({
      type: "run-end",
      result: { ok: true, value: { text: "Hello there" } },
    });
  });

  it("fails with the run's error after the events before it, without a run-end", async () => {
    const { options } = scripted([
      {
        content: [{ type: "text", text: ["Half ", "an ", "answer"] }],
        fault: { type: "error-event", afterEvents: 4 },
      },
    ]);
    const seen: AgentEvent[] = [];
    const error = await Effect.runPromise(
      Effect.flip(
        Stream.runForEach(runAgentStreamEffect(options()), (event) => Effect.sync(() => seen.push(event))),
      ),
    );
    expect(error).toMatchObject({ _tag: "ProviderError", code: "OVERLOADED", retryable: true });
    expect(seen.filter((event) => event.type === "text-delta").map((event) => event.delta)).toEqual([
      "Half ",
    ]);
    expect(seen.some((event) => event.type === "run-end")).toBe(false);
  });

  it("starts a new run each time the stream runs", async () => {
    const { model, options } = scripted([says("one"), says("two")]);
    const stream = runAgentStreamEffect(options());
    const texts = stream.pipe(
      Stream.filter((event) => event.type === "text-end"),
      Stream.map((event) => event.text),
      Stream.runCollect,
    );
    expect(model.requests).toHaveLength(0);
    expect([await Effect.runPromise(texts), await Effect.runPromise(texts)]).toEqual([["one"], ["two"]]);
  });

  it("a run refused for its options fails the stream with the ConfigError", async () => {
    const { model, options } = scripted([says("never")]);
    const error = await Effect.runPromise(
      Effect.flip(Stream.runDrain(runAgentStreamEffect(options({ temperature: 9 })))),
    );
    expect(error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID", path: "temperature" });
    expect(model.requests).toHaveLength(0);
  });

  it("interrupting the consumer mid-stream aborts the run and closes the connection", async () => {
    model.push(STALLED);
    const disconnected = model.nextDisconnect();
    const { options, state } = overLoopback();
    const seen: string[] = [];
    const program = Effect.gen(function* () {
      const firstDelta = yield* Deferred.make<void>();
      const consumer = yield* Effect.forkChild(
        Stream.runForEach(runAgentStreamEffect(options), (event) =>
          event.type === "text-delta"
            ? Effect.sync(() => seen.push(event.delta)).pipe(
                Effect.andThen(Deferred.succeed(firstDelta, undefined)),
              )
            : Effect.void,
        ),
      );
      yield* Deferred.await(firstDelta);
      yield* Fiber.interrupt(consumer);
      return yield* Fiber.await(consumer);
    });
    const exit = await Effect.runPromise(program);
    expect(Exit.hasInterrupts(exit)).toBe(true);
    expect(seen).toEqual(["Once "]);
    expect(state.ended).toBe(true);
    await disconnected;
  });

  it("a consumer that stops early (Stream.takeUntil) aborts the run and closes the connection", async () => {
    model.push(STALLED);
    const disconnected = model.nextDisconnect();
    const { options, state } = overLoopback();
    const events = await Effect.runPromise(
      runAgentStreamEffect(options).pipe(
        Stream.takeUntil((event) => event.type === "text-delta"),
        Stream.runCollect,
      ),
    );
    expect(events.at(-1)).toMatchObject({ type: "text-delta", delta: "Once " });
    expect(state.ended).toBe(true);
    await disconnected;
  });
});
