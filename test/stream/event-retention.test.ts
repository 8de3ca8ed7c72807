/**
 * Nothing keeps an event once its reader has had it: after a turn or a run, with `for await` or a
 * callback, every delta event is collectable while the message it built lives on. Checked with
 * WeakRefs and V8's own collector (node:v8 turns `gc` on for this file).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { type AgentEvent, runAgentStream, streamTurn, type TurnEvent } from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const hello = [
  { id: "u", role: "user" as const, content: [{ type: "text" as const, text: "hi" }], timestamp: 0 },
];
const TEXT = Array.from({ length: 400 }, (_, index) => `word${index} `).join("");

/** How many of `refs` still reach their object once the current job is over and the heap collected. */
async function alive(refs: WeakRef<object>[]): Promise<number> {
  // A WeakRef keeps its target until the job that made or read it ends.
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  gc();
  return refs.filter((ref) => ref.deref() !== undefined).length;
}

function scripted() {
  return createScriptedModel({ script: [{ content: [{ type: "text", text: TEXT }] }] });
}

const options = (model: ReturnType<typeof scripted>) => ({
  model: "anthropic/claude-sonnet-4-5" as const,
  apiKey: "k",
  fetch: model.fetch,
});

describe("events are not kept after they are read", () => {
  it("streamTurn with for await: every delta is collectable, the message is whole", async () => {
    const refs: WeakRef<object>[] = [];
    const turn = streamTurn({ messages: hello }, options(scripted()));
    for await (const event of turn) if (event.type === "text-delta") refs.push(new WeakRef(event));
    const message = await turn.message;
    expect(refs.length).toBeGreaterThan(50);
    expect(await alive(refs)).toBe(0);
    expect(message.content).toEqual([{ type: "text", text: TEXT }]);
    // The turn, its queue with it, was alive all along.
    expect(await turn.message).toBe(message);
  });

  it("streamTurn with onEvent: the same", async () => {
    const refs: WeakRef<object>[] = [];
    const onEvent = (event: TurnEvent): void => {
      if (event.type === "text-delta") refs.push(new WeakRef(event));
    };
    const message = await streamTurn({ messages: hello }, { ...options(scripted()), onEvent }).message;
    expect(refs.length).toBeGreaterThan(50);
    expect(await alive(refs)).toBe(0);
    expect(message.content).toEqual([{ type: "text", text: TEXT }]);
  });

  it("runAgentStream: the same for a run's events, while its result lives on", async () => {
    const refs: WeakRef<object>[] = [];
    const run = runAgentStream({ ...options(scripted()), prompt: "hi" });
    for await (const event of run as AsyncIterable<AgentEvent>)
      if (event.type === "text-delta") refs.push(new WeakRef(event));
    const result = await run.result;
    expect(refs.length).toBeGreaterThan(50);
    expect(await alive(refs)).toBe(0);
    expect(result.ok && result.value.text).toBe(TEXT);
    expect(await run.result).toBe(result);
  });

  it("the check can fail: events the reader keeps are still alive", async () => {
    const kept: TurnEvent[] = [];
    const refs: WeakRef<object>[] = [];
    const turn = streamTurn({ messages: hello }, options(scripted()));
    for await (const event of turn)
      if (event.type === "text-delta") {
        kept.push(event);
        refs.push(new WeakRef(event));
      }
    await turn.message;
    expect(await alive(refs)).toBe(refs.length);
    expect(kept).toHaveLength(refs.length);
  });
});
