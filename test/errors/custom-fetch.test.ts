/**
 * What a user's own `fetch` wrapper throws (a proxy, an auth signer, a per-request timeout) is
 * classified by its name, its code, its whole cause chain and its words, end to end: through
 * `streamTurn` and `runAgent` to the error's code and `retryable`, and a retryable one is retried
 * (the wrapper counts the attempts). Real `fetch` against the scripted model on loopback HTTP where
 * the runtime's own behaviour matters (AbortSignal.timeout), the scripted model in-process otherwise.
 */
import { describe, expect, it } from "vitest";
import { serveScriptedModel } from "../../runtime/node/index.ts";
import {
  type AssistantMessage,
  ProviderError,
  runAgent,
  streamTurn,
  type TurnEvent,
  type TurnOptions,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { HELLO } from "../support/replay.ts";
import { revokedProxy, withCode, wrapped } from "./thrown-values.ts";

const MODEL = "anthropic/claude-sonnet-4-5";
const FAST_RETRY = { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 4 };
const ANSWER: ScriptedTurn = { content: [{ type: "text", text: "Hello there" }] };
/** Headers that never come in a test's time: only the wrapper's timeout ends the wait. */
const SLOW: ScriptedTurn = { ...ANSWER, headersDelayMs: 60_000 };

/** A fetch wrapper that counts its calls and runs `each` for the call numbered `attempt` (from 1). */
function wrapper(each: (attempt: number, input: RequestInfo | URL, init?: RequestInit) => Promise<Response>) {
  const counted = {
    attempts: 0,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => {
      counted.attempts++;
      return each(counted.attempts, input, init);
    }) as typeof fetch,
  };
  return counted;
}

/** Runs one turn to its end. */
async function turnWith(options: Partial<TurnOptions> & Pick<TurnOptions, "fetch">) {
  const turn = streamTurn(
    { messages: [HELLO] },
    { model: MODEL, apiKey: "k", retry: FAST_RETRY, ...options },
  );
  const events: TurnEvent[] = [];
  for await (const event of turn) events.push(event);
  const message: AssistantMessage = await turn.message;
  const retries = events.filter((event) => event.type === "retry");
  return { message, retries };
}

/** A wrapper whose first `failures` calls throw what `fail` makes; later calls reach the scripted model. */
function failingFirst(failures: number, fail: () => unknown) {
  const scripted = createScriptedModel({ script: [ANSWER] });
  return wrapper(async (attempt, input, init) => {
    if (attempt <= failures) throw fail();
    return scripted.fetch(input, init);
  });
}

/** The caller's signal and `more`, as one (streamTurn always passes one; the types allow none). */
function alsoOn(init: RequestInit | undefined, more: AbortSignal): AbortSignal {
  return init?.signal ? AbortSignal.any([init.signal, more]) : more;
}

/** A wrapper giving attempt `n` its own `AbortSignal.timeout(limitMs(n))`, as a per-request timeout does. */
function timingOut(limitMs: (attempt: number) => number) {
  return wrapper((attempt, input, init) =>
    fetch(input, { ...init, signal: alsoOn(init, AbortSignal.timeout(limitMs(attempt))) }),
  );
}

/** Runs `body` against the scripted model serving `script` on loopback HTTP, for this test alone. */
async function overHttp<T>(script: ScriptedTurn[], body: (baseURL: string) => Promise<T>): Promise<T> {
  const server = await serveScriptedModel(createScriptedModel({ script }));
  try {
    return await body(server.url);
  } finally {
    await server.close();
  }
}

