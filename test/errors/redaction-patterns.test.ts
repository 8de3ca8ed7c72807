/**
 * Each secret shape Wisp redacts, one by one — directly (`redactText`, `redactError`, `safeUrl`) and on
 * the public path: what a failed turn hands the caller (the error's message, its request URL, its cause
 * chain, its `toJSON()`, its stack, the stored message, a retry event). Every shape has its own case,
 * with a value no other shape or the caller's own key would catch, so dropping any one pattern (the
 * URL credentials, `sk-ant-`, `sk-`, `AIza`, or one of the secret query parameters) fails a test here.
 */
import { describe, expect, it } from "vitest";
import { redactError, redactText } from "../../src/errors/redact.ts";
import { safeUrl } from "../../src/http/safe-url.ts";
import {
  type AssistantMessage,
  ProviderError,
  RequestError,
  streamTurn,
  type TurnEvent,
  type TurnOptions,
} from "../../src/index.ts";
import { HELLO } from "../support/replay.ts";

/** The caller's own key: nothing below echoes it, so only the shapes can redact what is echoed. */
const CALLER_KEY = "callers-own-key-0000";

/** One secret of each shape, each caught by that shape alone. */
const SHAPES = {
  // 12 characters after "sk-": too short for the generic `sk-` shape (16), so only `sk-ant-` catches it.
  "sk-ant-": "sk-ant-api03-xyz",
  "sk-": "sk-proj-ABCDEFGHIJKLMNOP0123",
  AIza: "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrS",
} as const;

describe("redactText: each key shape", () => {
  it.each(Object.entries(SHAPES))("a %s key is redacted wherever it appears in text", (_shape, key) => {
    expect(redactText(`Incorrect API key provided: ${key}.`, [])).toBe(
      "Incorrect API key provided: [redacted].",
    );
    expect(redactText(`"${key}"`, [])).toBe('"[redacted]"');
    expect(redactText(`/v1/${key}/models`, [])).toBe("/v1/[redacted]/models");
  });

  it("the sk-ant- shape is needed for short Anthropic keys the generic sk- shape does not reach", () => {
    // 8 characters after "sk-ant-": the sk-ant- minimum.
    expect(redactText("key sk-ant-abcdefgh here", [])).toBe("key [redacted] here");
    // Shorter still: neither shape takes it.
    expect(redactText("key sk-ant-abcdefg here", [])).toBe("key sk-ant-abcdefg here");
  });

  it("keeps strings just under each shape's length, and the shapes inside a longer word", () => {
    expect(redactText("sk-abcdefghijklmno", [])).toBe("sk-abcdefghijklmno"); // 15 after sk-
    expect(redactText("sk-abcdefghijklmnop", [])).toBe("[redacted]"); // 16
    expect(redactText("AIzaabcdefghijklmnopqrs", [])).toBe("AIzaabcdefghijklmnopqrs"); // 19 after AIza
    expect(redactText("AIzaabcdefghijklmnopqrst", [])).toBe("[redacted]"); // 20
    expect(redactText("task-abcdefghijklmnopqrstuv", [])).toBe("task-abcdefghijklmnopqrstuv");
    expect(redactText("xAIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrS", [])).toBe(
      "xAIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrS",
    );
  });

  it("URL credentials are redacted, the host and path kept", () => {
    expect(redactText("connect https://alice:hunter22@proxy.example:8080/v1 failed", [])).toBe(
      "connect https://[redacted]@proxy.example:8080/v1 failed",
    );
    expect(redactText("postgres://app:s3cr3t@db.internal/main", [])).toBe(
      "postgres://[redacted]@db.internal/main",
    );
    // A user name alone may be a token (GitHub takes one there): redacted too; a plain host is kept.
    expect(redactText("clone https://ghp_abcdefghijklmnop1234@github.com/acme/repo failed", [])).toBe(
      "clone https://[redacted]@github.com/acme/repo failed",
    );
    expect(redactText("https://proxy.example/v1", [])).toBe("https://proxy.example/v1");
  });

  it("the caller's own secrets of 8 characters or more, whatever their shape", () => {
    expect(redactText("token=local-gw-42 and local-gw-42 again", ["local-gw-42"])).toBe(
      "token=[redacted] and [redacted] again",
    );
    expect(redactText("short pw1 stays", ["pw1"])).toBe("short pw1 stays");
    expect(redactText("eight: 12345678, seven: 1234567", ["12345678", "1234567"])).toBe(
      "eight: [redacted], seven: 1234567",
    );
  });
});

