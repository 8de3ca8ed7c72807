/** Shared by the Effect tests over loopback HTTP: a stalled stream and a fetch that says when it began. */
import type { ScriptedTurn } from "../../src/testing/index.ts";

/** A stream that sends its first text delta, then nothing until the client leaves. */
export const STALLED: ScriptedTurn = {
  content: [{ type: "text", text: ["Once ", "upon ", "a time"] }],
  fault: { type: "stall", afterEvents: 4 },
};

/** A promise and the function that resolves it. */
export function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** The real fetch, and a promise of its first response's headers (the stream has begun). */
export function watchedFetch(): { fetch: typeof fetch; responded: Promise<void> } {
  const responded = signal();
  const watched: typeof fetch = (input, init) =>
    fetch(input, init).then((response) => {
      responded.resolve();
      return response;
    });
  return { fetch: watched, responded: responded.promise };
}
