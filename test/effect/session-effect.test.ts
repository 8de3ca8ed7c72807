/**
 * createAgentSessionEffect: a session acquired in a Scope and closed when the scope closes (however
 * it closes), whose chat, stream, resume and export are Effects failing with Wisp's tagged errors.
 */
import { Deferred, Effect, Exit, Fiber, Stream } from "effect";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { type AgentSessionEffect, createAgentSessionEffect, runAgentEffect } from "../../src/effect/index.ts";
import { type AgentSession, defineTool, type SessionOptions, type SessionState } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, expectConsistent, gate, says } from "../support/agent.ts";
import { loopbackModel } from "../support/loopback.ts";
import { STALLED, watchedFetch } from "./watched.ts";

const loopback = loopbackModel();

/** Session options on an in-process scripted model; `ends` counts the sessionEnd hooks that fired. */
function sessionOptions(script: ScriptedTurn[], extra: Partial<SessionOptions> = {}) {
  const model = createScriptedModel({ script });
  const counts = { ends: 0 };
  const options: SessionOptions = {
    model: "anthropic/claude-sonnet-4-5",
    apiKey: "k",
    fetch: model.fetch,
    retry: { maxRetries: 0 },
    hooks: { sessionEnd: () => void counts.ends++ },
    ...extra,
  };
  return { model, options, counts };
}

describe("a scoped session", () => {
  it("chats, exports, and is closed when its scope ends", async () => {
    const { options, counts } = sessionOptions([says("Paris."), says("About 2.1 million.")]);
    let inside: AgentSessionEffect | undefined;
    const state = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const session = yield* createAgentSessionEffect(options);
          inside = session;
          const first = yield* session.chat("Capital of France?");
          const second = yield* session.chat("Its population?");
          expect([first.text, second.text]).toEqual(["Paris.", "About 2.1 million."]);
          expect(counts.ends).toBe(0);
          return yield* session.export();
        }),
      ),
    );
    expect(state.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(counts.ends).toBe(1);
    expect((await inside?.promises.snapshot())?.status).toBe("closed");
    const after = await inside?.promises.chat("Still there?");
    expect(after?.ok === false && after.error.code).toBe("SESSION_CLOSED");
  });

  it("is closed when the scoped program fails, and the failure is the run's tagged error", async () => {
    const { options, counts } = sessionOptions([{ fault: { type: "http", status: 401 } }]);
    let session: AgentSession | undefined;
    const exit = await Effect.runPromiseExit(
      Effect.scoped(
        Effect.gen(function* () {
          const scoped = yield* createAgentSessionEffect(options);
          session = scoped.promises;
          return yield* scoped.chat("hello");
        }),
      ),
    );
    expect(Exit.isFailure(exit) && exit.cause.reasons[0]).toMatchObject({
      _tag: "Fail",
      error: { _tag: "ProviderError", code: "AUTH" },
    });
    expect(session?.snapshot().status).toBe("closed");
    expect(counts.ends).toBe(1);
  });

  it("is closed when the scoped fiber is interrupted mid-run, the connection closed", async () => {
    loopback.model.push(STALLED);
    const disconnected = loopback.model.nextDisconnect();
    const { options, counts } = sessionOptions([]);
    const watched = watchedFetch();
    let session: AgentSession | undefined;
    const program = Effect.gen(function* () {
      const acquired = yield* Deferred.make<void>();
      const fiber = yield* Effect.forkChild(
        Effect.scoped(
          Effect.gen(function* () {
            const scoped = yield* createAgentSessionEffect({
              ...options,
              baseURL: loopback.url,
              fetch: watched.fetch,
            });
            session = scoped.promises;
            yield* Deferred.succeed(acquired, undefined);
            return yield* scoped.chat("Tell me a story");
          }),
        ),
      );
      yield* Deferred.await(acquired);
      yield* Effect.promise(() => watched.responded);
      yield* Fiber.interrupt(fiber);
    });
    await Effect.runPromise(program);
    expect(session?.snapshot().status).toBe("closed");
    expect(counts.ends).toBe(1);
    await disconnected;
  });

  it("fails with the ConfigError of options createAgentSession refuses, and acquires nothing", async () => {
    const { options } = sessionOptions([]);
    const error = await Effect.runPromise(
      Effect.flip(Effect.scoped(createAgentSessionEffect({ ...options, temperature: 9 }))),
    );
    expect(error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID", path: "temperature" });
  });

  it("restores from an exported state in another scope and goes on", async () => {
    const { options, model } = sessionOptions([says("Noted: blue."), says("You said blue.")]);
    const chatOnce = (restore: SessionState | undefined, prompt: string) =>
      Effect.scoped(
        Effect.gen(function* () {
          const session = yield* createAgentSessionEffect(
            restore === undefined ? options : { ...options, restore: JSON.parse(JSON.stringify(restore)) },
          );
          const result = yield* session.chat(prompt);
          return { text: result.text, state: yield* session.export() };
        }),
      );
    const first = await Effect.runPromise(chatOnce(undefined, "My favourite colour is blue."));
    const second = await Effect.runPromise(chatOnce(first.state, "What did I say?"));
    expect(second.text).toBe("You said blue.");
    expect(second.state.sessionId).toBe(first.state.sessionId);
    expect(second.state.messages).toHaveLength(4);
    expect(JSON.stringify(model.requests.at(-1)?.body)).toContain("My favourite colour is blue.");
  });
});

