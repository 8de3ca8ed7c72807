/**
 * What a failed or stopped turn says, exactly (issue 41's src/stream survivors): the values of
 * credential headers kept out of errors (with and without `Bearer`), the abort reasons a turn gives
 * (`abort()` without a reason, a consumer that stops reading), the model named as given when it cannot
 * be resolved, and a first failure that does not claim retries it never made.
 */
import { describe, expect, it } from "vitest";
import { type AssistantMessage, streamTurn, type TurnOptions } from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { HELLO } from "../support/replay.ts";

/** A turn whose provider echoes `echo` in its error body (a 400, not retried). */
async function failedWith(echo: string, options: Partial<TurnOptions>): Promise<AssistantMessage> {
  const model = createScriptedModel({
    script: [{ fault: { type: "http", status: 400, message: `bad request: ${echo}` } }],
  });
  const turn = streamTurn(
    { messages: [HELLO] },
    { model: "openai/gpt-5", apiKey: "caller-key-000000", fetch: model.fetch, ...options },
  );
  return turn.message;
}

describe("credential headers' values stay out of errors", () => {
  it.each([
    ["authorization", "Bearer gw-token-1234567890", "gw-token-1234567890"],
    ["Authorization", "bearer   other-token-0987654321", "other-token-0987654321"],
    ["x-api-key", "gateway-key-abcdefgh", "gateway-key-abcdefgh"],
    ["x-gateway-token", "tok-zzzzzzzzzzzz", "tok-zzzzzzzzzzzz"],
    ["X-Client-Secret", "client-secret-99999999", "client-secret-99999999"],
  ])("a %s header's value (and the token behind Bearer) is redacted", async (name, value, echoed) => {
    const message = await failedWith(`you sent ${echoed} and ${value}`, { headers: { [name]: value } });
    expect(message.error?.message).toContain("you sent [redacted] and [redacted]");
    expect(JSON.stringify(message.error)).not.toContain(echoed);
  });

  it("other headers' values are left as they are", async () => {
    const message = await failedWith("trace trace-id-12345678", {
      headers: { "x-trace-id": "trace-id-12345678" },
    });
    expect(message.error?.message).toContain("trace trace-id-12345678");
  });

  it("only a leading Bearer is taken off (a token that merely contains the word is kept whole)", async () => {
    const value = "token-with-Bearer xyz-in-it";
    const message = await failedWith(`saw ${value}; token-with-xyz-in-it is another thing`, {
      headers: { authorization: value },
    });
    expect(message.error?.message).toContain("saw [redacted]; token-with-xyz-in-it is another thing");
  });
});

describe("the reasons a turn gives", () => {
  const slow = () =>
    createScriptedModel({ script: [{ content: [{ type: "text", text: "a b c d e f g h" }], delayMs: 50 }] });

  it("abort() without a reason aborts with an AbortError that says the turn was aborted", async () => {
    const model = slow();
    const turn = streamTurn(
      { messages: [HELLO] },
      { model: "openai/gpt-5", apiKey: "k", fetch: model.fetch },
    );
    turn.abort();
    const message = await turn.message;
    expect(message.error?.code).toBe("ABORTED");
    expect(message.error?.cause).toMatchObject({ name: "AbortError", message: "The turn was aborted" });
  });

  it("abort(reason) passes the caller's reason on", async () => {
    const model = slow();
    const turn = streamTurn(
      { messages: [HELLO] },
      { model: "openai/gpt-5", apiKey: "k", fetch: model.fetch },
    );
    turn.abort("user left");
    expect((await turn.message).error?.cause).toMatchObject({ message: "user left" });
  });

  it("a consumer that stops reading aborts the turn, and says so", async () => {
    const model = slow();
    const turn = streamTurn(
      { messages: [HELLO] },
      { model: "openai/gpt-5", apiKey: "k", fetch: model.fetch },
    );
    for await (const event of turn) if (event.type === "text-delta") break;
    const message = await turn.message;
    expect(message.error?.code).toBe("ABORTED");
    expect(message.error?.cause).toMatchObject({
      name: "AbortError",
      message: "The consumer stopped reading the stream",
    });
  });

  it("a model that cannot be resolved is named as given; a missing one as an empty name", async () => {
    const unknown = await streamTurn(
      { messages: [HELLO] },
      { model: "nowhere/model-x" as "openai/gpt-5", apiKey: "k" },
    ).message;
    expect(unknown.model).toBe("nowhere/model-x");
    const missing = await streamTurn({ messages: [HELLO] }, { apiKey: "k" } as unknown as TurnOptions)
      .message;
    expect(missing.error?.code).toBe("CONFIG_INVALID");
    expect(missing.model).toBe("");
  });

  it("a failure on the first attempt claims no retries; one after retries says how many attempts", async () => {
    const first = await failedWith("nope", { retry: { maxRetries: 0 } });
    expect(first.error?.message).not.toContain("attempts");
    expect(first.error).not.toHaveProperty("attempts");

    // Not retried at once because the server asks too long a wait: the note says why, and no attempts.
    const tooLong = createScriptedModel({
      script: [{ fault: { type: "http", status: 529, retryAfter: 3600 } }],
    });
    const waited = await streamTurn(
      { messages: [HELLO] },
      { model: "openai/gpt-5", apiKey: "k", fetch: tooLong.fetch },
    ).message;
    expect(waited.error?.message).toContain("not retried: the server asked to wait 3600 s");
    expect(waited.error).not.toHaveProperty("attempts");

    const model = createScriptedModel({
      script: [{ fault: { type: "http", status: 529 } }, { fault: { type: "http", status: 529 } }],
    });
    const retried = await streamTurn(
      { messages: [HELLO] },
      {
        model: "openai/gpt-5",
        apiKey: "k",
        fetch: model.fetch,
        retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 },
      },
    ).message;
    expect(retried.error?.message).toContain(" — after 2 attempts");
    expect(retried.error).toMatchObject({ attempts: 2 });
  });
});
