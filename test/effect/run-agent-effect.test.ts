/**
 * runAgentEffect against the scripted model: success, every tag a run can end with caught by
 * `catchTag`, the partial result beside the error, and retries composed with `Effect.retry` on
 * retryable errors only.
 */
import { Effect, Exit, Schedule } from "effect";
import { describe, expect, it } from "vitest";
import { partialOf, runAgentEffect } from "../../src/effect/index.ts";
import {
  AbortError,
  type AgentOptions,
  type AnySdkError,
  BudgetError,
  ConfigError,
  defineTool,
  type ErrorTag,
  HookError,
  ParseError,
  ProviderError,
  RequestError,
} from "../../src/index.ts";
import type { ScriptedTurn } from "../../src/testing/index.ts";
import { calls, says, scripted } from "../support/agent.ts";

const echo = defineTool({
  name: "echo",
  description: "Echoes",
  inputSchema: { type: "object" },
  execute: () => "echoed",
});

/** What fails a run with each tag: the script, the extra options, the class and code expected. */
const FAILURES: Array<{
  tag: ErrorTag;
  script: ScriptedTurn[];
  extra: Partial<AgentOptions>;
  type: abstract new (...args: never[]) => AnySdkError;
  code: string;
}> = [
  {
    tag: "ConfigError",
    script: [says("never sent")],
    extra: { temperature: 7 },
    type: ConfigError,
    code: "CONFIG_INVALID",
  },
  {
    tag: "ProviderError",
    script: [{ fault: { type: "http", status: 401 } }],
    extra: {},
    type: ProviderError,
    code: "AUTH",
  },
  {
    tag: "RequestError",
    script: [
      { content: [{ type: "text", text: "Half an answer" }], fault: { type: "reset", afterEvents: 3 } },
    ],
    extra: {},
    type: RequestError,
    code: "NETWORK",
  },
  {
    tag: "AbortError",
    script: [says("never sent")],
    extra: { signal: AbortSignal.abort() },
    type: AbortError,
    code: "ABORTED",
  },
  {
    tag: "ParseError",
    script: [
      {
        content: [{ type: "text", text: "Half an answer" }],
        fault: { type: "malformed-json", afterEvents: 3 },
      },
    ],
    extra: {},
    type: ParseError,
    code: "STREAM_MALFORMED",
  },
  {
    tag: "HookError",
    script: [says("done")],
    extra: {
      hooks: {
        stop: {
          name: "audit",
          onFailure: "closed",
          handler: () => {
            throw new Error("audit log down");
          },
        },
      },
    },
    type: HookError,
    code: "HOOK_FAILED",
  },
  {
    tag: "BudgetError",
    script: [calls(["echo", {}]), calls(["echo", {}]), says("never")],
    extra: { tools: [echo], maxTurns: 1 },
    type: BudgetError,
    code: "MAX_TURNS",
  },
];

