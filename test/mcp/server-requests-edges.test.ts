/**
 * ServerRequests at its edges: a handler that throws something other than an Error is answered with
 * a generic internal error (a cancel without a reason: server-requests.test.ts).
 */
import { describe, expect, it } from "vitest";
import { ServerRequests } from "../../src/mcp/server-requests.ts";
import type { JsonObject } from "../../src/types.ts";

describe("ServerRequests", () => {
  it("answers a handler that throws a non-Error with -32603 and a generic message", async () => {
    const sent: JsonObject[] = [];
    const requests = new ServerRequests(
      new Map([
        [
          "odd",
          async () => {
            throw "a string, not an Error";
          },
        ],
      ]),
      (answer) => sent.push(answer),
    );
    await requests.answer(7, "odd", {});
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: 7, error: { code: -32603, message: "The client could not answer" } },
    ]);
  });
});
