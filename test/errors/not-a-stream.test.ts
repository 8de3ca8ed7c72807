/**
 * Answers that are not the event stream a turn asked for, from a real server on 127.0.0.1: a 200 with
 * an HTML page (a captive portal) or one JSON answer (a server that ignored `"stream": true`) is a
 * STREAM_MALFORMED ParseError that says what came, not retried; a gateway's `{ error }` sent with 200
 * is the provider failure it names; a stream sent as `text/plain` is still read; and a connection that
 * breaks after the answer began says it lost the stream, instead of "could not reach".
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamTurn, type TurnOptions } from "../../src/index.ts";
import { fixtureText } from "../support/fixtures.ts";

const hello = [
  { id: "u", role: "user" as const, content: [{ type: "text" as const, text: "hi" }], timestamp: 0 },
];
const STREAM = fixtureText("anthropic/text-sonnet-4-5.sse");

/** What the server answers, by the request's path. */
const ANSWERS: Record<string, (response: ServerResponse) => void> = {
  "/portal/v1/messages": (response) =>
    response
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end("<html>Sign in to the Wi-Fi</html>"),
  "/whole/v1/messages": (response) =>
    response.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: "msg_1",
        type: "message",
        role: "assistant",
        content: [{ type: "text", text: "not streamed" }],
        stop_reason: "end_turn",
        usage: { input_tokens: 1, output_tokens: 2 },
      }),
    ),
  "/gateway/v1/messages": (response) =>
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })),
  "/plain/v1/messages": (response) => response.writeHead(200, { "content-type": "text/plain" }).end(STREAM),
  "/mislabelled/v1/messages": (response) => {
    response.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    // A comment line first, and the stream in two writes.
    response.write(`\n: hello\n${STREAM.slice(0, 300)}`);
    setTimeout(() => response.end(STREAM.slice(300)), 10);
  },
  "/null-error/v1/messages": (response) =>
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ id: "chatcmpl-1", error: null, choices: [{ message: { content: "hi" } }] })),
  "/gateway-wait/v1/messages": (response) =>
    response
      .writeHead(200, { "content-type": "application/json", "retry-after-ms": "5" })
      .end(JSON.stringify({ error: { type: "rate_limit_error", message: "slow down" } })),
  "/drip/v1/messages": (response) => {
    response.writeHead(200, { "content-type": "text/html" });
    let sent = 0;
    const timer = setInterval(() => {
      if (++sent > 8) {
        clearInterval(timer);
        response.end("</html>");
      } else response.write(`<p>${sent}</p>`);
    }, 40);
  },
  "/endless/v1/messages": (response) => endless(response, 200, "text/html"),
  "/endless-error/v1/messages": (response) => endless(response, 500, "text/html"),
  "/cut/v1/messages": (response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    // Past the first text delta, then the socket goes.
    const cut = STREAM.indexOf("\n\n", STREAM.indexOf("text_delta")) + 2;
    response.write(STREAM.slice(0, cut), () => setTimeout(() => response.socket?.destroy(), 20));
  },
};

/** A body that never ends: 16 KB every 5 ms until the client goes. */
function endless(response: ServerResponse, status: number, type: string): void {
  response.writeHead(status, { "content-type": type });
  const timer = setInterval(() => response.write(`<p>${"x".repeat(16_384)}</p>`), 5);
  response.on("close", () => clearInterval(timer));
}