describe("the session's calls", () => {
  it("an interrupted chat aborts its run; the partial answer stays in export()", async () => {
    loopback.model.push(STALLED);
    const disconnected = loopback.model.nextDisconnect();
    const { options } = sessionOptions([]);
    const state = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const session = yield* createAgentSessionEffect({ ...options, baseURL: loopback.url, fetch });
          const firstDelta = yield* Deferred.make<void>();
          const chat = yield* Effect.forkChild(
            session
              .stream("Tell me a story")
              .pipe(
                Stream.runForEach((event) =>
                  event.type === "text-delta" ? Deferred.succeed(firstDelta, undefined) : Effect.void,
                ),
              ),
          );
          yield* Deferred.await(firstDelta);
          yield* Fiber.interrupt(chat);
          expect((yield* session.snapshot()).status).toBe("idle");
          return yield* session.export();
        }),
      ),
    );
    const last = state.messages.at(-1);
    expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
    expect(last?.content).toEqual([{ type: "text", text: "Once " }]);
    expectConsistent(state.messages);
    await disconnected;
  });

  it("interrupting chat aborts its run and waits for it; the session stays open with the partial answer", async () => {
    loopback.model.push(STALLED);
    const disconnected = loopback.model.nextDisconnect();
    const { options, counts } = sessionOptions([]);
    const watched = watchedFetch();
    const { status, last } = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const session = yield* createAgentSessionEffect({
            ...options,
            baseURL: loopback.url,
            fetch: watched.fetch,
          });
          const chat = yield* Effect.forkChild(session.chat("hello"));
          yield* Effect.promise(() => watched.responded);
          yield* Fiber.interrupt(chat);
          expect(counts.ends).toBe(0);
          const { status } = yield* session.snapshot();
          return { status, last: (yield* session.export()).messages.at(-1) };
        }),
      ),
    );
    expect(status).toBe("idle");
    expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
    await disconnected;
  });

  it("resume decides a paused tool call as an Effect", async () => {
    const sent: unknown[] = [];
    const send = defineTool({
      name: "send",
      description: "Sends a message",
      input: z.object({ to: z.string() }),
      needsApproval: true,
      execute: ({ to }) => {
        sent.push(to);
        return `sent to ${to}`;
      },
    });
    const { options } = sessionOptions([calls(["send", { to: "ada" }]), says("Sent.")], { tools: [send] });
    const resumed = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const session = yield* createAgentSessionEffect(options);
          const paused = yield* session.chat("Tell Ada hi");
          expect(paused.stopReason).toBe("approval");
          expect((yield* session.export()).pendingApprovals).toHaveLength(1);
          const toolCallId = paused.pendingApprovals?.[0]?.toolCallId ?? "";
          return yield* session.resume([{ toolCallId, approved: true }]);
        }),
      ),
    );
    expect([resumed.stopReason, resumed.text]).toEqual(["complete", "Sent."]);
    expect(sent).toEqual(["ada"]);
  });

  it("a resume with a decision for no waiting call fails with ConfigError APPROVAL_INVALID", async () => {
    const { options } = sessionOptions([says("hi")]);
    const code = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const session = yield* createAgentSessionEffect(options);
          yield* session.chat("hello");
          return yield* session.resume([{ toolCallId: "nope", approved: true }]);
        }),
      ).pipe(
        Effect.map(() => "resumed"),
        Effect.catchTag("ConfigError", (error) => Effect.succeed(error.code)),
      ),
    );
    expect(code).toMatch(/^APPROVAL_/);
  });

  it("a second prompt while a run is in flight fails with ConfigError SESSION_BUSY", async () => {
    const { options } = sessionOptions([{ ...says("slow"), delayMs: 20 }]);
    const codes = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const session = yield* createAgentSessionEffect(options);
          const first = yield* Effect.forkChild(session.chat("one"));
          yield* Effect.yieldNow;
          const second = yield* Effect.flip(session.chat("two"));
          yield* Fiber.join(first);
          return second.code;
        }),
      ),
    );
    expect(codes).toBe("SESSION_BUSY");
  });

  it("interrupting a stream steered or queued into another call's run returns without waiting for that run", async () => {
    const { tool, hasStarted, release } = gate();
    const { model, options } = sessionOptions([calls(["gate", {}]), says("first done")], { tools: [tool] });
    const texts = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const session = yield* createAgentSessionEffect(options);
          const first = yield* Effect.forkChild(session.chat("one"));
          yield* Effect.promise(() => hasStarted);
          for (const mode of ["steer", "followUp"] as const) {
            const consumer = yield* Effect.forkChild(
              Stream.runDrain(session.stream(`${mode}, then stopped`, { mode })),
            );
            yield* Effect.yieldNow;
            // The gate is still shut: an interruption that waited for the run in flight would never return.
            yield* Fiber.interrupt(consumer);
          }
          release();
          yield* Fiber.join(first);
          return JSON.stringify((yield* session.export()).messages);
        }),
      ),
    );
    expect(texts).not.toContain("then stopped");
    expect(model.requests).toHaveLength(2);
  });

  it("a signal from another realm (matched by shape) still lets an interruption abort the run", async () => {
    const { options } = sessionOptions([{ ...says("never finished"), delayMs: 60_000 }]);
    const foreign = new EventTarget() as EventTarget & { aborted: boolean; reason: unknown };
    Object.assign(foreign, { aborted: false, reason: undefined, throwIfAborted() {}, onabort: null });
    const exit = await Effect.runPromiseExit(
      runAgentEffect({
        ...options,
        model: "anthropic/claude-sonnet-4-5",
        prompt: "go",
        signal: foreign as unknown as AbortSignal,
      }).pipe(Effect.timeout("50 millis")),
    );
    expect(Exit.isFailure(exit) && String(exit.cause)).toMatch(/Timeout/);
  });

  it("close() ends the session early; the scope's close is then a no-op", async () => {
    const { options, counts } = sessionOptions([says("hi")]);
    const error = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const session = yield* createAgentSessionEffect(options);
          yield* session.chat("hello");
          yield* session.close();
          return yield* Effect.flip(session.chat("again"));
        }),
      ),
    );
    expect(error).toMatchObject({ _tag: "ConfigError", code: "SESSION_CLOSED" });
    expect(counts.ends).toBe(1);
  });
});

describe("calls from plain JavaScript", () => {
  it("chat options that are not an object fail with a ConfigError, not a defect", async () => {
    const { options } = sessionOptions([says("never")]);
    const error = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const session = yield* createAgentSessionEffect(options);
          return yield* Effect.flip(session.chat("hi", null as never));
        }),
      ),
    );
    expect(error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID" });
  });

  it("run options that are not an object fail with a ConfigError, as runAgent reports them", async () => {
    const error = await Effect.runPromise(Effect.flip(runAgentEffect(null as never)));
    expect(error).toMatchObject({ _tag: "ConfigError", code: "CONFIG_INVALID" });
  });
});
