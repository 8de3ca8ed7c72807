/**
 * readBody and streamBody, called directly (issue 41's src/stream survivors): an error body read only
 * to its ceiling, a missing body, a document-labelled answer looked at only as far as needed (a stream
 * that says so early is read as one without waiting for its end), what the ParseError shows of a
 * document, a gateway's `{ error }` told from an empty one, and the stream's branch let go when the
 * look fails.
 */
import { describe, expect, it } from "vitest";
import { readBody, streamBody } from "../../src/stream/response-body.ts";

const REQUEST = { method: "POST", url: "https://api.example/v1/chat" };
const text = (value: string): Uint8Array => new TextEncoder().encode(value);

/** A body that sends `chunks` one per pull, then stays open unless `end`; records pulls and cancels. */
function source(chunks: Uint8Array[], { end = true } = {}) {
  let index = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller): Promise<void> | undefined {
        const chunk = chunks[index++];
        if (chunk !== undefined) controller.enqueue(chunk);
        else if (end) controller.close();
        else return new Promise(() => {}); // open, silent
        return undefined;
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, pulled: () => index, cancelled: () => cancelled };
}

const answer = (body: ReadableStream<Uint8Array> | null, type?: string): Response =>
  new Response(body, { status: 200, headers: type === undefined ? {} : { "content-type": type } });

describe("readBody", () => {
  it("is empty text for a response without a body", async () => {
    expect(await readBody(new Response(null, { status: 500 }), {})).toBe("");
  });

  it("reads no more than 64 Ki characters, and keeps exactly that much", async () => {
    const long = source([text("x".repeat(100_000)), text("more")]);
    const body = await readBody(new Response(long.body, { status: 500 }), {});
    expect(body).toBe("x".repeat(64 * 1024));
    expect(long.pulled()).toBe(1);
    expect(long.cancelled()).toBe(true);

    const exact = source([text("y".repeat(64 * 1024)), text("more")]);
    expect(await readBody(new Response(exact.body, { status: 500 }), {})).toBe("y".repeat(64 * 1024));
    expect(exact.pulled()).toBe(1); // the ceiling is reached: the next chunk is not read
  });
});

describe("streamBody", () => {
  it("a 200 without a body is STREAM_TRUNCATED, not retried", async () => {
    await expect(streamBody(answer(null), "openai", REQUEST, {})).rejects.toMatchObject({
      _tag: "ParseError",
      code: "STREAM_TRUNCATED",
      retryable: false,
      message: "The response has no body",
    });
  });

  it("a stream under a document's label is read as one as soon as it begins like one, without waiting for its end", async () => {
    const open = source([text('data: {"a":1}\n\n')], { end: false });
    const stream = await streamBody(answer(open.body, "application/json"), "openai", REQUEST, {});
    const reader = stream.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: {"a":1}\n\n');
    await reader.cancel();
  });

  it("looks no further than 64 Ki characters into a document: a page that stays open is still refused", async () => {
    const open = source([text(`<html>${"p".repeat(64 * 1024 - 6)}`)], { end: false });
    const refused = streamBody(answer(open.body, "text/html"), "openai", REQUEST, {});
    // Settles although the body never ends: the look stopped at the ceiling.
    await expect(refused).rejects.toMatchObject({ _tag: "ParseError", code: "STREAM_MALFORMED" });
  });

  it("shows the document's type without its parameters and at most 200 characters of it, trimmed", async () => {
    const page = `   <html>${"p".repeat(400)}</html>`;
    const error = await streamBody(
      answer(source([text(page)]).body, "text/html ; charset=utf-8"),
      "openai",
      REQUEST,
      {},
    ).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ _tag: "ParseError", code: "STREAM_MALFORMED" });
    expect((error as Error).message).toBe(
      `The server sent text/html instead of an event stream: ${page.trim().slice(0, 200)}`,
    );
  });

  it("a gateway's { error } sent with 200 is the provider failure it names; an empty error is not one", async () => {
    const named = streamBody(
      answer(source([text(JSON.stringify({ error: "Overloaded" }))]).body, "application/json"),
      "openai",
      REQUEST,
      {},
    );
    await expect(named).rejects.toMatchObject({ _tag: "ProviderError" });
    const empty = streamBody(
      answer(source([text(JSON.stringify({ error: "" }))]).body, "application/json"),
      "openai",
      REQUEST,
      {},
    );
    await expect(empty).rejects.toMatchObject({ _tag: "ParseError", code: "STREAM_MALFORMED" });
  });

  it("cancels the body when looking at it fails (an abort), so the transfer stops", async () => {
    const controller = new AbortController();
    const open = source([text("<html>")], { end: false });
    const looking = streamBody(answer(open.body, "text/html"), "openai", REQUEST, {
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort(new DOMException("stop", "AbortError"));
    await expect(looking).rejects.toMatchObject({ name: "AbortError" });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(open.cancelled()).toBe(true);
  });
});