let base = "";
const requests: string[] = [];
const server = createServer((request, response) => {
  requests.push(request.url ?? "");
  request.resume();
  const answer = ANSWERS[request.url ?? ""];
  if (answer === undefined) response.writeHead(404).end();
  else answer(response);
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function turnAt(path: string, options: Partial<TurnOptions> = {}) {
  requests.length = 0;
  const turn = streamTurn(
    { messages: hello },
    {
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      baseURL: `${base}/${path}`,
      retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 },
      ...options,
    },
  );
  return turn.message;
}

describe("an answer that is not an event stream", () => {
  it("an HTML page with 200 is STREAM_MALFORMED naming the type and the page, and is not retried", async () => {
    const message = await turnAt("portal");
    expect(message.error).toMatchObject({ _tag: "ParseError", code: "STREAM_MALFORMED", retryable: false });
    expect(message.error?.message).toBe(
      "The server sent text/html instead of an event stream: <html>Sign in to the Wi-Fi</html>",
    );
    expect(message.error?.request).toEqual({ method: "POST", url: `${base}/portal/v1/messages` });
    expect(requests).toHaveLength(1);
  });

  it("one JSON answer (a server that ignored stream: true) is STREAM_MALFORMED showing it", async () => {
    const message = await turnAt("whole");
    expect(message.error).toMatchObject({ _tag: "ParseError", code: "STREAM_MALFORMED", retryable: false });
    expect(message.error?.message).toMatch(
      /^The server sent application\/json instead of an event stream: \{"id":"msg_1"/,
    );
    expect(requests).toHaveLength(1);
  });

  it("a gateway's error object sent with 200 is the provider failure it names, and is retried", async () => {
    const message = await turnAt("gateway");
    expect(message.error).toMatchObject({ _tag: "ProviderError", code: "OVERLOADED", retryable: true });
    expect(requests).toHaveLength(3);
  });

  it("an event stream labelled text/plain is still read", async () => {
    const message = await turnAt("plain");
    expect(message.error).toBeUndefined();
    expect(message.stopReason).toBe("complete");
    expect(message.content[0]).toMatchObject({ type: "text" });
  });
});

describe("a body that is not a stream is read only so far, and never hangs", () => {
  it("a stream labelled application/json is read as the stream it is", async () => {
    const message = await turnAt("mislabelled");
    expect(message.error).toBeUndefined();
    const plain = await turnAt("plain");
    expect(message.content).toEqual(plain.content);
  });

  it('a JSON answer with "error": null is not taken for a failure', async () => {
    const message = await turnAt("null-error");
    expect(message.error).toMatchObject({ _tag: "ParseError", code: "STREAM_MALFORMED" });
    expect(message.error?.message).toContain('"error":null');
  });

  it("a gateway's error with 200 keeps the wait its headers ask for", async () => {
    const message = await turnAt("gateway-wait", { retry: { maxRetries: 0 } });
    expect(message.error).toMatchObject({ code: "RATE_LIMITED", retryAfterMs: 5 });
  });

  it("a page that arrives slowly resets the idle timer, and is reported as the page it is", async () => {
    const message = await turnAt("drip", { idleTimeoutMs: 250 });
    expect(message.error).toMatchObject({ code: "STREAM_MALFORMED" });
    expect(message.error?.message).toMatch(/text\/html instead of an event stream: <p>1<\/p><p>2<\/p>/);
  });

  it("a page that never ends is read to 64 KB and let go, with 200 or with an error status", async () => {
    const page = await turnAt("endless");
    expect(page.error).toMatchObject({ code: "STREAM_MALFORMED" });
    const failed = await turnAt("endless-error", { retry: { maxRetries: 0 } });
    expect(failed.error).toMatchObject({ _tag: "ProviderError", code: "SERVER_ERROR", status: 500 });
  });

  it("an abort ends the read of a page that stalls, even through a fetch that ignores its signal", async () => {
    const stalled: typeof fetch = async () =>
      new Response(
        new ReadableStream({
          start: (controller) => controller.enqueue(new TextEncoder().encode("<html>")),
        }),
        { headers: { "content-type": "text/html" } },
      );
    const turn = streamTurn(
      { messages: hello },
      { model: "anthropic/claude-sonnet-4-5", apiKey: "k", fetch: stalled },
    );
    setTimeout(() => turn.abort(), 50);
    const message = await turn.message;
    expect(message.error).toMatchObject({ _tag: "AbortError", code: "ABORTED" });
    const timedOut = await streamTurn(
      { messages: hello },
      {
        model: "anthropic/claude-sonnet-4-5",
        apiKey: "k",
        fetch: stalled,
        idleTimeoutMs: 50,
        retry: { maxRetries: 0 },
      },
    ).message;
    expect(timedOut.error).toMatchObject({ _tag: "RequestError", code: "TIMEOUT" });
  });
});

describe("a connection that breaks after the answer began", () => {
  it("says the stream broke (not that the server could not be reached) and keeps the text so far", async () => {
    const message = await turnAt("cut");
    expect(message.error).toMatchObject({ _tag: "RequestError", code: "NETWORK" });
    expect(message.error?.message).toMatch(
      new RegExp(`^Lost the stream from ${base}/cut/v1/messages \\(POST\\): `),
    );
    expect(message.content[0]).toMatchObject({ type: "text" });
    // Output had begun, so it is not retried.
    expect(requests).toHaveLength(1);
  });
});
