/**
 * Errors a person can act on: a network failure says what was requested (method, URL without
 * secrets), the runtime's code and how many attempts were made; a 404 names the URL; Anthropic's
 * baseURL works with or without `/v1`. Real sockets on 127.0.0.1 and a host that cannot resolve.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { safeUrl } from "../../src/http/safe-url.ts";
import { classifyThrown, runAgent, streamTurn, type TurnEvent } from "../../src/index.ts";

const hello = [
  { id: "u", role: "user" as const, content: [{ type: "text" as const, text: "hi" }], timestamp: 0 },
];
const fast = { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 };

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A server answering every request with `status` and `body`, recording the paths asked. */
async function answering(status: number, body: unknown) {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    paths.push(request.url ?? "");
    request.resume();
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, paths, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe("a network failure", () => {
  it("names the method, the URL, the runtime's code and the attempts (connection refused)", async () => {
    const port = await closedPort();
    const result = await runAgent({
      model: "openai/gpt-5",
      apiKey: "sk-secret",
      baseURL: `http://127.0.0.1:${port}/v1?api_key=sk-secret`,
      prompt: "hi",
      retry: fast,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const { error } = result;
    expect(error).toMatchObject({
      _tag: "RequestError",
      code: "NETWORK",
      retryable: true,
      causeCode: "ECONNREFUSED",
      attempts: 3,
      request: { method: "POST", url: `http://127.0.0.1:${port}/v1/chat/completions?api_key=[redacted]` },
    });
    expect(error.message).toBe(
      `Could not reach http://127.0.0.1:${port}/v1/chat/completions?api_key=[redacted] (POST): connect ECONNREFUSED 127.0.0.1:${port} — after 3 attempts`,
    );
    expect(JSON.stringify(error.toJSON())).not.toContain("sk-secret");
    expect(error.toJSON().cause).toMatchObject({ message: "fetch failed", cause: { code: "ECONNREFUSED" } });
  });

  it("names a host that does not resolve (ENOTFOUND)", async () => {
    const turn = streamTurn(
      { messages: hello },
      {
        model: "anthropic/claude-sonnet-4-5",
        apiKey: "k",
        baseURL: "http://wisp-no-such-host.invalid",
        retry: { maxRetries: 0 },
      },
    );
    const message = await turn.message;
    expect(message.error).toMatchObject({
      code: "NETWORK",
      causeCode: "ENOTFOUND",
      request: { method: "POST", url: "http://wisp-no-such-host.invalid/v1/messages" },
    });
    expect(message.error?.message).toMatch(
      /^Could not reach http:\/\/wisp-no-such-host\.invalid\/v1\/messages \(POST\): .*ENOTFOUND/,
    );
    expect(message.error).not.toHaveProperty("attempts"); // one attempt: nothing to count
  });

  it("a port fetch refuses outright (port 9) is not retried, and the message says why", async () => {
    const result = await runAgent({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      baseURL: "http://127.0.0.1:9",
      prompt: "hi",
      retry: fast,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "NETWORK", retryable: false });
    expect(result.error.attempts).toBeUndefined();
    expect(result.error.message).toBe(
      "Could not reach http://127.0.0.1:9/v1/messages (POST): bad port (fetch never connects to this port)",
    );
  });

  it("takes key-shaped text and the caller's own key out of the URL it names, wherever they sit", async () => {
    const port = await closedPort();
    const key = "gateway-key-0123456789";
    const turn = streamTurn(
      { messages: hello },
      {
        model: "openai/gpt-5",
        apiKey: key,
        baseURL: `http://127.0.0.1:${port}/sk-proj-abcdefghijklmnopqrstuv/v1?route=${key}`,
        retry: { maxRetries: 0 },
      },
    );
    const { error } = await turn.message;
    const url = `http://127.0.0.1:${port}/[redacted]/v1/chat/completions?route=[redacted]`;
    expect(error?.request).toEqual({ method: "POST", url });
    expect(error?.message.startsWith(`Could not reach ${url} (POST): `)).toBe(true);
    const json = JSON.stringify(error);
    for (const secret of [key, "sk-proj-abcdefghijklmnopqrstuv"]) expect(json).not.toContain(secret);
  });

  it("names every address Node tried when it reports them together (an AggregateError without a message)", () => {
    const both = Object.assign(
      new AggregateError(
        [new Error("connect ECONNREFUSED ::1:8080"), new Error("connect ECONNREFUSED 127.0.0.1:8080")],
        "",
      ),
      { code: "ECONNREFUSED" },
    );
    const error = classifyThrown(new TypeError("fetch failed", { cause: both }), {
      provider: "openai-chat",
      request: { method: "POST", url: "http://localhost:8080/v1/chat/completions" },
    });
    expect(error).toMatchObject({ code: "NETWORK", retryable: true, causeCode: "ECONNREFUSED" });
    expect(error.message).toBe(
      "Could not reach http://localhost:8080/v1/chat/completions (POST): connect ECONNREFUSED ::1:8080; connect ECONNREFUSED 127.0.0.1:8080",
    );
  });

  it("an unrecognized failure of the request still names the request", () => {
    const request = { method: "POST", url: "https://api.example.test/v1/messages" };
    const error = classifyThrown(new Error("something odd"), { provider: "anthropic", request });
    expect(error).toMatchObject({ code: "UNKNOWN", request });
    expect(error.message).toBe("something odd (POST https://api.example.test/v1/messages)");
  });
});

describe("a failure that is retried", () => {
  it("reaches retry events with its secrets taken out, as it reaches the final error", async () => {
    const key = "my-local-gateway-key-42";
    const server = await answering(429, {
      error: { message: `Rate limit reached for key ${key}.`, type: "rate_limit_error" },
    });
    try {
      const events: TurnEvent[] = [];
      const message = await streamTurn(
        { messages: hello },
        {
          model: "openai/gpt-5",
          apiKey: key,
          baseURL: `${server.url}/v1`,
          retry: fast,
          onEvent: (event) => events.push(event),
        },
      ).message;
      const retries = events.filter((event) => event.type === "retry");
      expect(retries).toHaveLength(2);
      for (const event of retries) expect(event.error.message).toBe("Rate limit reached for key [redacted].");
      expect(message.error).toMatchObject({
        code: "RATE_LIMITED",
        attempts: 3,
        message: "Rate limit reached for key [redacted]. — after 3 attempts",
        request: { method: "POST", url: `${server.url}/v1/chat/completions` },
      });
      expect(JSON.stringify(events)).not.toContain(key);
    } finally {
      await server.close();
    }
  });
});

describe("a 404", () => {
  it("names the URL that was requested", async () => {
    const server = await answering(404, {
      type: "error",
      error: { type: "not_found_error", message: "Not found" },
    });
    try {
      const message = await streamTurn(
        { messages: hello },
        {
          model: "anthropic/claude-sonnet-4-5",
          apiKey: "k",
          baseURL: `${server.url}/wrong`,
          retry: { maxRetries: 0 },
        },
      ).message;
      expect(message.error).toMatchObject({
        _tag: "ProviderError",
        status: 404,
        request: { url: `${server.url}/wrong/v1/messages` },
      });
      expect(message.error?.message).toBe(`Not found (POST ${server.url}/wrong/v1/messages answered 404)`);
    } finally {
      await server.close();
    }
  });
});

describe("Anthropic's baseURL", () => {
  it.each(["", "/", "/v1", "/v1/"])(
    "works with %j after the host: every request goes to /v1/messages",
    async (suffix) => {
      const server = await answering(400, {
        type: "error",
        error: { type: "invalid_request_error", message: "x" },
      });
      try {
        await streamTurn(
          { messages: hello },
          {
            model: "anthropic/claude-sonnet-4-5",
            apiKey: "k",
            baseURL: server.url + suffix,
            retry: { maxRetries: 0 },
          },
        ).message;
        expect(server.paths).toEqual(["/v1/messages"]);
      } finally {
        await server.close();
      }
    },
  );
});

describe("safeUrl", () => {
  it("drops credentials and secret query values, keeps the rest", () => {
    expect(
      safeUrl("https://u:p@example.test/v1beta/models/x:streamGenerateContent?alt=sse&key=AIza123"),
    ).toBe("https://example.test/v1beta/models/x:streamGenerateContent?alt=sse&key=[redacted]");
    expect(safeUrl("not a url?token=1")).toBe("not a url");
  });
});

describe("secrets in errors", () => {
  it.each([
    ["a key-shaped secret", "sk-proj-abcdefghijklmnopqrstuvwxyz0123"],
    ["the caller's own key, whatever its shape", "my-local-gateway-key-42"],
  ])("a provider error that echoes %s reaches the caller redacted", async (_name, key) => {
    const server = await answering(401, {
      error: {
        message: `Incorrect API key provided: ${key}.`,
        type: "invalid_request_error",
        code: "invalid_api_key",
      },
    });
    try {
      const result = await runAgent({
        model: "openai/gpt-5",
        apiKey: key,
        baseURL: `${server.url}/v1`,
        prompt: "hi",
      });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error).toMatchObject({
        code: "AUTH",
        message: "Incorrect API key provided: [redacted].",
      });
      const stored = JSON.stringify(result.partial.messages);
      expect(stored).not.toContain(key);
      expect(stored).toContain("[redacted]");
    } finally {
      await server.close();
    }
  });
});
