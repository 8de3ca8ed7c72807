/**
 * A server's prompts at their edges, against a server in place: prompts and arguments listed with
 * an empty name are left out, `getPrompt` without arguments sends none, and its signal aborts it.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/types.ts";
import { failure, okValue } from "../support/results.ts";
import { connectAnswering } from "./support/session-server.ts";

describe("listPrompts", () => {
  it("leaves out a prompt or an argument listed with an empty name", async () => {
    const connection = await connectAnswering({
      "prompts/list": {
        prompts: [
          { name: "" },
          { name: "review", arguments: [{ name: "" }, { name: "language", required: true }] },
        ],
      },
    });
    expect(okValue(await connection.listPrompts())).toEqual([
      { name: "review", arguments: [{ name: "language", required: true }] },
    ]);
    await connection.close();
  });
});

describe("getPrompt", () => {
  const filled = { messages: [{ role: "user", content: { type: "text", text: "Review this." } }] };

  it("sends no arguments when given none, and a copy of those given", async () => {
    const asked: JsonObject[] = [];
    const connection = await connectAnswering({ "prompts/get": filled }, asked);
    okValue(await connection.getPrompt("review"));
    okValue(await connection.getPrompt("review", { language: "Go" }));
    expect(asked.map((message) => message.params)).toEqual([
      { name: "review" },
      { name: "review", arguments: { language: "Go" } },
    ]);
    expect(asked[0]?.params).not.toHaveProperty("arguments");
    await connection.close();
  });

  it("fails with an AbortError, asking the server nothing, when its signal has aborted", async () => {
    const asked: JsonObject[] = [];
    const connection = await connectAnswering({ "prompts/get": filled }, asked);
    const error = failure(await connection.getPrompt("review", undefined, AbortSignal.abort()));
    expect(error._tag).toBe("AbortError");
    expect(asked).toEqual([]);
    await connection.close();
  });
});
