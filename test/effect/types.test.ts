/**
 * The error channel of `wisp-agent/effect`, at the type level: exactly Wisp's tagged errors, narrowed
 * by `catchTag`, emptied by an exhaustive `catchTags`, and the same union on streams and sessions.
 */
import { Effect, type Scope, Stream } from "effect";
import { describe, expectTypeOf, it } from "vitest";
import {
  type AgentSessionEffect,
  createAgentSessionEffect,
  partialOf,
  runAgentEffect,
  runAgentStreamEffect,
} from "../../src/effect/index.ts";
import {
  type AbortError,
  type AgentEvent,
  type AgentResult,
  type AnySdkError,
  type BudgetError,
  type ConfigError,
  defineTool,
  type HookError,
  type ParseError,
  type ProviderError,
  type ProviderErrorCode,
  type RequestError,
  type SessionState,
  type ToolError,
} from "../../src/index.ts";

const options = { model: "anthropic/claude-sonnet-4-5", apiKey: "k", prompt: "go" } as const;
const run = runAgentEffect(options);

describe("the error channel's types", () => {
  it("runAgentEffect fails with exactly the union of Wisp's tagged errors", () => {
    expectTypeOf(run).toEqualTypeOf<Effect.Effect<AgentResult, AnySdkError>>();
    expectTypeOf<Effect.Error<typeof run>>().toEqualTypeOf<
      | ConfigError
      | ProviderError
      | RequestError
      | AbortError
      | ParseError
      | HookError
      | ToolError
      | BudgetError
    >();
  });

  it("catchTag narrows the handler to the tag's class and removes it from the channel", () => {
    const handled = run.pipe(
      Effect.catchTag("ProviderError", (error) => {
        expectTypeOf(error).toEqualTypeOf<ProviderError>();
        expectTypeOf(error.code).toEqualTypeOf<ProviderErrorCode>();
        return Effect.succeed(error.code);
      }),
    );
    expectTypeOf<Effect.Error<typeof handled>>().toEqualTypeOf<Exclude<AnySdkError, ProviderError>>();
    expectTypeOf<Effect.Success<typeof handled>>().toEqualTypeOf<AgentResult | ProviderErrorCode>();
  });

  it("catchTag with several tags hands the handler their union", () => {
    const handled = run.pipe(
      Effect.catchTag(["RequestError", "ProviderError"], (error) => {
        expectTypeOf(error).toEqualTypeOf<RequestError | ProviderError>();
        return Effect.succeed(undefined);
      }),
    );
    expectTypeOf<Effect.Error<typeof handled>>().toEqualTypeOf<
      ConfigError | AbortError | ParseError | HookError | ToolError | BudgetError
    >();
  });

  it("catchTags with a handler for every tag leaves nothing in the error channel", () => {
    const handled = run.pipe(
      Effect.catchTags({
        ConfigError: (error) => Effect.succeed(`fix the options: ${error.path ?? ""}`),
        ProviderError: (error) => Effect.succeed(`provider said ${error.code}`),
        RequestError: (error) => Effect.succeed(`network: ${error.code}`),
        AbortError: () => Effect.succeed("stopped"),
        ParseError: (error) => Effect.succeed(`parse: ${error.code}`),
        HookError: (error) => Effect.succeed(`hook: ${error.code}`),
        ToolError: (error) => Effect.succeed(`tool: ${error.code}`),
        BudgetError: (error) => Effect.succeed(`budget: ${error.code}`),
      }),
    );
    expectTypeOf(handled).toEqualTypeOf<Effect.Effect<AgentResult | string>>();
  });

  it("a switch over _tag in Effect.catch is exhaustive", () => {
    const handled = run.pipe(
      Effect.catch((error) => {
        switch (error._tag) {
          case "ConfigError":
          case "ProviderError":
          case "RequestError":
          case "AbortError":
          case "ParseError":
          case "HookError":
          case "ToolError":
          case "BudgetError":
            return Effect.succeed(error.code);
          default: {
            const unreachable: never = error;
            return Effect.die(unreachable);
          }
        }
      }),
    );
    expectTypeOf<Effect.Error<typeof handled>>().toEqualTypeOf<never>();
  });

  it("Effect.retry with a predicate on retryable keeps the whole union", () => {
    const retried = run.pipe(Effect.retry({ times: 2, while: (error) => error.retryable }));
    expectTypeOf<Effect.Error<typeof retried>>().toEqualTypeOf<AnySdkError>();
  });

  it("runAgentStreamEffect is a Stream of the run's events failing with the same union", () => {
    expectTypeOf(runAgentStreamEffect(options)).toEqualTypeOf<Stream.Stream<AgentEvent, AnySdkError>>();
    const deltas = runAgentStreamEffect(options).pipe(
      Stream.filter((event) => event.type === "text-delta"),
      Stream.map((event) => event.delta),
      Stream.catchTag("AbortError", () => Stream.empty),
    );
    expectTypeOf(deltas).toEqualTypeOf<Stream.Stream<string, Exclude<AnySdkError, AbortError>>>();
  });

  it("createAgentSessionEffect needs a Scope, fails only with ConfigError, and its calls are Effects", () => {
    const acquired = createAgentSessionEffect({ model: "anthropic/claude-sonnet-4-5", apiKey: "k" });
    expectTypeOf(acquired).toEqualTypeOf<Effect.Effect<AgentSessionEffect, ConfigError, Scope.Scope>>();
    const program = Effect.scoped(
      Effect.gen(function* () {
        const session = yield* acquired;
        const result = yield* session.chat("hi");
        expectTypeOf(result).toEqualTypeOf<AgentResult>();
        return yield* session.export();
      }),
    );
    expectTypeOf(program).toEqualTypeOf<Effect.Effect<SessionState, AnySdkError>>();
  });

  it("typed tools type the result's tool calls and partialOf's", () => {
    const weather = defineTool({
      name: "weather",
      description: "The weather",
      inputSchema: { type: "object" },
      execute: () => "sunny",
    });
    const typed = runAgentEffect({ ...options, tools: [weather] });
    expectTypeOf<Effect.Success<typeof typed>>().toEqualTypeOf<AgentResult<typeof weather>>();
    expectTypeOf(partialOf<typeof weather>).returns.toEqualTypeOf<AgentResult<typeof weather> | undefined>();
  });
});
