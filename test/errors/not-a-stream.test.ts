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
import { streamTurn } from "../../src/index.ts";
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
  "/cut/v1/messages": (response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    // Past the first text delta, then the socket goes.
    const cut = STREAM.indexOf("\n\n", STREAM.indexOf("text_delta")) + 2;
    response.write(STREAM.slice(0, cut), () => setTimeout(() => response.socket?.destroy(), 20));
  },
};

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

async function turnAt(path: string) {
  requests.length = 0;
  const turn = streamTurn(
    { messages: hello },
    {
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      baseURL: `${base}/${path}`,
      retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 },
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