describe("safeUrl: each secret query parameter", () => {
  // Each name is caught by exactly one alternative of the parameter pattern.
  it.each([
    ["key", "key"],
    ["api_key", "key"],
    ["access_token", "token"],
    ["client_secret", "secret"],
    ["sig", "sig"],
    ["X-Amz-Signature", "sig"],
    ["auth", "auth"],
    ["password", "password"],
    ["X-Amz-Credential", "credential"],
    ["session", "session"],
  ])("?%s= has its value redacted (by %s)", (name) => {
    expect(safeUrl(`https://gw.example/v1/chat?alt=sse&${name}=plain-value-123&n=2`)).toBe(
      `https://gw.example/v1/chat?alt=sse&${name}=[redacted]&n=2`,
    );
  });

  it("an Azure SAS URL keeps its other parameters and loses its signature", () => {
    expect(
      safeUrl("https://acct.blob.core.windows.net/c/b?sv=2024-01-01&se=2030-01-01&sp=r&sig=AbC%2Bdef%3D"),
    ).toBe("https://acct.blob.core.windows.net/c/b?sv=2024-01-01&se=2030-01-01&sp=r&sig=[redacted]");
  });

  it("drops user and password, and key-shaped values in a path or another parameter", () => {
    expect(safeUrl("https://alice:hunter22@gw.example/v1")).toBe("https://gw.example/v1");
    expect(safeUrl(`https://gw.example/${SHAPES.AIza}/v1?q=${SHAPES["sk-"]}`)).toBe(
      "https://gw.example/[redacted]/v1?q=[redacted]",
    );
  });

  it("text that is not a URL loses its query and its credentials", () => {
    expect(safeUrl("//alice:hunter22@proxy?token=1")).toBe("//[redacted]@proxy");
    expect(safeUrl("//proxy/a?token=one two\nthree")).toBe("//proxy/a");
  });
});

describe("redactError", () => {
  it("scrubs the message, the request URL, every cause and the stack, keeping class and fields", () => {
    const error = new RequestError(
      `fetch failed for https://alice:hunter22@proxy.example/ with ${SHAPES.AIza}`,
      {
        code: "NETWORK",
        provider: "google",
        request: { method: "POST", url: `https://gw.example/${SHAPES["sk-"]}/v1` },
        cause: new TypeError(`socket https://bob:pa55word@x.example/`, {
          cause: new Error(`inner ${SHAPES["sk-ant-"]}`),
        }),
      },
    );
    const clean = redactError(error, []);
    expect(clean).toBeInstanceOf(RequestError);
    const text = JSON.stringify(clean.toJSON()) + String(clean.stack);
    for (const secret of ["hunter22", "pa55word", ...Object.values(SHAPES)])
      expect(text).not.toContain(secret);
    expect(clean.toJSON()).toMatchObject({
      code: "NETWORK",
      provider: "google",
      message: "fetch failed for https://[redacted]@proxy.example/ with [redacted]",
      request: { method: "POST", url: "https://gw.example/[redacted]/v1" },
      cause: {
        name: "TypeError",
        message: "socket https://[redacted]@x.example/",
        cause: { name: "Error", message: "inner [redacted]" },
      },
    });
  });

  it("a secret only in the request URL, or only in a cause, is enough to make a clean copy", () => {
    const inUrl = new ProviderError("overloaded", {
      code: "OVERLOADED",
      status: 529,
      request: { method: "POST", url: `https://gw.example/${SHAPES.AIza}/v1` },
    });
    const cleanUrl = redactError(inUrl, []);
    expect(cleanUrl).not.toBe(inUrl);
    expect(cleanUrl.toJSON().request?.url).toBe("https://gw.example/[redacted]/v1");

    const inCause = new RequestError("fetch failed", {
      code: "NETWORK",
      cause: new Error(`socket closed ${SHAPES["sk-"]}`),
    });
    const cleanCause = redactError(inCause, []);
    expect(cleanCause).not.toBe(inCause);
    expect(cleanCause.toJSON().cause).toMatchObject({ message: "socket closed [redacted]" });
  });

  it("an error with nothing to hide comes back as itself", () => {
    const error = new ProviderError("overloaded", { code: "OVERLOADED", status: 529 });
    expect(redactError(error, ["some-caller-key"])).toBe(error);
  });
});