describe("a wrapper's own timeout, over real HTTP", () => {
  it("AbortSignal.timeout in the wrapper is a retryable TIMEOUT, retried until the answer comes", async () => {
    // Only the first attempt is cut short: the retry gets all the time it needs.
    const counted = timingOut((attempt) => (attempt === 1 ? 40 : 60_000));
    const { message, retries } = await overHttp([SLOW, ANSWER], (baseURL) =>
      turnWith({ baseURL, fetch: counted.fetch }),
    );
    expect(message.stopReason).toBe("complete");
    expect(message.content).toEqual([{ type: "text", text: "Hello there" }]);
    expect(counted.attempts).toBe(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ error: { _tag: "RequestError", code: "TIMEOUT", retryable: true } });
    expect(retries[0]?.type === "retry" && retries[0].error.message).toMatch(
      /^Timed out waiting for http:\/\/127\.0\.0\.1:\d+\/v1\/messages \(POST\): /,
    );
  });

  it("the wrapper's timeout firing while the stream stalls before any output is a TIMEOUT, retried", async () => {
    // A body timeout: the first attempt's clock starts once its headers have come.
    const counted = wrapper(async (attempt, input, init) => {
      const own = new AbortController();
      const response = await fetch(input, { ...init, signal: alsoOn(init, own.signal) });
      const late = new DOMException("The body did not arrive in time", "TimeoutError");
      if (attempt === 1) setTimeout(() => own.abort(late), 20);
      return response;
    });
    const stalls: ScriptedTurn = { ...ANSWER, fault: { type: "stall", afterEvents: 1 } };
    const { message, retries } = await overHttp([stalls, ANSWER], (baseURL) =>
      turnWith({ baseURL, fetch: counted.fetch }),
    );
    expect(message.stopReason).toBe("complete");
    expect(counted.attempts).toBe(2);
    expect(retries[0]).toMatchObject({ error: { code: "TIMEOUT", retryable: true } });
    expect(retries[0]?.type === "retry" && retries[0].error.message).toMatch(
      /^Timed out reading the stream from /,
    );
  });

  it("a wrapper that aborts its own controller is a TIMEOUT, not ABORTED, and every attempt is made", async () => {
    const counted = wrapper((_attempt, input, init) => {
      const own = new AbortController();
      const timer = setTimeout(() => own.abort(), 40);
      return fetch(input, { ...init, signal: alsoOn(init, own.signal) }).finally(() => clearTimeout(timer));
    });
    const { message, retries } = await overHttp([SLOW, SLOW, SLOW], (baseURL) =>
      turnWith({ baseURL, fetch: counted.fetch }),
    );
    expect(message.stopReason).toBe("error");
    expect(message.error).toMatchObject({
      _tag: "RequestError",
      code: "TIMEOUT",
      retryable: true,
      attempts: 3,
    });
    expect(message.error?.message).toContain("aborted by the fetch itself, not by the caller's signal");
    expect(counted.attempts).toBe(3);
    expect(retries).toHaveLength(2);
  });

  it("the caller's own abort through the wrapper stays ABORTED and is not retried", async () => {
    const caller = new AbortController();
    const counted = wrapper((_attempt, input, init) => {
      setTimeout(() => caller.abort(), 20);
      return fetch(input, { ...init, signal: alsoOn(init, AbortSignal.timeout(60_000)) });
    });
    const { message, retries } = await overHttp([SLOW], (baseURL) =>
      turnWith({ baseURL, fetch: counted.fetch, signal: caller.signal }),
    );
    expect(message.stopReason).toBe("aborted");
    expect(message.error).toMatchObject({ _tag: "AbortError", code: "ABORTED", retryable: false });
    expect(counted.attempts).toBe(1);
    expect(retries).toHaveLength(0);
  });
});

const RETRIED = [
  {
    what: "a DOMException TimeoutError thrown by the wrapper",
    fail: () => new DOMException("The operation was aborted due to timeout", "TimeoutError"),
    code: "TIMEOUT",
  },
  {
    what: "an error whose code is ECONNREFUSED",
    fail: () => withCode("proxy said no", "ECONNREFUSED"),
    code: "NETWORK",
  },
  {
    what: "ECONNRESET six causes deep",
    fail: () => wrapped(6, withCode("socket hang up", "ECONNRESET")),
    code: "NETWORK",
  },
  {
    what: "ETIMEDOUT in the cause",
    fail: () => new Error("signer: upstream failed", { cause: withCode("connect ETIMEDOUT", "ETIMEDOUT") }),
    code: "TIMEOUT",
  },
  { what: 'the words "request timed out"', fail: () => new Error("request timed out"), code: "TIMEOUT" },
  {
    what: 'the words "connection refused" in a cause',
    fail: () => new Error("proxy CONNECT failed", { cause: "upstream connection refused" }),
    code: "NETWORK",
  },
  {
    what: "a ProviderError RATE_LIMITED made without retryable",
    fail: () => new ProviderError("slow down", { code: "RATE_LIMITED", provider: "anthropic" }),
    code: "RATE_LIMITED",
  },
] as const;

