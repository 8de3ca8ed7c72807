/**
 * Edges of reading a request body (worker/api-error.ts): the content type must start the header, a
 * body declared too large is refused before it is read, a body of exactly the limit is accepted, a
 * UTF-8 byte-order mark is dropped, and bytes that are not UTF-8 are a 400.
 */
import { describe, expect, it } from "vitest";
import { ApiError, readJson, readText } from "../api-error.ts";

function jsonRequest(body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request("http://demo.test/", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("readJson and readText", () => {
  it("refuses a content type that only contains application/json, naming the type to send", async () => {
    const error = await refusal(
      readJson(jsonRequest("{}", { "content-type": "text/x-application/json" }), 100),
    );
    expect(error).toMatchObject({ status: 415, code: "UNSUPPORTED_MEDIA_TYPE" });
    expect(error.message).toBe("Send the body as application/json");
  });

  it("refuses a body whose content-length is over the limit without reading it", async () => {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("the body was read"));
      },
    });
    const request = new Request("http://demo.test/", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": "1000" },
      body,
    });
    const error = await refusal(readJson(request, 100));
    expect(error).toMatchObject({ status: 413, code: "BODY_TOO_LARGE" });
  });

  it("accepts a body of exactly the limit, also when its content-length says so", async () => {
    const body = JSON.stringify({ text: "exactly" });
    const size = new TextEncoder().encode(body).byteLength;
    expect(await readJson(jsonRequest(body), size)).toEqual({ text: "exactly" });
    expect(await readJson(jsonRequest(body, { "content-length": String(size) }), size)).toEqual({
      text: "exactly",
    });
  });

  it("drops a UTF-8 byte-order mark before parsing", async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"a":1}')]);
    expect(await readJson(jsonRequest(bytes), 100)).toEqual({ a: 1 });
  });

  it("is a 400 when the bytes are not UTF-8, even inside a JSON string", async () => {
    const bytes = new Uint8Array([0x22, 0xff, 0x22]);
    const error = await refusal(
      readText(jsonRequest(bytes), 100, [/^application\/json\b/i], "application/json"),
    );
    expect(error).toMatchObject({ status: 400, code: "MALFORMED_JSON" });
    expect(error.message).toBe("The body is not UTF-8 text");
  });
});
