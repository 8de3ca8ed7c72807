/**
 * The loop with tools, through both wire APIs: multi-turn tool use, parallel and sequential calls
 * with results in the model's order, and every way a call can go wrong reaching the model as an
 * error result it can act on while the run goes on.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AgentEvent, defineTool, runAgent, runAgentStream } from "../../src/index.ts";
import { calls, expectConsistent, LOOP_PROVIDERS, requestBody, says, scripted } from "../support/agent.ts";

const add = defineTool({
  name: "add",
  description: "Adds two numbers",
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** The tool results a request sent back, normalized across the two wire formats. */
function sentResults(
  body: Record<string, unknown>,
): Array<{ id: string; output: string; isError?: boolean }> {
  const messages = body.messages as Array<Record<string, unknown>>;
  const out: Array<{ id: string; output: string; isError?: boolean }> = [];
  for (const message of messages) {
    if (message.role === "tool")
      out.push({ id: String(message.tool_call_id), output: String(message.content) });
    if (message.role === "user" && Array.isArray(message.content)) {
      for (const block of message.content as Array<Record<string, unknown>>) {
        if (block.type === "tool_result") {
          out.push({
            id: String(block.tool_use_id),
            output: String(block.content),
            isError: block.is_error as boolean,
          });
        }
      }
    }
  }
  return out;
}

for (const provider of LOOP_PROVIDERS) {
  describe(`the tool loop through ${provider.name}`, () => {
    it("runs tools over several turns and ends when the model stops asking", async () => {
      const { model, options } = scripted(
        [calls(["add", { a: 2, b: 3 }]), calls(["add", { a: 5, b: 10 }]), says("The sum is 15.")],
        provider.model,
      );
      const result = await runAgent(options({ prompt: "2+3+10?", tools: [add] }));
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      const value = result.value;
      expect(value.text).toBe("The sum is 15.");
      expect(value.turns).toBe(3);
      expect(value.stopReason).toBe("complete");
      expect(
        value.toolCalls.map((record) => [record.toolCall.args, record.result.output, record.turn]),
      ).toEqual([
        [{ a: 2, b: 3 }, "5", 1],
        [{ a: 5, b: 10 }, "15", 2],
      ]);
      expect(value.messages.map((message) => message.role)).toEqual([
        "user",
        "assistant",
        "tool_result",
        "assistant",
        "tool_result",
        "assistant",
      ]);
      expect(model.requests).toHaveLength(3);
      expect(sentResults(requestBody(model, 2)).map((result) => result.output)).toEqual(["5", "15"]);
      const turnUsage = value.messages.flatMap((message) =>
        message.role === "assistant" ? [message.usage.output] : [],
      );
      expect(value.usage.output).toBe(turnUsage.reduce((sum, count) => sum + count, 0));
      expect(value.usage.costUsd).toBeGreaterThan(0);
      expect(value.provider).toBe(provider.name);
      expectConsistent(value.messages);
    });

    it("runs a turn's calls together and returns results in the model's order", async () => {
      // Each call waits until both have started: only parallel execution can finish.
      let started = 0;
      let release: () => void = () => {};
      const bothStarted = new Promise<void>((resolve) => {
        release = resolve;
      });
      const finishOrder: string[] = [];
      const wait = defineTool({
        name: "wait",
        description: "",
        input: z.object({ label: z.string(), after: z.number() }),
        execute: async ({ label, after }) => {
          if (++started === 2) release();
          await bothStarted;
          await new Promise((resolve) => setTimeout(resolve, after));
          finishOrder.push(label);
          return label;
        },
      });
      const { model, options } = scripted(
        [calls(["wait", { label: "slow", after: 30 }], ["wait", { label: "fast", after: 0 }]), says("done")],
        provider.model,
      );
      const result = await runAgent(options({ tools: [wait] }));
      expect(result.ok).toBe(true);
      expect(finishOrder).toEqual(["fast", "slow"]);
      expect(sentResults(requestBody(model)).map((sent) => sent.output)).toEqual(["slow", "fast"]);
    });

    it("runs calls one by one when asked", async () => {
      let running = 0;
      let most = 0;
      const step = defineTool({
        name: "step",
        description: "",
        inputSchema: { type: "object" },
        execute: async () => {
          most = Math.max(most, ++running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running--;
          return "ok";
        },
      });
      const { options } = scripted(
        [calls(["step", {}], ["step", {}], ["step", {}]), says("done")],
        provider.model,
      );
      const result = await runAgent(options({ tools: [step], toolExecution: "sequential" }));
      expect(result.ok && result.value.toolCalls).toHaveLength(3);
      expect(most).toBe(1);
    });

    it("tells the model about invalid arguments, unknown tools, throws and timeouts, and goes on", async () => {
      const fail = defineTool({
        name: "fail",
        description: "",
        inputSchema: { type: "object" },
        execute: () => {
          throw new Error("disk full");
        },
      });
      let sawAbort = false;
      const hang = defineTool({
        name: "hang",
        description: "",
        inputSchema: { type: "object" },
        timeoutMs: 50,
        execute: (_args, { signal }) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener("abort", () => {
              sawAbort = true;
              reject(signal.reason);
            });
          }),
      });
      const { model, options } = scripted(
        [
          calls(["add", { a: "two", b: 3 }], ["nope", {}], ["fail", {}], ["hang", {}], ["add", '{"a": 1,']),
          says("I will try again."),
        ],
        provider.model,
      );
      const events: AgentEvent[] = [];
      const run = runAgentStream(options({ tools: [add, fail, hang] }));
      for await (const event of run) events.push(event);
      const result = await run.result;
      expect(result.ok).toBe(true);
      const sent = sentResults(requestBody(model));
      expect(sent.map((result) => result.output)).toEqual([
        expect.stringMatching(/^Invalid arguments for "add": a: .*expected number/),
        'Unknown tool "nope". Available tools: add, fail, hang',
        'Tool "fail" failed: disk full',
        'Tool "hang" timed out after 50 ms',
        'The arguments of "add" were not valid JSON: {"a": 1,',
      ]);
      if (provider.name === "anthropic") expect(sent.every((result) => result.isError)).toBe(true);
      expect(sawAbort).toBe(true);
      // tool-result events come as calls finish; the codes, sorted:
      const errors = events.flatMap((event) =>
        event.type === "tool-result" && event.error ? [event.error.code] : [],
      );
      expect(errors.sort()).toEqual([
        "TOOL_FAILED",
        "TOOL_INPUT_INVALID",
        "TOOL_INPUT_INVALID",
        "TOOL_NOT_FOUND",
        "TOOL_TIMEOUT",
      ]);
      if (result.ok) expectConsistent(result.value.messages);
    });
  });
}

