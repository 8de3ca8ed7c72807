/**
 * Cancellation over real loopback HTTP: one AbortSignal reaches the fetch, the body read and the
 * retry wait; the turn settles with stopReason `aborted` and the partial message; the server sees its
 * connection closed; no timers are left behind. The scripted streams stall right after their first
 * text delta until the client leaves, so a turn that did not really stop would hang past the timeout.
 */
import { describe, expect, it } from "vitest";
import { streamTurn, type TurnOptions, uncheckedModel } from "../../src/index.ts";
import { loopbackModel } from "../support/loopback.ts";
import { HELLO } from "../support/replay.ts";

const TEXT = { content: [{ type: "text" as const, text: ["first ", "second ", "third"] }] };

const loopback = loopbackModel();
const model = loopback.model;

const PROVIDERS = [
  {
    name: "anthropic",
    // message_start, content_block_start, ping, the first text_delta
    firstDeltaEvents: 4,
    options: (): Partial<TurnOptions> => ({ model: "anthropic/claude-sonnet-4-5", baseURL: loopback.url }),
  },
  {
    name: "openai-chat",
    // the role chunk, the first content chunk
    firstDeltaEvents: 2,
    options: (): Partial<TurnOptions> => ({ model: "openai/gpt-4o", baseURL: `${loopback.url}/v1` }),
  },
  {
    name: "openai-responses",
    // created, in_progress, output_item.added, content_part.added, the first output_text.delta
    firstDeltaEvents: 5,
    options: (): Partial<TurnOptions> => ({ model: "openai-responses/gpt-5", baseURL: `${loopback.url}/v1` }),
  },
  {
    name: "google",
    // every chunk holds new parts: the first is the first text
    firstDeltaEvents: 1,
    options: (): Partial<TurnOptions> => ({
      model: "google/gemini-2.5-flash",
      baseURL: `${loopback.url}/v1beta`,
    }),
  },
];

function timerCount(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
}

for (const provider of PROVIDERS) {
  describe(`cancellation through ${provider.name} over loopback`, () => {
    const SLOW = { ...TEXT, fault: { type: "stall" as const, afterEvents: provider.firstDeltaEvents } };
    const start = (extra: Partial<TurnOptions> = {}) =>
      streamTurn(
        { messages: [HELLO] },
        { model: uncheckedModel(""), apiKey: "k", ...provider.options(), ...extra },
      );

    it("abort mid-stream keeps the partial text, closes the connection and leaves no timers", async () => {
      model.push(SLOW);
      const timersBefore = timerCount();
      const disconnected = model.nextDisconnect();
      const controller = new AbortController();
      const turn = start({ signal: controller.signal });
      for await (const event of turn) {
        if (event.type === "text-delta") controller.abort(new Error("stop pressed"));
      }
      const message = await turn.message;
      expect(message.stopReason).toBe("aborted");
      expect(message.error).toMatchObject({ _tag: "AbortError", code: "ABORTED", retryable: false });
      expect(message.content).toEqual([{ type: "text", text: "first " }]);
      await disconnected;
      expect(timerCount()).toBeLessThanOrEqual(timersBefore);
    });

    it("an already-aborted signal fails at once without a request", async () => {
      const before = model.requests.length;
      const turn = start({ signal: AbortSignal.abort() });
      const message = await turn.message;
      expect(message.stopReason).toBe("aborted");
      expect(message.error?.code).toBe("ABORTED");
      expect(model.requests.length).toBe(before);
    });

    it("abort while waiting for the headers ends the request", async () => {
      model.push({ ...SLOW, headersDelayMs: 30_000 });
      const disconnected = model.nextDisconnect();
      const turn = start();
      const received = model.requests.length;
      while (model.requests.length === received) await new Promise((resolve) => setTimeout(resolve, 5));
      turn.abort();
      const message = await turn.message;
      expect(message.stopReason).toBe("aborted");
      expect(message.content).toEqual([]);
      await disconnected;
    });

    it("abort during a retry wait ends it at once with no second request", async () => {
      model.push({ fault: { type: "http", status: 429, retryAfterMs: 30_000 } });
      const before = model.requests.length;
      const turn = start({ retry: { maxRetries: 2, maxRetryAfterMs: 60_000 } });
      for await (const event of turn) if (event.type === "retry") turn.abort();
      const message = await turn.message;
      expect(message.stopReason).toBe("aborted");
      expect(model.requests.length - before).toBe(1);
    });

    it("breaking out of for-await cancels the turn and closes the connection", async () => {
      model.push(SLOW);
      const disconnected = model.nextDisconnect();
      const turn = start();
      for await (const event of turn) if (event.type === "text-delta") break;
      const message = await turn.message;
      expect(message.stopReason).toBe("aborted");
      expect(message.content).toEqual([{ type: "text", text: "first " }]);
      await disconnected;
    });

    it("AbortSignal.timeout on a slow stream gives ABORTED with the timeout as cause and the partial text", async () => {
      model.push(SLOW);
      const turn = start({ signal: AbortSignal.timeout(300) });
      const message = await turn.message;
      expect(message.stopReason).toBe("aborted");
      expect(message.error).toMatchObject({ code: "ABORTED", message: "The signal's timeout expired" });
      expect(message.content).toEqual([{ type: "text", text: "first " }]);
    });

    it("abort() is idempotent and the message is still plain JSON", async () => {
      model.push(SLOW);
      const turn = start();
      for await (const event of turn) {
        if (event.type === "text-delta") {
          turn.abort();
          turn.abort();
        }
      }
      const message = await turn.message;
      expect(JSON.parse(JSON.stringify(message))).toEqual(message);
    });
  });
}

describe("cancellation with an injected fetch that ignores its signal", () => {
  it("still settles at once: the body reader is cancelled on abort", async () => {
    const encoder = new TextEncoder();
    let cancelled = false;
    const stubborn = (async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(
              encoder.encode('data: {"id":"c","choices":[{"index":0,"delta":{"content":"partial"}}]}\n\n'),
            );
          },
          cancel() {
            cancelled = true;
          },
        }),
        { status: 200 },
      )) as typeof fetch;
    const turn = streamTurn({ messages: [HELLO] }, { model: "openai/gpt-4o", fetch: stubborn });
    for await (const event of turn) if (event.type === "text-delta") turn.abort();
    const message = await turn.message;
    expect(message.stopReason).toBe("aborted");
    expect(message.content).toEqual([{ type: "text", text: "partial" }]);
    expect(cancelled).toBe(true);
  });
});
