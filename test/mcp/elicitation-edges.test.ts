/**
 * elicitationHandler called directly, as the client calls it for `elicitation/create`: a request with
 * no mode or message read as a form with an empty message; the invalid-params refusals and their
 * messages (no url or id, a url that is not http(s) even if it quotes one, a form with no schema);
 * http and upper-case HTTPS URLs taken; and an answer that breaks the form refused by Wisp itself,
 * with the reason, before any server could check it.
 */
import { describe, expect, it } from "vitest";
import { elicitationHandler, type McpElicitationRequest } from "../../src/mcp/elicitation.ts";

const signal = new AbortController().signal;
const FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

/** A handler whose app records each request and answers with `answer`. */
function asking(answer: unknown = { action: "decline" }) {
  const asked: McpElicitationRequest[] = [];
  const handler = elicitationHandler((request) => {
    asked.push(request);
    return answer as never;
  });
  return { handler, asked };
}

describe("elicitationHandler reading the request", () => {
  it("takes a request with no mode and no message as a form with an empty message", async () => {
    const { handler, asked } = asking();
    await expect(handler({ requestedSchema: FORM }, signal)).resolves.toEqual({ action: "decline" });
    expect(asked).toEqual([{ mode: "form", message: "", requestedSchema: FORM }]);
  });

  it("refuses a URL request without a url or an elicitationId as invalid params", async () => {
    const { handler, asked } = asking();
    for (const params of [
      { mode: "url", elicitationId: "e" },
      { mode: "url", url: "https://example.com" },
    ])
      await expect(handler(params, signal)).rejects.toMatchObject({
        code: -32602,
        message: "A URL elicitation needs a url and an elicitationId",
      });
    expect(asked).toEqual([]);
  });

  it("refuses a url that only quotes an http(s) URL after another scheme", async () => {
    const { handler, asked } = asking();
    await expect(
      handler(
        { mode: "url", message: "Go", url: "javascript:alert('https://x')", elicitationId: "e" },
        signal,
      ),
    ).rejects.toMatchObject({ code: -32602, message: "A URL elicitation's url must be http or https" });
    expect(asked).toEqual([]);
  });

  it("takes http URLs and https in any case", async () => {
    const { handler, asked } = asking({ action: "accept" });
    for (const url of ["http://127.0.0.1:8080/sign", "HTTPS://EXAMPLE.COM/sign"])
      await expect(handler({ mode: "url", message: "Go", url, elicitationId: "e" }, signal)).resolves.toEqual(
        {
          action: "accept",
        },
      );
    expect(asked.map((request) => (request.mode === "url" ? request.url : ""))).toEqual([
      "http://127.0.0.1:8080/sign",
      "HTTPS://EXAMPLE.COM/sign",
    ]);
  });

  it("refuses a form request without a requestedSchema as invalid params", async () => {
    const { handler, asked } = asking();
    await expect(handler({ mode: "form", message: "Your name?" }, signal)).rejects.toMatchObject({
      code: -32602,
      message: "A form elicitation needs a requestedSchema",
    });
    expect(asked).toEqual([]);
  });
});

describe("elicitationHandler checking the answer", () => {
  it("refuses an accepted answer that breaks the form, naming what is wrong", async () => {
    const { handler } = asking({ action: "accept", content: { name: 42 } });
    await expect(handler({ mode: "form", message: "?", requestedSchema: FORM }, signal)).rejects.toThrow(
      "The answer does not match the requested schema: name: expected string, got number",
    );
  });

  it("sends an accepted answer that fits the form", async () => {
    const { handler } = asking({ action: "accept", content: { name: "Ada" } });
    await expect(handler({ mode: "form", message: "?", requestedSchema: FORM }, signal)).resolves.toEqual({
      action: "accept",
      content: { name: "Ada" },
    });
  });
});