describe("tool output", () => {
  it("a schema whose validation throws is an invalid-arguments result, not a crashed run", async () => {
    const throwing = defineTool({
      name: "strict",
      description: "",
      input: z.object({ a: z.string() }).refine(() => {
        throw new Error("validator exploded");
      }),
      execute: () => "never",
    });
    const { options } = scripted([calls(["strict", { a: "x" }]), says("ok")]);
    const result = await runAgent(options({ tools: [throwing] }));
    expect(result.ok && result.value.toolCalls[0]?.result).toMatchObject({
      isError: true,
      output: 'Validating the arguments of "strict" failed: validator exploded',
    });
  });

  it("sends text as is and other values as JSON; a value JSON cannot hold is a tool failure", async () => {
    const json = defineTool({
      name: "json",
      description: "",
      inputSchema: { type: "object" },
      execute: () => ({ temp: 21 }),
    });
    const none = defineTool({
      name: "none",
      description: "",
      inputSchema: { type: "object" },
      execute: () => {},
    });
    const big = defineTool({
      name: "big",
      description: "",
      inputSchema: { type: "object" },
      execute: () => 1n as never,
    });
    const { options } = scripted([calls(["json", {}], ["none", {}], ["big", {}]), says("ok")]);
    const result = await runAgent(options({ tools: [json, none, big] }));
    expect(
      result.ok && result.value.toolCalls.map((record) => [record.result.output, record.result.isError]),
    ).toEqual([
      ['{"temp":21}', false],
      ["", false],
      [expect.stringMatching(/^Tool "big" failed: .*BigInt/), true],
    ]);
  });

  it("gives execute the call id, the session id, the turn and the conversation", async () => {
    const seen: unknown[] = [];
    const probe = defineTool({
      name: "probe",
      description: "",
      inputSchema: { type: "object" },
      execute: (_args, context) => {
        seen.push([
          context.toolCallId,
          context.sessionId,
          context.turn,
          context.messages.length,
          context.signal.aborted,
        ]);
        return "ok";
      },
    });
    const { options } = scripted([
      { content: [{ type: "tool_call", name: "probe", args: {}, id: "toolu_1" }] },
      says("ok"),
    ]);
    await runAgent(options({ tools: [probe], sessionId: "s-1" }));
    expect(seen).toEqual([["toolu_1", "s-1", 1, 2, false]]);
  });
});