describe("what a wrapper throws, through streamTurn", () => {
  for (const { what, fail, code } of RETRIED) {
    it(`${what} is a retryable ${code}, retried, and the next attempt answers`, async () => {
      const counted = failingFirst(1, fail);
      const { message, retries } = await turnWith({ fetch: counted.fetch });
      expect(message.stopReason).toBe("complete");
      expect(counted.attempts).toBe(2);
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatchObject({ attempt: 1, error: { code, retryable: true } });
    });
  }

  it("a retryable error thrown every time fails after every attempt, with its code and the count", async () => {
    const counted = failingFirst(Number.POSITIVE_INFINITY, () => new Error("request timed out"));
    const { message, retries } = await turnWith({ fetch: counted.fetch });
    expect(message.error).toMatchObject({ code: "TIMEOUT", retryable: true, attempts: 3 });
    expect(counted.attempts).toBe(3);
    expect(retries).toHaveLength(2);
  });

  it("a cause chain that loops, a cause getter that throws, a revoked Proxy: UNKNOWN once, no hang, no throw", async () => {
    const looped = new Error("looped");
    (looped as { cause?: unknown }).cause = new Error("back", { cause: looped });
    const hostile = new Error("hostile");
    Object.defineProperty(hostile, "cause", {
      get() {
        throw new Error("no cause for you");
      },
    });
    const proxy = revokedProxy();
    for (const [thrown, text] of [
      [looped, "looped"],
      [hostile, "hostile"],
      [proxy, "(a thrown value that cannot be shown)"],
    ] as const) {
      const counted = failingFirst(1, () => thrown);
      const { message, retries } = await turnWith({ fetch: counted.fetch });
      expect(message.stopReason).toBe("error");
      expect(message.error).toMatchObject({ _tag: "RequestError", code: "UNKNOWN", retryable: false });
      expect(message.error?.message).toBe(`${text} (POST https://api.anthropic.com/v1/messages)`);
      expect(counted.attempts).toBe(1);
      expect(retries).toHaveLength(0);
    }
  });
});

/** A run whose requests go through `fetch`, retried quickly. */
const runThrough = (fetch: typeof globalThis.fetch) =>
  runAgent({ model: MODEL, apiKey: "k", prompt: "hi", fetch, retry: FAST_RETRY });

describe("what a wrapper throws, through runAgent", () => {
  it("a wrapper's TimeoutError on every attempt ends the run with a retryable TIMEOUT after 3 attempts", async () => {
    const counted = failingFirst(
      Number.POSITIVE_INFINITY,
      () => new DOMException("timed out", "TimeoutError"),
    );
    const result = await runThrough(counted.fetch);
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.error).toMatchObject({
      _tag: "RequestError",
      code: "TIMEOUT",
      retryable: true,
      attempts: 3,
    });
    expect(counted.attempts).toBe(3);
  });

  it("a test double's ProviderError RATE_LIMITED (no retryable given) is retried and the run completes", async () => {
    const counted = failingFirst(1, () => new ProviderError("slow down", { code: "RATE_LIMITED" }));
    const result = await runThrough(counted.fetch);
    expect(result.ok && result.value.text).toBe("Hello there");
    expect(counted.attempts).toBe(2);
  });
});

describe("a custom fetch that returns no Response", () => {
  it("is a ConfigError naming the fetch option, not retried (not a TypeError from reading its headers)", async () => {
    let calls = 0;
    const forgetful = (async (input: RequestInfo | URL, init?: RequestInit) => {
      calls++;
      await globalThis.fetch(input, init).catch(() => {}); // forgot to return it
    }) as unknown as typeof fetch;
    const turn = streamTurn(
      { messages: [HELLO] },
      {
        model: MODEL,
        apiKey: "k",
        baseURL: "http://127.0.0.1:9",
        fetch: forgetful,
        retry: { maxRetries: 2, initialDelayMs: 1 },
      },
    );
    const message = await turn.message;
    expect(message.error).toMatchObject({
      _tag: "ConfigError",
      code: "CONFIG_INVALID",
      path: "fetch",
      retryable: false,
    });
    expect(message.error?.message).toMatch(
      /^The custom fetch resolved to undefined instead of a Response \(POST http:\/\/127\.0\.0\.1:9\/v1\/messages\)/,
    );
    expect(calls).toBe(1);
  });
});

describe("internal errors keep their retry decision", () => {
  it("a 200 with no body is not retried (STREAM_TRUNCATED with retryable: false, one request)", async () => {
    let calls = 0;
    const empty = (async () => {
      calls++;
      return new Response(null, { status: 200 });
    }) as unknown as typeof fetch;
    const message = await streamTurn(
      { messages: [HELLO] },
      { model: MODEL, apiKey: "k", fetch: empty, retry: { maxRetries: 2, initialDelayMs: 1 } },
    ).message;
    expect(message.error).toMatchObject({ code: "STREAM_TRUNCATED", retryable: false });
    expect(calls).toBe(1);
  });
});
