/**
 * One `streamTurn` over a fresh scripted model, its events collected: what the timing tests (the idle
 * limit, `timeoutMs`) drive on the fake clock, after `warmProvider` loaded the provider's code on the
 * real one.
 */
import { beforeAll } from "vitest";
import { streamTurn, type TurnEvent, type TurnOptions } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";

/** A one-message conversation. */
export const HELLO = [
  { id: "u", role: "user" as const, content: [{ type: "text" as const, text: "hi" }], timestamp: 0 },
];

/** Forty text pieces, to stream one by one. */
export const PIECES = Array.from({ length: 40 }, (_, index) => `piece${index} `);

/** A turn answered by `script` (in-process, no retries), its events collected through `onEvent`. */
export function watchedTurn(script: ScriptedTurn[], extra: Partial<TurnOptions> = {}) {
  const model = createScriptedModel({ script });
  const events: TurnEvent[] = [];
  const turn = streamTurn(
    { messages: HELLO },
    {
      model: "anthropic/claude-sonnet-4-5",
      fetch: model.fetch,
      retry: { maxRetries: 0 },
      onEvent: (event) => events.push(event),
      ...extra,
    },
  );
  return { model, events, turn };
}

/** Loads the provider's code (a dynamic import, real I/O the fake clock cannot wait for) before the file's tests. */
export function warmProvider(): void {
  beforeAll(async () => {
    await watchedTurn([{ content: [{ type: "text", text: "warm" }] }]).turn.message;
  });
}
