/**
 * Wisp with Effect (`wisp-agent/effect`), end to end against the scripted model on loopback HTTP:
 * a run retried on a retryable error with `Effect.retry`, errors handled by tag with `catchTags`,
 * a run streamed as a `Stream`, a session acquired in a `Scope` (closed when the scope ends), and
 * `Effect.timeout` interrupting a stalled run — its upstream connection closed, its partial answer
 * kept by the session. Exits non-zero if anything differs from what is expected.
 *
 * Run: npm run build --silent && node --experimental-strip-types --no-warnings examples/effect/agent.ts
 */
import { Effect, Stream } from "effect";
import { type AnySdkError, defineTool } from "wisp-agent";
import { createAgentSessionEffect, runAgentEffect, runAgentStreamEffect } from "wisp-agent/effect";
import { createScriptedModel } from "wisp-agent/testing";
import { serveScriptedModel } from "wisp-agent/testing/node";

const calculator = defineTool({
  name: "calculator",
  description: "Multiplies two numbers",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  },
  execute: (args) => {
    const { a, b } = args as { a: number; b: number };
    return a * b;
  },
});

const model = createScriptedModel({
  script: [
    // 1: overloaded once, then a tool call and the answer.
    { fault: { type: "http", status: 529 } },
    { content: [{ type: "tool_call", name: "calculator", args: { a: 6, b: 7 } }] },
    { content: [{ type: "text", text: "6 × 7 is 42." }] },
    // 2: an invalid key.
    { fault: { type: "http", status: 401 } },
    // 3: streamed.
    { content: [{ type: "text", text: ["Roses ", "are ", "red."] }] },
    // 4: a session's two prompts, then a story that stalls after its first words.
    { content: [{ type: "text", text: "Noted: your name is Ada." }] },
    { content: [{ type: "text", text: "Your name is Ada." }] },
    {
      content: [{ type: "text", text: ["Once ", "upon ", "a time"] }],
      fault: { type: "stall", afterEvents: 4 },
    },
  ],
});
const server = await serveScriptedModel(model);
const base = { model: "anthropic/claude-sonnet-4-5", apiKey: "demo", baseURL: server.url } as const;

let failures = 0;
const check = (ok: boolean, what: string) => {
  if (!ok) failures++;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
};

/** What a user would show for each of Wisp's errors: every tag handled, nothing left in the channel. */
const explain = <A>(effect: Effect.Effect<A, AnySdkError>): Effect.Effect<A | string> =>
  effect.pipe(
    Effect.catchTags({
      ConfigError: (error) => Effect.succeed(`check the options (${error.path ?? error.code})`),
      ProviderError: (error) => Effect.succeed(`the provider refused: ${error.code}`),
      RequestError: (error) => Effect.succeed(`network trouble: ${error.code}`),
      AbortError: () => Effect.succeed("stopped"),
      ParseError: (error) => Effect.succeed(`unreadable answer: ${error.code}`),
      HookError: (error) => Effect.succeed(`a hook failed: ${error.code}`),
      ToolError: (error) => Effect.succeed(`a tool failed: ${error.code}`),
      BudgetError: (error) => Effect.succeed(`over budget: ${error.code}`),
    }),
  );

// 1. Retried on a retryable error (the 529), then the tool runs and the model answers.
const answer = await Effect.runPromise(
  runAgentEffect({ ...base, prompt: "What is 6 × 7?", tools: [calculator], retry: { maxRetries: 0 } }).pipe(
    Effect.map((result) => result.text),
    Effect.retry({ times: 2, while: (error) => error.retryable }),
    explain,
  ),
);
console.log(`answer: ${answer}`);
check(answer === "6 × 7 is 42." && model.requests.length === 3, "retried the 529 once and ran the tool");

// 2. Not retryable: the 401 goes straight to its handler.
const refused = await Effect.runPromise(
  runAgentEffect({ ...base, prompt: "Hi", retry: { maxRetries: 0 } }).pipe(
    Effect.map((result) => result.text),
    Effect.retry({ times: 2, while: (error) => error.retryable }),
    explain,
  ),
);
console.log(`refused: ${refused}`);
check(
  refused === "the provider refused: AUTH" && model.requests.length === 4,
  "an AUTH error is not retried",
);

// 3. A run as a Stream of events.
const deltas = await Effect.runPromise(
  runAgentStreamEffect({ ...base, prompt: "A poem" }).pipe(
    Stream.filter((event) => event.type === "text-delta"),
    Stream.map((event) => event.delta),
    Stream.runCollect,
  ),
);
console.log(`streamed: ${deltas.join("|")}`);
check(deltas.join("") === "Roses are red.", "the stream carried every text delta");

// 4. A scoped session: two prompts, then a story cut by Effect.timeout; closed when the scope ends.
let closed = false;
const disconnected = model.nextDisconnect().then(() => true);
const story = await Effect.runPromise(
  Effect.scoped(
    Effect.gen(function* () {
      const session = yield* createAgentSessionEffect({
        ...base,
        hooks: { sessionEnd: () => void (closed = true) },
      });
      yield* session.chat("My name is Ada.");
      const second = yield* session.chat("What is my name?");
      console.log(`session: ${second.text}`);
      const timedOut = yield* session.chat("Tell me a story").pipe(
        Effect.timeout("200 millis"),
        Effect.as("finished"),
        Effect.catchTag("TimeoutError", () => Effect.succeed("timed out")),
      );
      const state = yield* session.export();
      const last = state.messages.at(-1);
      const partial = last?.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      console.log(
        `story: ${timedOut}, the session kept "${partial}" (${last?.role === "assistant" ? last.stopReason : "?"})`,
      );
      return { timedOut, partial, messages: state.messages.length, closedInside: closed };
    }),
  ),
);
check(story.timedOut === "timed out" && story.partial === "Once ", "the timeout interrupted the story");
const noticed = await Promise.race([
  disconnected,
  new Promise((resolve) => setTimeout(resolve, 5_000, false)),
]);
check(noticed === true && model.disconnects === 1, "the interrupted story's connection was closed");
check(story.messages === 6 && !story.closedInside && closed, "the session was closed when its scope ended");

await server.close();
console.log(failures === 0 ? "all checks passed" : `${failures} checks failed`);
process.exit(failures === 0 ? 0 : 1);