/** A turn through `fetch`, with the caller's own key only; its events and finished message. */
async function failedTurn(fetch: typeof globalThis.fetch, options: Partial<TurnOptions> = {}) {
  const turn = streamTurn(
    { messages: [HELLO] },
    { model: "openai/gpt-5", apiKey: CALLER_KEY, fetch, retry: { maxRetries: 0 }, ...options },
  );
  const events: TurnEvent[] = [];
  for await (const event of turn) events.push(event);
  const message: AssistantMessage = await turn.message;
  const failure = events.find((event) => event.type === "error");
  if (failure?.type !== "error") throw new Error("the turn did not fail");
  return { error: failure.error, message, events };
}

/** Everything a caller can see or store of a failed turn, as text. */
function visible(outcome: Awaited<ReturnType<typeof failedTurn>>): string {
  return [
    outcome.error.message,
    JSON.stringify(outcome.error),
    JSON.stringify(outcome.error.toJSON()),
    String(outcome.error.stack),
    JSON.stringify(outcome.message),
    JSON.stringify(
      outcome.events.filter((event) => event.type === "retry").map((event) => event.error.toJSON()),
    ),
  ].join("\n");
}

/** A provider answering `status` with an OpenAI-style error whose message is `message`. */
function answering(status: number, message: string): typeof globalThis.fetch {
  const type = status >= 500 ? "server_error" : "invalid_request_error";
  return async () =>
    new Response(JSON.stringify({ error: { message, type } }), {
      status,
      headers: { "content-type": "application/json" },
    });
}

describe("a failed turn carries no secret (the public path)", () => {
  it.each(Object.entries(SHAPES))(
    "a provider error echoing a %s key that is not the caller's reaches the caller redacted",
    async (_shape, key) => {
      const outcome = await failedTurn(answering(401, `Incorrect API key provided: ${key}.`));
      expect(outcome.error).toMatchObject({
        code: "AUTH",
        message: "Incorrect API key provided: [redacted].",
      });
      expect(outcome.message.error?.message).toBe("Incorrect API key provided: [redacted].");
      expect(visible(outcome)).not.toContain(key);
    },
  );

  it("a retried failure's retry event is redacted too", async () => {
    let calls = 0;
    const outcome = await failedTurn(
      async (input, init) => {
        calls++;
        return answering(500, `upstream rejected ${SHAPES.AIza}`)(input, init);
      },
      { retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 } },
    );
    expect(calls).toBe(2);
    const retry = outcome.events.find((event) => event.type === "retry");
    expect(retry?.type === "retry" && retry.error.message).toBe("upstream rejected [redacted]");
    expect(visible(outcome)).not.toContain(SHAPES.AIza);
  });

  it("a runtime error quoting a URL with credentials loses them in the message, the causes and the stack", async () => {
    const outcome = await failedTurn(async () => {
      throw new TypeError("connect to https://alice:hunter22pw@proxy.example:8080/ failed", {
        cause: new Error("tunnel postgres://svc:db-pass-77@db.internal/ refused"),
      });
    });
    expect(outcome.error.message).toContain("connect to https://[redacted]@proxy.example:8080/ failed");
    expect(outcome.error.toJSON().cause).toMatchObject({
      message: "connect to https://[redacted]@proxy.example:8080/ failed",
      cause: { message: "tunnel postgres://[redacted]@db.internal/ refused" },
    });
    const text = visible(outcome);
    expect(text).not.toContain("hunter22pw");
    expect(text).not.toContain("db-pass-77");
  });

  it("a gateway URL's signature, token and credentials stay out of the request URL and the message", async () => {
    const outcome = await failedTurn(answering(404, "no such deployment"), {
      baseURL:
        "https://alice:hunter22pw@gw.example/v1?sv=2024&sig=SAS-SIGNATURE-VALUE&access_token=tok-value-1",
    });
    const url = "https://gw.example/v1/chat/completions?sv=2024&sig=[redacted]&access_token=[redacted]";
    expect(outcome.error.toJSON().request).toEqual({ method: "POST", url });
    const text = visible(outcome);
    for (const secret of ["SAS-SIGNATURE-VALUE", "tok-value-1", "hunter22pw"])
      expect(text).not.toContain(secret);
  });

  it("a network failure names the URL without its signature", async () => {
    const outcome = await failedTurn(
      async () => {
        throw new TypeError("fetch failed");
      },
      { baseURL: "https://gw.example/v1?sig=SAS-SIGNATURE-VALUE" },
    );
    expect(outcome.error.message).toContain("https://gw.example/v1/chat/completions?sig=[redacted]");
    expect(visible(outcome)).not.toContain("SAS-SIGNATURE-VALUE");
  });
});
