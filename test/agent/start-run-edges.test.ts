/**
 * How a run's Result is assembled and how a run refused at the start ends, in corners the loop tests
 * leave out: the text is the last assistant message's even when tool results come after it; no
 * `output` key without structured output; a conversation refused before the model is resolved keeps
 * the model as given and fires no `sessionEnd`; something unexpected thrown on the way is classified
 * (an abort winning).
 */
import { describe, expect, it } from "vitest";
import { type Message, runAgent } from "../../src/index.ts";
import { echo, says, scripted } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

/** A conversation whose first message cannot be read: reading its content throws a plain Error. */
function unreadable(): Message[] {
  const message = {
    id: "u0",
    role: "user",
    timestamp: 1,
    get content(): never {
      throw new Error("the store went away");
    },
  };
  return [message as unknown as Message];
}

describe("the Result", () => {
  it("its text is the last assistant message's, even with tool results after it (a partial too)", async () => {
    const { options } = scripted([
      {
        content: [
          { type: "text", text: "Let me echo." },
          { type: "tool_call", name: "echo", args: { word: "hi" } },
        ],
      },
    ]);
    // The turn limit ends the run after the tool ran: the conversation ends with its result.
    const result = await runAgent(options({ tools: [echo], maxTurns: 1 }));
    if (result.ok) throw new Error("expected the turn limit to end the run");
    expect(result.partial.messages.at(-1)?.role).toBe("tool_result");
    expect(result.partial.text).toBe("Let me echo.");
  });

  it("has no output key without structured output", async () => {
    const { options } = scripted([says("Plain.")]);
    const value = okValue(await runAgent(options()));
    expect(Object.keys(value)).not.toContain("output");
  });
});

describe("a conversation refused before the model is resolved", () => {
  it("keeps the model as given and fires no sessionEnd", async () => {
    const ended: string[] = [];
    const { model, options } = scripted([says("never")]);
    const result = await runAgent(
      options({
        messages: [{ id: "x", role: "user" } as unknown as Message],
        hooks: { sessionEnd: ({ stopReason }) => void ended.push(stopReason) },
      }),
    );
    expect(!result.ok && result.error.code).toBe("CONFIG_INVALID");
    expect(!result.ok && result.partial).toMatchObject({
      model: "anthropic/claude-sonnet-4-5",
      provider: "unknown",
      stopReason: "error",
    });
    expect(ended).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });
});

describe("something unexpected thrown before the run starts", () => {
  it("is an UNKNOWN error with its message, the cause kept", async () => {
    const { options } = scripted([says("never")]);
    const error = failure(await runAgent(options({ messages: unreadable() })));
    expect(error).toMatchObject({ code: "UNKNOWN", message: "the store went away", provider: "unknown" });
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("is an abort when the run was aborted", async () => {
    const { options } = scripted([says("never")]);
    const error = failure(
      await runAgent(options({ messages: unreadable(), signal: AbortSignal.abort("gone") })),
    );
    expect(error).toMatchObject({ code: "ABORTED", cause: "gone" });
  });
});
