/**
 * Abort at every phase of a run — before the request, waiting for headers, mid-stream, during a tool,
 * during a retry wait, by breaking out of the event loop — over real loopback HTTP where the network
 * is involved. Each ends with code ABORTED, keeps what arrived, closes the connection, and leaves a
 * conversation that is valid to continue.
 */
import { describe, expect, it } from "vitest";
import { type AgentOptions, defineTool, runAgent, runAgentStream } from "../../src/index.ts";
import { calls, expectConsistent, says, scripted } from "../support/agent.ts";
import { loopbackModel } from "../support/loopback.ts";

const loopback = loopbackModel();
const model = loopback.model;

const overLoopback = (extra: Partial<AgentOptions>): AgentOptions => ({
  model: "anthropic/claude-sonnet-4-5",
  baseURL: loopback.url,
  apiKey: "k",
  prompt: "go",
  ...extra,
});

/** A stream that sends its first text delta, then nothing until the client leaves. */
const STALLED = {
  content: [{ type: "text" as const, text: ["Once ", "upon ", "a time"] }],
  fault: { type: "stall" as const, afterEvents: 4 },
};

describe("abort over loopback", () => {
  it("AbortSignal.timeout on a stalled stream ends with ABORTED, the partial text and a closed connection", async () => {
    model.push(STALLED);
    const disconnected = model.nextDisconnect();
    // The timer starts once the first text has arrived (on a loaded machine a timer started with the
    // request could fire before it); its own reason, a TimeoutError, is what aborts the run.
    const controller = new AbortController();
    let timer: AbortSignal | undefined;
    const onEvent = (event: { type: string }) => {
      if (event.type !== "text-delta" || timer !== undefined) return;
      timer = AbortSignal.timeout(100);
      timer.addEventListener("abort", () => controller.abort(timer?.reason));
    };
    const result = await runAgent(overLoopback({ signal: controller.signal, onEvent }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      _tag: "AbortError",
      code: "ABORTED",
      message: "The signal's timeout expired",
    });
    expect(result.partial.stopReason).toBe("aborted");
    expect(result.partial.text).toBe("Once ");
    expect(result.partial.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
    await disconnected;
  });

  it("abort while waiting for headers ends the request", async () => {
    model.push({ ...says("late"), headersDelayMs: 30_000 });
    const disconnected = model.nextDisconnect();
    const run = runAgentStream(overLoopback({}));
    for await (const event of run) if (event.type === "turn-start") setTimeout(() => run.abort(), 20);
    const result = await run.result;
    expect(!result.ok && [result.error.code, result.partial.stopReason]).toEqual(["ABORTED", "aborted"]);
    await disconnected;
  });

  it("breaking out of for await cancels the run and the connection", async () => {
    model.push(STALLED);
    const disconnected = model.nextDisconnect();
    const run = runAgentStream(overLoopback({}));
    for await (const event of run) if (event.type === "text-delta") break;
    const result = await run.result;
    expect(!result.ok && result.error.code).toBe("ABORTED");
    expect(!result.ok && result.partial.text).toBe("Once ");
    await disconnected;
  });

  it("abort during a retry wait ends the wait at once", async () => {
    model.push({ fault: { type: "http", status: 429, retryAfter: 60 } });
    const run = runAgentStream(overLoopback({ retry: { maxRetries: 3, maxRetryAfterMs: 120_000 } }));
    for await (const event of run) if (event.type === "retry") run.abort();
    const result = await run.result;
    expect(!result.ok && result.error.code).toBe("ABORTED");
    expect(!result.ok && result.partial.durationMs).toBeLessThan(5_000);
  });
});

describe("abort in-process", () => {
  it("an already-aborted signal fails at once without a request", async () => {
    const { model: local, options } = scripted([says("never")]);
    const result = await runAgent(options({ signal: AbortSignal.abort() }));
    expect(!result.ok && result.error.code).toBe("ABORTED");
    expect(local.requests).toHaveLength(0);
    // The prompt was never sent, so it is not in the conversation (as when a hook stops it).
    expect(!result.ok && result.partial.messages).toEqual([]);
  });

  it("abort during a tool reaches the tool's signal; a tool that ignores it does not hold the run", async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const polite = defineTool({
      name: "polite",
      description: "",
      inputSchema: { type: "object" },
      execute: (_args, { signal }) => {
        toolSignal = signal;
        setTimeout(() => controller.abort(), 5);
        return new Promise((_resolve, reject) =>
          signal.addEventListener("abort", () => reject(signal.reason)),
        );
      },
    });
    const stubborn = defineTool({
      name: "stubborn",
      description: "",
      inputSchema: { type: "object" },
      execute: () => new Promise(() => {}),
    });
    const { model: local, options } = scripted([calls(["polite", {}], ["stubborn", {}]), says("never")]);
    const result = await runAgent(options({ tools: [polite, stubborn], signal: controller.signal }));
    expect(toolSignal?.aborted).toBe(true);
    expect(!result.ok && result.error.code).toBe("ABORTED");
    if (result.ok) return;
    expect(result.partial.toolCalls.map((record) => record.result.output)).toEqual([
      "Tool call aborted: the run was aborted",
      "Tool call aborted: the run was aborted",
    ]);
    expect(local.requests).toHaveLength(1);
    expectConsistent(result.partial.messages);
  });

  it("a run aborted mid-tool-call stream answers every call it kept", async () => {
    const controller = new AbortController();
    const { options } = scripted([
      {
        content: [
          { type: "tool_call", name: "noop", args: { a: 1 } },
          { type: "tool_call", name: "noop", args: { b: 2 }, chunks: ['{"b"', ": 2}"] },
        ],
        delayMs: 5,
      },
    ]);
    const run = runAgentStream(options({ signal: controller.signal }));
    let calls = 0;
    for await (const event of run) if (event.type === "tool-call" && ++calls === 1) controller.abort();
    const result = await run.result;
    expect(!result.ok && result.error.code).toBe("ABORTED");
    if (result.ok) return;
    expect(result.partial.messages.at(-1)).toMatchObject({
      role: "tool_result",
      content: [{ output: "Tool call not run: the run was aborted", isError: true }],
    });
    expectConsistent(result.partial.messages);
  });

  it("abort() is idempotent and the run-end event is always last", async () => {
    const { options } = scripted([{ ...says("slow words here"), delayMs: 20 }]);
    const run = runAgentStream(options());
    const types: string[] = [];
    for await (const event of run) {
      types.push(event.type);
      if (event.type === "text-delta") {
        run.abort();
        run.abort();
      }
    }
    expect(types.at(-1)).toBe("run-end");
    expect(types.filter((type) => type === "run-end")).toHaveLength(1);
    expect((await run.result).ok).toBe(false);
  });
});