describe("runAgentEffect", () => {
  it("succeeds with the run's AgentResult", async () => {
    const { model, options } = scripted([calls(["echo", {}]), says("All done.")]);
    const result = await Effect.runPromise(runAgentEffect(options({ tools: [echo] })));
    expect(result).toMatchObject({ text: "All done.", stopReason: "complete", turns: 2 });
    expect(result.toolCalls.map((call) => call.result.output)).toEqual(["echoed"]);
    expect(model.requests).toHaveLength(2);
  });

  it("starts a new run each time the Effect runs, and none before", async () => {
    const { model, options } = scripted([says("one"), says("two")]);
    const effect = runAgentEffect(options());
    expect(model.requests).toHaveLength(0);
    const texts = [await Effect.runPromise(effect), await Effect.runPromise(effect)].map((r) => r.text);
    expect(texts).toEqual(["one", "two"]);
  });

  for (const failure of FAILURES) {
    it(`a run that ends with a ${failure.tag} fails with it, and catchTag("${failure.tag}") catches it`, async () => {
      const { options } = scripted(failure.script);
      const caught = await Effect.runPromise(
        runAgentEffect(options(failure.extra)).pipe(
          Effect.map(() => "succeeded" as const),
          Effect.catchTag(failure.tag, (error: AnySdkError) => Effect.succeed(error)),
        ),
      );
      expect(caught).toBeInstanceOf(failure.type);
      expect(caught).toMatchObject({ _tag: failure.tag, code: failure.code });
    });
  }

  it("catchTag for another tag lets the error through unchanged", async () => {
    const { options } = scripted([{ fault: { type: "http", status: 401 } }]);
    const exit = await Effect.runPromiseExit(
      runAgentEffect(options()).pipe(Effect.catchTag("RequestError", () => Effect.succeed(undefined))),
    );
    expect(exit).toMatchObject({ _tag: "Failure" });
    expect(Exit.isFailure(exit) && exit.cause.reasons[0]).toMatchObject({
      _tag: "Fail",
      error: { _tag: "ProviderError", code: "AUTH" },
    });
  });

  it("catchTags with a handler for every tag recovers from any failure", async () => {
    const answers = await Promise.all(
      FAILURES.map(({ script, extra }) =>
        Effect.runPromise(
          runAgentEffect(scripted(script).options(extra)).pipe(
            Effect.map(() => "ok"),
            Effect.catchTags({
              ConfigError: () => Effect.succeed("config"),
              ProviderError: () => Effect.succeed("provider"),
              RequestError: () => Effect.succeed("request"),
              AbortError: () => Effect.succeed("abort"),
              ParseError: () => Effect.succeed("parse"),
              HookError: () => Effect.succeed("hook"),
              ToolError: () => Effect.succeed("tool"),
              BudgetError: () => Effect.succeed("budget"),
            }),
          ),
        ),
      ),
    );
    expect(answers).toEqual(["config", "provider", "request", "abort", "parse", "hook", "budget"]);
  });

  it("a tool that throws is a tool result the model sees, not a ToolError in the error channel", async () => {
    const broken = defineTool({
      name: "broken",
      description: "Fails",
      inputSchema: { type: "object" },
      execute: () => {
        throw new Error("disk full");
      },
    });
    const { options } = scripted([calls(["broken", {}]), says("The tool failed, sorry.")]);
    const result = await Effect.runPromise(
      runAgentEffect(options({ tools: [broken] })).pipe(
        Effect.catchTag("ToolError", () => Effect.die("a tool failure never fails the run")),
      ),
    );
    expect(result.text).toBe("The tool failed, sorry.");
    expect(result.toolCalls[0]?.result).toMatchObject({ isError: true });
  });

  it("keeps a failed run's partial result beside its error: partialOf(error)", async () => {
    const { options } = scripted([
      {
        content: [{ type: "text", text: ["Half ", "an ", "answer"] }],
        fault: { type: "reset", afterEvents: 4 },
      },
    ]);
    const error = await Effect.runPromise(Effect.flip(runAgentEffect(options())));
    const partial = partialOf(error);
    expect(partial?.stopReason).toBe("error");
    expect(partial?.text).toBe("Half ");
    expect(partial?.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error" });
    expect(partialOf(new ConfigError("not from a run", { code: "CONFIG_INVALID" }))).toBeUndefined();
  });
});

describe("retries composed with Effect.retry", () => {
  const onlyRetryable = { times: 3, while: (error: AnySdkError) => error.retryable };

  it("runs the agent again after a retryable error and succeeds", async () => {
    const { model, options } = scripted([
      { fault: { type: "http", status: 529 } },
      { content: [{ type: "text", text: "Half" }], fault: { type: "reset", afterEvents: 3 } },
      says("Third time lucky."),
    ]);
    const result = await Effect.runPromise(runAgentEffect(options()).pipe(Effect.retry(onlyRetryable)));
    expect(result.text).toBe("Third time lucky.");
    expect(model.requests).toHaveLength(3);
  });

  it("does not retry an error that is not retryable", async () => {
    const { model, options } = scripted([{ fault: { type: "http", status: 401 } }, says("never")]);
    const error = await Effect.runPromise(
      Effect.flip(runAgentEffect(options()).pipe(Effect.retry(onlyRetryable))),
    );
    expect(error).toMatchObject({ _tag: "ProviderError", code: "AUTH", retryable: false });
    expect(model.requests).toHaveLength(1);
  });

  it("never retries an abort", async () => {
    const { model, options } = scripted([says("never")]);
    const error = await Effect.runPromise(
      Effect.flip(runAgentEffect(options({ signal: AbortSignal.abort() })).pipe(Effect.retry(onlyRetryable))),
    );
    expect(error).toMatchObject({ _tag: "AbortError", retryable: false });
    expect(model.requests).toHaveLength(0);
  });

  it("gives up after the schedule's retries with the last error", async () => {
    const overloaded: ScriptedTurn = { fault: { type: "http", status: 529 } };
    const { model, options } = scripted([overloaded, overloaded, overloaded, says("too late")]);
    const error = await Effect.runPromise(
      Effect.flip(
        runAgentEffect(options()).pipe(
          Effect.retry({
            schedule: Schedule.exponential("1 millis"),
            times: 2,
            while: (error) => error.retryable,
          }),
        ),
      ),
    );
    expect(error).toMatchObject({ _tag: "ProviderError", code: "OVERLOADED", retryable: true });
    expect(model.requests).toHaveLength(3);
  });
});
